/* recipe.h - external tool recipes: the JSON files of benches/tools as data.
 *
 * A recipe file describes one tool family (lmbench, stream_c, ...) as a
 * list of benchmarks. A benchmark names its binaries, a command template
 * expanded into an argument vector (never a shell), the matrix of
 * invocations (variables with value lists), which output stream to read,
 * its time limit and run counts, and PCRE2 patterns that turn the tool's
 * output into values of the guide's metric ids. The schema is documented
 * in benches/tools/README.md.
 *
 * Loading never prints: problems go to a diag list as
 * "tools/FILE.json: benchmarks[2].patterns[0].regex: message" and the
 * benchmark concerned is skipped; the rest loads.
 *
 * Running a recipe is toolkernel.h's job; this module loads, looks up
 * binaries, expands templates and parses output (also without running,
 * for saved logs). Everything here is read-only after loading. The
 * implementation is split by job: see recipe_impl.h. */
#ifndef EVMBENCH_RECIPE_H
#define EVMBENCH_RECIPE_H

#include <stdbool.h>
#include <stddef.h>

#include "common/cpuload.h"
#include "common/diag.h"
#include "common/stats.h"

#define RECIPE_FORMAT "evmbench-tools/1"

enum recipe_stream { RECIPE_STDOUT, RECIPE_STDERR, RECIPE_BOTH };
enum recipe_sdk { RECIPE_SDK_LINUX, RECIPE_SDK_MCU };

/* A metric the benchmark produces: a guide row id with its unit. */
struct recipe_metric {
    char *id;
    char *unit;
    enum summary summary;
    bool cpu_bound;         /* scales with the CPU clock (kernel_metric) */
    char *row;              /* the guide row it is compared with; NULL: id */
    char *column;           /* the guide column (fnmatch pattern); NULL: the
                             * board's first column */
    char *table;            /* the guide table's title (fnmatch); NULL: any */
};

struct recipe_bench;
struct recipe_set;
struct recipe_env;

/* --- loading ------------------------------------------------------------ */

/* Loads every *.json in `dir` (name order). Never NULL; a missing
 * directory is one diagnostic. */
struct recipe_set *recipe_load_dir(const char *dir, struct diag *d);
/* Loads every *.json of a data folder (datadir.h: a directory or the
 * built-in table) in name order; labels are "tools/<name>". Never NULL. */
struct data_dir;
struct recipe_set *recipe_load_from(const struct data_dir *dd, struct diag *d);
/* The shipped recipes: data_dir_default("tools"). Never NULL. */
struct recipe_set *recipe_load_default(struct diag *d);
/* Adds one file to a set; false when the whole file was rejected.
 * `label` names it in messages (NULL: "tools/<basename>"). */
bool recipe_load_file(struct recipe_set *set, const char *path, const char *label,
                      struct diag *d);
/* The same for a file's contents text[0..len); label names it. */
bool recipe_load_text(struct recipe_set *set, const char *text, size_t len, const char *label,
                      struct diag *d);
void recipe_set_free(struct recipe_set *set);

size_t recipe_count(const struct recipe_set *set);
const struct recipe_bench *recipe_get(const struct recipe_set *set, size_t i);
const struct recipe_bench *recipe_find(const struct recipe_set *set, const char *name);

/* --- what a benchmark is ------------------------------------------------ */

const char *recipe_name(const struct recipe_bench *b);       /* "bw_mem" */
const char *recipe_tool(const struct recipe_bench *b);       /* "lmbench" */
const char *recipe_section(const struct recipe_bench *b);    /* "lmbench" */
/* The SDK whose guide sections the benchmark measures, that is where it
 * runs: "linux" (the default: a Linux tool on the A cores) or "mcu+" (the
 * MCU+ SDK's R5F firmware). */
const char *recipe_sdk(const struct recipe_bench *b);
const char *recipe_description(const struct recipe_bench *b);
const char *recipe_provided_by(const struct recipe_bench *b);
/* The union of the metrics of every invocation, in first-seen order. */
const struct recipe_metric *recipe_metrics(const struct recipe_bench *b, size_t *n);
double recipe_budget(const struct recipe_bench *b, bool quick);

/* --- the user's run parameters ----------------------------------------- */

/* Values of --storage-dir ("storage_dir"; "storage_target" is the file
 * or, with --allow-raw-device, the device a storage test writes, from
 * toolparam_storage()), --peer ("peer") and --audio-device ("audio_device"),
 * which a
 * recipe reads through a parameter {"source": "option", "option": NAME}.
 * The caller validates them (toolparam.h). NULL unsets. Returns false for
 * an unknown name. Process-wide; a forked worker inherits them. */
bool recipe_set_option(const char *name, const char *value);
const char *recipe_option(const char *name);
bool recipe_option_known(const char *name);

/* Why the benchmark cannot run here: the `missing` text of the first
 * parameter of its "requires" list that is unset ("needs --peer"), or
 * NULL when it can. Not owned. */
const char *recipe_unrunnable(const struct recipe_bench *b, const struct recipe_env *env);

/* The metric id that receives the CPU load of invocation `inv` ("cpu_load"
 * in the recipe) and how it is measured; NULL when the recipe has none.
 * Caller frees. */
char *recipe_cpu_load_metric(const struct recipe_bench *b, size_t inv,
                             const struct recipe_env *env, enum cpuload_scope *scope);

/* The file the tool writes outside its temporary directory ("scratch",
 * e.g. fio's test file in --storage-dir), expanded; NULL when none or
 * a parameter is unset. The runner removes it (a regular file only, never
 * a device) before the first invocation and when the benchmark ends, also
 * when the worker is killed. Caller frees. */
