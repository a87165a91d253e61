/* actions.h - what the user can ask for, and which keys ask for it.
 *
 * X-macro lists yield the enum, the names (for a future key config file)
 * and the descriptions the help screen prints: the actions below, and
 * between them those that open a screen, listed with their screen in
 * screens/screens.def. Key bindings are a data table {key, action}: the
 * global table applies on every screen, a screen may add its own table
 * that is searched first (see ui.h).
 *
 * Key codes are curses key codes (ints): plain characters, control
 * characters and KEY_* values. This header does not need <curses.h>, so
 * the tests can format the help text without a terminal. */
#ifndef EVMBENCH_ACTIONS_H
#define EVMBENCH_ACTIONS_H

#include <stdbool.h>
#include <stddef.h>

/* The actions in the order the help lists them: these, then those that
 * open a screen (screens.def), then ACTIONS_AFTER_SCREENS. */
#define ACTIONS_BEFORE_SCREENS \
    ACT(UP,        "Move the selection up") \
    ACT(DOWN,      "Move the selection down") \
    ACT(PAGE_UP,   "One page up") \
    ACT(PAGE_DOWN, "One page down") \
    ACT(FIRST,     "Go to the first line") \
    ACT(LAST,      "Go to the last line") \
    ACT(ENTER,     "Open the selected category or run the benchmark") \
    ACT(RUN,       "Run the selected benchmark (again)") \
    ACT(RUN_ALL,   "Category: run all its runnable benchmarks as one batch") \
    ACT(PROVIDER,  "Category: kernel or tool for the selected benchmark") \
    ACT(BACK,      "Back (stops a run); at home q quits, Esc and Left ask")

#define ACTIONS_AFTER_SCREENS \
    ACT(THEME,     "Next colour theme") \
    ACT(SEARCH,    "Search the list (Enter keeps, Esc cancels)") \
    ACT(NEXT,      "Next match, or the next metric (compare)") \
    ACT(PREV,      "Previous match, or the previous metric (compare)") \
    ACT(SORT,      "Results: sort by the next column") \
    ACT(FILTER,    "Results: only warn/off rows, or all") \
    ACT(BASELINE,  "Results: compare with a saved baseline or run") \
    ACT(SAVE_BASELINE, "Results: save these results as a named baseline (asks before replacing one)") \
    ACT(HISTORY,   "Results: every value (older runs, cancelled), or the latest of each") \
    ACT(INC,       "Settings: next value, or type a run target") \
    ACT(DEC,       "Settings: previous value") \
    ACT(CLEAR,     "Settings: clear the selected run target") \
    ACT(REDRAW,    "Redraw the whole screen")

enum action {
    ACT_NONE,
#define ACT(id, desc) ACT_##id,
    ACTIONS_BEFORE_SCREENS
#define SCREEN_ACTION(name, id, help) ACT(id, help)
#include "screens/screens.def"
    ACTIONS_AFTER_SCREENS
#undef ACT
    ACT_COUNT
};

struct binding {
    int key;
    enum action action;
};

/* The bindings every screen shares; ends with {0, ACT_NONE}. */
extern const struct binding action_bindings[];

/* "PAGE_DOWN" style name, or "NONE". */
const char *action_name(enum action a);
/* The help text of an action, "" for ACT_NONE. */
const char *action_description(enum action a);
/* The action named `name` (case-insensitive, '-' and '_' alike), or ACT_NONE. */
enum action action_from_name(const char *name);

/* The action bound to key: `local` (may be NULL) first, then the global
 * table. ACT_NONE when unbound. */
enum action action_for_key(const struct binding *local, int key);

/* Human name of a key: "Up", "PgDn", "Enter", "Esc", "Ctrl-L", "q".
 * Writes into buf (always NUL-terminated) and returns it. */
const char *action_key_name(int key, char *buf, size_t size);

/* Every key bound to `a` in `local` then the global table, joined by
 * ", " ("Up, k"). Returns the number of keys. */
size_t action_keys_text(const struct binding *local, enum action a,
                        char *buf, size_t size);

/* The first key bound to `a` (for the hint line), or 0 when none. */
int action_first_key(const struct binding *local, enum action a);

#endif
