/* recipe.c - a recipe on this system: finding the tool's binary, creating
 * the files the benchmark needs. The other parts: recipe_impl.h. */
#include "config.h"
#include "recipe/recipe_impl.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/util.h"

static char *tools_dir;

/* --- binaries ----------------------------------------------------------- */

void recipe_set_tools_dir(const char *dir)
{
    free(tools_dir);
    tools_dir = dir && *dir ? xstrdup(dir) : NULL;
}

const char *recipe_tools_dir(void)
{
    return tools_dir;
}

static char *exe_in(const char *dir, const char *name)
{
    if (!dir || !*dir)
        return NULL;
    char *p = path_join(dir, name);
    struct stat st;
    if (stat(p, &st) == 0 && S_ISREG(st.st_mode) && access(p, X_OK) == 0) {
        if (p[0] != '/') {
            char *abs = realpath(p, NULL);
            if (abs) {
                free(p);
                p = abs;
            }
        }
        return p;
    }
    free(p);
    return NULL;
}

/* The binary entry found and its path. */
static char *find_binary(const struct recipe_bench *b, const struct binary **which)
{
    const char *path = getenv("PATH");
    for (int pass = 0; pass < 3; pass++) {
        for (size_t i = 0; i < b->nbins; i++) {
            char *found = NULL;
            if (pass == 0) {
                found = exe_in(tools_dir, b->bins[i].name);
            } else if (pass == 1) {
                for (size_t s = 0; s < b->nsearch && !found; s++)
                    found = exe_in(b->search[s], b->bins[i].name);
            } else if (path) {
                char *copy = xstrdup(path), *save = NULL;
                for (char *dir = strtok_r(copy, ":", &save); dir && !found;
                     dir = strtok_r(NULL, ":", &save))
                    found = exe_in(dir, b->bins[i].name);
                free(copy);
            }
            if (found) {
                if (which)
                    *which = &b->bins[i];
                return found;
            }
        }
    }
    return NULL;
}

char *recipe_find_binary(const struct recipe_bench *b)
{
    return find_binary(b, NULL);
}

const char *recipe_binary_name(const struct recipe_bench *b, size_t i)
{
    return i < b->nbins ? b->bins[i].name : NULL;
}

char *recipe_not_found_reason(const struct recipe_bench *b)
{
    struct strbuf sb;
    sb_init(&sb);
    for (size_t i = 0; i < b->nbins; i++)
        sb_addf(&sb, "%s%s", i ? "/" : "", b->bins[i].name);
    sb_add(&sb, " not found in ");
    if (tools_dir)
        sb_addf(&sb, "%s (--tools-dir), ", tools_dir);
    for (size_t i = 0; i < b->nsearch; i++)
        sb_addf(&sb, "%s, ", b->search[i]);
    sb_add(&sb, "$PATH");
    if (b->provided_by)
        sb_addf(&sb, "; provided by %s", b->provided_by);
    return sb_steal(&sb);
}

/* --- files the benchmark needs ----------------------------------------- */

static bool make_file(const struct rfile *f, const char *path)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        return false;
    bool ok = true;
    if (f->kind == RF_CONTENT) {
        ok = write_all(fd, f->content, strlen(f->content));
    } else {
        size_t chunk = 1 << 16;
        uint64_t *buf = xcalloc(chunk / 8, 8);
        uint64_t x = 0x9e3779b97f4a7c15ull;
        for (size_t done = 0; ok && done < f->size; done += chunk) {
            if (f->random)
                for (size_t i = 0; i < chunk / 8; i++) {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    buf[i] = x;
                }
            size_t n = f->size - done < chunk ? f->size - done : chunk;
            ok = write_all(fd, buf, n);
        }
        free(buf);
    }
    if (close(fd) != 0)
        ok = false;
    return ok;
}

bool recipe_prepare_tmpdir(const struct recipe_bench *b, const struct recipe_env *env,
                           struct diag *d)
{
    struct scope sc = { b, 0, env, NULL, NULL, 0 };
    for (size_t i = 0; i < b->nfiles; i++) {
        const struct rfile *f = &b->files[i];
        char *path = path_join(env->tmpdir, f->name);
        bool ok = true;
        if (f->kind == RF_DIR) {
            ok = mkdir(path, 0755) == 0 || errno == EEXIST;
        } else if (f->kind == RF_LINK) {
            char *target = rcp_tmpl_expand(f->link, &sc, 0);
            /* a link to something absent is skipped: the tool says what it misses */
            if (target && access(target, F_OK) == 0)
                ok = symlink(target, path) == 0;
            free(target);
        } else {
            ok = make_file(f, path);
        }
        if (!ok) {
            diag_add(d, "cannot create %s: %s", path, strerror(errno));
            free(path);
            return false;
        }
        free(path);
    }
    return true;
}

bool recipe_check_needs(const struct recipe_bench *b, size_t inv, struct diag *d)
{
    for (size_t i = 0; i < b->nneeds; i++)
        if (b->needs[i].path && rcp_only_applies(b, &b->needs[i].only, inv) &&
            access(b->needs[i].path, F_OK) != 0) {
            if (b->needs[i].reason)
                diag_add(d, "%s is missing: %s", b->needs[i].path, b->needs[i].reason);
            else
                diag_add(d, "%s is missing", b->needs[i].path);
            return false;
        }
    return true;
}
