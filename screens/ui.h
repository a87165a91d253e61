/* ui.h - the curses front end. The only entry point the CLI uses.
 *
 * ui_main() takes over the terminal, runs the screens until the user quits
 * and restores the terminal on every exit path (normal, SIGINT, SIGTERM,
 * SIGHUP, a fatal error). Only screens/ includes <curses.h>.
 *
 * The second half of this header (EVMBENCH_UI_PRIVATE) is the contract
 * between the ui and the screens: a screen is a small vtable plus its own
 * state; the ui owns the terminal, the windows, the screen stack and the
 * job (job.h: the one live run, the results, the baseline). */
#ifndef EVMBENCH_UI_H
#define EVMBENCH_UI_H

#include "app.h"
#include "run/batch.h"
#include "run/session.h"
#include "data/settings.h"

struct ui_options {
    const char *run;        /* open the live screen of this benchmark first */
    double updates_per_s;   /* live refresh limit; 0 = settings or 4 per second */
    long line_budget;       /* bytes a second the frames nobody asked for
                             * (live values, the demo) may send at most;
                             * 0 = 1400 */
    const char *theme;      /* theme name or path; NULL = settings or "default" */
    const char *demo;       /* --demo: run this profile in a loop; NULL = no */
    /* --check, --profile: run this profile once and end on its verdict
     * (the summary) against `baseline` or, NULL, the guide, at fail_pct
     * (0: the app's tolerance). A baseline alone is the results' baseline
     * from the start. */
    const char *check;
    const char *baseline;
    double fail_pct;
    /* The loaded settings file (may be NULL); the settings screen changes
     * and saves it to settings_path (NULL: not saved). */
    struct settings *settings;
    const char *settings_path;
    /* The results store every finished run is appended to (store.h) and
     * baselines are read from and saved to; NULL: none. */
    const char *results_dir;
    bool no_save;               /* --no-save: runs are not appended */
    /* What was wrong in the settings file (may be NULL): the first on the
     * bottom line at the start, all of them in full on the system screen. */
    const struct diag *settings_problems;
};

/* Returns the process exit status: 0; 1 when the terminal is unusable (not
 * a tty, unknown TERM); 128+signal after SIGINT, SIGTERM or SIGHUP; else,
 * after --check, the status its verdict decides (ui_set_check_status). What
 * went wrong (no terminal, the run file not finished, the signal) is added
 * to d, for the caller to print once the terminal is restored. */
int ui_main(struct app *a, const struct ui_options *opt, struct diag *d);

#ifdef EVMBENCH_UI_PRIVATE
#include <curses.h>

#include "screens/actions.h"
#include "screens/job.h"
#include "screens/list.h"
#include "screens/theme.h"
#include "screens/widgets.h"

struct ui;
struct screen;

/* What a screen is opened on (fields a screen does not use stay NULL). */
struct screen_arg {
    const struct cat_category *category;
    const struct cat_bench *bench;
    const struct kernel *kernel;    /* run only this kernel of the bench */
    const char *section, *metric;   /* compare: this metric (NULL: the last) */
    bool all;                       /* run: every runnable bench of category */
    const char *title;              /* summary: what ran ("System Benchmarks") */
    size_t since_run;               /* summary: the batches numbered from this one */
    bool verdict;                   /* summary: the check's verdict first (--check) */
    double fail_pct;                /* verdict: the tolerance; 0: the app's */
    int menu_part;                  /* guides: which enum cat_menu_part */
    const char *text;               /* details: the screen's own lines in full first
                                     * (a paragraph a line), copied */
};

struct screen_ops {
    const char *name;
    const struct binding *keys;     /* searched before the global bindings */
    const struct hint *hints;       /* the bottom line, {ACT_NONE} ends */
    /* Optional: hints that depend on the state (running or finished). */
    const struct hint *(*hints_now)(const struct screen *s);
    /* Allocates s->priv. arg is never NULL. */
    void (*enter)(struct screen *s, const struct screen_arg *arg);
    /* Frees s->priv; called on pop and when the program ends. */
    void (*leave)(struct screen *s);
    /* Draws the body window, already erased. `full` after a clear
     * (screen switch, resize, Ctrl-L). */
    void (*draw)(struct screen *s, WINDOW *w, bool full);
    /* Returns ACT_NONE when handled; anything else is handled by the ui
     * (BACK pops, HELP opens help, REDRAW clears). */
    enum action (*on_action)(struct screen *s, enum action a);
    /* Optional ('/' search): selects the first item whose text contains
     * q, ignoring case, looking from the selected one (dir 0), from the
     * one after it onwards (dir 1, 'n') or from the one before it
     * backwards (dir -1, 'p'), round the list (list_search); false when
     * none does. */
    bool (*search)(struct screen *s, const char *q, int dir);
    /* The screen shows the bottom line's message on a line of its own
     * (ui_line_message): the bottom line keeps its hints. */
    bool own_message;
};

struct screen {
    const struct screen_ops *ops;
    struct ui *ui;
    void *priv;
};

/* What moves on by itself in the main loop, with no key pressed: the
 * demo and the check (demo.c), the summary after a category batch
 * (screen_summary.c). The loop calls the members a ticker has (each is
 * optional) at these moments, the tickers in the order of screens.def. */
