/* main.c - evmbench entry point; everything else is in libevmbench. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "common/stopsig.h"

/* Opens /dev/null onto whichever of fds 0, 1 and 2 is closed, so that no
 * file the program opens later (the results store's run file) becomes its
 * stdout or stderr and collects the table or the progress lines. Returns
 * the CLI_*_CLOSED flags of those that were closed, or -1 when /dev/null
 * cannot be opened. */
static int open_standard_fds(void)
{
    int closed = 0;
    for (int fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
            continue;
        int nul = open("/dev/null", O_RDWR);
        if (nul < 0)
            return -1;
        if (nul != fd) {
            /* cannot happen while the lower ones are open; kept exact */
            if (dup2(nul, fd) < 0)
                return -1;
            close(nul);
        }
        closed |= fd == 1 ? CLI_STDOUT_CLOSED : fd == 2 ? CLI_STDERR_CLOSED : 0;
    }
    return closed;
}

int main(int argc, char **argv)
{
    int closed = open_standard_fds();
    if (closed < 0) {
        /* fd 2 may be the failing one: nothing better than trying */
        fprintf(stderr, "evmbench: /dev/null: %s (needed for a closed stdin, stdout or "
                "stderr)\n", strerror(errno));
        return EXIT_FAILURE;
    }
    /* A file-size limit makes a write fail with EFBIG, reported like a
     * full disk, instead of killing the program with what it measured. */
    signal(SIGXFSZ, SIG_IGN);
    /* A signal that stops the program stops its workers first, removes
     * their work directories and its temporaries and keeps what finished
     * (evmbench(1), SIGNALS); then the program dies of it. */
    stopsig_install();
    int rc = cli_main_std(argc, argv, stdout, stderr, (unsigned)closed);
    int sig = stopsig_caught();
    if (sig) {
        /* a reader that went away ends the program quietly, as it ends ls */
        if (sig != SIGPIPE) {
            char *why = stopsig_reason(sig);
            fprintf(stderr, "evmbench: %s\n", why);
            free(why);
        }
        stopsig_exit(sig);
    }
    return rc;
}
