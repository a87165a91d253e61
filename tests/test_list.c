/* test_list.c - the screens' lists (screens/list.h): positions, the rows
 * a list shows, the motion keys and the search, on plain numbers. */
#include "config.h"

#include <string.h>

#include "screens/list.h"
#include "suites.h"
#include "common/util.h"

/* --- positions ------------------------------------------------------------ */

START_TEST(list_pos)
{
    struct list_pos p = { 0, 0 };
    for (int i = 0; i < 3; i++)
        list_pos_move(&p, 30, 10, ACT_DOWN);
    ck_assert_uint_eq(p.sel, 3);
    ck_assert_uint_eq(p.top, 0);
    list_pos_move(&p, 30, 10, ACT_PAGE_DOWN);
    ck_assert_uint_eq(p.sel, 12);
    ck_assert_uint_eq(p.top, 9);
    list_pos_move(&p, 30, 10, ACT_LAST);
    ck_assert_uint_eq(p.sel, 29);
    ck_assert_uint_eq(p.top, 20);
    list_pos_move(&p, 30, 10, ACT_DOWN);
    ck_assert_uint_eq(p.sel, 29);
    list_pos_move(&p, 30, 10, ACT_FIRST);
    ck_assert_uint_eq(p.sel, 0);
    ck_assert_uint_eq(p.top, 0);
    ck_assert(!list_pos_move(&p, 30, 10, ACT_RUN));
    /* the list shrank (or the window grew) */
    p.sel = 25;
    p.top = 20;
    list_pos_clamp(&p, 5, 10);
    ck_assert_uint_eq(p.sel, 4);
    ck_assert_uint_eq(p.top, 0);
    list_pos_move(&p, 0, 10, ACT_DOWN);
    ck_assert_uint_eq(p.sel, 0);
    /* scrolling only */
    p.sel = p.top = 0;
    list_pos_scroll(&p, 30, 10, ACT_LAST);
    ck_assert_uint_eq(p.top, 20);
    list_pos_scroll(&p, 30, 10, ACT_PAGE_DOWN);
    ck_assert_uint_eq(p.top, 20);
    list_pos_scroll(&p, 5, 10, ACT_DOWN);
    ck_assert_uint_eq(p.top, 0);
}
END_TEST

/* --- a screen's list ------------------------------------------------------ */

/* The rows shown: the body's less what is above and below, one less for
 * the marker only when the items do not fit, never fewer than one. */
START_TEST(visible_rows)
{
    struct list plain = { .head = 3 }, framed = { .head = 3, .foot = 4 };
    struct list marked = { .head = 2, .marker = true };
    ck_assert_uint_eq(list_visible(&plain, 100, 21), 18);
    ck_assert_uint_eq(list_visible(&framed, 100, 21), 14);
    ck_assert_uint_eq(list_visible(&marked, 100, 21), 18);     /* the marker's row */
    ck_assert_uint_eq(list_visible(&marked, 20, 21), 18);
    ck_assert_uint_eq(list_visible(&marked, 19, 21), 19);      /* all fit: no marker */
    ck_assert_uint_eq(list_visible(&marked, 5, 21), 19);
    ck_assert_uint_eq(list_visible(&plain, 100, 3), 1);        /* no room at all */
    ck_assert_uint_eq(list_visible(&plain, 100, 0), 1);
    ck_assert_uint_eq(list_visible(&marked, 100, 3), 1);       /* one row: no marker */
    ck_assert_uint_eq(list_visible(&marked, 100, 4), 1);       /* two: the marker takes one */
}
END_TEST

/* The selection is kept on the list and in view when the list shrinks or
 * the window does; a text's first line stays where a page still fills. */
