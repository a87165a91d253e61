/* sysstate_impl.h - what the parts of the system record share, for
 * src/board/ only (everything else uses sysstate.h):
 *   sysstate.c       reading the record: device tree, CPUs, memory,
 *                    kernel, boot loader, thermal zones; the SoC's DDR facts
 *   sysstate_ddr.c   its "ddr" member: clk_summary, device tree, k3conf
 *   sysstate_text.c  reading a record back: what differs, one line, text
 * sysstate.c calls sysstate_read_ddr(); sysstate_ddr.c calls back only the
 * small readers below; sysstate_text.c needs none of them. */
#ifndef EVMBENCH_SYSSTATE_IMPL_H
#define EVMBENCH_SYSSTATE_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "board/sysstate.h"

#define TEXT_MAX     (1u << 20)     /* clk_summary, cmdline, a kernel log */

/* s as a JSON string (json_string_from_outside()), null for NULL. */
json_t *sysstate_jstr(const char *s);
/* v rounded to one decimal, null when v is not a positive finite number. */
json_t *sysstate_jnum(double v);
/* "EACCES" as the words a person reads; "no such file" for a missing one. */
const char *sysstate_why_not(int err);
/* Device-tree property name of node as one number of ncells big-endian
 * 32-bit cells into *out; false when it is not one (too short, unreadable). */
bool sysstate_prop_cells(const char *node, const char *name, uint64_t *out, size_t ncells);

/* The "ddr" member of the record: the first source (clk_summary under
 * root, the device tree at base, which may be NULL, then k3conf as o says;
 * real: root is this machine's "/") that gives the SoC's DDR PLL wins, a
 * clock only named like the DDR's is kept when none does. The data rate
 * when o->soc says how the clock gives it; why not otherwise, and why each
 * source gave nothing ("tried"). Never NULL; caller decrefs. */
json_t *sysstate_read_ddr(const struct sysstate_opts *o, const char *root, const char *base,
                          bool real);

#endif
