/* format_impl.h - what the parts of the screens' formatting share; only
 * format.c (text, numbers, bars), format_results.c (the results table) and
 * format_metric.c (the live metric table) include it: the screens use
 * format.h. The table files call these helpers of format.c; format.c
 * calls neither table file. */
#ifndef EVMBENCH_FORMAT_IMPL_H
#define EVMBENCH_FORMAT_IMPL_H

#include <stdbool.h>
#include <stddef.h>

#include "run/deviation.h"

/* Appends up to `cols` columns of s to buf[*o..size), sanitized: control
 * bytes become spaces, a bad byte (and with utf8 false every non-ASCII
 * character) '?'; never past size - 1, and buf is not NUL-terminated. */
/* Appends " cell" at *o: text fitted to w columns (right-aligned when
 * right), the space only after something; nothing for w <= 0. *o stays
 * within buf. The table rows of format_results.c and format_check.c. */
void fmt_put_cell(char *buf, size_t size, size_t *o, const char *text, int w, bool right,
                  bool utf8);
void fmt_put_chars(char *buf, size_t size, size_t *o, const char *s, int cols,
                   bool utf8);
/* The percentage part of a deviation: "+12.3%", "-4.0%", "+123%",
 * ">9999%", "0.0%"; "-" for NAN. */
void fmt_pct(char *buf, size_t size, double pct);
/* The word after the percentage: "better" or "worse"; NULL for a unit
 * without a direction or a change below 0.05 %. */
const char *fmt_dev_word(const struct deviation *d, enum direction dir);

#endif
