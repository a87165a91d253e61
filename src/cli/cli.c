/* cli.c - the dispatcher: one table of the commands, from which come the
 * command a line names, whether the options given apply to it, and the
 * usage text. The commands are in cli_*.c, the options in cli_options.c,
 * the output helpers in cli_output.c. */
#include "config.h"
#include "cli/cli.h"

#include <getopt.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "data/profile.h"
#include "common/util.h"

#include "cli/cli_impl.h"
#include "cli/cli_options.h"
#include "benches/kernels/registry.h"

/* What the dispatcher does around a command's handler. */
enum {
    CMD_APP = 1 << 0,       /* builds the app and prints its loader warnings first */
    CMD_OWN_DIAG = 1 << 1,  /* with CMD_APP: the handler prints those warnings */
    CMD_REFS = 1 << 2,      /* with CMD_APP: fails when no reference file loads */
    CMD_NO_ARGS = 1 << 3,   /* takes no arguments */
    CMD_FILES = 1 << 4,     /* its arguments are file names, never empty */
    CMD_ANY_OPTS = 1 << 5,  /* options unchecked: the handler's message names
                             * what is wrong (`results` without a subcommand) */
};

struct cli_command {
    const char *name;       /* "list", "results show"; NULL: no command */
    int (*handler)(struct cli *c, struct app *a);
    cli_optset opts;        /* the options it takes */
    unsigned flags;         /* CMD_* */
    const char *usage;      /* synopsis line(s) after "evmbench ", NULL: none */
    const char *summary;    /* beside the first line */
};

/* Option sets that several commands take. */
#define O(x) OPT_BIT(OPT_##x)
#define OUT (O(OUTPUT) | O(FORMAT))
#define BOARD (O(SYSROOT) | O(BOARD) | O(REFS))
/* how the kernels run */
#define RUNNING (O(QUICK) | O(TIMEOUT) | O(TOLERANCE) | O(SIZE) | O(ITERATIONS) | O(THREADS))
/* what the tools need; list too: whether a tool benchmark can run depends on these */
#define TOOLS (O(TOOLS_DIR) | O(STORAGE_DIR) | O(ALLOW_RAW) | O(PEER) | O(AUDIO_DEVICE))
#define LIVE (O(PROVIDER) | O(RESULTS_DIR) | O(NO_SAVE) | O(QUIET) | O(LAVA_KMSG))

/* In the order in which a usage error lists the commands that take an option. */
static const struct cli_command commands[] = {
    { NULL, cli_cmd_screens,
      OUT | BOARD | RUNNING | TOOLS | LIVE | O(RUN) | O(DEMO) | O(THEME) | O(SLOW_TTY) | O(UI) |
      O(CHECK) | O(PROFILE) | O(BASELINE) | O(FAIL_ON_DEVIATION),
      CMD_APP | CMD_OWN_DIAG, "[OPTIONS]\n--check [--baseline NAME] [--fail-on-deviation PCT]",
      "the interactive screens" },
    { "list", cli_cmd_list, OUT | BOARD | TOOLS | O(ALL), CMD_APP | CMD_REFS | CMD_NO_ARGS,
      "list [--all]", "the benchmarks, what runs each" },
    { "sysinfo", cli_cmd_sysinfo, OUT | BOARD, CMD_NO_ARGS,
      "sysinfo", "the board and its privileges" },
    { "refs", cli_cmd_refs, OUT | O(BOARD) | O(REFS) | O(SECTION), CMD_APP | CMD_REFS | CMD_NO_ARGS,
      "refs", "the guides' reference numbers" },
    { "run", cli_cmd_run,
      OUT | BOARD | RUNNING | TOOLS | LIVE | O(SAVE_BASELINE) | O(REPLACE_BASELINE) | O(BASELINE) |
      O(FAIL_ON_DEVIATION) | O(PROFILE), CMD_APP,
      "run BENCH|CATEGORY...\nrun --profile NAME", "benchmarks without the screens" },
    { "selfcheck", cli_cmd_selfcheck, OUT | BOARD | RUNNING | TOOLS | O(ROUNDS), CMD_APP,
      "selfcheck [BENCH...]", "the kernels beside the tools" },
    { "import-guide", cli_cmd_import_guide, O(OUTPUT) | O(LAYOUT), CMD_FILES,
      "import-guide FILE...", "a guide's tables as a refs file" },
    { "results list", cli_cmd_results, OUT | O(RESULTS_DIR), 0,
      "results list", "the saved runs" },
    { "results show", cli_cmd_results, OUT | O(RESULTS_DIR) | O(FAIL_ON_DEVIATION), 0,
      "results show RUN", "a run's rows" },
    { "results compare", cli_cmd_results, OUT | O(RESULTS_DIR), 0,
      "results compare RUN_A RUN_B", "two runs, metric by metric" },
    { "results export", cli_cmd_results, OUT | O(RESULTS_DIR) | O(FAIL_ON_DEVIATION), 0,
      "results export RUN", "a run's rows into -o FILE" },
    { "results prune", cli_cmd_results, O(RESULTS_DIR) | O(KEEP), 0,
      "results prune --keep N", "delete all but the newest N" },
    { "results import", cli_cmd_results_import,
      BOARD | O(TOLERANCE) | O(RESULTS_DIR) | O(TOOL), CMD_FILES,
      "results import LOG --tool TOOL", "a tool's saved log as a run" },
    { "results", cli_cmd_results, 0, CMD_ANY_OPTS, NULL, NULL },
};

