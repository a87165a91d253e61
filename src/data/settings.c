/* settings.c - load and save the TUI's settings file. */
#include "config.h"
#include "data/settings.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/lines.h"
#include "common/outfile.h"
#include "common/util.h"

void settings_init(struct settings *s)
{
    memset(s, 0, sizeof *s);
}

static bool parse_number(const char *v, double lo, double hi, double *out)
{
    char *end;
    errno = 0;
    double d = strtod(v, &end);
    if (end == v || *end || errno || !isfinite(d) || d < lo || d > hi)
        return false;
    *out = d;
    return true;
}

/* Applies one "key = value"; returns an error message or NULL. */
static const char *apply(struct settings *s, const char *key, const char *v)
{
    double d;
    if (strcmp(key, "theme") == 0) {
        if (!*v || strlen(v) >= sizeof s->theme)
            return "theme needs a name or a path";
        snprintf(s->theme, sizeof s->theme, "%s", v);
    } else if (strcmp(key, "budget") == 0) {
        if (strcmp(v, "quick") != 0 && strcmp(v, "full") != 0)
            return "budget is quick or full";
        s->has_budget = true;
        s->quick = strcmp(v, "quick") == 0;
    } else if (strcmp(key, "tolerance") == 0) {
        if (!parse_number(v, 0.1, 1000, &d))
            return "tolerance is a percentage from 0.1 to 1000";
        s->has_tolerance = true;
        s->tolerance_pct = d;
    } else if (strcmp(key, "updates") == 0) {
        if (!parse_number(v, SETTINGS_UPDATES_MIN, SETTINGS_UPDATES_MAX, &d))
            return "updates is redraws per second, from 0.5 to 10";
        s->has_updates = true;
        s->updates_per_s = d;
    } else if (strcmp(key, "provider") == 0) {
        int p = provider_pref_parse(v);
        if (p < 0)
            return "provider is auto, kernel or tool";
        s->has_provider = true;
        s->provider = (enum provider_pref)p;
    } else {
        return "unknown setting";
    }
    return NULL;
}

int settings_parse(struct settings *s, const char *text, const char *file,
                   struct diag *dg)
{
    int bad = 0;
    struct lines it;
    lines_init(&it, text, LINES_HASH_FIRST);
    for (char *t; (t = lines_next(&it));) {
        char *eq = strchr(t, '=');
        const char *err;
        char *key = t;
        if (!eq) {
            err = "expected 'key = value'";
        } else {
            *eq = '\0';
            key = str_trim(t);
            err = apply(s, key, str_trim(eq + 1));
        }
        if (err) {
            diag_add(dg, "%s:%d: %s%s%s%s", file, it.lineno, err, eq ? " ('" : "",
                     eq ? key : "", eq ? "')" : "");
            bad++;
        }
    }
    return bad;
}

int settings_load(struct settings *s, const char *path, struct diag *dg)
{
    errno = 0;
    char *text = read_file(path, 1 << 16, NULL);
    if (!text) {
        if (errno == ENOENT)
            return 0;
        diag_add(dg, "%s: cannot read: %s", path, file_strerror(errno ? errno : EIO));
        return 1;
    }
    int bad = settings_parse(s, text, path, dg);
    free(text);
    return bad;
}

/* mkdir -p of the directory part of path. */
static int make_parent(const char *path)
{
    char *dir = xstrdup(path);
    char *slash = strrchr(dir, '/');
    int rc = 0;
    if (slash && slash != dir) {
        *slash = '\0';
        rc = make_dirs(dir, 0755);
    }
    free(dir);
    return rc;
}

int settings_save(const struct settings *s, const char *path)
{
    if (make_parent(path) < 0)
        return -1;
    struct strbuf sb;
    sb_init(&sb);
    sb_add(&sb, "# evmbench settings, written by the settings screen\n");
    if (s->theme[0])
        sb_addf(&sb, "theme = %s\n", s->theme);
    if (s->has_budget)
        sb_addf(&sb, "budget = %s\n", s->quick ? "quick" : "full");
    if (s->has_tolerance)
        sb_addf(&sb, "tolerance = %g\n", s->tolerance_pct);
    if (s->has_updates)
        sb_addf(&sb, "updates = %g\n", s->updates_per_s);
    if (s->has_provider)
        sb_addf(&sb, "provider = %s\n", provider_pref_name(s->provider));
    /* a temporary replacing the old file at once (outfile.h); the caller
     * words the message from errno, which is kept */
    int rc = outfile_write(path, sb.buf, sb.len, NULL);
    int e = errno;
    sb_free(&sb);
    errno = e;
    return rc;
}

char *settings_default_path(void)
{
    const char *x = getenv("XDG_CONFIG_HOME");
    if (x && *x == '/')
        return xasprintf("%s/evmbench/config", x);
    const char *h = getenv("HOME");
    if (h && *h)
        return xasprintf("%s/.config/evmbench/config", h);
    return NULL;
}
