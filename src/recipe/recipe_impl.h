/* recipe_impl.h - the loaded form of a tool recipe, shared by the recipe
 * modules only (everything else uses recipe.h):
 *   recipe_load.c      reading files and folders into a recipe set, freeing
 *                      the set, the accessors
 *   recipe_schema.c    the table of a benchmark's members (key, kind,
 *                      default, limits), reading and freeing a benchmark
 *                      by it
 *   recipe_read.c      readers of the structured members: templates,
 *                      command lines, variables, parameters, environment,
 *                      restrictions, files, needs, binaries, errors
 *   recipe_read_pattern.c  readers of "patterns" (what each match emits)
 *                      and "cpu_load"
 *   recipe_metric.c    the metrics each invocation produces, derived
 *                      from the patterns
 *   recipe_template.c  command templates: parsing, checking, expansion;
 *                      parameters, variables and invocations
 *   recipe_parse.c     PCRE2 patterns applied to output: captures, unit
 *                      scaling, error patterns
 *   recipe.c           the recipe on this system: finding the binary, the
 *                      files the benchmark needs
 *   recipe_ld.c        the loading context: file/JSON-path diagnostics and
 *                      JSON members, arrays and objects read with their
 *                      paths
 *   recipe_option.c    the user's run options that parameters read
 * Calls run one way: load calls schema; schema calls read, read_pattern
 * and metric; read_pattern calls read; read calls back only schema's
 * frees (of a parameter replaced, a binary dropped). These, recipe.c and
 * parse call template; the loaders and template call ld and option; ld
 * and option call none of them.
 * Nothing here is thread-safe; a loaded recipe is read-only. */
#ifndef EVMBENCH_RECIPE_IMPL_H
#define EVMBENCH_RECIPE_IMPL_H

#define PCRE2_CODE_UNIT_WIDTH 8

#include <stdint.h>

#include <jansson.h>
#include <pcre2.h>

#include "recipe/recipe.h"

/* --- templates ---------------------------------------------------------- */

enum filter { F_NONE, F_LOWER, F_UPPER, F_SLUG };

struct seg {
    char *text;             /* literal text, or the name of a reference */
    char *field;            /* {name.field}; NULL otherwise */
    enum filter filter;
    bool ref;
};

struct tmpl {
    char *src;
    struct seg *segs;
    size_t nsegs;
};

/* --- the loaded recipe -------------------------------------------------- */

struct var_value {
    char *value;
    char **fnames;
    struct tmpl *fvalues;
    size_t nfields;
};

struct var {
    char *name;
    struct var_value *values;
    size_t nvalues;
};

enum param_source { P_FIXED, P_CPUFREQ_KHZ, P_CPUFREQ_MHZ, P_OPTION };

struct param {
    char *name;
    char *full, *quick;     /* NULL: unset in that mode */
    enum param_source source;
    char *option;           /* P_OPTION: the recipe_set_option() name */
    char *missing;          /* why it can be unset, for failures */
};

struct arg {                /* a group of words: all or none */
    struct tmpl *words;
    size_t nwords;
};

struct argv_tmpl {
    struct arg *args;
    size_t nargs;
};

struct binary {
    char *name;
    struct argv_tmpl args;
    bool has_args;          /* overrides the benchmark's args */
};

struct capture {
    char *name;
    char **from, **to;      /* to == NULL: a list of accepted values */
    size_t n;
};

struct emit {
    struct tmpl *metrics;
    size_t nmetrics;
    char *unit;
    enum summary summary;
    int group;              /* capture number of the value */
    double scale;           /* the product of the constant factors */
    struct tmpl *factors;   /* "scale" factors from variables/parameters,
                             * expanded per match: each must be a number */
    size_t nfactors;
    bool duration;          /* "convert": "duration": "1min 6.365s" -> s */
    bool has_min;
    double min;
    bool cpu_bound;
    struct tmpl *row, *column;  /* the guide row / column it is compared with */
    struct tmpl *table;         /* the guide table (title pattern) */
};

/* Restricts a pattern or a need to some invocations: each listed variable
 * must have one of the listed values. */
struct only {
    size_t *var;
    char ***values;
    size_t *nvalues;
    size_t n;
};

struct pattern {
    struct only only;
    pcre2_code *re;
    bool multi;
    struct emit *emits;
    size_t nemits;
    struct capture *caps;
    size_t ncaps;
    char **requires;
    size_t nrequires;
};

