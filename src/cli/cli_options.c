/* cli_options.c - the command line's options (cli_options.h): their
 * names, the checks of their values, and those handed to the recipes. */
#include "config.h"
#include "cli/cli.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "app.h"
#include "recipe/toolparam.h"
#include "store/store.h"
#include "common/util.h"

#include "cli/cli_impl.h"
#include "cli/cli_options.h"

static const struct option long_options[] = {
    { "help", no_argument, NULL, 'h' },
    { "version", no_argument, NULL, 'V' },
    { "output", required_argument, NULL, 'o' },
    { "sysroot", required_argument, NULL, OPT_SYSROOT },
    { "board", required_argument, NULL, OPT_BOARD },
    { "refs", required_argument, NULL, OPT_REFS },
    { "format", required_argument, NULL, OPT_FORMAT },
    { "quick", no_argument, NULL, OPT_QUICK },
    { "timeout", required_argument, NULL, OPT_TIMEOUT },
    { "tolerance", required_argument, NULL, OPT_TOLERANCE },
    { "size", required_argument, NULL, OPT_SIZE },
    { "iterations", required_argument, NULL, OPT_ITERATIONS },
    { "threads", required_argument, NULL, OPT_THREADS },
    { "provider", required_argument, NULL, OPT_PROVIDER },
    { "tools-dir", required_argument, NULL, OPT_TOOLS_DIR },
    { "tool", required_argument, NULL, OPT_TOOL },
    { "storage-dir", required_argument, NULL, OPT_STORAGE_DIR },
    { "allow-raw-device", no_argument, NULL, OPT_ALLOW_RAW },
    { "peer", required_argument, NULL, OPT_PEER },
    { "audio-device", required_argument, NULL, OPT_AUDIO_DEVICE },
    { "rounds", required_argument, NULL, OPT_ROUNDS },
    { "run", required_argument, NULL, OPT_RUN },
    { "demo", optional_argument, NULL, OPT_DEMO },
    { "theme", required_argument, NULL, OPT_THEME },
    { "slow-tty", no_argument, NULL, OPT_SLOW_TTY },
    { "ui", required_argument, NULL, OPT_UI },
    { "section", required_argument, NULL, OPT_SECTION },
    { "category", required_argument, NULL, OPT_SECTION },
    { "layout", required_argument, NULL, OPT_LAYOUT },
    { "results-dir", required_argument, NULL, OPT_RESULTS_DIR },
    { "no-save", no_argument, NULL, OPT_NO_SAVE },
    { "save-baseline", required_argument, NULL, OPT_SAVE_BASELINE },
    { "baseline", required_argument, NULL, OPT_BASELINE },
    { "fail-on-deviation", required_argument, NULL, OPT_FAIL_ON_DEVIATION },
    { "keep", required_argument, NULL, OPT_KEEP },
    { "profile", required_argument, NULL, OPT_PROFILE },
    { "quiet", no_argument, NULL, OPT_QUIET },
    { "lava-kmsg", optional_argument, NULL, OPT_LAVA_KMSG },
    { NULL, 0, NULL, 0 },
};

static void note_given(struct cli_given *g, int ch, int longindex)
{
    if (ch < 0 || ch > OPT_AUDIO_DEVICE || g->name[ch][0])
        return;
    if (longindex >= 0)
        snprintf(g->name[ch], sizeof g->name[ch], "--%s", long_options[longindex].name);
    else
        snprintf(g->name[ch], sizeof g->name[ch], "-%c", ch);
}

/* --- option values --------------------------------------------------------- */

/* A number from min to max (above min when min_open), whole when asked. */
static bool parse_number(const char *s, double min, bool min_open, double max, bool whole,
                         double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno || !isfinite(v) || v > max || (min_open ? !(v > min) : v < min))
        return false;
    if (whole && v != floor(v))
        return false;
    *out = v;
    return true;
}

/* The numeric options: the range the message states is the one accepted. */
struct num_opt {
    int code;
    const char *what;       /* "--timeout takes WHAT, not 'x'" */
    double min;
    bool min_open;          /* min itself is not accepted */
    double max;
    bool whole;
};

