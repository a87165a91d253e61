/* fuzz_tooldef.c - the tool-definition loader (a JSON file of benches/tools,
 * which a user may add or edit) on arbitrary text, then what the runner asks
 * of every benchmark it accepted: metrics, invocations and their labels,
 * argument vectors, environment, working directory, expected metrics, and a
 * parse of a small fixed output. Nothing is run and no file is written. */
#include "config.h"

#include "common/diag.h"
#include "fuzz_util.h"
#include "recipe/recipe.h"

/* At most this many invocations of a benchmark are asked about: the count
 * is a product and may be large, each one alike in what it exercises. */
#define INVOCATIONS_ASKED 8

static const char output[] =
    "0.000512 1.25\n1 2 3\nresult: 42.5 MB/s\nTotal: 1000 ops in 2.0 s\n"
    "Copy:  1234.5  0.01  0.01  0.02\nlatency 0.5 us\n";

static void seen(void *ctx, const struct recipe_match *m)
{
    if (!m->metric)
        abort();    /* every value is some metric's */
    (*(size_t *)ctx)++;
}

static void ask(const struct recipe_bench *b, const struct recipe_env *env)
{
    size_t nm;
    const struct recipe_metric *ms = recipe_metrics(b, &nm);
    for (size_t i = 0; i < nm; i++)
        if (!ms[i].id)
            abort();    /* every metric has an id */
    (void)recipe_name(b);
    (void)recipe_tool(b);
    (void)recipe_section(b);
    (void)recipe_sdk(b);
    (void)recipe_budget(b, env->quick);
    (void)recipe_timeout(b, env->quick);
    (void)recipe_runs(b, env->quick);
    (void)recipe_unrunnable(b, env);
    free(recipe_scratch(b, env));
    free(recipe_not_found_reason(b));
    size_t ninv = recipe_invocation_count(b);
    for (size_t inv = 0; inv < ninv && inv < INVOCATIONS_ASKED; inv++) {
        char *label = recipe_invocation_label(b, inv);
        size_t back;
        /* a label names its invocation, and only that one */
        if (*label && (!recipe_invocation_lookup(b, label, &back) || back != inv))
            abort();
        free(label);
        recipe_strv_free(recipe_argv(b, inv, env, NULL));
        recipe_strv_free(recipe_argv(b, inv, env, "setup"));
        recipe_strv_free(recipe_argv(b, inv, env, "teardown"));
        recipe_strv_free(recipe_envv(b, inv, env));
        free(recipe_cwd(b, inv, env));
        enum cpuload_scope scope;
        free(recipe_cpu_load_metric(b, inv, env, &scope));
        const struct recipe_metric **exp;
        const char **why_not;
        size_t ne = recipe_expected(b, inv, env, &exp, &why_not);
        (void)ne;
        free(exp);
        free(why_not);
        size_t n = 0;
        struct diag d;
        diag_init(&d);
        int rc = recipe_parse(b, inv, env, output, seen, &n, &d);
        if (rc >= 0 && (size_t)rc != n)
            abort();    /* the count returned is the number of calls */
        diag_free(&d);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct diag d;
    diag_init(&d);
    /* an empty set: a folder that is not there is one message */
    struct recipe_set *set = recipe_load_dir("/nonexistent-evmbench-fuzz", &d);
    diag_free(&d);
    diag_init(&d);
    if (recipe_load_text(set, (const char *)data, size, "tools/fuzz.json", &d)) {
        struct recipe_env env = { .quick = size % 2 == 0, .tmpdir = "/tmp/evmfuzz-none",
                                  .bindir = "/usr/bin", .binary = "/usr/bin/true" };
        for (size_t i = 0; i < recipe_count(set); i++)
            ask(recipe_get(set, i), &env);
    }
    diag_free(&d);
    recipe_set_free(set);
    return 0;
}
