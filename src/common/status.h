/* status.h - the one list of outcomes a benchmark or a load can have.
 * X-macro: the enum, the short names used in JSON, and messages. */
#ifndef EVMBENCH_STATUS_H
#define EVMBENCH_STATUS_H

#define STATUS_LIST \
    S(OK,        "ok",        "finished") \
    S(FAILED,    "failed",    "the benchmark failed") \
    S(CRASHED,   "crashed",   "the worker process crashed") \
    S(TIMEOUT,   "timeout",   "the time limit was exceeded") \
    S(CANCELLED, "cancelled", "cancelled by the user") \
    S(NO_DATA,   "no_data",   "no samples were reported")

enum status {
#define S(id, name, msg) STATUS_##id,
    STATUS_LIST
#undef S
    STATUS_COUNT
};

const char *status_name(enum status s);
const char *status_message(enum status s);

#endif
