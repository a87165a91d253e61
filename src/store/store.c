/* store.c - the results store (store.h). */
#include "config.h"
#include "store/store.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/outfile.h"
#include "common/util.h"

#define RUN_SUFFIX ".evmrun"
#define RUN_FILE_LIMIT (64u << 20)      /* a run of every guide row is ~1 MB */

struct store_writer {
    int fd;
    char *id, *path;
};

char *store_default_dir(void)
{
    /* a relative XDG_DATA_HOME is invalid and ignored (XDG Base Directory spec) */
    const char *xdg = getenv("XDG_DATA_HOME");
    if (xdg && *xdg == '/')
        return path_join(xdg, "evmbench");
    const char *home = getenv("HOME");
    if (home && *home)
        return xasprintf("%s/.local/share/evmbench", home);
    return NULL;
}

/* Writes all of s and syncs it. */
static int write_line(int fd, const char *s)
{
    return write_all(fd, s, strlen(s)) ? fdatasync(fd) : -1;
}

static int append_json(int fd, json_t *j)
{
    char *s = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
    if (!s)
        return -1;
    char *line = xasprintf("%s\n", s);
    free(s);
    int rc = write_line(fd, line);
    free(line);
    return rc;
}

struct store_writer *store_begin(const char *dir, const char *tag, json_t *header,
                                 struct diag *d)
{
    char *runs = path_join(dir, "runs");
    if (make_dirs(runs, 0755) != 0) {
        diag_add(d, "cannot create %s: %s", runs, strerror(errno));
        free(runs);
        return NULL;
    }
    char stamp[32], started[32];
    utc_time(stamp, sizeof stamp, "%Y%m%d-%H%M%S");
    utc_time(started, sizeof started, UTC_ISO8601);
    char *slug = str_slug(tag && *tag ? tag : "run");
    struct store_writer *w = xcalloc(1, sizeof *w);
    w->fd = -1;
    for (int n = 1; n < 100 && w->fd < 0; n++) {
        free(w->id);
        free(w->path);
        w->id = n == 1 ? xasprintf("%s-%s", stamp, slug) : xasprintf("%s-%s-%d", stamp, slug, n);
        w->path = xasprintf("%s/%s%s", runs, w->id, RUN_SUFFIX);
        /* a new file only: O_EXCL never follows a link planted at the name */
        w->fd = open(w->path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_APPEND | O_CLOEXEC,
                     0644);
        if (w->fd < 0 && errno != EEXIST)
            break;
    }
    free(slug);
    free(runs);
    if (w->fd < 0) {
        diag_add(d, "cannot create %s: %s", w->path, strerror(errno));
        free(w->id);
        free(w->path);
        free(w);
        return NULL;
    }
    json_t *h = json_object();
    json_object_set_new(h, "format", json_string(STORE_RUN_FORMAT));
    json_object_set_new(h, "id", json_string(w->id));
    json_object_set_new(h, "started", json_string(started));
    if (header)
        json_object_update(h, header);
    int rc = append_json(w->fd, h);
    json_decref(h);
    if (rc != 0) {
        diag_add(d, "cannot write %s: %s", w->path, strerror(errno));
        close(w->fd);
        unlink(w->path);
        free(w->id);
        free(w->path);
        free(w);
        return NULL;
    }
    return w;
}

const char *store_writer_id(const struct store_writer *w)
{
    return w->id;
}

const char *store_writer_path(const struct store_writer *w)
{
    return w->path;
}

int store_append(struct store_writer *w, json_t *row, struct diag *d)
{
    json_t *o = json_pack("{sO}", "row", row);
    int rc = o ? append_json(w->fd, o) : -1;
    json_decref(o);
    if (rc != 0)
        diag_add(d, "cannot write %s: %s", w->path, strerror(errno));
    return rc;
}

int store_finish(struct store_writer *w, bool complete, struct diag *d)
{
    return store_finish_with(w, complete, NULL, d);
}

