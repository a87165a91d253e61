/* screen_details.c - 'w': the full text of what the other screens cut to
 * one line: the lines of the screen that opened it when it gives them
 * (screen_arg.text: the summary and the check give every line of theirs),
 * why a kernel failed or could not start, why a metric failed, the notes
 * of the runs, the warnings and errors said since the start (newest
 * first) and the system screen's warnings as it last read them (first
 * when it opened this screen), each wrapped to the width. */
#include "config.h"
#define EVMBENCH_UI_PRIVATE 1
#include "screens/ui.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

struct details {
    struct list scroll;     /* a text */
    char *own;              /* the opening screen's lines, or NULL */
};

struct dline {
    enum role role;
    char text[340];
};

struct dlines {
    struct dline *v;
    size_t n, cap;
    int width;
};

static const struct hint hints[] = {
    { ACT_BACK, "back" },
    { ACT_HELP, "help" },
    { ACT_NONE, NULL },
};

/* Adds `text` wrapped to the width, continuation lines indented. */
static void add_par(struct dlines *d, enum role r, const char *text, bool utf8)
{
    const char *rest = text;
    bool first = true;
    while (rest) {
        xgrow(&d->v, &d->cap, d->n + 1, sizeof *d->v);
        struct dline *l = &d->v[d->n++];
        char part[320];
        int indent = first ? 1 : 5;
        rest = fmt_wrap(part, sizeof part, rest, d->width - indent - 1, utf8);
        snprintf(l->text, sizeof l->text, "%*s%s", indent, "", part);
        l->role = r;
        first = false;
    }
}

static const char *fail_reason(const struct run_metric *m)
{
    return m->fail_reason ? m->fail_reason : "no reason given";
}

/* The failed metrics of run, those that failed for the same reason
 * together: "stream_c copy, scale, add: failed: ...". */
static void add_metric_failures(struct dlines *d, const struct kernel *k,
                                const struct run *run, bool utf8)
{
    bool *said = xcalloc(run->nmetrics ? run->nmetrics : 1, sizeof *said);
    for (size_t m = 0; m < run->nmetrics; m++) {
        if (!run->metrics[m].failed || said[m])
            continue;
        struct strbuf sb;
        sb_init(&sb);
        sb_addf(&sb, "%s ", k->name);
        for (size_t o = m; o < run->nmetrics; o++)
            if (run->metrics[o].failed && !said[o] &&
                strcmp(fail_reason(&run->metrics[o]), fail_reason(&run->metrics[m])) == 0) {
                sb_addf(&sb, "%s%s", o == m ? "" : ", ", run->metrics[o].def->id);
                said[o] = true;
            }
        sb_addf(&sb, ": failed: %s", fail_reason(&run->metrics[m]));
        add_par(d, ROLE_ERROR, sb.buf, utf8);
        sb_free(&sb);
    }
    free(said);
}

static void add_batch(struct dlines *d, const struct batch *b, bool utf8)
{
    for (size_t i = 0; b && i < b->n; i++) {
        const struct kernel *k = b->kernels[i];
        const struct run *run = b->runs[i];
        char *t;
        if (b->start_errors && b->start_errors[i]) {
            t = xasprintf("%s: could not start: %s", k->name, b->start_errors[i]);
            add_par(d, ROLE_ERROR, t, utf8);
            free(t);
        }
        if (!run)
            continue;
        if (run->finished && run->status != STATUS_OK && run->status != STATUS_CANCELLED) {
            t = xasprintf("%s: %s: %s", k->name, status_name(run->status),
                          run->error ? run->error : status_message(run->status));
            add_par(d, ROLE_ERROR, t, utf8);
            free(t);
        }
        add_metric_failures(d, k, run, utf8);
        for (size_t m = 0; m < run->nnotes; m++) {
            t = xasprintf("%s: note: %s", k->name, run->notes[m]);
            add_par(d, ROLE_NOTE, t, utf8);
            free(t);
        }
    }
}

/* Each line of text (NULL: none) as a paragraph of role r. */
static void add_lines(struct dlines *d, enum role r, const char *text, bool utf8)
{
    for (const char *p = text; p && *p;) {
        size_t len = strcspn(p, "\n");
        char *par = xstrndup(p, len);
        add_par(d, r, par, utf8);
        free(par);
        p += len;
        if (*p == '\n')
            p++;
    }
}

/* The system screen's warnings as it last read them, under a heading. */
static void add_system(struct dlines *d, const struct ui *ui, bool utf8)
{
    const char *w = ui_system_warnings(ui);
    if (!w || !*w)
        return;
    add_par(d, ROLE_HEADER, "The system screen's warnings (s), as it last read them:", utf8);
    add_lines(d, ROLE_WARN, w, utf8);
}

/* Every line of the text for a window `width` wide; free d->v. Opened
 * from the system screen, its warnings come first, else last. */
static void build(struct screen *s, struct dlines *d, int width)
{
    bool utf8 = ui_utf8(s->ui);
    const struct screen *opener = ui_below(s->ui, s);
    bool from_system = opener && opener->ops == &screen_system;
    memset(d, 0, sizeof *d);
    d->width = width;
    add_par(d, ROLE_HEADER, "Full text: failures, notes and warnings", utf8);
    size_t before = d->n;
    const struct details *v = s->priv;
    add_lines(d, ROLE_NORMAL, v->own, utf8);
    if (from_system)
        add_system(d, s->ui, utf8);
    add_batch(d, job_batch(ui_job(s->ui)), utf8);
    for (size_t i = ui_log_count(s->ui); i-- > 0;) {
        enum role r;
        const char *text = ui_log_text(s->ui, i, &r);
        if (!text)
            break;
        add_par(d, r, text, utf8);
    }
    if (!from_system)
        add_system(d, s->ui, utf8);
    if (d->n == before)
        add_par(d, ROLE_DIM, "nothing to show: no failure, note or warning so far", utf8);
}

static void details_enter(struct screen *s, const struct screen_arg *arg)
{
    struct details *v = xcalloc(1, sizeof *v);
    v->scroll = (struct list){ .text = true };
    v->own = arg->text ? xstrdup(arg->text) : NULL;
    s->priv = v;
}

static void details_leave(struct screen *s)
{
    struct details *v = s->priv;
    free(v->own);
    free(v);
}

static void details_draw(struct screen *s, WINDOW *w, bool full)
{
    struct details *v = s->priv;
    struct dlines d;
    (void)full;
    build(s, &d, getmaxx(w));
    size_t vis = list_visible(&v->scroll, d.n, ui_body_rows(s->ui));
    list_clamp(&v->scroll, d.n, ui_body_rows(s->ui));
    size_t top = v->scroll.pos.top;
    for (size_t i = top; i < d.n && i < top + vis; i++)
        widget_text(w, (int)(i - top), 0, getmaxx(w), d.v[i].role, d.v[i].text,
                    ui_utf8(s->ui));
    free(d.v);
}

static enum action details_action(struct screen *s, enum action a)
{
    struct details *v = s->priv;
    struct dlines d;
    build(s, &d, COLS);
    bool moved = list_key(&v->scroll, d.n, ui_body_rows(s->ui), a);
    free(d.v);
    if (moved) {
        ui_dirty(s->ui);
        return ACT_NONE;
    }
    if (a == ACT_DETAILS || a == ACT_ENTER)
        return ACT_BACK;    /* 'w' again closes it */
    return a;
}

const struct screen_ops screen_details = {
    .name = "details",
    .keys = NULL,
    .hints = hints,
    .enter = details_enter,
    .leave = details_leave,
    .draw = details_draw,
    .on_action = details_action,
};
