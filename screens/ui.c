/* ui.c - the screen stack and the main loop.
 *
 * One loop: draw what is dirty (wnoutrefresh per window, one doupdate),
 * then sleep in poll() on the keyboard, the live run's pipe and a
 * self-pipe that the signal handlers write to. What a key changed is drawn
 * at once; every other frame (the run's values, events and clock, its
 * messages, the demo) waits for the one scheduler: at most updates_per_s
 * frames a second, and only the lines that fit in the line budget (pace.h)
 * - the others wait for a later frame. Curses sends only what changed.
 * The terminal is set up in term.c, the work behind the screens is the
 * job (job.c); what moves on by itself (the demo, the summary after a
 * batch) are the tickers of screens.def, which the loop calls. */
#include "config.h"
#include "screens/ui_impl.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/util.h"

#define LINE_BUDGET 1400        /* bytes a second, by default */
#define PACE_WINDOW_S 1.1       /* the second the budget is counted over */
#define PACE_MIN_ROOM 100       /* less room than this: the frame waits */

/* --- the job's hooks ------------------------------------------------------ */

static void job_say(void *ctx, enum job_level level, const char *text)
{
    static const enum role roles[] = {
        [JOB_NOTE] = ROLE_NOTE, [JOB_WARN] = ROLE_WARN, [JOB_ERROR] = ROLE_ERROR,
    };
    ui_message(ctx, roles[level], "%s", text);
}

/* A new metric, a kernel that begins or ends: the scheduler (loop) draws
 * it with the next frame, never at once. */
static void job_event(void *ctx, enum job_event e)
{
    struct ui *ui = ctx;
    ui->frame.dirty_body = true;
    if (e == JOB_ENDED)
        ui->frame.dirty_bottom = true;  /* the hints change */
}

static const struct job_hooks ui_job_hooks = { .say = job_say, .event = job_event };

/* --- the tickers ------------------------------------------------------------ */

static const struct ticker_ops *const tickers[] = {
#define TICKER(name) &ticker_##name,
#include "screens/screens.def"
};

/* True when a ticker took the start over. */
static bool tickers_start(struct ui *ui, bool base_ok)
{
    for (size_t i = 0; i < ARRAY_SIZE(tickers); i++)
        if (tickers[i]->start && tickers[i]->start(ui, base_ok))
            return true;
    return false;
}

static void tickers_tick(struct ui *ui, double now)
{
    for (size_t i = 0; i < ARRAY_SIZE(tickers); i++)
        if (tickers[i]->tick)
            tickers[i]->tick(ui, now);
}

/* The least wait of the tickers; -1 when none has anything to do. */
static int tickers_wait_ms(const struct ui *ui, double now)
{
    int ms = -1;
    for (size_t i = 0; i < ARRAY_SIZE(tickers); i++) {
        int t = tickers[i]->wait_ms ? tickers[i]->wait_ms(ui, now) : -1;
        if (t >= 0 && (ms < 0 || t < ms))
            ms = t;
    }
    return ms;
}

static void tickers_pumped(struct ui *ui)
{
    for (size_t i = 0; i < ARRAY_SIZE(tickers); i++)
        if (tickers[i]->pumped)
            tickers[i]->pumped(ui);
}

/* True when a ticker took the key. */
static bool tickers_key(struct ui *ui, int key)
{
    for (size_t i = 0; i < ARRAY_SIZE(tickers); i++)
        if (tickers[i]->key && tickers[i]->key(ui, key))
            return true;
    return false;
}

static void tickers_stop(struct ui *ui)
{
    for (size_t i = 0; i < ARRAY_SIZE(tickers); i++)
        if (tickers[i]->stop)
            tickers[i]->stop(ui);
}

/* --- accessors for the screens ------------------------------------------ */

struct app *ui_app(const struct ui *ui)
{
    return ui->app;
}

struct job *ui_job(struct ui *ui)
{
    return &ui->job;
}

void ui_set_check_status(struct ui *ui, int status)
{
    ui->check_status = status;
}

bool ui_utf8(const struct ui *ui)
{
    return ui->term.utf8;
}

