/* cpucheck.c - governor, load and throttling checks (see cpucheck.h). */
#include "config.h"
#include "kernel/cpucheck.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

#define CPUS_MAX        1024
#define TRIPS_MAX       32
#define STATES_TEXT_MAX (64u << 10)
#define BELOW_MIN_SHARE 0.01    /* time below max worth a warning */

/* --- reading ---------------------------------------------------------- */

static const char *root_of(const char *sysroot)
{
    return !sysroot || sysroot[strspn(sysroot, "/")] == '\0' ? "" : sysroot;
}

static char *read_rel(const char *root, const char *rel)
{
    char *path = path_join(root, rel);
    char *s = read_line_file(path);
    free(path);
    return s;
}

static char *read_relf(const char *root, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static char *read_relf(const char *root, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *rel = xvasprintf(fmt, ap);
    va_end(ap);
    char *s = read_rel(root, rel);
    free(rel);
    return s;
}

/* A number from a file; `fallback` when absent or not a number. */
static double num_of(char *s, double fallback)
{
    if (!s)
        return fallback;
    char *end;
    double v = strtod(s, &end);
    bool ok = end != s && isfinite(v);
    free(s);
    return ok ? v : fallback;
}

/* A whole number from a sysfs file, or fallback when it is missing, not a
 * number, or out of long's range. Frees s. */
static long long_of(char *s, long fallback)
{
    if (!s)
        return fallback;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    bool ok = end != s && errno == 0;
    while (isspace((unsigned char)*end))
        end++;
    ok = ok && *end == '\0';
    free(s);
    return ok ? v : fallback;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* "0-3,5" -> CPU numbers; false when unparsable. */
static bool parse_cpu_list(const char *s, int **cpus, size_t *n)
{
    size_t cap = 0;
    *cpus = NULL;
    *n = 0;
    while (*s) {
        char *end;
        long a = strtol(s, &end, 10), b;
        if (end == s || a < 0)
            return false;
        s = end;
        b = a;
        if (*s == '-') {
            b = strtol(s + 1, &end, 10);
            if (end == s + 1 || b < a)
                return false;
            s = end;
        }
        for (long c = a; c <= b && *n < CPUS_MAX; c++) {
            xgrow(cpus, &cap, *n + 1, sizeof **cpus);
            (*cpus)[(*n)++] = (int)c;
        }
        if (*s == ',')
            s++;
        else if (*s)
            return false;
    }
    return *n > 0;
}

/* Numbers N of the entries "<prefix>N" of a directory, sorted. */
static size_t numbered_entries(const char *root, const char *rel, const char *prefix, int **out)
{
    char *path = path_join(root, rel);
    DIR *d = opendir(path);
    free(path);
    *out = NULL;
    if (!d)
        return 0;
    size_t n = 0, cap = 0, plen = strlen(prefix);
    struct dirent *e;
    while ((e = readdir(d)) && n < CPUS_MAX) {
        if (strncmp(e->d_name, prefix, plen) != 0)
            continue;
        char *end;
        long v = strtol(e->d_name + plen, &end, 10);
        if (end == e->d_name + plen || *end || v < 0)
            continue;
        xgrow(out, &cap, n + 1, sizeof **out);
        (*out)[n++] = (int)v;
    }
    closedir(d);
    if (n)
        qsort(*out, n, sizeof **out, cmp_int);
    return n;
}

static void read_states(const char *root, struct cpucheck_cpu *c)
{
    char *rel = xasprintf("sys/devices/system/cpu/cpu%d/cpufreq/stats/time_in_state", c->cpu);
    char *path = path_join(root, rel);
    free(rel);
    char *text = read_file(path, STATES_TEXT_MAX, NULL);
    free(path);
    if (!text)
        return;
    size_t cap = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        unsigned long long khz, ticks;
        if (sscanf(line, "%llu %llu", &khz, &ticks) != 2)
            continue;
        xgrow(&c->states, &cap, c->nstates + 1, sizeof *c->states);
        c->states[c->nstates].khz = khz;
        c->states[c->nstates].ticks = ticks;
        c->nstates++;
    }
    free(text);
}

static void read_cpu(const char *root, struct cpucheck_cpu *c)
{
    const char *dir = "sys/devices/system/cpu/cpu%d/cpufreq/%s";
    c->governor = read_relf(root, dir, c->cpu, "scaling_governor");
    c->cur_mhz = num_of(read_relf(root, dir, c->cpu, "scaling_cur_freq"), 0) / 1000.0;
    c->max_mhz = num_of(read_relf(root, dir, c->cpu, "cpuinfo_max_freq"), 0) / 1000.0;
    c->limit_mhz = num_of(read_relf(root, dir, c->cpu, "scaling_max_freq"), 0) / 1000.0;
    c->total_trans = (long long)num_of(read_relf(root, dir, c->cpu, "stats/total_trans"), -1);
    read_states(root, c);
}

/* Trip types at which the kernel throttles or shuts down ("active" trips
 * start fans, which is not throttling). */
static bool throttling_trip(const char *type)
{
    return type && (strcmp(type, "passive") == 0 || strcmp(type, "hot") == 0 ||
                    strcmp(type, "critical") == 0);
}

static void read_zone(const char *root, int n, struct cpucheck_zone *z)
{
    const char *dir = "sys/class/thermal/thermal_zone%d/%s";
    z->name = xasprintf("thermal_zone%d", n);
    z->type = read_relf(root, dir, n, "type");
    z->temp_c = num_of(read_relf(root, dir, n, "temp"), NAN) / 1000.0;
    z->trip_c = NAN;
    for (int k = 0; k < TRIPS_MAX; k++) {
        char file[40];
        snprintf(file, sizeof file, "trip_point_%d_temp", k);
        double t = num_of(read_relf(root, dir, n, file), NAN);
        if (isnan(t))
            break;
        snprintf(file, sizeof file, "trip_point_%d_type", k);
        char *type = read_relf(root, dir, n, file);
        if (throttling_trip(type) && t > 0 && (isnan(z->trip_c) || t / 1000.0 < z->trip_c)) {
            z->trip_c = t / 1000.0;
            free(z->trip_type);
            z->trip_type = type;
        } else {
            free(type);
        }
    }
}

static void read_cooling(const char *root, int n, struct cpucheck_cooling *c)
{
    const char *dir = "sys/class/thermal/cooling_device%d/%s";
    c->name = xasprintf("cooling_device%d", n);
    c->type = read_relf(root, dir, n, "type");
    c->cur_state = long_of(read_relf(root, dir, n, "cur_state"), -1);
    c->max_state = long_of(read_relf(root, dir, n, "max_state"), -1);
}

void cpucheck_snapshot(struct cpucheck_snapshot *s, const char *sysroot)
{
    const char *root = root_of(sysroot);
    memset(s, 0, sizeof *s);

    char *load = read_rel(root, "proc/loadavg");
    s->load1 = num_of(load, NAN);

    int *cpus = NULL;
    size_t n = 0;
    char *online = read_rel(root, "sys/devices/system/cpu/online");
    if (!online || !parse_cpu_list(online, &cpus, &n)) {
        free(cpus);
        n = numbered_entries(root, "sys/devices/system/cpu", "cpu", &cpus);
    }
    free(online);
    s->cpus = n ? xcalloc(n, sizeof *s->cpus) : NULL;
    s->ncpus = n;
    for (size_t i = 0; i < n; i++) {
        s->cpus[i].cpu = cpus[i];
        read_cpu(root, &s->cpus[i]);
    }
    free(cpus);

    int *nums = NULL;
    n = numbered_entries(root, "sys/class/thermal", "thermal_zone", &nums);
    s->zones = n ? xcalloc(n, sizeof *s->zones) : NULL;
    s->nzones = n;
    for (size_t i = 0; i < n; i++)
        read_zone(root, nums[i], &s->zones[i]);
    free(nums);

    n = numbered_entries(root, "sys/class/thermal", "cooling_device", &nums);
    s->cooling = n ? xcalloc(n, sizeof *s->cooling) : NULL;
    s->ncooling = n;
    for (size_t i = 0; i < n; i++)
        read_cooling(root, nums[i], &s->cooling[i]);
    free(nums);
}

void cpucheck_snapshot_free(struct cpucheck_snapshot *s)
{
    for (size_t i = 0; i < s->ncpus; i++) {
        free(s->cpus[i].governor);
        free(s->cpus[i].states);
    }
    for (size_t i = 0; i < s->nzones; i++) {
        free(s->zones[i].name);
        free(s->zones[i].type);
        free(s->zones[i].trip_type);
    }
    for (size_t i = 0; i < s->ncooling; i++) {
        free(s->cooling[i].name);
        free(s->cooling[i].type);
    }
    free(s->cpus);
    free(s->zones);
    free(s->cooling);
    memset(s, 0, sizeof *s);
}

/* --- warnings ---------------------------------------------------------- */

void cpucheck_add(struct cpucheck_list *l, enum cpucheck_kind kind, int cpu,
                  const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *text = xvasprintf(fmt, ap);
    va_end(ap);
    xgrow(&l->items, &l->cap, l->count + 1, sizeof *l->items);
    l->items[l->count].kind = kind;
    l->items[l->count].cpu = cpu;
    l->items[l->count].text = text;
    l->count++;
}

void cpucheck_list_free(struct cpucheck_list *l)
{
    for (size_t i = 0; i < l->count; i++)
        free(l->items[i].text);
    free(l->items);
    memset(l, 0, sizeof *l);
}

/* CPUs sharing one message: "cpu0-3: <body>". */
struct group {
    char *body;
    int *cpus;
    size_t n, cap;
};

static void group_add(struct group **g, size_t *ng, size_t *cap, int cpu, char *body)
{
    for (size_t i = 0; i < *ng; i++) {
        if (strcmp((*g)[i].body, body) == 0) {
            xgrow(&(*g)[i].cpus, &(*g)[i].cap, (*g)[i].n + 1, sizeof(int));
            (*g)[i].cpus[(*g)[i].n++] = cpu;
            free(body);
            return;
        }
    }
    xgrow(g, cap, *ng + 1, sizeof **g);
    struct group *e = &(*g)[(*ng)++];
    memset(e, 0, sizeof *e);
    e->body = body;
    xgrow(&e->cpus, &e->cap, 1, sizeof(int));
    e->cpus[e->n++] = cpu;
}

/* "cpu0-3", "cpu0,2", "cpu0-1,3" from sorted CPU numbers. */
static char *cpu_ranges(const int *cpus, size_t n)
{
    struct strbuf sb;
    sb_init(&sb);
    sb_add(&sb, "cpu");
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j + 1 < n && cpus[j + 1] == cpus[j] + 1)
            j++;
        if (i)
            sb_add(&sb, ",");
        if (j > i)
            sb_addf(&sb, "%d-%d", cpus[i], cpus[j]);
        else
            sb_addf(&sb, "%d", cpus[i]);
        i = j + 1;
    }
    return sb_steal(&sb);
}

