/* session.h - every metric measured since the program started.
 *
 * The TUI keeps each finished (or cancelled) batch here instead of freeing
 * it, numbered in the order the batches started, so the results screen
 * lists the latest finished value of each metric (and on request every
 * value, older and cancelled ones marked), and a change of reference board
 * re-judges them all: rows are made afresh from the runs with the compare
 * settings of the moment (result_row_make).
 *
 * Sorting and filtering work on the rows alone (the tests give them rows
 * filled by hand). */
#ifndef EVMBENCH_SESSION_H
#define EVMBENCH_SESSION_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "run/batch.h"
#include "common/diag.h"
#include "run/result.h"

/* Kept at most; the oldest go first. */
#define SESSION_MAX_BATCHES 200

/* A batch with what the session knows of it. */
struct session_batch {
    struct batch *batch;
    size_t number;              /* 1, 2, ... in the order the batches started */
    /* The metric ids shown (a profile's `bench NAME METRIC...`); none: all. */
    char **keep;
    size_t nkeep;
};

struct session {
    struct session_batch *batches;  /* owned, in the order they ran */
    size_t n, cap;
};

/* Where a row's value stands. */
enum session_state {
    SESSION_DONE,               /* its run ended (well or not) */
    SESSION_CANCELLED,          /* its run was cancelled: a partial value */
    SESSION_RUNNING,            /* its run goes on */
};

struct session_row {
    const struct run *run;
    size_t metric;              /* index in run->metrics */
    size_t seq;                 /* 1, 2, ... in the order measured */
    size_t number;              /* its batch's number (session_batch) */
    enum session_state state;
    bool latest;                /* the value shown for its metric (see below) */
    struct result_row row;
};

enum session_sort {
    SESSION_SORT_ORDER,         /* as measured */
    SESSION_SORT_NAME,          /* benchmark, then metric */
    SESSION_SORT_DEVIATION,     /* worst first: off, warn, then by how far */
    SESSION_SORT_STATUS,        /* failures, off, warn, in range, no reference */
    SESSION_SORT_PROVIDER,
    SESSION_SORT_COUNT
};

/* What session_rows returns. */
enum {
    SESSION_PROBLEMS = 1 << 0,  /* only warn, off and failed rows */
    SESSION_ALL = 1 << 1,       /* every value measured, not only the latest */
};

void session_init(struct session *s);
/* Takes sb->batch and sb->keep (NULL batch: sb->keep is freed). A batch
 * that measured nothing is freed. A batch still running is cancelled
 * first. */
void session_keep(struct session *s, struct session_batch *sb);
void session_free(struct session *s);
/* Whether the batch shows metric id (its keep list has it, or is empty). */
bool session_batch_shows(const struct session_batch *sb, const char *metric);

/* The rows of every kept batch, then of `live` (the batch going now, may
 * be NULL), in the order measured: each metric with a sample or a failure
 * that its batch shows. A row is `latest` when it is the last value of its
 * benchmark and metric from a run that ended and was not cancelled (a
 * failure included: it is the metric's latest outcome); a metric measured
 * only by cancelled or running runs has no latest row. Without
 * SESSION_ALL only the latest rows are returned; with SESSION_PROBLEMS
 * only warn, off and failed ones. *out is allocated (free it); returns the
 * count. */
size_t session_rows(const struct session *s, const struct session_batch *live,
                    const struct compare *cmp, unsigned flags,
                    struct session_row **out);
/* How many values session_rows leaves out without SESSION_ALL (older,
 * cancelled or still running). */
size_t session_rows_hidden(const struct session *s, const struct session_batch *live,
                           const struct compare *cmp);
/* True for a row that needs a look: warn, off, or not STATUS_OK. */
bool session_row_problem(const struct result_row *r);
/* Stable sort of rows by key. */
void session_sort(struct session_row *rows, size_t n, enum session_sort key);
/* "order", "name", "deviation", "status", "provider". */
const char *session_sort_name(enum session_sort key);

/* --- baselines (the results screen) ------------------------------------- */

/* The change of r from the baseline's row of the same bench and metric
 * (baseline: an array of JSON rows with "bench", "metric", "value", as
 * store_load_baseline returns): *then its value, *pct the change in
 * percent of it, *better by the unit's direction (false when neutral,
 * *neutral then true). False when r has no value, the baseline has no such
 * row, or its value is 0. */
bool session_baseline_change(json_t *baseline, const struct result_row *r,
                             double *then, double *pct, bool *better, bool *neutral);

/* The rows as JSON (result_row_json), for store_save_baseline. */
json_t *session_rows_json(const struct session_row *rows, size_t n);

#endif
