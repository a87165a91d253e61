/* ui.c - terminal set-up and restore, the screen stack and the main loop.
 *
 * One loop: draw what is dirty (wnoutrefresh per window, one doupdate),
 * then sleep in poll() on the keyboard, the live run's pipe and a
 * self-pipe that the signal handlers write to. Live values are redrawn at
 * most updates_per_s times a second; curses sends only what changed. */
#include "config.h"
#define EVMBENCH_UI_PRIVATE 1
#include "screens/ui.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <locale.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "data/datadir.h"
#include "screens/terminfo.h"
#include "data/profile.h"
#include "store/store.h"
#include "common/util.h"

#define MIN_COLS 80
#define MIN_ROWS 24
#define MAX_DEPTH 8
#define KEY_ESC 27
#define CTRL_KEY(c) ((c) & 0x1f)
#define DEMO_RESULT_S 4.0   /* the demo shows each result this long */
#define DEMO_COMPARE_S 6.0  /* and then its comparison */

enum demo_phase { DEMO_OFF, DEMO_RUN, DEMO_RESULT, DEMO_COMPARE };

struct demo {
    enum demo_phase phase;
    struct profile profile;
    size_t next;                /* the profile's bench to run next */
    double until;               /* when the phase ends */
    bool quick_before;          /* the budget to restore when it stops */
};

struct ui {
    struct app *app;
    const struct ui_options *opt;
    SCREEN *term;
    WINDOW *top, *body, *bottom;    /* NULL while the terminal is too small */
    bool utf8, color, too_small;
    bool dirty_top, dirty_body, dirty_bottom;
    bool full;                      /* the body is drawn anew */
    bool clear;                     /* repaint the terminal (Ctrl-L, resize) */
    struct screen stack[MAX_DEPTH];
    int depth, pops;
    char msg[256];
    enum role msg_role;
    struct batch *batch;        /* the live job, NULL when none */
    struct cpu_watch watch;     /* around a job with CPU-bound kernels */
    bool live_pending, run_ended;
    double live_interval, live_last;
    bool quit;
    int exit_code;
    struct session session;     /* what finished runs measured */
    struct store_writer *store; /* this session's run file, opened by the first run */
    bool store_failed;          /* said once, not tried again */
    struct settings own_settings, *settings;
    char theme[128];            /* the theme in use */
    bool board_picked;          /* the board picker chose the reference */
    bool searching;             /* '/' typed: keys go to the query */
    char query[64];
    bool search_miss;           /* nothing matches the query */
    struct demo demo;
    struct bench_pref {         /* the category screen's provider choices */
        const struct cat_bench *bench;
        enum provider_pref pref;
    } *prefs;
    size_t nprefs, cap_prefs;
    const struct cat_bench **job_benches;   /* of a category batch, by group */
    json_t *baseline;           /* rows the results screen compares with */
    char baseline_name[128];
    bool prompting;             /* a line of text is typed (ui_prompt) */
    char prompt_label[64], prompt_text[64];
    void (*prompt_done)(struct ui *ui, const char *text);
};

/* --- signals ------------------------------------------------------------ */

static int sig_pipe[2] = { -1, -1 };
static volatile sig_atomic_t sig_quit;      /* SIGINT, SIGTERM, SIGHUP */
static volatile sig_atomic_t sig_winch;
static struct sigaction old_int, old_term, old_hup, old_winch;

static void on_signal(int sig)
{
    int e = errno;
    if (sig == SIGWINCH)
        sig_winch = 1;
    else
        sig_quit = sig;
    if (sig_pipe[1] >= 0) {
        char c = (char)sig;
        if (write(sig_pipe[1], &c, 1) < 0) {
            /* pipe full: the flag is set anyway */
        }
    }
    errno = e;
}

static int signals_install(void)
{
    if (pipe(sig_pipe) < 0)
        return -1;
    for (int i = 0; i < 2; i++) {
        fcntl(sig_pipe[i], F_SETFL, fcntl(sig_pipe[i], F_GETFL) | O_NONBLOCK);
        fcntl(sig_pipe[i], F_SETFD, FD_CLOEXEC);
    }
    sig_quit = sig_winch = 0;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    sigaction(SIGHUP, &sa, &old_hup);
    sigaction(SIGWINCH, &sa, &old_winch);
    return 0;
}

static void signals_restore(void)
{
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    sigaction(SIGHUP, &old_hup, NULL);
    sigaction(SIGWINCH, &old_winch, NULL);
    for (int i = 0; i < 2; i++) {
        if (sig_pipe[i] >= 0)
            close(sig_pipe[i]);
        sig_pipe[i] = -1;
    }
}

static void drain_sig_pipe(void)
{
    char buf[64];
    while (read(sig_pipe[0], buf, sizeof buf) > 0)
        ;
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
    if (ui->batch)
        batch_cancel(ui->batch);
    if (!isendwin())
        endwin();
}

/* --- accessors for the screens ------------------------------------------ */

struct app *ui_app(const struct ui *ui)
{
    return ui->app;
}

bool ui_utf8(const struct ui *ui)
{
    return ui->utf8;
}

int ui_body_rows(const struct ui *ui)
{
    return ui->body ? getmaxy(ui->body) : 0;
}

void ui_dirty(struct ui *ui)
{
    ui->dirty_body = true;
}

void ui_message(struct ui *ui, enum role r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ui->msg, sizeof ui->msg, fmt, ap);
    va_end(ap);
    ui->msg_role = r;
    ui->dirty_bottom = true;
}

static struct screen *top_screen(struct ui *ui)
{
    return ui->depth ? &ui->stack[ui->depth - 1] : NULL;
}

const struct screen *ui_below(const struct ui *ui, const struct screen *s)
{
    for (int i = 1; i < ui->depth; i++)
        if (&ui->stack[i] == s)
            return &ui->stack[i - 1];
    return NULL;
}

