/* test_board.c - board detection over the fixture sysroots in
 * tests/data/sysroots, and over broken trees built in a temporary dir. */
#include "config.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app.h"
#include "board/board.h"
#include "board/socdata.h"
#include "board/socfacts.h"
#include "suites.h"
#include "common/util.h"
#include "benches/kernels/registry.h"

/* One fixture and what detection must find in it. */
struct fixture {
    const char *dir;
    enum board_kind kind;
    const char *key;
    const char *name;
    const char *family, *revision;
    int cores;
    const char *part, *cpu_name;
    double mhz, max_mhz;
    const char *governor;
    long mem_mb;
    const char *kernel;
    size_t ncompatible;
    const char *how[3];         /* substrings of `how` */
};

static const struct fixture fixtures[] = {
    { "am62xx_sk-fs", BOARD_KNOWN, "am62xx_sk-fs", "AM62x SK", "AM62X", "SR1.0",
      4, "0xd03", "Cortex-A53", 1400, 1400, "performance", 1874,
      "6.6.32-ti-01451-g9d6c5cd3a7ab", 2,
      { "device-tree compatible \"ti,am625-sk\"", "matches am62xx_sk-fs",
        "(AM62x SK)" } },
    /* the SK's device tree and an A53 cpuinfo under an emulator: no soc0
     * (the family comes from the compatible), the host's cpufreq */
    { "am62xx_sk-fs-emulated", BOARD_KNOWN, "am62xx_sk-fs", "AM62x SK", "AM62X", NULL,
      4, "0xd03", "Cortex-A53", 4470.116, 4482, "performance", 1874,
      "6.8.0-48-generic", 2,
      { "device-tree compatible \"ti,am625-sk\"", "matches am62xx_sk-fs" } },
    /* an AM62x SK tree whose cpuinfo shows Cortex-A72 cores */
    { "am62xx_sk-fs-wrongcpu", BOARD_KNOWN, "am62xx_sk-fs", "AM62x SK", "AM62X", "SR1.0",
      4, "0xd08", "Cortex-A72", 1400, 1400, "performance", 1874,
      "6.6.32-ti-01451-g9d6c5cd3a7ab", 2,
      { "matches am62xx_sk-fs" } },
    { "am62xx_lp_sk-fs", BOARD_KNOWN, "am62xx_lp_sk-fs", "AM62x LP SK", "AM62X",
      "SR1.0", 4, "0xd03", "Cortex-A53", 200, 1250, "ondemand", 1890,
      "6.6.32-ti-01451-g9d6c5cd3a7ab", 2,
      { "\"ti,am62-lp-sk\"", "am62xx_lp_sk-fs" } },
    { "am62xxsip_sk-fs-xxl", BOARD_KNOWN, "am62xxsip_sk-fs", "AM62 SIP SK",
      "AM62X", "SR1.0", 4, "0xd03", "Cortex-A53", 1400, 1400, "performance",
      413, "6.1.80-ti-g2e423244f8c0", 2,
      { "\"ti,am6254xxl-sk\"", "am62xxsip_sk-fs" } },
    { "am62xxsip_sk-fs-atl", BOARD_KNOWN, "am62xxsip_sk-fs", "AM62 SIP SK",
      "AM62X", "SR1.1", 4, "0xd03", "Cortex-A53", 1000, 1400, "schedutil",
      417, "6.12.17-ti-00771-gc85877d40f8e", 3,
      { "\"ti,am6254atl-sk\"", "am62xxsip_sk-fs" } },
    { "j721e-idk-gw", BOARD_KNOWN, "j721e-idk-gw", "J721E EVM", "J721E", "SR1.1",
      2, "0xd08", "Cortex-A72", 2000, 2000, "performance", 3647,
      "6.6.32-ti-01451-g9d6c5cd3a7ab", 2,
      { "\"ti,j721e-evm\"", "j721e-idk-gw" } },
    { "am68_sk-fs", BOARD_KNOWN, "am68_sk-fs", "AM68 SK", "J721S2", "SR1.0",
      2, "0xd08", "Cortex-A72", 2000, 2000, "performance", 15619,
      "6.6.32-ti-01451-g9d6c5cd3a7ab", 2,
      { "\"ti,am68-sk\"", "am68_sk-fs" } },
    { "am69_sk-fs", BOARD_KNOWN, "am69_sk-fs", "AM69 SK", "J784S4", "SR1.0",
      8, "0xd08", "Cortex-A72", 2000, 2000, "performance", 31671,
      "6.6.32-ti-01451-g9d6c5cd3a7ab", 2,
      { "\"ti,am69-sk\"", "am69_sk-fs" } },
    { "ti-am64x-sk", BOARD_TI_UNKNOWN, NULL, "Texas Instruments AM642 SK",
      "AM64X", "SR2.0", 2, "0xd03", "Cortex-A53", 1000, 1000, "performance",
      1921, "6.6.32-ti-01451-g9d6c5cd3a7ab", 2,
      { "TI AM64X SoC (soc0 family)", "no guide board uses the AM64X family",
        "--board KEY" } },
    { "ti-custom-am62x", BOARD_TI_UNKNOWN, NULL, "Acme AM62x Gateway",
      "AM62X", "SR1.0", 4, "0xd03", "Cortex-A53", 1400, 1400, "performance",
      931, "6.6.32-ti-01451-g9d6c5cd3a7ab", 2,
      { "TI AM62X SoC", "\"Acme AM62x Gateway\"",
        "--board am62xx_sk-fs, am62xx_lp_sk-fs or am62xxsip_sk-fs" } },
    { "rpi4", BOARD_OTHER_DT, NULL, "Raspberry Pi 4 Model B Rev 1.4",
      NULL, NULL, 4, "0xd08", "Cortex-A72", 600, 1800, "ondemand", 7810,
      "6.6.31+rpt-rpi-v8", 2,
      { "non-TI board", "\"Raspberry Pi 4 Model B Rev 1.4\"", "--board KEY" } },
    { "nxp-imx8mp-evk", BOARD_OTHER_DT, NULL, "NXP i.MX8MPlus EVK board",
      "Freescale i.MX", "1.1", 4, "0xd03", "Cortex-A53", 1200, 1800,
      "schedutil", 5725, "6.6.23-lts-next-g1c2a9a9e8e5f", 2,
      { "non-TI board", "--board KEY" } },
    { "pc-x86", BOARD_NO_DT, NULL, "QEMU Standard PC (i440FX + PIIX, 1996)",
      NULL, NULL, 2, NULL, "AMD EPYC", 2096.015, 0, NULL, 3921, "6.18.44", 0,
      { "no device tree: a PC or virtual machine",
        "no guide reference applies", "--board KEY" } },
};

