/* term.c - the terminal under the screens: set-up and restore (also on a
 * fatal error), the signals, the three windows and the colour themes. */
#include "config.h"
#include "screens/ui_impl.h"

#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "common/stopsig.h"
#include "data/datadir.h"
#include "data/embedded.h"
#include "screens/terminfo.h"
#include "common/util.h"

/* --- signals ------------------------------------------------------------ */

static int sig_pipe[2] = { -1, -1 };
static volatile sig_atomic_t sig_quit;      /* a stop signal (common/stopsig.h) */
static volatile sig_atomic_t sig_winch;
/* the stop signals, then SIGWINCH; what each had before */
#define SIG_SLOTS 32
static int sig_nums[SIG_SLOTS];
static bool sig_set[SIG_SLOTS];
static struct sigaction sig_old[SIG_SLOTS];
static size_t sig_count;

static void on_signal(int sig)
{
    int e = errno;
    if (sig == SIGWINCH)
        sig_winch = 1;
    else if (!sig_quit)
        sig_quit = sig;
    if (sig_pipe[1] >= 0) {
        char c = (char)sig;
        if (write(sig_pipe[1], &c, 1) < 0) {
            /* pipe full: the flag is set anyway */
        }
    }
    errno = e;
}

int signals_install(void)
{
    if (pipe(sig_pipe) < 0)
        return -1;
    for (int i = 0; i < 2; i++) {
        fcntl(sig_pipe[i], F_SETFL, fcntl(sig_pipe[i], F_GETFL) | O_NONBLOCK);
        fcntl(sig_pipe[i], F_SETFD, FD_CLOEXEC);
    }
    sig_quit = sig_winch = 0;
    size_t nstop;
    const int *stop = stopsig_list(&nstop);
    sig_count = 0;
    for (size_t i = 0; i < nstop && sig_count < SIG_SLOTS - 1; i++)
        sig_nums[sig_count++] = stop[i];
    sig_nums[sig_count++] = SIGWINCH;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sig_count; i++) {
        struct sigaction old;
        /* one ignored from the start (nohup) stays ignored */
        sig_set[i] = sigaction(sig_nums[i], NULL, &old) == 0 &&
                     ((old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_IGN) &&
                     sigaction(sig_nums[i], &sa, &sig_old[i]) == 0;
    }
    return 0;
}

void signals_restore(void)
{
    for (size_t i = 0; i < sig_count; i++)
        if (sig_set[i])
            sigaction(sig_nums[i], &sig_old[i], NULL);
    sig_count = 0;
    for (int i = 0; i < 2; i++) {
        if (sig_pipe[i] >= 0)
            close(sig_pipe[i]);
        sig_pipe[i] = -1;
    }
}

int signals_fd(void)
{
    return sig_pipe[0];
}

void signals_drain(void)
{
    char buf[64];
    while (read(sig_pipe[0], buf, sizeof buf) > 0)
        ;
}

int signals_quit(void)
{
    return sig_quit;
}

bool signals_take_winch(void)
{
    if (!sig_winch)
        return false;
    sig_winch = 0;
    return true;
}

/* --- fatal errors: restore the terminal before die() prints -------------- */

static struct ui *fatal_ui;
static pid_t fatal_pid;     /* a forked worker must not touch the terminal */

static void fatal_restore(void)
{
    struct ui *ui = fatal_ui;
    if (!ui || getpid() != fatal_pid)
        return;
    fatal_ui = NULL;
    if (job_batch(&ui->job))
        batch_cancel(job_batch(&ui->job));
    if (!isendwin())
        endwin();
}

/* --- windows -------------------------------------------------------------- */

static void free_windows(struct ui *ui)
{
    struct ui_frame *f = &ui->frame;
    WINDOW **w[] = { &f->top, &f->body, &f->bottom };
    for (size_t i = 0; i < ARRAY_SIZE(w); i++)
        if (*w[i]) {
            delwin(*w[i]);
            *w[i] = NULL;
        }
}

void term_layout(struct ui *ui)
{
    struct ui_frame *f = &ui->frame;
    free_windows(ui);
    f->too_small = COLS < MIN_COLS || LINES < MIN_ROWS;
    if (!f->too_small) {
        f->top = newwin(1, COLS, 0, 0);
        f->body = newwin(LINES - 2, COLS, 1, 0);
        f->bottom = newwin(1, COLS, LINES - 1, 0);
        if (!f->top || !f->body || !f->bottom) {
            free_windows(ui);
            f->too_small = true;
        } else {
            leaveok(f->top, TRUE);
            leaveok(f->body, TRUE);
            leaveok(f->bottom, TRUE);
        }
    }
    f->clear = true;
}

