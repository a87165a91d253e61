/* pace.h - how much the screens may send to the terminal.
 *
 * A serial console carries about 11.5 kB/s at 115200 baud, and a live run
 * must leave it room for the user's keys and the kernel's console. The
 * ui (ui.c) draws each frame into its windows, asks here what rewriting
 * each changed line costs, sends the lines that fit in what is left of
 * the byte budget of the last window of time and keeps the others for a
 * later frame. No curses here: a line is an array of curses cells
 * (chtype) passed as unsigned long, so the unit tests need no terminal. */
#ifndef EVMBENCH_PACE_H
#define EVMBENCH_PACE_H

#include <stddef.h>

#define PACE_RING 64

/* The frames sent in the last `window` seconds. */
struct pace {
    double window;              /* seconds */
    long limit;                 /* bytes per window */
    struct pace_frame {
        double at;              /* when it was sent */
        long bytes;
    } sent[PACE_RING];
    size_t head, n;             /* the oldest frame kept, and how many */
};

/* At most `limit` bytes in any `window` seconds. */
void pace_init(struct pace *p, long limit, double window);
/* A frame of `bytes` sent at `at` (seconds, non-decreasing). */
void pace_record(struct pace *p, double at, long bytes);
/* The bytes sent in (now - window, now]. */
long pace_sent(const struct pace *p, double now);
/* What may still be sent now: limit - pace_sent, never below 0. */
long pace_room(const struct pace *p, double now);
/* When the oldest frame still in the window leaves it (room grows then);
 * `now` when the window is empty. */
double pace_next_room(const struct pace *p, double now);

/* What the terminal's sequences cost, in bytes. */
struct pace_costs {
    int move;                   /* a cursor address */
    int attr;                   /* an attribute (and colour) change */
    int frame;                  /* a frame's own overhead */
};

/* The bytes it takes at most to turn line `was` into line `now` (n cells
 * each; attr_mask selects a cell's attribute and colour bits, the rest is
 * its character): nothing when they are equal; else a cursor move, then
 * each run of changed cells (a character above 127 counted as 3 bytes,
 * UTF-8) with an attribute change wherever the attribute differs from
 * the cell sent before (and at the first cell, the attribute in force
 * being unknown), the unchanged cells between two runs rewritten or
 * jumped over by a cursor move, whichever is cheaper, and a change back
 * to normal at the end. */
long pace_line_cost(const unsigned long *now, const unsigned long *was, int n,
                    unsigned long attr_mask, const struct pace_costs *c);

#endif