struct errpat {
    pcre2_code *re;
    char *reason;
};

struct rfile {
    char *name;
    enum { RF_SIZED, RF_CONTENT, RF_DIR, RF_LINK } kind;
    size_t size;
    bool random;
    char *content;
    struct tmpl *link;
};

struct need {
    char *path;
    char *reason;
    struct only only;
};

struct env_entry {
    char *name;
    struct tmpl *value;
};

/* One expected metric of an invocation. */
struct expect {
    size_t metric;          /* index into metrics */
    size_t pattern;
};

struct recipe_bench {
    char *file;             /* "tools/lmbench.json" */
    char *tool, *name, *section, *description, *provided_by;
    struct binary *bins;
    size_t nbins;
    char **search;
    size_t nsearch;
    struct argv_tmpl args, setup, teardown;
    bool has_setup, has_teardown;
    struct env_entry *env;
    size_t nenv;
    struct tmpl *cwd;
    enum recipe_stream stream;
    enum recipe_sdk sdk;    /* "sdk": the sections (and core) it is for */
    double timeout_full, timeout_quick;
    int runs_full, runs_quick;
    double budget_full, budget_quick;
    bool pin;
    enum summary summary;
    struct var *vars;
    size_t nvars;
    struct param *params;
    size_t nparams;
    struct pattern *pats;
    size_t npats;
    struct errpat *errs;
    size_t nerrs;
    struct rfile *files;
    size_t nfiles;
    struct need *needs;
    size_t nneeds;
    char **requires;        /* parameters without which nothing runs */
    size_t nrequires;
    struct emit cpu_load;   /* metrics[0]: the load of every invocation */
    enum cpuload_scope cpu_scope;
    bool has_cpu_load;
    struct tmpl *scratch;   /* a file the tool writes outside tmpdir */
    /* derived */
    size_t ninv;
    struct recipe_metric *metrics;
    size_t nmetrics, capmetrics;
    struct expect **inv_expect;     /* per invocation */
    size_t *inv_nexpect;
};

struct recipe_set {
    struct recipe_bench **benches;
    size_t n, cap;
};

/* What a template reference can name while expanding: the benchmark
 * and invocation (variables, parameters), the run environment (built-ins,
 * parameter overrides) and the captures of a pattern match. */
struct scope {
    const struct recipe_bench *b;
    size_t inv;
    const struct recipe_env *env;
    const char *const *cap_names;
    const char *const *cap_values;
    size_t ncaps;
};


#define MAX_TMPL_CAPS 8             /* capture references per metric template */
#define CPU_LOAD_PATTERN SIZE_MAX   /* struct expect.pattern of the CPU load */

/* --- recipe_ld.c -------------------------------------------------------- */

/* A loading context: the file label for messages and whether anything
 * was wrong in the benchmark being loaded. */
struct ld {
    const char *label;
    struct diag *d;
    bool bad;
};

/* Reports "LABEL: PATH: message" to l's diag list and marks the benchmark
 * bad (it is skipped). PATH is the JSON path ("benchmarks[2].args[0]"). */
