/* ddrspec.c - each SoC's DDR data bus (ddrspec.h). */
#include "config.h"
#include "board/ddrspec.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "common/util.h"
#include "data/datadir.h"

#define DDRSPEC_LIMIT (1u << 20)

static char *opt_string(json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s && *s ? xstrdup(s) : NULL;
}

/* One entry; false (and why) when it cannot be used. */
static bool parse_soc(json_t *o, struct ddr_soc *s, const char **why)
{
    memset(s, 0, sizeof *s);
    json_t *bits = json_object_get(o, "bus_bits");
    json_t *pll = json_object_get(o, "pll_to_mts");
    if (!json_is_object(o)) {
        *why = "not an object";
        return false;
    }
    if (!json_is_string(json_object_get(o, "family"))) {
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
    s->family = opt_string(o, "family");
    s->bus_bits = (int)json_integer_value(bits);
    s->interfaces = opt_string(o, "interfaces");
    s->document = opt_string(o, "document");
    s->pll_to_mts = json_is_number(pll) ? json_number_value(pll) : 0;
    s->ti_sci_clock = opt_string(o, "ti_sci_clock");
    return true;
}

int ddrspec_parse(struct ddrspec *spec, const char *text, const char *label,
                  struct diag *d)
{
    memset(spec, 0, sizeof *spec);
    json_error_t e;
    json_t *root = json_loads(text, JSON_REJECT_DUPLICATES, &e);
    if (!root) {
        diag_add(d, "%s:%d:%d: %s", label, e.line, e.column, e.text);
        return -1;
    }
    const char *fmt = json_string_value(json_object_get(root, "format"));
    json_t *socs = json_object_get(root, "socs");
    if (!fmt || strcmp(fmt, DDRSPEC_FORMAT) != 0 || !json_is_array(socs)) {
        diag_add(d, "%s: not a DDR data file (format %s, not %s, with a \"socs\" list)",
                 label, fmt ? fmt : "missing", DDRSPEC_FORMAT);
        json_decref(root);
        return -1;
    }
    spec->socs = xcalloc(json_array_size(socs) + 1, sizeof *spec->socs);
    size_t i;
    json_t *o;
    json_array_foreach(socs, i, o) {
        const char *why = NULL;
        if (parse_soc(o, &spec->socs[spec->nsocs], &why))
            spec->nsocs++;
        else
            diag_add(d, "%s: socs[%zu]: skipped: %s", label, i, why);
    }
    json_decref(root);
    return (int)spec->nsocs;
}

int ddrspec_load(struct ddrspec *spec, struct diag *d)
{
    memset(spec, 0, sizeof *spec);
    struct data_dir dir;
    data_dir_default(&dir, "soc");
    char *label = data_dir_file_label(&dir, "ddr.json");
    char *text = data_dir_read(&dir, "ddr.json", DDRSPEC_LIMIT, NULL);
    int rc;
    if (!text) {
        diag_add(d, "%s: %s", label, strerror(errno));
        rc = -1;
    } else {
        rc = ddrspec_parse(spec, text, label, d);
    }
    free(text);
    free(label);
    data_dir_free(&dir);
    return rc;
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
