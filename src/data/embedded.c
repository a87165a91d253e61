/* embedded.c - writes a compiled-in terminfo entry out to a private
 * temporary directory for ncurses (the data files are read from memory,
 * datadir.c). */
#include "config.h"
#include "data/embedded.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <curses.h>
#include <term.h>

#include "common/util.h"

/* A relative path of plain components: no "", ".", ".." or leading '/'. */
static bool safe_path(const char *p)
{
    if (!p || !*p || *p == '/')
        return false;
    for (const char *s = p; *s;) {
        const char *e = strchr(s, '/');
        size_t n = e ? (size_t)(e - s) : strlen(s);
        if (n == 0 || (n == 1 && s[0] == '.') || (n == 2 && s[0] == '.' && s[1] == '.'))
            return false;
        s += n;
        if (*s == '/')
            s++;
        if (e && !*s)
            return false;           /* trailing '/' */
    }
    return true;
}

/* Creates the directories between root and the file's last component. */
static bool make_parents(const char *root, const char *rel)
{
    char *path = path_join(root, rel);
    size_t skip = strlen(root) + 1;
    bool ok = true;
    for (char *s = path + skip; (s = strchr(s, '/')) != NULL; s++) {
        *s = '\0';
        if (mkdir(path, 0700) != 0 && errno != EEXIST)
            ok = false;
        *s = '/';
        if (!ok)
            break;
    }
    free(path);
    return ok;
}

static bool write_all(int fd, const unsigned char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        p += w;
        n -= (size_t)w;
    }
    return true;
}

void embedded_remove(const char *root, const struct embedded_file *files, size_t n)
{
    if (!root)
        return;
    for (size_t i = 0; i < n; i++) {
        if (!safe_path(files[i].path))
            continue;
        char *p = path_join(root, files[i].path);
        unlink(p);
        /* the file's directories, deepest first; the ones still holding
         * other files stay until their last file goes */
        char *slash;
        while ((slash = strrchr(p, '/')) != NULL && (size_t)(slash - p) > strlen(root)) {
            *slash = '\0';
            if (rmdir(p) != 0)
                break;
        }
        free(p);
    }
    rmdir(root);
}

char *embedded_extract(const char *base, const struct embedded_file *files, size_t n,
                       char **err)
{
    *err = NULL;
    char *root = path_join(base, "evmbench-XXXXXX");
    if (!mkdtemp(root)) {
        *err = xasprintf("%s: cannot create a directory: %s", root, strerror(errno));
        free(root);
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        if (!safe_path(files[i].path)) {
            *err = xasprintf("embedded file name '%s' is not a relative path",
                             files[i].path ? files[i].path : "(null)");
            break;
        }
        char *p = path_join(root, files[i].path);
        int fd = -1;
        if (make_parents(root, files[i].path))
            fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        bool ok = fd >= 0 && write_all(fd, files[i].data, files[i].size);
        int saved = errno;
        if (fd >= 0 && close(fd) != 0 && ok) {
            ok = false;
            saved = errno;
        }
        if (!ok)
            *err = xasprintf("%s: cannot write: %s", p, strerror(saved));
        free(p);
        if (!ok)
            break;
    }
    if (*err) {
        embedded_remove(root, files, n);
        free(root);
        return NULL;
    }
    return root;
}

char *embedded_extract_first(const char *const *bases, size_t nbases,
                             const struct embedded_file *files, size_t n, char **err)
{
    struct strbuf why;
    sb_init(&why);
    for (size_t i = 0; i < nbases; i++) {
        char *e = NULL;
        char *root = embedded_extract(bases[i], files, n, &e);
        if (root) {
            sb_free(&why);
            *err = NULL;
            return root;
        }
        sb_addf(&why, "%s%s", why.len ? "\n" : "", e);
        free(e);
    }
    if (!nbases)
        sb_add(&why, "no directory to try");
    *err = sb_steal(&why);
    return NULL;
}

size_t embedded_temp_bases(char *out[4])
{
    size_t n = 0;
    const char *tmp = getenv("TMPDIR");
    if (tmp && *tmp)
        out[n++] = xstrdup(tmp);
    out[n++] = xstrdup("/tmp");
    out[n++] = xstrdup("/dev/shm");
    out[n++] = xasprintf("/run/user/%lu", (unsigned long)getuid());
    return n;
}

/* The process's copy of the terminfo entry, and who made it. */
static char *proc_root;
static pid_t proc_owner;
static struct embedded_file *proc_files;
static size_t proc_nfiles;

static void remove_proc_root(void)
{
    /* forked workers inherit the atexit list; only the maker removes */
    if (proc_root && getpid() == proc_owner)
        embedded_remove(proc_root, proc_files, proc_nfiles);
}

bool terminfo_found(const char *term)
{
    int found = 0;
    TERMINAL *before = cur_term;
    if (setupterm(term, STDOUT_FILENO, &found) != OK)
        return false;
    del_curterm(cur_term);
    set_curterm(before);
    return true;
}

/* Is path "terminfo/<one directory>/<term>"? */
static bool is_terminfo_entry(const char *path, const char *term)
{
    if (!str_starts_with(path, "terminfo/"))
        return false;
    const char *dir = path + strlen("terminfo/");
    const char *slash = strchr(dir, '/');
    return slash && slash > dir && strcmp(slash + 1, term) == 0;
}

bool embedded_has_terminfo(const char *term)
{
    for (size_t i = 0; i < embedded_nfiles; i++)
        if (is_terminfo_entry(embedded_files[i].path, term))
            return true;
    return false;
}

enum terminfo_setup embedded_terminfo_setup(const char *term, char **err)
{
    *err = NULL;
    if (!term || !*term || proc_root || terminfo_found(term))
        return TERMINFO_INSTALLED;
    if (!embedded_has_terminfo(term) || strchr(term, '/'))
        return TERMINFO_MISSING;
    /* only the entry for term: ncurses reads nothing else */
    struct embedded_file *mine = xcalloc(embedded_nfiles, sizeof *mine);
    size_t n = 0;
    for (size_t i = 0; i < embedded_nfiles; i++)
        if (is_terminfo_entry(embedded_files[i].path, term))
            mine[n++] = embedded_files[i];
    char *bases[4];
    size_t nb = embedded_temp_bases(bases);
    char *root = embedded_extract_first((const char *const *)bases, nb, mine, n, err);
    for (size_t i = 0; i < nb; i++)
        free(bases[i]);
    if (!root) {
        free(mine);
        return TERMINFO_UNWRITABLE;
    }
    proc_root = root;
    proc_files = mine;
    proc_nfiles = n;
    proc_owner = getpid();
    atexit(remove_proc_root);
    char *dir = path_join(root, "terminfo");
    const char *old = getenv("TERMINFO_DIRS");
    /* an empty TERMINFO_DIRS entry means the compiled-in system locations */
    char *dirs = old && *old ? xasprintf("%s:%s", old, dir) : xasprintf(":%s", dir);
    setenv("TERMINFO_DIRS", dirs, 1);
    free(dirs);
    free(dir);
    return TERMINFO_EMBEDDED;
}
