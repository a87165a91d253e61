/* ui_impl.h - what ui.c (the screen stack and the main loop), frame.c
 * (drawing a frame), term.c (the terminal, its windows, signals and
 * themes) and demo.c (--demo) share. Screens do not include it: their
 * contract is ui.h. */
#ifndef EVMBENCH_UI_IMPL_H
#define EVMBENCH_UI_IMPL_H

#define EVMBENCH_UI_PRIVATE 1
#include "screens/ui.h"

#include "data/profile.h"
#include "screens/job.h"
#include "screens/pace.h"

#define MIN_COLS 80
#define MIN_ROWS 24
#define MAX_DEPTH 8
#define KEY_ESC 27
#define CTRL_KEY(c) ((c) & 0x1f)

/* The terminal (term.c). */
struct ui_term {
    SCREEN *screen;
    bool utf8, color;
    char theme[128];                /* the theme chosen */
};

/* The three windows and what is to be drawn again (frame.c draws). */
struct ui_frame {
    WINDOW *top, *body, *bottom;    /* NULL while the terminal is too small */
    bool too_small;
    bool dirty_top, dirty_body, dirty_bottom;
    bool full;                      /* the body is drawn anew */
    bool clear;                     /* repaint the terminal (Ctrl-L, resize) */
    bool urgent;                    /* a key changed it: draw at once */
};

/* Open screens, the top one last. */
struct ui_stack {
    struct screen s[MAX_DEPTH];
    int depth;
    int pops;                       /* ui_pop()s to do after the action */
};

/* The bottom line, unless it shows the top screen's hints. */
struct ui_line {
    char msg[512];                  /* until the next key */
    enum role msg_role;
    /* the warnings and errors, in full: entry i at i % UI_LOG_MAX */
    struct ui_log_entry {
        char *text;
        enum role role;
    } log[UI_LOG_MAX];
    size_t nlog;
    char *system_warnings;          /* ui_set_system_warnings, or NULL */
    bool searching;                 /* '/' typed: keys go to the query */
    char query[64];
    bool search_miss;               /* nothing matches the query */
    bool confirm_quit;              /* "Quit evmbench?" waits for its answer */
    bool prompting;                 /* a line of text is typed (ui_prompt) */
    char prompt_label[160], prompt_text[64];
    void (*prompt_done)(struct ui *ui, const char *text);
    void (*confirm_done)(struct ui *ui, bool yes);  /* ui_confirm: one key */
};

/* When frames are drawn (ui.c) and what they send (frame.c): what a key,
 * a resize or Ctrl-L changed at once; everything else (the run's values
 * and events, its clock, its messages, the demo) at most once an
 * interval, and only the lines that fit in the byte budget of the last
 * second (pace.h); the others wait. */
struct ui_live {
    double interval;                /* seconds between such frames at least */
    double last;                    /* when the last frame was drawn */
    struct pace pace;               /* the bytes those frames sent */
    struct pace_costs costs;        /* of this terminal's sequences */
    int resume;                     /* the body row the next frame sends
                                     * first: the first one that waited */
};

enum demo_phase { DEMO_OFF, DEMO_RUN, DEMO_RESULT, DEMO_COMPARE, DEMO_SUMMARY };

/* --demo, --check (demo.c, which the loop drives as ticker_demo). */
struct demo {
    enum demo_phase phase;
    struct profile profile;
    size_t next;                    /* the profile's bench to run next */
    size_t bench;                   /* the profile's bench running or shown */
    size_t compared;                /* its metrics compared so far */
    size_t pass_first;              /* the job's first batch of this pass */
    double until;                   /* when the phase ends */
    bool quick_before;              /* the budget to restore when it stops */
    bool once;                      /* --check: one pass, no comparisons, the
                                     * verdict at the end */
};

