/* cli.c - the dispatcher: which command runs, whether the options given
 * apply to it, and the usage text. The commands are in cli_*.c, the
 * options in cli_options.c, the output helpers in cli_output.c. */
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

static const char usage_text[] =
    "Usage: evmbench [OPTIONS]                 the interactive screens\n"
    "       evmbench list    [--format text|json]\n"
    "       evmbench sysinfo [--sysroot DIR] [--format text|json]\n"
    "       evmbench refs    [--board KEY] [--section TEXT] [--format text|json|csv]\n"
    "       evmbench run     BENCH|CATEGORY...|--profile NAME [--board KEY] [--quick]\n"
    "                        [--format text|json|csv|lava|junit] [--no-save]\n"
    "                        [--baseline NAME] [--save-baseline NAME]\n"
    "                        [--fail-on-deviation PCT]\n"
    "       evmbench results list | show RUN | compare RUN_A RUN_B | export RUN\n"
    "                        | prune --keep N\n"
    "       evmbench results import LOG --tool TOOL [--board KEY]\n"
    "       evmbench selfcheck [BENCH...] [--tools-dir DIR] [--rounds N] [--quick]\n"
    "       evmbench import-guide FILE... [-o OUT.json|DIR] [--layout NAME]\n"
    "\n"
    "Options:\n"
    "  --board KEY        compare with this guide column (e.g. am62xx_sk-fs)\n"
    "  --sysroot DIR      read the device tree and sysfs below DIR\n"
    "  --refs PATH        reference file or folder instead of the shipped one\n"
    "  --format FMT       output format of the command\n"
    "  -o, --output FILE  write the output to FILE\n"
    "  --quick            short time budget for every benchmark\n"
    "  --timeout SECS     time limit for each benchmark (1 to 86400)\n"
    "  --tolerance PCT    deviation beyond the guide's band that only warns (10)\n"
    "  --size N           working-set size of the kernels (STREAM: elements)\n"
    "  --iterations N     repetitions of the kernels\n"
    "  --threads N        also run the multi-threaded extras (STREAM) with N threads\n"
    "  --provider P       auto (the SDK's tool when installed, else the kernel),\n"
    "                     kernel or tool\n"
    "  --tools-dir DIR    look for the SDK's benchmark tools here first\n"
    "  --storage-dir DIR  storage tests (fio) write one file in DIR, removed after\n"
    "  --allow-raw-device let --storage-dir name a block device (overwrites data)\n"
    "  --peer HOST        network tests (netperf, iperf3) use the server on HOST\n"
    "  --audio-device PCM audio tests (arecord, aplay) use this ALSA device\n"
    "  --rounds N         selfcheck: side-by-side rounds (3)\n"
    "  --profile NAME     run: a profile (quick, full, a .profile file)\n"
    "  --quiet            run: no progress on stderr (warnings and errors still)\n"
    "  --lava-kmsg[=PATH] run: LAVA lines to /dev/kmsg (or PATH), not stdout\n"
    "  --results-dir DIR  the results store (default $XDG_DATA_HOME/evmbench)\n"
    "  --no-save          run: do not keep this run in the results store\n"
    "  --save-baseline NAME  run: also keep the results as baseline NAME\n"
    "  --tool TOOL        results import: the tool that wrote the log (lmbench,\n"
    "                     stream, dhrystone ...)\n"
    "  --baseline NAME    run: show the change from baseline NAME (or a run id)\n"
    "  --fail-on-deviation PCT  run: exit 1 when a metric is worse than the\n"
    "                     guide (or the baseline) by more than PCT percent\n"
    "  --run BENCH        open the screens on the live run of BENCH\n"
    "  --demo[=PROFILE]   run a profile (quick) in a loop until a key is pressed\n"
    "  --theme NAME       colour theme: default, light, ti, high-contrast, mono\n"
    "                     or a theme file\n"
    "  --slow-tty         redraw a live run at most once per 2 s (slow serial)\n"
    "  --ui tui|line      line: no screens, results as lines (logs, dumb terminals)\n"
    "  --section TEXT     refs: only sections whose path contains TEXT\n"
    "  --category NAME    same as --section\n"
    "  --layout NAME      import-guide: auto, cells, rows, markdown, rst\n"
    "  -h, --help         this text\n"
    "  -V, --version      the version\n"
    "\n"
    "Exit status: 0 success, 1 error or a metric beyond --fail-on-deviation,\n"
    "2 usage error, 3 a benchmark failed.\n";

