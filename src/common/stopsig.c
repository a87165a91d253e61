/* stopsig.c - catching the signals that stop the program (stopsig.h). */
#include "config.h"
#include "common/stopsig.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "common/util.h"

static const int stop_signals[] = {
    SIGHUP, SIGINT, SIGQUIT, SIGPIPE, SIGALRM, SIGTERM, SIGUSR1, SIGUSR2,
    SIGXCPU, SIGVTALRM, SIGPROF, SIGIO, SIGPWR,
};

static volatile sig_atomic_t caught;
static pid_t owner;                 /* the process that installed them */
static int pipe_fds[2] = { -1, -1 };
static bool installed;
static bool was_set[ARRAY_SIZE(stop_signals)];
static struct sigaction old_actions[ARRAY_SIZE(stop_signals)];

const int *stopsig_list(size_t *n)
{
    *n = ARRAY_SIZE(stop_signals);
    return stop_signals;
}

/* Async-signal-safe: getpid, signal, raise and write only. */
static void on_stop_signal(int sig)
{
    int e = errno;
    if (getpid() != owner) {
        /* a fork that has not reset its signals: the default action, once
         * this handler returns (the signal is blocked until then) */
        signal(sig, SIG_DFL);
        raise(sig);
        errno = e;
        return;
    }
    if (!caught)
        caught = sig;
    if (pipe_fds[1] >= 0) {
        ssize_t w = write(pipe_fds[1], "", 1);
        (void)w;        /* full: readable already */
    }
    errno = e;
}

static void open_pipe(void)
{
    if (pipe(pipe_fds) != 0) {
        pipe_fds[0] = pipe_fds[1] = -1;
        return;
    }
    for (int i = 0; i < 2; i++) {
        fcntl(pipe_fds[i], F_SETFL, fcntl(pipe_fds[i], F_GETFL) | O_NONBLOCK);
        fcntl(pipe_fds[i], F_SETFD, FD_CLOEXEC);
    }
}

bool stopsig_install(void)
{
    if (installed)
        return pipe_fds[0] >= 0;
    installed = true;
    owner = getpid();
    caught = 0;
    open_pipe();
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sigfillset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;       /* poll() is interrupted all the same */
    for (size_t i = 0; i < ARRAY_SIZE(stop_signals); i++) {
        struct sigaction old;
        was_set[i] = false;
        if (sigaction(stop_signals[i], NULL, &old) != 0 ||
            (!(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_IGN))
            continue;               /* ignored: it stays so */
        was_set[i] = sigaction(stop_signals[i], &sa, &old_actions[i]) == 0;
    }
    return pipe_fds[0] >= 0;
}

void stopsig_restore(void)
{
    if (!installed)
        return;
    for (size_t i = 0; i < ARRAY_SIZE(stop_signals); i++)
        if (was_set[i])
            sigaction(stop_signals[i], &old_actions[i], NULL);
    for (int i = 0; i < 2; i++) {
        if (pipe_fds[i] >= 0)
            close(pipe_fds[i]);
        pipe_fds[i] = -1;
    }
    installed = false;
    caught = 0;
}

int stopsig_caught(void)
{
    return installed ? caught : 0;
}

char *stopsig_reason(int sig)
{
    /* no "Broken pipe": not a write error, the reader has gone */
    if (sig == SIGPIPE)
        return xasprintf("stopped: the reader of the output went away (signal %d)", sig);
    return xasprintf("stopped by signal %d (%s)", sig, strsignal(sig));
}

int stopsig_fd(void)
{
    return installed ? pipe_fds[0] : -1;
}

_Noreturn void stopsig_exit(int sig)
{
    fflush(NULL);
    if (sig == SIGQUIT || sig == SIGXCPU) {
        struct rlimit rl;
        if (getrlimit(RLIMIT_CORE, &rl) == 0) {
            rl.rlim_cur = 0;
            setrlimit(RLIMIT_CORE, &rl);
        }
    }
    signal(sig, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    raise(sig);
    /* a signal whose default is not to end the process (none of ours) */
    _exit(128 + sig);
}
