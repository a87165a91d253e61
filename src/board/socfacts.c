/* socfacts.c - each SoC's application CPU (socfacts.h). */
#include "config.h"
#include "board/socfacts.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "board/socdata.h"
#include "common/util.h"

#define CORES_MAX       1024
#define CACHE_KIB_MAX   (1 << 20)       /* 1 GiB: no SoC's cache is larger */

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

static bool is_hex_part(const char *v)
{
    if (!v || strncasecmp(v, "0x", 2) != 0 || !v[2])
        return false;
    return strspn(v + 2, "0123456789abcdefABCDEF") == strlen(v + 2);
}

/* The caches of an entry; false (and why) when the list is not usable. */
static bool parse_caches(json_t *list, struct soc_fact *s, const char **why)
{
    size_t i;
    json_t *kib;
    if (!json_is_array(list) || json_array_size(list) == 0 ||
        json_array_size(list) > SOC_CACHES_MAX) {
        *why = "\"caches_kib\" is not a list of 1 to 4 sizes";
        return false;
    }
    json_array_foreach(list, i, kib) {
        if (!json_is_integer(kib) || json_integer_value(kib) <= 0 ||
            json_integer_value(kib) > CACHE_KIB_MAX) {
            *why = "\"caches_kib\" holds a size that is not a positive whole KiB";
            return false;
        }
        s->caches[s->ncaches] = (size_t)json_integer_value(kib) << 10;
        s->cache_bytes += s->caches[s->ncaches++];
    }
    return true;
}

/* One entry (an object); false (and why) when it cannot be used. */
static bool parse_soc(json_t *o, struct soc_fact *s, const char **why)
{
    memset(s, 0, sizeof *s);
    const char *family = json_string_value(json_object_get(o, "family"));
    const char *part = json_string_value(json_object_get(o, "cpu_part"));
    json_t *cores = json_object_get(o, "cores");
    if (!family || !*family) {
        *why = "no \"family\"";
        return false;
    }
    if (!is_hex_part(part)) {
        *why = "\"cpu_part\" is not a CPU part such as \"0xd03\"";
        return false;
    }
    if (!json_is_integer(cores) || json_integer_value(cores) < 1 ||
        json_integer_value(cores) > CORES_MAX) {
        *why = "\"cores\" is not a count from 1 to 1024";
        return false;
    }
    if (!parse_caches(json_object_get(o, "caches_kib"), s, why))
        return false;
    s->family = xstrdup(family);
    s->cpu_part = xstrdup(part);
    s->cores = (int)json_integer_value(cores);
    return true;
}

static const struct socdata_kind cpu_kind = {
    .name = "cpu.json", .format = SOCFACTS_FORMAT, .what = "CPU",
    .optional = true,       /* missing: every check says "no facts" */
};

/* The entries kept so far. */
struct facts_parse {
    struct soc_facts *f;
    size_t cap;
};

/* socdata_entry_fn: one entry kept, or skipped with why (a family
 * described before too). */
static void take_soc(struct socdata_entry *e, void *ctx)
{
    struct facts_parse *p = ctx;
    struct soc_fact s;
    const char *why = NULL;
    if (!parse_soc(e->json, &s, &why)) {
        socdata_skip(e, "%s", why);
    } else if (soc_facts_find(p->f, s.family)) {
        socdata_skip(e, "%s is described before", s.family);
        free(s.family);
        free(s.cpu_part);
    } else {
        xgrow(&p->f->items, &p->cap, p->f->n + 1, sizeof *p->f->items);
        p->f->items[p->f->n++] = s;
    }
}

int soc_facts_parse(struct soc_facts *f, const char *text, const char *label,
                    struct diag *d)
{
    memset(f, 0, sizeof *f);
    struct facts_parse p = { .f = f };
    int skipped = socdata_parse(&cpu_kind, text, label, take_soc, &p, d);
    return skipped < 0 ? 1 : skipped;
}

int soc_facts_load_default(struct soc_facts *f, struct diag *d)
{
    memset(f, 0, sizeof *f);
    struct facts_parse p = { .f = f };
    int skipped = socdata_load(&cpu_kind, NULL, take_soc, &p, d);
    return skipped < 0 ? 1 : skipped;
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
    for (size_t i = 0; i < f->n; i++) {
        free(f->items[i].family);
        free(f->items[i].cpu_part);
    }
    free(f->items);
    memset(f, 0, sizeof *f);
}