char *recipe_scratch(const struct recipe_bench *b, const struct recipe_env *env);

/* --- finding the tool --------------------------------------------------- */

/* A directory searched before everything else (--tools-dir); NULL clears.
 * Process-wide; a forked worker inherits it. */
void recipe_set_tools_dir(const char *dir);
const char *recipe_tools_dir(void);

/* Looks for the benchmark's binaries in the tools dir, the recipe's search
 * paths, then $PATH. Returns the absolute path (caller frees) or NULL. */
char *recipe_find_binary(const struct recipe_bench *b);
/* The i-th binary name the benchmark runs ("bw_mem"), NULL past the last. */
const char *recipe_binary_name(const struct recipe_bench *b, size_t i);
/* Where recipe_find_binary() looked and what provides the tool, as one
 * line for a "not found" message. Caller frees. */
char *recipe_not_found_reason(const struct recipe_bench *b);

/* --- invocations -------------------------------------------------------- */

/* Number of invocations: the product of the variables' value counts. */
size_t recipe_invocation_count(const struct recipe_bench *b);
/* Finds the invocation whose variables have the given values, written
 * "op=bcopy size=16M" (every variable named once). */
bool recipe_invocation_lookup(const struct recipe_bench *b, const char *spec, size_t *inv);
/* "op=bcopy size=16M" of an invocation; "" when there are no variables.
 * Caller frees. */
char *recipe_invocation_label(const struct recipe_bench *b, size_t inv);

/* The values the runner knows at run time: the temporary directory, the
 * directory of the binary found, quick or full. Unknown fields are NULL. */
struct recipe_env {
    bool quick;
    const char *tmpdir;
    const char *bindir;
    const char *binary;
    const char *const *params;  /* "name=value" overriding parameters (a saved
                                 * log's CPU clock ...); NULL-terminated or NULL */
    bool saved_log;             /* parsing a saved log of many runs: every match
                                 * of every pattern counts (not only the first),
                                 * and this machine's CPU clock is not read */
};

/* The argument vector of an invocation for `binary`'s entry in the recipe
 * (argv[0] = binary, NULL-terminated; caller frees with recipe_strv_free).
 * `step` is NULL for the measurement, "setup" or "teardown" for the
 * server steps (NULL returned when the benchmark has none). */
char **recipe_argv(const struct recipe_bench *b, size_t inv, const struct recipe_env *env,
                   const char *step);
/* Environment additions "NAME=value" (NULL-terminated, may be empty). */
char **recipe_envv(const struct recipe_bench *b, size_t inv, const struct recipe_env *env);
/* The working directory (expanded), NULL for the temporary directory. */
char *recipe_cwd(const struct recipe_bench *b, size_t inv, const struct recipe_env *env);
void recipe_strv_free(char **v);

enum recipe_stream recipe_stream(const struct recipe_bench *b);
double recipe_timeout(const struct recipe_bench *b, bool quick);
int recipe_runs(const struct recipe_bench *b, bool quick);
bool recipe_pinned(const struct recipe_bench *b);
bool recipe_has_server(const struct recipe_bench *b);

/* Files and directories the benchmark needs in its temporary directory
 * (created by recipe_prepare_tmpdir()); paths invocation `inv` needs to
 * exist on the system (recipe_check_needs()). Both return false on failure
 * after adding the reason to d ("cannot create PATH: reason", "PATH is
 * missing[: reason]"). */
bool recipe_prepare_tmpdir(const struct recipe_bench *b, const struct recipe_env *env,
                           struct diag *d);
bool recipe_check_needs(const struct recipe_bench *b, size_t inv, struct diag *d);

/* --- parsing ------------------------------------------------------------ */

/* One value found in the output. `invalid` is non-NULL when the tool
 * printed something for the metric that cannot be used (not a number, a
 * failed-measurement marker); then `value` is NAN. */
struct recipe_match {
    const char *metric;
    const char *unit;
    double value;
    const char *invalid;
    size_t offset;          /* where the match starts in the output */
};
typedef void (*recipe_match_fn)(void *ctx, const struct recipe_match *m);

/* Whether the tool reported an error of its own: the first of the
 * recipe's error patterns, in their order, that matches anywhere in
 * `output` (NUL-terminated, NULL for none; the runner gives it both
 * streams, as tools print their errors on stderr whichever stream their
 * values are on). When one does, its reason and the line it matched
 * ("REASON (\"LINE\")") are added to d. */
bool recipe_tool_error(const struct recipe_bench *b, const char *output, struct diag *d);

/* Parses a tool's output (the chosen stream, NUL-terminated) for
 * invocation `inv`, calling fn for every value, in output order per
 * pattern. Returns the number of matches (valid or not), or -1 when an
 * error pattern of the recipe matched the output (recipe_tool_error()):
 * then its reason and line are added to d and fn was not called. `env`
 * may be NULL (saved logs: parameters unset, full mode). */
int recipe_parse(const struct recipe_bench *b, size_t inv, const struct recipe_env *env,
                 const char *output, recipe_match_fn fn, void *ctx, struct diag *d);

/* The metrics invocation `inv` is expected to produce. For each, *why_not
 * is set (not owned) when it cannot be produced here (a parameter it needs
 * is unset, e.g. no cpufreq), else NULL. Returns the count; the arrays are
 * owned by the caller (free the array, not the strings, which live in
 * the recipe). */
size_t recipe_expected(const struct recipe_bench *b, size_t inv, const struct recipe_env *env,
                       const struct recipe_metric ***metrics, const char ***why_not);

#endif