void ui_push(struct ui *ui, const struct screen_ops *ops, const struct screen_arg *arg)
{
    static const struct screen_arg none;
    if (ui->depth == MAX_DEPTH) {
        ui_message(ui, ROLE_ERROR, "too many screens open");
        return;
    }
    struct screen *s = &ui->stack[ui->depth++];
    s->ops = ops;
    s->ui = ui;
    s->priv = NULL;
    if (ops->enter)
        ops->enter(s, arg ? arg : &none);
    ui->full = ui->dirty_body = ui->dirty_bottom = true;
}

void ui_pop(struct ui *ui)
{
    ui->pops++;
}

static void pop_now(struct ui *ui)
{
    struct screen *s = top_screen(ui);
    if (!s)
        return;
    if (s->ops->leave)
        s->ops->leave(s);
    s->priv = NULL;
    ui->depth--;
    ui->full = ui->dirty_body = ui->dirty_bottom = true;
}

/* --- the live run --------------------------------------------------------- */

static void sink_event(void *ctx, const struct run *run)
{
    struct ui *ui = ctx;
    (void)run;
    ui->live_pending = true;
}

static void sink_sample(void *ctx, const struct run *run, size_t m, double v)
{
    (void)m;
    (void)v;
    sink_event(ctx, run);
}

static void sink_note(void *ctx, const struct run *run, const char *text)
{
    (void)text;
    sink_event(ctx, run);
}

/* Appends a finished run's rows to the results store at once: a pulled
 * serial cable (SIGHUP) loses nothing that finished. */
static void store_run(struct ui *ui, const struct run *run)
{
    if (!ui->opt->results_dir || ui->store_failed)
        return;
    char err[512];
    if (!ui->store) {
        struct app *a = ui->app;
        json_t *h = json_pack("{ss ss}", "version", PACKAGE_VERSION, "mode", "tui");
        json_object_set_new(h, "board", a->ref_board ? json_string(a->ref_board) : json_null());
        json_object_set_new(h, "board_name", a->board.name ? json_string(a->board.name)
                                                          : json_null());
        json_object_set_new(h, "quick", json_boolean(a->run_opts.params.quick));
        ui->store = store_begin(ui->opt->results_dir, a->ref_board ? a->ref_board
                                : a->board.name, h, err, sizeof err);
        json_decref(h);
        if (!ui->store) {
            ui->store_failed = true;
            ui_message(ui, ROLE_WARN, "results not saved: %s", err);
            return;
        }
    }
    for (size_t m = 0; m < run->nmetrics; m++) {
        struct result_row row;
        result_row_make(&row, run, m, &ui->app->cmp);
        if (!row.samples && row.status == STATUS_OK)
            continue;
        json_t *j = result_row_json(&row);
        if (store_append(ui->store, j, err, sizeof err) != 0 && !ui->store_failed) {
            ui->store_failed = true;
            ui_message(ui, ROLE_WARN, "results not saved: %s", err);
        }
        json_decref(j);
    }
}

static void sink_done(void *ctx, const struct run *run)
{
    struct ui *ui = ctx;
    store_run(ui, run);
    ui->run_ended = true;
    ui->live_pending = true;
    ui->dirty_bottom = true;        /* the hints change */
}

static const struct sink ui_sink = {
    .on_start = sink_event,
    .on_sample = sink_sample,
    .on_progress = sink_event,
    .on_note = sink_note,
    .on_done = sink_done,
};

struct batch *ui_batch(const struct ui *ui)
{
    return ui->batch;
}

struct run *ui_run(const struct ui *ui)
{
    return ui->batch ? batch_run(ui->batch) : NULL;
}

void ui_run_cancel(struct ui *ui)
{
    if (ui->batch)
        batch_cancel(ui->batch);
    ui->dirty_body = true;
}

void ui_run_close(struct ui *ui)
{
    if (!ui->batch)
        return;
    session_keep(&ui->session, ui->batch);
    ui->batch = NULL;
    ui->dirty_body = true;
}

size_t ui_results(const struct ui *ui, bool problems_only, struct session_row **out)
{
    return session_rows(&ui->session, ui->batch, &ui->app->cmp, problems_only, out);
}

void ui_set_board(struct ui *ui, const char *key)
{
    app_set_ref_board(ui->app, key);
    ui->board_picked = true;
    ui->dirty_top = ui->dirty_body = true;
}

struct settings *ui_settings(struct ui *ui)
{
    return ui->settings;
}

const char *ui_theme_name(const struct ui *ui)
{
    return ui->theme;
}

static bool no_color_env(void);

const char *ui_theme_mono_reason(const struct ui *ui)
{
    if (ui->color)
        return NULL;
    if (no_color_env())
        return "NO_COLOR is set";
    return has_colors() ? "the terminal has fewer than 8 colours"
                        : "the terminal shows no colours";
}

double ui_updates_per_s(const struct ui *ui)
{
    return 1.0 / ui->live_interval;
}

bool ui_text_matches(const char *text, const char *q)
{
    size_t n = strlen(q);
    if (!n)
        return true;
    for (const char *t = text; t && *t; t++)
        if (strncasecmp(t, q, n) == 0)
            return true;
    return false;
}

/* --- baselines ----------------------------------------------------------- */

const char *ui_results_dir(const struct ui *ui)
{
    return ui->opt->results_dir;
}

bool ui_set_baseline(struct ui *ui, const char *name)
{
    json_decref(ui->baseline);
    ui->baseline = NULL;
    ui->baseline_name[0] = '\0';
    ui->dirty_body = true;
    if (!name)
        return true;
    if (!ui->opt->results_dir) {
        ui_message(ui, ROLE_ERROR, "no results store (--no-save, or no XDG_DATA_HOME/HOME)");
        return false;
    }
    struct diag d;
    diag_init(&d);
    ui->baseline = store_load_baseline(ui->opt->results_dir, name, &d);
    if (ui->baseline)
        snprintf(ui->baseline_name, sizeof ui->baseline_name, "%s", name);
    else
        ui_message(ui, ROLE_ERROR, "%s", d.n ? d.msgs[0] : "cannot load the baseline");
    diag_free(&d);
    return ui->baseline != NULL;
}

json_t *ui_baseline(const struct ui *ui, const char **name)
{
    if (name)
        *name = ui->baseline_name;
    return ui->baseline;
}

