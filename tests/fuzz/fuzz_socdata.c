/* fuzz_socdata.c - the SoC data files (soc/ddr.json, soc/cpu.json, which a
 * data folder may replace) on arbitrary text, then the look-ups the board
 * checks make: every family found again, a DDR peak, the caches as text.
 * Byte 0 picks the file (even: ddr.json, odd: cpu.json); byte 1 (with the
 * rest, NUL-terminated) is the text. A cache size string from the text is
 * also read as sysfs writes one. */
#include "config.h"

#include <math.h>

#include "board/ddrspec.h"
#include "board/socfacts.h"
#include "common/diag.h"
#include "fuzz_util.h"

static void ddr(const char *text)
{
    struct ddrspec spec;
    struct diag d;
    diag_init(&d);
    int n = ddrspec_parse(&spec, text, "soc/ddr.json", &d);
    if (n >= 0 && (size_t)n != spec.nsocs)
        abort();    /* the count returned is the entries kept */
    for (size_t i = 0; i < spec.nsocs; i++) {
        const struct ddr_soc *s = &spec.socs[i];
        if (!ddrspec_find(&spec, s->family))
            abort();    /* every family kept is found */
        double peak = ddrspec_peak_mbs(s, 3200);
        if (!(peak > 0) || !isfinite(peak))
            abort();    /* a kept width gives a peak */
    }
    ddrspec_free(&spec);
    diag_free(&d);
}

static void cpu(const char *text)
{
    struct soc_facts f;
    struct diag d;
    diag_init(&d);
    (void)soc_facts_parse(&f, text, "soc/cpu.json", &d);
    char buf[64];
    for (size_t i = 0; i < f.n; i++) {
        if (!soc_facts_find(&f, f.items[i].family))
            abort();
        soc_fact_caches_text(&f.items[i], buf, sizeof buf);
        if (strlen(buf) >= sizeof buf)
            abort();
    }
    soc_facts_free(&f);
    diag_free(&d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    char *text = fuzz_strdup(data + 1, size - 1);
    if (data[0] % 2 == 0)
        ddr(text);
    else
        cpu(text);
    (void)soc_size_parse(text);
    free(text);
    return 0;
}