int store_finish_with(struct store_writer *w, bool complete, json_t *system_end,
                      struct diag *d)
{
    if (!w)
        return 0;
    int rc = 0;
    if (complete) {
        char ended[32];
        utc_time(ended, sizeof ended, UTC_ISO8601);
        json_t *o = json_pack("{ss}", "end", ended);
        if (json_is_object(system_end))
            json_object_set(o, "system_end", system_end);
        rc = append_json(w->fd, o);
        json_decref(o);
    }
    if (close(w->fd) != 0)
        rc = -1;
    if (rc != 0)
        diag_add(d, "cannot finish %s: %s", w->path, strerror(errno));
    free(w->id);
    free(w->path);
    free(w);
    return rc;
}

/* --- reading ------------------------------------------------------------- */

void stored_run_free(struct stored_run *r)
{
    free(r->id);
    free(r->path);
    json_decref(r->header);
    json_decref(r->rows);
    json_decref(r->system_end);
    memset(r, 0, sizeof *r);
}

static char *id_of(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base);
    if (str_ends_with(base, RUN_SUFFIX))
        n -= strlen(RUN_SUFFIX);
    return xstrndup(base, n);
}

/* store_read_run(); `listing`: the file was found in the store, not
 * named, and one that is not a regular file is skipped, which its
 * message says. */
static int read_run(const char *path, struct stored_run *out, struct diag *d, bool listing)
{
    memset(out, 0, sizeof *out);
    size_t len;
    char *text = read_file(path, RUN_FILE_LIMIT, &len);
    if (!text) {
        if (errno == EFBIG)
            diag_add(d, "%s: larger than %u MB; not a run file", path, RUN_FILE_LIMIT >> 20);
        else if (listing && (errno == ERR_NOT_REGULAR || errno == EISDIR))
            diag_add(d, "%s: %s; skipped", path, file_strerror(errno));
        else
            diag_add(d, "%s: %s", path, file_strerror(errno));
        return -1;
    }
    if (memchr(text, '\0', len)) {
        diag_add(d, "%s: not a run file (binary data)", path);
        free(text);
        return -1;
    }
    out->rows = json_array();
    int lineno = 0;
    for (char *line = text, *next; line && *line; line = next) {
        lineno++;
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        if (!*str_trim(line))
            continue;
        json_error_t e;
        json_t *j = json_loads(line, JSON_REJECT_DUPLICATES, &e);
        if (!j || !json_is_object(j)) {
            if (lineno == 1) {
                diag_add(d, "%s:1: not a run file (%s)", path, j ? "not an object" : e.text);
                json_decref(j);
                break;
            }
            /* a torn last line (power cut mid-write) or damage: skip it */
            diag_add(d, "%s:%d:%d: skipped: %s", path, lineno, j ? 1 : e.column,
                     j ? "not a JSON object" : e.text);
            json_decref(j);
            continue;
        }
        if (lineno == 1) {
            const char *fmt = json_string_value(json_object_get(j, "format"));
            if (!fmt || strcmp(fmt, STORE_RUN_FORMAT) != 0) {
                diag_add(d, "%s:1: not a run file (format is %s, not %s)", path,
                         fmt ? fmt : "missing", STORE_RUN_FORMAT);
                json_decref(j);
                break;
            }
            out->header = j;
            continue;
        }
        json_t *row = json_object_get(j, "row");
        if (json_is_object(row) && json_is_string(json_object_get(row, "metric")))
            json_array_append(out->rows, row);
        else if (json_is_string(json_object_get(j, "end"))) {
            out->complete = true;
            json_t *se = json_object_get(j, "system_end");
            if (json_is_object(se) && !out->system_end)
                out->system_end = json_incref(se);
        }
        else
            diag_add(d, "%s:%d: skipped: neither a row nor the end", path, lineno);
        json_decref(j);
    }
    free(text);
    if (!out->header) {
        if (lineno == 0)
            diag_add(d, "%s: empty, not a run file", path);
        json_decref(out->rows);
        out->rows = NULL;
        return -1;
    }
    out->path = xstrdup(path);
    out->id = id_of(path);
    return 0;
}

