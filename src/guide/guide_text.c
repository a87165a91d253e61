/* guide_text.c - string helpers shared by the guide importer's modules. */
#include "config.h"
#include "guide/guide_impl.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

void guide_text_strv_push(struct guide_strv *s, char *str)
{
    xgrow(&s->v, &s->cap, s->n + 1, sizeof *s->v);
    s->v[s->n++] = str;
}

void guide_text_strv_free(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

bool guide_text_is_blank(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return *s == '\0';
}

char *guide_text_trimdup(const char *s, size_t n)
{
    while (n && isspace((unsigned char)*s))
        s++, n--;
    while (n && isspace((unsigned char)s[n - 1]))
        n--;
    return xstrndup(s, n);
}

static size_t word_count(const char *s)
{
    size_t n = 0;
    bool in = false;
    for (; *s; s++) {
        bool sp = isspace((unsigned char)*s);
        if (!sp && !in)
            n++;
        in = !sp;
    }
    return n;
}

bool guide_text_is_na(const char *cell)
{
    return guide_re_match(RE_NA, cell);
}

bool guide_text_is_value(const char *cell)
{
    return guide_re_match(RE_VALUE, cell) || guide_text_is_na(cell);
}

bool guide_text_looks_like_heading(const char *s)
{
    size_t n = strlen(s);
    if (n < 2 || n > 60 || word_count(s) > 8)
        return false;
    unsigned char c = (unsigned char)s[0];
    if (!(isupper(c) || isdigit(c)))
        return false;
    char last = s[n - 1];
    if (strchr(".:,;", last) || strchr(s, '=') || strchr(s, '|') || strstr(s, "http"))
        return false;
    bool letter = false;
    for (const char *p = s; *p; p++)
        letter |= isalpha((unsigned char)*p) != 0;
    if (!letter || !strcmp(s, "Warning") || !strcmp(s, "Note") || !strcmp(s, "Important"))
        return false;
    return !guide_re_match(RE_COMMAND, s) && !guide_re_match(RE_CAPTION_AFTER, s);
}