static const struct num_opt num_opts[] = {
    { OPT_TIMEOUT, "seconds from 1 to 86400", 1, false, 86400, false },
    { OPT_TOLERANCE, "a percentage above 0, at most 1000", 0, true, 1000, false },
    { OPT_SIZE, "a whole number from 1 to 1000000000000", 1, false, 1e12, true },
    { OPT_ITERATIONS, "a whole number from 1 to 1000000", 1, false, 1e6, true },
    { OPT_ROUNDS, "a whole number from 1 to 100", 1, false, 100, true },
    { OPT_THREADS, "a whole number from 1 to 1024", 1, false, 1024, true },
    { OPT_FAIL_ON_DEVIATION, "a percentage above 0, at most 1000000", 0, true, 1e6, false },
    { OPT_KEEP, "a whole number from 0 to 1000000", 0, false, 1e6, true },
};

/* -1 and the value in *v, or the exit status of a usage error. */
static int number_option(struct cli *c, int code, const char *spelled, const char *arg,
                         double *v)
{
    for (size_t i = 0; i < ARRAY_SIZE(num_opts); i++) {
        const struct num_opt *n = &num_opts[i];
        if (n->code != code)
            continue;
        if (!parse_number(arg, n->min, n->min_open, n->max, n->whole, v))
            return cli_usage_error(c, "%s takes %s, not '%s'", spelled, n->what, arg);
        return -1;
    }
    return cli_usage_error(c, "%s: not a numeric option", spelled);
}

/* What an option's value names, for the message when it is empty (an
 * empty --results-dir would put the store at /runs); NULL: may be empty. */
static const char *value_kind(int code)
{
    switch (code) {
    case 'o': case OPT_SYSROOT: case OPT_REFS: case OPT_TOOLS_DIR: case OPT_STORAGE_DIR:
    case OPT_RESULTS_DIR: case OPT_LAVA_KMSG: case OPT_THEME:
        return "a path";
    case OPT_PROFILE: case OPT_BASELINE: case OPT_SAVE_BASELINE: case OPT_BOARD: case OPT_TOOL:
        return "a name";
    default:
        return NULL;
    }
}

