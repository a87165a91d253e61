/* settings.h - the TUI's saved settings: $XDG_CONFIG_HOME/evmbench/config.
 *
 * A small line-oriented file, one "key = value" a line, '#' comments:
 *
 *     theme = ti            a theme name (themes/NAME.theme) or a path
 *     budget = quick        quick or full
 *     tolerance = 10        percent beyond the guide's band that only warns
 *     updates = 4           live redraws per second, 0.5 to 10
 *     provider = auto       auto, kernel or tool
 *     peer = 192.168.1.10   the network benchmarks' server (as --peer)
 *     storage_dir = /mnt/sd the storage benchmarks' directory (as --storage-dir)
 *     audio_device = hw:0,0 the audio benchmarks' ALSA device (as --audio-device)
 *
 * A bad line (unknown key, bad value, no '=') is reported as
 * "file:line: message" and ignored; the other lines still apply. Saving
 * rewrites only the lines of the settings it writes: comments, blank
 * lines, unknown keys and bad lines stay as the user left them. The
 * three run targets are kept here as text; the screens check them
 * (toolparam.h) before they apply. Loading and saving do not need a
 * terminal (the tests use them directly). */
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
    char peer[256];             /* "" = not set */
    char storage_dir[1024];
    char audio_device[80];
};

void settings_init(struct settings *s);
/* Parses the text over s. Returns the number of bad lines (each in dg). */
int settings_parse(struct settings *s, const char *text, const char *file,
                   struct diag *dg);
/* Reads path over s; a missing file is no error (returns 0), an
 * unreadable one is ("file: cannot read: reason"). */
int settings_load(struct settings *s, const char *path, struct diag *dg);
/* Writes every set field into the file at path, keeping the rest of the
 * file as it is (a setting's line is rewritten in place, every line with
 * its key when it appears more than once; one not in the file is added
 * at the end); creates the directory and the file. The file is replaced
 * at once (outfile.h), never left half-written. 0, or -1 with errno: also
 * when the existing file cannot be read (EACCES, EFBIG above 64 KiB ...),
 * which is then left alone rather than lost. */
int settings_save(const struct settings *s, const char *path);
/* $XDG_CONFIG_HOME/evmbench/config, else $HOME/.config/evmbench/config;
 * NULL when neither variable is set. Caller frees. */
char *settings_default_path(void);

#endif
