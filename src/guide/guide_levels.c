/* guide_levels.c - heading levels, from numbers, rst styles or their order. */
#include "config.h"
#include "guide/guide_impl.h"

#include <string.h>


/* The document title: "Linux 12.00.00 Performance Guide". */
static bool is_title_text(const char *s)
{
    return strstr(s, "Performance Guide") != NULL;
}

static size_t num_depth(const char *num)
{
    size_t n = 1;
    for (; *num; num++)
        n += *num == '.';
    return n;
}

/* True when the headings are numbered but the numbers say nothing about
 * nesting (every heading "2.2."). */
static bool numbers_flat(struct guide_doc *d)
{
    const char *first = NULL;
    size_t same = 0, total = 0;
    for (size_t i = 0; i < d->nev; i++) {
        struct guide_event *e = &d->ev[i];
        if (e->kind != EV_HEADING || !e->num || is_title_text(e->text))
            continue;
        if (!first)
            first = e->num;
        total++;
        same += !strcmp(first, e->num);
    }
    return total > 2 && same == total;
}

static void levels_numbered(struct guide_doc *d)
{
    size_t base = 0, min = 99;
    for (size_t i = 0; i < d->nev; i++) {
        struct guide_event *e = &d->ev[i];
        if (e->kind == EV_HEADING && e->num) {
            size_t dep = num_depth(e->num);
            if (is_title_text(e->text) && dep > base)
                base = dep;
            if (!is_title_text(e->text) && dep < min)
                min = dep;
        }
    }
    if (base == 0 || base >= min)
        base = min == 99 ? 0 : min - 1;
    int last = 0;
    for (size_t i = 0; i < d->nev; i++) {
        struct guide_event *e = &d->ev[i];
        if (e->kind != EV_HEADING)
            continue;
        if (is_title_text(e->text)) {
            e->level = 0;
        } else if (e->num) {
            size_t dep = num_depth(e->num);
            e->level = dep > base ? (int)(dep - base) : 1;
            last = e->level;
        } else {
            e->level = last + 1;
        }
    }
}

/* Next event after i that is not a blank line. */
static struct guide_event *next_content(struct guide_doc *d, size_t i)
{
    for (size_t j = i + 1; j < d->nev; j++)
        if (d->ev[j].kind != EV_TEXT || d->ev[j].text[0])
            return &d->ev[j];
    return NULL;
}

static const char *last_word(const char *s)
{
    const char *sp = strrchr(s, ' ');
    return sp ? sp + 1 : s;
}

/* Headings without usable numbers (every one "2.2." or none at all):
 * - a heading followed directly by another heading is a parent: level 1,
 *   or one below the parent right before it;
 *   a well-known top-level title ("Ethernet", "CRYPTO Driver") is level 1;
 * - a heading ending in the same word as the current level-1 heading
 *   ("EMMC Performance" after "IPC performance") is its sibling;
 * - any other heading is a sibling of the previous one, or its child
 *   when the previous one is a level-1 parent or top-level title. */
static void levels_inferred(struct guide_doc *d)
{
    struct guide_event *prev = NULL, *top = NULL, *last_num = NULL;
    bool prev_parent = false, prev_container = false;
    bool seen = false;
    for (size_t i = 0; i < d->nev; i++) {
        struct guide_event *e = &d->ev[i];
        if (e->kind != EV_HEADING)
            continue;
        struct guide_event *nx = next_content(d, i);
        if (is_title_text(e->text) || (!seen && !prev && i == 0 && nx &&
                                       strcasestr(e->text, "performance") &&
                                       !guide_re_match(RE_TOP_LEVEL, e->text))) {
            e->level = 0;
            seen = true;
            continue;
        }
        seen = true;
        bool parent = nx && nx->kind == EV_HEADING && !is_title_text(nx->text);
        bool known = guide_re_match(RE_TOP_LEVEL, e->text);
        if (!e->num && last_num) {
            /* an unmarked heading in a numbered guide sits below the last
             * numbered one ("TCP Bidirectional Throughput") */
            e->level = last_num->level + 1;
            prev = e;
            prev_parent = prev_container = false;
            continue;
        }
        if (prev && prev_parent && !known) {
            e->level = prev->level + 1;
        } else if (known || parent) {
            e->level = 1;
        } else if (top && !strcasecmp(last_word(top->text), last_word(e->text)) &&
                   strlen(last_word(e->text)) > 3) {
            e->level = 1;
        } else if (prev) {
            e->level = prev->level == 1 && prev_container ? 2 : prev->level;
        } else {
            e->level = 1;
        }
        if (e->level == 1)
            top = e;
        if (e->num)
            last_num = e;
        prev_container = e->level == 1 && (known || parent);
        prev_parent = parent;
        prev = e;
    }
}

/* rst: the style rank; a style used once, first, is the document title.
 * A rubric sits one level below the last section title, as a sibling of
 * the rubrics before it in that section. */
static void levels_rst(struct guide_doc *d)
{
    size_t first_uses = 0;
    for (size_t i = 0; i < d->nev; i++)
        if (d->ev[i].kind == EV_HEADING && d->ev[i].style == 1 && !d->ev[i].rubric)
            first_uses++;
    int shift = first_uses == 1 ? 1 : 0, section = 0;
    for (size_t i = 0; i < d->nev; i++) {
        struct guide_event *e = &d->ev[i];
        if (e->kind != EV_HEADING)
            continue;
        if (e->rubric) {
            e->level = section + 1;
            continue;
        }
        e->level = is_title_text(e->text) || (shift && e->style == 1) ? 0 : e->style - shift;
        if (e->level < 0)
            e->level = 0;
        section = e->level;
    }
}

/* Markdown "#"/setext headings: their marked level, less one when a single
 * top-level heading is the title; an unmarked (numbered) heading sits
 * below the last marked one. */
static void levels_marked(struct guide_doc *d)
{
    size_t top = 0;
    for (size_t i = 0; i < d->nev; i++)
        top += d->ev[i].kind == EV_HEADING && d->ev[i].style == 1;
    int shift = top == 1 ? 1 : 0, last = 0;
    for (size_t i = 0; i < d->nev; i++) {
        struct guide_event *e = &d->ev[i];
        if (e->kind != EV_HEADING)
            continue;
        if (is_title_text(e->text) || (shift && e->style == 1))
            e->level = 0;
        else if (e->style)
            e->level = e->style - shift;
        else
            e->level = last + 1;
        if (e->style)
            last = e->level;
    }
}

void guide_levels_assign(struct guide_doc *d, enum guide_heading_ranks how)
{
    bool numbered = false, marked = false;
    for (size_t i = 0; i < d->nev; i++) {
        numbered |= d->ev[i].kind == EV_HEADING && d->ev[i].num != NULL;
        marked |= d->ev[i].kind == EV_HEADING && d->ev[i].style > 0;
    }
    if (how == HEADINGS_ADORNED)
        levels_rst(d);
    else if (how == HEADINGS_MARKED && marked)
        levels_marked(d);
    else if (numbered && !numbers_flat(d))
        levels_numbered(d);
    else
        levels_inferred(d);
}