static void group_flush(struct group *g, size_t ng, enum cpucheck_kind kind,
                        struct cpucheck_list *out)
{
    for (size_t i = 0; i < ng; i++) {
        char *who = cpu_ranges(g[i].cpus, g[i].n);
        cpucheck_add(out, kind, g[i].n == 1 ? g[i].cpus[0] : -1, "%s: %s", who, g[i].body);
        free(who);
        free(g[i].body);
        free(g[i].cpus);
    }
    free(g);
}

static bool cpufreq_cooling(const struct cpucheck_cooling *c)
{
    return c->type && (strstr(c->type, "cpufreq") || strstr(c->type, "cpu"));
}

static void thermal_warnings(const struct cpucheck_snapshot *s, const struct cpucheck_snapshot *b,
                             struct cpucheck_list *out)
{
    for (size_t i = 0; i < s->nzones; i++) {
        const struct cpucheck_zone *z = &s->zones[i];
        if (isnan(z->temp_c) || isnan(z->trip_c) || z->temp_c < z->trip_c)
            continue;
        cpucheck_add(out, CPUCHECK_THERMAL, -1,
                     "%s (%s) %s %.1f C, at or above its %s trip point %.1f C: "
                     "the CPU %s throttled", z->name, z->type ? z->type : "?",
                     b ? "reached" : "is at", z->temp_c,
                     z->trip_type ? z->trip_type : "?", z->trip_c,
                     b ? "was probably" : "may be");
    }
    for (size_t i = 0; i < s->ncooling; i++) {
        const struct cpucheck_cooling *c = &s->cooling[i];
        if (!cpufreq_cooling(c) || c->cur_state <= 0)
            continue;
        long was = -1;
        if (b)
            for (size_t j = 0; j < b->ncooling; j++)
                if (strcmp(b->cooling[j].name, c->name) == 0)
                    was = b->cooling[j].cur_state;
        if (b)
            cpucheck_add(out, CPUCHECK_COOLING, -1,
                         "%s (%s) at state %ld of %ld after the run (%ld before): "
                         "the CPU clock was limited", c->name, c->type, c->cur_state,
                         c->max_state, was);
        else
            cpucheck_add(out, CPUCHECK_COOLING, -1,
                         "%s (%s) is active, state %ld of %ld: the CPU clock is limited",
                         c->name, c->type, c->cur_state, c->max_state);
    }
}