/* The board-match caveat (caveat.c), decided for reference board `key`. */
struct ui_caveat {
    bool decided;
    char *key;                      /* the reference board it was decided for */
    char *name;                     /* its name; NULL: the board matches */
    char *full;                     /* board_match_warning(); NULL: it matches */
    char line[160];                 /* the last line given out */
};

struct ui {
    struct app *app;
    const struct ui_options *opt;
    struct settings own_settings, *settings;
    bool quit;
    int exit_code;
    int check_status;           /* ui_set_check_status: --check's verdict */
    struct ui_term term;
    struct ui_frame frame;
    struct ui_stack stack;
    struct ui_line line;
    struct ui_live live;
    struct job job;
    struct demo demo;
    struct ui_caveat caveat;
};

/* --- ui.c -------------------------------------------------------------- */

/* Closes the top screen now (ui_pop waits for the action to end). */
void ui_pop_now(struct ui *ui);
/* The top screen; NULL when none is open. */
struct screen *ui_top(const struct ui *ui);

/* --- caveat.c --------------------------------------------------------- */

void ui_caveat_free(struct ui *ui);

/* --- frame.c ----------------------------------------------------------- */

/* Draws what is dirty (the title, the top screen's body, the bottom line;
 * all of it after a clear) and sends it. Unless a key asked for it or
 * the terminal is repainted, only the changed lines that fit in the line
 * budget are sent and recorded in it; the others stay dirty for the
 * next frame. Then ui->live.last is the time it was sent. */
void frame_draw(struct ui *ui, double now);

/* --- term.c ------------------------------------------------------------ */

/* The self-pipe that the stop signals (common/stopsig.h: SIGINT,
 * SIGTERM, SIGHUP, SIGQUIT, SIGUSR1 ...) and SIGWINCH write to, each but
 * one ignored from the start: 0, or -1 (errno set) when no pipe can be
 * made. A stop signal ends the loop: the batch is cancelled (its worker's
 * process group killed, its work directory removed), the terminal
 * restored, the program's status 128 + the signal. */
int signals_install(void);
void signals_restore(void);
/* The descriptor to poll, and reading it empty. */
int signals_fd(void);
void signals_drain(void);
/* The first stop signal caught (0: none). */
int signals_quit(void);
/* True once after each SIGWINCH. */
bool signals_take_winch(void);

/* True when the locale's character set is UTF-8. */
bool term_locale_utf8(void);
/* Takes over the terminal (newterm, modes, colours, theme); false with
 * the reason it cannot added to d. Until term_stop() a fatal error
 * restores the terminal first. */
bool term_start(struct ui *ui, struct diag *d);
/* "No key": a sequence that is no key of ours, read and dropped. */
#define TERM_KEY_NONE (-1)
/* After an Esc byte: decodes the rest of an escape sequence that ncurses
 * did not know (ESC [ params final, ESC O final: arrows, Home, End, PgUp,
 * PgDn, Ins, Del, F1-F12, Shift-Tab, with or without modifiers). next()
 * gives the following bytes (-1: none came; `first` is the byte right
 * after the Esc). Returns the key; KEY_ESC when no byte followed; KEY_ESC
 * and *again = the byte when Esc was followed by another key; or
 * TERM_KEY_NONE for an unknown or cut-short sequence, which is no Esc. */
int term_decode_escape(int (*next)(void *ctx, bool first), void *ctx, int *again);
/* term_decode_escape on the terminal's input, after wgetch gave KEY_ESC;
 * a following key is pushed back (ungetch). */
int term_read_escape(void);
void term_stop(struct ui *ui);
/* (Re)creates the three windows for the current size. */
void term_layout(struct ui *ui);
/* After SIGWINCH: the new size from the terminal, then term_layout. */
void term_resize(struct ui *ui);
/* Applies theme ui->term.theme ("default", "mono", a path); a monochrome
 * terminal always gets mono. A bad file falls back to the built-in theme
 * and says where it is bad. */
void term_load_theme(struct ui *ui);

#endif
