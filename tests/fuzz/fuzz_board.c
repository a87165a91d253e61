/* fuzz_board.c - board detection (sysfs, /proc and the device tree) on a
 * fixture tree built under a temporary directory from the input.
 *
 * Input: records of [file index][length, 2 bytes little-endian][contents];
 * the index picks one of the files board_detect() reads (modulo their
 * count), a file no record names is missing. Device-tree strings may hold
 * NULs, as real ones do.
 *
 * Seeds: with EVMFUZZ_ENCODE=<sysroot> and EVMFUZZ_OUT=<file> the target
 * writes that fixture tree in this format and exits (make fuzz does this
 * for each tests/data/sysroots tree). */
#include "config.h"

#include <errno.h>
#include <sys/stat.h>

#include "board/board.h"
#include "fuzz_util.h"
#include "common/util.h"

static const char *const files[] = {
    "proc/device-tree/model",
    "proc/device-tree/compatible",
    "sys/firmware/devicetree/base/model",
    "sys/firmware/devicetree/base/compatible",
    "sys/devices/soc0/family",
    "sys/devices/soc0/machine",
    "sys/devices/soc0/revision",
    "proc/cpuinfo",
    "proc/meminfo",
    "proc/sys/kernel/osrelease",
    "sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq",
    "sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq",
    "sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
    "sys/devices/system/cpu/cpufreq/policy0/scaling_cur_freq",
    "sys/devices/system/cpu/cpufreq/policy0/cpuinfo_max_freq",
    "sys/devices/system/cpu/cpufreq/policy0/scaling_governor",
    "sys/class/dmi/id/sys_vendor",
    "sys/class/dmi/id/product_name",
};
#define NFILES (sizeof files / sizeof files[0])

static void mkdir_parents(const char *path)
{
    char *p = xstrdup(path);
    for (char *s = strchr(p + 1, '/'); s; s = strchr(s + 1, '/')) {
        *s = '\0';
        if (mkdir(p, 0700) != 0 && errno != EEXIST)
            abort();
        *s = '/';
    }
    free(p);
}

/* EVMFUZZ_ENCODE: one seed from a fixture tree. */
static void encode(const char *root, const char *out)
{
    FILE *f = fopen(out, "wb");
    if (!f)
        exit(1);
    for (size_t i = 0; i < NFILES; i++) {
        char *path = path_join(root, files[i]);
        FILE *in = fopen(path, "rb");
        free(path);
        if (!in)
            continue;
        unsigned char buf[65535];
        size_t n = fread(buf, 1, sizeof buf, in);
        fclose(in);
        fputc((int)i, f);
        fputc((int)(n & 0xff), f);
        fputc((int)(n >> 8), f);
        fwrite(buf, 1, n, f);
    }
    exit(fclose(f) == 0 ? 0 : 1);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    const char *root = getenv("EVMFUZZ_ENCODE"), *out = getenv("EVMFUZZ_OUT");
    if (root && out)
        encode(root, out);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *root = fuzz_dir();
    for (size_t i = 0; i < NFILES; i++) {
        char *path = path_join(root, files[i]);
        unlink(path);
        free(path);
    }
    size_t off = 0;
    while (off + 3 <= size) {
        size_t idx = data[off] % NFILES;
        size_t len = (size_t)data[off + 1] | (size_t)data[off + 2] << 8;
        off += 3;
        if (len > size - off)
            len = size - off;
        char *path = path_join(root, files[idx]);
        mkdir_parents(path);
        FILE *f = fopen(path, "ab");
        if (!f || fwrite(data + off, 1, len, f) != len || fclose(f) != 0)
            abort();
        free(path);
        off += len;
    }
    struct board_info b;
    board_detect(&b, root);
    json_t *j = board_to_json(&b);
    char *s = json_dumps(j, 0);
    if (!s)
        abort();    /* board strings must be valid UTF-8 (printable ASCII) */
    free(s);
    json_decref(j);
    board_free(&b);
    return 0;
}