void cpucheck_before(const struct cpucheck_snapshot *s, struct cpucheck_list *out)
{
    if (!isnan(s->load1) && s->load1 > CPUCHECK_LOAD_MAX)
        cpucheck_add(out, CPUCHECK_LOAD, -1,
                     "the 1-minute load average is %.2f (above %.1f): other work is "
                     "running and will disturb CPU results", s->load1, CPUCHECK_LOAD_MAX);

    bool any_cpufreq = false;
    struct group *gov = NULL, *cap = NULL;
    size_t ngov = 0, cgov = 0, ncap = 0, ccap = 0;
    for (size_t i = 0; i < s->ncpus; i++) {
        const struct cpucheck_cpu *c = &s->cpus[i];
        if (c->governor || c->cur_mhz > 0 || c->max_mhz > 0)
            any_cpufreq = true;
        if (c->governor && strcmp(c->governor, "performance") != 0)
            group_add(&gov, &ngov, &cgov, c->cpu,
                      xasprintf("governor '%s', not 'performance': the clock can change "
                                "during the run", c->governor));
        if (c->limit_mhz > 0 && c->max_mhz > 0 && c->limit_mhz < c->max_mhz * 0.999)
            group_add(&cap, &ncap, &ccap, c->cpu,
                      xasprintf("capped at %.0f MHz of %.0f MHz (scaling_max_freq)",
                                c->limit_mhz, c->max_mhz));
    }
    group_flush(gov, ngov, CPUCHECK_GOVERNOR, out);
    group_flush(cap, ncap, CPUCHECK_CAPPED, out);
    if (s->ncpus && !any_cpufreq)
        cpucheck_add(out, CPUCHECK_NO_CPUFREQ, -1,
                     "no cpufreq in sysfs: the CPU clock can be measured but not read "
                     "or checked (a VM, or a kernel without a cpufreq driver)");
    thermal_warnings(s, NULL, out);
}

