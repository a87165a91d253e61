/* cpuload.c - CPU load over an interval from /proc/stat or rusage. */
#include "config.h"
#include "common/cpuload.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/util.h"

bool cpuload_parse_cpu(const char *text, int cpu, struct cpuload_sample *s)
{
    char name[24];
    if (cpu < 0)
        snprintf(name, sizeof name, "cpu ");
    else
        snprintf(name, sizeof name, "cpu%d ", cpu);
    size_t len = strlen(name);
    const char *line = text;
    while (line && strncmp(line, name, len) != 0) {
        line = strchr(line, '\n');
        if (line)
            line++;
    }
    if (!line)
        return false;
    /* user nice system idle iowait irq softirq steal guest guest_nice */
    unsigned long long f[8] = { 0 };
    const char *p = line + len;
    int n = 0;
    while (n < 8) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p < '0' || *p > '9')
            break;
        char *end;
        errno = 0;
        f[n] = strtoull(p, &end, 10);
        if (errno)
            return false;
        p = end;
        n++;
    }
    if (n < 4)
        return false;
    s->busy = f[0] + f[1] + f[2] + f[5] + f[6] + f[7];
    s->total = s->busy + f[3] + f[4];
    return true;
}

bool cpuload_parse(const char *text, struct cpuload_sample *s)
{
    return cpuload_parse_cpu(text, -1, s);
}

bool cpuload_read(const char *sysroot, struct cpuload_sample *s, struct diag *d)
{
    return cpuload_read_cpu(sysroot, -1, s, d);
}

bool cpuload_read_cpu(const char *sysroot, int cpu, struct cpuload_sample *s, struct diag *d)
{
    char *path = xasprintf("%s/proc/stat", sysroot && *sysroot ? sysroot : "");
    int fd = open_regular(path, NULL);
    if (fd < 0) {
        diag_add(d, "cannot read %s: %s", path, file_strerror(errno));
        free(path);
        return false;
    }
    /* the "cpu" line is the first; 4 KiB holds it on any machine */
    char buf[4096];
    size_t n = 0;
    while (n < sizeof buf - 1) {
        ssize_t r = read(fd, buf + n, sizeof buf - 1 - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        n += (size_t)r;
    }
    buf[n] = '\0';
    close(fd);
    bool ok = cpuload_parse_cpu(buf, cpu, s);
    if (!ok)
        diag_add(d, "%s: no \"cpu%s\" line with user, nice, system and idle times", path,
                 cpu < 0 ? "" : "N");
    free(path);
    return ok;
}

double cpuload_system_percent(const struct cpuload_sample *before,
                              const struct cpuload_sample *after)
{
    if (after->total <= before->total || after->busy < before->busy)
        return NAN;
    double busy = (double)(after->busy - before->busy);
    double total = (double)(after->total - before->total);
    double pct = 100.0 * busy / total;
    return pct > 100 ? 100 : pct;
}

double cpuload_process_percent(double cpu_seconds, double wall_seconds)
{
    if (!(wall_seconds > 0) || !(cpu_seconds >= 0))
        return NAN;
    return 100.0 * cpu_seconds / wall_seconds;
}