bool ui_save_baseline(struct ui *ui, const char *name)
{
    if (!ui->opt->results_dir) {
        ui_message(ui, ROLE_ERROR, "no results store (--no-save, or no XDG_DATA_HOME/HOME)");
        return false;
    }
    struct session_row *rs;
    size_t n = ui_results(ui, false, &rs);
    if (!n) {
        free(rs);
        ui_message(ui, ROLE_NOTE, "nothing measured yet to save as a baseline");
        return false;
    }
    json_t *rows = session_rows_json(rs, n);
    free(rs);
    char err[512];
    int rc = store_save_baseline(ui->opt->results_dir, name,
                                 ui->store ? store_writer_id(ui->store) : NULL, rows,
                                 err, sizeof err);
    json_decref(rows);
    if (rc != 0) {
        ui_message(ui, ROLE_ERROR, "%s", err);
        return false;
    }
    ui_message(ui, ROLE_NOTE, "saved %zu metric%s as baseline '%s'", n, n == 1 ? "" : "s",
               name);
    return true;
}

void ui_prompt(struct ui *ui, const char *label, void (*done)(struct ui *ui, const char *text))
{
    ui->prompting = true;
    snprintf(ui->prompt_label, sizeof ui->prompt_label, "%s", label);
    ui->prompt_text[0] = '\0';
    ui->prompt_done = done;
    ui->dirty_bottom = true;
}

/* A key while ui_prompt collects a line. */
static void prompt_key(struct ui *ui, int key)
{
    size_t len = strlen(ui->prompt_text);
    ui->dirty_bottom = true;
    if (key == '\n' || key == '\r' || key == KEY_ENTER) {
        ui->prompting = false;
        if (len && ui->prompt_done)
            ui->prompt_done(ui, ui->prompt_text);
    } else if (key == KEY_ESC || key == CTRL_KEY('G')) {
        ui->prompting = false;
    } else if (key == KEY_BACKSPACE || key == 127 || key == CTRL_KEY('H')) {
        if (len)
            ui->prompt_text[len - 1] = '\0';
    } else if (key >= 32 && key < 127 && len + 1 < sizeof ui->prompt_text) {
        ui->prompt_text[len] = (char)key;
        ui->prompt_text[len + 1] = '\0';
    }
}

/* --- provider per benchmark ---------------------------------------------- */

static struct bench_pref *find_pref(const struct ui *ui, const struct cat_bench *b)
{
    for (size_t i = 0; i < ui->nprefs; i++)
        if (ui->prefs[i].bench == b)
            return &ui->prefs[i];
    return NULL;
}

enum provider_pref ui_bench_provider(const struct ui *ui, const struct cat_bench *b,
                                     bool *chosen)
{
    const struct bench_pref *p = find_pref(ui, b);
    if (chosen)
        *chosen = p != NULL;
    return p ? p->pref : ui->app->provider;
}

size_t ui_bench_kernels(const struct ui *ui, const struct cat_bench *b,
                        const struct kernel **out)
{
    return cat_bench_runnable(b, ui->app->extras, ui_bench_provider(ui, b, NULL),
                              app_kernel_available, out);
}

bool ui_bench_has_choice(const struct ui *ui, const struct cat_bench *b)
{
    bool kernel = false, tool = false;
    for (size_t i = 0; i < b->nkernels; i++) {
        const struct kernel *k = b->kernels[i];
        if (k->extra && !ui->app->extras)
            continue;
        if (k->provider && strcmp(k->provider, "tool") == 0)
            tool |= app_kernel_available(k);
        else
            kernel = true;
    }
    return kernel && tool;
}

bool ui_bench_provider_next(struct ui *ui, const struct cat_bench *b)
{
    if (!ui_bench_has_choice(ui, b))
        return false;
    struct bench_pref *p = find_pref(ui, b);
    if (!p) {
        xgrow(&ui->prefs, &ui->cap_prefs, ui->nprefs + 1, sizeof *ui->prefs);
        p = &ui->prefs[ui->nprefs++];
        p->bench = b;
        p->pref = PROVIDER_KERNEL;
    } else if (p->pref == PROVIDER_KERNEL) {
        p->pref = PROVIDER_TOOL;
    } else {
        *p = ui->prefs[--ui->nprefs];   /* back to the settings' preference */
    }
    return true;
}

/* Starts kernels ks (group[i]: their benchmark, NULL for one) as the job. */
static bool start_job(struct ui *ui, const struct kernel **ks, size_t n,
                      const size_t *group, size_t ngroups, const char *what)
{
    ui->run_ended = false;
    ui->live_pending = true;
    ui->live_last = 0;
    /* CPU-bound kernels: warn first and compare at the measured clock */
    app_cpu_watch_free(&ui->watch);
    app_cpu_watch_begin(ui->app, ks, n, &ui->watch);
    if (ui->watch.warnings.count)
        ui_message(ui, ROLE_WARN, "warning: %s%s", ui->watch.warnings.items[0].text,
                   ui->watch.warnings.count > 1 ? " (more on the system screen: s)" : "");
    ui->batch = batch_start(ks, n, &ui->app->run_opts, &ui_sink, ui);
    if (group)
        batch_set_groups(ui->batch, group, ngroups);
    if (!batch_run(ui->batch)) {
        ui_message(ui, ROLE_ERROR, "cannot start %s: %s", what,
                   ui->batch->start_errors[0] ? ui->batch->start_errors[0] : "unknown error");
        ui_run_close(ui);
        return false;
    }
    ui->dirty_body = true;
    return true;
}

bool ui_run_start(struct ui *ui, const struct cat_bench *b, const struct kernel *k)
{
    ui_run_close(ui);
    if (!b || !b->nkernels) {
        ui_message(ui, ROLE_ERROR, "%s: reference only, nothing here can run it",
                   b ? b->title : "?");
        return false;
    }
    const struct kernel **ks = xcalloc(b->nkernels, sizeof *ks);
    size_t n = 1;
    if (k)
        ks[0] = k;
    else
        n = ui_bench_kernels(ui, b, ks);
    if (!n) {
        free(ks);
        ui_message(ui, ROLE_ERROR, "%s: no kernel or tool of it can run here", b->title);
        return false;
    }
    bool ok = start_job(ui, ks, n, NULL, 0, ks[0]->name);
    free(ks);
    return ok;
}