int store_read_run(const char *path, struct stored_run *out, struct diag *d)
{
    return read_run(path, out, d, false);
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The run file names in DIR/runs, sorted (ids start with the UTC time, so
 * oldest first). NULL and *n = 0 when the directory cannot be read. */
static char **run_names(const char *dir, size_t *n, struct diag *d)
{
    char *runs = path_join(dir, "runs");
    *n = 0;
    DIR *dp = opendir(runs);
    if (!dp) {
        if (errno != ENOENT)
            diag_add(d, "%s: %s", runs, strerror(errno));
        free(runs);
        return NULL;
    }
    char **names = NULL;
    size_t cap = 0;
    struct dirent *de;
    while ((de = readdir(dp))) {
        if (de->d_name[0] == '.' || !str_ends_with(de->d_name, RUN_SUFFIX))
            continue;
        xgrow(&names, &cap, *n + 1, sizeof *names);
        names[(*n)++] = path_join(runs, de->d_name);
    }
    closedir(dp);
    free(runs);
    if (*n)
        qsort(names, *n, sizeof *names, cmp_names);
    return names;
}

/* Oldest first: by the header's start time, then by id. */
static int cmp_runs(const void *pa, const void *pb)
{
    const struct stored_run *a = pa, *b = pb;
    const char *sa = json_string_value(json_object_get(a->header, "started"));
    const char *sb = json_string_value(json_object_get(b->header, "started"));
    int c = strcmp(sa ? sa : "", sb ? sb : "");
    return c ? c : strcmp(a->id, b->id);
}

size_t store_list(const char *dir, struct stored_run **out, struct diag *d)
{
    size_t n;
    char **names = run_names(dir, &n, d);
    *out = xcalloc(n + 1, sizeof **out);
    size_t got = 0;
    for (size_t i = 0; i < n; i++) {
        if (read_run(names[i], &(*out)[got], d, true) == 0)
            got++;
        free(names[i]);
    }
    free(names);
    if (got > 1)
        qsort(*out, got, sizeof **out, cmp_runs);
    return got;
}

void store_runs_free(struct stored_run *runs, size_t n)
{
    for (size_t i = 0; i < n; i++)
        stored_run_free(&runs[i]);
    free(runs);
}

int store_find(const char *dir, const char *which, struct stored_run *out, struct diag *d)
{
    memset(out, 0, sizeof *out);
    if (strchr(which, '/')) {
        return store_read_run(which, out, d);
    }
    struct stored_run *runs;
    size_t n = store_list(dir, &runs, d);
    ssize_t hit = -1;
    size_t matches = 0;
    if (strcmp(which, "latest") == 0 && n) {
        hit = (ssize_t)n - 1;
        matches = 1;
    } else {
        for (size_t i = 0; i < n; i++) {
            if (strcmp(runs[i].id, which) == 0) {
                hit = (ssize_t)i;
                matches = 1;
                break;
            }
            if (str_starts_with(runs[i].id, which)) {
                hit = (ssize_t)i;
                matches++;
            }
        }
    }
    int rc = -1;
    if (matches == 1) {
        *out = runs[hit];
        memset(&runs[hit], 0, sizeof runs[hit]);
        rc = 0;
    } else if (matches > 1) {
        diag_add(d, "'%s' names %zu runs; give more of the id", which, matches);
    } else {
        diag_add(d, "no run '%s' in %s/runs (see 'evmbench results list')", which, dir);
    }
    store_runs_free(runs, n);
    return rc;
}

int store_prune(const char *dir, size_t keep, struct diag *d)
{
    /* only files that read as runs: a foreign file is never deleted */
    struct stored_run *runs;
    size_t n = store_list(dir, &runs, d);
    int removed = 0;
    for (size_t i = 0; i + keep < n; i++) {
        if (unlink(runs[i].path) == 0)
            removed++;
        else
            diag_add(d, "%s: %s", runs[i].path, strerror(errno));
    }
    store_runs_free(runs, n);
    return removed;
}

/* --- baselines ------------------------------------------------------------ */

/* 1 to `max` letters, digits, '-', '_' and '.', not starting with '.'. */
static bool name_ok_upto(const char *name, size_t max)
{
    if (!*name || strlen(name) > max || name[0] == '.')
        return false;
    for (const char *p = name; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
              (*p >= '0' && *p <= '9') || *p == '-' || *p == '_' || *p == '.'))
            return false;
    return true;
}

#define BASELINE_NAME_MAX 100
#define PREV_SUFFIX ".prev"

static bool baseline_name_ok(const char *name)
{
    return name_ok_upto(name, BASELINE_NAME_MAX);
}

