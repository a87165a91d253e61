/* fuzz_gunzip.c - the decoder of the packed built-in data on arbitrary
 * bytes. The expected size is the member's own length field (at most
 * 1 MiB), and once more half of it; whatever the input, the decoder stays
 * in its buffers (ASan), and what it accepts has the CRC-32 it claims. */
#include "config.h"

#include <stdlib.h>

#include "common/gunzip.h"
#include "fuzz_util.h"

static uint32_t le32(const uint8_t *p)
{
    return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 8)
        return 0;
    size_t want = le32(data + size - 4) % (1u << 20);
    const size_t tries[2] = { want, want / 2 };
    for (int t = 0; t < 2; t++) {
        unsigned char *out = malloc(tries[t] ? tries[t] : 1);
        if (!out)
            return 0;
        const char *why = NULL;
        if (gunzip(data, size, out, tries[t], &why)) {
            if (crc32_update(0, out, tries[t]) != le32(data + size - 8) || why)
                abort();
        } else if (!why) {
            abort();
        }
        free(out);
    }
    return 0;
}