bool ui_run_start_category(struct ui *ui, const struct cat_category *c)
{
    ui_run_close(ui);
    size_t total = 0, n = 0, nb = 0;
    for (size_t i = 0; c && i < c->nbenches; i++)
        total += c->benches[i]->nkernels;
    const struct kernel **ks = xcalloc(total ? total : 1, sizeof *ks);
    size_t *group = xcalloc(total ? total : 1, sizeof *group);
    free(ui->job_benches);
    ui->job_benches = xcalloc(c && c->nbenches ? c->nbenches : 1, sizeof *ui->job_benches);
    for (size_t i = 0; c && i < c->nbenches; i++) {
        size_t got = ui_bench_kernels(ui, c->benches[i], ks + n);
        for (size_t k = 0; k < got; k++)
            group[n + k] = nb;
        n += got;
        if (got)
            ui->job_benches[nb++] = c->benches[i];
    }
    bool ok = false;
    if (!n)
        ui_message(ui, ROLE_ERROR, "%s: nothing in it can run here", c ? c->title : "?");
    else
        ok = start_job(ui, ks, n, group, nb, c->title);
    free(ks);
    free(group);
    return ok;
}

const struct cat_bench *ui_batch_bench(const struct ui *ui)
{
    const struct batch *b = ui->batch;
    if (!b || !b->group || !ui->job_benches)
        return NULL;
    size_t g = batch_group_now(b);
    return g < b->ngroups ? ui->job_benches[g] : NULL;
}

/* --- layout and drawing ---------------------------------------------------- */

static void free_windows(struct ui *ui)
{
    WINDOW **w[] = { &ui->top, &ui->body, &ui->bottom };
    for (size_t i = 0; i < ARRAY_SIZE(w); i++)
        if (*w[i]) {
            delwin(*w[i]);
            *w[i] = NULL;
        }
}

/* (Re)creates the three windows for the current size. */
static void layout(struct ui *ui)
{
    free_windows(ui);
    ui->too_small = COLS < MIN_COLS || LINES < MIN_ROWS;
    if (!ui->too_small) {
        ui->top = newwin(1, COLS, 0, 0);
        ui->body = newwin(LINES - 2, COLS, 1, 0);
        ui->bottom = newwin(1, COLS, LINES - 1, 0);
        if (!ui->top || !ui->body || !ui->bottom) {
            free_windows(ui);
            ui->too_small = true;
        } else {
            leaveok(ui->top, TRUE);
            leaveok(ui->body, TRUE);
            leaveok(ui->bottom, TRUE);
        }
    }
    ui->clear = true;
}

static const char *board_how(const struct ui *ui)
{
    const struct app *a = ui->app;
    if (ui->board_picked)
        return "(picked)";
    switch (a->board.kind) {
    case BOARD_KNOWN: return "(detected)";
    case BOARD_OVERRIDE: return "(--board)";
    case BOARD_TI_UNKNOWN: return "(unknown TI board)";
    case BOARD_OTHER_DT: return "(not a TI board)";
    case BOARD_NO_DT: return "(no device tree)";
    }
    return "?";
}

static void draw_top(struct ui *ui)
{
    const struct app *a = ui->app;
    char board[128], refs[64], line[512];
    const char *key = a->ref_board;
    const char *name = key ? board_key_name(key) : NULL;
    if (!name && key && a->refdb) {
        const struct ref_board *rb = refdb_board(a->refdb, key);
        name = rb ? rb->name : NULL;
    }
    if (key)
        snprintf(board, sizeof board, "%s [%s] %s", name ? name : key, key,
                 board_how(ui));
    else
        snprintf(board, sizeof board, "%s %s", a->board.name ? a->board.name : "none",
                 board_how(ui));
    size_t nsrc = a->refdb ? a->refdb->nsources : 0;
    if (a->diag.n)
        snprintf(refs, sizeof refs, "refs: %zu guide%s, %zu problem%s", nsrc,
                 nsrc == 1 ? "" : "s", a->diag.n, a->diag.n == 1 ? "" : "s");
    else
        snprintf(refs, sizeof refs, "refs: %zu guide%s", nsrc, nsrc == 1 ? "" : "s");
    snprintf(line, sizeof line, " evmbench %s | board: %s | %s", PACKAGE_VERSION,
             board, refs);
    werase(ui->top);
    wbkgdset(ui->top, ' ' | theme_attr(ROLE_TITLE));
    widget_text(ui->top, 0, 0, getmaxx(ui->top), ROLE_TITLE, line, ui->utf8);
}

static void draw_bottom(struct ui *ui)
{
    struct screen *s = top_screen(ui);
    werase(ui->bottom);
    if (ui->prompting) {
        char line[160];
        snprintf(line, sizeof line, "%s%s_   (Enter saves, Esc cancels)", ui->prompt_label,
                 ui->prompt_text);
        widget_text(ui->bottom, 0, 0, getmaxx(ui->bottom) - 1, ROLE_KEY, line, false);
    } else if (ui->searching) {
        char line[128];
        snprintf(line, sizeof line, "/%s_   %s(Enter keeps, Esc cancels)", ui->query,
                 ui->search_miss ? "not found " : "");
        widget_text(ui->bottom, 0, 0, getmaxx(ui->bottom) - 1, ROLE_KEY, line, false);
    } else if (ui->msg[0])
        widget_text(ui->bottom, 0, 0, getmaxx(ui->bottom) - 1, ui->msg_role, ui->msg,
                    ui->utf8);
    else if (s)
        widget_hints(ui->bottom, 0, s->ops->hints_now ? s->ops->hints_now(s)
                                                      : s->ops->hints, s->ops->keys);
}

