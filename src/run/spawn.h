/* spawn.h - child processes: workers, external tools, and what they leave.
 *
 * Two users. The runner forks a worker that runs a kernel in-process:
 * spawn_fork() (own process group) then spawn_child_setup() in the child;
 * it kills the group with spawn_kill_group(). A tool kernel runs external
 * programs: spawn_run() forks, execs and captures one command under a time
 * and output limit; spawn_reap_all() ends whatever they leave behind.
 *
 * Every child starts with the signals that stop a program
 * (common/stopsig.h) and WINCH and CHLD at their default action and no
 * signal blocked, stdin on /dev/null unless told otherwise, and none of
 * the caller's descriptors but the ones it is given. The program is
 * single-threaded; none of this is meant for a process with threads. */
#ifndef EVMBENCH_SPAWN_H
#define EVMBENCH_SPAWN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* --- forking a child that runs our own code ----------------------------- */

#define SPAWN_NULL (-1)     /* the descriptor becomes /dev/null */
#define SPAWN_KEEP (-2)     /* the descriptor stays as inherited */

/* What a child's descriptors 0-3 become in spawn_child_setup(). */
struct spawn_child {
    int in, out, err;       /* a descriptor of the caller, SPAWN_NULL or SPAWN_KEEP */
    int channel;            /* becomes descriptor 3 (the report or exec-status
                             * pipe); -1: none */
    bool channel_cloexec;   /* descriptor 3 is closed by execve */
    bool die_with_parent;   /* SIGKILL when the parent dies (a pulled serial
                             * cable); _exit(1) at once if it is gone already */
};

/* fork() after flushing every stdio stream (nothing is written twice).
 * With `new_group` the child leads a process group of its own, set on
 * both sides so that the parent can kill the group as soon as this
 * returns. Returns 0 in the child, the child's pid in the parent, -1 when
 * no process could be created (errno says why). */
pid_t spawn_fork(bool new_group);

/* In the child, before running anything: the signals reset (see above),
 * then descriptors 0, 1, 2 and 3 set as `c` says (in that order) and every
 * other descriptor closed, so the descriptors named in `c` stay open under
 * their old numbers only if those are 0-3. c->channel is set to 3 once the
 * channel is there. Best effort: returns false when a step failed; a
 * channel that could not be moved keeps its number (c->channel) and only
 * the descriptors above it are closed. A child that is about to execve
 * should _exit(127) on false. */
bool spawn_child_setup(struct spawn_child *c);

/* SIGKILL to the process group `leader` leads and to `leader` itself (in
 * case it has not joined its group yet). It is not reaped. */
void spawn_kill_group(pid_t leader);

/* Waits, up to timeout_s, until no process of process group `pgrp` is
 * alive any more (zombies waiting for their parent do not count): a
 * process killed with SIGKILL may still be finishing a system call, and a
 * directory it wrote to is emptied only once it is gone. True when the
 * group is gone. */
bool spawn_group_gone(pid_t pgrp, double timeout_s);

/* waitpid() retried on EINTR; block = false: WNOHANG. Returns what
 * waitpid returns. */
pid_t spawn_wait(pid_t pid, int *wstatus, bool block);
/* spawn_wait, and *cpu_seconds: the CPU time (user + system) pid and the
 * children it waited for used, when it was reaped (else left as it is). */
pid_t spawn_wait_usage(pid_t pid, int *wstatus, bool block, double *cpu_seconds);

/* --- running an external command ---------------------------------------- */

#define SPAWN_OUTPUT_MAX (1024 * 1024)

struct spawn_cmd {
    char *const *argv;          /* argv[0] is the path to execute (no $PATH search) */
    char *const *env_add;       /* "NAME=value" added to the environment, or NULL */
    const char *cwd;            /* NULL: unchanged */
    double timeout_s;           /* <= 0: no limit */
    size_t max_output;          /* stdout + stderr together; 0: SPAWN_OUTPUT_MAX */
    bool unpin;                 /* let the command use every CPU */
};

struct spawn_result {
    char *out, *err, *all;      /* stdout, stderr, both as they were read
                                 * (each stream in order; what the two wrote
                                 * between two reads: stdout first); never
                                 * NULL, NUL-terminated */
    size_t nout, nerr, nall;
    int wstatus;                /* valid when `ran` and the command was not
                                 * killed at a limit */
    bool ran;                   /* the process was started and reaped */
    bool timed_out, overflow;   /* killed at the time / output limit */
    char *exec_error;           /* could not start it: no pipe, no fork,
                                 * execve's or chdir's reason */
    double seconds;             /* wall time from fork to reaping */
    double cpu_seconds;         /* user + system time of the command and
                                 * the children it waited for (wait4) */
};

/* Runs the command to its end (or its limit) and fills *res, which the
 * caller frees with spawn_result_free() whatever happened.
 *
 * The child is in the caller's process group (a runner that kills the
 * worker's group kills it too), stdin is /dev/null, stdout and stderr go
 * to pipes this function owns and closes, the environment is the caller's
 * with env_add on top, and no other descriptor of the caller is inherited.
 * The caller's descriptors and signal handlers are untouched.
 *
 * At the time limit or when the output passes max_output (what fits is
 * kept), the command and every process below it are stopped, killed and
 * reaped (timed_out / overflow). A command that exits normally may leave
 * a daemon holding the pipes: it is not waited for and not killed (see
 * spawn_reap_all()); its later output is lost. A command that closes its
 * outputs but keeps running is still held to the time limit. A signal that
 * interrupts the wait (EINTR) is retried; the caller cancels a run by
 * killing its own process group, which includes the command. */
void spawn_run(const struct spawn_cmd *cmd, struct spawn_result *res);
void spawn_result_free(struct spawn_result *res);

/* --- what the commands leave behind ------------------------------------- */

/* Makes the calling process the child subreaper (prctl), so the orphans of
 * the commands it runs (daemons, children of a killed command) become its
 * children, to be found, killed and reaped. Returns whether it was one
 * before, for spawn_subreaper_end(). */
bool spawn_subreaper_begin(void);
void spawn_subreaper_end(bool was);

/* Stops, kills (SIGKILL) and reaps every descendant of the calling process,
 * including those that fork while it runs; gives up after about two
 * seconds. Returns how many processes it killed. Only for a process whose
 * children are all its own commands (a worker), never one with other
 * children. */
int spawn_reap_all(void);

/* Processes descended from `root` now: up to `max` pids into out; returns
 * how many there are (which may be more than max). */
size_t spawn_descendants(pid_t root, pid_t *out, size_t max);

#endif
