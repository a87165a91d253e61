/* privilege.h - what root alone could add, and whether this process has it.
 *
 * evmbench needs no privileges: every benchmark, the board detection and
 * the results store work as an ordinary user. A few extras that the guides'
 * methods mention are root-only on a stock board; this module finds out
 * which ones this process has, so `sysinfo` can say what is missing and
 * what that costs, instead of a benchmark failing on EACCES. Everything is
 * read below a root prefix (--sysroot) so tests use fixture trees. */
#ifndef EVMBENCH_PRIVILEGE_H
#define EVMBENCH_PRIVILEGE_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

enum priv_state {
    PRIV_AVAILABLE,     /* this process may use it */
    PRIV_DENIED,        /* present, but not for this user */
    PRIV_ABSENT,        /* not on this system (not mounted, no such device) */
};

struct priv_extra {
    const char *id;             /* "drop_caches", "clk_debugfs", "raw_device" */
    const char *label;          /* sysinfo's label */
    enum priv_state state;
    const char *explain;        /* what evmbench does without it */
};

#define PRIV_NEXTRAS 3

struct priv_report {
    bool root;                  /* effective uid 0 */
    unsigned uid;
    struct priv_extra extras[PRIV_NEXTRAS];
};

/* Probes the extras below root (NULL = "/"). Never fails. */
void priv_probe(const char *root, struct priv_report *r);

/* The sysinfo lines ("Privileges:" and one per extra). */
void priv_print_text(const struct priv_report *r, FILE *out);

/* {"root": bool, "uid": n, "extras": [{"id", "state", "explain"}...]} */
json_t *priv_to_json(const struct priv_report *r);

const char *priv_state_name(enum priv_state s);

#endif
