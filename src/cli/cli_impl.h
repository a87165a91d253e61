/* cli_impl.h - what the command-line modules share: the parsed command
 * line, the small helpers every command uses for its output (cli_output.c)
 * and the commands the dispatcher (cli.c) runs. Only cli*.c include it;
 * cli.h is the public entry point. */
#ifndef EVMBENCH_CLI_IMPL_H
#define EVMBENCH_CLI_IMPL_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "app.h"
#include "common/diag.h"
#include "data/profile.h"
#include "store/store.h"

struct cli {
    FILE *out, *err;
    bool stdout_closed;         /* started with stdout closed (>&-) */
    struct app_config cfg;
    const char *format;
    const char *output;         /* -o */
    struct outfile *outfile;    /* -o while it is written (outfile.h) */
    const char *run;            /* --run, for the TUI */
    const char *demo;           /* --demo[=PROFILE] */
    bool check;                 /* --check: the screens run the quick profile once
                                 * and end on the verdict */
    const char *profile_name;   /* run --profile */
    struct profile profile;     /* loaded when profile_name is set */
    bool profile_loaded;
    const char *theme;          /* --theme */
    bool slow_tty;              /* --slow-tty */
    bool provider_set;          /* --provider was given */
    const char *section;        /* refs filter */
    const char *layout;
    const char *ui;
    bool help, version;         /* -h, -V: nothing else is done */
    char **args;                /* positional arguments after the command */
    const char *then;           /* the command the dispatcher runs next on the
                                 * same app (the screens' --ui line) */
    char *line_args[1];         /* its argument: --run BENCH */
    struct app *app;            /* run: the model the sink reads */
    FILE *run_out;              /* run --format text: rows go here as runs end */
    int out_errno;              /* why flushing run_out first failed, or 0 */
    int rounds;                 /* selfcheck --rounds */
    const char *storage_dir;    /* --storage-dir */
    bool allow_raw;             /* --allow-raw-device */
    const char *peer;           /* --peer */
    const char *audio_device;   /* --audio-device */
    int nargs;
    /* run: the results store and baselines */
    const char *results_dir;    /* --results-dir; NULL: store_default_dir() */
    bool no_save;               /* --no-save */
    const char *save_baseline;  /* --save-baseline NAME */
    bool replace_baseline;      /* --replace-baseline: NAME may exist (kept as NAME.prev) */
    const char *baseline;       /* --baseline NAME|RUN */
    double fail_pct;            /* --fail-on-deviation; 0: off */
    int keep;                   /* results prune --keep */
    bool keep_set;
    const char *tool;           /* results import --tool */
    bool quiet;                 /* --quiet: no progress on stderr */
    bool all;                   /* --all: list every guide */
    const char *kmsg;           /* --lava-kmsg[=PATH]: LAVA lines go there */
    struct batch *batch;        /* run: the batch going, for the status line */
    bool status_tty;            /* stderr is a terminal: one updating line */
    bool status_shown;          /* the status line is on the screen now */
    double status_last, batch_started;
    char last_value[64];        /* "copy 1838.9 mb/s" */
    json_t *rows;               /* every finished row, in order */
};

/* The exit status of a usage error, after a one-line message on err. */
int cli_usage_error(struct cli *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Whether --format is `name` ("text" when none was given). */
bool cli_format_is(const struct cli *c, const char *name);
/* 0 when --format is one of `allowed` (NULL-terminated), else a usage error. */
int cli_check_format(struct cli *c, const char *const *allowed);
/* The format of `run` and `results export`: --format, else the -o file's
 * extension, else text. */
const char *cli_output_format(const struct cli *c);
/* Where output goes: stdout, or the -o file through outfile.h (replaced
 * only by cli_close_output; NULL after a message). */
FILE *cli_open_output(struct cli *c);
/* Finishes what cli_open_output gave: 0, or 1 after a message when any of
 * the output was lost (a full disk, a closed pipe); -o FILE is then left
 * as it was. Once a stop signal was caught (common/stopsig.h) -o FILE is
 * left as it was and nothing is said: 1. */
int cli_close_output(struct cli *c, FILE *f);
/* j as indented JSON and a newline; -1 when it could not be written. */
int cli_dump_json(json_t *j, FILE *f);
/* Loader diagnostics as warnings on err. */
void cli_print_diag(struct cli *c, const struct diag *d);
/* 0, or a usage error when --board names no guide column. */
int cli_check_board(struct cli *c, const struct app *a);

/* The failure (exit 1) of a command whose output would go to a closed
 * stdout, after a message on err. */
int cli_stdout_closed_error(struct cli *c);
/* The results store: --results-dir, else store_default_dir(); NULL when
 * there is none (no HOME). Freed by the caller. */
char *cli_store_dir(const struct cli *c);

/* The commands. Each returns its exit status, messages on c->err. `a` is
 * the app the dispatcher built for those that share one (the screens,
 * list, refs, run, selfcheck; their loader warnings already printed
 * except for the screens'), NULL for those that build their own or need
 * none. */
int cli_cmd_screens(struct cli *c, struct app *a);      /* cli_screens.c */
int cli_cmd_list(struct cli *c, struct app *a);         /* cli_info.c */
int cli_cmd_sysinfo(struct cli *c, struct app *a);
int cli_cmd_refs(struct cli *c, struct app *a);
int cli_cmd_selfcheck(struct cli *c, struct app *a);
int cli_cmd_run(struct cli *c, struct app *a);          /* cli_run.c */
int cli_cmd_results(struct cli *c, struct app *a);      /* cli_results.c */
int cli_cmd_results_import(struct cli *c, struct app *a);
int cli_cmd_import_guide(struct cli *c, struct app *a); /* cli_import_guide.c */

#endif