static void detect_fixture(struct board_info *b, const char *dir)
{
    char *rel = path_join("sysroots", dir);
    char *root = test_data_path(rel);
    board_detect(b, root);
    free(root);
    free(rel);
}

/* Renders board_print_text() into a string. */
static char *render_text(const struct board_info *b)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(f);
    board_print_text(b, f);
    fclose(f);
    return buf;
}

/* Every line fits 79 columns; values start in one column. */
static void check_text_layout(const char *text)
{
    size_t lines = 0;
    for (const char *p = text; *p; lines++) {
        const char *nl = strchr(p, '\n');
        ck_assert_ptr_nonnull(nl);
        size_t n = (size_t)(nl - p);
        ck_assert_msg(n <= 79, "line too long (%zu): %.*s", n, (int)n, p);
        ck_assert_msg(n > 14 && p[13] == ' ' && p[14] != ' ',
                      "value not in column 15: %.*s", (int)n, p);
        p = nl + 1;
    }
    ck_assert_uint_ge(lines, 12);
}

START_TEST(fixture)
{
    const struct fixture *fx = &fixtures[_i];
    struct board_info b;
    detect_fixture(&b, fx->dir);

    ck_assert_msg(b.kind == fx->kind, "%s: kind %s", fx->dir,
                  board_kind_name(b.kind));
    ck_assert_pstr_eq(b.key, fx->key);
    ck_assert_pstr_eq(b.name, fx->name);
    ck_assert_pstr_eq(b.family, fx->family);
    ck_assert_pstr_eq(b.revision, fx->revision);
    ck_assert_int_eq(b.cores, fx->cores);
    ck_assert_pstr_eq(b.cpu_part, fx->part);
    ck_assert_pstr_eq(b.cpu_name, fx->cpu_name);
    ck_assert_double_eq_tol(b.cpu_mhz, fx->mhz, 1e-6);
    ck_assert_double_eq_tol(b.cpu_max_mhz, fx->max_mhz, 1e-6);
    ck_assert_pstr_eq(b.governor, fx->governor);
    ck_assert_int_eq(b.mem_mb, fx->mem_mb);
    ck_assert_pstr_eq(b.kernel, fx->kernel);
    ck_assert_uint_eq(b.ncompatible, fx->ncompatible);
    if (fx->kind != BOARD_NO_DT) {
        ck_assert_ptr_nonnull(b.model);
        ck_assert_str_eq(b.machine ? b.machine : b.model, b.model);
    } else {
        ck_assert_ptr_null(b.model);
    }

    ck_assert_ptr_nonnull(b.how);
    ck_assert_ptr_null(strchr(b.how, '\n'));
    for (size_t i = 0; i < ARRAY_SIZE(fx->how) && fx->how[i]; i++)
        ck_assert_msg(strstr(b.how, fx->how[i]), "%s: how \"%s\" lacks \"%s\"",
                      fx->dir, b.how, fx->how[i]);

    json_t *j = board_to_json(&b);
    ck_assert_ptr_nonnull(j);
    ck_assert_str_eq(json_string_value(json_object_get(j, "kind")),
                     board_kind_name(fx->kind));
    if (fx->key)
        ck_assert_str_eq(json_string_value(json_object_get(j, "board")), fx->key);
    else
        ck_assert(json_is_null(json_object_get(j, "board")));
    char *dump = json_dumps(j, 0);
    ck_assert_ptr_nonnull(dump);
    free(dump);
    json_decref(j);

    char *text = render_text(&b);
    check_text_layout(text);
    if (fx->key)
        ck_assert_ptr_nonnull(strstr(text, fx->key));
    free(text);
    board_free(&b);
}
END_TEST

START_TEST(json_shape)
{
    struct board_info b;
    detect_fixture(&b, "am62xx_sk-fs");
    json_t *j = board_to_json(&b);
    static const char *const keys[] = {
        "board", "board_name", "model", "family", "machine", "revision",
        "compatible", "cpu", "mem_mb", "kernel", "kind", "how",
    };
    for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
        ck_assert_msg(json_object_get(j, keys[i]), "missing %s", keys[i]);
    ck_assert_str_eq(json_string_value(json_object_get(j, "board")),
                     "am62xx_sk-fs");
    ck_assert_str_eq(json_string_value(json_object_get(j, "board_name")),
                     "AM62x SK");
    ck_assert_str_eq(json_string_value(json_object_get(j, "model")),
                     "Texas Instruments AM625 SK");
    ck_assert_str_eq(json_string_value(json_object_get(j, "family")), "AM62X");
    ck_assert_str_eq(json_string_value(json_object_get(j, "revision")), "SR1.0");
    ck_assert_str_eq(json_string_value(json_object_get(j, "kind")), "known");

    json_t *compat = json_object_get(j, "compatible");
    ck_assert(json_is_array(compat));
    ck_assert_uint_eq(json_array_size(compat), 2);
    ck_assert_str_eq(json_string_value(json_array_get(compat, 0)), "ti,am625-sk");
    ck_assert_str_eq(json_string_value(json_array_get(compat, 1)), "ti,am625");

    json_t *cpu = json_object_get(j, "cpu");
    ck_assert(json_is_object(cpu));
    static const char *const cpu_keys[] = {
        "cores", "part", "name", "mhz", "max_mhz", "governor",
    };
    for (size_t i = 0; i < ARRAY_SIZE(cpu_keys); i++)
        ck_assert_msg(json_object_get(cpu, cpu_keys[i]), "missing cpu.%s",
                      cpu_keys[i]);
    ck_assert(json_is_integer(json_object_get(cpu, "cores")));
    ck_assert_int_eq(json_integer_value(json_object_get(cpu, "cores")), 4);
    ck_assert_str_eq(json_string_value(json_object_get(cpu, "part")), "0xd03");
    ck_assert_str_eq(json_string_value(json_object_get(cpu, "name")), "Cortex-A53");
    ck_assert(json_is_number(json_object_get(cpu, "mhz")));
    ck_assert_double_eq_tol(json_number_value(json_object_get(cpu, "mhz")),
                            1400, 1e-9);
    ck_assert_double_eq_tol(json_number_value(json_object_get(cpu, "max_mhz")),
                            1400, 1e-9);
    ck_assert_str_eq(json_string_value(json_object_get(cpu, "governor")),
                     "performance");
    ck_assert(json_is_integer(json_object_get(j, "mem_mb")));
    ck_assert_int_eq(json_integer_value(json_object_get(j, "mem_mb")), 1874);
    json_decref(j);
    board_free(&b);
}
END_TEST

