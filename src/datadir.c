/* datadir.c - finds the shipped data: environment, build tree, install. */
#include "config.h"
#include "datadir.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "embedded.h"
#include "util.h"

static bool is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* In the source tree references, tool recipes and profiles sit in benches/, themes
 * at the top. */
static const char *source_subdir(const char *sub)
{
    if (strcmp(sub, "refs") == 0)
        return "benches/refs";
    if (strcmp(sub, "tools") == 0)
        return "benches/tools";
    if (strcmp(sub, "profiles") == 0)
        return "benches/profiles";
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

char *datadir_path(const char *sub)
{
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
    if (is_dir(installed) || embedded_nfiles == 0)
        return installed;
    /* a static binary copied alone onto a board: its built-in copy */
    const char *root = embedded_root();
    char *p = root ? under_root(root, sub) : NULL;
    if (!p)
        return installed;
    free(installed);
    return p;
}
