/* list.c - the screens' lists: positions, the rows shown, the motion keys
 * and the search. */
#include "config.h"
#include "screens/list.h"

#include <string.h>
#include <strings.h>

/* --- positions ------------------------------------------------------------ */

void list_pos_clamp(struct list_pos *p, size_t count, size_t visible)
{
    if (!visible)
        visible = 1;
    if (!count) {
        p->sel = p->top = 0;
        return;
    }
    if (p->sel >= count)
        p->sel = count - 1;
    if (p->top > p->sel)
        p->top = p->sel;
    if (p->sel >= p->top + visible)
        p->top = p->sel - visible + 1;
    if (p->top + visible > count)
        p->top = count > visible ? count - visible : 0;
}

bool list_pos_move(struct list_pos *p, size_t count, size_t visible, enum action a)
{
    size_t page = visible > 1 ? visible - 1 : 1;
    switch (a) {
    case ACT_UP:
        if (p->sel)
            p->sel--;
        break;
    case ACT_DOWN:
        if (p->sel + 1 < count)
            p->sel++;
        break;
    case ACT_PAGE_UP:
        p->sel = p->sel > page ? p->sel - page : 0;
        p->top = p->top > page ? p->top - page : 0;
        break;
    case ACT_PAGE_DOWN:
        p->sel += page;
        p->top += page;
        break;
    case ACT_FIRST:
        p->sel = 0;
        break;
    case ACT_LAST:
        p->sel = count ? count - 1 : 0;
        break;
    default:
        return false;
    }
    list_pos_clamp(p, count, visible);
    return true;
}

bool list_pos_scroll(struct list_pos *p, size_t count, size_t visible, enum action a)
{
    size_t page = visible > 1 ? visible - 1 : 1;
    size_t max_top = count > visible ? count - visible : 0;
    switch (a) {
    case ACT_UP:
        if (p->top)
            p->top--;
        break;
    case ACT_DOWN:
        p->top++;
        break;
    case ACT_PAGE_UP:
        p->top = p->top > page ? p->top - page : 0;
        break;
    case ACT_PAGE_DOWN:
        p->top += page;
        break;
    case ACT_FIRST:
        p->top = 0;
        break;
    case ACT_LAST:
        p->top = max_top;
        break;
    default:
        return false;
    }
    if (p->top > max_top)
        p->top = max_top;
    p->sel = p->top;
    return true;
}

/* --- a screen's list ------------------------------------------------------ */

size_t list_visible(const struct list *l, size_t count, int body_rows)
{
    int rows = body_rows - l->head - l->foot;
    if (l->marker && rows > 1 && count > (size_t)rows)
        rows--;
    return rows > 0 ? (size_t)rows : 1;
}

void list_clamp(struct list *l, size_t count, int body_rows)
{
    list_pos_clamp(&l->pos, count, list_visible(l, count, body_rows));
    if (l->text)
        l->pos.sel = l->pos.top;
}

bool list_key(struct list *l, size_t count, int body_rows, enum action a)
{
    size_t vis = list_visible(l, count, body_rows);
    return l->text ? list_pos_scroll(&l->pos, count, vis, a)
                   : list_pos_move(&l->pos, count, vis, a);
}

/* --- search -------------------------------------------------------------- */

size_t list_search_index(size_t sel, size_t k, int dir, size_t n)
{
    if (!n)
        return 0;
    k %= n;
    return dir < 0 ? (sel % n + n - k) % n : (sel + k) % n;
}

size_t list_find(size_t sel, size_t count, int dir, list_match_fn *match, void *ctx,
                 const char *q)
{
    for (size_t k = dir ? 1 : 0; count && k < count + (dir ? 1 : 0); k++) {
        size_t i = list_search_index(sel, k, dir, count);
        if (match(ctx, i, q))
            return i;
    }
    return count;
}

bool list_search(struct list *l, size_t count, int body_rows, int dir,
                 list_match_fn *match, void *ctx, const char *q)
{
    size_t i = list_find(l->pos.sel, count, dir, match, ctx, q);
    if (i >= count)
        return false;
    l->pos.sel = i;
    list_clamp(l, count, body_rows);
    return true;
}

bool list_text_matches(const char *text, const char *q)
{
    size_t n = strlen(q);
    if (!n)
        return true;
    for (const char *t = text; t && *t; t++)
        if (strncasecmp(t, q, n) == 0)
            return true;
    return false;
}
