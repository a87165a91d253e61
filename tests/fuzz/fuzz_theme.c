/* fuzz_theme.c - the theme parser on arbitrary text (first byte: colour or
 * mono base), then each role formatted back as a theme line. */
#include "config.h"

#include "common/diag.h"
#include "fuzz_util.h"
#include "screens/theme.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    char *text = fuzz_strdup(data + 1, size - 1);
    struct theme t;
    struct diag dg;
    diag_init(&dg);
    theme_parse(&t, text, "fuzz.theme", data[0] & 1, &dg);
    char line[160];
    for (int r = 0; r < ROLE_COUNT; r++)
        theme_format_line(&t, (enum role)r, line, sizeof line);
    diag_free(&dg);
    free(text);
    return 0;
}
