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

/* --- the settings, one table ---------------------------------------------- */

static const char *read_theme(struct settings *s, const char *v)
{
    if (!*v || strlen(v) >= sizeof s->theme)
        return "theme needs a name or a path";
    snprintf(s->theme, sizeof s->theme, "%s", v);
    return NULL;
}

static const char *read_budget(struct settings *s, const char *v)
{
    if (strcmp(v, "quick") != 0 && strcmp(v, "full") != 0)
        return "budget is quick or full";
    s->has_budget = true;
    s->quick = strcmp(v, "quick") == 0;
    return NULL;
}

static const char *read_tolerance(struct settings *s, const char *v)
{
    double d;
    if (!parse_number(v, 0.1, 1000, &d))
        return "tolerance is a percentage from 0.1 to 1000";
    s->has_tolerance = true;
    s->tolerance_pct = d;
    return NULL;
}

static const char *read_updates(struct settings *s, const char *v)
{
    double d;
    if (!parse_number(v, SETTINGS_UPDATES_MIN, SETTINGS_UPDATES_MAX, &d))
        return "updates is redraws per second, from 0.5 to 10";
    s->has_updates = true;
    s->updates_per_s = d;
    return NULL;
}

static const char *read_provider(struct settings *s, const char *v)
{
    int p = provider_pref_parse(v);
    if (p < 0)
        return "provider is auto, kernel or tool";
    s->has_provider = true;
    s->provider = (enum provider_pref)p;
    return NULL;
}

/* A run target: any text that fits (checked where it applies); empty
 * unsets it. */
static const char *read_text(char *dst, size_t size, const char *v, const char *too_long)
{
    if (strlen(v) >= size)
        return too_long;
    snprintf(dst, size, "%s", v);
    return NULL;
}

static const char *read_peer(struct settings *s, const char *v)
{
    return read_text(s->peer, sizeof s->peer, v, "peer is a host name or address "
                     "of at most 255 characters");
}

static const char *read_storage_dir(struct settings *s, const char *v)
{
    return read_text(s->storage_dir, sizeof s->storage_dir, v, "storage_dir is a path "
                     "of at most 1023 characters");
}

static const char *read_audio_device(struct settings *s, const char *v)
{
    return read_text(s->audio_device, sizeof s->audio_device, v, "audio_device is an "
                     "ALSA name of at most 79 characters");
}

/* The value to write (in buf), or NULL when the setting is not set. */
static const char *show_theme(const struct settings *s, char *buf, size_t n)
{
    (void)buf, (void)n;
    return s->theme[0] ? s->theme : NULL;
}

static const char *show_budget(const struct settings *s, char *buf, size_t n)
{
    (void)buf, (void)n;
    return !s->has_budget ? NULL : s->quick ? "quick" : "full";
}

static const char *show_tolerance(const struct settings *s, char *buf, size_t n)
{
    snprintf(buf, n, "%g", s->tolerance_pct);
    return s->has_tolerance ? buf : NULL;
}

static const char *show_updates(const struct settings *s, char *buf, size_t n)
{
    snprintf(buf, n, "%g", s->updates_per_s);
    return s->has_updates ? buf : NULL;
}

static const char *show_provider(const struct settings *s, char *buf, size_t n)
{
    (void)buf, (void)n;
    return s->has_provider ? provider_pref_name(s->provider) : NULL;
}

static const char *show_peer(const struct settings *s, char *buf, size_t n)
{
    (void)buf, (void)n;
    return s->peer[0] ? s->peer : NULL;
}

static const char *show_storage_dir(const struct settings *s, char *buf, size_t n)
{
    (void)buf, (void)n;
    return s->storage_dir[0] ? s->storage_dir : NULL;
}

static const char *show_audio_device(const struct settings *s, char *buf, size_t n)
{
    (void)buf, (void)n;
    return s->audio_device[0] ? s->audio_device : NULL;
}

