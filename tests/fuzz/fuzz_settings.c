/* fuzz_settings.c - the settings parser on arbitrary text, then the file
 * written back from what it parsed and read again. */
#include "config.h"

#include "common/diag.h"
#include "fuzz_util.h"
#include "data/settings.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_strdup(data, size);
    struct settings s;
    settings_init(&s);
    struct diag dg;
    diag_init(&dg);
    if (settings_parse(&s, text, "fuzz.config", &dg) == 0) {
        char path[128];
        snprintf(path, sizeof path, "%s/config", fuzz_dir());
        if (settings_save(&s, path) == 0) {
            struct settings again;
            settings_init(&again);
            if (settings_load(&again, path, &dg) != 0)
                abort();    /* what we write, we must read back */
        }
    }
    diag_free(&dg);
    free(text);
    return 0;
}
