/* recipe_option.c - the user's run options (--storage-dir, --peer,
 * --audio-device ...), which recipe parameters with "source": "option"
 * read. The loader checks the names, the templates read the values. */
#include "config.h"
#include "recipe/recipe_impl.h"

#include <stdlib.h>
#include <string.h>

#include "common/util.h"

static const char *const option_names[] = { "storage_dir", "storage_target", "peer",
                                            "audio_device", NULL };
static char *option_values[4];

static int option_index(const char *name)
{
    for (int i = 0; name && option_names[i]; i++)
        if (strcmp(option_names[i], name) == 0)
            return i;
    return -1;
}

bool recipe_option_known(const char *name)
{
    return option_index(name) >= 0;
}

bool recipe_set_option(const char *name, const char *value)
{
    int i = option_index(name);
    if (i < 0)
        return false;
    free(option_values[i]);
    option_values[i] = value ? xstrdup(value) : NULL;
    return true;
}

const char *recipe_option(const char *name)
{
    int i = option_index(name);
    return i < 0 ? NULL : option_values[i];
}