static void draw_too_small(void)
{
    char l1[64], l2[64];
    snprintf(l1, sizeof l1, "Terminal too small: %dx%d", COLS, LINES);
    snprintf(l2, sizeof l2, "evmbench needs at least %dx%d.", MIN_COLS, MIN_ROWS);
    const char *lines[] = { l1, l2, "Enlarge the window, or press q to quit." };
    werase(stdscr);
    widget_centered(stdscr, lines, ARRAY_SIZE(lines), ROLE_NORMAL);
    wnoutrefresh(stdscr);
}

static void draw(struct ui *ui)
{
    /* stdscr lies beneath the windows; after a resize it is blank and
     * touched, and input is read through it: copy it first, then every
     * window over it. */
    if (is_wintouched(stdscr) && !ui->too_small) {
        wnoutrefresh(stdscr);
        ui->clear = true;
    }
    if (ui->clear) {
        clearok(curscr, TRUE);
        ui->full = true;
    }
    if (ui->full)
        ui->dirty_top = ui->dirty_body = ui->dirty_bottom = true;
    if (ui->too_small) {
        if (ui->full || ui->dirty_body || ui->dirty_top || ui->dirty_bottom)
            draw_too_small();
    } else {
        if (ui->dirty_top) {
            draw_top(ui);
            wnoutrefresh(ui->top);
        }
        struct screen *s = top_screen(ui);
        if (ui->dirty_body && s) {
            werase(ui->body);
            s->ops->draw(s, ui->body, ui->full);
            wnoutrefresh(ui->body);
        }
        if (ui->dirty_bottom) {
            draw_bottom(ui);
            wnoutrefresh(ui->bottom);
        }
    }
    doupdate();
    ui->clear = ui->full = ui->dirty_top = ui->dirty_body = ui->dirty_bottom = false;
}

/* --- input ------------------------------------------------------------------ */

static void resize(struct ui *ui)
{
    struct winsize ws;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row && ws.ws_col)
        resizeterm(ws.ws_row, ws.ws_col);
    layout(ui);
}

static void dispatch(struct ui *ui, enum action a)
{
    struct screen *s = top_screen(ui);
    if (s && s->ops->on_action)
        a = s->ops->on_action(s, a);
    switch (a) {
    case ACT_BACK:
        ui_pop(ui);
        break;
    case ACT_HELP:
        if (s && s->ops != &screen_help)
            ui_push(ui, &screen_help, NULL);
        break;
    case ACT_SYSTEM:
        if (s && s->ops != &screen_system)
            ui_push(ui, &screen_system, NULL);
        break;
    case ACT_RESULTS:
        if (s && s->ops != &screen_results)
            ui_push(ui, &screen_results, NULL);
        break;
    case ACT_COMPARE:
        if (s && s->ops != &screen_compare)
            ui_push(ui, &screen_compare, NULL);
        break;
    case ACT_BOARD:
        if (s && s->ops != &screen_boards)
            ui_push(ui, &screen_boards, NULL);
        break;
    case ACT_SETTINGS:
        if (s && s->ops != &screen_settings)
            ui_push(ui, &screen_settings, NULL);
        break;
    case ACT_THEME:
        ui_next_theme(ui);
        break;
    case ACT_SEARCH:
        if (s && s->ops->search) {
            ui->searching = true;
            ui->query[0] = '\0';
            ui->dirty_bottom = true;
        } else {
            ui_message(ui, ROLE_NOTE, "no list to search here");
        }
        break;
    case ACT_NEXT:
    case ACT_PREV:
        if (s && s->ops->search && ui->query[0]) {
            if (s->ops->search(s, ui->query, true))
                ui->dirty_body = true;
            else
                ui_message(ui, ROLE_NOTE, "no more matches for '%s'", ui->query);
        }
        break;
    case ACT_REDRAW:
        ui->clear = true;
        break;
    default:
        break;
    }
    while (ui->pops > 0) {
        ui->pops--;
        pop_now(ui);
    }
    if (!ui->depth)
        ui->quit = true;
}

/* A key while '/' collects the query: the list follows each change. */
static void search_key(struct ui *ui, int key)
{
    struct screen *s = top_screen(ui);
    size_t len = strlen(ui->query);
    ui->dirty_bottom = true;
    if (key == '\n' || key == '\r' || key == KEY_ENTER) {
        ui->searching = false;
        return;
    }
    if (key == KEY_ESC || key == CTRL_KEY('G')) {
        ui->searching = false;
        ui->query[0] = '\0';
        return;
    }
    if (key == KEY_BACKSPACE || key == 127 || key == CTRL_KEY('H')) {
        if (len)
            ui->query[len - 1] = '\0';
    } else if (key >= 32 && key < 127 && len + 1 < sizeof ui->query) {
        ui->query[len] = (char)key;
        ui->query[len + 1] = '\0';
    } else {
        return;
    }
    if (!s || !s->ops->search)
        return;
    ui->search_miss = !s->ops->search(s, ui->query, false);
    ui->dirty_body = true;
}

static void demo_stop(struct ui *ui);

static void handle_key(struct ui *ui, int key)
{
    if (key == KEY_RESIZE) {
        layout(ui);
        return;
    }
    if (ui->demo.phase != DEMO_OFF && !ui->too_small) {
        demo_stop(ui);      /* any key ends the demo; the screens stay */
        return;
    }
    if (ui->prompting && !ui->too_small) {
        prompt_key(ui, key);
        return;
    }
    if (ui->searching && !ui->too_small) {
        search_key(ui, key);
        return;
    }
    if (ui->msg[0]) {
        ui->msg[0] = '\0';
        ui->dirty_bottom = true;
    }
    if (ui->too_small) {
        /* Only quitting and redrawing make sense on the message. */
        if (key == 'q' || key == KEY_ESC)
            ui->quit = true;
        else if (key == CTRL_KEY('L'))
            ui->clear = true;
        return;
    }
    struct screen *s = top_screen(ui);
    enum action a = action_for_key(s ? s->ops->keys : NULL, key);
    if (a != ACT_NONE)
        dispatch(ui, a);
}

static void read_keys(struct ui *ui)
{
    int key;
    while (!ui->quit && (key = wgetch(stdscr)) != ERR)
        handle_key(ui, key);
}

/* --- set-up ------------------------------------------------------------------ */