void term_resize(struct ui *ui)
{
    struct winsize ws;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row && ws.ws_col)
        resizeterm(ws.ws_row, ws.ws_col);
    term_layout(ui);
}

/* --- themes ------------------------------------------------------------------ */

static bool no_color_env(void)
{
    const char *nc = getenv("NO_COLOR");
    return nc && *nc;
}

void term_load_theme(struct ui *ui)
{
    struct theme t;
    struct diag dg;
    bool color = ui->term.color;
    const char *name = color ? ui->term.theme : "mono";
    diag_init(&dg);
    char *label = NULL;
    errno = 0;
    char *text = data_read_named("themes", name, ".theme", 1 << 20, NULL, &label);
    if (text) {
        theme_parse(&t, text, label, !color, &dg);
    } else {
        diag_add(&dg, "%s: cannot read: %s", label, file_strerror(errno ? errno : EIO));
        theme_builtin(&t, !color);
    }
    if (dg.n)
        ui_message(ui, ROLE_ERROR, "%s%s", dg.msgs[0],
                   dg.n > 1 ? " (and more)" : "");
    theme_apply(&t, color);
    diag_free(&dg);
    free(text);
    free(label);
    ui->frame.clear = true;
}

const char *ui_theme_name(const struct ui *ui)
{
    return ui->term.theme;
}

const char *ui_theme_mono_reason(const struct ui *ui)
{
    if (ui->term.color)
        return NULL;
    if (no_color_env())
        return "NO_COLOR is set";
    return has_colors() ? "the terminal has fewer than 8 colours"
                        : "the terminal shows no colours";
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names of the themes folder's *.theme files, sorted; 0 (said on the
 * bottom line) when there are none. */
static size_t theme_names(struct ui *ui, char ***out)
{
    struct data_dir dd;
    data_dir_default(&dd, "themes");
    char **names = NULL;
    ssize_t got = data_dir_list(&dd, ".theme", &names);
    size_t n = got > 0 ? (size_t)got : 0;
    for (size_t i = 0; i < n; i++)
        names[i][strlen(names[i]) - strlen(".theme")] = '\0';
    if (got < 0)
        ui_message(ui, ROLE_ERROR, "%s: cannot read: %s", dd.label, strerror(errno));
    else if (!got)
        ui_message(ui, ROLE_ERROR, "%s: no theme files (*.theme)", dd.label);
    data_dir_free(&dd);
    if (n)
        qsort(names, n, sizeof *names, cmp_names);
    *out = names;
    return n;
}

/* 't': the next theme of the themes folder, in name order. */
void ui_next_theme(struct ui *ui)
{
    if (!ui->term.color) {
        ui_message(ui, ROLE_NOTE, "theme: mono (%s)", ui_theme_mono_reason(ui));
        return;
    }
    char **names;
    size_t n = theme_names(ui, &names);
    if (!n)
        return;
    size_t next = 0;
    for (size_t i = 0; i < n; i++)
        if (strcmp(names[i], ui->term.theme) == 0)
            next = (i + 1) % n;
    snprintf(ui->term.theme, sizeof ui->term.theme, "%s", names[next]);
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    ui->line.msg[0] = '\0';
    term_load_theme(ui);
    if (!ui->line.msg[0])
        ui_message(ui, ROLE_NOTE, "theme: %s", ui->term.theme);
}

/* --- set-up ------------------------------------------------------------------ */

bool term_locale_utf8(void)
{
    const char *cs = nl_langinfo(CODESET);
    return cs && (strcasecmp(cs, "UTF-8") == 0 || strcasecmp(cs, "UTF8") == 0);
}

/* --- keys from any terminal ---------------------------------------------- */

/* How long (ms) a lone Esc byte waits for the rest of a key's sequence.
 * At 115200 baud (8N1, 87 us a byte) a whole 3-5 byte sequence is on the
 * line within 0.5 ms, so the line itself never splits one; what splits it
 * is what carries the bytes: a USB serial adapter sends what it received
 * when its latency timer expires (16 ms by default on FTDI chips), and
 * ser2net, telnet and ssh send packets with the network's jitter. 100 ms
 * is six such timers, and is still below what a person notices as a
 * delay after pressing Esc. The ESCDELAY environment variable (ncurses'
 * own) replaces it. */
#define ESC_DELAY_MS 100

