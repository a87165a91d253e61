/* datadir.c - finds the shipped data (environment, build tree, install,
 * built-in table) and lists and reads it the same way wherever it is. */
#include "config.h"
#include "data/datadir.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/util.h"

static bool is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* In the source tree references, tool recipes, profiles and the SoC facts sit
 * in benches/, themes at the top. */
static const char *source_subdir(const char *sub)
{
    if (strcmp(sub, "refs") == 0)
        return "benches/refs";
    if (strcmp(sub, "tools") == 0)
        return "benches/tools";
    if (strcmp(sub, "profiles") == 0)
        return "benches/profiles";
    if (strcmp(sub, "soc") == 0)
        return "benches/soc";
    return sub;
}

/* A data root holds either the installed layout or the source layout. */
static char *under_root(const char *root, const char *sub)
{
    char *p = path_join(root, sub);
    if (is_dir(p))
        return p;
    free(p);
    p = path_join(root, source_subdir(sub));
    if (is_dir(p))
        return p;
    free(p);
    return NULL;
}

/* True when the running program is the one built in the build tree. */
static bool running_from_build_tree(void)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return false;
    exe[n] = '\0';
    char *real_build = realpath(ABS_TOP_BUILDDIR, NULL);
    bool inside = real_build && str_starts_with(exe, real_build) &&
                  exe[strlen(real_build)] == '/';
    free(real_build);
    return inside;
}

/* The directory for sub; *chosen tells whether a rule picked it (the
 * environment, the build tree, an installed directory) or it is only the
 * installed path that does not exist. */
static char *find_dir(const char *sub, bool *chosen)
{
    *chosen = true;
    const char *env = getenv("EVMBENCH_DATADIR");
    if (env && *env) {
        char *p = under_root(env, sub);
        return p ? p : path_join(env, sub);
    }
    if (running_from_build_tree()) {
        char *p = under_root(ABS_TOP_SRCDIR, sub);
        if (p)
            return p;
    }
    char *installed = path_join(PKGDATADIR, sub);
    *chosen = is_dir(installed);
    return installed;
}

char *datadir_path(const char *sub)
{
    bool chosen;
    return find_dir(sub, &chosen);
}

/* --- struct data_dir ----------------------------------------------------------- */

void data_dir_at(struct data_dir *d, const char *path)
{
    memset(d, 0, sizeof *d);
    d->path = xstrdup(path);
    d->label = xstrdup(path);
}

void data_dir_table(struct data_dir *d, const struct embedded_file *files, size_t n,
                    const char *sub)
{
    memset(d, 0, sizeof *d);
    d->table = files;
    d->ntable = n;
    d->prefix = xasprintf("%s/", sub);
    d->label = xasprintf("built-in:%s", sub);
}

/* Does the table hold any file directly in folder sub? */
static bool table_has(const struct embedded_file *files, size_t n, const char *sub)
{
    size_t len = strlen(sub);
    for (size_t i = 0; i < n; i++)
        if (files[i].path && strncmp(files[i].path, sub, len) == 0 &&
            files[i].path[len] == '/')
            return true;
    return false;
}

void data_dir_default(struct data_dir *d, const char *sub)
{
    bool chosen;
    char *dir = find_dir(sub, &chosen);
    /* a static binary copied alone onto a board: its built-in copy */
    size_t nbuiltin = 0;
    const struct embedded_file *builtin = chosen ? NULL : embedded_builtin(&nbuiltin);
    if (builtin && table_has(builtin, nbuiltin, sub))
        data_dir_table(d, builtin, nbuiltin, sub);
    else
        data_dir_at(d, dir);
    free(dir);
}

void data_dir_free(struct data_dir *d)
{
    free(d->label);
    free(d->path);
    free(d->prefix);
    memset(d, 0, sizeof *d);
}

/* The name of table entry i when it lies directly in d's folder, else NULL. */
static const char *table_name(const struct data_dir *d, size_t i)
{
    const char *p = d->table[i].path;
    if (!p || !str_starts_with(p, d->prefix))
        return NULL;
    p += strlen(d->prefix);
    return *p && !strchr(p, '/') ? p : NULL;
}