/* --sysroot must name a folder. */
static int check_sysroot(struct cli *c, const char *spelled, const char *dir)
{
    struct stat st;
    if (stat(dir, &st) != 0)
        return cli_usage_error(c, "%s %s: %s", spelled, dir, strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return cli_usage_error(c, "%s %s: not a directory", spelled, dir);
    return -1;
}

int cli_parse_options(struct cli *c, struct cli_given *g, int argc, char **argv)
{
    double v = 0;
    int rc;
    opterr = 0;
    optind = 1;
    int ch, longindex = -1;
    while ((ch = getopt_long(argc, argv, ":hVo:", long_options, &longindex)) != -1) {
        if (ch != '?' && ch != ':')
            note_given(g, ch, longindex);
        const char *spelled = ch >= 0 && ch <= OPT_AUDIO_DEVICE ? g->name[ch] : "";
        longindex = -1;
        if (optarg && !*optarg && value_kind(ch))
            return cli_usage_error(c, "%s needs %s, not an empty string", spelled, value_kind(ch));
        switch (ch) {
        case 'h':
            c->help = true;
            return -1;
        case 'V':
            c->version = true;
            return -1;
        case 'o': c->output = optarg; break;
        case OPT_SYSROOT:
            if ((rc = check_sysroot(c, spelled, optarg)) >= 0)
                return rc;
            c->cfg.sysroot = optarg;
            break;
        case OPT_BOARD: c->cfg.board = optarg; break;
        case OPT_REFS: c->cfg.refs = optarg; break;
        case OPT_FORMAT: c->format = optarg; break;
        case OPT_QUICK: c->cfg.quick = true; break;
        case OPT_RUN: c->run = optarg; break;
        case OPT_DEMO: c->demo = optarg ? optarg : "quick"; break;
        case OPT_THEME: c->theme = optarg; break;
        case OPT_SLOW_TTY: c->slow_tty = true; break;
        case OPT_SECTION: c->section = optarg; break;
        case OPT_LAYOUT: c->layout = optarg; break;
        case OPT_UI:
            if (strcmp(optarg, "tui") != 0 && strcmp(optarg, "line") != 0)
                return cli_usage_error(c, "--ui takes tui or line, not '%s'", optarg);
            c->ui = optarg;
            break;
        case OPT_TIMEOUT:
        case OPT_TOLERANCE:
        case OPT_SIZE:
        case OPT_ITERATIONS:
        case OPT_ROUNDS:
        case OPT_THREADS:
        case OPT_FAIL_ON_DEVIATION:
        case OPT_KEEP:
            if ((rc = number_option(c, ch, spelled, optarg, &v)) >= 0)
                return rc;
            if (ch == OPT_TIMEOUT)
                c->cfg.timeout_s = v;
            else if (ch == OPT_TOLERANCE)
                c->cfg.tolerance_pct = v;
            else if (ch == OPT_SIZE)
                c->cfg.size = (size_t)v;
            else if (ch == OPT_ITERATIONS)
                c->cfg.iterations = (int)v;
            else if (ch == OPT_ROUNDS)
                c->rounds = (int)v;
            else if (ch == OPT_THREADS)
                c->cfg.threads = (int)v;
            else if (ch == OPT_FAIL_ON_DEVIATION)
                c->fail_pct = v;
            else {
                c->keep = (int)v;
                c->keep_set = true;
            }
            break;
        case OPT_PROVIDER: {
            int pref = provider_pref_parse(optarg);
            if (pref < 0)
                return cli_usage_error(c, "--provider takes auto, kernel or tool, not '%s'", optarg);
            c->cfg.provider = (enum provider_pref)pref;
            c->provider_set = true;
            break;
        }
        case OPT_TOOLS_DIR:
            c->cfg.tools_dir = optarg;
            break;
        case OPT_TOOL: c->tool = optarg; break;
        case OPT_RESULTS_DIR: c->results_dir = optarg; break;
        case OPT_NO_SAVE: c->no_save = true; break;
        case OPT_PROFILE: c->profile_name = optarg; break;
        case OPT_QUIET: c->quiet = true; break;
        case OPT_LAVA_KMSG:
            c->kmsg = optarg ? optarg : "/dev/kmsg";
            if (!c->format)
                c->format = "lava";
            break;
        case OPT_SAVE_BASELINE:
            /* refused now, not after the whole run */
            if (!store_baseline_name_ok(optarg))
                return cli_usage_error(c, "%s '%s': a baseline name is 1 to 100 letters, digits, "
                                       "'-', '_' and '.', not starting with '.'", spelled, optarg);
            c->save_baseline = optarg;
            break;
        case OPT_BASELINE: c->baseline = optarg; break;
        case OPT_STORAGE_DIR:
            c->storage_dir = optarg;
            break;
        case OPT_ALLOW_RAW:
            c->allow_raw = true;
            break;
        case OPT_PEER:
            c->peer = optarg;
            break;
        case OPT_AUDIO_DEVICE:
            c->audio_device = optarg;
            break;
        case ':':
            return cli_usage_error(c, "option '%s' needs a value", argv[optind - 1]);
        default:
            return cli_usage_error(c, "unknown option '%s'", argv[optind - 1]);
        }
    }
    return -1;
}

int cli_set_tool_params(struct cli *c)
{
    char *why = NULL, *target = NULL;
    if (c->allow_raw && !c->storage_dir)
        return cli_usage_error(c, "--allow-raw-device needs --storage-dir DEVICE");
    if (c->storage_dir && !toolparam_storage(c->storage_dir, c->allow_raw, &target, &why)) {
        int rc = cli_usage_error(c, "%s", why);
        free(why);
        return rc;
    }
    if (c->peer && !toolparam_peer(c->peer, &why)) {
        int rc = cli_usage_error(c, "%s", why);
        free(why);
        free(target);
        return rc;
    }
    if (c->audio_device && !toolparam_audio_device(c->audio_device, &why)) {
        int rc = cli_usage_error(c, "%s", why);
        free(why);
        free(target);
        return rc;
    }
    recipe_set_option("storage_dir", c->storage_dir);
    recipe_set_option("storage_target", target);
    recipe_set_option("peer", c->peer);
    recipe_set_option("audio_device", c->audio_device);
    free(target);
    return -1;
}
