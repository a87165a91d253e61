/* guide_boards.c - Evaluation Module rows linked to column keys, as JSON. */
#include "config.h"
#include "guide/guide_impl.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

/* Lower-case tokens of a board name or key, 'x' wildcards removed
 * ("AM62x" and "am62xx" both give "am62"); "evm", "fs" dropped. */
static size_t board_tokens(const char *s, char tok[][24], size_t max)
{
    size_t n = 0, len = 0;
    for (const char *p = s;; p++) {
        bool alnum = *p && isalnum((unsigned char)*p);
        if (alnum && len < 23) {
            char c = (char)tolower((unsigned char)*p);
            /* an 'x' right after a digit or another such 'x' is a wildcard */
            bool wild = c == 'x' && len && (isdigit((unsigned char)tok[n][len - 1]) ||
                                            (p > s && tolower((unsigned char)p[-1]) == 'x'));
            if (!wild)
                tok[n][len++] = c;
            continue;
        }
        if (alnum)
            continue;
        if (len) {
            tok[n][len] = '\0';
            if (strcmp(tok[n], "evm") && strcmp(tok[n], "fs") && n + 1 < max)
                n++;
            len = 0;
        }
        if (!*p)
            break;
    }
    return n;
}

/* The column key whose tokens hold all the name's tokens with the fewest
 * extra ones: "AM62x LP SK" -> am62xx_lp_sk-fs, "J721e EVM" -> j721e-idk-gw. */
static const char *link_board(const struct guide_strv *keys, const char *name)
{
    char nt[8][24], kt[8][24];
    size_t nn = board_tokens(name, nt, 8);
    const char *best = NULL;
    size_t best_extra = 99;
    for (size_t i = 0; i < keys->n && nn; i++) {
        size_t nk = board_tokens(keys->v[i], kt, 8);
        size_t hit = 0;
        for (size_t a = 0; a < nn; a++)
            for (size_t b = 0; b < nk; b++)
                if (!strcmp(nt[a], kt[b])) {
                    hit++;
                    break;
                }
        if (hit == nn && strcmp(nt[0], kt[0]) == 0 && nk - hit < best_extra) {
            best = keys->v[i];
            best_extra = nk - hit;
        }
    }
    return best;
}

/* A CPU clock in MHz or a DDR data rate in MT/s that some board could have:
 * a text claiming 10^72 GHz states no fact (and would not fit an integer). */
static bool plausible_rate(double v)
{
    return v > 0 && v < 1e6;
}

static json_t *board_json(const char *key, const char *name, const char *desc)
{
    json_t *o = json_object();
    json_object_set_new(o, "key", json_string(key));
    json_object_set_new(o, "name", name ? json_string(name) : json_null());
    json_object_set_new(o, "description", desc ? json_string(desc) : json_null());
    json_t *mhz = json_null(), *ddr = json_null(), *mts = json_null();
    if (desc && guide_re_match(RE_CLOCK, desc)) {
        char *v = guide_re_group(desc, 1), *u = guide_re_group(desc, 2);
        double f = strtod(v, NULL) * (tolower((unsigned char)u[0]) == 'g' ? 1000 : 1);
        if (plausible_rate(f))
            mhz = json_integer((json_int_t)(f + 0.5));
        free(v);
        free(u);
    }
    if (desc && guide_re_match(RE_DDR_TYPE, desc)) {
        char *v = guide_re_group(desc, 1);
        ddr = json_string(v);
        free(v);
    }
    if (desc && guide_re_match(RE_DDR_RATE, desc)) {
        char *v = guide_re_group(desc, 1);
        double r = strtod(v, NULL);
        if (plausible_rate(r))
            mts = json_integer((json_int_t)(r + 0.5));
        free(v);
    }
    json_object_set_new(o, "cpu_mhz", mhz);
    json_object_set_new(o, "ddr_type", ddr);
    json_object_set_new(o, "ddr_mts", mts);
    return o;
}

/* Evaluation-module boards first, then column keys the table left out. */
json_t *guide_boards_json(struct guide_doc *d, const struct guide_board *boards, size_t n,
                          const struct guide_strv *keys)
{
    json_t *arr = json_array();
    struct guide_strv used = {0};
    for (size_t i = 0; i < n; i++) {
        const struct guide_board *b = &boards[i];
        const char *key = link_board(keys, b->name);
        char *own = NULL;
        if (!key) {
            own = str_slug(b->name);
            guide_doc_warn(d, b->line, "board \"%s\" matches no table column; key \"%s\" used",
                           b->name, own);
            key = own;
        }
        json_array_append_new(arr, board_json(key, b->name, b->description));
        guide_text_strv_push(&used, xstrdup(key));
        free(own);
    }
    for (size_t i = 0; i < keys->n; i++) {
        bool seen = false;
        for (size_t j = 0; j < used.n; j++)
            seen |= !strcmp(used.v[j], keys->v[i]);
        if (!seen)
            json_array_append_new(arr, board_json(keys->v[i], NULL, NULL));
    }
    guide_text_strv_free(used.v, used.n);
    return arr;
}
