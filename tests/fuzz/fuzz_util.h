/* fuzz_util.h - what the libFuzzer targets of tests/fuzz share: the input
 * as a C string, the input as a file in a private temporary directory. */
#ifndef EVMBENCH_FUZZ_UTIL_H
#define EVMBENCH_FUZZ_UTIL_H

#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as a NUL-terminated string (it may hold NULs itself, which end
 * it early for a string parser, as they would in a file read as text). */
static inline char *fuzz_strdup(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s)
        abort();
    memcpy(s, data, size);
    s[size] = '\0';
    return s;
}

/* The private temporary directory of this process, made on first use and
 * removed at exit. */
static char fuzz_dir_path[64];

static void fuzz_dir_remove(void)
{
    char cmd[96];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", fuzz_dir_path);
    if (system(cmd) != 0)
        fprintf(stderr, "fuzz: cannot remove %s\n", fuzz_dir_path);
}

static inline const char *fuzz_dir(void)
{
    if (!fuzz_dir_path[0]) {
        const char *t = getenv("TMPDIR");
        snprintf(fuzz_dir_path, sizeof fuzz_dir_path, "%s/evmfuzz-XXXXXX",
                 t && *t && strlen(t) < 40 ? t : "/tmp");
        if (!mkdtemp(fuzz_dir_path))
            abort();
        atexit(fuzz_dir_remove);
    }
    return fuzz_dir_path;
}

/* Writes data to <dir>/<name> (created or truncated); aborts when it
 * cannot, since then the target tests nothing. Returns the path (static). */
static inline const char *fuzz_write_file(const char *name, const uint8_t *data, size_t size)
{
    static char path[256];
    snprintf(path, sizeof path, "%s/%s", fuzz_dir(), name);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0 || !write_all(fd, data, size))
        abort();
    close(fd);
    return path;
}

#endif
