/* board_impl.h - what the parts of board detection share, for src/board/
 * only (everything else uses board.h):
 *   board.c        the boards of the guides, reading the device tree and
 *                  sysfs, deciding which board this is, --board, the clock
 *   board_text.c   the detected board as JSON and as text lines
 *   board_match.c  how sure it is that this board is the guide's
 * board_text.c and board_match.c call board.c; board_match.c calls
 * board_print_field() of board_text.c; board.c calls neither. */
#ifndef EVMBENCH_BOARD_IMPL_H
#define EVMBENCH_BOARD_IMPL_H

#include <stddef.h>

/* A board of the guides, with the strings its device tree carries
 * (upstream and TI SDK kernels). Compatible is tried first, model second. */
struct known_board {
    const char *key;
    const char *name;
    const char *family;         /* soc0 family of its SoC */
    const char *compat[3];
    const char *model[3];
};

/* The board of the guides with guide column key `key`; NULL when none
 * (or key is NULL). */
const struct known_board *board_known_of(const char *key);
/* The name of Arm (implementer 0x41) CPU part `part`: "Cortex-A53" for
 * 0xd03; NULL when it is not known. */
const char *board_arm_part_name(unsigned part);
/* Joins items with sep, skipping NULL and repeated items; NULL when
 * nothing is left. Caller frees. */
char *board_join_distinct(const char *const *items, size_t n, const char *sep);

#endif
