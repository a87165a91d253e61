/* units.c - the readable spelling of units (units.h). */
#include "config.h"
#include "common/units.h"

#include <stddef.h>
#include <string.h>

#include "common/util.h"

/* Spellings as the kernels, the tool recipes and the guides give them,
 * lower-cased without spaces, and the one each is shown as. */
static const struct {
    const char *from, *to;
} units[] = {
    { "mb/s", "MB/s" },         { "mbs", "MB/s" },          { "mbytes/sec", "MB/s" },
    { "mb/sec", "MB/s" },       { "mbytes/s", "MB/s" },     { "mibps", "MiB/s" },
    { "mib/s", "MiB/s" },       { "kbytes/sec", "kB/s" },   { "kbytes/s", "kB/s" },
    { "kb/s", "kB/s" },         { "gb/s", "GB/s" },         { "mbits/sec", "Mbit/s" },
    { "mbps", "Mbit/s" },       { "mbit/s", "Mbit/s" },     { "bits/sec", "bit/s" },
    { "bit/s", "bit/s" },       { "us", "us" },             { "usec", "us" },
    { "microsec", "us" },       { "microseconds", "us" },   { "ns", "ns" },
    { "nsec", "ns" },           { "nanosec", "ns" },        { "nanoseconds", "ns" },
    { "ms", "ms" },             { "msec", "ms" },           { "milliseconds", "ms" },
    { "s", "s" },               { "sec", "s" },             { "seconds", "s" },
    { "mhz", "MHz" },           { "mips", "MIPS" },         { "dmips/mhz", "DMIPS/MHz" },
    { "dhrystonep", "Dhry/s" }, { "kflops", "kFLOPS" },     { "iterations", "iter/s" },
    { "iterations/sec", "iter/s" }, { "workloads/", "iter/s" },
    { "num_files", "files" },   { "percent", "%" },         { "kpps", "kpps" },
    { "mw", "mW" },             { "w", "W" },               { "score", "score" },
};

const char *unit_display(const char *unit)
{
    char u[32];
    size_t n = 0;
    if (!unit)
        return "";
    for (const char *p = unit; *p; p++) {
        if (*p == ' ')
            continue;
        if (n == sizeof u - 1)
            return unit;            /* longer than any known spelling */
        u[n++] = (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p);
    }
    u[n] = '\0';
    for (size_t i = 0; i < ARRAY_SIZE(units); i++)
        if (strcmp(u, units[i].from) == 0)
            return units[i].to;
    return unit;
}