/* A name to load: a saved one, or a saved one's NAME.prev. */
static bool baseline_load_name_ok(const char *name)
{
    return name_ok_upto(name, BASELINE_NAME_MAX + strlen(PREV_SUFFIX));
}

bool store_baseline_name_ok(const char *name)
{
    return baseline_name_ok(name);
}

char *store_baseline_existing(const char *dir, const char *name)
{
    char *path = xasprintf("%s/baselines/%s.json", dir, name);
    struct stat st;
    if (lstat(path, &st) == 0)
        return path;
    free(path);
    return NULL;
}

/* Copies the baseline at `path` to NAME.prev before it is replaced; the
 * copy replaces an older .prev at once (outfile.h). */
static int keep_previous(const char *dir, const char *name, const char *path, struct diag *d)
{
    size_t len;
    char *old = read_file(path, 64u << 20, &len);
    if (!old) {
        diag_add(d, "%s: %s; not replaced, so that it is not lost", path, file_strerror(errno));
        return -1;
    }
    char *prev = xasprintf("%s/baselines/%s" PREV_SUFFIX ".json", dir, name);
    struct diag why;
    diag_init(&why);
    int rc = outfile_write(prev, old, len, &why);
    if (rc != 0)
        diag_add(d, "%s not replaced: the previous one could not be kept: %s", path,
                 diag_last(&why));
    diag_free(&why);
    free(prev);
    free(old);
    return rc;
}