/* --- which options each command takes ------------------------------------
 * One table, checked in one place after parsing (check_options_apply): an
 * option a command does not use is a usage error naming both, never
 * silently ignored. Options missing from the table (-h, -V) go anywhere. */
enum cmd_id {
    CMD_TUI, CMD_LIST, CMD_SYSINFO, CMD_REFS, CMD_RUN, CMD_SELFCHECK, CMD_IMPORT_GUIDE,
    CMD_RES_LIST, CMD_RES_SHOW, CMD_RES_COMPARE, CMD_RES_EXPORT, CMD_RES_PRUNE,
    CMD_RES_IMPORT, CMD_RES_OTHER, CMD_UNKNOWN,
};

static const char *const cmd_names[] = {
    [CMD_TUI] = "the screens", [CMD_LIST] = "list", [CMD_SYSINFO] = "sysinfo",
    [CMD_REFS] = "refs", [CMD_RUN] = "run", [CMD_SELFCHECK] = "selfcheck",
    [CMD_IMPORT_GUIDE] = "import-guide", [CMD_RES_LIST] = "results list",
    [CMD_RES_SHOW] = "results show", [CMD_RES_COMPARE] = "results compare",
    [CMD_RES_EXPORT] = "results export", [CMD_RES_PRUNE] = "results prune",
    [CMD_RES_IMPORT] = "results import", [CMD_RES_OTHER] = "results",
    [CMD_UNKNOWN] = "this command",
};

#define TO(c) (1u << CMD_##c)
/* groups used below */
#define APP_CMDS (TO(TUI) | TO(LIST) | TO(SYSINFO) | TO(REFS) | TO(RUN) | TO(SELFCHECK) | \
                  TO(RES_IMPORT))
#define RUNS (TO(TUI) | TO(RUN) | TO(SELFCHECK))
#define RES_OUT (TO(RES_LIST) | TO(RES_SHOW) | TO(RES_COMPARE) | TO(RES_EXPORT))
#define STORE_CMDS (TO(TUI) | TO(RUN) | RES_OUT | TO(RES_PRUNE) | TO(RES_IMPORT))

struct opt_rule {
    int code;           /* getopt code */
    unsigned cmds;      /* TO() bits of the commands that take it */
};

static const struct opt_rule opt_rules[] = {
    { 'o', TO(LIST) | TO(SYSINFO) | TO(REFS) | TO(RUN) | TO(SELFCHECK) | TO(IMPORT_GUIDE) |
           RES_OUT | TO(TUI) },
    { OPT_FORMAT, TO(LIST) | TO(SYSINFO) | TO(REFS) | TO(RUN) | TO(SELFCHECK) | RES_OUT |
                  TO(TUI) },
    { OPT_SYSROOT, TO(TUI) | TO(SYSINFO) | TO(RUN) | TO(SELFCHECK) | TO(RES_IMPORT) },
    { OPT_BOARD, TO(TUI) | TO(SYSINFO) | TO(REFS) | TO(RUN) | TO(SELFCHECK) | TO(RES_IMPORT) },
    { OPT_REFS, APP_CMDS },
    { OPT_QUICK, RUNS },
    { OPT_TIMEOUT, RUNS },
    { OPT_TOLERANCE, RUNS | TO(RES_IMPORT) },
    { OPT_SIZE, RUNS },
    { OPT_ITERATIONS, RUNS },
    { OPT_THREADS, RUNS },
    { OPT_PROVIDER, TO(TUI) | TO(RUN) },
    { OPT_TOOLS_DIR, RUNS | TO(LIST) },
    /* list: whether a tool benchmark can run depends on these */
    { OPT_STORAGE_DIR, RUNS | TO(LIST) },
    { OPT_ALLOW_RAW, RUNS | TO(LIST) },
    { OPT_PEER, RUNS | TO(LIST) },
    { OPT_AUDIO_DEVICE, RUNS | TO(LIST) },
    { OPT_ROUNDS, TO(SELFCHECK) },
    { OPT_RUN, TO(TUI) },
    { OPT_DEMO, TO(TUI) },
    { OPT_THEME, TO(TUI) },
    { OPT_SLOW_TTY, TO(TUI) },
    { OPT_UI, TO(TUI) },
    { OPT_SECTION, TO(REFS) },
    { OPT_LAYOUT, TO(IMPORT_GUIDE) },
    { OPT_RESULTS_DIR, STORE_CMDS },
    { OPT_NO_SAVE, TO(TUI) | TO(RUN) },
    { OPT_SAVE_BASELINE, TO(RUN) },
    { OPT_BASELINE, TO(RUN) },
    { OPT_FAIL_ON_DEVIATION, TO(RUN) | TO(RES_SHOW) | TO(RES_EXPORT) },
    { OPT_KEEP, TO(RES_PRUNE) },
    { OPT_PROFILE, TO(RUN) },
    { OPT_QUIET, TO(TUI) | TO(RUN) },
    { OPT_LAVA_KMSG, TO(TUI) | TO(RUN) },
    { OPT_TOOL, TO(RES_IMPORT) },
};