int ui_body_rows(const struct ui *ui)
{
    return ui->frame.body ? getmaxy(ui->frame.body) : 0;
}

void ui_dirty(struct ui *ui)
{
    ui->frame.dirty_body = true;
}

struct screen *ui_top(const struct ui *ui)
{
    return ui->stack.depth ? (struct screen *)&ui->stack.s[ui->stack.depth - 1] : NULL;
}

/* Whether the top screen shows the message itself (then its body is
 * drawn again when the message changes). */
static bool message_on_body(const struct ui *ui)
{
    const struct screen *s = ui_top(ui);
    return s && s->ops->own_message;
}

void ui_message(struct ui *ui, enum role r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *text = xvasprintf(fmt, ap);
    va_end(ap);
    snprintf(ui->line.msg, sizeof ui->line.msg, "%s", text);
    ui->line.msg_role = r;
    ui->frame.dirty_bottom = true;
    if (message_on_body(ui))
        ui->frame.dirty_body = true;
    if (r != ROLE_WARN && r != ROLE_ERROR) {
        free(text);
        return;
    }
    struct ui_log_entry *e = &ui->line.log[ui->line.nlog++ % UI_LOG_MAX];
    free(e->text);
    e->text = text;
    e->role = r;
}

const char *ui_line_message(const struct ui *ui, enum role *r)
{
    if (!ui->line.msg[0])
        return NULL;
    if (r)
        *r = ui->line.msg_role;
    return ui->line.msg;
}

size_t ui_log_count(const struct ui *ui)
{
    return ui->line.nlog;
}

const char *ui_log_text(const struct ui *ui, size_t i, enum role *r)
{
    if (i >= ui->line.nlog || ui->line.nlog - i > UI_LOG_MAX)
        return NULL;
    const struct ui_log_entry *e = &ui->line.log[i % UI_LOG_MAX];
    if (r)
        *r = e->role;
    return e->text;
}

void ui_set_system_warnings(struct ui *ui, const char *text)
{
    free(ui->line.system_warnings);
    ui->line.system_warnings = xstrdup(text);
}

const char *ui_system_warnings(const struct ui *ui)
{
    return ui->line.system_warnings;
}

void ui_set_board(struct ui *ui, const char *key)
{
    app_pick_board(ui->app, key);
    ui->frame.dirty_top = ui->frame.dirty_body = true;
}

struct settings *ui_settings(struct ui *ui)
{
    return ui->settings;
}

const struct diag *ui_settings_problems(const struct ui *ui)
{
    const struct diag *d = ui->opt->settings_problems;
    return d && d->n ? d : NULL;
}

double ui_updates_per_s(const struct ui *ui)
{
    return 1.0 / ui->live.interval;
}

/* --- the screen stack -------------------------------------------------------- */

const struct screen *ui_below(const struct ui *ui, const struct screen *s)
{
    for (int i = 1; i < ui->stack.depth; i++)
        if (&ui->stack.s[i] == s)
            return &ui->stack.s[i - 1];
    return NULL;
}

void ui_push(struct ui *ui, const struct screen_ops *ops, const struct screen_arg *arg)
{
    static const struct screen_arg none;
    if (ui->stack.depth == MAX_DEPTH) {
        ui_message(ui, ROLE_ERROR, "too many screens open");
        return;
    }
    struct screen *s = &ui->stack.s[ui->stack.depth++];
    s->ops = ops;
    s->ui = ui;
    s->priv = NULL;
    if (ops->enter)
        ops->enter(s, arg ? arg : &none);
    ui->frame.full = ui->frame.dirty_body = ui->frame.dirty_bottom = true;
}

void ui_pop(struct ui *ui)
{
    ui->stack.pops++;
}

void ui_pop_now(struct ui *ui)
{
    struct screen *s = ui_top(ui);
    if (!s)
        return;
    if (s->ops->leave)
        s->ops->leave(s);
    s->priv = NULL;
    ui->stack.depth--;
    ui->frame.full = ui->frame.dirty_body = ui->frame.dirty_bottom = true;
}

/* --- the bottom line: prompt and search ------------------------------------ */

