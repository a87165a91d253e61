/* outfile.h - every file the program writes goes through here, so that
 * nothing but the file named is ever touched and nothing is left half
 * written.
 *
 * What the path names decides how it is written:
 *   - a regular file, or nothing yet: the output goes to a new temporary
 *     file in the same directory (mkstemp: a name nobody can guess, created
 *     exclusively, so a link planted there is never followed), mode 0600
 *     while it is written. Only when every write, the flush, the sync and
 *     the close succeeded does it get its final mode (the old file's, or
 *     0666 less the umask for a new one) and replace the target by
 *     rename(). A failure, or a signal that ends the program, removes the
 *     temporary and leaves the target as it was.
 *   - a symbolic link: the file it points to is replaced as above and the
 *     link stays a link. A link to nothing is refused.
 *   - a character device or a FIFO (/dev/null, a serial port, a pipe made
 *     by mkfifo): written in place; the node stays what it is.
 *   - /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N: the descriptor
 *     the program already has, written in place whatever it is.
 *   - anything else (a directory, a socket, a block device): refused.
 *
 * Messages are "PATH: reason", for the caller to prefix ("evmbench: "). */
#ifndef EVMBENCH_OUTFILE_H
#define EVMBENCH_OUTFILE_H

#include <stddef.h>
#include <stdio.h>

#include "common/diag.h"

struct outfile;

/* Opens `path` for writing as above. NULL with "PATH: reason" added to d,
 * and errno set, when it cannot (refused, no such directory, no permission). */
struct outfile *outfile_open(const char *path, struct diag *d);
/* The stream to write to, until outfile_commit or outfile_abort. */
FILE *outfile_stream(const struct outfile *o);
/* Finishes the file: flushes, checks that every write arrived, closes and
 * renames the temporary over the target. 0, or -1 with "PATH: reason" added
 * to d and errno set, the target then untouched and the temporary gone.
 * Frees o either way. */
int outfile_commit(struct outfile *o, struct diag *d);
/* Drops what was written: closes, removes the temporary, frees o. NULL is
 * fine. */
void outfile_abort(struct outfile *o);
/* The whole file at once: outfile_open, one write of `len` bytes of data,
 * outfile_commit. 0, or -1 with "PATH: reason" added to d and errno
 * set. */
int outfile_write(const char *path, const void *data, size_t len, struct diag *d);
/* For a stream opened elsewhere (stdout): flushes it and says whether
 * everything written to it arrived. 0, or -1 with "NAME: reason" added to d. */
int outfile_check_stream(FILE *f, const char *name, struct diag *d);

#endif
