/* store.h - the results store: every finished metric on disk at once.
 *
 * A store is a directory ($XDG_DATA_HOME/evmbench, else
 * ~/.local/share/evmbench, or --results-dir) holding
 *
 *   runs/RUN.evmrun     one per run, JSON Lines, append-only:
 *                         {"format":"evmbench-run/1", "id":..., "started":...,
 *                          ...whatever header the caller gives}
 *                         {"row": {...result row...}}      one per metric
 *                         {"end": "2026-11-30T12:00:00Z"}  when the run ended
 *   baselines/NAME.json a named copy of a run's rows, replaced atomically
 *
 * Each row is written and fsync()ed as soon as its metric finishes, so a
 * crash, a power cut or a pulled serial cable loses at most the metric in
 * flight. A run without its "end" line was interrupted: it is kept, and
 * read back as incomplete. Readers never fail on a bad file: a line that
 * is not JSON, or a file that is not a run, becomes a diagnostic with
 * file and line, and the rest is read. */
#ifndef EVMBENCH_STORE_H
#define EVMBENCH_STORE_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "common/diag.h"

#define STORE_RUN_FORMAT "evmbench-run/1"
#define STORE_BASELINE_FORMAT "evmbench-baseline/1"

/* The default store directory; NULL when neither XDG_DATA_HOME nor HOME
 * is set. Caller frees. */
char *store_default_dir(void);

/* Whether NAME can name a baseline: 1 to 100 letters, digits, '-', '_'
 * and '.', not starting with '.' (store_save_baseline refuses others). */
bool store_baseline_name_ok(const char *name);

struct store_writer;

/* Creates DIR/runs/ID.evmrun (ID from the UTC time and `tag`, e.g. the
 * board) and writes the header line: `header`'s members plus format, id
 * and started. NULL with a message added to d when the file cannot be made. */
struct store_writer *store_begin(const char *dir, const char *tag, json_t *header,
                                 struct diag *d);
const char *store_writer_id(const struct store_writer *w);
const char *store_writer_path(const struct store_writer *w);
/* Appends one row and flushes it to the disk. -1 with a message added to
 * d on failure; later rows are still tried. */
int store_append(struct store_writer *w, json_t *row, struct diag *d);
/* Writes the end line when `complete`, closes and frees. Without it the
 * run stays marked incomplete (e.g. cancelled). -1 with a message added
 * to d when the end line or the close fails. */
int store_finish(struct store_writer *w, bool complete, struct diag *d);
/* store_finish() whose end line also carries `system_end` (an object: what
 * the end of the run adds to the system record, board/sysstate.h), when
 * complete and system_end is not NULL. */
int store_finish_with(struct store_writer *w, bool complete, json_t *system_end,
                      struct diag *d);

/* A run's header may hold "system" (board/sysstate.h: the state of the
 * system it ran on); older run files have none and still load. */
struct stored_run {
    char *id;                   /* file name without .evmrun */
    char *path;
    json_t *header;             /* the first line */
    json_t *rows;               /* array of row objects */
    bool complete;              /* has its end line */
    json_t *system_end;         /* the end line's "system_end", or NULL */
};

/* Reads one run file. -1 when it is not a run at all (diagnostic added);
 * bad lines inside are skipped with a diagnostic each. */
int store_read_run(const char *path, struct stored_run *out, struct diag *d);
void stored_run_free(struct stored_run *r);

/* Every run in DIR/runs, oldest first (by start time); foreign or corrupt files are
 * skipped with a diagnostic. Returns the count; *out is freed with
 * store_runs_free. */
size_t store_list(const char *dir, struct stored_run **out, struct diag *d);
void store_runs_free(struct stored_run *runs, size_t n);

/* Finds a run by id, unique id prefix, path, or "latest". -1 with a
 * diagnostic when there is none (or the prefix is ambiguous). */
int store_find(const char *dir, const char *which, struct stored_run *out, struct diag *d);

/* Deletes all but the newest `keep` runs; files that do not read as runs
 * are reported and left alone. Returns how many were deleted. */
int store_prune(const char *dir, size_t keep, struct diag *d);

/* The path of baseline NAME's file in store DIR (DIR/baselines/NAME.json)
 * when something is there, else NULL. Caller frees. */
char *store_baseline_existing(const char *dir, const char *name);
/* Saves rows as baseline NAME (letters, digits, '-', '_', '.'), through a
 * temporary file and rename() (outfile.h). A baseline is never lost: when
 * NAME exists it is refused ("PATH exists", errno EEXIST) unless
 * `replace`; replacing first copies the old file to baseline NAME.prev
 * (DIR/baselines/NAME.prev.json, replacing an older .prev), and an old
 * file that cannot be read or copied is left as it was and refused.
 * -1 with a message added to d on failure. */
int store_save_baseline(const char *dir, const char *name, const char *run_id,
                        json_t *rows, bool replace, struct diag *d);
/* The rows of baseline NAME, or of the run NAME when no baseline has that
 * name. NULL with a diagnostic when neither exists. Caller decrefs. */
json_t *store_load_baseline(const char *dir, const char *name, struct diag *d);

/* The system record of a run: its header's "system" with the end line's
 * "system_end" as member "end"; NULL when the run has none. Caller decrefs. */
json_t *stored_run_system(const struct stored_run *r);
/* The system record of baseline NAME (saved in it, or of the run it was
 * saved from) or of the run NAME; NULL when there is none (older files,
 * no such name). Never a diagnostic: the metrics' loader reports those.
 * Caller decrefs. */
json_t *store_load_system(const char *dir, const char *name);

/* What can serve as a baseline (the results screen): the saved baselines
 * (by name), then the runs of the store, newest first. */
struct baseline_choice {
    char *name;         /* what store_load_baseline takes */
    bool is_run;        /* a run id, not a saved baseline */
    size_t rows;        /* its metrics */
    bool complete;      /* a run with its end line (baselines: true) */
};
/* Lists them from store DIR; unreadable files become diagnostics. *out
 * is freed with store_baseline_choices_free. */
size_t store_baseline_choices(const char *dir, struct baseline_choice **out,
                              struct diag *d);
void store_baseline_choices_free(struct baseline_choice *c, size_t n);

#endif
