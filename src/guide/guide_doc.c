/* guide_doc.c - building and freeing the event list of a guide. */
#include "config.h"
#include "guide/guide_impl.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

void guide_doc_warn(struct guide_doc *d, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *m = xvasprintf(fmt, ap);
    va_end(ap);
    diag_add(d->dg, "%s:%d: %s", d->name, line, m);
    free(m);
}

struct guide_event *guide_doc_add(struct guide_doc *d, enum guide_event_kind kind, int line,
                                  char *text)
{
    xgrow(&d->ev, &d->evcap, d->nev + 1, sizeof *d->ev);
    struct guide_event *e = &d->ev[d->nev++];
    memset(e, 0, sizeof *e);
    e->kind = kind;
    e->line = line;
    e->text = text;
    return e;
}

void guide_doc_add_table(struct guide_doc *d, struct guide_table *t)
{
    if (t->nhead)
        guide_doc_add(d, EV_TABLE, t->line, NULL)->tab = t;
    else
        guide_doc_table_free(t);
}

void guide_doc_free(struct guide_doc *d)
{
    for (size_t i = 0; i < d->nev; i++) {
        free(d->ev[i].text);
        free(d->ev[i].num);
        free(d->ev[i].command);
        guide_doc_table_free(d->ev[i].tab);
    }
    free(d->ev);
    free(d->lines);
}

struct guide_table *guide_doc_table_new(int line)
{
    struct guide_table *t = xcalloc(1, sizeof *t);
    t->nkeys = -1;
    t->line = line;
    return t;
}

void guide_doc_table_add_row(struct guide_table *t, char **cells, size_t n, int line)
{
    xgrow(&t->rows, &t->caprows, t->nrows + 1, sizeof *t->rows);
    t->rows[t->nrows++] = (struct guide_row){ cells, n, line };
}

void guide_doc_table_free(struct guide_table *t)
{
    if (!t)
        return;
    guide_text_strv_free(t->head, t->nhead);
    for (size_t r = 0; r < t->nrows; r++)
        guide_text_strv_free(t->rows[r].cells, t->rows[r].n);
    free(t->rows);
    free(t->title);
    free(t);
}
