/* settings.h - the TUI's saved settings: $XDG_CONFIG_HOME/evmbench/config.
 *
 * A small line-oriented file, one "key = value" a line, '#' comments:
 *
 *     theme = ti            a theme name (themes/NAME.theme) or a path
 *     budget = quick        quick or full
 *     tolerance = 10        percent beyond the guide's band that only warns
 *     updates = 4           live redraws per second, 0.5 to 10
 *     provider = auto       auto, kernel or tool
 *
 * A bad line (unknown key, bad value, no '=') is reported as
 * "file:line: message" and ignored; the other lines still apply. Loading
 * and saving do not need a terminal (the tests use them directly). */
#ifndef EVMBENCH_SETTINGS_H
#define EVMBENCH_SETTINGS_H

#include <stdbool.h>

#include "data/catalog.h"
#include "common/diag.h"

#define SETTINGS_UPDATES_MIN 0.5
#define SETTINGS_UPDATES_MAX 10.0

struct settings {
    char theme[128];            /* "" = not set */
    bool has_budget, quick;
    bool has_tolerance;
    double tolerance_pct;
    bool has_updates;
    double updates_per_s;
    bool has_provider;
    enum provider_pref provider;
};

void settings_init(struct settings *s);
/* Parses the text over s. Returns the number of bad lines (each in dg). */
int settings_parse(struct settings *s, const char *text, const char *file,
                   struct diag *dg);
/* Reads path over s; a missing file is no error (returns 0), an
 * unreadable one is ("file: cannot read: reason"). */
int settings_load(struct settings *s, const char *path, struct diag *dg);
/* Writes every set field; creates the directory. 0, or -1 with errno. */
int settings_save(const struct settings *s, const char *path);
/* $XDG_CONFIG_HOME/evmbench/config, else $HOME/.config/evmbench/config;
 * NULL when neither variable is set. Caller frees. */
char *settings_default_path(void);

#endif
