/* embedded.c - writes the compiled-in data files out to a private temporary
 * directory, and points ncurses at the embedded terminfo entries. */
#include "config.h"
#include "embedded.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <curses.h>
#include <term.h>

#include "util.h"

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

char *embedded_extract(const struct embedded_file *files, size_t n, char **err)
{
    *err = NULL;
    const char *tmp = getenv("TMPDIR");
    if (!tmp || !*tmp)
        tmp = "/tmp";
    char *root = path_join(tmp, "evmbench-XXXXXX");
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

/* The process's extracted copy, and who made it. */
static char *proc_root;
static pid_t proc_owner;
static bool proc_tried;

static void remove_proc_root(void)
{
    /* forked workers inherit the atexit list; only the maker removes */
    if (proc_root && getpid() == proc_owner)
        embedded_remove(proc_root, embedded_files, embedded_nfiles);
}

const char *embedded_root(void)
{
    if (proc_tried)
        return proc_root;
    proc_tried = true;
    if (embedded_nfiles == 0)
        return NULL;
    char *err = NULL;
    proc_root = embedded_extract(embedded_files, embedded_nfiles, &err);
    if (!proc_root) {
        fprintf(stderr, "evmbench: built-in data unavailable: %s\n", err);
        free(err);
        return NULL;
    }
    proc_owner = getpid();
    atexit(remove_proc_root);
    return proc_root;
}

/* True when ncurses finds term's entry where it looks now. */
static bool terminfo_known(const char *term)
{
    int found = 0;
    TERMINAL *before = cur_term;
    if (setupterm(term, STDOUT_FILENO, &found) != OK)
        return false;
    del_curterm(cur_term);
    set_curterm(before);
    return true;
}

bool embedded_has_terminfo(const char *term)
{
    /* terminfo/<letter or hex>/<name> */
    char *tail = xasprintf("/%s", term);
    bool have = false;
    for (size_t i = 0; i < embedded_nfiles && !have; i++)
        have = str_starts_with(embedded_files[i].path, "terminfo/") &&
               str_ends_with(embedded_files[i].path, tail) &&
               strchr(embedded_files[i].path + strlen("terminfo/"), '/') ==
                   embedded_files[i].path + strlen(embedded_files[i].path) - strlen(tail);
    free(tail);
    return have;
}

bool embedded_terminfo_setup(const char *term)
{
    if (!term || !*term || terminfo_known(term))
        return false;
    if (!embedded_has_terminfo(term))
        return false;
    const char *root = embedded_root();
    if (!root)
        return false;
    char *dir = path_join(root, "terminfo");
    const char *old = getenv("TERMINFO_DIRS");
    /* an empty TERMINFO_DIRS entry means the compiled-in system locations */
    char *dirs = old && *old ? xasprintf("%s:%s", old, dir) : xasprintf(":%s", dir);
    setenv("TERMINFO_DIRS", dirs, 1);
    free(dirs);
    free(dir);
    return true;
}
