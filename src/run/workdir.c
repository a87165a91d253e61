/* workdir.c - a benchmark's private directory and its removal (workdir.h). */
#include "config.h"
#include "run/workdir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/util.h"

/* Deeper trees are left (each level holds a descriptor while it is emptied). */
#define WORKDIR_DEPTH_MAX 128

char *workdir_create(const char *name)
{
    const char *base = getenv("TMPDIR");
    if (!base || !*base)
        base = "/tmp";
    char *safe = xstrdup(name && *name ? name : "run");
    for (char *c = safe; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
              (*c >= '0' && *c <= '9') || *c == '.' || *c == '_' || *c == '-'))
            *c = '_';
    char *path = xasprintf("%s/evmbench-%.64s-XXXXXX", base, safe);
    free(safe);
    if (!mkdtemp(path)) {
        int e = errno;
        free(path);
        errno = e;
        return NULL;
    }
    return path;
}

static void remove_at(int dirfd, const char *name, dev_t dev, int depth);

/* Removes what the directory open as `fd` holds, then closes it. Entries
 * are removed while it is read, so it is read again until a pass finds
 * nothing more it can remove. */
static void empty_dir(int fd, dev_t dev, int depth)
{
    DIR *d = fdopendir(fd);
    if (!d) {
        close(fd);
        return;
    }
    for (int pass = 0; pass < 4; pass++) {
        bool any = false;
        struct dirent *de;
        rewinddir(d);
        while ((de = readdir(d))) {
            if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
                continue;
            remove_at(dirfd(d), de->d_name, dev, depth + 1);
            any = true;
        }
        if (!any)
            break;
    }
    closedir(d);
}

/* Removes dirfd/name: a file or a link at once, a directory on `dev`
 * after it was opened up to its owner and emptied. */
static void remove_at(int dirfd, const char *name, dev_t dev, int depth)
{
    if (unlinkat(dirfd, name, 0) == 0)
        return;
    struct stat st;
    if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR(st.st_mode) ||
        st.st_dev != dev || depth > WORKDIR_DEPTH_MAX)
        return;
    if ((st.st_mode & S_IRWXU) != S_IRWXU)
        fchmodat(dirfd, name, (st.st_mode & 07777) | S_IRWXU, 0);
    int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd >= 0)
        empty_dir(fd, dev, depth);
    unlinkat(dirfd, name, AT_REMOVEDIR);
}

bool workdir_remove(const char *path)
{
    if (!path)
        return true;
    struct stat st;
    if (lstat(path, &st) != 0)
        return errno == ENOENT;
    if (!S_ISDIR(st.st_mode))
        return unlink(path) == 0;
    remove_at(AT_FDCWD, path, st.st_dev, 0);
    return lstat(path, &st) != 0 && errno == ENOENT;
}