START_TEST(clamps)
{
    struct list l = { .head = 2 };
    l.pos = (struct list_pos){ .sel = 40, .top = 35 };
    list_clamp(&l, 30, 12);                 /* 30 items, 10 rows */
    ck_assert_uint_eq(l.pos.sel, 29);
    ck_assert_uint_eq(l.pos.top, 20);
    list_clamp(&l, 30, 7);                  /* the window shrank: 5 rows */
    ck_assert_uint_eq(l.pos.sel, 29);
    ck_assert_uint_eq(l.pos.top, 25);
    l.pos.sel = 3;
    list_clamp(&l, 30, 7);                  /* the selection above the rows shown */
    ck_assert_uint_eq(l.pos.top, 3);
    list_clamp(&l, 0, 7);                   /* emptied */
    ck_assert_uint_eq(l.pos.sel, 0);
    ck_assert_uint_eq(l.pos.top, 0);

    struct list t = { .text = true };
    t.pos = (struct list_pos){ .sel = 50, .top = 50 };
    list_clamp(&t, 30, 10);
    ck_assert_uint_eq(t.pos.top, 20);
    ck_assert_uint_eq(t.pos.sel, 20);       /* a text's sel is its top */
    t.pos = (struct list_pos){ .sel = 5, .top = 5 };
    list_clamp(&t, 30, 10);
    ck_assert_uint_eq(t.pos.top, 5);
    list_clamp(&t, 8, 10);                  /* it all fits now */
    ck_assert_uint_eq(t.pos.top, 0);
}
END_TEST

/* A list with a selection moves it; a text scrolls; any other action
 * moves nothing. */
START_TEST(keys_move_or_scroll)
{
    struct list l = { .head = 3 };
    ck_assert(list_key(&l, 30, 13, ACT_PAGE_DOWN));       /* 10 rows: a page of 9 */
    ck_assert_uint_eq(l.pos.sel, 9);
    ck_assert_uint_eq(l.pos.top, 9);
    ck_assert(list_key(&l, 30, 13, ACT_UP));
    ck_assert_uint_eq(l.pos.sel, 8);
    ck_assert_uint_eq(l.pos.top, 8);
    ck_assert(list_key(&l, 30, 13, ACT_LAST));
    ck_assert_uint_eq(l.pos.sel, 29);
    ck_assert_uint_eq(l.pos.top, 20);
    ck_assert(!list_key(&l, 30, 13, ACT_ENTER));
    ck_assert(!list_key(&l, 30, 13, ACT_SEARCH));
    ck_assert_uint_eq(l.pos.sel, 29);
    ck_assert_uint_eq(l.pos.top, 20);

    struct list t = { .text = true, .marker = true };
    ck_assert(list_key(&t, 30, 10, ACT_DOWN));             /* 9 rows and the marker */
    ck_assert_uint_eq(t.pos.top, 1);
    ck_assert(list_key(&t, 30, 10, ACT_LAST));
    ck_assert_uint_eq(t.pos.top, 21);
    ck_assert_uint_eq(t.pos.sel, 21);
    ck_assert(list_key(&t, 30, 10, ACT_DOWN));             /* the end: stays */
    ck_assert_uint_eq(t.pos.top, 21);
    ck_assert(!list_key(&t, 30, 10, ACT_RUN));
}
END_TEST

/* --- search -------------------------------------------------------------- */

/* '/' then n and p: n looks forward from the one after the selected, p
 * backward from the one before it, both round the list. */
START_TEST(search_order)
{
    size_t order[5];
    for (size_t k = 0; k < 5; k++)
        order[k] = list_search_index(1, k, 0, 5);
    ck_assert(order[0] == 1 && order[1] == 2 && order[4] == 0);
    ck_assert_uint_eq(list_search_index(1, 1, 1, 5), 2);
    ck_assert_uint_eq(list_search_index(1, 4, 1, 5), 0);
    ck_assert_uint_eq(list_search_index(1, 5, 1, 5), 1);     /* round to itself */
    ck_assert_uint_eq(list_search_index(1, 1, -1, 5), 0);
    ck_assert_uint_eq(list_search_index(1, 2, -1, 5), 4);
    ck_assert_uint_eq(list_search_index(1, 5, -1, 5), 1);
    ck_assert_uint_eq(list_search_index(0, 1, -1, 1), 0);
    ck_assert_uint_eq(list_search_index(3, 0, -1, 0), 0);    /* an empty list */
}
END_TEST

