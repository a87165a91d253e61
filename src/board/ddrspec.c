/* ddrspec.c - each SoC's DDR data bus (ddrspec.h). */
#include "config.h"
#include "board/ddrspec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "board/socdata.h"
#include "common/util.h"

static char *opt_string(json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s && *s ? xstrdup(s) : NULL;
}

/* One entry (an object); false (and why) when it cannot be used. */
static bool parse_soc(json_t *o, struct ddr_soc *s, const char **why)
{
    memset(s, 0, sizeof *s);
    json_t *bits = json_object_get(o, "bus_bits");
    json_t *pll = json_object_get(o, "pll_to_mts");
    const char *family = json_string_value(json_object_get(o, "family"));
    if (!family || !*family) {
        *why = "no \"family\"";
        return false;
    }
    if (!json_is_integer(bits) || json_integer_value(bits) <= 0 ||
        json_integer_value(bits) % 8 != 0 || json_integer_value(bits) > 1024) {
        *why = "\"bus_bits\" is not a positive multiple of 8";
        return false;
    }
    if (pll && !json_is_null(pll) && (!json_is_number(pll) || !(json_number_value(pll) > 0))) {
        *why = "\"pll_to_mts\" is neither a positive number nor null";
        return false;
    }
    s->family = xstrdup(family);
    s->bus_bits = (int)json_integer_value(bits);
    s->interfaces = opt_string(o, "interfaces");
    s->document = opt_string(o, "document");
    s->pll_to_mts = json_is_number(pll) ? json_number_value(pll) : 0;
    s->ti_sci_clock = opt_string(o, "ti_sci_clock");
    return true;
}

static const struct socdata_kind ddr_kind = {
    .name = "ddr.json", .format = DDRSPEC_FORMAT, .what = "DDR",
};

/* The entries kept so far. */
struct ddr_parse {
    struct ddrspec *spec;
    size_t cap;
};

/* socdata_entry_fn: one entry kept, or skipped with why. */
static void take_soc(struct socdata_entry *e, void *ctx)
{
    struct ddr_parse *p = ctx;
    const char *why = NULL;
    xgrow(&p->spec->socs, &p->cap, p->spec->nsocs + 1, sizeof *p->spec->socs);
    if (parse_soc(e->json, &p->spec->socs[p->spec->nsocs], &why))
        p->spec->nsocs++;
    else
        socdata_skip(e, "%s", why);
}

int ddrspec_parse(struct ddrspec *spec, const char *text, const char *label,
                  struct diag *d)
{
    memset(spec, 0, sizeof *spec);
    struct ddr_parse p = { .spec = spec };
    if (socdata_parse(&ddr_kind, text, label, take_soc, &p, d) < 0)
        return -1;
    return (int)spec->nsocs;
}

int ddrspec_load(struct ddrspec *spec, struct diag *d)
{
    memset(spec, 0, sizeof *spec);
    struct ddr_parse p = { .spec = spec };
    if (socdata_load(&ddr_kind, NULL, take_soc, &p, d) < 0)
        return -1;
    return (int)spec->nsocs;
}

void ddrspec_free(struct ddrspec *spec)
{
    for (size_t i = 0; i < spec->nsocs; i++) {
        free(spec->socs[i].family);
        free(spec->socs[i].interfaces);
        free(spec->socs[i].document);
        free(spec->socs[i].ti_sci_clock);
    }
    free(spec->socs);
    memset(spec, 0, sizeof *spec);
}

const struct ddr_soc *ddrspec_find(const struct ddrspec *spec, const char *family)
{
    for (size_t i = 0; family && i < spec->nsocs; i++)
        if (strcasecmp(spec->socs[i].family, family) == 0)
            return &spec->socs[i];
    return NULL;
}

double ddrspec_peak_mbs(const struct ddr_soc *soc, double mts)
{
    if (!soc || !isfinite(mts) || mts <= 0)
        return 0;
    return mts * soc->bus_bits / 8.0;
}
