/* socdata.h - reading a SoC data file (soc/NAME.json), the one way.
 *
 * The facts per SoC family (soc/ddr.json: ddrspec.h, soc/cpu.json:
 * socfacts.h; benches/soc/ in the source tree, built in with the other
 * data) are files of one shape:
 *
 *     {"format": "evmbench-ddr/1", "socs": [{"family": "AM62X", ...}, ...]}
 *
 * This reads such a file, checks the shape and hands each entry of socs[]
 * to the file's own parser, so that both say what is wrong the same way,
 * by file and JSON path:
 *
 *     LABEL:LINE:COLUMN: TEXT                  not JSON, a key twice
 *     LABEL: not a DDR data file (format F, not evmbench-ddr/1, with a "socs" list)
 *     LABEL: not a DDR data file: socs is missing, not a list
 *     LABEL: socs[3]: skipped: not an object   the other entries still count
 *     LABEL: cannot read: REASON
 *
 * LABEL is what data_dir_file_label() calls the file. */
#ifndef EVMBENCH_SOCDATA_H
#define EVMBENCH_SOCDATA_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "common/diag.h"
#include "data/datadir.h"

/* What one kind of file is. */
struct socdata_kind {
    const char *name;       /* "ddr.json", in the data folder "soc" */
    const char *format;     /* its "format": "evmbench-ddr/1" */
    const char *what;       /* "DDR": "not a DDR data file" */
    bool optional;          /* a missing file is no problem, just no entries */
};

/* One entry of socs[], as the file's parser gets it. */
struct socdata_entry {
    json_t *json;           /* the entry, always an object */
    const char *path;       /* its JSON path: "socs[3]" */
    const char *label;      /* the file, as messages name it */
    struct diag *diag;      /* where socdata_skip() says why */
    size_t skipped;         /* socdata_skip() calls so far, in the whole file */
};

/* Parses one entry into the parser's ctx, or calls socdata_skip() and
 * leaves ctx as it was. */
typedef void (*socdata_entry_fn)(struct socdata_entry *e, void *ctx);

/* Says "LABEL: PATH: skipped: WHY" (WHY formatted as printf does) and
 * counts the entry as skipped. */
void socdata_skip(struct socdata_entry *e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Parses `text`, a file of kind k that messages call `label`, calling fn
 * with ctx on every entry of socs[] that is an object, in order; an entry
 * that is not one is skipped with a message. Returns the number of entries
 * skipped, or -1 (and one message in d) when the text is not JSON or not
 * such a file: then fn was not called. */
int socdata_parse(const struct socdata_kind *k, const char *text, const char *label,
                  socdata_entry_fn fn, void *ctx, struct diag *d);

/* Reads file k->name from dir (NULL: the data folder "soc", data/datadir.h,
 * at most 1 MiB) and parses it as socdata_parse(). -1 with "LABEL: cannot
 * read: ..." when it cannot be read, except a missing file of an optional
 * kind: 0, without a message and without calling fn. */
int socdata_load(const struct socdata_kind *k, const struct data_dir *dir,
                 socdata_entry_fn fn, void *ctx, struct diag *d);

#endif
