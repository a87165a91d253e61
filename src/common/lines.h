/* lines.h - the lines of a text, one at a time, with their numbers.
 *
 * The line-oriented data files (profiles, settings, themes) are read with
 * this: each call hands out the next line that has something on it, as a
 * copy the caller may modify, trimmed of white space and of its comment,
 * with its number for messages "file:line: ...". */
#ifndef EVMBENCH_LINES_H
#define EVMBENCH_LINES_H

/* Which '#' starts a comment. */
enum lines_comment {
    LINES_HASH_FIRST,       /* a line whose first non-blank character is '#' */
    LINES_HASH_ANYWHERE,    /* any '#', to the end of its line */
};

struct lines {
    const char *rest;       /* the text not read yet */
    int lineno;             /* 1-based number of the line last returned;
                             * every line counts, blank or not */
    enum lines_comment comment;
    char *line;             /* the copy last returned (owned) */
};

/* Starts reading `text` (NULL reads as empty), which must outlive `it`.
 * Lines end at '\n'; the last one needs none. */
void lines_init(struct lines *it, const char *text, enum lines_comment comment);

/* The next line that is not blank or all comment, without its comment and
 * with no white space at either end, and it->lineno set to its number.
 * NULL at the end of the text (everything is freed then). The string is
 * valid until the next call or lines_free(). */
char *lines_next(struct lines *it);

/* Frees what a loop left before the end still holds; `it` reads as ended. */
void lines_free(struct lines *it);

#endif