int store_save_baseline(const char *dir, const char *name, const char *run_id,
                        json_t *rows, bool replace, struct diag *d)
{
    if (!baseline_name_ok(name)) {
        diag_add(d, "baseline name '%s': use letters, digits, '-', '_' and '.'", name);
        return -1;
    }
    char *bdir = path_join(dir, "baselines");
    if (make_dirs(bdir, 0755) != 0) {
        diag_add(d, "cannot create %s: %s", bdir, strerror(errno));
        free(bdir);
        return -1;
    }
    free(bdir);
    char *path = store_baseline_existing(dir, name);
    if (path && !replace) {
        diag_add(d, "%s exists: baseline '%s' is not replaced", path, name);
        free(path);
        errno = EEXIST;
        return -1;
    }
    if (path && keep_previous(dir, name, path, d) != 0) {
        free(path);
        return -1;
    }
    free(path);
    path = xasprintf("%s/baselines/%s.json", dir, name);
    json_t *o = json_pack("{ss ss sO}", "format", STORE_BASELINE_FORMAT, "name", name,
                          "rows", rows);
    if (run_id)
        json_object_set_new(o, "run", json_string(run_id));
    json_t *sys = run_id ? store_load_system(dir, run_id) : NULL;
    if (sys)                    /* the baseline outlives a pruned run */
        json_object_set_new(o, "system", sys);
    char *s = json_dumps(o, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
    json_decref(o);
    int rc = -1;
    if (!s) {
        diag_add(d, "%s: the baseline could not be made into JSON", path);
    } else {
        /* through a temporary replacing the old baseline at once (outfile.h) */
        char *text = xasprintf("%s\n", s);
        rc = outfile_write(path, text, strlen(text), d);
        free(text);
    }
    free(s);
    free(path);
    return rc;
}

json_t *store_load_baseline(const char *dir, const char *name, struct diag *d)
{
    if (baseline_load_name_ok(name)) {
        char *path = xasprintf("%s/baselines/%s.json", dir, name);
        json_error_t e;
        json_t *o = json_read_file(path, JSON_REJECT_DUPLICATES, &e);
        if (o) {
            const char *fmt = json_string_value(json_object_get(o, "format"));
            json_t *rows = json_object_get(o, "rows");
            if (fmt && strcmp(fmt, STORE_BASELINE_FORMAT) == 0 && json_is_array(rows)) {
                json_incref(rows);
                json_decref(o);
                free(path);
                return rows;
            }
            diag_add(d, "%s: not a baseline (format %s)", path,
                     fmt ? fmt : "missing");
            json_decref(o);
            free(path);
            return NULL;
        }
        if (access(path, F_OK) == 0) {
            if (e.line < 0)     /* not read: not a regular file, too large */
                diag_add(d, "%s: %s", path, e.text);
            else
                diag_add(d, "%s:%d:%d: %s", path, e.line, e.column, e.text);
            free(path);
            return NULL;
        }
        free(path);
    }
    struct stored_run r;
    struct diag quiet;
    diag_init(&quiet);
    int rc = store_find(dir, name, &r, &quiet);
    if (rc != 0) {
        diag_add(d, "no baseline or run '%s' in %s", name, dir);
        diag_free(&quiet);
        return NULL;
    }
    for (size_t i = 0; i < quiet.n; i++)
        diag_add(d, "%s", quiet.msgs[i]);
    diag_free(&quiet);
    json_t *rows = json_incref(r.rows);
    stored_run_free(&r);
    return rows;
}

static int cmp_choice(const void *a, const void *b)
{
    return strcmp(((const struct baseline_choice *)a)->name,
                  ((const struct baseline_choice *)b)->name);
}

size_t store_baseline_choices(const char *dir, struct baseline_choice **out,
                              struct diag *d)
{
    struct baseline_choice *c = NULL;
    size_t n = 0, cap = 0;
    char *bdir = path_join(dir, "baselines");
    DIR *dh = opendir(bdir);
    struct dirent *e;
    while (dh && (e = readdir(dh))) {
        if (e->d_name[0] == '.' || !str_ends_with(e->d_name, ".json"))
            continue;
        char *name = xstrndup(e->d_name, strlen(e->d_name) - strlen(".json"));
        json_t *rows = store_load_baseline(dir, name, d);
        if (!rows) {
            free(name);
            continue;
        }
        xgrow(&c, &cap, n + 1, sizeof *c);
        c[n++] = (struct baseline_choice){ name, false, json_array_size(rows), true };
        json_decref(rows);
    }
    if (dh)
        closedir(dh);
    free(bdir);
    if (n)
        qsort(c, n, sizeof *c, cmp_choice);
    struct stored_run *runs;
    size_t nr = store_list(dir, &runs, d);
    for (size_t i = nr; i-- > 0;) {
        xgrow(&c, &cap, n + 1, sizeof *c);
        c[n++] = (struct baseline_choice){ xstrdup(runs[i].id), true,
                                           json_array_size(runs[i].rows), runs[i].complete };
    }
    store_runs_free(runs, nr);
    *out = c;
    return n;
}

void store_baseline_choices_free(struct baseline_choice *c, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(c[i].name);
    free(c);
}

/* --- the system a run ran on ------------------------------------------------ */

/* The header's "system" with the end line's "system_end" as its "end". */
static json_t *run_system(const struct stored_run *r)
{
    json_t *sys = json_object_get(r->header, "system");
    if (!json_is_object(sys))
        return NULL;
    json_t *copy = json_deep_copy(sys);
    if (r->system_end)
        json_object_set(copy, "end", r->system_end);
    return copy;
}

json_t *stored_run_system(const struct stored_run *r)
{
    return run_system(r);
}

json_t *store_load_system(const char *dir, const char *name)
{
    if (baseline_name_ok(name)) {
        char *path = xasprintf("%s/baselines/%s.json", dir, name);
        json_error_t e;
        json_t *o = json_read_file(path, JSON_REJECT_DUPLICATES, &e);
        free(path);
        if (o) {
            json_t *sys = json_object_get(o, "system");
            const char *run = json_string_value(json_object_get(o, "run"));
            json_t *out = json_is_object(sys) ? json_incref(sys) : NULL;
            char *run_id = !out && run ? xstrdup(run) : NULL;
            json_decref(o);
            if (out || !run_id)
                return out;
            /* an older baseline: the run it was saved from may still be there */
            struct stored_run r;
            struct diag quiet;
            diag_init(&quiet);
            if (store_find(dir, run_id, &r, &quiet) == 0) {
                out = run_system(&r);
                stored_run_free(&r);
            }
            diag_free(&quiet);
            free(run_id);
            return out;
        }
    }
    struct stored_run r;
    struct diag quiet;
    diag_init(&quiet);
    json_t *out = NULL;
    if (store_find(dir, name, &r, &quiet) == 0) {
        out = run_system(&r);
        stored_run_free(&r);
    }
    diag_free(&quiet);
    return out;
}