void ui_prompt(struct ui *ui, const char *label, void (*done)(struct ui *ui, const char *text))
{
    struct ui_line *l = &ui->line;
    l->prompting = true;
    snprintf(l->prompt_label, sizeof l->prompt_label, "%s", label);
    l->prompt_text[0] = '\0';
    l->prompt_done = done;
    l->confirm_done = NULL;
    ui->frame.dirty_bottom = true;
}

void ui_confirm(struct ui *ui, const char *question, void (*done)(struct ui *ui, bool yes))
{
    ui_prompt(ui, question, NULL);
    ui->line.confirm_done = done;
}

/* A key while ui_prompt collects a line, or ui_confirm its answer. */
static void prompt_key(struct ui *ui, int key)
{
    struct ui_line *l = &ui->line;
    size_t len = strlen(l->prompt_text);
    ui->frame.dirty_bottom = true;
    if (l->confirm_done) {
        void (*done)(struct ui *, bool) = l->confirm_done;
        l->prompting = false;
        l->confirm_done = NULL;
        done(ui, key == 'y' || key == 'Y');
        return;
    }
    if (key == '\n' || key == '\r' || key == KEY_ENTER) {
        l->prompting = false;
        if (len && l->prompt_done)
            l->prompt_done(ui, l->prompt_text);
    } else if (key == KEY_ESC || key == CTRL_KEY('G')) {
        l->prompting = false;
    } else if (key == KEY_BACKSPACE || key == 127 || key == CTRL_KEY('H')) {
        if (len)
            l->prompt_text[len - 1] = '\0';
    } else if (key >= 32 && key < 127 && len + 1 < sizeof l->prompt_text) {
        l->prompt_text[len] = (char)key;
        l->prompt_text[len + 1] = '\0';
    }
}

/* A key while '/' collects the query: the list follows each change. */
static void search_key(struct ui *ui, int key)
{
    struct ui_line *l = &ui->line;
    struct screen *s = ui_top(ui);
    size_t len = strlen(l->query);
    ui->frame.dirty_bottom = true;
    if (key == '\n' || key == '\r' || key == KEY_ENTER) {
        l->searching = false;
        return;
    }
    if (key == KEY_ESC || key == CTRL_KEY('G')) {
        l->searching = false;
        l->query[0] = '\0';
        return;
    }
    if (key == KEY_BACKSPACE || key == 127 || key == CTRL_KEY('H')) {
        if (len)
            l->query[len - 1] = '\0';
    } else if (key >= 32 && key < 127 && len + 1 < sizeof l->query) {
        l->query[len] = (char)key;
        l->query[len + 1] = '\0';
    } else {
        return;
    }
    if (!s || !s->ops->search)
        return;
    l->search_miss = !s->ops->search(s, l->query, 0);
    ui->frame.dirty_body = true;
}

/* --- input ------------------------------------------------------------------ */

/* The actions that open a screen on top (unless it is the top one). */
static const struct {
    enum action action;
    const struct screen_ops *screen;
} push_actions[] = {
#define SCREEN_ACTION(name, id, help) { ACT_##id, &screen_##name },
#include "screens/screens.def"
};

/* '/', 'n' and 'N': search the top screen's list. */
static void search_action(struct ui *ui, struct screen *s, enum action a)
{
    struct ui_line *l = &ui->line;
    if (a == ACT_SEARCH) {
        if (s && s->ops->search) {
            l->searching = true;
            l->query[0] = '\0';
            ui->frame.dirty_bottom = true;
        } else {
            ui_message(ui, ROLE_NOTE, "no list to search here");
        }
    } else if (s && s->ops->search && l->query[0]) {
        if (s->ops->search(s, l->query, a == ACT_PREV ? -1 : 1))
            ui->frame.dirty_body = true;
        else
            ui_message(ui, ROLE_NOTE, "no more matches for '%s'", l->query);
    }
}

