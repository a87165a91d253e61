/* units.h - one readable spelling of each unit the kernels, the tool
 * recipes and the guides use. The screens (fmt_unit), the text table,
 * CSV and JUnit's text show this spelling; JSON, the store, LAVA's
 * UNITS= and the rules that judge a unit's direction (deviation.h) keep
 * the spelling as measured. No curses here. */
#ifndef EVMBENCH_UNITS_H
#define EVMBENCH_UNITS_H

/* The one natural spelling of unit, whatever its case and spaces:
 * "mb/s", "Mbytes/sec" -> "MB/s", "microsec" -> "us", "nanosec" -> "ns",
 * "mhz" -> "MHz", "Mbits/sec" -> "Mbit/s", "dmips/mhz" -> "DMIPS/MHz"
 * (SI prefixes, "/s" for rates, ASCII "us" for a vt100). A unit it does
 * not know is returned as is; NULL gives "". The result is unit itself
 * or a static string. */
const char *unit_display(const char *unit);

#endif