START_TEST(json_nulls_pc)
{
    struct board_info b;
    detect_fixture(&b, "pc-x86");
    json_t *j = board_to_json(&b);
    static const char *const nulls[] = {
        "board", "model", "family", "machine", "revision",
    };
    for (size_t i = 0; i < ARRAY_SIZE(nulls); i++)
        ck_assert_msg(json_is_null(json_object_get(j, nulls[i])),
                      "%s is not null", nulls[i]);
    ck_assert(json_is_array(json_object_get(j, "compatible")));
    ck_assert_uint_eq(json_array_size(json_object_get(j, "compatible")), 0);
    json_t *cpu = json_object_get(j, "cpu");
    ck_assert(json_is_null(json_object_get(cpu, "part")));
    ck_assert(json_is_null(json_object_get(cpu, "max_mhz")));
    ck_assert(json_is_null(json_object_get(cpu, "governor")));
    ck_assert_str_eq(json_string_value(json_object_get(cpu, "name")), "AMD EPYC");
    ck_assert_double_eq_tol(json_number_value(json_object_get(cpu, "mhz")),
                            2096, 1e-9);        /* whole MHz in JSON */
    ck_assert_str_eq(json_string_value(json_object_get(j, "kind")), "no_dt");
    json_decref(j);
    board_free(&b);
}
END_TEST

START_TEST(missing_sysroot)
{
    struct board_info b;
    board_detect(&b, "/nonexistent/evmbench-sysroot");
    ck_assert_int_eq(b.kind, BOARD_NO_DT);
    ck_assert_ptr_null(b.key);
    ck_assert_ptr_null(b.name);
    ck_assert_ptr_null(b.model);
    ck_assert_uint_eq(b.ncompatible, 0);
    ck_assert_ptr_null(b.family);
    ck_assert_int_eq(b.cores, 0);
    ck_assert_ptr_null(b.cpu_part);
    ck_assert_ptr_null(b.cpu_name);
    ck_assert(b.cpu_mhz == 0 && b.cpu_max_mhz == 0);
    ck_assert_ptr_null(b.governor);
    ck_assert_int_eq(b.mem_mb, 0);
    ck_assert_ptr_null(b.kernel);       /* no uname() for a sysroot */
    ck_assert_ptr_nonnull(strstr(b.how, "no device tree"));

    json_t *j = board_to_json(&b);
    json_t *cpu = json_object_get(j, "cpu");
    ck_assert(json_is_null(json_object_get(j, "board_name")));
    ck_assert(json_is_null(json_object_get(j, "mem_mb")));
    ck_assert(json_is_null(json_object_get(j, "kernel")));
    ck_assert(json_is_null(json_object_get(cpu, "cores")));
    ck_assert(json_is_null(json_object_get(cpu, "mhz")));
    json_decref(j);

    char *text = render_text(&b);
    check_text_layout(text);
    ck_assert_ptr_nonnull(strstr(text, "unknown"));
    free(text);
    board_free(&b);
}
END_TEST

START_TEST(real_system)
{
    static const char *const roots[] = { NULL, "/", "" };
    for (size_t i = 0; i < ARRAY_SIZE(roots); i++) {
        struct board_info b;
        board_detect(&b, roots[i]);
        ck_assert_ptr_nonnull(b.how);
        ck_assert_ptr_nonnull(b.kernel);    /* osrelease or uname() */
        json_t *j = board_to_json(&b);
        char *dump = json_dumps(j, 0);
        ck_assert_ptr_nonnull(dump);
        free(dump);
        json_decref(j);
        board_free(&b);
        ck_assert_ptr_null(b.how);
        ck_assert_ptr_null(b.compatible);
    }
}
END_TEST

START_TEST(override_no_dt)
{
    struct board_info b;
    detect_fixture(&b, "pc-x86");
    board_override(&b, "am62xx_sk-fs");
    ck_assert_int_eq(b.kind, BOARD_OVERRIDE);
    ck_assert_str_eq(b.key, "am62xx_sk-fs");
    ck_assert_str_eq(b.name, "AM62x SK");
    ck_assert_str_eq(b.how,
                     "chosen with --board am62xx_sk-fs (detected: no device tree)");
    ck_assert_int_eq(b.cores, 2);           /* the rest is still detected */
    ck_assert_str_eq(b.cpu_name, "AMD EPYC");

    json_t *j = board_to_json(&b);
    ck_assert_str_eq(json_string_value(json_object_get(j, "kind")), "override");
    ck_assert_str_eq(json_string_value(json_object_get(j, "board")),
                     "am62xx_sk-fs");
    json_decref(j);
    board_free(&b);
}
END_TEST

START_TEST(override_other_key)
{
    struct board_info b;
    detect_fixture(&b, "am62xx_lp_sk-fs");
    board_override(&b, NULL);               /* no-ops */
    board_override(&b, "");
    ck_assert_int_eq(b.kind, BOARD_KNOWN);

    /* a column of an imported guide this program does not detect */
    board_override(&b, "am62pxx_sk-fs");
    ck_assert_int_eq(b.kind, BOARD_OVERRIDE);
    ck_assert_str_eq(b.key, "am62pxx_sk-fs");
    ck_assert_str_eq(b.name, "am62pxx_sk-fs");
    ck_assert_ptr_nonnull(strstr(b.how, "chosen with --board am62pxx_sk-fs"));
    ck_assert_ptr_nonnull(strstr(b.how, "detected: am62xx_lp_sk-fs"));

    /* overriding again still reports the detected board, not the override */
    board_override(&b, "am62xx_sk-fs");
    ck_assert_str_eq(b.name, "AM62x SK");
    ck_assert_ptr_nonnull(strstr(b.how, "detected: am62xx_lp_sk-fs"));
    board_free(&b);

    detect_fixture(&b, "rpi4");
    board_override(&b, "j721e-idk-gw");
    ck_assert_ptr_nonnull(strstr(b.how, "non-TI board"));
    board_free(&b);

    detect_fixture(&b, "ti-custom-am62x");
    board_override(&b, "am62xx_sk-fs");
    ck_assert_ptr_nonnull(strstr(b.how, "TI AM62X board"));
    board_free(&b);
}
END_TEST

START_TEST(known_keys)
{
    size_t n = 0;
    for (const char *const *k = board_known_keys; *k; k++, n++)
        ck_assert_msg(board_key_name(*k), "no name for %s", *k);
    ck_assert_uint_eq(n, 6);
    ck_assert_str_eq(board_key_name("am62xxsip_sk-fs"), "AM62 SIP SK");
    ck_assert_str_eq(board_key_name("j721e-idk-gw"), "J721E EVM");
    ck_assert_ptr_null(board_key_name("am64xx-evm"));
    ck_assert_ptr_null(board_key_name(NULL));

    /* every key is reached by some fixture */
    for (const char *const *k = board_known_keys; *k; k++) {
        bool found = false;
        for (size_t i = 0; i < ARRAY_SIZE(fixtures); i++)
            found |= fixtures[i].key && strcmp(fixtures[i].key, *k) == 0;
        ck_assert_msg(found, "no fixture for %s", *k);
    }
    ck_assert_str_eq(board_kind_name(BOARD_TI_UNKNOWN), "ti_unknown");
    ck_assert_str_eq(board_kind_name(BOARD_OTHER_DT), "other_dt");
}
END_TEST