/* The entry of the command a line names (cmd, then args[0] for the
 * two-word ones), or NULL for an unknown command. */
static const struct cli_command *find_command(const char *cmd, char **args, int nargs)
{
    for (size_t i = 0; i < ARRAY_SIZE(commands); i++) {
        const char *name = commands[i].name;
        if (!cmd || !name) {
            if (!cmd && !name)
                return &commands[i];
            continue;
        }
        const char *sp = strchr(name, ' ');
        size_t len = sp ? (size_t)(sp - name) : strlen(name);
        if (strncmp(cmd, name, len) != 0 || cmd[len])
            continue;
        if (!sp || (nargs > 0 && strcmp(args[0], sp + 1) == 0))
            return &commands[i];
    }
    return NULL;
}

/* How a message names a command: 'list', or the screens without quotes. */
static void add_command_name(struct strbuf *sb, const struct cli_command *k)
{
    if (k->name)
        sb_addf(sb, "'%s'", k->name);
    else
        sb_addf(sb, "the screens");
}

/* A usage error for the first option given that command k does not take:
 * it names the commands that do. */
static int check_options_apply(struct cli *c, const struct cli_given *g,
                               const struct cli_command *k)
{
    if (k->flags & CMD_ANY_OPTS)
        return -1;
    for (int o = 0; o < OPT_COUNT; o++) {
        if (!g->name[o][0] || (k->opts & OPT_BIT(o)))
            continue;
        size_t count = 0, n = 0;
        for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
            count += (commands[i].opts & OPT_BIT(o)) != 0;
        struct strbuf sb;
        sb_init(&sb);
        for (size_t i = 0; i < ARRAY_SIZE(commands); i++) {
            if (!(commands[i].opts & OPT_BIT(o)))
                continue;
            sb_addf(&sb, "%s", n++ == 0 ? "" : n == count ? " or " : ", ");
            add_command_name(&sb, &commands[i]);
        }
        sb_addf(&sb, ", not for ");
        add_command_name(&sb, k);
        int rc = cli_usage_error(c, "%s is for %s", g->name[o], sb.buf);
        sb_free(&sb);
        return rc;
    }
    return -1;
}

/* The output of command k goes to stdout (not -o FILE, nor the kernel log). */
static bool output_to_stdout(const struct cli *c, const struct cli_command *k)
{
    if (c->output && strcmp(c->output, "-") != 0)
        return false;
    if ((k->opts & O(LAVA_KMSG)) && c->kmsg && cli_format_is(c, "lava"))
        return false;
    return true;
}

/* File arguments (import-guide FILE..., results import LOG) must not be
 * empty; those of a two-word command follow its second word. */
static int check_file_args(struct cli *c, const struct cli_command *k)
{
    if (!(k->flags & CMD_FILES))
        return -1;
    int first = strchr(k->name, ' ') ? 1 : 0;
    for (int i = first; i < c->nargs; i++)
        if (!*c->args[i])
            return cli_usage_error(c, "%s: argument %d is an empty file name", k->name,
                                   i - first + 1);
    return -1;
}

