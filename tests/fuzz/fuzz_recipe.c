/* fuzz_recipe.c - the tool-output parser: the shipped recipes' patterns
 * (benches/tools, or $EVMBENCH_DATADIR/benches/tools) applied to arbitrary
 * output. Byte 0 picks the benchmark, byte 1 the invocation; the rest is
 * what the tool printed. */
#include "config.h"

#include "common/diag.h"
#include "fuzz_util.h"
#include "recipe/recipe.h"
#include "common/util.h"

static struct recipe_set *set;

static void free_set(void)
{
    recipe_set_free(set);
}

static void seen(void *ctx, const struct recipe_match *m)
{
    (void)m;
    (*(size_t *)ctx)++;
}

static void load(void)
{
    {
        const char *top = getenv("EVMBENCH_DATADIR");
        char *dir = path_join(top ? top : ABS_TOP_SRCDIR, "benches/tools");
        struct diag d;
        diag_init(&d);
        set = recipe_load_dir(dir, &d);
        diag_free(&d);
        free(dir);
        if (!set || recipe_count(set) == 0)
            abort();
        atexit(free_set);
    }
}

/* EVMFUZZ_LIST=1: prints "tool benchmark" for each recipe and exits (the
 * seed corpus pairs each captured output with its benchmarks). */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    load();
    if (getenv("EVMFUZZ_LIST")) {
        for (size_t i = 0; i < recipe_count(set); i++)
            printf("%s %s\n", recipe_tool(recipe_get(set, i)), recipe_name(recipe_get(set, i)));
        exit(0);
    }
    return 0;
}

/* Input: "benchmark[ invocation]\n" then the output. An unknown name picks
 * a benchmark by its length, so mutated names still reach some parser. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *nl = memchr(data, '\n', size);
    if (!nl)
        return 0;
    char *head = fuzz_strdup(data, (size_t)(nl - data));
    char *sp = strchr(head, ' ');
    size_t inv = 0;
    if (sp) {
        *sp = '\0';
        inv = strtoul(sp + 1, NULL, 10);
    }
    const struct recipe_bench *b = recipe_find(set, head);
    if (!b)
        b = recipe_get(set, strlen(head) % recipe_count(set));
    free(head);
    size_t ninv = recipe_invocation_count(b);
    inv = ninv ? inv % ninv : 0;
    char *out = fuzz_strdup(nl + 1, size - (size_t)(nl - data) - 1);
    size_t n = 0;
    struct diag d;
    diag_init(&d);
    int rc = recipe_parse(b, inv, NULL, out, seen, &n, &d);
    if (rc >= 0 && (size_t)rc != n)
        abort();    /* the count returned is the number of calls */
    if ((rc < 0) != (d.n == 1))
        abort();    /* an error pattern's match, and only that, leaves one message */
    diag_free(&d);
    free(out);
    return 0;
}