static bool locale_is_utf8(void)
{
    const char *cs = nl_langinfo(CODESET);
    return cs && (strcasecmp(cs, "UTF-8") == 0 || strcasecmp(cs, "UTF8") == 0);
}

static bool no_color_env(void)
{
    const char *nc = getenv("NO_COLOR");
    return nc && *nc;
}

/* Theme ui->theme by name ("default", "mono") or path; a monochrome
 * terminal always gets mono. A bad file falls back to the built-in theme
 * and says where it is bad. */
static void load_theme(struct ui *ui)
{
    struct theme t;
    struct diag dg;
    const char *name = ui->color ? ui->theme : "mono";
    diag_init(&dg);
    char *label = NULL;
    errno = 0;
    char *text = data_read_named("themes", name, ".theme", 1 << 20, NULL, &label);
    if (text) {
        theme_parse(&t, text, label, !ui->color, &dg);
    } else {
        diag_add(&dg, "%s: cannot read: %s", label, file_strerror(errno ? errno : EIO));
        theme_builtin(&t, !ui->color);
    }
    if (dg.n)
        ui_message(ui, ROLE_ERROR, "%s%s", dg.msgs[0],
                   dg.n > 1 ? " (and more)" : "");
    theme_apply(&t, ui->color);
    diag_free(&dg);
    free(text);
    free(label);
    ui->clear = true;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* 't': the next theme of the themes folder, in name order. */
void ui_next_theme(struct ui *ui)
{
    if (!ui->color) {
        ui_message(ui, ROLE_NOTE, "theme: mono (%s)", ui_theme_mono_reason(ui));
        return;
    }
    struct data_dir dd;
    data_dir_default(&dd, "themes");
    char **names = NULL;
    ssize_t got = data_dir_list(&dd, ".theme", &names);
    size_t n = got > 0 ? (size_t)got : 0;
    for (size_t i = 0; i < n; i++)
        names[i][strlen(names[i]) - strlen(".theme")] = '\0';
    if (got <= 0) {
        if (got < 0)
            ui_message(ui, ROLE_ERROR, "%s: cannot read: %s", dd.label, strerror(errno));
        else
            ui_message(ui, ROLE_ERROR, "%s: no theme files (*.theme)", dd.label);
        data_dir_free(&dd);
        return;
    }
    data_dir_free(&dd);
    qsort(names, n, sizeof *names, cmp_names);
    size_t next = 0;
    for (size_t i = 0; i < n; i++)
        if (strcmp(names[i], ui->theme) == 0)
            next = (i + 1) % n;
    snprintf(ui->theme, sizeof ui->theme, "%s", names[next]);
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    ui->msg[0] = '\0';
    load_theme(ui);
    if (!ui->msg[0])
        ui_message(ui, ROLE_NOTE, "theme: %s", ui->theme);
}

void ui_settings_changed(struct ui *ui)
{
    struct settings *st = ui->settings;
    struct app *a = ui->app;
    if (st->has_budget)
        a->run_opts.params.quick = st->quick;
    if (st->has_tolerance)
        app_set_tolerance(a, st->tolerance_pct);
    if (st->has_updates)
        ui->live_interval = 1.0 / st->updates_per_s;
    if (st->has_provider)
        a->provider = st->provider;
    if (st->theme[0] && strcmp(st->theme, ui->theme) != 0) {
        snprintf(ui->theme, sizeof ui->theme, "%s", st->theme);
        load_theme(ui);
    }
    ui->dirty_body = true;
    if (!ui->opt->settings_path) {
        ui_message(ui, ROLE_WARN, "not saved: neither XDG_CONFIG_HOME nor HOME is set");
        return;
    }
    if (settings_save(st, ui->opt->settings_path) < 0)
        ui_message(ui, ROLE_ERROR, "%s: cannot save: %s", ui->opt->settings_path,
                   strerror(errno));
    else
        ui_message(ui, ROLE_NOTE, "saved to %s", ui->opt->settings_path);
}

/* Keys that vt100 terminfo lacks but PC terminal emulators send. */
static void define_extra_keys(void)
{
    static const struct {
        const char *seq;
        int key;
    } keys[] = {
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

/* newterm refused term: it has no terminfo entry here (or is unusable). */
static void no_terminal_message(const char *term)
{
    /* suggest vt100 only when it is another terminal type that works here */
    bool vt100 = strcmp(term, "vt100") != 0 &&
                 (embedded_has_terminfo("vt100") || terminfo_found("vt100"));
    fprintf(stderr, "evmbench: the screens need a terminfo entry for TERM=%s and none was "
                    "found (TERMINFO, TERMINFO_DIRS, ~/.terminfo and the system database "
                    "were searched); install it (Debian: ncurses-base, ncurses-term)%s, or use a "
                    "subcommand ('evmbench list', 'evmbench run NAME') or --ui=line\n",
            term, vt100 ? " or try TERM=vt100" : "");
}

static bool term_start(struct ui *ui)
{
    const char *term = getenv("TERM");
    if (!term || !*term) {
        fprintf(stderr, "evmbench: TERM is not set; set it (e.g. TERM=vt100) "
                        "or use --ui=line\n");
        return false;
    }
    /* a static binary on a board without a terminfo database */
    char *why = NULL;
    enum terminfo_setup ti = embedded_terminfo_setup(term, &why);
    if (ti == TERMINFO_UNWRITABLE) {
        fprintf(stderr, "evmbench: the screens need a terminfo entry for TERM=%s. This system "
                        "has none, and the program's own copy must be written to a directory "
                        "for ncurses, but no directory took it:\n", term);
        for (char *line = why, *nl; line; line = nl ? nl + 1 : NULL) {
            nl = strchr(line, '\n');
            fprintf(stderr, "  %.*s\n", nl ? (int)(nl - line) : (int)strlen(line), line);
        }
        fprintf(stderr, "evmbench: set TMPDIR to a writable directory, or use a subcommand "
                        "('evmbench list', 'evmbench run NAME') or --ui=line\n");
        free(why);
        return false;
    }
    ui->term = newterm(NULL, stdout, stdin);
    if (!ui->term) {
        no_terminal_message(term);
        return false;
    }
    set_term(ui->term);
    /* A terminal that cannot move the cursor cannot show a screen. */
    const char *cup = tigetstr("cup");
    if (!cup || cup == (const char *)-1) {
        endwin();
        delscreen(ui->term);
        ui->term = NULL;
        fprintf(stderr, "evmbench: terminal type '%s' cannot address the cursor; "
                        "use --ui=line\n", term);
        return false;
    }
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
    set_escdelay(100);
    define_extra_keys();
    ui->color = !no_color_env() && has_colors();
    if (ui->color && start_color() == ERR)
        ui->color = false;
    if (ui->color && COLORS < 8)
        ui->color = false;
    load_theme(ui);
    return true;
}

static void term_stop(struct ui *ui)
{
    if (!ui->term)
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
    delscreen(ui->term);
    ui->term = NULL;
    util_set_fatal_hook(NULL);
    fatal_ui = NULL;
}

/* Opens --run's benchmark over the home screen. */
static void open_initial_run(struct ui *ui, const char *name)
{
    const struct catalog *c = ui->app->catalog;
    const struct cat_bench *b = c ? catalog_find_bench(c, name) : NULL;
    if (!b) {
        ui_message(ui, ROLE_ERROR, "no benchmark named '%s'", name);
        return;
    }
    if (!b->nkernels) {
        ui_message(ui, ROLE_ERROR, "%s: reference only, nothing here can run it",
                   b->title);
        return;
    }
    /* a kernel's name runs that kernel alone, as 'evmbench run' does */
    struct screen_arg arg = { .category = b->category, .bench = b,
                              .kernel = app_find_kernel(ui->app, name) };
    ui_push(ui, &screen_run, &arg);
}

/* --- demo mode: the profile's benchmarks in a loop, no input needed ----- */

/* Opens the live screen of the demo's next benchmark over home. */
static void demo_next(struct ui *ui)
{
    struct demo *d = &ui->demo;
    while (ui->depth > 1)
        pop_now(ui);
    for (size_t tries = 0; tries < d->profile.n; tries++) {
        const struct profile_bench *pb = &d->profile.benches[d->next];
        d->next = (d->next + 1) % d->profile.n;
        const struct cat_bench *b = catalog_find_bench(ui->app->catalog, pb->name);
        if (!b || !b->nkernels)
            continue;
        struct screen_arg arg = { .category = b->category, .bench = b,
                                  .kernel = app_find_kernel(ui->app, pb->name) };
        ui_push(ui, &screen_run, &arg);
        if (!ui->batch) {
            pop_now(ui);
            continue;
        }
        d->phase = DEMO_RUN;
        ui_message(ui, ROLE_NOTE, "demo (%s profile): %s - press any key to stop",
                   d->profile.name, b->title);
        return;
    }
    ui_message(ui, ROLE_ERROR, "demo: nothing in %s can run here", d->profile.path);
    demo_stop(ui);
}

/* The demo's benchmarks that exist here; bad names are reported with
 * their file and line. False when none is left. */
static bool demo_check(struct ui *ui, struct diag *dg)
{
    struct profile *p = &ui->demo.profile;
    size_t ok = 0;
    for (size_t i = 0; i < p->n; i++) {
        const struct cat_bench *b = catalog_find_bench(ui->app->catalog, p->benches[i].name);
        if (!b)
            diag_add(dg, "%s:%d: no benchmark named '%s'", p->path, p->benches[i].line,
                     p->benches[i].name);
        else if (!b->nkernels)
            diag_add(dg, "%s:%d: %s is reference only", p->path, p->benches[i].line,
                     p->benches[i].name);
        else
            ok++;
    }
    if (!ok && !dg->n)
        diag_add(dg, "%s: no 'bench' lines", p->path);
    return ok > 0;
}

static void demo_start(struct ui *ui, const char *name)
{
    struct demo *d = &ui->demo;
    struct diag dg;
    diag_init(&dg);
    profile_load(&d->profile, name, &dg);
    bool ok = demo_check(ui, &dg);
    if (dg.n)
        ui_message(ui, ROLE_ERROR, "%s%s", dg.msgs[0], dg.n > 1 ? " (and more)" : "");
    diag_free(&dg);
    if (!ok) {
        profile_free(&d->profile);
        return;
    }
    d->quick_before = ui->app->run_opts.params.quick;
    ui->app->run_opts.params.quick = d->profile.quick;
    d->next = 0;
    char keep[sizeof ui->msg];
    snprintf(keep, sizeof keep, "%s", ui->msg);
    demo_next(ui);
    if (keep[0])
        ui_message(ui, ROLE_ERROR, "%s", keep);     /* a bad line stays visible */
}

static void demo_stop(struct ui *ui)
{
    struct demo *d = &ui->demo;
    if (d->phase == DEMO_OFF)
        return;
    d->phase = DEMO_OFF;
    ui->app->run_opts.params.quick = d->quick_before;
    profile_free(&d->profile);
    ui_message(ui, ROLE_NOTE, "demo stopped");
}

/* The first metric of the live batch that the guides have for several
 * boards (else for one): what the demo compares. */
static bool demo_metric(const struct ui *ui, struct screen_arg *arg)
{
    const struct batch *b = ui->batch;
    bool found = false;
    for (size_t i = 0; b && i < b->n; i++)
        for (size_t k = 0; b->runs[i] && k < b->runs[i]->nmetrics; k++) {
            const struct run *r = b->runs[i];
            if (!r->metrics[k].stats.count)
                continue;
            const char **keys;
            size_t n = refdb_boards_with(ui->app->refdb, r->kernel->section,
                                         r->metrics[k].def->id, &keys);
            free(keys);
            if (n && (!found || n > 1)) {
                arg->section = r->kernel->section;
                arg->metric = r->metrics[k].def->id;
                found = true;
                if (n > 1)
                    return true;
            }
        }
    return found;
}

static void demo_tick(struct ui *ui, double now)
{
    struct demo *d = &ui->demo;
    switch (d->phase) {
    case DEMO_OFF:
        return;
    case DEMO_RUN:
        if (ui->batch && !batch_done(ui->batch))
            return;
        d->phase = DEMO_RESULT;
        d->until = now + DEMO_RESULT_S;
        return;
    case DEMO_RESULT: {
        if (now < d->until)
            return;
        struct screen_arg arg = { 0 };
        if (demo_metric(ui, &arg)) {
            ui_push(ui, &screen_compare, &arg);
            d->phase = DEMO_COMPARE;
            d->until = now + DEMO_COMPARE_S;
            return;
        }
        demo_next(ui);
        return;
    }
    case DEMO_COMPARE:
        if (now >= d->until)
            demo_next(ui);
        return;
    }
}

static int poll_timeout_ms(struct ui *ui, double now)
{
    bool running = ui->batch && !batch_done(ui->batch);
    if (ui->demo.phase == DEMO_RESULT || ui->demo.phase == DEMO_COMPARE) {
        double left = ui->demo.until - now;
        int dm = left > 0 ? (int)ceil(left * 1000) : 0;
        if (!running && !ui->live_pending)
            return dm;
    }
    if (!running && !ui->live_pending)
        return -1;
    double due = ui->live_last + ui->live_interval - now;
    if (ui->run_ended)
        due = 0;
    int ms = due > 0 ? (int)ceil(due * 1000) : 0;
    /* The runner checks its time limit when pumped. */
    if (running && ms > 250)
        ms = 250;
    return ms;
}

static void loop(struct ui *ui)
{
    while (!ui->quit) {
        double now = now_seconds();
        bool due = now - ui->live_last >= ui->live_interval;
        if (ui->batch && !batch_done(ui->batch) && due)
            ui->live_pending = true;    /* the elapsed clock ticks */
        if (ui->live_pending && (ui->run_ended || due)) {
            ui->live_pending = ui->run_ended = false;
            ui->live_last = now;
            ui->dirty_body = true;
        }
        demo_tick(ui, now);
        if (ui->clear || ui->full || ui->dirty_top || ui->dirty_body ||
            ui->dirty_bottom)
            draw(ui);

        struct pollfd pfd[3] = {
            { .fd = STDIN_FILENO, .events = POLLIN },
            { .fd = sig_pipe[0], .events = POLLIN },
            { .fd = ui->batch ? batch_fd(ui->batch) : -1, .events = POLLIN },
        };
        int n = poll(pfd, 3, poll_timeout_ms(ui, now_seconds()));
        if (n < 0 && errno != EINTR)
            break;
        if (sig_quit) {
            ui->exit_code = 128 + sig_quit;
            break;
        }
        if (n > 0 && (pfd[1].revents & POLLIN))
            drain_sig_pipe();
        if (sig_winch) {
            sig_winch = 0;
            resize(ui);
        }
        if (ui->batch && !batch_done(ui->batch)) {
            batch_pump(ui->batch);
            if (batch_done(ui->batch) && ui->watch.active && !ui->watch.ended) {
                size_t had = ui->watch.warnings.count;
                app_cpu_watch_end(ui->app, &ui->watch);
                if (ui->watch.warnings.count > had)
                    ui_message(ui, ROLE_WARN, "warning: %s",
                               ui->watch.warnings.items[had].text);
            }
        }
        if (n > 0 && (pfd[0].revents & (POLLHUP | POLLERR | POLLNVAL))) {
            ui->exit_code = 128 + SIGHUP;       /* the terminal went away */
            break;
        }
        if (n > 0 && (pfd[0].revents & POLLIN))
            read_keys(ui);
    }
}

int ui_main(struct app *a, const struct ui_options *opt)
{
    static const struct ui_options defaults;
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
        fprintf(stderr, "evmbench: the TUI needs a terminal; use a subcommand such "
                        "as 'evmbench run stream' or --ui=line\n");
        return 1;
    }
    struct ui ui_store, *ui = &ui_store;
    memset(ui, 0, sizeof *ui);
    ui->app = a;
    ui->opt = opt ? opt : &defaults;
    settings_init(&ui->own_settings);
    ui->settings = ui->opt->settings ? ui->opt->settings : &ui->own_settings;
    double ups = ui->opt->updates_per_s > 0 ? ui->opt->updates_per_s
               : ui->settings->has_updates ? ui->settings->updates_per_s : 4.0;
    ui->live_interval = 1.0 / ups;
    snprintf(ui->theme, sizeof ui->theme, "%s", ui->opt->theme ? ui->opt->theme
             : ui->settings->theme[0] ? ui->settings->theme : "default");

    setlocale(LC_ALL, "");
    setlocale(LC_NUMERIC, "C");     /* numbers on the worker pipe stay parseable */
    ui->utf8 = locale_is_utf8();

    if (signals_install() < 0) {
        fprintf(stderr, "evmbench: cannot create a pipe: %s\n", strerror(errno));
        return 1;
    }
    if (!term_start(ui)) {
        signals_restore();
        return 1;
    }
    layout(ui);
    ui_push(ui, &screen_home, NULL);
    if (!ui->msg[0] && a->diag.n)
        ui_message(ui, ROLE_ERROR, "%s%s", a->diag.msgs[0],
                   a->diag.n > 1 ? " (more: evmbench refs)" : "");
    if (ui->opt->demo)
        demo_start(ui, ui->opt->demo);
    else if (ui->opt->run)
        open_initial_run(ui, ui->opt->run);

    loop(ui);

    demo_stop(ui);
    while (ui->depth)
        pop_now(ui);
    ui_run_close(ui);
    char err[512];
    if (store_finish(ui->store, ui->exit_code == 0, err, sizeof err) != 0)
        fprintf(stderr, "evmbench: %s\n", err);
    session_free(&ui->session);
    free(ui->prefs);
    free(ui->job_benches);
    json_decref(ui->baseline);
    app_cpu_watch_free(&ui->watch);
    term_stop(ui);
    signals_restore();
    if (ui->exit_code > 128)
        fprintf(stderr, "evmbench: stopped by signal %d\n", ui->exit_code - 128);
    return ui->exit_code;
}