START_TEST(renders_text)
{
    struct board_info b;
    detect_fixture(&b, "am62xx_sk-fs");
    char *text = render_text(&b);
    ck_assert_ptr_nonnull(strstr(text, "Board:        AM62x SK (am62xx_sk-fs)\n"));
    ck_assert_ptr_nonnull(strstr(text, "Compatible:   ti,am625-sk ti,am625\n"));
    ck_assert_ptr_nonnull(strstr(text, "CPU:          4 x Cortex-A53 (part 0xd03)\n"));
    ck_assert_ptr_nonnull(strstr(text, "CPU clock:    1400 MHz (cpufreq current); "
                                      "maximum 1400 MHz (cpufreq)\n"));
    ck_assert_ptr_nonnull(strstr(text, "Memory:       1874 MB\n"));
    ck_assert_ptr_nonnull(strstr(text, "SoC revision: SR1.0\n"));
    free(text);
    board_free(&b);

    /* a long sentence wraps under its value column */
    detect_fixture(&b, "ti-custom-am62x");
    text = render_text(&b);
    check_text_layout(text);
    const char *d = strstr(text, "Decided:");
    ck_assert_ptr_nonnull(d);
    const char *next = strchr(d, '\n') + 1;
    ck_assert(strncmp(next, "              ", 14) == 0 && next[14] != ' ');
    free(text);
    board_free(&b);
}
END_TEST

/* --- broken trees, built in a temporary directory ---------------------- */

static char *tmp_root(void)
{
    const char *base = getenv("TMPDIR");
    char *tmpl = path_join(base && *base ? base : "/tmp", "evmbench-board-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmpl));
    return tmpl;
}

static void put(const char *root, const char *rel, const void *data, size_t len)
{
    char *path = path_join(root, rel);
    for (char *s = strchr(path + strlen(root) + 1, '/'); s; s = strchr(s + 1, '/')) {
        *s = '\0';
        ck_assert(mkdir(path, 0755) == 0 || errno == EEXIST);
        *s = '/';
    }
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(data, 1, len, f), len);
    fclose(f);
    free(path);
}

#define PUT(root, rel, lit) put(root, rel, lit, sizeof(lit) - 1)

