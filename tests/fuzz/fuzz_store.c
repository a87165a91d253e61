/* fuzz_store.c - the results-store reader (store_read_run) on an
 * arbitrary run file. */
#include "config.h"

#include "common/diag.h"
#include "fuzz_util.h"
#include "store/store.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_write_file("fuzz.evmrun", data, size);
    struct stored_run run;
    memset(&run, 0, sizeof run);
    struct diag dg;
    diag_init(&dg);
    if (store_read_run(path, &run, &dg) == 0)
        stored_run_free(&run);
    diag_free(&dg);
    return 0;
}
