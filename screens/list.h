/* list.h - the screens' lists: which item is selected, which is the first
 * one shown, how many rows show, the motion keys and the search ('/', n,
 * p). It needs no terminal: the screens give it the rows of their body
 * window (ui_body_rows), the tests plain numbers.
 *
 * Two kinds of list: one with a selection (the menu, the boards, the
 * results), which the motion keys move, and a text (help, the system,
 * the full text, a comparison's boards), which they scroll; a text's
 * `sel` is its first line shown. */
#ifndef EVMBENCH_LIST_H
#define EVMBENCH_LIST_H

#include <stdbool.h>
#include <stddef.h>

#include "screens/actions.h"

/* --- positions: a number of items in a number of rows ----------------- */

/* The selected item and the first visible one. */
struct list_pos {
    size_t sel, top;
};
/* Applies a motion action (UP, DOWN, PAGE_UP, PAGE_DOWN, FIRST, LAST) to
 * a list of `count` items with `visible` rows. Returns false for other
 * actions. `top` always keeps `sel` visible. */
bool list_pos_move(struct list_pos *p, size_t count, size_t visible, enum action a);
/* Keeps sel < count and sel visible (after a resize). */
void list_pos_clamp(struct list_pos *p, size_t count, size_t visible);
/* A view with no selection (help, run): scrolls `top` only, and `sel`
 * follows it. */
bool list_pos_scroll(struct list_pos *p, size_t count, size_t visible, enum action a);

/* --- a screen's list ------------------------------------------------------ */

/* A list as a screen shows it: its position, and where it sits in the
 * body window. A screen sets head, foot, marker and text once (when it
 * opens) and passes the item count and the body's rows to each call, as
 * they are at that moment. */
struct list {
    struct list_pos pos;
    int head, foot;     /* the body's rows above and below the list */
    bool marker;        /* the last row says where the rest is when not all fit */
    bool text;          /* no selection: the motion keys scroll it */
};

/* The rows the list shows: the body's less head and foot, one less for
 * the marker when the items do not all fit; at least 1. */
size_t list_visible(const struct list *l, size_t count, int body_rows);
/* list_pos_clamp at the rows shown; a text's `sel` becomes its `top`. */
void list_clamp(struct list *l, size_t count, int body_rows);
/* A motion action: list_pos_move, or list_pos_scroll for a text, at the
 * rows shown. False (and nothing moved) for any other action. */
bool list_key(struct list *l, size_t count, int body_rows, enum action a);

/* --- search -------------------------------------------------------------- */

/* Whether item i matches the query q (ctx: the screen's). */
typedef bool list_match_fn(void *ctx, size_t i, const char *q);

/* The k-th item (k = 0 .. n-1, or n with dir != 0, back at the start)
 * that a search in direction dir looks at, of n items with `sel`
 * selected: from the selected one on (dir 0), from the one after it on
 * (dir 1, 'n') or from the one before it back (dir -1, 'p'), round the
 * list. 0 for an empty list. */
size_t list_search_index(size_t sel, size_t k, int dir, size_t n);
/* The first item in that order for which match(ctx, i, q) holds; `count`
 * when none does (or the list is empty). */
size_t list_find(size_t sel, size_t count, int dir, list_match_fn *match, void *ctx,
                 const char *q);
/* list_find from the selected item; the item found becomes the selected
 * one, scrolled into view. False, and nothing moved, when none matches. */
bool list_search(struct list *l, size_t count, int body_rows, int dir,
                 list_match_fn *match, void *ctx, const char *q);
/* Whether text contains q, ignoring case. An empty q is in any text,
 * even a NULL one; nothing else is in a NULL text. */
bool list_text_matches(const char *text, const char *q);

#endif
