/* cli_screens.c - `evmbench` without a command: the interactive screens
 * (screens/ui.h), or with --ui line the same as lines (`list`, `run`). */
#include "config.h"
#include "cli/cli.h"

#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "common/util.h"
#include "data/profile.h"
#include "data/settings.h"
#include "recipe/toolparam.h"
#include "screens/ui.h"

#include "cli/cli_impl.h"

/* --check and --profile NAME: the profile runs once and the screens end
 * on its verdict against --baseline NAME or the guide; --check is the
 * quick profile. Neither goes with --demo or --run; --fail-on-deviation
 * only with them. Sets c->profile_name; 0 or the usage error's status. */
static int check_options(struct cli *c)
{
    if (c->check && !c->profile_name)
        c->profile_name = "quick";
    if (!c->profile_name) {
        if (c->fail_pct > 0)
            return cli_usage_error(c, "--fail-on-deviation goes with --check or --profile NAME "
                                   "in the screens");
        return 0;
    }
    if (c->demo)
        return cli_usage_error(c, "--%s runs the profile once; --demo runs one in a loop: "
                               "give one of them", c->check ? "check" : "profile");
    if (c->run)
        return cli_usage_error(c, "--%s and --run both say what to run first: give one of them",
                               c->check ? "check" : "profile");
    return 0;
}

/* The settings' run targets where the command line gave none; a value
 * that does not pass the checks of the command line is a problem of the
 * file (its line stays; the target stays unset). */
static void apply_run_targets(const struct cli *c, const struct settings *st,
                              const char *path, struct diag *problems)
{
    const struct {
        const char *option, *value, *given;
    } t[] = {
        { "peer", st->peer, c->peer },
        { "storage_dir", st->storage_dir, c->storage_dir },
        { "audio_device", st->audio_device, c->audio_device },
    };
    for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
        struct diag why;
        diag_init(&why);
        if (!t[i].given && t[i].value[0] &&
            !toolparam_apply(t[i].option, t[i].value, false, &why))
            diag_add(problems, "%s: %s: %s (not used)", path, t[i].option, diag_last(&why));
        diag_free(&why);
    }
}

int cli_cmd_screens(struct cli *c, struct app *a)
{
    int rc = cli_check_board(c, a);
    if (rc)
        return rc;
    if (c->run && !app_find_kernel(a, c->run)) {
        const struct cat_bench *b = catalog_find_bench(a->catalog, c->run);
        if (!b || !b->nkernels)
            return cli_usage_error(c, "--run: '%s' is not a benchmark that can run here", c->run);
    }
    if ((rc = check_options(c)))
        return rc;
    if (c->demo) {
        /* a profile that cannot be read or has no line to run is refused
         * here, as 'run --profile' refuses it; bad lines of a usable one
         * are the screens' to show */
        struct profile p;
        struct diag d;
        diag_init(&d);
        int bad = profile_load(&p, c->demo, &d);
        bool unusable = bad && p.n == 0;
        profile_free(&p);
        if (unusable) {
            cli_print_diag(c, &d);
            diag_free(&d);
            return cli_usage_error(c, "--demo=%s: not a usable profile", c->demo);
        }
        diag_free(&d);
    }
    if (c->ui && strcmp(c->ui, "line") == 0) {
        /* No screens: the run as lines, or the menu as a list; the
         * dispatcher runs that command next, with this app. A check is
         * `run --profile NAME` (the verdict ends its text). */
        c->then = c->run || c->profile_name ? "run" : "list";
        if (c->run) {
            c->line_args[0] = (char *)c->run;
            c->args = c->line_args;
            c->nargs = 1;
        }
        return 0;
    }
    cli_print_diag(c, &a->diag);
    char *store = cli_store_dir(c);
    struct ui_options uo = { .run = c->run, .demo = c->demo, .theme = c->theme,
                             .updates_per_s = c->slow_tty ? 0.5 : 0,
                             .line_budget = c->slow_tty ? 700 : 0, .results_dir = store,
                             .no_save = c->no_save,
                             .check = c->profile_name, .baseline = c->baseline,
                             .fail_pct = c->fail_pct };
    struct settings st;
    settings_init(&st);
    char *path = settings_default_path();
    struct diag dg;
    diag_init(&dg);
    if (path)
        settings_load(&st, path, &dg);
    /* a message printed now would be wiped by the first screen: the
     * screens show it, and it is printed once they are closed */
    struct diag settings_problems = dg;
    diag_init(&dg);
    /* the command line wins over the file */
    if (st.has_budget && !c->cfg.quick)
        a->run_opts.params.quick = st.quick;
    if (st.has_tolerance && !(c->cfg.tolerance_pct > 0))
        app_set_tolerance(a, st.tolerance_pct);
    if (st.has_provider && !c->provider_set)
        a->provider = st.provider;
    apply_run_targets(c, &st, path, &settings_problems);
    uo.settings = &st;
    uo.settings_problems = &settings_problems;
    uo.settings_path = path;
    /* the screens' messages come after the terminal is restored */
    rc = ui_main(a, &uo, &dg);
    cli_print_diag(c, &settings_problems);
    diag_free(&settings_problems);
    cli_print_diag(c, &dg);
    diag_free(&dg);
    free(path);
    free(store);
    return rc;
}
