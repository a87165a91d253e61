/* ui.h - the curses front end. The only entry point the CLI uses.
 *
 * ui_main() takes over the terminal, runs the screens until the user quits
 * and restores the terminal on every exit path (normal, SIGINT, SIGTERM,
 * SIGHUP, a fatal error). Only screens/ includes <curses.h>. */
#ifndef EVMBENCH_UI_H
#define EVMBENCH_UI_H

#include "app.h"

struct ui_options {
    const char *run;        /* open the live screen of this benchmark first */
    double updates_per_s;   /* live refresh limit; 0 = 4 per second */
};

/* Returns the process exit status (0, or 1 when the terminal is unusable:
 * not a tty, too small with no way to wait, unknown TERM). */
int ui_main(struct app *a, const struct ui_options *opt);

#endif