static enum cmd_id command_id(const char *cmd, char **args, int nargs)
{
    static const struct { const char *name; enum cmd_id id; } top[] = {
        { "list", CMD_LIST }, { "sysinfo", CMD_SYSINFO }, { "refs", CMD_REFS },
        { "run", CMD_RUN }, { "selfcheck", CMD_SELFCHECK }, { "import-guide", CMD_IMPORT_GUIDE },
    }, sub[] = {
        { "list", CMD_RES_LIST }, { "show", CMD_RES_SHOW }, { "compare", CMD_RES_COMPARE },
        { "export", CMD_RES_EXPORT }, { "prune", CMD_RES_PRUNE }, { "import", CMD_RES_IMPORT },
    };
    if (!cmd)
        return CMD_TUI;
    for (size_t i = 0; i < ARRAY_SIZE(top); i++)
        if (strcmp(cmd, top[i].name) == 0)
            return top[i].id;
    if (strcmp(cmd, "results") != 0)
        return CMD_UNKNOWN;
    for (size_t i = 0; nargs && i < ARRAY_SIZE(sub); i++)
        if (strcmp(args[0], sub[i].name) == 0)
            return sub[i].id;
    return CMD_RES_OTHER;
}

/* A usage error for the first option given that command `id` does not take. */
static int check_options_apply(struct cli *c, const struct cli_given *g, enum cmd_id id)
{
    /* an unknown command or results subcommand has its own message */
    if (id == CMD_UNKNOWN || id == CMD_RES_OTHER)
        return -1;
    for (size_t i = 0; i < ARRAY_SIZE(opt_rules); i++) {
        const struct opt_rule *r = &opt_rules[i];
        if (!g->name[r->code][0] || (r->cmds & (1u << id)))
            continue;
        struct strbuf sb;
        sb_init(&sb);
        int n = 0, count = 0;
        for (int k = 0; k <= CMD_RES_IMPORT; k++)
            count += (r->cmds >> k) & 1;
        for (int k = 0; k <= CMD_RES_IMPORT; k++)
            if (r->cmds & (1u << k))
                sb_addf(&sb, "%s%s%s%s", n++ == 0 ? "" : n == count ? " or " : ", ",
                        k == CMD_TUI ? "" : "'", cmd_names[k], k == CMD_TUI ? "" : "'");
        int rc = cli_usage_error(c, "%s is for %s, not for %s%s%s", g->name[r->code], sb.buf,
                                 id == CMD_TUI ? "" : "'", cmd_names[id], id == CMD_TUI ? "" : "'");
        sb_free(&sb);
        return rc;
    }
    return -1;
}

/* The output of command `id` goes to stdout (not -o FILE, nor the kernel log). */
static bool output_to_stdout(const struct cli *c, enum cmd_id id)
{
    if (c->output && strcmp(c->output, "-") != 0)
        return false;
    if ((id == CMD_RUN || id == CMD_TUI) && c->kmsg && cli_format_is(c, "lava"))
        return false;
    return true;
}

/* File arguments (import-guide FILE..., results import LOG) must not be empty. */
static int check_file_args(struct cli *c, enum cmd_id id)
{
    int first = id == CMD_IMPORT_GUIDE ? 0 : id == CMD_RES_IMPORT ? 1 : c->nargs;
    for (int i = first; i < c->nargs; i++)
        if (!*c->args[i])
            return cli_usage_error(c, "%s: argument %d is an empty file name", cmd_names[id],
                                   i - first + 1);
    return -1;
}

