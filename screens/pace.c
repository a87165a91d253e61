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

long pace_line_cost(const unsigned long *now, const unsigned long *was, int n,
                    unsigned long attr_mask, const struct pace_costs *c)
{
    int first = 0, last = n - 1;
    while (first < n && now[first] == was[first])
        first++;
    if (first == n)
        return 0;
    while (last > first && now[last] == was[last])
        last--;
    long cost = c->move + c->attr;  /* the attribute in force is unknown */
    for (int i = first; i <= last; i++) {
        unsigned long ch = now[i] & ~attr_mask;
        cost += ch > 127 ? 3 : 1;
        if (i > first && (now[i] & attr_mask) != (now[i - 1] & attr_mask))
            cost += c->attr;
    }
    if (now[last] & attr_mask)
        cost += c->attr;            /* back to normal */
    return cost;
}