struct ticker_ops {
    /* At the start, the home screen open and the --baseline loaded
     * (base_ok false: it could not be): true when it takes the start
     * over, and then neither a later ticker nor --run starts. */
    bool (*start)(struct ui *ui, bool base_ok);
    /* Each turn of the loop, before the frame is drawn. */
    void (*tick)(struct ui *ui, double now);
    /* Milliseconds until tick has something to do by itself (0: at
     * once); -1 when it waits for something else (the run, a key). The
     * loop sleeps no longer than the least of them. */
    int (*wait_ms)(const struct ui *ui, double now);
    /* After the job read what the run sent (job_pump), before the keys. */
    void (*pumped)(struct ui *ui);
    /* A key, before the prompt, the search and the screens see it (not
     * while the terminal is too small): true when the ticker took it. */
    bool (*key)(struct ui *ui, int key);
    /* The loop ended: it puts back what it changed. */
    void (*stop)(struct ui *ui);
};

/* Every screen and ticker: screen_home, screen_run ..., ticker_demo ...
 * (screens.def). */
#define SCREEN(name) extern const struct screen_ops screen_##name;
#define TICKER(name) extern const struct ticker_ops ticker_##name;
#include "screens/screens.def"

struct app *ui_app(const struct ui *ui);
/* True when the locale is UTF-8 (else draw ASCII only). */
bool ui_utf8(const struct ui *ui);
/* Rows of the body window that a screen draws in. */
int ui_body_rows(const struct ui *ui);

/* Opens a screen on top. */
void ui_push(struct ui *ui, const struct screen_ops *ops, const struct screen_arg *arg);
/* Closes the top screen once the current action is done. */
void ui_pop(struct ui *ui);
/* The screen below s, or NULL (help shows the keys of the screen below). */
const struct screen *ui_below(const struct ui *ui, const struct screen *s);
/* Asks for the body to be drawn again (cheap: curses sends only changes). */
void ui_dirty(struct ui *ui);
/* A message on the bottom line until the next key (on the top screen's
 * own line when it has one). Warnings and errors are also kept, in full,
 * for the full-text screen ('w'). */
void ui_message(struct ui *ui, enum role r, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The message shown now (its role in *r), or NULL when none. */
const char *ui_line_message(const struct ui *ui, enum role *r);
/* The columns a bottom-line message of role r gets on the top screen
 * before it is cut: the line less the keys that stay beside it ("w full
 * text  ? help  q back"). */
int ui_message_room(const struct ui *ui, enum role r);
/* The warnings and errors said since the start, counted from 0; only the
 * last UI_LOG_MAX are kept. */
#define UI_LOG_MAX 16
size_t ui_log_count(const struct ui *ui);
/* Warning or error i (0 .. ui_log_count()-1) in full, its role in *r;
 * NULL when it is no longer kept. */
const char *ui_log_text(const struct ui *ui, size_t i, enum role *r);
/* The system screen's warnings as it last read them, whole, one a line,
 * for the full-text screen ('w'); each reading replaces them (text is
 * copied). NULL before the system screen was opened. */
void ui_set_system_warnings(struct ui *ui, const char *text);
const char *ui_system_warnings(const struct ui *ui);

/* The line a screen that shows deviations from the guide (live, results,
 * summary, check, compare) puts above them when this board does not match
 * the guide board it is compared with: "caveat: not the guide's AM62x SK,
 * deviations may not be this board's (s)", or a shorter form when that
 * is wider than `width` columns; NULL when no check contradicts or there
 * is no guide board. Decided once per reference board (the clock measured
 * for 0.1 s), so it costs nothing on later frames. The string lives until
 * the next call. */
const char *ui_board_caveat(struct ui *ui, int width);
/* The whole warning behind it (board_match_warning(): every contradicting
 * check), or NULL. */
const char *ui_board_caveat_full(struct ui *ui);

/* The work behind the screens (job.h): the live batch, the session's
 * results, the store, the baseline and the provider per benchmark. It
 * keeps going while other screens (help) are on top. */
struct job *ui_job(struct ui *ui);
/* --check: the exit status its verdict decides (engine_exit_status);
 * ui_main returns it when the screens end without an error or signal. */
void ui_set_check_status(struct ui *ui, int status);
/* Asks for a line of text on the bottom line ("label: text_"); Enter calls
 * done with it (not when empty), Esc drops it. */
void ui_prompt(struct ui *ui, const char *label,
               void (*done)(struct ui *ui, const char *text));
/* Asks a yes/no question on the bottom line ("question (y/n) _"); the
 * next key answers: y or Y is yes, any other key (n, Esc) no. */
void ui_confirm(struct ui *ui, const char *question, void (*done)(struct ui *ui, bool yes));
/* Makes key the reference board (the board picker). */
void ui_set_board(struct ui *ui, const char *key);
/* The settings in force, and after changing them: apply and save. */
struct settings *ui_settings(struct ui *ui);
/* The settings file's problems at the start (ui_options); NULL when none. */
const struct diag *ui_settings_problems(const struct ui *ui);
void ui_settings_changed(struct ui *ui);
/* 't': the next theme of the themes folder (a mono terminal says why
 * not). */
void ui_next_theme(struct ui *ui);
/* The theme chosen ("default", a path ...): the one in use unless the
 * terminal is forced to mono. */
const char *ui_theme_name(const struct ui *ui);
/* Why the terminal gets the mono theme whatever is chosen ("NO_COLOR is
 * set", "the terminal shows no colours"); NULL on a colour terminal. */
const char *ui_theme_mono_reason(const struct ui *ui);
/* The live redraws per second in force. */
double ui_updates_per_s(const struct ui *ui);
#endif

#endif