/* What the ui does with an action the top screen left to it. */
static void global_action(struct ui *ui, struct screen *s, enum action a)
{
    for (size_t i = 0; i < ARRAY_SIZE(push_actions); i++)
        if (push_actions[i].action == a) {
            if (s && s->ops != push_actions[i].screen)
                ui_push(ui, push_actions[i].screen, NULL);
            return;
        }
    switch (a) {
    case ACT_BACK:
        ui_pop(ui);
        break;
    case ACT_THEME:
        ui_next_theme(ui);
        break;
    case ACT_SEARCH:
    case ACT_NEXT:
    case ACT_PREV:
        search_action(ui, s, a);
        break;
    case ACT_REDRAW:
        ui->frame.clear = true;
        break;
    default:
        break;
    }
}

/* Quitting from the last screen takes 'q'; Esc and Left, which only go
 * back elsewhere, ask first (a stray arrow or Esc never quits). */
static void ask_before_quitting(struct ui *ui, int key)
{
    if (ui->stack.pops < ui->stack.depth || key == 'q')
        return;
    ui->stack.pops = ui->stack.depth - 1;
    ui->line.confirm_quit = true;
    ui_message(ui, ROLE_WARN, "Quit evmbench? y or q quits, any other key stays");
}

/* The key after "Quit evmbench?". */
static void confirm_quit_key(struct ui *ui, int key)
{
    ui->line.confirm_quit = false;
    ui->line.msg[0] = '\0';
    ui->frame.dirty_bottom = true;
    if (key == 'y' || key == 'Y' || key == 'q')
        ui->quit = true;
}

static void dispatch(struct ui *ui, enum action a, int key)
{
    struct screen *s = ui_top(ui);
    if (s && s->ops->on_action)
        a = s->ops->on_action(s, a);
    global_action(ui, s, a);
    ask_before_quitting(ui, key);
    while (ui->stack.pops > 0) {
        ui->stack.pops--;
        ui_pop_now(ui);
    }
    if (!ui->stack.depth)
        ui->quit = true;
}

static void handle_key(struct ui *ui, int key)
{
    bool small = ui->frame.too_small;
    if (key == KEY_RESIZE) {
        term_layout(ui);
        return;
    }
    if (!small && tickers_key(ui, key))
        return;             /* the demo took it: any key ends it */
    if (ui->line.prompting && !small) {
        prompt_key(ui, key);
        return;
    }
    if (ui->line.searching && !small) {
        search_key(ui, key);
        return;
    }
    if (ui->line.confirm_quit && !small) {
        confirm_quit_key(ui, key);
        return;
    }
    if (ui->line.msg[0]) {
        ui->line.msg[0] = '\0';
        ui->frame.dirty_bottom = true;
        if (message_on_body(ui))
            ui->frame.dirty_body = true;
    }
    if (small) {
        /* Only quitting and redrawing make sense on the message. */
        if (key == 'q' || key == KEY_ESC)
            ui->quit = true;
        else if (key == CTRL_KEY('L'))
            ui->frame.clear = true;
        return;
    }
    struct screen *s = ui_top(ui);
    enum action a = action_for_key(s ? s->ops->keys : NULL, key);
    if (a != ACT_NONE)
        dispatch(ui, a, key);
}

static bool frame_dirty(const struct ui_frame *f)
{
    return f->clear || f->full || f->dirty_top || f->dirty_body || f->dirty_bottom;
}

/* What keys change is drawn at once (the scheduler waits not). */
static void read_keys(struct ui *ui)
{
    int key;
    while (!ui->quit && (key = wgetch(stdscr)) != ERR) {
        if (key == KEY_ESC)
            key = term_read_escape();
        if (key == TERM_KEY_NONE)
            continue;
        ui->frame.urgent = true;
        handle_key(ui, key);
    }
    if (!frame_dirty(&ui->frame))
        ui->frame.urgent = false;
}

/* --- settings ------------------------------------------------------------------ */