int cli_main(int argc, char **argv, FILE *out, FILE *err)
{
    return cli_main_std(argc, argv, out, err, 0);
}

/* -h and -V: the usage text or the version on stdout. */
static int help_or_version(struct cli *c)
{
    if (c->stdout_closed)
        return cli_stdout_closed_error(c);
    if (c->help)
        fputs(usage_text, c->out);
    else
        fprintf(c->out, "%s\n", PACKAGE_STRING);
    return cli_close_output(c, c->out);
}

/* The commands that work on the app the dispatcher builds. */
static int run_with_app(struct cli *c, const char *cmd)
{
    struct app a;
    app_init(&a, &c->cfg);
    if (cmd && (strcmp(cmd, "refs") == 0 || strcmp(cmd, "list") == 0) && a.refs_loaded == 0) {
        /* nothing to show (list: the categories are the guides'); the
         * other commands still run without references */
        cli_print_diag(c, &a.diag);
        fprintf(c->err, "evmbench: no reference file could be loaded from %s\n", a.refs_path);
        app_free(&a);
        profile_free(&c->profile);
        return EXIT_FAILURE;
    }
    int rc;
    if (!cmd) {
        rc = cli_cmd_screens(c, &a);
        /* --ui line: the command the screens stand for, on the same app */
        if (c->then && strcmp(c->then, "list") == 0)
            rc = cli_cmd_list(c, &a);
        else if (c->then)
            rc = cli_cmd_run(c, &a);
    } else {
        cli_print_diag(c, &a.diag);
        if (strcmp(cmd, "list") == 0)
            rc = cli_cmd_list(c, &a);
        else if (strcmp(cmd, "refs") == 0)
            rc = cli_cmd_refs(c, &a);
        else if (strcmp(cmd, "selfcheck") == 0)
            rc = cli_cmd_selfcheck(c, &a);
        else
            rc = cli_cmd_run(c, &a);
    }
    app_free(&a);
    profile_free(&c->profile);
    return rc;
}

int cli_main_std(int argc, char **argv, FILE *out, FILE *err, unsigned closed)
{
    struct cli c = { .out = out, .err = err, .stdout_closed = closed & CLI_STDOUT_CLOSED };
    struct cli_given given = { 0 };
    int rc = cli_parse_options(&c, &given, argc, argv);
    if (rc >= 0)
        return rc;
    if (c.help || c.version)
        return help_or_version(&c);
    const char *cmd = optind < argc ? argv[optind] : NULL;
    c.args = argv + optind + (cmd ? 1 : 0);
    c.nargs = argc - optind - (cmd ? 1 : 0);
    enum cmd_id id = command_id(cmd, c.args, c.nargs);
    if ((rc = check_options_apply(&c, &given, id)) >= 0 || (rc = check_file_args(&c, id)) >= 0)
        return rc;
    if (c.stdout_closed && id != CMD_UNKNOWN && output_to_stdout(&c, id))
        return cli_stdout_closed_error(&c);
    rc = cli_set_tool_params(&c);
    if (rc >= 0)
        return rc;

    if (cmd && strcmp(cmd, "sysinfo") == 0)
        return c.nargs ? cli_usage_error(&c, "sysinfo takes no arguments")
                       : cli_cmd_sysinfo(&c, NULL);
    if (cmd && strcmp(cmd, "import-guide") == 0)
        return cli_cmd_import_guide(&c, NULL);
    if (id == CMD_RES_IMPORT)
        return cli_cmd_results_import(&c, NULL);
    if (cmd && strcmp(cmd, "results") == 0)
        return cli_cmd_results(&c, NULL);

    static const char *const with_app[] = { "list", "refs", "run", "selfcheck", NULL };
    bool known = !cmd;
    for (size_t i = 0; cmd && with_app[i]; i++)
        known |= strcmp(cmd, with_app[i]) == 0;
    if (!known)
        return cli_usage_error(&c, "unknown command '%s'", cmd);
    if (cmd && strcmp(cmd, "run") != 0 && strcmp(cmd, "selfcheck") != 0 && c.nargs)
        return cli_usage_error(&c, "%s takes no arguments", cmd);
    return run_with_app(&c, cmd);
}
