/* stopsig.h - the signals that stop the program, caught so that it can
 * first stop what it started.
 *
 * The stop signals are those whose default action ends a process and that
 * a user, a terminal, a service manager, a shell script or a board farm
 * sends: SIGHUP, SIGINT, SIGQUIT, SIGPIPE, SIGALRM, SIGTERM, SIGUSR1,
 * SIGUSR2, and the rarer SIGXCPU, SIGVTALRM, SIGPROF, SIGIO, SIGPWR. (The
 * faults a bug raises, SIGSEGV and its kin, are not among them: a crash
 * stays a crash.)
 *
 * stopsig_install() gives each of them that is not ignored (nohup's
 * SIGHUP, a background job's SIGINT and SIGQUIT stay ignored) a handler
 * that only records the first one caught and makes stopsig_fd() readable.
 * The program polls that descriptor with whatever it waits for, and once
 * a signal was caught it stops its workers and their process groups,
 * removes its temporaries, keeps what finished, and ends with
 * stopsig_exit(). The program is single-threaded; a process forked from
 * it that has not reset its signals yet dies of one by the default action
 * and never touches the parent's record. */
#ifndef EVMBENCH_STOPSIG_H
#define EVMBENCH_STOPSIG_H

#include <stdbool.h>
#include <stddef.h>

/* The stop signals, *n of them (the list above). */
const int *stopsig_list(size_t *n);

/* Installs the handlers (once; a second call does nothing). False when the
 * descriptor could not be made (no pipe): the handlers are there all the
 * same, and stopsig_fd() is -1. */
bool stopsig_install(void);
/* Gives each signal back the action it had before stopsig_install() and
 * closes the descriptor; what was caught is forgotten. */
void stopsig_restore(void);

/* The first stop signal caught since stopsig_install(), 0 when none. */
int stopsig_caught(void);
/* "stopped by signal 15 (Terminated)": why a run it ended was cancelled
 * (the caller frees); for SIGPIPE "stopped: the reader of the output went
 * away (signal 13)". */
char *stopsig_reason(int sig);
/* Readable once a stop signal was caught (it stays readable); -1 when the
 * handlers are not installed. For poll() beside the caller's own. */
int stopsig_fd(void);

/* Ends the process by `sig` at its default action, so that its parent
 * sees it killed by that signal (a shell: status 128 + sig). A signal
 * whose default also dumps core (SIGQUIT, SIGXCPU) dumps none: what the
 * program held was cleaned up already. Stdio is flushed first. */
_Noreturn void stopsig_exit(int sig);

#endif
