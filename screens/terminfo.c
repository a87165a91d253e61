/* terminfo.c - writes a compiled-in terminfo entry out to a private
 * temporary directory for ncurses. */
#include "config.h"
#include "screens/terminfo.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <curses.h>
#include <term.h>

#include "data/embedded.h"
#include "common/util.h"

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
    size_t n;
    const struct embedded_file *files = embedded_builtin(&n);
    for (size_t i = 0; i < n; i++)
        if (is_terminfo_entry(files[i].path, term))
            return true;
    return false;
}

enum terminfo_setup embedded_terminfo_setup(const char *term, struct diag *d)
{
    if (!term || !*term || proc_root || terminfo_found(term))
        return TERMINFO_INSTALLED;
    if (!embedded_has_terminfo(term) || strchr(term, '/'))
        return TERMINFO_MISSING;
    /* only the entry for term: ncurses reads nothing else */
    size_t nfiles;
    const struct embedded_file *files = embedded_builtin(&nfiles);
    struct embedded_file *mine = xcalloc(nfiles, sizeof *mine);
    size_t n = 0;
    for (size_t i = 0; i < nfiles; i++)
        if (is_terminfo_entry(files[i].path, term))
            mine[n++] = files[i];
    char *bases[4];
    size_t nb = embedded_temp_bases(bases);
    char *root = embedded_extract_first((const char *const *)bases, nb, mine, n, d);
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
