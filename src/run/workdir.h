/* workdir.h - a benchmark's private directory under $TMPDIR, and its
 * removal whatever was left in it.
 *
 * The runner makes one for each worker before it forks, hands it to the
 * worker as its TMPDIR (so the kernel's files, a tool's files and the
 * tool's own temporaries all land there) and removes it when it has reaped
 * the worker and its process group: the parent removes it, because a
 * worker killed with SIGKILL (a cancel, a time limit, a signal that stops
 * the program) cannot. The tool kernel makes its own below it. */
#ifndef EVMBENCH_WORKDIR_H
#define EVMBENCH_WORKDIR_H

#include <stdbool.h>

/* Creates "$TMPDIR/evmbench-NAME-XXXXXX" (/tmp when TMPDIR is unset or
 * empty), mode 0700; the characters of NAME other than letters, digits,
 * '.', '_' and '-' become '_'. Returns the path (the caller frees), or
 * NULL with errno set. */
char *workdir_create(const char *name);

/* Removes the directory `path` and everything in it: directories without
 * write or search permission are opened up first (a tool may leave
 * read-only trees, which an unprivileged user cannot otherwise empty),
 * symbolic links are removed, never followed, and nothing on another file
 * system (a mount below it) is touched. True when `path` is gone (or was
 * never there); NULL is fine. */
bool workdir_remove(const char *path);

#endif
