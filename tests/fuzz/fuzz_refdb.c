/* fuzz_refdb.c - the reference JSON loader on an arbitrary file, then the
 * look-ups the screens make on what it loaded. */
#include "config.h"

#include "common/diag.h"
#include "fuzz_util.h"
#include "data/refdb.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_write_file("ref.json", data, size);
    struct refdb *db = refdb_new();
    struct diag dg;
    diag_init(&dg);
    if (refdb_load_file(db, path, &dg) == 0) {
        const char **keys = NULL;
        size_t n = refdb_board_keys(db, &keys);
        for (size_t i = 0; i < n; i++)
            (void)refdb_board(db, keys[i]);
        free(keys);
    }
    diag_free(&dg);
    refdb_free(db);
    return 0;
}