/* Walks the source's names: a directory's entries or the table's files.
 * Returns the next name, NULL at the end (errno 0) or on an error. */
struct walk {
    const struct data_dir *d;
    DIR *dh;
    size_t i;
};

static bool is_subdir(const char *dir, const struct dirent *e)
{
    if (e->d_type != DT_UNKNOWN && e->d_type != DT_LNK)
        return e->d_type == DT_DIR;
    char *p = path_join(dir, e->d_name);
    bool sub = is_dir(p);
    free(p);
    return sub;
}

static const char *walk_next(struct walk *w)
{
    if (w->d->path) {
        struct dirent *e;
        /* files only: a table has no folders inside a folder either */
        while (errno = 0, (e = readdir(w->dh)) != NULL)
            if (!is_subdir(w->d->path, e))
                return e->d_name;
        return NULL;
    }
    while (w->i < w->d->ntable) {
        const char *name = table_name(w->d, w->i++);
        if (name)
            return name;
    }
    errno = 0;
    return NULL;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

ssize_t data_dir_list(const struct data_dir *d, const char *suffix, char ***names)
{
    *names = NULL;
    struct walk w = { d, NULL, 0 };
    if (d->path && !(w.dh = opendir(d->path)))
        return -1;
    char **v = NULL;
    size_t n = 0, cap = 0;
    const char *name;
    while ((name = walk_next(&w)) != NULL) {
        if (name[0] == '.' || !str_ends_with(name, suffix))
            continue;
        xgrow(&v, &cap, n + 1, sizeof *v);
        v[n++] = xstrdup(name);
    }
    int err = errno;
    if (w.dh)
        closedir(w.dh);
    if (err) {
        for (size_t i = 0; i < n; i++)
            free(v[i]);
        free(v);
        errno = err;
        return -1;
    }
    if (n)
        qsort(v, n, sizeof *v, cmp_names);
    *names = v;
    return (ssize_t)n;
}

/* The table's bytes for name, as read_file would give them from disk. */
static char *table_read(const struct data_dir *d, const char *name, size_t limit, size_t *len)
{
    for (size_t i = 0; i < d->ntable; i++) {
        const char *n = table_name(d, i);
        if (!n || strcmp(n, name) != 0)
            continue;
        const struct embedded_file *f = &d->table[i];
        if (f->size > limit) {
            errno = EFBIG;
            return NULL;
        }
        char *buf = xmalloc(f->size + 1);
        memcpy(buf, f->data, f->size);
        buf[f->size] = '\0';
        if (len)
            *len = f->size;
        return buf;
    }
    errno = ENOENT;
    return NULL;
}

char *data_dir_read(const struct data_dir *d, const char *name, size_t limit, size_t *len)
{
    if (!limit)
        limit = 64u << 20;
    if (!*name || strchr(name, '/')) {
        errno = ENOENT;         /* only names of the folder itself */
        return NULL;
    }
    if (!d->path)
        return table_read(d, name, limit, len);
    char *p = path_join(d->path, name);
    char *text = read_file(p, limit, len);
    int err = errno;
    free(p);
    errno = err;
    return text;
}

char *data_dir_file_label(const struct data_dir *d, const char *name)
{
    return path_join(d->label, name);
}

char *data_read_named(const char *sub, const char *name_or_path, const char *suffix,
                      size_t limit, size_t *len, char **label)
{
    if (strchr(name_or_path, '/')) {
        *label = xstrdup(name_or_path);
        return read_file(name_or_path, limit, len);
    }
    struct data_dir d;
    data_dir_default(&d, sub);
    char *file = xasprintf("%s%s", name_or_path, suffix);
    char *text = data_dir_read(&d, file, limit, len);
    int err = errno;
    *label = data_dir_file_label(&d, file);
    free(file);
    data_dir_free(&d);
    errno = err;
    return text;
}
