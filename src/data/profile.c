/* profile.c - benchmark profile files. */
#include "config.h"
#include "data/profile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/lines.h"
#include "data/datadir.h"
#include "common/util.h"

/* "NAME [METRIC...]": the metrics, when given, are the only rows kept. */
static void add_bench(struct profile *p, char *words, int line)
{
    xgrow(&p->benches, &p->cap, p->n + 1, sizeof *p->benches);
    struct profile_bench *b = &p->benches[p->n++];
    memset(b, 0, sizeof *b);
    b->line = line;
    char *save = NULL;
    for (char *w = strtok_r(words, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
        if (!b->name) {
            b->name = xstrdup(w);
            continue;
        }
        b->metrics = xrealloc(b->metrics, (b->nmetrics + 1) * sizeof *b->metrics);
        b->metrics[b->nmetrics++] = xstrdup(w);
    }
}

bool profile_bench_keeps(const struct profile_bench *b, const char *metric)
{
    if (!b->nmetrics)
        return true;
    for (size_t i = 0; i < b->nmetrics; i++)
        if (strcasecmp(b->metrics[i], metric) == 0)
            return true;
    return false;
}

void profile_bench_pick(const struct profile_bench *b, const struct kernel *k,
                        const char **ids, size_t *n)
{
    for (size_t i = 0; i < k->nmetrics; i++) {
        const char *id = k->metrics[i].id;
        bool listed = !b->nmetrics;
        for (size_t m = 0; m < b->nmetrics && !listed; m++)
            listed = strcasecmp(b->metrics[m], id) == 0;
        for (size_t j = 0; j < *n && listed; j++)
            listed = ids[j] != id;
        if (listed)
            ids[(*n)++] = id;
    }
}

const char *profile_bench_unknown(const struct profile_bench *b,
                                  const struct kernel *const *ks, size_t n)
{
    for (size_t m = 0; m < b->nmetrics; m++) {
        bool found = false;
        for (size_t i = 0; i < n && !found; i++)
            found = kernel_metric_find(ks[i], b->metrics[m]) != NULL;
        if (!found)
            return b->metrics[m];
    }
    return NULL;
}

/* Handles one non-empty line; returns an error message or NULL. */
static const char *parse_line(struct profile *p, char *t, int lineno)
{
    char *arg = t + strcspn(t, " \t");
    if (*arg)
        *arg++ = '\0';
    arg = str_trim(arg);
    if (strcmp(t, "bench") == 0) {
        if (!*arg)
            return "bench takes a benchmark name and, if only some rows, their metric ids";
        add_bench(p, arg, lineno);
    } else if (strcmp(t, "description") == 0) {
        if (!*arg)
            return "description needs a text";
        free(p->description);
        p->description = xstrdup(arg);
    } else if (strcmp(t, "budget") == 0) {
        if (strcmp(arg, "quick") != 0 && strcmp(arg, "full") != 0)
            return "budget is quick or full";
        p->quick = strcmp(arg, "quick") == 0;
    } else {
        return "unknown keyword (bench, budget or description)";
    }
    return NULL;
}

int profile_parse(struct profile *p, const char *text, const char *file,
                  struct diag *dg)
{
    int bad = 0;
    struct lines it;
    lines_init(&it, text, LINES_HASH_ANYWHERE);
    for (char *t; (t = lines_next(&it));) {
        const char *err = parse_line(p, t, it.lineno);
        if (err) {
            diag_add(dg, "%s:%d: %s", file, it.lineno, err);
            bad++;
        }
    }
    return bad;
}

int profile_load(struct profile *p, const char *name_or_path, struct diag *dg)
{
    memset(p, 0, sizeof *p);
    p->quick = true;
    errno = 0;
    char *text = data_read_named("profiles", name_or_path, ".profile", 1 << 16, NULL,
                                 &p->path);
    const char *base = strrchr(p->path, '/');
    base = base ? base + 1 : p->path;
    p->name = xstrdup(base);
    if (str_ends_with(p->name, ".profile"))
        p->name[strlen(p->name) - strlen(".profile")] = '\0';
    if (!text) {
        diag_add(dg, "%s: cannot read: %s", p->path, file_strerror(errno ? errno : EIO));
        return 1;
    }
    int bad = profile_parse(p, text, p->path, dg);
    free(text);
    return bad;
}

void profile_free(struct profile *p)
{
    for (size_t i = 0; i < p->n; i++) {
        free(p->benches[i].name);
        for (size_t m = 0; m < p->benches[i].nmetrics; m++)
            free(p->benches[i].metrics[m]);
        free(p->benches[i].metrics);
    }
    free(p->benches);
    free(p->description);
    free(p->path);
    free(p->name);
    memset(p, 0, sizeof *p);
}