static int rm_entry(const char *path, const struct stat *st, int flag,
                    struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

static void rm_root(char *root)
{
    nftw(root, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    free(root);
}

static void check_printable(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        ck_assert_msg(*p >= 0x20 && *p < 0x7f, "byte 0x%02x in \"%s\"", *p, s);
}

START_TEST(junk_compatible)
{
    char *root = tmp_root();
    /* no trailing NUL, control and high bytes, empty entries */
    PUT(root, "proc/device-tree/compatible",
        "ti,am625-sk\0\x01\x02\xff\xfejunk\0\0weird\x7f");
    PUT(root, "proc/device-tree/model", "Texas Instruments AM625 SK");
    struct board_info b;
    board_detect(&b, root);
    ck_assert_int_eq(b.kind, BOARD_KNOWN);
    ck_assert_str_eq(b.key, "am62xx_sk-fs");
    ck_assert_str_eq(b.model, "Texas Instruments AM625 SK");
    ck_assert_uint_eq(b.ncompatible, 3);
    ck_assert_str_eq(b.compatible[0], "ti,am625-sk");
    ck_assert_str_eq(b.compatible[1], "????junk");
    ck_assert_str_eq(b.compatible[2], "weird?");
    for (size_t i = 0; i < b.ncompatible; i++)
        check_printable(b.compatible[i]);
    json_t *j = board_to_json(&b);
    char *dump = json_dumps(j, 0);
    ck_assert_ptr_nonnull(dump);
    ck_assert_ptr_nonnull(strstr(dump, "\"????junk\""));
    free(dump);
    json_decref(j);
    board_free(&b);
    rm_root(root);
}
END_TEST

START_TEST(junk_falls_back_to_model)
{
    char *root = tmp_root();
    PUT(root, "proc/device-tree/compatible", "\xff\xfe\0\x01");
    PUT(root, "proc/device-tree/model", "Texas Instruments J721e EVM\0\xff\xff");
    PUT(root, "sys/devices/soc0/family", "J721E\0\x80garbage\n");
    struct board_info b;
    board_detect(&b, root);
    ck_assert_int_eq(b.kind, BOARD_KNOWN);
    ck_assert_str_eq(b.key, "j721e-idk-gw");
    ck_assert_str_eq(b.family, "J721E");
    ck_assert_ptr_nonnull(strstr(b.how, "model \"Texas Instruments J721e EVM\""));
    for (size_t i = 0; i < b.ncompatible; i++)
        check_printable(b.compatible[i]);
    board_free(&b);
    rm_root(root);
}
END_TEST

START_TEST(family_from_compatible)
{
    char *root = tmp_root();
    PUT(root, "sys/firmware/devicetree/base/compatible",
        "acme,widget\0ti,j721s2\0");
    struct board_info b;
    board_detect(&b, root);
    ck_assert_int_eq(b.kind, BOARD_TI_UNKNOWN);
    ck_assert_ptr_null(b.key);
    ck_assert_str_eq(b.family, "J721S2");
    ck_assert_str_eq(b.name, "TI J721S2 board");
    ck_assert_ptr_nonnull(strstr(b.how, "compatible \"ti,j721s2\""));
    ck_assert_ptr_nonnull(strstr(b.how, "--board am68_sk-fs"));
    board_free(&b);
    rm_root(root);
}
END_TEST

START_TEST(oversized_and_binary)
{
    char *root = tmp_root();
    size_t big = 100000;
    char *junk = xmalloc(big);
    for (size_t i = 0; i < big; i++)
        junk[i] = (char)(i * 131 + 7);
    put(root, "proc/device-tree/model", junk, big);       /* beyond the bound */
    put(root, "proc/device-tree/compatible", junk, 3000);
    put(root, "proc/cpuinfo", junk, big);
    put(root, "proc/meminfo", junk, 2000);
    put(root, "sys/devices/soc0/revision", junk, 500);
    put(root, "proc/sys/kernel/osrelease", junk, 64);
    free(junk);
    struct board_info b;
    board_detect(&b, root);
    ck_assert_ptr_null(b.model);
    ck_assert_ptr_nonnull(b.how);
    if (b.revision)
        check_printable(b.revision);
    if (b.kernel)
        check_printable(b.kernel);
    for (size_t i = 0; i < b.ncompatible; i++)
        check_printable(b.compatible[i]);
    json_t *j = board_to_json(&b);
    char *dump = json_dumps(j, 0);
    ck_assert_ptr_nonnull(dump);
    free(dump);
    json_decref(j);
    char *text = render_text(&b);
    check_text_layout(text);
    free(text);
    board_free(&b);
    rm_root(root);
}
END_TEST

START_TEST(big_little_policy)
{
    char *root = tmp_root();
    struct strbuf sb;
    sb_init(&sb);
    for (int i = 0; i < 8; i++)
        sb_addf(&sb, "processor\t: %d\nCPU implementer\t: 0x41\n"
                     "CPU part\t: %s\n\n", i, i < 4 ? "0xd05" : "0xd0b");
    put(root, "proc/cpuinfo", sb.buf, sb.len);
    sb_free(&sb);
    PUT(root, "sys/devices/system/cpu/cpufreq/policy0/scaling_cur_freq", "1800000\n");
    PUT(root, "sys/devices/system/cpu/cpufreq/policy0/cpuinfo_max_freq", "1800000\n");
    PUT(root, "sys/devices/system/cpu/cpufreq/policy0/scaling_governor", "schedutil\n");
    PUT(root, "proc/meminfo", "MemFree: 12 kB\nMemTotal:  8388608 kB\n");
    struct board_info b;
    board_detect(&b, root);
    ck_assert_int_eq(b.cores, 8);
    ck_assert_str_eq(b.cpu_part, "0xd05,0xd0b");
    ck_assert_str_eq(b.cpu_name, "Cortex-A55 + Cortex-A76");
    ck_assert_double_eq_tol(b.cpu_mhz, 1800, 1e-9);
    ck_assert_str_eq(b.governor, "schedutil");
    ck_assert_int_eq(b.mem_mb, 8192);
    board_free(&b);
    rm_root(root);
}
END_TEST

START_TEST(clock_junk)
{
    char *root = tmp_root();
    PUT(root, "proc/cpuinfo", "processor\t: 0\ncpu MHz\t\t: inf\n");
    PUT(root, "sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq", "nan\n");
    PUT(root, "sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", "<unknown>\n");
    struct board_info b;
    board_detect(&b, root);
    ck_assert_int_eq(b.cores, 1);
    ck_assert(b.cpu_mhz == 0 && b.cpu_max_mhz == 0);
    json_t *j = board_to_json(&b);
    json_t *cpu = json_object_get(j, "cpu");
    ck_assert(json_is_null(json_object_get(cpu, "mhz")));
    ck_assert(json_is_null(json_object_get(cpu, "max_mhz")));
    json_decref(j);
    board_free(&b);
    rm_root(root);
}
END_TEST

/* --- how sure: the board against the guide's --------------------------- */

enum { C = CHECK_CONFIRMS, X = CHECK_CONTRADICTS, U = CHECK_UNCHECKED };

struct match_case {
    const char *dir;
    const char *board;          /* --board, or NULL */
    int soc0, cpu, cores, clock;
    const char *confidence;
    const char *says[3];        /* substrings of the checks' texts */
};

/* The clock is the fixture's cpufreq (a --sysroot is not measured); the
 * guide clocks and SoC facts are the shipped data. */
static const struct match_case match_cases[] = {
    { "am62xx_sk-fs", NULL, C, C, C, C, "confirmed",
      { "soc0 family AM62X, revision SR1.0", "CPU part 0xd03 (Cortex-A53)",
        "cpufreq maximum 1400 MHz, the guide's 1400 MHz" } },
    { "am62xx_sk-fs-emulated", NULL, X, C, C, X, "doubtful",
      { "no /sys/devices/soc0", "4 cores, as on AM62X",
        "cpufreq maximum 4482 MHz, 3.20x the guide's 1400 MHz" } },
    { "am62xx_sk-fs-wrongcpu", NULL, C, X, C, C, "doubtful",
      { "CPU part 0xd08 (Cortex-A72), AM62X has 0xd03 (Cortex-A53)" } },
    { "j721e-idk-gw", NULL, C, C, C, C, "confirmed",
      { "soc0 family J721E", "CPU part 0xd08 (Cortex-A72), as on J721E",
        "2 cores, as on J721E" } },
    { "am69_sk-fs", NULL, C, C, C, U, "likely",
      { "8 cores, as on J784S4", "the guide gives no CPU clock" } },
    { "pc-x86", "am62xx_sk-fs", X, X, X, X, "doubtful",
      { "CPU AMD EPYC (no Arm CPU part), AM62X has 0xd03", "2 cores, AM62X has 4",
        "reported 2096 MHz, 1.50x the guide's 1400 MHz" } },
    /* the same SoC, but the LP SK's guide numbers are at 1250 MHz */
    { "am62xx_sk-fs", "am62xx_lp_sk-fs", C, C, C, X, "doubtful",
      { "the SoC of the AM62x LP SK", "cpufreq maximum 1400 MHz, 1.12x the guide's 1250 MHz" } },
    { "am69_sk-fs", "am62xx_sk-fs", X, X, X, X, "doubtful",
      { "soc0 family J784S4, the AM62x SK has AM62X", "8 cores, AM62X has 4" } },
};

static void match_fixture(const struct match_case *mc, struct board_match *m)
{
    char *rel = path_join("sysroots", mc->dir);
    char *root = test_data_path(rel);
    struct app_config cfg = { .sysroot = root, .board = mc->board, .kernels = kernel_registry,
                               .nkernels = kernel_registry_count };
    struct app a;
    app_init(&a, &cfg);
    const char *from = NULL;
    double mhz = board_clock(&a.board, root, 0.01, &from);
    app_board_match(&a, mhz, from, m);
    app_free(&a);
    free(root);
    free(rel);
}

START_TEST(match_cases_loop)
{
    const struct match_case *mc = &match_cases[_i];
    struct board_match m;
    match_fixture(mc, &m);
    const int want[] = { mc->soc0, mc->cpu, mc->cores, mc->clock };
    static const char *const names[] = { "soc0", "cpu", "cores", "clock" };
    ck_assert_uint_eq(m.n, BOARD_CHECKS);
    for (size_t i = 0; i < m.n; i++) {
        ck_assert_str_eq(m.checks[i].name, names[i]);
        ck_assert_msg((int)m.checks[i].result == want[i], "%s: %s: %d, not %d (%s)",
                      mc->dir, names[i], m.checks[i].result, want[i], m.checks[i].text);
    }
    ck_assert_str_eq(board_match_confidence(&m), mc->confidence);
    for (size_t k = 0; k < ARRAY_SIZE(mc->says) && mc->says[k]; k++) {
        bool found = false;
        for (size_t i = 0; i < m.n && !found; i++)
            found = strstr(m.checks[i].text, mc->says[k]) != NULL;
        ck_assert_msg(found, "%s: no check says \"%s\"", mc->dir, mc->says[k]);
    }

    /* the run's warning says what contradicts, only when something does */
    char *w = board_match_warning(&m, BOARD_DOUBT_RESULTS);
    if (m.contradicts) {
        ck_assert_ptr_nonnull(w);
        ck_assert_ptr_nonnull(strstr(w, "does not match the guide's"));
        for (size_t i = 0; i < m.n; i++)
            if (m.checks[i].result == CHECK_CONTRADICTS)
                ck_assert_ptr_nonnull(strstr(w, m.checks[i].text));
    } else {
        ck_assert_ptr_null(w);
    }
    free(w);

    json_t *j = board_match_to_json(&m);
    ck_assert_str_eq(json_string_value(json_object_get(j, "confidence")), mc->confidence);
    ck_assert_uint_eq(json_array_size(json_object_get(j, "checks")), BOARD_CHECKS);
    json_t *c0 = json_array_get(json_object_get(j, "checks"), 0);
    ck_assert_str_eq(json_string_value(json_object_get(c0, "check")), "soc0");
    ck_assert_str_eq(json_string_value(json_object_get(c0, "result")),
                     mc->soc0 == C ? "confirms" : mc->soc0 == X ? "contradicts" : "unchecked");
    json_decref(j);

    /* text: one line per check in sysinfo's layout */
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    board_match_print_text(&m, f);
    fclose(f);
    ck_assert(str_starts_with(buf, "Match:        "));
    ck_assert_ptr_nonnull(strstr(buf, mc->confidence));
    if (m.contradicts)
        ck_assert_ptr_nonnull(strstr(buf, "\nContradicts:  "));
    for (const char *p = buf; *p;) {
        const char *nl = strchr(p, '\n');
        ck_assert_msg(nl - p <= 79, "line too long: %.*s", (int)(nl - p), p);
        p = nl + 1;
    }
    free(buf);
    board_match_free(&m);
}
END_TEST

/* A board that is not a guide's has nothing to be held against. */
START_TEST(match_without_key)
{
    struct board_info b;
    detect_fixture(&b, "ti-custom-am62x");
    struct board_match m;
    board_assess(&b, NULL, NULL, 1400, 1400, "measured", &m);
    ck_assert_uint_eq(m.n, 0);
    ck_assert_str_eq(board_match_confidence(&m), "none");
    ck_assert_ptr_null(board_match_warning(&m, BOARD_DOUBT_RESULTS));
    json_t *j = board_match_to_json(&m);
    ck_assert(json_is_null(j));
    json_decref(j);
    board_match_free(&m);
    board_free(&b);
}
END_TEST

/* The clock: within 10 % of the guide's confirms, beyond contradicts,
 * whichever way; no clock or no guide clock leaves it unchecked. */
START_TEST(match_clock_tolerance)
{
    struct board_info b;
    detect_fixture(&b, "am62xx_sk-fs");
    struct soc_facts f = { 0 };
    static const struct { double guide, clock; int want; } cases[] = {
        { 1400, 1400, C }, { 1400, 1300, C }, { 1400, 1530, C }, { 1400, 1250, X },
        { 1400, 4480, X }, { 1400, 0, U }, { 0, 1400, U },
    };
    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        struct board_match m;
        board_assess(&b, "am62xx_sk-fs", &f, cases[i].guide, cases[i].clock, "measured", &m);
        ck_assert_msg((int)m.checks[3].result == cases[i].want, "%g vs %g: %s",
                      cases[i].clock, cases[i].guide, m.checks[3].text);
        /* no facts: the CPU and the cores are not checked, never guessed */
        ck_assert_int_eq(m.checks[1].result, CHECK_UNCHECKED);
        ck_assert_int_eq(m.checks[2].result, CHECK_UNCHECKED);
        board_match_free(&m);
    }
    board_free(&b);
}
END_TEST

/* --- the shared reader of the SoC data files (board/socdata.h) ---------- */

static const struct socdata_kind test_kind = {
    .name = "t.json", .format = "evmbench-t/1", .what = "T",
};

/* socdata_entry_fn: "PATH=FAMILY;" for each entry with a family, the
 * others skipped. */
static void record_entry(struct socdata_entry *e, void *ctx)
{
    const char *family = json_string_value(json_object_get(e->json, "family"));
    if (family)
        sb_addf(ctx, "%s=%s;", e->path, family);
    else
        socdata_skip(e, "no family (%zu skipped before)", e->skipped);
}

/* Parses text as t.json; the entries recorded into *seen (caller frees),
 * the messages into d. */
static int parse_t(const char *text, char **seen, struct diag *d)
{
    struct strbuf sb;
    sb_init(&sb);
    int rc = socdata_parse(&test_kind, text, "soc/t.json", record_entry, &sb, d);
    *seen = sb_steal(&sb);
    sb_free(&sb);
    return rc;
}

START_TEST(socdata_rejects_the_file)
{
    /* not such a file: one message naming the file and where, no entry */
    static const struct { const char *text, *msg; } files[] = {
        { "{\"format\": \"evmbench-t/1\",\n \"socs\": [{\"family\": \"A\"},]}",
          "soc/t.json:2:27: unexpected token near ']'" },
        { "{\"format\": \"evmbench-t/1\", \"socs\": [\n  {\"family\": \"A\", \"family\": \"B\"}]}",
          "soc/t.json:2:26: duplicate object key near '\"family\"'" },
        { "{\"format\": \"evmbench-t/1\", \"format\": \"evmbench-t/1\", \"socs\": []}",
          "soc/t.json:1:35: duplicate object key near '\"format\"'" },
        { "{\"format\": \"evmbench-t/1\"}",
          "soc/t.json: not a T data file: socs is missing, not a list" },
        { "{\"format\": \"evmbench-t/1\", \"socs\": {\"family\": \"A\"}}",
          "soc/t.json: not a T data file: socs is an object, not a list" },
        { "{\"format\": \"evmbench-t/1\", \"socs\": \"A\"}",
          "soc/t.json: not a T data file: socs is a string, not a list" },
        { "{\"format\": \"evmbench-ddr/1\", \"socs\": [{\"family\": \"A\"}]}",
          "soc/t.json: not a T data file (format evmbench-ddr/1, not evmbench-t/1, "
          "with a \"socs\" list)" },
        { "[{\"family\": \"A\"}]",
          "soc/t.json: not a T data file (format missing, not evmbench-t/1, "
          "with a \"socs\" list)" },
        { "", "soc/t.json:1:0: " },
    };
    for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
        struct diag d;
        diag_init(&d);
        char *seen;
        ck_assert_int_eq(parse_t(files[i].text, &seen, &d), -1);
        ck_assert_uint_eq(d.n, 1);
        ck_assert_msg(str_starts_with(d.msgs[0], files[i].msg), "%zu: %s", i, d.msgs[0]);
        ck_assert_str_eq(seen, "");
        free(seen);
        diag_free(&d);
    }
}
END_TEST