void rcp_bad(struct ld *l, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* "an object", "a string", "a number" ... for messages about j's type. */
const char *rcp_type_name(const json_t *j);
/* A copy of string v; NULL (reported at path) when v is not a string. */
char *rcp_str(struct ld *l, const json_t *v, const char *path);
/* A string member of o: NULL when absent (reported at path when req) or
 * not a string (reported at "path.key"). Caller frees. */
char *rcp_get_str(struct ld *l, const json_t *o, const char *key, const char *path, bool req);
/* A number into *out; false (reported at path) when v is not one. */
bool rcp_get_num(struct ld *l, const json_t *v, const char *path, double *out);
/* Reports each member of o that is not in known (typos must not pass).
 * known: names stride bytes apart, ended by NULL - a plain array
 * (stride sizeof(char *)) or the name field of a table of structs. */
void rcp_check_keys(struct ld *l, const json_t *o, const char *path, const char *const *known,
                    size_t stride);

/* Loading one benchmark: its object, the file's top level (defaults of
 * some members) and the benchmark's JSON path ("benchmarks[2]"). */
struct bctx {
    struct ld *l;
    struct recipe_bench *b;
    const json_t *file;
    const json_t *o;
    const char *path;
};

/* Readers called for each element of an array or member of an object,
 * with its path; into is what they fill. */
typedef void elem_fn(const struct bctx *c, void *into, const json_t *v, const char *path);
typedef void member_fn(const struct bctx *c, void *into, const char *key, const json_t *v,
                       const char *path);

/* fn for each element of array a, at "PATH[i]". */
void rcp_each_elem(const struct bctx *c, const json_t *a, const char *path, elem_fn *fn,
                   void *into);
/* fn for each member of object o, at "PATH.key". */
void rcp_each_member(const struct bctx *c, const json_t *o, const char *path, member_fn *fn,
                     void *into);
/* Whether v has that type; reports "must be WHAT, not TYPE" otherwise. */
bool rcp_want(struct ld *l, const json_t *v, json_type type, const char *path,
              const char *what);
/* Reports a message at "path.key" (and marks the benchmark bad). */
void rcp_bad_member(struct ld *l, const char *path, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Appends the strings of array a (absent: nothing) to *out, counted in *n;
 * reports a value that is not an array, and each element that is not a
 * string (skipped). */
void rcp_load_strings(struct ld *l, const json_t *a, const char *path, char ***out, size_t *n);
/* A number from minimum to maximum, or {"full": x, "quick": y}, into both
 * or the one given; what is not given (or out of range, reported) keeps its
 * value. */
void rcp_full_quick(struct ld *l, const json_t *v, const char *path, double *full,
                    double *quick, double minimum, double maximum);

/* --- recipe_read.c ------------------------------------------------------ */

/* The readers of members, each reporting at path what is wrong. Those
 * the member table of recipe_schema.c names (read_*: the structure a
 * member's kind reads, or a reader of one element of a list) fill c->b. */

/* Parses string v into t[*n] and counts it; false (reported at path) when
 * v is not a string or not a template. */
bool rcp_tmpl_add(struct ld *l, const json_t *v, const char *path, struct tmpl *t, size_t *n);
/* A template of its own from string v, its references checked (captures
 * of pat allowed; pat may be NULL); NULL (reported) when bad. */
struct tmpl *rcp_tmpl_of(struct ld *l, const struct recipe_bench *b, const json_t *v,
                         const struct pattern *pat, const char *path);
/* The same for the optional member key of o; NULL when absent or bad. */
struct tmpl *rcp_opt_tmpl(struct ld *l, const struct recipe_bench *b, const json_t *o,
                          const char *key, const struct pattern *pat, const char *path);
/* The compiled member "regex" of o; NULL (reported) when absent or bad. */
pcre2_code *rcp_regex_member(struct ld *l, const json_t *o, const char *path);
/* The summary s names ("median", "mean", "max", "min"); an unknown name
 * is reported and gives SUMMARY_MEDIAN. */
int rcp_parse_summary(struct ld *l, const char *s, const char *path);
/* The member "summary" of o, when given, into *out. */
void rcp_opt_summary(struct ld *l, const json_t *o, const char *path, enum summary *out);
/* A command line: "args": ["16M", ["-N", "{reps}"], "{op}"] into *out
 * (emptied first); rcp_check_argv then checks its references. */
void rcp_load_argv(const struct bctx *c, const json_t *a, const char *path,
                   struct argv_tmpl *out);
void rcp_check_argv(struct ld *l, const struct recipe_bench *b, const struct argv_tmpl *a,
                    const char *path);
/* Reports each of names that is not a parameter of b. */
void rcp_check_params_named(struct ld *l, const struct recipe_bench *b, char *const *names,
                            size_t n, const char *path);
/* "only": {"VARIABLE": value or [values]} into *out (emptied first; o
 * absent: no restriction). */
void rcp_load_only(const struct bctx *c, const json_t *o, const char *path, struct only *out);
/* "vars": {"NAME": [values]}: one invocation per combination. */
void rcp_read_vars(const struct bctx *c, const json_t *o, const char *path);
/* The file's "params", then the benchmark's own v (the benchmark's win). */
void rcp_read_params(const struct bctx *c, const json_t *v, const char *path);
/* The file's "env", then the benchmark's; then every value is checked. */
void rcp_read_env(const struct bctx *c, const json_t *v, const char *path);
/* One element of a list into slot; false: not kept (the slot is reused).
 * "binaries": "name" or {"name", "args"}; "files": a file made in the
 * temporary directory (false: no usable name); "needs": {"path", "reason",
 * "only"}; "errors": {"regex", "reason"}. */
bool rcp_read_binary(const struct bctx *c, void *slot, const json_t *v, const char *path);
bool rcp_read_file_entry(const struct bctx *c, void *slot, const json_t *o, const char *path);
bool rcp_read_need(const struct bctx *c, void *slot, const json_t *v, const char *path);
bool rcp_read_error(const struct bctx *c, void *slot, const json_t *v, const char *path);

/* --- recipe_read_pattern.c ---------------------------------------------- */

/* One of "patterns" into slot (a struct pattern); always kept, also when
 * bad (then the benchmark is dropped). */
bool rcp_load_pattern(const struct bctx *c, void *slot, const json_t *o, const char *path);
/* "cpu_load": {"metric", "unit", "scope", "row", "column", "table",
 * "summary"} into c->b->cpu_load, cpu_scope and has_cpu_load. */
void rcp_read_cpu_load(const struct bctx *c, const json_t *o, const char *path);

/* --- recipe_metric.c ---------------------------------------------------- */

/* Enumerates every metric id each invocation of b can produce into
 * b->metrics and b->inv_expect (reported at path: more than 10000
 * invocations, a bad id, one id with two units). Called once the members
 * are read without a fault. */
void rcp_derive_metrics(struct ld *l, struct recipe_bench *b, const char *path);
/* Frees what rcp_derive_metrics() made (nothing made: nothing done). */
void rcp_derived_free(struct recipe_bench *b);

/* --- recipe_schema.c ---------------------------------------------------- */

/* Benchmark object o at path ("benchmarks[2]") of file, of the tool family
 * tool: every member read by the table (unknown ones reported), then the
 * metrics derived when nothing was wrong. NULL when o is not an object;
 * otherwise the benchmark, to be dropped when l->bad. */
struct recipe_bench *rcp_load_bench(struct ld *l, const json_t *file, const json_t *o,
                                    const char *path, const char *tool);
/* Frees b and all it holds; NULL is fine. */
void rcp_bench_free(struct recipe_bench *b);
/* Frees the n strings of v and v; NULL is fine. */
void rcp_strv_free(char **v, size_t n);
/* Frees what a holds (not a itself). */
void rcp_argv_tmpl_free(struct argv_tmpl *a);
/* Frees and clears a parameter's values (a benchmark's parameter replaces
 * the file's), keeping its name. */
void rcp_param_clear(struct param *pm);

/* --- recipe_template.c -------------------------------------------------- */

/* Parses template text ("{name}", "{var.field}", "{name|slug}", "{{" for a
 * brace) into t; false (reported at path) on a syntax error, then t is
 * left empty (holding nothing). */
bool rcp_tmpl_parse(struct ld *l, const char *src, const char *path, struct tmpl *t);
/* Reports every reference of t that names nothing: not a capture of pat
 * (pat may be NULL: captures not allowed), variable (with that field),
 * parameter or built-in. */
void rcp_tmpl_check(struct ld *l, const struct recipe_bench *b, const struct tmpl *t,
                    const struct pattern *pat, const char *path);
/* Frees what t holds (not t itself). */
void rcp_tmpl_free(struct tmpl *t);
/* The expanded text (caller frees), or NULL when a reference is unset in
 * sc (a parameter without a value, a field the variable value lacks).
 * depth guards field templates referring to each other: pass 0. */
char *rcp_tmpl_expand(const struct tmpl *t, const struct scope *sc, int depth);

/* Lookups by name; NULL when absent. */
const struct var *rcp_find_var(const struct recipe_bench *b, const char *name);
const struct param *rcp_find_param(const struct recipe_bench *b, const char *name);
const struct capture *rcp_find_cap(const struct pattern *p, const char *name);
/* Whether the compiled regex has a capture group of that name. */
bool rcp_re_has_group(const pcre2_code *re, const char *name);
/* Whether invocation inv has, for every variable o lists, one of its values
 * (an empty restriction applies everywhere). */
bool rcp_only_applies(const struct recipe_bench *b, const struct only *o, size_t inv);
/* A parameter's value in env (overrides, quick/full, run option, cpufreq);
 * NULL when unset. Caller frees. */
char *rcp_param_value(const struct param *p, const struct recipe_env *env);

#endif
