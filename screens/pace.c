/* pace.c - the byte budget of the terminal line (pace.h). */
#include "config.h"
#include "screens/pace.h"

#include <string.h>

void pace_init(struct pace *p, long limit, double window)
{
    memset(p, 0, sizeof *p);
    p->limit = limit;
    p->window = window;
}

void pace_record(struct pace *p, double at, long bytes)
{
    if (bytes <= 0)
        return;
    if (p->n == PACE_RING) {        /* the oldest is dropped */
        p->head = (p->head + 1) % PACE_RING;
        p->n--;
    }
    p->sent[(p->head + p->n) % PACE_RING] = (struct pace_frame){ at, bytes };
    p->n++;
}

long pace_sent(const struct pace *p, double now)
{
    long sum = 0;
    for (size_t i = 0; i < p->n; i++) {
        const struct pace_frame *f = &p->sent[(p->head + i) % PACE_RING];
        if (f->at > now - p->window)
            sum += f->bytes;
    }
    return sum;
}

long pace_room(const struct pace *p, double now)
{
    long room = p->limit - pace_sent(p, now);
    return room > 0 ? room : 0;
}

double pace_next_room(const struct pace *p, double now)
{
    for (size_t i = 0; i < p->n; i++) {
        const struct pace_frame *f = &p->sent[(p->head + i) % PACE_RING];
        if (f->at > now - p->window)
            return f->at + p->window;
    }
    return now;
}

/* What sending cells [from, to] of now costs after a cell in attribute
 * *attr (updated): each character, and each change of attribute. */
static long run_cost(const unsigned long *now, int from, int to, unsigned long mask,
                     unsigned long *attr, const struct pace_costs *c)
{
    long cost = 0;
    for (int i = from; i <= to; i++) {
        unsigned long a = now[i] & mask, ch = now[i] & ~mask;
        if (a != *attr)
            cost += c->attr;
        *attr = a;
        cost += ch > 127 ? 3 : 1;
    }
    return cost;
}

long pace_line_cost(const unsigned long *now, const unsigned long *was, int n,
                    unsigned long attr_mask, const struct pace_costs *c)
{
    int i = 0;
    while (i < n && now[i] == was[i])
        i++;
    if (i == n)
        return 0;
    /* the attribute in force is unknown: it changes at the first cell */
    unsigned long attr = ~0UL;
    long cost = c->move;
    for (;;) {
        int end = i;                /* the changed run [i, end] */
        while (end + 1 < n && now[end + 1] != was[end + 1])
            end++;
        cost += run_cost(now, i, end, attr_mask, &attr, c);
        int next = end + 1;         /* the next change, if any */
        while (next < n && now[next] == was[next])
            next++;
        if (next == n)
            break;
        /* the unchanged cells between: rewritten or jumped over, the
         * cheaper (curses does the same) */
        unsigned long a = attr;
        long rewrite = run_cost(now, end + 1, next - 1, attr_mask, &a, c);
        if (rewrite < c->move) {
            cost += rewrite;
            attr = a;
        } else {
            cost += c->move;
        }
        i = next;
    }
    if (attr)
        cost += c->attr;            /* back to normal */
    return cost;
}