static const struct cpucheck_cpu *find_cpu(const struct cpucheck_snapshot *s, int cpu)
{
    for (size_t i = 0; i < s->ncpus; i++)
        if (s->cpus[i].cpu == cpu)
            return &s->cpus[i];
    return NULL;
}

/* Ticks of `khz` in a snapshot's time_in_state (0 when absent). */
static unsigned long long ticks_at(const struct cpucheck_cpu *c, unsigned long long khz)
{
    for (size_t i = 0; i < c->nstates; i++)
        if (c->states[i].khz == khz)
            return c->states[i].ticks;
    return 0;
}

static void freq_warnings(const struct cpucheck_cpu *b, const struct cpucheck_cpu *a,
                          struct cpucheck_list *out)
{
    if (b->total_trans >= 0 && a->total_trans > b->total_trans)
        cpucheck_add(out, CPUCHECK_FREQ_CHANGED, a->cpu,
                     "cpu%d: the frequency changed %lld times during the run", a->cpu,
                     a->total_trans - b->total_trans);
    else if (b->total_trans < 0 && b->cur_mhz > 0 && a->cur_mhz > 0 &&
             fabs(a->cur_mhz - b->cur_mhz) > 0.01 * b->cur_mhz)
        cpucheck_add(out, CPUCHECK_FREQ_CHANGED, a->cpu,
                     "cpu%d: the frequency went from %.0f to %.0f MHz during the run",
                     a->cpu, b->cur_mhz, a->cur_mhz);

