/* cli_import_guide.c - `evmbench import-guide FILE... [-o OUT.json|DIR]`:
 * a performance guide's tables as a reference file (guide_import.h). */
#include "config.h"
#include "cli/cli.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "common/outfile.h"
#include "common/util.h"
#include "guide/guide_import.h"

#include "cli/cli_impl.h"

/* Writes j to path (outfile.h): a failure leaves the old file as it was. */
static int write_json_file(struct cli *c, json_t *j, const char *path)
{
    struct diag d;
    diag_init(&d);
    struct outfile *o = outfile_open(path, &d);
    int rc = 0;
    if (o) {
        FILE *f = outfile_stream(o);
        if ((json_dumpf(j, f, GUIDE_JSON_FLAGS) != 0 || fputc('\n', f) == EOF) && !ferror(f)) {
            outfile_abort(o);
            diag_add(&d, "%s: the JSON could not be written", path);
        } else {
            outfile_commit(o, &d);
        }
    }
    if (d.n) {
        cli_print_diag(c, &d);
        rc = 1;
    }
    diag_free(&d);
    return rc;
}

static bool is_directory(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* OUT.json for FILE inside a directory: the guide's base name, .json. */
static char *output_name(const char *dir, const char *guide)
{
    const char *base = strrchr(guide, '/');
    base = base ? base + 1 : guide;
    const char *dot = strrchr(base, '.');
    size_t n = dot && dot != base ? (size_t)(dot - base) : strlen(base);
    char *name = xasprintf("%.*s.json", (int)n, base);
    char *p = path_join(dir, name);
    free(name);
    return p;
}

int cli_cmd_import_guide(struct cli *c, struct app *unused)
{
    (void)unused;
    if (c->nargs == 0)
        return cli_usage_error(c, "import-guide needs at least one guide file");
    int layout = guide_layout_parse(c->layout ? c->layout : "auto");
    if (layout < 0) {
        char *layouts = guide_layout_names();
        int rc = cli_usage_error(c, "unknown layout '%s' (%s)", c->layout, layouts);
        free(layouts);
        return rc;
    }
    bool to_dir = c->output && is_directory(c->output);
    if (c->nargs > 1 && !to_dir)
        return cli_usage_error(c, "several guides need -o DIR (an existing folder)");
    int rc = 0;
    for (int i = 0; i < c->nargs; i++) {
        struct diag dg;
        diag_init(&dg);
        json_t *j = guide_import_file(c->args[i], (enum guide_layout)layout, &dg);
        cli_print_diag(c, &dg);
        diag_free(&dg);
        if (!j) {
            rc = 1;
            continue;
        }
        if (to_dir) {
            char *p = output_name(c->output, c->args[i]);
            rc |= write_json_file(c, j, p);
            free(p);
        } else if (c->output && strcmp(c->output, "-") != 0) {
            rc |= write_json_file(c, j, c->output);
        } else {
            json_dumpf(j, c->out, GUIDE_JSON_FLAGS);
            fputc('\n', c->out);
            rc |= cli_close_output(c, c->out);
        }
        json_decref(j);
    }
    return rc;
}