START_TEST(socdata_walks_the_entries)
{
    struct diag d;
    diag_init(&d);
    char *seen;
    ck_assert_int_eq(parse_t("{\"format\": \"evmbench-t/1\", \"socs\": [{\"family\": \"A\"}, "
                             "3, {\"cores\": 2}, [], {\"family\": \"B\"}, null]}", &seen, &d), 4);
    /* the objects in order, each with its JSON path */
    ck_assert_str_eq(seen, "socs[0]=A;socs[4]=B;");
    ck_assert_uint_eq(d.n, 4);
    ck_assert_str_eq(d.msgs[0], "soc/t.json: socs[1]: skipped: not an object");
    ck_assert_str_eq(d.msgs[1], "soc/t.json: socs[2]: skipped: no family (1 skipped before)");
    ck_assert_str_eq(d.msgs[2], "soc/t.json: socs[3]: skipped: not an object");
    ck_assert_str_eq(d.msgs[3], "soc/t.json: socs[5]: skipped: not an object");
    free(seen);
    diag_free(&d);

    /* an empty list is a sound file */
    diag_init(&d);
    ck_assert_int_eq(parse_t("{\"format\": \"evmbench-t/1\", \"socs\": []}", &seen, &d), 0);
    ck_assert_str_eq(seen, "");
    ck_assert_uint_eq(d.n, 0);
    free(seen);
    diag_free(&d);
}
END_TEST