    /* Time in each state during the run, against the highest frequency. */
    unsigned long long top = a->max_mhz > 0 ? (unsigned long long)(a->max_mhz * 1000 + 0.5) : 0;
    unsigned long long total = 0, below = 0;
    if (!top)
        for (size_t i = 0; i < a->nstates; i++)
            if (a->states[i].khz > top)
                top = a->states[i].khz;
    for (size_t i = 0; i < a->nstates; i++) {
        unsigned long long was = ticks_at(b, a->states[i].khz);
        unsigned long long d = a->states[i].ticks > was ? a->states[i].ticks - was : 0;
        total += d;
        if (a->states[i].khz < top)
            below += d;
    }
    if (!total || !below || (double)below < BELOW_MIN_SHARE * (double)total)
        return;
    struct strbuf sb;
    sb_init(&sb);
    for (size_t i = 0; i < a->nstates; i++) {
        unsigned long long was = ticks_at(b, a->states[i].khz);
        unsigned long long d = a->states[i].ticks > was ? a->states[i].ticks - was : 0;
        if (d && a->states[i].khz < top)
            sb_addf(&sb, "%s%.0f MHz %.0f%%", sb.len ? ", " : "",
                    (double)a->states[i].khz / 1000.0, 100.0 * (double)d / (double)total);
    }
    cpucheck_add(out, CPUCHECK_BELOW_MAX, a->cpu,
                 "cpu%d: ran below its maximum %.0f MHz for %.0f%% of the run (%s)",
                 a->cpu, (double)top / 1000.0, 100.0 * (double)below / (double)total,
                 sb.buf ? sb.buf : "");
    sb_free(&sb);
}

void cpucheck_after(const struct cpucheck_snapshot *before,
                    const struct cpucheck_snapshot *after, int cpu,
                    struct cpucheck_list *out)
{
    for (size_t i = 0; i < after->ncpus; i++) {
        const struct cpucheck_cpu *a = &after->cpus[i];
        if (cpu >= 0 && a->cpu != cpu)
            continue;
        const struct cpucheck_cpu *b = find_cpu(before, a->cpu);
        if (b)
            freq_warnings(b, a, out);
    }
    thermal_warnings(after, before, out);
}

void cpucheck_clocks(const struct cpuclock_core *cores, size_t n, struct cpucheck_list *out)
{
    for (size_t i = 0; i < n; i++) {
        const struct cpuclock_core *c = &cores[i];
        if (c->mismatch)
            cpucheck_add(out, CPUCHECK_CLOCK_MISMATCH, c->cpu,
                         "cpu%d: measured %.0f MHz, cpufreq says %.0f MHz (%+.1f%%)",
                         c->cpu, c->measured_mhz, c->cpufreq_mhz,
                         (c->measured_mhz - c->cpufreq_mhz) / c->cpufreq_mhz * 100.0);
    }
}

double cpucheck_share_note(struct report *r, int cpu, double wall_s, double cpu_s)
{
    if (!(wall_s > 0) || !(cpu_s >= 0))
        return 1.0;
    double share = cpu_s / wall_s;
    if (share < CPUCHECK_SHARE_MIN)
        report_note(r, "warning: the worker had %.0f%% of cpu%d, other processes ran on "
                    "it; the rates use the worker's CPU time, caches and memory were "
                    "shared", share * 100.0, cpu);
    return share;
}