void ui_settings_changed(struct ui *ui)
{
    struct settings *st = ui->settings;
    struct app *a = ui->app;
    if (st->has_budget)
        a->run_opts.params.quick = st->quick;
    if (st->has_tolerance)
        app_set_tolerance(a, st->tolerance_pct);
    if (st->has_updates)
        ui->live.interval = 1.0 / st->updates_per_s;
    if (st->has_provider)
        a->provider = st->provider;
    if (st->theme[0] && strcmp(st->theme, ui->term.theme) != 0) {
        snprintf(ui->term.theme, sizeof ui->term.theme, "%s", st->theme);
        term_load_theme(ui);
    }
    ui->frame.dirty_body = true;
    if (!ui->opt->settings_path) {
        ui_message(ui, ROLE_WARN, "not saved: neither XDG_CONFIG_HOME nor HOME is set");
        return;
    }
    if (settings_save(st, ui->opt->settings_path) < 0)
        ui_message(ui, ROLE_ERROR, "%s: cannot save: %s%s", ui->opt->settings_path,
                   file_strerror(errno), errno == EFBIG || errno == EINVAL
                   ? " (the file is kept as it is)" : "");
    else
        ui_message(ui, ROLE_NOTE, "saved to %s", ui->opt->settings_path);
}

/* --- the main loop ------------------------------------------------------------- */

static bool job_running(const struct ui *ui)
{
    const struct batch *b = job_batch(&ui->job);
    return b && !batch_done(b);
}

static int ms_until(double at, double now)
{
    return at > now ? (int)ceil((at - now) * 1000) : 0;
}

/* The scheduler: milliseconds until the pending frame may be drawn (0:
 * now; -1: nothing is pending). A key's frame is drawn at once; any other
 * waits an interval after the last frame, and while the line budget has
 * no room, until it has. */
static int frame_wait_ms(const struct ui *ui, double now)
{
    const struct ui_frame *f = &ui->frame;
    const struct ui_live *l = &ui->live;
    if (!frame_dirty(f))
        return -1;
    if (f->urgent || f->clear)
        return 0;
    double at = l->last + l->interval;
    if (pace_room(&l->pace, now) < PACE_MIN_ROOM) {
        double room_at = pace_next_room(&l->pace, now);
        if (room_at > at)
            at = room_at;
    }
    return ms_until(at, now);
}

static int poll_timeout_ms(const struct ui *ui, double now)
{
    int ms = frame_wait_ms(ui, now);
    if (job_running(ui)) {
        if (ms < 0)             /* the clock's next tick */
            ms = ms_until(ui->live.last + ui->live.interval, now);
        if (ms > 250)           /* the runner checks its time limit when pumped */
            ms = 250;
    }
    int ticker = tickers_wait_ms(ui, now);
    if (ticker >= 0 && (ms < 0 || ticker < ms))
        ms = ticker;
    return ms;
}

/* While a run goes on, its clock and progress bar move: the body is drawn
 * again once an interval. */
static void clock_tick(struct ui *ui, double now)
{
    if (job_running(ui) && now - ui->live.last >= ui->live.interval)
        ui->frame.dirty_body = true;
}

static void loop(struct ui *ui)
{
    while (!ui->quit) {
        double now = now_seconds();
        clock_tick(ui, now);
        tickers_tick(ui, now);
        if (frame_wait_ms(ui, now) == 0)
            frame_draw(ui, now);

        struct pollfd pfd[3] = {
            { .fd = STDIN_FILENO, .events = POLLIN },
            { .fd = signals_fd(), .events = POLLIN },
            { .fd = job_fd(&ui->job), .events = POLLIN },
        };
        int n = poll(pfd, 3, poll_timeout_ms(ui, now_seconds()));
        if (n < 0 && errno != EINTR)
            break;
        if (signals_quit()) {
            ui->exit_code = 128 + signals_quit();
            break;
        }
        if (n > 0 && (pfd[1].revents & POLLIN))
            signals_drain();
        if (signals_take_winch())
            term_resize(ui);
        job_pump(&ui->job);
        tickers_pumped(ui);
        if (n > 0 && (pfd[0].revents & (POLLHUP | POLLERR | POLLNVAL))) {
            ui->exit_code = 128 + SIGHUP;       /* the terminal went away */
            break;
        }
        if (n > 0 && (pfd[0].revents & POLLIN))
            read_keys(ui);
    }
}

/* The settings file's first problem on the bottom line; when it does not
 * fit, or there are more, it ends with where to read them all. */
