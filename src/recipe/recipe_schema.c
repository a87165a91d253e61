/* recipe_schema.c - the schema of a benchmark in a recipe file: the table
 * of its members (key, kind, flags, field of struct recipe_bench, default
 * and limits), the generic reader, default and free of each kind, the
 * frees of the structured members, and reading and freeing a benchmark by
 * that table. Members with a structure of their own are read by
 * recipe_read.c and recipe_read_pattern.c; the metrics, recipe_metric.c. */
#include "config.h"
#include "recipe/recipe_impl.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

/* --- freeing ------------------------------------------------------------ */

void rcp_strv_free(char **v, size_t n)
{
    if (!v)
        return;
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

/* An array of n templates. */
static void tmpls_free(struct tmpl *t, size_t n)
{
    for (size_t i = 0; i < n; i++)
        rcp_tmpl_free(&t[i]);
    free(t);
}

/* A template allocated on its own ("row", "cwd" ...); NULL is fine. */
static void tmpl_drop(struct tmpl *t)
{
    rcp_tmpl_free(t);
    free(t);
}

static void only_free(struct only *o)
{
    for (size_t i = 0; i < o->n; i++)
        rcp_strv_free(o->values[i], o->nvalues[i]);
    free(o->var);
    free(o->values);
    free(o->nvalues);
}

void rcp_argv_tmpl_free(struct argv_tmpl *a)
{
    for (size_t i = 0; i < a->nargs; i++)
        tmpls_free(a->args[i].words, a->args[i].nwords);
    free(a->args);
}

/* The element frees of the member table: each frees what one element
 * of its array (or the one embedded structure) holds, not the element. */

static void emit_free(void *p)
{
    struct emit *e = p;
    tmpls_free(e->metrics, e->nmetrics);
    free(e->unit);
    tmpl_drop(e->row);
    tmpl_drop(e->column);
    tmpl_drop(e->table);
    tmpls_free(e->factors, e->nfactors);
}

static void capture_free(struct capture *c)
{
    free(c->name);
    rcp_strv_free(c->from, c->n);
    rcp_strv_free(c->to, c->to ? c->n : 0);
}

static void pattern_free(void *e)
{
    struct pattern *p = e;
    pcre2_code_free(p->re);
    for (size_t j = 0; j < p->nemits; j++)
        emit_free(&p->emits[j]);
    free(p->emits);
    for (size_t j = 0; j < p->ncaps; j++)
        capture_free(&p->caps[j]);
    free(p->caps);
    rcp_strv_free(p->requires, p->nrequires);
    only_free(&p->only);
}

void rcp_param_clear(struct param *pm)
{
    free(pm->full);
    free(pm->quick);
    free(pm->missing);
    free(pm->option);
    pm->full = pm->quick = pm->missing = pm->option = NULL;
}

static void param_free(void *e)
{
    struct param *pm = e;
    free(pm->name);
    rcp_param_clear(pm);
}

static void var_value_free(struct var_value *vv)
{
    free(vv->value);
    rcp_strv_free(vv->fnames, vv->nfields);
    tmpls_free(vv->fvalues, vv->nfields);
}

static void var_free(void *e)
{
    struct var *v = e;
    for (size_t j = 0; j < v->nvalues; j++)
        var_value_free(&v->values[j]);
    free(v->values);
    free(v->name);
}

static void binary_free(void *e)
{
    struct binary *bin = e;
    free(bin->name);
    rcp_argv_tmpl_free(&bin->args);
}

static void env_entry_free(void *e)
{
    struct env_entry *en = e;
    free(en->name);
    tmpl_drop(en->value);
}

static void errpat_free(void *e)
{
    struct errpat *ep = e;
    pcre2_code_free(ep->re);
    free(ep->reason);
}

static void rfile_free(void *e)
{
    struct rfile *f = e;
    free(f->name);
    free(f->content);
    tmpl_drop(f->link);
}

static void need_free(void *e)
{
    struct need *n = e;
    free(n->path);
    free(n->reason);
    only_free(&n->only);
}

/* --- a benchmark: the table of its members -------------------------------- */

/* Absent: "NAME (TOOL)". */
static void default_description(const struct bctx *c, const json_t *v, const char *path)
{
    (void)v;
    (void)path;
    if (!c->b->description)
        c->b->description = xasprintf("%s (%s)", c->b->name ? c->b->name : "?", c->b->tool);
}

/* Absent: the file's "provided_by" (its messages say ".provided_by"). */
static void default_provider(const struct bctx *c, const json_t *v, const char *path)
{
    (void)v;
    (void)path;
    if (!c->b->provided_by)
        c->b->provided_by = rcp_get_str(c->l, c->file, "provided_by", "", false);
}

static void check_requires(const struct bctx *c, const json_t *v, const char *path)
{
    (void)v;
    rcp_check_params_named(c->l, c->b, c->b->requires, c->b->nrequires, path);
}

static int parse_stream(struct ld *l, const char *s, const char *path)
{
    if (strcmp(s, "stdout") == 0) return RECIPE_STDOUT;
    if (strcmp(s, "stderr") == 0) return RECIPE_STDERR;
    if (strcmp(s, "both") == 0) return RECIPE_BOTH;
    rcp_bad(l, path, "must be \"stdout\", \"stderr\" or \"both\"");
    return RECIPE_STDOUT;
}

static int parse_sdk(struct ld *l, const char *s, const char *path)
{
    if (strcmp(s, "linux") == 0) return RECIPE_SDK_LINUX;
    if (strcmp(s, "mcu+") == 0) return RECIPE_SDK_MCU;
    rcp_bad(l, path, "must be \"linux\" or \"mcu+\"");
    return RECIPE_SDK_LINUX;
}

/* How a member is read and freed: a generic reader and free per kind. */
enum mkind {
    MK_STR,         /* char *                                              */
    MK_STRV,        /* char ** at off, its count (size_t) at aux           */
    MK_ARGV,        /* struct argv_tmpl; aux: a bool set when given, or NO_AUX */
    MK_TMPL,        /* struct tmpl * (references checked, no captures)     */
    MK_NUMS,        /* double full at off, quick at aux: x or {"full", "quick"} */
    MK_COUNTS,      /* the same as ints                                    */
    MK_BOOL,        /* bool                                                */
    MK_ENUM,        /* an enum (int-sized) that parse() names               */
    MK_LIST,        /* an array of elements (size bytes each) at off, their
                     * count at aux: elem() reads one, drop() frees one     */
    MK_SPECIAL,     /* hook() reads it; drop() frees each of the aux elements
                     * at off (aux NO_AUX: the one structure at off)        */
    MK_NOTE,        /* for people ("comment"): accepted, not read          */
};

#define M_REQUIRED 1u   /* absent: "missing \"KEY\"" */
#define M_FILE 2u       /* absent: the file's top-level member, read as the benchmark's */
#define M_ALWAYS 4u     /* the hook also runs when the member is absent (v NULL) */
#define NO_AUX SIZE_MAX
#define DAY_S 86400.0   /* the longest timeout or budget a recipe may ask for */
#define RUNS_MAX 1000   /* the most runs of one invocation */

struct member {
    const char *key;    /* first: rcp_check_keys() reads the table's keys */
    enum mkind kind;
    unsigned flags;
    size_t off, aux;    /* fields of struct recipe_bench (see enum mkind) */
    size_t size;        /* MK_LIST, MK_SPECIAL: the size of an element */
    double dflt;        /* MK_NUMS, MK_COUNTS, MK_BOOL, MK_ENUM: when absent */
    double min, max;    /* MK_NUMS, MK_COUNTS: the values accepted (a count is
                         * then converted to int: max keeps it in range) */
    int (*parse)(struct ld *l, const char *s, const char *path);          /* MK_ENUM */
    /* MK_LIST: the message for a value that is not an array (%s: its type);
     * NULL: "must be a non-empty array" (and an empty one is refused too) */
    const char *what;
    /* MK_LIST: reads one element into slot; false: not kept (slot reused) */
    bool (*elem)(const struct bctx *c, void *slot, const json_t *v, const char *path);
    /* MK_SPECIAL: reads the member; other kinds: runs after the reader */
    void (*hook)(const struct bctx *c, const json_t *v, const char *path);
    void (*drop)(void *elem);                               /* MK_LIST, MK_SPECIAL */
};

#define AT(b, off, type) ((type *)(void *)((char *)(b) + (off)))
#define OFF(field) offsetof(struct recipe_bench, field)
#define LIST(field, count, type) .off = OFF(field), .aux = OFF(count), .size = sizeof(type)

_Static_assert(sizeof(enum summary) == sizeof(int) && sizeof(enum recipe_stream) == sizeof(int),
               "MK_ENUM stores an int");

/* One row per member, read in this order: variables and parameters come
 * before the templates that refer to them, "summary" before the patterns
 * and "cpu_load" that default to it. */
static const struct member bench_members[] = {
    { .key = "name", .kind = MK_STR, .flags = M_REQUIRED, .off = OFF(name) },
    { .key = "section", .kind = MK_STR, .flags = M_REQUIRED, .off = OFF(section) },
    { .key = "description", .kind = MK_STR, .flags = M_ALWAYS, .off = OFF(description),
      .hook = default_description },
    { .key = "provided_by", .kind = MK_STR, .flags = M_ALWAYS, .off = OFF(provided_by),
      .hook = default_provider },
    { .key = "search_paths", .kind = MK_STRV, .flags = M_FILE, .off = OFF(search),
      .aux = OFF(nsearch) },
    { .key = "vars", .kind = MK_SPECIAL, LIST(vars, nvars, struct var), .hook = rcp_read_vars,
      .drop = var_free },
    { .key = "params", .kind = MK_SPECIAL, .flags = M_ALWAYS,
      LIST(params, nparams, struct param), .hook = rcp_read_params, .drop = param_free },
    { .key = "env", .kind = MK_SPECIAL, .flags = M_ALWAYS, LIST(env, nenv, struct env_entry),
      .hook = rcp_read_env, .drop = env_entry_free },
    { .key = "args", .kind = MK_ARGV, .off = OFF(args), .aux = NO_AUX },
    { .key = "setup", .kind = MK_ARGV, .off = OFF(setup), .aux = OFF(has_setup) },
    { .key = "teardown", .kind = MK_ARGV, .off = OFF(teardown), .aux = OFF(has_teardown) },
    { .key = "binaries", .kind = MK_LIST, .flags = M_REQUIRED,
      LIST(bins, nbins, struct binary), .elem = rcp_read_binary, .drop = binary_free },
    { .key = "cwd", .kind = MK_TMPL, .off = OFF(cwd) },
    { .key = "stream", .kind = MK_ENUM, .off = OFF(stream), .dflt = RECIPE_STDOUT,
      .parse = parse_stream },
    { .key = "timeout", .kind = MK_NUMS, .off = OFF(timeout_full), .aux = OFF(timeout_quick),
      .dflt = 60, .min = 0.1, .max = DAY_S },
    { .key = "runs", .kind = MK_COUNTS, .off = OFF(runs_full), .aux = OFF(runs_quick),
      .dflt = 1, .min = 1, .max = RUNS_MAX },
    { .key = "budget", .kind = MK_NUMS, .off = OFF(budget_full), .aux = OFF(budget_quick),
      .dflt = 1, .min = 0, .max = DAY_S },
    { .key = "pin", .kind = MK_BOOL, .off = OFF(pin), .dflt = 1 },
    { .key = "sdk", .kind = MK_ENUM, .off = OFF(sdk), .dflt = RECIPE_SDK_LINUX,
      .parse = parse_sdk },
    { .key = "summary", .kind = MK_ENUM, .off = OFF(summary), .dflt = SUMMARY_MEDIAN,
      .parse = rcp_parse_summary },
    { .key = "files", .kind = MK_LIST, LIST(files, nfiles, struct rfile),
      .what = "must be an array of objects, not %s", .elem = rcp_read_file_entry,
      .drop = rfile_free },
    { .key = "needs", .kind = MK_LIST, LIST(needs, nneeds, struct need),
      .what = "must be an array of {\"path\", \"reason\"}", .elem = rcp_read_need,
      .drop = need_free },
    { .key = "requires", .kind = MK_STRV, .off = OFF(requires), .aux = OFF(nrequires),
      .hook = check_requires },
    { .key = "scratch", .kind = MK_TMPL, .off = OFF(scratch) },
    { .key = "cpu_load", .kind = MK_SPECIAL, .off = OFF(cpu_load), .aux = NO_AUX,
      .hook = rcp_read_cpu_load, .drop = emit_free },
    { .key = "patterns", .kind = MK_LIST, .flags = M_REQUIRED,
      LIST(pats, npats, struct pattern), .elem = rcp_load_pattern, .drop = pattern_free },
    { .key = "errors", .kind = MK_LIST, LIST(errs, nerrs, struct errpat),
      .what = "must be an array of {\"regex\", \"reason\"}", .elem = rcp_read_error,
      .drop = errpat_free },
    { .key = "comment", .kind = MK_NOTE },
    { .key = NULL },
};

/* --- a benchmark: the generic readers ------------------------------------- */

static void rd_str(const struct bctx *c, const struct member *m, const json_t *v, const char *p)
{
    *AT(c->b, m->off, char *) = rcp_str(c->l, v, p);
}

static void rd_strv(const struct bctx *c, const struct member *m, const json_t *v, const char *p)
{
    rcp_load_strings(c->l, v, p, AT(c->b, m->off, char **), AT(c->b, m->aux, size_t));
}

static void rd_argv(const struct bctx *c, const struct member *m, const json_t *v, const char *p)
{
    struct argv_tmpl *a = AT(c->b, m->off, struct argv_tmpl);
    rcp_load_argv(c, v, p, a);
    rcp_check_argv(c->l, c->b, a, p);
    if (m->aux != NO_AUX)
        *AT(c->b, m->aux, bool) = true;
}

static void rd_tmpl(const struct bctx *c, const struct member *m, const json_t *v, const char *p)
{
    *AT(c->b, m->off, struct tmpl *) = rcp_tmpl_of(c->l, c->b, v, NULL, p);
}

static void rd_nums(const struct bctx *c, const struct member *m, const json_t *v, const char *p)
{
    rcp_full_quick(c->l, v, p, AT(c->b, m->off, double), AT(c->b, m->aux, double), m->min, m->max);
}

static void rd_counts(const struct bctx *c, const struct member *m, const json_t *v,
                      const char *p)
{
    int *full = AT(c->b, m->off, int), *quick = AT(c->b, m->aux, int);
    double f = *full, q = *quick;
    rcp_full_quick(c->l, v, p, &f, &q, m->min, m->max);
    if (f != floor(f) || q != floor(q)) {
        rcp_bad(c->l, p, "must be a whole number");
        return;
    }
    *full = (int)f;
    *quick = (int)q;
}

static void rd_bool(const struct bctx *c, const struct member *m, const json_t *v, const char *p)
{
    if (!json_is_boolean(v))
        rcp_bad(c->l, p, "must be true or false");
    *AT(c->b, m->off, bool) = json_is_true(v);
}

static void rd_enum(const struct bctx *c, const struct member *m, const json_t *v, const char *p)
{
    char *s = rcp_str(c->l, v, p);
    if (s)
        *AT(c->b, m->off, int) = m->parse(c->l, s, p);
    free(s);
}

static void rd_list(const struct bctx *c, const struct member *m, const json_t *v, const char *p)
{
    if (!json_is_array(v) || (!m->what && json_array_size(v) == 0)) {
        rcp_bad(c->l, p, m->what ? m->what : "must be a non-empty array", rcp_type_name(v));
        return;
    }
    char **arr = AT(c->b, m->off, char *);
    size_t *n = AT(c->b, m->aux, size_t);
    *arr = xcalloc(json_array_size(v) + 1, m->size);
    size_t i;
    json_t *x;
    json_array_foreach(v, i, x) {
        char *pi = xasprintf("%s[%zu]", p, i);
        if (m->elem(c, *arr + *n * m->size, x, pi))
            (*n)++;
        free(pi);
    }
}

typedef void reader_fn(const struct bctx *c, const struct member *m, const json_t *v,
                       const char *path);

static reader_fn *const readers[] = {
    [MK_STR] = rd_str, [MK_STRV] = rd_strv, [MK_ARGV] = rd_argv, [MK_TMPL] = rd_tmpl,
    [MK_NUMS] = rd_nums, [MK_COUNTS] = rd_counts, [MK_BOOL] = rd_bool, [MK_ENUM] = rd_enum,
    [MK_LIST] = rd_list, [MK_SPECIAL] = NULL, [MK_NOTE] = NULL,
};

static void member_default(struct recipe_bench *b, const struct member *m)
{
    switch (m->kind) {
    case MK_NUMS:
        *AT(b, m->off, double) = *AT(b, m->aux, double) = m->dflt;
        break;
    case MK_COUNTS:
        *AT(b, m->off, int) = *AT(b, m->aux, int) = (int)m->dflt;
        break;
    case MK_BOOL:
        *AT(b, m->off, bool) = m->dflt != 0;
        break;
    case MK_ENUM:
        *AT(b, m->off, int) = (int)m->dflt;
        break;
    default:
        break;
    }
}

static void read_member(const struct bctx *c, const struct member *m)
{
    const json_t *v = json_object_get(c->o, m->key);
    if (!v && (m->flags & M_FILE))
        v = json_object_get(c->file, m->key);
    if (!v && (m->flags & M_REQUIRED))
        rcp_bad(c->l, c->path, "missing \"%s\"", m->key);
    if (!v && !(m->flags & M_ALWAYS))
        return;
    char *p = xasprintf("%s.%s", c->path, m->key);
    if (v && readers[m->kind])
        readers[m->kind](c, m, v, p);
    if (m->hook)
        m->hook(c, v, p);
    free(p);
}

/* Frees the elements of an MK_LIST or MK_SPECIAL member, and its array. */
static void elements_free(struct recipe_bench *b, const struct member *m)
{
    if (m->aux == NO_AUX) {
        m->drop(AT(b, m->off, void));
        return;
    }
    char *arr = *AT(b, m->off, char *);
    for (size_t i = 0; i < *AT(b, m->aux, size_t); i++)
        m->drop(arr + i * m->size);
    free(arr);
}

static void member_free(struct recipe_bench *b, const struct member *m)
{
    switch (m->kind) {
    case MK_STR:
        free(*AT(b, m->off, char *));
        break;
    case MK_STRV:
        rcp_strv_free(*AT(b, m->off, char **), *AT(b, m->aux, size_t));
        break;
    case MK_ARGV:
        rcp_argv_tmpl_free(AT(b, m->off, struct argv_tmpl));
        break;
    case MK_TMPL:
        tmpl_drop(*AT(b, m->off, struct tmpl *));
        break;
    case MK_LIST:
    case MK_SPECIAL:
        elements_free(b, m);
        break;
    default:
        break;
    }
}

/* --- a benchmark: reading and freeing it by the table ------------------- */

void rcp_bench_free(struct recipe_bench *b)
{
    if (!b)
        return;
    for (const struct member *m = bench_members; m->key; m++)
        member_free(b, m);
    rcp_derived_free(b);
    free(b->file);
    free(b->tool);
    free(b);
}

struct recipe_bench *rcp_load_bench(struct ld *l, const json_t *file, const json_t *o,
                                    const char *path, const char *tool)
{
    if (!rcp_want(l, o, JSON_OBJECT, path, "an object"))
        return NULL;
    rcp_check_keys(l, o, path, &bench_members[0].key, sizeof bench_members[0]);
    struct recipe_bench *b = xcalloc(1, sizeof *b);
    b->file = xstrdup(l->label);
    b->tool = xstrdup(tool);
    const struct member *m;
    for (m = bench_members; m->key; m++)
        member_default(b, m);
    const struct bctx c = { .l = l, .b = b, .file = file, .o = o, .path = path };
    for (m = bench_members; m->key; m++)
        read_member(&c, m);
    if (!l->bad)
        rcp_derive_metrics(l, b, path);
    return b;
}
