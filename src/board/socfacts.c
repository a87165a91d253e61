/* socfacts.c - the SoC facts of benches/refs/socs.conf (see socfacts.h). */
#include "config.h"
#include "board/socfacts.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "data/datadir.h"
#include "common/util.h"

#define FACTS_FILE  "socs.conf"
#define FACTS_MAX   (1u << 16)

size_t soc_size_parse(const char *s)
{
    if (!s || *s < '0' || *s > '9')
        return 0;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno)
        return 0;
    unsigned shift = 0;
    switch (*end) {
    case 'K': case 'k': shift = 10; end++; break;
    case 'M': case 'm': shift = 20; end++; break;
    case 'G': case 'g': shift = 30; end++; break;
    default: break;
    }
    if (*end || v > (SIZE_MAX >> shift))
        return 0;
    return (size_t)(v << shift);
}

static int parse_caches(struct soc_fact *s, char *val)
{
    char *save = NULL;
    for (char *t = strtok_r(val, "+", &save); t; t = strtok_r(NULL, "+", &save)) {
        size_t bytes = soc_size_parse(t);
        if (!bytes || s->ncaches == SOC_CACHES_MAX)
            return -1;
        s->caches[s->ncaches++] = bytes;
        s->cache_bytes += bytes;
    }
    return s->ncaches ? 0 : -1;
}

static bool is_hex_part(const char *v)
{
    if (strncasecmp(v, "0x", 2) != 0 || !v[2])
        return false;
    return strspn(v + 2, "0123456789abcdefABCDEF") == strlen(v + 2);
}

/* One "key=value" word of a soc line; an error message or NULL. */
static const char *parse_attr(struct soc_fact *s, char *word)
{
    char *eq = strchr(word, '=');
    if (!eq)
        return "expected key=value";
    *eq = '\0';
    char *val = eq + 1;
    if (strcmp(word, "cpu") == 0) {
        if (!is_hex_part(val))
            return "cpu= wants a CPU part such as 0xd03";
        free(s->cpu_part);
        s->cpu_part = xstrdup(val);
    } else if (strcmp(word, "cores") == 0) {
        char *end;
        long n = strtol(val, &end, 10);
        if (end == val || *end || n < 1 || n > 1024)
            return "cores= wants a count from 1 to 1024";
        s->cores = (int)n;
    } else if (strcmp(word, "caches") == 0) {
        if (s->ncaches || parse_caches(s, val) != 0)
            return "caches= wants sizes such as 32K+512K (at most 4)";
    } else {
        return "unknown key (cpu, cores, caches)";
    }
    return NULL;
}

static void fact_free(struct soc_fact *s)
{
    free(s->family);
    free(s->cpu_part);
    memset(s, 0, sizeof *s);
}

/* One line without its comment; 0 when it is blank or sound. */
static int parse_line(struct soc_facts *f, char *line, int lineno, const char *file,
                      struct diag *d)
{
    char *save = NULL;
    char *w = strtok_r(line, " \t", &save);
    if (!w)
        return 0;
    if (strcmp(w, "soc") != 0) {
        diag_add(d, "%s:%d: unknown directive \"%s\" (expected soc)", file, lineno, w);
        return 1;
    }
    char *family = strtok_r(NULL, " \t", &save);
    if (!family || strchr(family, '=')) {
        diag_add(d, "%s:%d: soc needs a family name", file, lineno);
        return 1;
    }
    if (soc_facts_find(f, family)) {
        diag_add(d, "%s:%d: %s is described twice", file, lineno, family);
        return 1;
    }
    struct soc_fact s = { .family = xstrdup(family), .line = lineno };
    for (w = strtok_r(NULL, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
        const char *err = parse_attr(&s, w);
        if (err) {
            diag_add(d, "%s:%d: %s: %s", file, lineno, family, err);
            fact_free(&s);
            return 1;
        }
    }
    xgrow(&f->items, &f->cap, f->n + 1, sizeof *f->items);
    f->items[f->n++] = s;
    return 0;
}

int soc_facts_parse(struct soc_facts *f, const char *text, const char *file,
                    struct diag *d)
{
    char *copy = xstrdup(text);
    int bad = 0, lineno = 0;
    for (char *line = copy; line; lineno++) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        bad += parse_line(f, line, lineno + 1, file, d);
        line = nl ? nl + 1 : NULL;
    }
    free(copy);
    return bad;
}

int soc_facts_load_default(struct soc_facts *f, struct diag *d)
{
    struct data_dir dir;
    data_dir_default(&dir, "refs");
    char *label = data_dir_file_label(&dir, FACTS_FILE);
    char *text = data_dir_read(&dir, FACTS_FILE, FACTS_MAX, NULL);
    int problems = 0;
    if (text)
        problems = soc_facts_parse(f, text, label, d);
    else if (errno != ENOENT) {
        diag_add(d, "%s: cannot read: %s", label, file_strerror(errno));
        problems = 1;
    }
    free(text);
    free(label);
    data_dir_free(&dir);
    return problems;
}

const struct soc_fact *soc_facts_find(const struct soc_facts *f, const char *family)
{
    for (size_t i = 0; family && i < f->n; i++)
        if (strcasecmp(f->items[i].family, family) == 0)
            return &f->items[i];
    return NULL;
}

void soc_fact_caches_text(const struct soc_fact *s, char *buf, size_t n)
{
    size_t used = 0;
    if (n)
        buf[0] = '\0';
    for (size_t i = 0; i < s->ncaches && used < n; i++) {
        size_t b = s->caches[i];
        int w = b % (1u << 20) == 0
              ? snprintf(buf + used, n - used, "%s%zuM", i ? "+" : "", b >> 20)
              : snprintf(buf + used, n - used, "%s%zuK", i ? "+" : "", b >> 10);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

void soc_facts_free(struct soc_facts *f)
{
    for (size_t i = 0; i < f->n; i++)
        fact_free(&f->items[i]);
    free(f->items);
    memset(f, 0, sizeof *f);
}