/* Every setting: its key, how a value is read into the settings (the
 * message when it is bad, else NULL), how it is written, and whether an
 * unset value is written as "key =" (a run target the screen cleared). */
static const struct setting_field {
    const char *key;
    const char *(*read)(struct settings *s, const char *v);
    const char *(*show)(const struct settings *s, char *buf, size_t n);
    bool clearable;
} fields[] = {
    { "theme", read_theme, show_theme, false },
    { "budget", read_budget, show_budget, false },
    { "tolerance", read_tolerance, show_tolerance, false },
    { "updates", read_updates, show_updates, false },
    { "provider", read_provider, show_provider, false },
    { "peer", read_peer, show_peer, true },
    { "storage_dir", read_storage_dir, show_storage_dir, true },
    { "audio_device", read_audio_device, show_audio_device, true },
};

static const struct setting_field *field_named(const char *key)
{
    for (size_t i = 0; i < ARRAY_SIZE(fields); i++)
        if (strcmp(fields[i].key, key) == 0)
            return &fields[i];
    return NULL;
}

/* Applies one "key = value"; returns an error message or NULL. */
static const char *apply(struct settings *s, const char *key, const char *v)
{
    const struct setting_field *f = field_named(key);
    return f ? f->read(s, v) : "unknown setting";
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

/* The setting a line of the file sets, when the line is one that loads
 * (a comment, a blank, an unknown key or a bad value is kept as it is). */
static const struct setting_field *line_field(const char *line, size_t len)
{
    char *t = xstrndup(line, len);
    const struct setting_field *f = NULL;
    char *eq = strchr(t, '=');
    const char *k = str_trim(t);
    if (eq && *k != '#') {
        *eq = '\0';
        k = str_trim(t);
        f = field_named(k);
        struct settings scratch;
        settings_init(&scratch);
        if (f && f->read(&scratch, str_trim(eq + 1)))
            f = NULL;
    }
    free(t);
    return f;
}

/* "key = value" of f as s has it; false when it is not to be written
 * (not set, and not a target the screen clears). */
static bool field_line(const struct setting_field *f, const struct settings *s,
                       struct strbuf *sb)
{
    char buf[64];
    const char *v = f->show(s, buf, sizeof buf);
    if (!v && !f->clearable)
        return false;
    if (v)
        sb_addf(sb, "%s = %s\n", f->key, v);
    else
        sb_addf(sb, "%s =\n", f->key);
    return true;
}

/* The file's text with the settings' lines rewritten (old: NULL when there
 * is no file yet). */
static void merged_text(const struct settings *s, const char *old, struct strbuf *sb)
{
    bool written[ARRAY_SIZE(fields)] = { false };
    if (!old)
        sb_add(sb, "# evmbench settings, written by the settings screen\n");
    for (const char *l = old; l && *l;) {
        size_t len = strcspn(l, "\n");
        const struct setting_field *f = line_field(l, len);
        if (f && field_line(f, s, sb)) {
            written[f - fields] = true;
        } else {
            sb_addf(sb, "%.*s\n", (int)len, l);
            if (f)
                written[f - fields] = true;
        }
        l += len + (l[len] == '\n');
    }
    char buf[64];
    for (size_t i = 0; i < ARRAY_SIZE(fields); i++)
        if (!written[i] && fields[i].show(s, buf, sizeof buf))
            field_line(&fields[i], s, sb);
}

int settings_save(const struct settings *s, const char *path)
{
    if (make_parent(path) < 0)
        return -1;
    /* what the user wrote stays: a file that cannot be read is not
     * replaced */
    errno = 0;
    size_t len = 0;
    char *old = read_file(path, 1 << 16, &len);
    if (!old && errno != ENOENT) {
        if (!errno)
            errno = EIO;
        return -1;
    }
    if (old && memchr(old, '\0', len)) {
        free(old);
        errno = EINVAL;         /* not a text file: leave it */
        return -1;
    }
    struct strbuf sb;
    sb_init(&sb);
    merged_text(s, old, &sb);
    free(old);
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
