/* fuzz_profile.c - the profile parser on arbitrary text. */
#include "config.h"

#include "common/diag.h"
#include "fuzz_util.h"
#include "data/profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_strdup(data, size);
    struct profile p;
    memset(&p, 0, sizeof p);
    struct diag dg;
    diag_init(&dg);
    profile_parse(&p, text, "fuzz.profile", &dg);
    for (size_t i = 0; i < p.n; i++)
        (void)profile_bench_keeps(&p.benches[i], "x");
    profile_free(&p);
    diag_free(&dg);
    free(text);
    return 0;
}
