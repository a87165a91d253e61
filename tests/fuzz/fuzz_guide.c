/* fuzz_guide.c - the guide importer on arbitrary text. The first byte picks
 * the layout by its place in the importer's table (0 auto, 1 cells, 2 rows,
 * 3 markdown, 4 rst, then any added later); the rest is the guide. */
#include "config.h"

#include <jansson.h>

#include "common/diag.h"
#include "fuzz_util.h"
#include "guide/guide_import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    enum guide_layout layout = (enum guide_layout)(data[0] % guide_layout_count());
    struct diag dg;
    diag_init(&dg);
    json_t *ref = guide_import_text("fuzz.txt", (const char *)data + 1, size - 1, layout, &dg);
    if (ref) {
        /* what import-guide then does with it */
        char *s = json_dumps(ref, GUIDE_JSON_FLAGS);
        free(s);
        json_decref(ref);
    }
    diag_free(&dg);
    return 0;
}