/* --- the usage text --------------------------------------------------------- */

#define USAGE_COLUMN 48     /* where the summaries start */

/* The synopsis of every command, from the table, and where the rest is. */
static void print_usage(FILE *f)
{
    bool first = true;
    for (size_t i = 0; i < ARRAY_SIZE(commands); i++) {
        const char *u = commands[i].usage;
        for (bool top = true; u && *u; top = false) {
            size_t len = strcspn(u, "\n");
            int w = fprintf(f, "%s evmbench %.*s", first ? "Usage:" : "      ", (int)len, u);
            if (top)
                fprintf(f, "%*s%s", w < USAGE_COLUMN ? USAGE_COLUMN - w : 2, "",
                        commands[i].summary);
            fputc('\n', f);
            first = false;
            u += len + (u[len] == '\n');
        }
    }
    fputs("\nEvery option, what each command takes, the keys and the exit status:\n"
          "man evmbench\n", f);
}

/* -h and -V: the usage text or the version on stdout. */
static int help_or_version(struct cli *c)
{
    if (c->stdout_closed)
        return cli_stdout_closed_error(c);
    if (c->help)
        print_usage(c->out);
    else
        fprintf(c->out, "%s\n", PACKAGE_STRING);
    return cli_close_output(c, c->out);
}

/* --- running a command ------------------------------------------------------ */

/* A command that works on the app the dispatcher builds; then the one its
 * handler named in c->then, on the same app. */
static int run_with_app(struct cli *c, const struct cli_command *k)
{
    struct app a;
    app_init(&a, &c->cfg);
    int rc = EXIT_FAILURE;
    if ((k->flags & CMD_REFS) && a.refs_loaded == 0) {
        /* nothing to show (list: the categories are the guides'); the
         * other commands still run without references */
        cli_print_diag(c, &a.diag);
        fprintf(c->err, "evmbench: no reference file could be loaded from %s\n", a.refs_path);
    } else {
        if (!(k->flags & CMD_OWN_DIAG))
            cli_print_diag(c, &a.diag);
        rc = k->handler(c, &a);
        const struct cli_command *next = c->then ? find_command(c->then, NULL, 0) : NULL;
        c->then = NULL;
        if (next)
            rc = next->handler(c, &a);
    }
    app_free(&a);
    profile_free(&c->profile);
    return rc;
}

int cli_main(int argc, char **argv, FILE *out, FILE *err)
{
    return cli_main_std(argc, argv, out, err, 0);
}

int cli_main_std(int argc, char **argv, FILE *out, FILE *err, unsigned closed)
{
    struct cli c = { .out = out, .err = err, .stdout_closed = closed & CLI_STDOUT_CLOSED };
    /* the app measures with the kernels built into this program */
    c.cfg.kernels = kernel_registry;
    c.cfg.nkernels = kernel_registry_count;
    struct cli_given given = { 0 };
    int rc = cli_parse_options(&c, &given, argc, argv);
    if (rc >= 0)
        return rc;
    if (c.help || c.version)
        return help_or_version(&c);
    const char *cmd = optind < argc ? argv[optind] : NULL;
    c.args = argv + optind + (cmd ? 1 : 0);
    c.nargs = argc - optind - (cmd ? 1 : 0);
    const struct cli_command *k = find_command(cmd, c.args, c.nargs);
    /* an unknown command has its own message, after the option checks */
    if (k && ((rc = check_options_apply(&c, &given, k)) >= 0 || (rc = check_file_args(&c, k)) >= 0))
        return rc;
    if (c.stdout_closed && k && output_to_stdout(&c, k))
        return cli_stdout_closed_error(&c);
    if ((rc = cli_set_tool_params(&c)) >= 0)
        return rc;
    if (!k)
        return cli_usage_error(&c, "unknown command '%s'", cmd);
    if ((k->flags & CMD_NO_ARGS) && c.nargs)
        return cli_usage_error(&c, "%s takes no arguments", cmd);
    return k->flags & CMD_APP ? run_with_app(&c, k) : k->handler(&c, NULL);
}