static void settings_problems_message(struct ui *ui)
{
    const struct diag *d = ui_settings_problems(ui);
    if (!d)
        return;
    char more[64];
    if (d->n > 1)
        snprintf(more, sizeof more, " (+%zu more: s shows all)", d->n - 1);
    else
        snprintf(more, sizeof more, " (s shows it all)");
    size_t room = (size_t)ui_message_room(ui, ROLE_ERROR), len = strlen(d->msgs[0]);
    if (d->n == 1 && len <= room)
        ui_message(ui, ROLE_ERROR, "%s", d->msgs[0]);
    else if (len + strlen(more) <= room)
        ui_message(ui, ROLE_ERROR, "%s%s", d->msgs[0], more);
    else {
        size_t keep = room > strlen(more) + 3 ? room - strlen(more) - 3 : 0;
        ui_message(ui, ROLE_ERROR, "%.*s...%s", (int)keep, d->msgs[0], more);
    }
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

/* The options and settings in force before the terminal is taken. */
static void ui_init(struct ui *ui, struct app *a, const struct ui_options *opt)
{
    memset(ui, 0, sizeof *ui);
    ui->app = a;
    ui->opt = opt;
    settings_init(&ui->own_settings);
    ui->settings = opt->settings ? opt->settings : &ui->own_settings;
    double ups = opt->updates_per_s > 0 ? opt->updates_per_s
               : ui->settings->has_updates ? ui->settings->updates_per_s : 4.0;
    ui->live.interval = 1.0 / ups;
    /* the budget holds for any second the terminal sees: the window is a
     * little longer, for the time between drawing and sending */
    pace_init(&ui->live.pace, opt->line_budget > 0 ? opt->line_budget : LINE_BUDGET,
              PACE_WINDOW_S);
    snprintf(ui->term.theme, sizeof ui->term.theme, "%s", opt->theme ? opt->theme
             : ui->settings->theme[0] ? ui->settings->theme : "default");
    job_init(&ui->job, a, opt->results_dir, !opt->no_save, &ui_job_hooks, ui);
}

int ui_main(struct app *a, const struct ui_options *opt, struct diag *d)
{
    static const struct ui_options defaults;
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
        diag_add(d, "the TUI needs a terminal; use a subcommand such "
                    "as 'evmbench run stream' or --ui=line");
        return 1;
    }
    struct ui ui_store, *ui = &ui_store;
    ui_init(ui, a, opt ? opt : &defaults);

    setlocale(LC_ALL, "");
    setlocale(LC_NUMERIC, "C");     /* numbers on the worker pipe stay parseable */
    ui->term.utf8 = term_locale_utf8();

    if (signals_install() < 0) {
        diag_add(d, "cannot create a pipe: %s", strerror(errno));
        return 1;
    }
    if (!term_start(ui, d)) {
        signals_restore();
        return 1;
    }
    term_layout(ui);
    ui_push(ui, &screen_home, NULL);
    if (!ui->line.msg[0])
        settings_problems_message(ui);
    if (!ui->line.msg[0] && a->diag.n)
        ui_message(ui, ROLE_ERROR, "%s%s", a->diag.msgs[0],
                   a->diag.n > 1 ? " (more: evmbench refs)" : "");
    /* a check needs its baseline: one that cannot be loaded stops it */
    bool base_ok = !ui->opt->baseline || job_set_baseline(&ui->job, ui->opt->baseline);
    if (ui->opt->check && !base_ok)
        ui->check_status = 1;       /* as run: a baseline that does not exist */
    if (!tickers_start(ui, base_ok) && ui->opt->run)
        open_initial_run(ui, ui->opt->run);

    loop(ui);

    tickers_stop(ui);
    if (ui->exit_code > 128)
        job_stop(&ui->job, ui->exit_code - 128);
    while (ui->stack.depth)
        ui_pop_now(ui);
    job_end(&ui->job, ui->exit_code == 0, d);
    for (size_t i = 0; i < UI_LOG_MAX; i++)
        free(ui->line.log[i].text);
    ui_caveat_free(ui);
    free(ui->line.system_warnings);
    term_stop(ui);
    signals_restore();
    if (ui->exit_code > 128)
        diag_add(d, "stopped by signal %d", ui->exit_code - 128);
    return ui->exit_code ? ui->exit_code : ui->check_status;
}
