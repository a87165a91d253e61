/* cli_options.c - the command line's options (cli_options.h): their
 * table and getopt's, both from cli_options.def, the checks of the
 * values, and those handed to the recipes. Which command takes which option is
 * the command table's business (cli.c). */
#include "config.h"
#include "cli/cli.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "app.h"
#include "recipe/toolparam.h"
#include "store/store.h"
#include "common/util.h"

#include "cli/cli_impl.h"
#include "cli/cli_options.h"

/* How an option's value is kept. */
enum opt_kind {
    K_TEXT,     /* the argument, in the const char * at `field` */
    K_FLAG,     /* true, in the bool at `field` */
    K_NUMBER,   /* checked against num_opts[], which says where it goes */
    K_OWN,      /* checked and kept by own_option() */
};

struct opt_def {
    const char *name;       /* the long name */
    char letter;            /* the short one, or 0 */
    int has_arg;            /* getopt's no_argument ... */
    enum opt_kind kind;
    size_t field;           /* K_TEXT, K_FLAG: offsetof(struct cli, ...) */
    const char *value;      /* what an empty value lacks, for the message;
                             * NULL: may be empty (cli_options.def) */
};

/* Every option at its enum cli_opt index, from cli_options.def. */
#define OPTION_TEXT(id, n, l, f, v) \
    [OPT_##id] = { n, l, required_argument, K_TEXT, offsetof(struct cli, f), v },
#define OPTION_FLAG(id, n, l, f) \
    [OPT_##id] = { n, l, no_argument, K_FLAG, offsetof(struct cli, f), NULL },
#define OPTION_NUMBER(id, n, l) [OPT_##id] = { n, l, required_argument, K_NUMBER, 0, NULL },
#define OPTION_OWN(id, n, l, has, v) [OPT_##id] = { n, l, has, K_OWN, 0, v },
#define OPTION_ALIAS(id, n)
static const struct opt_def opt_defs[OPT_COUNT] = {
#include "cli/cli_options.def"
};
#undef OPTION_TEXT
#undef OPTION_FLAG
#undef OPTION_NUMBER
#undef OPTION_OWN
#undef OPTION_ALIAS

/* The other long names of options ("--category" is --section). */
struct opt_alias {
    const char *name;
    enum cli_opt id;
};

#define OPTION_TEXT(id, n, l, f, v)
#define OPTION_FLAG(id, n, l, f)
#define OPTION_NUMBER(id, n, l)
#define OPTION_OWN(id, n, l, has, v)
#define OPTION_ALIAS(id, n) { n, OPT_##id },
static const struct opt_alias opt_aliases[] = {
#include "cli/cli_options.def"
};
#undef OPTION_TEXT
#undef OPTION_FLAG
#undef OPTION_NUMBER
#undef OPTION_OWN
#undef OPTION_ALIAS

/* getopt's codes: 'h', 'V' and the options' letters for the short
 * options, OPT_CODE(id) for the long ones (an alias's is its option's). */
#define OPT_CODE(id) (256 + (int)(id))

/* getopt's table: -h, -V, every option, every alias, the end. */
#define LONG_OPTIONS (2 + OPT_COUNT + ARRAY_SIZE(opt_aliases) + 1)

static void build_long_options(struct option *lo)
{
    size_t n = 0;
    lo[n++] = (struct option){ "help", no_argument, NULL, 'h' };
    lo[n++] = (struct option){ "version", no_argument, NULL, 'V' };
    for (size_t i = 0; i < OPT_COUNT; i++)
        lo[n++] = (struct option){ opt_defs[i].name, opt_defs[i].has_arg, NULL, OPT_CODE(i) };
    for (size_t i = 0; i < ARRAY_SIZE(opt_aliases); i++)
        lo[n++] = (struct option){ opt_aliases[i].name, opt_defs[opt_aliases[i].id].has_arg,
                                   NULL, OPT_CODE(opt_aliases[i].id) };
    lo[n] = (struct option){ NULL, 0, NULL, 0 };
}

/* getopt's short options: ":hV" (':': a missing value is reported as
 * such), then each option's letter, ':' after it when it takes a value
 * and "::" when it may. */
#define SHORT_OPTIONS (3 + 3 * OPT_COUNT + 1)

static void build_short_options(char *s)
{
    size_t n = 0;
    s[n++] = ':';
    s[n++] = 'h';
    s[n++] = 'V';
    for (size_t i = 0; i < OPT_COUNT; i++) {
        if (!opt_defs[i].letter)
            continue;
        s[n++] = opt_defs[i].letter;
        if (opt_defs[i].has_arg != no_argument)
            s[n++] = ':';
        if (opt_defs[i].has_arg == optional_argument)
            s[n++] = ':';
    }
    s[n] = '\0';
}

/* The option of getopt's code ch, or -1 (-h, -V, an error). */
static int option_of(int ch)
{
    if (ch >= OPT_CODE(0) && ch < OPT_CODE(OPT_COUNT))
        return ch - OPT_CODE(0);
    for (int i = 0; ch > 0 && i < OPT_COUNT; i++)
        if (opt_defs[i].letter == ch)
            return i;
    return -1;
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
    enum cli_opt id;
    const char *what;       /* "--timeout takes WHAT, not 'x'" */
    double min;
    bool min_open;          /* min itself is not accepted */
    double max;
    bool whole;
    enum { N_DOUBLE, N_INT, N_SIZE } type;
    size_t field;           /* offsetof(struct cli, ...) of that type */
};

#define AT(f) offsetof(struct cli, f)
static const struct num_opt num_opts[] = {
    { OPT_TIMEOUT, "seconds from 1 to 86400", 1, false, 86400, false, N_DOUBLE, AT(cfg.timeout_s) },
    { OPT_TOLERANCE, "a percentage above 0, at most 1000", 0, true, 1000, false, N_DOUBLE,
      AT(cfg.tolerance_pct) },
    { OPT_SIZE, "a whole number from 1 to 1000000000000", 1, false, 1e12, true, N_SIZE,
      AT(cfg.size) },
    { OPT_ITERATIONS, "a whole number from 1 to 1000000", 1, false, 1e6, true, N_INT,
      AT(cfg.iterations) },
    { OPT_ROUNDS, "a whole number from 1 to 100", 1, false, 100, true, N_INT, AT(rounds) },
    { OPT_THREADS, "a whole number from 1 to 1024", 1, false, 1024, true, N_INT, AT(cfg.threads) },
    { OPT_FAIL_ON_DEVIATION, "a percentage above 0, at most 1000000", 0, true, 1e6, false,
      N_DOUBLE, AT(fail_pct) },
    { OPT_KEEP, "a whole number from 0 to 1000000", 0, false, 1e6, true, N_INT, AT(keep) },
};

/* Checks and keeps a numeric option; -1, or the exit status of a usage error. */
static int number_option(struct cli *c, enum cli_opt id, const char *spelled, const char *arg)
{
    for (size_t i = 0; i < ARRAY_SIZE(num_opts); i++) {
        const struct num_opt *n = &num_opts[i];
        double v;
        if (n->id != id)
            continue;
        if (!parse_number(arg, n->min, n->min_open, n->max, n->whole, &v))
            return cli_usage_error(c, "%s takes %s, not '%s'", spelled, n->what, arg);
        char *at = (char *)c + n->field;
        if (n->type == N_DOUBLE)
            *(double *)(void *)at = v;
        else if (n->type == N_INT)
            *(int *)(void *)at = (int)v;
        else
            *(size_t *)(void *)at = (size_t)v;
        if (id == OPT_KEEP)
            c->keep_set = true;
        return -1;
    }
    return cli_usage_error(c, "%s: not a numeric option", spelled);
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

/* The options whose values need more than keeping; -1 to go on, else the
 * exit status of a usage error. */
static int own_option(struct cli *c, enum cli_opt id, const char *spelled, const char *arg)
{
    int rc;
    switch (id) {
    case OPT_SYSROOT:
        if ((rc = check_sysroot(c, spelled, arg)) >= 0)
            return rc;
        c->cfg.sysroot = arg;
        break;
    case OPT_DEMO: c->demo = arg ? arg : "quick"; break;
    case OPT_UI:
        if (strcmp(arg, "tui") != 0 && strcmp(arg, "line") != 0)
            return cli_usage_error(c, "--ui takes tui or line, not '%s'", arg);
        c->ui = arg;
        break;
    case OPT_PROVIDER: {
        int pref = provider_pref_parse(arg);
        if (pref < 0)
            return cli_usage_error(c, "--provider takes auto, kernel or tool, not '%s'", arg);
        c->cfg.provider = (enum provider_pref)pref;
        c->provider_set = true;
        break;
    }
    case OPT_LAVA_KMSG:
        c->kmsg = arg ? arg : "/dev/kmsg";
        if (!c->format)
            c->format = "lava";
        break;
    case OPT_SAVE_BASELINE:
        /* refused now, not after the whole run */
        if (!store_baseline_name_ok(arg))
            return cli_usage_error(c, "%s '%s': a baseline name is 1 to 100 letters, digits, "
                                   "'-', '_' and '.', not starting with '.'", spelled, arg);
        c->save_baseline = arg;
        break;
    default:
        return cli_usage_error(c, "%s: not an option with its own rules", spelled);
    }
    return -1;
}

/* Keeps the value of option id; -1 to go on, else the exit status. */
static int apply_option(struct cli *c, enum cli_opt id, const char *spelled, const char *arg)
{
    const struct opt_def *d = &opt_defs[id];
    if (arg && !*arg && d->value)
        return cli_usage_error(c, "%s needs %s, not an empty string", spelled, d->value);
    char *at = (char *)c + d->field;
    switch (d->kind) {
    case K_TEXT: *(const char **)(void *)at = arg; return -1;
    case K_FLAG: *(bool *)(void *)at = true; return -1;
    case K_NUMBER: return number_option(c, id, spelled, arg);
    default: return own_option(c, id, spelled, arg);
    }
}

int cli_parse_options(struct cli *c, struct cli_given *g, int argc, char **argv)
{
    struct option lo[LONG_OPTIONS];
    char shorts[SHORT_OPTIONS];
    build_long_options(lo);
    build_short_options(shorts);
    opterr = 0;
    optind = 1;
    int ch, longindex = -1;
    while ((ch = getopt_long(argc, argv, shorts, lo, &longindex)) != -1) {
        int id = option_of(ch);
        if (ch == 'h' || ch == 'V') {
            *(ch == 'h' ? &c->help : &c->version) = true;
            return -1;
        }
        if (ch == ':')
            return cli_usage_error(c, "option '%s' needs a value", argv[optind - 1]);
        if (id < 0)
            return cli_usage_error(c, "unknown option '%s'", argv[optind - 1]);
        char *name = g->name[id];
        if (!name[0] && longindex >= 0)
            snprintf(name, sizeof g->name[0], "--%s", lo[longindex].name);
        else if (!name[0])
            snprintf(name, sizeof g->name[0], "-%c", ch);
        longindex = -1;
        int rc = apply_option(c, (enum cli_opt)id, name, optarg);
        if (rc >= 0)
            return rc;
    }
    return -1;
}

void cli_options_describe(FILE *out)
{
    static const char *const takes[] = {
        [no_argument] = "none", [required_argument] = "required",
        [optional_argument] = "optional",
    };
    struct option lo[LONG_OPTIONS];
    char shorts[SHORT_OPTIONS];
    build_long_options(lo);
    build_short_options(shorts);
    for (const struct option *o = lo; o->name; o++) {
        int id = option_of(o->val);
        const char *first = id >= 0 ? opt_defs[id].name : o->name;
        int letter = id >= 0 ? opt_defs[id].letter : o->val;
        if (strcmp(first, o->name) != 0 || !letter || !strchr(shorts + 1, letter))
            letter = 0;
        fprintf(out, "--%s -", o->name);
        if (letter)
            fputc(letter, out);
        fprintf(out, " %s", takes[o->has_arg]);
        if (strcmp(first, o->name) != 0)
            fprintf(out, " = --%s", first);
        fputc('\n', out);
    }
}

int cli_set_tool_params(struct cli *c)
{
    if (c->allow_raw && !c->storage_dir)
        return cli_usage_error(c, "--allow-raw-device needs --storage-dir DEVICE");
    struct diag why;
    diag_init(&why);
    if (!toolparam_apply("storage_dir", c->storage_dir, c->allow_raw, &why) ||
        !toolparam_apply("peer", c->peer, false, &why) ||
        !toolparam_apply("audio_device", c->audio_device, false, &why)) {
        int rc = cli_usage_error(c, "%s", diag_last(&why));
        diag_free(&why);
        return rc;
    }
    diag_free(&why);
    return -1;
}