/* The common forms of the cursor and editing keys, in both the normal
 * (ESC [) and the application (ESC O) cursor mode: a serial terminal may
 * send either whatever TERM says. */
static void define_extra_keys(void)
{
    static const struct {
        const char *seq;
        int key;
    } keys[] = {
        { "\033[A", KEY_UP },     { "\033[B", KEY_DOWN },
        { "\033[C", KEY_RIGHT },  { "\033[D", KEY_LEFT },
        { "\033OA", KEY_UP },     { "\033OB", KEY_DOWN },
        { "\033OC", KEY_RIGHT },  { "\033OD", KEY_LEFT },
        { "\033[5~", KEY_PPAGE }, { "\033[6~", KEY_NPAGE },
        { "\033[1~", KEY_HOME },  { "\033[4~", KEY_END },
        { "\033[H", KEY_HOME },   { "\033[F", KEY_END },
        { "\033OH", KEY_HOME },   { "\033OF", KEY_END },
        { "\033[7~", KEY_HOME },  { "\033[8~", KEY_END },
    };
    for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
        if (key_defined(keys[i].seq) == 0)
            define_key(keys[i].seq, keys[i].key);
}

/* The key of "ESC [ <params> ~" by its first parameter. */
static int tilde_key(int param)
{
    switch (param) {
    case 1: case 7: return KEY_HOME;
    case 4: case 8: return KEY_END;
    case 2: return KEY_IC;
    case 3: return KEY_DC;
    case 5: return KEY_PPAGE;
    case 6: return KEY_NPAGE;
    case 11: case 12: case 13: case 14: case 15: return KEY_F(param - 10);
    case 17: case 18: case 19: case 20: case 21: return KEY_F(param - 11);
    case 23: case 24: return KEY_F(param - 12);
    }
    return TERM_KEY_NONE;
}

/* The key of a final byte after ESC [ or ESC O (modifiers ignored). */
static int final_key(int c)
{
    switch (c) {
    case 'A': return KEY_UP;
    case 'B': return KEY_DOWN;
    case 'C': return KEY_RIGHT;
    case 'D': return KEY_LEFT;
    case 'H': return KEY_HOME;
    case 'F': return KEY_END;
    case 'Z': return KEY_BTAB;
    }
    return TERM_KEY_NONE;
}

int term_decode_escape(int (*next)(void *ctx, bool first), void *ctx, int *again)
{
    *again = TERM_KEY_NONE;
    int c = next(ctx, true);
    if (c < 0)
        return KEY_ESC;             /* nothing followed: the Esc key */
    if (c == 'O') {                 /* SS3: one final byte */
        int f = next(ctx, false);
        if (f >= 'P' && f <= 'S')
            return KEY_F(f - 'P' + 1);
        if (f == 'M')
            return KEY_ENTER;
        return f < 0 ? TERM_KEY_NONE : final_key(f);
    }
    if (c != '[') {                 /* Esc, then another key */
        *again = c;
        return KEY_ESC;
    }
    /* CSI: parameter bytes 0x30-0x3F, intermediates 0x20-0x2F, a final
     * byte 0x40-0x7E; anything else ends a broken sequence. */
    int param = 0, nparams = 0;
    for (int len = 0; len < 32; len++) {
        int b = next(ctx, false);
        if (b < 0)
            return TERM_KEY_NONE;   /* cut short: not an Esc either */
        if (b >= '0' && b <= '9') {
            if (nparams == 0 && param < 1000)
                param = param * 10 + (b - '0');
        } else if (b == ';' || b == ':') {
            nparams++;
        } else if (b >= 0x20 && b <= 0x3f) {
            continue;
        } else if (b >= 0x40 && b <= 0x7e) {
            return b == '~' ? tilde_key(param) : final_key(b);
        } else {
            return TERM_KEY_NONE;
        }
    }
    return TERM_KEY_NONE;
}

/* next() of term_decode_escape on the terminal: the first byte was
 * waited for by ncurses already (it holds the bytes of a sequence it did
 * not know); the later ones of a split sequence get the Esc delay. */
static int next_byte(void *ctx, bool first)
{
    (void)ctx;
    wtimeout(stdscr, first ? 0 : ESCDELAY);
    int c = wgetch(stdscr);
    nodelay(stdscr, TRUE);
    if (c > 0xff)
        ungetch(c);                 /* a whole key: the next one's */
    return c == ERR || c > 0xff ? -1 : c;
}

int term_read_escape(void)
{
    int again;
    int key = term_decode_escape(next_byte, NULL, &again);
    if (again != TERM_KEY_NONE)
        ungetch(again);
    return key;
}

