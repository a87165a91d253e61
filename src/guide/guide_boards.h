/* guide_boards.h - the "boards" list of a reference file.
 *
 * The rows of the guide's "Evaluation Modules" table name its boards; the
 * table columns name them by key ("am62xx_sk-fs"). Each row is linked to
 * the column key whose name tokens hold all of its own ("AM62x LP SK" ->
 * am62xx_lp_sk-fs), and the clock and DDR facts are read from its
 * description. */
#ifndef EVMBENCH_GUIDE_BOARDS_H
#define EVMBENCH_GUIDE_BOARDS_H

#include <stddef.h>

#include <jansson.h>

#include "guide/guide_doc.h"
#include "guide/guide_text.h"

struct guide_board {        /* one row of the Evaluation Modules table */
    char *name, *description;
    int line;
};

/* The "boards" array of benches/refs/README.md: the n boards first, each
 * under its linked key (a slug of its name, with a diagnostic in d, when
 * no key fits), then the keys no board took, in their order. keys are the
 * board keys of the table columns. Returns a new reference. */
json_t *guide_boards_json(struct guide_doc *d, const struct guide_board *boards, size_t n,
                          const struct guide_strv *keys);

#endif