static const char *const fruit[] = {
    "Apple", "banana", "cherry", "Blackberry", "date", "apricot", "fig",
};

/* The screens' match: item i's text contains q. */
static bool fruit_matches(void *ctx, size_t i, const char *q)
{
    const char *const *names = ctx;
    return list_text_matches(names[i], q);
}

static bool search(struct list *l, const char *q, int dir)
{
    return list_search(l, ARRAY_SIZE(fruit), 5, dir, fruit_matches, (void *)fruit, q);
}

/* Typing looks from the selected item on; n and p step on from it and
 * wrap round the end; the item found is scrolled into view. */
START_TEST(search_wraps)
{
    struct list l = { .head = 2 };                  /* 3 rows of 7 items */
    ck_assert(search(&l, "AP", 0));                 /* Apple, the selected one */
    ck_assert_uint_eq(l.pos.sel, 0);
    ck_assert(search(&l, "ap", 1));                 /* n: apricot */
    ck_assert_uint_eq(l.pos.sel, 5);
    ck_assert_uint_eq(l.pos.top, 3);                /* into view */
    ck_assert(search(&l, "ap", 1));                 /* n again: round to Apple */
    ck_assert_uint_eq(l.pos.sel, 0);
    ck_assert_uint_eq(l.pos.top, 0);
    ck_assert(search(&l, "ap", -1));                /* p from Apple: back round */
    ck_assert_uint_eq(l.pos.sel, 5);
    ck_assert(search(&l, "berry", -1));             /* p: Blackberry before apricot */
    ck_assert_uint_eq(l.pos.sel, 3);
    ck_assert(search(&l, "berry", 1));              /* n: the only other match wraps */
    ck_assert_uint_eq(l.pos.sel, 3);                /* ... back to itself */
    ck_assert(search(&l, "date", 0));
    ck_assert_uint_eq(l.pos.sel, 4);
}
END_TEST

/* No match: false, and the selection and the rows shown stay. */
START_TEST(search_no_match)
{
    struct list l = { .head = 2, .pos = { .sel = 4, .top = 2 } };
    ck_assert(!search(&l, "kiwi", 0));
    ck_assert(!search(&l, "kiwi", 1));
    ck_assert(!search(&l, "kiwi", -1));
    ck_assert_uint_eq(l.pos.sel, 4);
    ck_assert_uint_eq(l.pos.top, 2);
    ck_assert_uint_eq(list_find(4, ARRAY_SIZE(fruit), 1, fruit_matches, (void *)fruit,
                                "kiwi"), ARRAY_SIZE(fruit));
    /* an empty list matches nothing, not even an empty query */
    struct list e = { 0 };
    ck_assert(!list_search(&e, 0, 10, 0, fruit_matches, (void *)fruit, ""));
    ck_assert_uint_eq(list_find(0, 0, 1, fruit_matches, (void *)fruit, ""), 0);
}
END_TEST

START_TEST(text_matches)
{
    ck_assert(list_text_matches("Memory Bandwidth", "bandw"));
    ck_assert(list_text_matches("Memory Bandwidth", "MEMORY"));
    ck_assert(list_text_matches("Memory Bandwidth", "th"));
    ck_assert(!list_text_matches("Memory Bandwidth", "widths"));
    ck_assert(list_text_matches("anything", ""));
    ck_assert(list_text_matches(NULL, ""));
    ck_assert(!list_text_matches(NULL, "a"));
}
END_TEST

Suite *suite_list(void)
{
    Suite *s = suite_create("list");
    TCase *tc = tcase_create("position");
    tcase_add_test(tc, list_pos);
    tcase_add_test(tc, visible_rows);
    tcase_add_test(tc, clamps);
    tcase_add_test(tc, keys_move_or_scroll);
    suite_add_tcase(s, tc);

    tc = tcase_create("search");
    tcase_add_test(tc, search_order);
    tcase_add_test(tc, search_wraps);
    tcase_add_test(tc, search_no_match);
    tcase_add_test(tc, text_matches);
    suite_add_tcase(s, tc);
    return s;
}