/* newterm refused term: it has no terminfo entry here (or is unusable). */
static void no_terminal_message(const char *term, struct diag *d)
{
    /* suggest vt100 only when it is another terminal type that works here */
    bool vt100 = strcmp(term, "vt100") != 0 &&
                 (embedded_has_terminfo("vt100") || terminfo_found("vt100"));
    diag_add(d, "the screens need a terminfo entry for TERM=%s and none was "
                "found (TERMINFO, TERMINFO_DIRS, ~/.terminfo and the system database "
                "were searched); install it (Debian: ncurses-base, ncurses-term)%s, or use a "
                "subcommand ('evmbench list', 'evmbench run NAME') or --ui=line",
             term, vt100 ? " or try TERM=vt100" : "");
}

/* The program's own terminfo copy could be written nowhere: one message,
 * each reason in `why` on an indented line of its own, then the way out. */
static void unwritable_terminfo_message(const char *term, const struct diag *why,
                                        struct diag *d)
{
    struct strbuf sb;
    sb_init(&sb);
    sb_addf(&sb, "the screens need a terminfo entry for TERM=%s. This system has none, and "
                 "the program's own copy must be written to a directory for ncurses, but no "
                 "directory took it:", term);
    for (size_t i = 0; i < why->n; i++)
        for (const char *line = why->msgs[i], *nl; line; line = nl ? nl + 1 : NULL) {
            nl = strchr(line, '\n');
            sb_addf(&sb, "\n  %.*s", nl ? (int)(nl - line) : (int)strlen(line), line);
        }
    diag_add(d, "%s", sb.buf);
    sb_free(&sb);
    diag_add(d, "set TMPDIR to a writable directory, or use a subcommand "
                "('evmbench list', 'evmbench run NAME') or --ui=line");
}

/* newterm on TERM; false with the reason added to d. */
static bool open_terminal(struct ui *ui, struct diag *d)
{
    const char *term = getenv("TERM");
    if (!term || !*term) {
        diag_add(d, "TERM is not set; set it (e.g. TERM=vt100) or use --ui=line");
        return false;
    }
    /* a static binary on a board without a terminfo database */
    struct diag why;
    diag_init(&why);
    enum terminfo_setup ti = embedded_terminfo_setup(term, &why);
    if (ti == TERMINFO_UNWRITABLE)
        unwritable_terminfo_message(term, &why, d);
    diag_free(&why);
    if (ti == TERMINFO_UNWRITABLE)
        return false;
    ui->term.screen = newterm(NULL, stdout, stdin);
    if (!ui->term.screen) {
        no_terminal_message(term, d);
        return false;
    }
    set_term(ui->term.screen);
    /* A terminal that cannot move the cursor cannot show a screen. */
    const char *cup = tigetstr("cup");
    if (!cup || cup == (const char *)-1) {
        endwin();
        delscreen(ui->term.screen);
        ui->term.screen = NULL;
        diag_add(d, "terminal type '%s' cannot address the cursor; use --ui=line", term);
        return false;
    }
    return true;
}

bool term_start(struct ui *ui, struct diag *d)
{
    if (!open_terminal(ui, d))
        return false;
    fatal_ui = ui;
    fatal_pid = getpid();
    util_set_fatal_hook(fatal_restore);
    cbreak();
    noecho();
    nonl();
    intrflush(stdscr, FALSE);
    keypad(stdscr, TRUE);
    nodelay(stdscr, TRUE);
    leaveok(stdscr, TRUE);
    curs_set(0);
    const char *ed = getenv("ESCDELAY");
    if (!ed || !*ed)
        set_escdelay(ESC_DELAY_MS);
    define_extra_keys();
    bool color = !no_color_env() && has_colors();
    if (color && start_color() == ERR)
        color = false;
    if (color && COLORS < 8)
        color = false;
    ui->term.color = color;
    term_load_theme(ui);
    return true;
}

void term_stop(struct ui *ui)
{
    if (!ui->term.screen)
        return;
    free_windows(ui);
    /* Without an alternate screen the last frame would stay: clear it. */
    const char *rmcup = tigetstr("rmcup");
    if (!rmcup || rmcup == (const char *)-1) {
        werase(stdscr);
        wnoutrefresh(stdscr);
        doupdate();
    }
    curs_set(1);
    endwin();
    delscreen(ui->term.screen);
    ui->term.screen = NULL;
    util_set_fatal_hook(NULL);
    fatal_ui = NULL;
}
