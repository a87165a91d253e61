/* guide_text.h - string helpers shared by the guide importer's modules.
 *
 * Private to the guide_*.c modules: blank lines, trimmed copies, the value
 * cells every layout recognises, the unmarked headings of the rows and
 * Markdown layouts, and a growable vector of strings. */
#ifndef EVMBENCH_GUIDE_TEXT_H
#define EVMBENCH_GUIDE_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/* A growable vector of strings; {0} is empty. */
struct guide_strv {
    char **v;
    size_t n, cap;
};

/* Appends str; the vector takes it. */
void guide_text_strv_push(struct guide_strv *s, char *str);
/* Frees the n strings of v and v itself. */
void guide_text_strv_free(char **v, size_t n);

/* True when s holds only spaces and tabs. */
bool guide_text_is_blank(const char *s);
/* A new copy of the first n bytes of s without surrounding whitespace. */
char *guide_text_trimdup(const char *s, size_t n);
/* "n/a", "NA", "-" and dashes: a cell with no value. */
bool guide_text_is_na(const char *cell);
/* A cell that the cells layout may take as a value (number, n/a). */
bool guide_text_is_value(const char *cell);
/* A short line that stands alone as a heading in the rows and Markdown
 * layouts, where headings below the numbered ones carry no mark. The
 * caller checks that it stands alone. */
bool guide_text_looks_like_heading(const char *s);

#endif