START_TEST(socdata_reads_the_folder)
{
    static const char good[] = "{\"format\": \"evmbench-t/1\", \"socs\": [{\"family\": \"A\"}]}";
    static const char bad[] = "{\"format\": \"evmbench-t/1\", \"socs\": [{},\n";
    const struct embedded_file table[] = {
        { "soc/t.json", (const unsigned char *)good, sizeof good - 1 },
        { "soc/bad.json", (const unsigned char *)bad, sizeof bad - 1 },
    };
    struct data_dir dir;
    data_dir_table(&dir, table, ARRAY_SIZE(table), "soc");
    struct socdata_kind k = test_kind;
    struct strbuf sb;
    struct diag d;
    sb_init(&sb);
    diag_init(&d);
    ck_assert_int_eq(socdata_load(&k, &dir, record_entry, &sb, &d), 0);
    ck_assert_str_eq(sb.buf, "socs[0]=A;");
    ck_assert_uint_eq(d.n, 0);

    /* what cannot be read is said by the file's label */
    k.name = "bad.json";
    ck_assert_int_eq(socdata_load(&k, &dir, record_entry, &sb, &d), -1);
    ck_assert_str_eq(diag_last(&d), "built-in:soc/bad.json:2:0: ']' expected near end of file");
    k.name = "none.json";
    ck_assert_int_eq(socdata_load(&k, &dir, record_entry, &sb, &d), -1);
    ck_assert_str_eq(diag_last(&d), "built-in:soc/none.json: cannot read: No such file or directory");
    ck_assert_uint_eq(d.n, 2);
    /* unless the kind may be missing */
    k.optional = true;
    ck_assert_int_eq(socdata_load(&k, &dir, record_entry, &sb, &d), 0);
    ck_assert_uint_eq(d.n, 2);
    ck_assert_str_eq(sb.buf, "socs[0]=A;");
    sb_free(&sb);
    diag_free(&d);
    data_dir_free(&dir);
}
END_TEST

/* --- the SoC facts (benches/soc/cpu.json) ------------------------------ */

START_TEST(socfacts_shipped)
{
    struct soc_facts f;
    struct diag d;
    diag_init(&d);
    ck_assert_int_eq(soc_facts_load_default(&f, &d), 0);
    ck_assert_msg(d.n == 0, "%s", diag_last(&d));
    const struct soc_fact *am62 = soc_facts_find(&f, "am62x");
    ck_assert_ptr_nonnull(am62);
    ck_assert_str_eq(am62->cpu_part, "0xd03");
    ck_assert_int_eq(am62->cores, 4);
    ck_assert_uint_eq(am62->cache_bytes, (32u + 512u) << 10);
    static const struct { const char *family, *part; int cores; } guide_socs[] = {
        { "J721E", "0xd08", 2 }, { "J721S2", "0xd08", 2 }, { "J784S4", "0xd08", 8 },
    };
    for (size_t i = 0; i < ARRAY_SIZE(guide_socs); i++) {
        const struct soc_fact *s = soc_facts_find(&f, guide_socs[i].family);
        ck_assert_ptr_nonnull(s);
        ck_assert_str_eq(s->cpu_part, guide_socs[i].part);
        ck_assert_int_eq(s->cores, guide_socs[i].cores);
        ck_assert_uint_gt(s->cache_bytes, 0);
    }
    char text[64];
    soc_fact_caches_text(am62, text, sizeof text);
    ck_assert_str_eq(text, "32K+512K");
    soc_facts_free(&f);
    diag_free(&d);
}
END_TEST

