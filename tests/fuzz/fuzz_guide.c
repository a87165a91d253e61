/* fuzz_guide.c - the guide importer on arbitrary text. The first byte picks
 * the layout (auto, cells, rows, markdown, rst); the rest is the guide. */
#include "config.h"

#include <jansson.h>

#include "common/diag.h"
#include "fuzz_util.h"
#include "guide/guide_import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    static const enum guide_layout layouts[] = {
        LAYOUT_AUTO, LAYOUT_CELLS, LAYOUT_ROWS, LAYOUT_MARKDOWN, LAYOUT_RST,
    };
    enum guide_layout layout = layouts[data[0] % 5];
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
