/* lines.c - the lines of a text, one at a time (lines.h). */
#include "config.h"
#include "common/lines.h"

#include <stdlib.h>
#include <string.h>

#include "common/util.h"

void lines_init(struct lines *it, const char *text, enum lines_comment comment)
{
    it->rest = text ? text : "";
    it->lineno = 0;
    it->comment = comment;
    it->line = NULL;
}

/* Cuts the comment off a trimmed line; true when something is left. */
static bool has_content(const struct lines *it, char *line)
{
    if (it->comment == LINES_HASH_ANYWHERE) {
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
    }
    str_trim(line);
    return *line && !(it->comment == LINES_HASH_FIRST && *line == '#');
}

char *lines_next(struct lines *it)
{
    free(it->line);
    it->line = NULL;
    while (*it->rest) {
        const char *nl = strchr(it->rest, '\n');
        size_t len = nl ? (size_t)(nl - it->rest) : strlen(it->rest);
        char *line = xstrndup(it->rest, len);
        it->rest += len + (nl ? 1 : 0);
        it->lineno++;
        if (has_content(it, line)) {
            it->line = line;
            return line;
        }
        free(line);
    }
    return NULL;
}

void lines_free(struct lines *it)
{
    free(it->line);
    it->line = NULL;
    it->rest = "";
}
