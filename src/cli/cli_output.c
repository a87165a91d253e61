/* cli_output.c - what every command shares (cli_impl.h): usage errors,
 * the --format checks, where the output goes and how it is finished,
 * JSON, diagnostics, the --board check. */
#include "config.h"
#include "cli/cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "app.h"
#include "common/outfile.h"
#include "common/stopsig.h"
#include "common/util.h"
#include "run/export.h"
#include "store/store.h"

#include "cli/cli_impl.h"

int cli_usage_error(struct cli *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("evmbench: ", c->err);
    vfprintf(c->err, fmt, ap);
    va_end(ap);
    fputs(" (try 'evmbench --help')\n", c->err);
    return EXIT_USAGE;
}

bool cli_format_is(const struct cli *c, const char *name)
{
    return strcmp(c->format ? c->format : "text", name) == 0;
}

int cli_check_format(struct cli *c, const char *const *allowed)
{
    const char *f = c->format ? c->format : "text";
    for (size_t i = 0; allowed[i]; i++)
        if (strcmp(f, allowed[i]) == 0)
            return 0;
    struct strbuf sb;
    sb_init(&sb);
    for (size_t i = 0; allowed[i]; i++)
        sb_addf(&sb, "%s%s", i ? ", " : "", allowed[i]);
    int rc = cli_usage_error(c, "unknown format '%s' for this command (choose %s)", f, sb.buf);
    sb_free(&sb);
    return rc;
}

/* Where the command's output goes: stdout, or -o FILE (outfile.h). */
FILE *cli_open_output(struct cli *c)
{
    if (!c->output || strcmp(c->output, "-") == 0)
        return c->out;
    struct diag d;
    diag_init(&d);
    c->outfile = outfile_open(c->output, &d);
    cli_print_diag(c, &d);
    diag_free(&d);
    return c->outfile ? outfile_stream(c->outfile) : NULL;
}

int cli_close_output(struct cli *c, FILE *f)
{
    struct diag d;
    diag_init(&d);
    int rc;
    if (stopsig_caught()) {
        /* stopped: -o FILE stays as it was; a closed pipe is not news */
        if (c->outfile && f == outfile_stream(c->outfile))
            outfile_abort(c->outfile);
        else
            fflush(f);
        c->outfile = NULL;
        return 1;
    }
    if (c->outfile && f == outfile_stream(c->outfile)) {
        rc = outfile_commit(c->outfile, &d);
        c->outfile = NULL;
    } else {
        const char *name = f == stdout ? "standard output" : "output";
        rc = outfile_check_stream(f, name, &d);
        if (rc && c->out_errno) {
            /* the reason the first failed write gave is the better one */
            diag_free(&d);
            diag_add(&d, "%s: %s", name, strerror(c->out_errno));
        }
    }
    cli_print_diag(c, &d);
    diag_free(&d);
    return rc == 0 ? 0 : 1;
}

int cli_dump_json(json_t *j, FILE *f)
{
    int rc = json_dumpf(j, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
    return fputc('\n', f) == EOF || rc != 0 ? -1 : 0;
}

void cli_print_diag(struct cli *c, const struct diag *d)
{
    for (size_t i = 0; i < d->n; i++)
        fprintf(c->err, "evmbench: %s\n", d->msgs[i]);
}

/* --board must name a column some loaded guide has. */
int cli_check_board(struct cli *c, const struct app *a)
{
    if (!c->cfg.board || refdb_has_board(a->refdb, c->cfg.board))
        return 0;
    struct strbuf sb;
    sb_init(&sb);
    for (size_t i = 0; i < a->refdb->ntables; i++)
        for (size_t k = 0; k < a->refdb->tables[i]->ncols; k++) {
            const char *b = a->refdb->tables[i]->cols[k].board;
            if (b && (!sb.buf || !strstr(sb.buf, b)))
                sb_addf(&sb, "%s%s", sb.len ? ", " : "", b);
        }
    int rc = cli_usage_error(c, "no guide has numbers for board '%s' (known: %s)",
                         c->cfg.board, sb.len ? sb.buf : "none");
    sb_free(&sb);
    return rc;
}

const char *cli_output_format(const struct cli *c)
{
    if (c->format)
        return c->format;
    const char *f = c->output ? export_format_for_path(c->output) : NULL;
    return f ? f : "text";
}

int cli_stdout_closed_error(struct cli *c)
{
    fprintf(c->err, "evmbench: standard output is closed (started with >&-): nothing to "
            "write the output to; redirect it (>FILE, >/dev/null) or use -o FILE\n");
    return EXIT_FAILURE;
}

char *cli_store_dir(const struct cli *c)
{
    return c->results_dir ? xstrdup(c->results_dir) : store_default_dir();
}
