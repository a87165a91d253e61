/* terminfo.h - the terminfo entry the screens need, from the build when
 * the system lacks it.
 *
 * A static binary copied alone onto a board often finds no terminfo
 * database. The build embeds compiled entries for the usual serial and
 * emulator terminals (data/embedded.h, "terminfo/<d>/<name>" files): before
 * the screens start, and only when the installed database lacks $TERM, the
 * one entry for $TERM is written into a private directory (the first of
 * $TMPDIR, /tmp, /dev/shm, /run/user/UID that takes it), which the process
 * that made it removes when it exits. The screens' part of the embedded
 * data: it asks ncurses, so it lives above the core. */
#ifndef EVMBENCH_TERMINFO_H
#define EVMBENCH_TERMINFO_H

#include <stdbool.h>

#include "common/diag.h"

/* True when ncurses finds term's entry where it looks now (TERMINFO,
 * TERMINFO_DIRS, ~/.terminfo, the installed database). */
bool terminfo_found(const char *term);

/* True when the build embeds a compiled terminfo entry named term. */
bool embedded_has_terminfo(const char *term);

enum terminfo_setup {
    TERMINFO_INSTALLED,     /* ncurses finds term's entry: nothing was done */
    TERMINFO_EMBEDDED,      /* the built-in entry was written out and added to
                             * TERMINFO_DIRS (after the directories listed there) */
    TERMINFO_MISSING,       /* neither the system nor the program has the entry */
    TERMINFO_UNWRITABLE,    /* the program has it but no directory took it */
};

/* Before curses starts: makes term's terminfo entry findable when the
 * installed database lacks it and the build embeds it. The directory is
 * removed at exit by this process (not by forked children). With
 * TERMINFO_UNWRITABLE, d gets one message per directory tried, saying why
 * it failed; otherwise nothing is added. */
enum terminfo_setup embedded_terminfo_setup(const char *term, struct diag *d);

#endif
