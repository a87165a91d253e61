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

#include "common/util.h"
#include "data/datadir.h"

#define FACTS_FILE      "cpu.json"
#define FACTS_LIMIT     (1u << 20)
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

/* One entry; false (and why) when it cannot be used. */
static bool parse_soc(json_t *o, struct soc_fact *s, const char **why)
{
    memset(s, 0, sizeof *s);
    if (!json_is_object(o)) {
        *why = "not an object";
        return false;
    }
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

int soc_facts_parse(struct soc_facts *f, const char *text, const char *label,
                    struct diag *d)
{
    memset(f, 0, sizeof *f);
    json_error_t e;
    json_t *root = json_loads(text, JSON_REJECT_DUPLICATES, &e);
    if (!root) {
        diag_add(d, "%s:%d:%d: %s", label, e.line, e.column, e.text);
        return 1;
    }
    const char *fmt = json_string_value(json_object_get(root, "format"));
    json_t *socs = json_object_get(root, "socs");
    if (!fmt || strcmp(fmt, SOCFACTS_FORMAT) != 0 || !json_is_array(socs)) {
        diag_add(d, "%s: not a CPU data file (format %s, not %s, with a \"socs\" list)",
                 label, fmt ? fmt : "missing", SOCFACTS_FORMAT);
        json_decref(root);
        return 1;
    }
    int problems = 0;
    f->items = xcalloc(json_array_size(socs) + 1, sizeof *f->items);
    size_t i;
    json_t *o;
    json_array_foreach(socs, i, o) {
        const char *why = NULL;
        struct soc_fact *s = &f->items[f->n];
        if (!parse_soc(o, s, &why)) {
            diag_add(d, "%s: socs[%zu]: skipped: %s", label, i, why);
            problems++;
        } else if (soc_facts_find(f, s->family)) {
            diag_add(d, "%s: socs[%zu]: skipped: %s is described before", label, i,
                     s->family);
            free(s->family);
            free(s->cpu_part);
            memset(s, 0, sizeof *s);
            problems++;
        } else {
            f->n++;
        }
    }
    json_decref(root);
    return problems;
}

int soc_facts_load_default(struct soc_facts *f, struct diag *d)
{
    memset(f, 0, sizeof *f);
    struct data_dir dir;
    data_dir_default(&dir, "soc");
    char *label = data_dir_file_label(&dir, FACTS_FILE);
    char *text = data_dir_read(&dir, FACTS_FILE, FACTS_LIMIT, NULL);
    int problems = 0;
    if (text) {
        problems = soc_facts_parse(f, text, label, d);
    } else if (errno != ENOENT) {   /* missing: every check says "no facts" */
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
    for (size_t i = 0; i < f->n; i++) {
        free(f->items[i].family);
        free(f->items[i].cpu_part);
    }
    free(f->items);
    memset(f, 0, sizeof *f);
}