START_TEST(socfacts_errors)
{
    static const char good[] =
        "{\"family\": \"J721E\", \"cpu_part\": \"0xd08\", \"cores\": 2, \"caches_kib\": [32, 1024]}";
    static const struct { const char *entry, *msg; } bad[] = {
        { "{\"cpu_part\": \"0xd03\"}", "t.json: socs[1]: skipped: no \"family\"" },
        { "{\"family\": \"AM62X\", \"cpu_part\": \"d03\", \"cores\": 4, \"caches_kib\": [32]}",
          "t.json: socs[1]: skipped: \"cpu_part\" is not a CPU part" },
        { "{\"family\": \"AM62X\", \"cpu_part\": \"0xd03\", \"cores\": 0, \"caches_kib\": [32]}",
          "t.json: socs[1]: skipped: \"cores\" is not a count" },
        { "{\"family\": \"AM62X\", \"cpu_part\": \"0xd03\", \"cores\": 4, \"caches_kib\": [32, -1]}",
          "t.json: socs[1]: skipped: \"caches_kib\" holds a size" },
        { "{\"family\": \"AM62X\", \"cpu_part\": \"0xd03\", \"cores\": 4, \"caches_kib\": []}",
          "t.json: socs[1]: skipped: \"caches_kib\" is not a list" },
        { "\"AM62X\"", "t.json: socs[1]: skipped: not an object" },
        { "{\"family\": \"j721e\", \"cpu_part\": \"0xd08\", \"cores\": 2, \"caches_kib\": [32]}",
          "t.json: socs[1]: skipped: j721e is described before" },
    };
    for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
        char *text = xasprintf("{\"format\": \"evmbench-cpu/1\", \"socs\": [%s, %s, "
                               "{\"family\": \"AM64X\", \"cpu_part\": \"0xd03\", \"cores\": 2, "
                               "\"caches_kib\": [32, 256]}]}", good, bad[i].entry);
        struct soc_facts f;
        struct diag d;
        diag_init(&d);
        ck_assert_int_eq(soc_facts_parse(&f, text, "t.json", &d), 1);
        ck_assert_uint_eq(d.n, 1);
        ck_assert_msg(str_starts_with(d.msgs[0], bad[i].msg), "%s", d.msgs[0]);
        /* the sound entries around it still load */
        ck_assert_uint_eq(f.n, 2);
        ck_assert_uint_eq(soc_facts_find(&f, "J721E")->cache_bytes, (32u << 10) + (1u << 20));
        ck_assert_uint_eq(soc_facts_find(&f, "am64x")->cores, 2);
        ck_assert_ptr_null(soc_facts_find(&f, "AM62X"));
        soc_facts_free(&f);
        diag_free(&d);
        free(text);
    }
    /* not such a file: said where, nothing loaded */
    static const struct { const char *text, *msg; } files[] = {
        { "{\"format\": \"evmbench-cpu/1\", \"socs\": [", "t.json:1:" },
        { "{\"format\": \"evmbench-ddr/1\", \"socs\": []}", "t.json: not a CPU data file" },
        { "{\"format\": \"evmbench-cpu/1\"}", "t.json: not a CPU data file" },
    };
    for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
        struct soc_facts f;
        struct diag d;
        diag_init(&d);
        ck_assert_int_eq(soc_facts_parse(&f, files[i].text, "t.json", &d), 1);
        ck_assert_msg(str_starts_with(diag_last(&d), files[i].msg), "%s", diag_last(&d));
        ck_assert_uint_eq(f.n, 0);
        soc_facts_free(&f);
        diag_free(&d);
    }
    ck_assert_uint_eq(soc_size_parse("512K"), 512u << 10);
    ck_assert_uint_eq(soc_size_parse("1M"), 1u << 20);
    ck_assert_uint_eq(soc_size_parse("640"), 640);
    ck_assert_uint_eq(soc_size_parse("32KB"), 0);
    ck_assert_uint_eq(soc_size_parse("-1K"), 0);
    ck_assert_uint_eq(soc_size_parse(""), 0);
    ck_assert_uint_eq(soc_size_parse(NULL), 0);
}
END_TEST

/* --- caches for STREAM: sysfs, else the SoC's facts, else unknown --------- */

START_TEST(caches_from_sysfs_or_facts)
{
    static const struct { const char *dir; size_t bytes; const char *from; } cases[] = {
        { "am62xx_sk-fs", (32u + 512u) << 10, "sysfs: L1d 32K + L2 512K" },
        { "am62xx_sk-fs-emulated", (32u + 512u) << 10, "AM62X facts in soc/cpu.json: 32K+512K" },
        { "j721e-idk-gw", (32u << 10) + (1u << 20), "J721E facts in soc/cpu.json: 32K+1M" },
        { "pc-x86", 0, NULL },
    };
    struct soc_facts f = { 0 };
    ck_assert_int_eq(soc_facts_load_default(&f, NULL), 0);
    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        struct board_info b;
        detect_fixture(&b, cases[i].dir);
        board_cache_from_facts(&b, &f);
        ck_assert_msg(b.cache_bytes == cases[i].bytes, "%s: %zu bytes", cases[i].dir,
                      b.cache_bytes);
        ck_assert_pstr_eq(b.cache_from, cases[i].from);
        json_t *j = board_to_json(&b);
        json_t *cb = json_object_get(json_object_get(j, "cpu"), "cache_bytes");
        ck_assert(cases[i].bytes ? json_integer_value(cb) == (json_int_t)cases[i].bytes
                                 : json_is_null(cb));
        json_decref(j);
        board_free(&b);
    }
    soc_facts_free(&f);

    /* the app hands them to the kernels */
    char *root = test_data_path("sysroots/am62xx_sk-fs-emulated");
    struct app_config cfg = { .sysroot = root, .kernels = kernel_registry,
                               .nkernels = kernel_registry_count };
    struct app a;
    app_init(&a, &cfg);
    ck_assert_uint_eq(a.run_opts.params.cache_bytes, (32u + 512u) << 10);
    ck_assert_str_eq(a.run_opts.params.cache_from, "AM62X facts in soc/cpu.json: 32K+512K");
    app_free(&a);
    free(root);
}
END_TEST

Suite *suite_board(void)
{
    Suite *s = suite_create("board");

    TCase *tc = tcase_create("fixtures");
    tcase_add_loop_test(tc, fixture, 0, (int)ARRAY_SIZE(fixtures));
    tcase_add_test(tc, json_shape);
    tcase_add_test(tc, json_nulls_pc);
    tcase_add_test(tc, missing_sysroot);
    tcase_add_test(tc, real_system);
    tcase_add_test(tc, known_keys);
    tcase_add_test(tc, renders_text);
    suite_add_tcase(s, tc);

    tc = tcase_create("override");
    tcase_add_test(tc, override_no_dt);
    tcase_add_test(tc, override_other_key);
    suite_add_tcase(s, tc);

    tc = tcase_create("robustness");
    tcase_add_test(tc, junk_compatible);
    tcase_add_test(tc, junk_falls_back_to_model);
    tcase_add_test(tc, family_from_compatible);
    tcase_add_test(tc, oversized_and_binary);
    tcase_add_test(tc, big_little_policy);
    tcase_add_test(tc, clock_junk);
    suite_add_tcase(s, tc);

    tc = tcase_create("match");
    tcase_add_loop_test(tc, match_cases_loop, 0, (int)ARRAY_SIZE(match_cases));
    tcase_add_test(tc, match_without_key);
    tcase_add_test(tc, match_clock_tolerance);
    tcase_add_test(tc, socfacts_shipped);
    tcase_add_test(tc, socfacts_errors);
    tcase_add_test(tc, socdata_rejects_the_file);
    tcase_add_test(tc, socdata_walks_the_entries);
    tcase_add_test(tc, socdata_reads_the_folder);
    tcase_add_test(tc, caches_from_sysfs_or_facts);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);
    return s;
}
