/* sysstate.c - the state of the system a run ran on (sysstate.h). */
#include "config.h"
#include "board/sysstate.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <ctype.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "board/board.h"
#include "kernel/cpuclock.h"
#include "common/util.h"
#include "run/spawn.h"

#define PROP_MAX     4096           /* a device-tree property or sysfs value */
#define TEXT_MAX     (1u << 20)     /* clk_summary, cmdline, a kernel log */
#define MAX_CPUS     256
#define DT_DEPTH     2              /* controller nodes under a bus node */
#define K3CONF_S     10.0           /* k3conf's time limit */
#define KMSG_RECORDS 20000          /* kernel log records looked at */

/* --- small readers --------------------------------------------------------- */

/* Control and non-ASCII bytes become '?', the text is trimmed; NULL (and
 * freed) when nothing is left. */
static char *printable(char *s)
{
    if (!s)
        return NULL;
    for (unsigned char *p = (unsigned char *)s; *p; p++)
        if (*p < 0x20 || *p > 0x7e)
            *p = *p == '\t' || *p == '\n' ? ' ' : '?';
    str_trim(s);
    if (!*s) {
        free(s);
        return NULL;
    }
    return s;
}

static char *read_value(const char *root, const char *rel)
{
    char *path = path_join(root, rel);
    char *s = read_line_file(path);
    free(path);
    return printable(s);
}

static double read_number(const char *root, const char *rel, double scale)
{
    char *s = read_value(root, rel);
    if (!s)
        return 0;
    char *end;
    double v = strtod(s, &end);
    bool ok = end != s && isfinite(v);
    free(s);
    return ok ? v / scale : 0;
}

static json_t *jstr(const char *s)
{
    return s ? json_string_from_outside(s) : json_null();
}

static json_t *jnum(double v)
{
    return v > 0 && isfinite(v) ? json_real(round(v * 10) / 10) : json_null();
}

static bool is_real_root(const char *sysroot)
{
    return !sysroot || sysroot[strspn(sysroot, "/")] == '\0';
}

/* "EACCES" as the words a person reads; "no such file" for a missing one. */
static const char *why_not(int err)
{
    return err == ENOENT ? "no such file" : file_strerror(err);
}

/* --- device tree ----------------------------------------------------------- */

static const char *const dt_bases[] = {
    "proc/device-tree", "sys/firmware/devicetree/base",
};

/* The first device-tree base under root that exists, NULL when none. */
static char *dt_base(const char *root)
{
    for (size_t i = 0; i < ARRAY_SIZE(dt_bases); i++) {
        char *p = path_join(root, dt_bases[i]);
        if (access(p, F_OK) == 0)
            return p;
        free(p);
    }
    return NULL;
}

static char *read_prop(const char *node, const char *name, size_t *len)
{
    char *path = path_join(node, name);
    char *buf = read_file(path, PROP_MAX, len);
    free(path);
    return buf;
}

/* A property as a string (the first of a NUL-separated list). */
static char *prop_string(const char *node, const char *name)
{
    size_t len;
    char *buf = read_prop(node, name, &len);
    if (!buf)
        return NULL;
    char *s = xstrndup(buf, strnlen(buf, len));
    free(buf);
    return printable(s);
}

/* A property of big-endian 32-bit cells; false when it is not. */
static bool prop_cells(const char *node, const char *name, uint64_t *out, size_t ncells)
{
    size_t len;
    unsigned char *buf = (unsigned char *)read_prop(node, name, &len);
    if (!buf || len < 4 * ncells) {
        free(buf);
        return false;
    }
    uint64_t v = 0;
    for (size_t i = 0; i < 4 * ncells; i++)
        v = v << 8 | buf[i];
    free(buf);
    *out = v;
    return true;
}

static json_t *dt_compatible(const char *base)
{
    json_t *arr = json_array();
    size_t len;
    char *buf = base ? read_prop(base, "compatible", &len) : NULL;
    for (size_t off = 0; buf && off < len;) {
        size_t n = strnlen(buf + off, len - off);
        char *s = n ? printable(xstrndup(buf + off, n)) : NULL;
        if (s)
            json_array_append_new(arr, json_string(s));
        free(s);
        off += n + 1;
    }
    free(buf);
    return arr;
}

/* The size of the DRAM the device tree's memory nodes (memory@...) give,
 * in MB: their reg (address, size) pairs, in the root's #address-cells and
 * #size-cells (2 and 1 when absent, as the specification says). 0 when no
 * node says. *first gets the first node's name (caller frees). */
static long dt_memory_mb(const char *base, char **first)
{
    *first = NULL;
    uint64_t acells = 2, scells = 1;
    prop_cells(base, "#address-cells", &acells, 1);
    prop_cells(base, "#size-cells", &scells, 1);
    if (acells < 1 || acells > 2 || scells < 1 || scells > 2)
        return 0;
    DIR *d = opendir(base);
    uint64_t total = 0;
    for (struct dirent *e; d && (e = readdir(d));) {
        if (strncmp(e->d_name, "memory@", 7) != 0 && strcmp(e->d_name, "memory") != 0)
            continue;
        char *node = path_join(base, e->d_name);
        size_t len;
        unsigned char *reg = (unsigned char *)read_prop(node, "reg", &len);
        size_t pair = 4 * (size_t)(acells + scells);
        for (size_t off = 0; reg && off + pair <= len; off += pair) {
            uint64_t size = 0;
            for (size_t k = 4 * (size_t)acells; k < pair; k++)
                size = size << 8 | reg[off + k];
            total += size;
        }
        if (reg && !*first)
            *first = xasprintf("/%s", e->d_name);
        free(reg);
        free(node);
    }
    if (d)
        closedir(d);
    return (long)(total >> 20);
}

/* --- CPUs ------------------------------------------------------------------ */

static int cmp_int(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

/* The CPU numbers with a directory under sys/devices/system/cpu, sorted. */
static size_t list_cpus(const char *root, int *out, size_t max)
{
    char *dir = path_join(root, "sys/devices/system/cpu");
    DIR *d = opendir(dir);
    free(dir);
    size_t n = 0;
    for (struct dirent *e; d && (e = readdir(d)) && n < max;) {
        char *end;
        if (strncmp(e->d_name, "cpu", 3) != 0 || !isdigit((unsigned char)e->d_name[3]))
            continue;
        long cpu = strtol(e->d_name + 3, &end, 10);
        if (*end == '\0' && cpu >= 0 && cpu < 100000)
            out[n++] = (int)cpu;
    }
    if (d)
        closedir(d);
    if (n)
        qsort(out, n, sizeof *out, cmp_int);
    return n;
}

static json_t *read_cpus(const char *sysroot, const char *root, double measure_s)
{
    int cpus[MAX_CPUS];
    size_t n = list_cpus(root, cpus, MAX_CPUS);
    struct cpuclock_core measured[MAX_CPUS];
    size_t nm = measure_s > 0 ? cpuclock_survey(sysroot, measure_s, measured, MAX_CPUS) : 0;
    if (n == 0)                 /* no sysfs: the cores this process runs on */
        for (size_t i = 0; i < nm; i++)
            cpus[n++] = measured[i].cpu;
    json_t *arr = json_array();
    for (size_t i = 0; i < n; i++) {
        int cpu = cpus[i];
        char rel[96];
        json_t *o = json_object();
        double mhz = 0;
        for (size_t k = 0; k < nm; k++)
            if (measured[k].cpu == cpu)
                mhz = measured[k].measured_mhz;
        snprintf(rel, sizeof rel, "sys/devices/system/cpu/cpu%d/cpufreq/cpuinfo_min_freq", cpu);
        json_object_set_new(o, "cpu", json_integer(cpu));
        json_object_set_new(o, "measured_mhz", jnum(mhz));
        json_object_set_new(o, "cur_mhz", jnum(cpuclock_cpufreq_cur_mhz(sysroot, cpu)));
        json_object_set_new(o, "min_mhz", jnum(read_number(root, rel, 1000)));
        json_object_set_new(o, "max_mhz", jnum(cpuclock_cpufreq_max_mhz(sysroot, cpu)));
        snprintf(rel, sizeof rel, "sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", cpu);
        char *gov = read_value(root, rel);
        json_object_set_new(o, "governor", jstr(gov));
        free(gov);
        json_array_append_new(arr, o);
    }
    return arr;
}

/* --- DDR ------------------------------------------------------------------- */

/* What one source found: a clock and whether it is the DDR PLL of a TI
 * SoC (then pll_to_mts turns it into the data rate). */
struct ddr_clock {
    double mhz;
    bool ti_pll;
    char *detail;               /* "clk:170:1", "/bus@f0000/memorycontroller@f308000 ti,ddr-freq1" */
};

static bool ddr_like_name(const char *name)
{
    static const char *const words[] = { "ddr", "emif", "dmc", "dram", "lpddr" };
    for (size_t i = 0; i < ARRAY_SIZE(words); i++)
        if (strcasestr(name, words[i]))
            return true;
    return false;
}

/* clk_summary: the SoC's TI-SCI DDR clock, else the fastest clock named
 * like the DDR. False with *why when there is none. */
static bool ddr_from_clk_summary(const char *root, const struct ddr_soc *soc,
                                 struct ddr_clock *out, char **why)
{
    char *path = path_join(root, "sys/kernel/debug/clk/clk_summary");
    char *text = read_file(path, TEXT_MAX, NULL);
    if (!text) {
        *why = xasprintf("%s: %s%s", path, why_not(errno),
                         errno == EACCES ? " (debugfs is readable by root only)"
                         : errno == ENOENT ? " (debugfs not mounted, or no clock framework)"
                         : "");
        free(path);
        return false;
    }
    char want[64] = "";
    if (soc && soc->ti_sci_clock)
        snprintf(want, sizeof want, "clk:%s", soc->ti_sci_clock);
    int rate_col = 3;           /* name enable prepare [protect] rate */
    bool rows = false, found = false;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (!rows) {
            if (strstr(line, "protect"))
                rate_col = 4;
            rows = strspn(str_trim(line), "-") > 10;
            continue;
        }
        char *tok[8], *ts = NULL;
        int nt = 0;
        for (char *t = strtok_r(line, " \t", &ts); t && nt < 8; t = strtok_r(NULL, " \t", &ts))
            tok[nt++] = t;
        if (nt <= rate_col)
            continue;
        double hz = strtod(tok[rate_col], NULL);
        bool ti = *want && strcmp(tok[0], want) == 0;
        if (!(hz > 0) || (!ti && !ddr_like_name(tok[0])))
            continue;
        if (ti || (!out->ti_pll && hz / 1e6 > out->mhz)) {
            free(out->detail);
            out->mhz = hz / 1e6;
            out->ti_pll = ti;
            out->detail = xstrdup(tok[0]);
            found = true;
        }
    }
    if (!found && *want)
        *why = xasprintf("%s: no clock named like the DDR, nor %s", path, want);
    else if (!found)
        *why = xasprintf("%s: no clock named like the DDR", path);
    free(text);
    free(path);
    return found;
}

static bool ddr_node_name(const char *name)
{
    static const char *const prefixes[] = {
        "memorycontroller", "memory-controller", "ddr", "emif", "dmc", "dram-controller",
    };
    for (size_t i = 0; i < ARRAY_SIZE(prefixes); i++) {
        size_t n = strlen(prefixes[i]);
        if (strncmp(name, prefixes[i], n) == 0 && (name[n] == '@' || name[n] == '\0' ||
                                                     isdigit((unsigned char)name[n])))
            return true;
    }
    return false;
}

/* One DDR controller node: ti,ddr-freq1 (the K3 DDR PLL, Hz), else
 * clock-frequency or max-frequency. */
static bool ddr_node_clock(const char *node, const char *shown, struct ddr_clock *out)
{
    static const char *const props[] = { "ti,ddr-freq1", "clock-frequency", "max-frequency" };
    for (size_t i = 0; i < ARRAY_SIZE(props); i++) {
        uint64_t hz;
        if (prop_cells(node, props[i], &hz, 1) && hz > 0) {
            out->mhz = (double)hz / 1e6;
            out->ti_pll = i == 0;
            out->detail = xasprintf("%s %s", shown, props[i]);
            return true;
        }
    }
    return false;
}

static bool dt_walk(const char *dir, const char *shown, int depth, struct ddr_clock *out)
{
    DIR *d = opendir(dir);
    if (!d)
        return false;
    bool found = false;
    for (struct dirent *e; !found && (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        char *child = path_join(dir, e->d_name);
        char *cshown = xasprintf("%s/%s", shown, e->d_name);
        struct stat st;
        if (stat(child, &st) == 0 && S_ISDIR(st.st_mode)) {
            if (ddr_node_name(e->d_name))
                found = ddr_node_clock(child, cshown, out);
            if (!found && depth > 1)
                found = dt_walk(child, cshown, depth - 1, out);
        }
        free(child);
        free(cshown);
    }
    closedir(d);
    return found;
}

static bool ddr_from_dt(const char *base, struct ddr_clock *out, char **why)
{
    if (!base) {
        *why = xstrdup("no device tree");
        return false;
    }
    if (dt_walk(base, "", DT_DEPTH + 1, out))
        return true;
    *why = xstrdup("no memory-controller, ddr or emif node with ti,ddr-freq1, "
                   "clock-frequency or max-frequency");
    return false;
}

/* The k3conf to run, NULL (and why) when there is none. */
static char *k3conf_program(const struct sysstate_opts *o, bool real, char **why)
{
    const char *p = o->k3conf ? o->k3conf : getenv("EVMBENCH_K3CONF");
    if (p && *p)
        return xstrdup(p);
    if (!real) {
        *why = xstrdup("not run for a --sysroot tree (it would describe this machine)");
        return NULL;
    }
    const char *path = getenv("PATH");
    char *copy = xstrdup(path && *path ? path : "/usr/bin:/bin:/usr/sbin:/sbin");
    char *found = NULL, *save = NULL;
    for (char *dir = strtok_r(copy, ":", &save); dir && !found; dir = strtok_r(NULL, ":", &save)) {
        char *cand = path_join(*dir ? dir : ".", "k3conf");
        if (access(cand, X_OK) == 0)
            found = cand;
        else
            free(cand);
    }
    free(copy);
    if (!found)
        *why = xstrdup("not installed");
    return found;
}

/* `k3conf dump clock DEV`: the row of the SoC's TI-SCI DDR clock,
 * "| 170 | 1 | DEV_DDR16SS0_DDRSS_DDR_PLL_CLK | CLK_STATE_READY | 400000000 |". */
static bool ddr_from_k3conf(const struct sysstate_opts *o, bool real, struct ddr_clock *out,
                            char **why)
{
    const struct ddr_soc *soc = o->soc;
    unsigned dev, clk;
    if (!soc || !soc->ti_sci_clock || sscanf(soc->ti_sci_clock, "%u:%u", &dev, &clk) != 2) {
        *why = xstrdup("no TI-SCI DDR clock is known for this SoC");
        return false;
    }
    char *prog = k3conf_program(o, real, why);
    if (!prog)
        return false;
    char devs[16];
    snprintf(devs, sizeof devs, "%u", dev);
    char dump[] = "dump", clock[] = "clock";
    char *argv[] = { prog, dump, clock, devs, NULL };
    struct spawn_cmd cmd = { .argv = argv, .timeout_s = K3CONF_S };
    struct spawn_result res;
    spawn_run(&cmd, &res);
    bool found = false;
    if (!res.ran || res.timed_out || res.exec_error) {
        *why = xasprintf("%s did not run: %s", prog, res.exec_error ? res.exec_error
                         : res.timed_out ? "no answer in time" : "it could not be started");
    } else {
        char *save = NULL;
        for (char *line = strtok_r(res.out, "\n", &save); line && !found;
             line = strtok_r(NULL, "\n", &save)) {
            char *f[8], *fs = NULL;
            int nf = 0;
            for (char *t = strtok_r(line, "|", &fs); t && nf < 8; t = strtok_r(NULL, "|", &fs))
                f[nf++] = str_trim(t);
            char *end;
            if (nf < 5 || strtoul(f[0], &end, 10) != dev || *end || strtoul(f[1], &end, 10) != clk || *end)
                continue;
            double hz = strtod(f[nf - 1], &end);
            if (hz > 0 && end != f[nf - 1]) {
                out->mhz = hz / 1e6;
                out->ti_pll = true;
                out->detail = xasprintf("device %u clock %u %s", dev, clk, f[2]);
                found = true;
            }
        }
        if (!found)
            *why = xasprintf("%s dump clock %u: no clock %u in its answer", prog, dev, clk);
    }
    spawn_result_free(&res);
    free(prog);
    return found;
}

/* The "ddr" member: the first source with a clock gives it. */
static json_t *read_ddr(const struct sysstate_opts *o, const char *root, const char *base,
                        bool real)
{
    static const char *const names[] = { "clk_summary", "device tree", "k3conf" };
    json_t *tried = json_array();
    struct ddr_clock c = { 0 };
    const char *source = NULL;
    /* the first source that gives the DDR PLL wins; a clock that only looks
     * like the DDR's is kept in case no source does better */
    for (size_t i = 0; i < ARRAY_SIZE(names) && !(source && c.ti_pll); i++) {
        char *why = NULL;
        struct ddr_clock cand = { 0 };
        bool ok = i == 0 ? ddr_from_clk_summary(root, o->soc, &cand, &why)
                : i == 1 ? ddr_from_dt(base, &cand, &why)
                         : ddr_from_k3conf(o, real, &cand, &why);
        char *said = !ok ? xasprintf("%s: %s", names[i], why)
                   : !cand.ti_pll ? xasprintf("%s: %s is not the SoC's DDR PLL", names[i],
                                              cand.detail)
                   : NULL;
        if (said)
            json_array_append_new(tried, json_string_from_outside(said));
        if (ok && (!source || cand.ti_pll)) {
            free(c.detail);
            c = cand;
            source = names[i];
        } else {
            free(cand.detail);
        }
        free(said);
        free(why);
    }
    json_t *d = json_object();
    double mts = 0;
    char *mts_why = NULL;
    if (!source)
        mts_why = xstrdup("not readable: no source gave a DDR clock");
    else if (!c.ti_pll)
        mts_why = xasprintf("not readable: the %s clock %s is not the SoC's DDR PLL, its "
                            "relation to the data rate is not known", source, c.detail);
    else if (!o->soc || o->soc->pll_to_mts <= 0)
        mts_why = xasprintf("not readable: how the DDR PLL clock gives the data rate is not "
                            "known for %s", o->soc ? o->soc->family : "this SoC");
    else
        mts = c.mhz * o->soc->pll_to_mts;
    json_object_set_new(d, "mts", jnum(mts));
    json_object_set_new(d, "mts_source", mts > 0 ? json_string(source) : json_null());
    json_object_set_new(d, "mts_why", jstr(mts_why));
    json_object_set_new(d, "clock_mhz", jnum(c.mhz));
    json_object_set_new(d, "clock_source", source ? json_string(source) : json_null());
    json_object_set_new(d, "clock_detail", jstr(c.detail));
    json_object_set_new(d, "pll_to_mts", mts > 0 ? json_real(o->soc->pll_to_mts) : json_null());
    json_object_set_new(d, "tried", tried);
    free(mts_why);
    free(c.detail);
    return d;
}

/* --- the rest of the system ------------------------------------------------ */

static long read_mem_mb(const char *root)
{
    char *path = path_join(root, "proc/meminfo");
    char *text = read_file(path, 1u << 16, NULL);
    free(path);
    long mb = 0;
    char *p = text ? strstr(text, "MemTotal:") : NULL;
    if (p) {
        long long kb = strtoll(p + 9, NULL, 10);
        mb = kb > 0 ? (long)(kb / 1024) : 0;
    }
    free(text);
    return mb;
}

/* "U-Boot 2024.04-ti-g1234 (Mar 01 2025 - 10:00:00 +0000)" from one line. */
static char *bootloader_in(const char *line)
{
    const char *p = strstr(line, "U-Boot 20");
    if (!p)
        p = strstr(line, "U-Boot SPL 20");
    if (!p)
        return NULL;
    size_t n = strcspn(p, "\n");
    return printable(xstrndup(p, n > 120 ? 120 : n));
}

/* The kernel log, as /dev/kmsg gives it (one record per read, EAGAIN at
 * the end) or as a plain file in a fixture tree. */
static char *bootloader_from_kmsg(const char *root)
{
    char *path = path_join(root, "dev/kmsg");
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    free(path);
    if (fd < 0)
        return NULL;
    char buf[8192], *found = NULL;
    struct strbuf rest;
    sb_init(&rest);
    for (int i = 0; i < KMSG_RECORDS && !found; i++) {
        ssize_t n = read(fd, buf, sizeof buf - 1);
        if (n < 0 && (errno == EPIPE || errno == EINTR))
            continue;       /* a record overwritten while reading */
        if (n <= 0)
            break;
        buf[n] = '\0';
        sb_add(&rest, buf);
        char *nl;
        while (!found && (nl = strchr(rest.buf, '\n'))) {
            *nl = '\0';
            found = bootloader_in(rest.buf);
            memmove(rest.buf, nl + 1, strlen(nl + 1) + 1);
            rest.len = strlen(rest.buf);
        }
    }
    if (!found && rest.len)
        found = bootloader_in(rest.buf);
    sb_free(&rest);
    close(fd);
    return found;
}

static json_t *read_bootloader(const char *root, const char *base)
{
    json_t *o = json_object();
    char *chosen = base ? path_join(base, "chosen") : NULL;
    char *v = chosen ? prop_string(chosen, "u-boot,version") : NULL;
    const char *source = v ? "/proc/device-tree/chosen/u-boot,version" : NULL;
    if (v && !str_starts_with(v, "U-Boot")) {   /* the property holds the version alone */
        char *named = xasprintf("U-Boot %s", v);
        free(v);
        v = named;
    }
    free(chosen);
    if (!v && (v = bootloader_from_kmsg(root)))
        source = "kernel log";
    json_object_set_new(o, "version", jstr(v));
    json_object_set_new(o, "source", jstr(source));
    json_object_set_new(o, "why", v ? json_null()
                        : json_string("not named by /proc/device-tree/chosen or the kernel log"));
    free(v);
    return o;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* thermal_zone* under sys/class/thermal, sorted; each {"zone", "type", key}. */
static json_t *read_thermal(const char *root, const char *key)
{
    char *dir = path_join(root, "sys/class/thermal");
    DIR *d = opendir(dir);
    char **zones = NULL;
    size_t n = 0, cap = 0;
    for (struct dirent *e; d && (e = readdir(d));) {
        if (!str_starts_with(e->d_name, "thermal_zone"))
            continue;
        xgrow(&zones, &cap, n + 1, sizeof *zones);
        zones[n++] = xstrdup(e->d_name);
    }
    if (d)
        closedir(d);
    if (n)
        qsort(zones, n, sizeof *zones, cmp_str);
    json_t *arr = json_array();
    for (size_t i = 0; i < n; i++) {
        char *zdir = path_join(dir, zones[i]);
        char *type = read_value(zdir, "type");
        char *t = read_value(zdir, "temp");
        char *end = NULL;
        double mc = t ? strtod(t, &end) : 0;
        if (t && end != t && isfinite(mc)) {
            json_t *o = json_object();
            json_object_set_new(o, "zone", json_string(zones[i]));
            json_object_set_new(o, "type", jstr(type));
            json_object_set_new(o, key, json_real(round(mc / 100.0) / 10.0));
            json_array_append_new(arr, o);
        }
        free(type);
        free(t);
        free(zdir);
        free(zones[i]);
    }
    free(zones);
    free(dir);
    return arr;
}

static char *read_cmdline(const char *root)
{
    char *path = path_join(root, "proc/cmdline");
    size_t len;
    char *buf = read_file(path, TEXT_MAX, &len);
    free(path);
    if (!buf)
        return NULL;
    for (size_t i = 0; i < len; i++)
        if (buf[i] == '\0')
            buf[i] = ' ';
    return printable(buf);
}

json_t *sysstate_read(const struct sysstate_opts *o)
{
    bool real = is_real_root(o->sysroot);
    const char *root = real ? "" : o->sysroot;
    char *base = dt_base(root);
    json_t *s = json_object();
    json_object_set_new(s, "format", json_integer(SYSSTATE_FORMAT));

    char *release = read_value(root, "proc/sys/kernel/osrelease");
    struct utsname u;
    if (!release && real && uname(&u) == 0)
        release = printable(xstrdup(u.release));
    char *cmdline = read_cmdline(root);
    json_object_set_new(s, "kernel", jstr(release));
    json_object_set_new(s, "cmdline", jstr(cmdline));
    free(release);
    free(cmdline);

    char *model = base ? prop_string(base, "model") : NULL;
    json_object_set_new(s, "model", jstr(model));
    free(model);
    json_object_set_new(s, "compatible", dt_compatible(base));
    char *family = read_value(root, "sys/devices/soc0/family");
    char *revision = read_value(root, "sys/devices/soc0/revision");
    json_object_set_new(s, "soc_family", jstr(family));
    json_object_set_new(s, "soc_revision", jstr(revision));
    free(family);
    free(revision);
    long mb = read_mem_mb(root);
    json_object_set_new(s, "mem_mb", mb > 0 ? json_integer(mb) : json_null());
    char *mem_node = NULL;
    long dt_mb = base ? dt_memory_mb(base, &mem_node) : 0;
    json_object_set_new(s, "dt_memory_mb", dt_mb > 0 ? json_integer(dt_mb) : json_null());
    json_object_set_new(s, "dt_memory_node", dt_mb > 0 ? jstr(mem_node) : json_null());
    free(mem_node);
    json_object_set_new(s, "bootloader", read_bootloader(root, base));
    json_object_set_new(s, "cpus", read_cpus(o->sysroot, root, o->measure_s));
    json_object_set_new(s, "ddr", read_ddr(o, root, base, real));
    json_object_set_new(s, "thermal", read_thermal(root, "start_c"));
    free(base);
    return s;
}

/* The DDR facts, read once for the process. */
static struct ddrspec spec;
static bool spec_loaded;

const struct ddr_soc *sysstate_soc(const char *family, struct diag *d)
{
    if (!spec_loaded) {
        spec_loaded = true;
        struct diag quiet;
        diag_init(&quiet);
        ddrspec_load(&spec, d ? d : &quiet);
        diag_free(&quiet);
    }
    return ddrspec_find(&spec, family);
}

json_t *sysstate_read_board(const char *sysroot, const char *family, double measure_s,
                            double *peak_mbs, struct diag *d)
{
    struct sysstate_opts o = {
        .sysroot = sysroot, .measure_s = measure_s, .soc = sysstate_soc(family, d),
    };
    json_t *sys = sysstate_read(&o);
    if (peak_mbs)
        *peak_mbs = ddrspec_peak_mbs(o.soc, sysstate_ddr_mts(sys));
    return sys;
}

json_t *sysstate_end(const char *sysroot)
{
    const char *root = is_real_root(sysroot) ? "" : sysroot;
    json_t *o = json_object();
    json_object_set_new(o, "thermal", read_thermal(root, "end_c"));
    return o;
}

void sysstate_merge_end(json_t *sys, json_t *end)
{
    json_t *zones = json_object_get(sys, "thermal");
    size_t i, k;
    json_t *e, *z;
    json_array_foreach(json_object_get(end, "thermal"), i, e) {
        const char *name = json_string_value(json_object_get(e, "zone"));
        json_t *c = json_object_get(e, "end_c");
        json_array_foreach(zones, k, z) {
            const char *zn = json_string_value(json_object_get(z, "zone"));
            if (name && zn && strcmp(name, zn) == 0 && json_is_number(c))
                json_object_set(z, "end_c", c);
        }
    }
}

json_t *sysstate_from_store(json_t *sys)
{
    json_t *end = json_object_get(sys, "end");
    if (end) {
        sysstate_merge_end(sys, end);
        json_object_del(sys, "end");
    }
    return sys;
}

/* --- reading a record ------------------------------------------------------ */

static double num(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return json_is_number(v) ? json_number_value(v) : 0;
}

static const char *str(json_t *o, const char *key)
{
    return json_string_value(json_object_get(o, key));
}

double sysstate_ddr_mts(json_t *sys)
{
    return num(json_object_get(sys, "ddr"), "mts");
}

/* The fastest core: measured (true) or, without a measurement, cpufreq's max. */
static double top_clock(json_t *sys, bool *measured)
{
    double m = 0, f = 0;
    size_t i;
    json_t *c;
    json_array_foreach(json_object_get(sys, "cpus"), i, c) {
        m = fmax(m, num(c, "measured_mhz"));
        f = fmax(f, num(c, "max_mhz"));
    }
    *measured = m > 0;
    return m > 0 ? m : f;
}

static bool same_str(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* The governors, "performance" or "ondemand/performance" when they differ. */
static char *governors(json_t *sys)
{
    struct strbuf sb;
    sb_init(&sb);
    size_t i;
    json_t *c;
    json_array_foreach(json_object_get(sys, "cpus"), i, c) {
        const char *g = str(c, "governor");
        bool seen = false;
        for (size_t k = 0; g && k < i && !seen; k++)
            seen = same_str(g, str(json_array_get(json_object_get(sys, "cpus"), k), "governor"));
        if (!g || seen)
            continue;
        sb_addf(&sb, "%s%s", sb.len ? "/" : "", g);
    }
    return sb.len ? sb_steal(&sb) : (sb_free(&sb), NULL);
}

static bool differ_pct(double a, double b, double pct)
{
    return fabs(a - b) > fabs(a) * pct / 100.0;
}


/* --- what differs ---------------------------------------------------------- */

static void item(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void item(struct strbuf *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = xvasprintf(fmt, ap);
    va_end(ap);
    sb_addf(sb, "%s%s", sb->len ? ", " : "", s);
    free(s);
}

static void diff_ddr(struct strbuf *sb, json_t *a, json_t *b)
{
    json_t *da = json_object_get(a, "ddr"), *db = json_object_get(b, "ddr");
    double ma = num(da, "mts"), mb = num(db, "mts");
    double ca = num(da, "clock_mhz"), cb = num(db, "clock_mhz");
    const char *src = str(db, "mts_source");
    if (ma > 0 && mb > 0 && differ_pct(ma, mb, 0.5))
        item(sb, "DDR %.0f -> %.0f MT/s (%s)", ma, mb, src ? src : "?");
    else if (ma > 0 && mb > 0)
        item(sb, "DDR %.0f MT/s unchanged", mb);
    else if (ma > 0)
        item(sb, "DDR %.0f MT/s -> not readable", ma);
    else if (mb > 0)
        item(sb, "DDR not readable -> %.0f MT/s (%s)", mb, src ? src : "?");
    else if (ca > 0 && cb > 0 && differ_pct(ca, cb, 0.5))
        item(sb, "DDR clock %.0f -> %.0f MHz (%s)", ca, cb, str(db, "clock_source"));
    else if (ca > 0 && cb > 0)
        item(sb, "DDR clock %.0f MHz unchanged (data rate not readable)", cb);
    else
        item(sb, "DDR rate not readable");
}

static void diff_cpu(struct strbuf *sb, json_t *a, json_t *b)
{
    bool meas_a, meas_b;
    double ca = top_clock(a, &meas_a), cb = top_clock(b, &meas_b);
    const char *how = meas_a && meas_b ? "measured" : "cpufreq max";
    if (meas_a != meas_b) {
        /* compare like with like: cpufreq's max on both sides */
        bool unused;
        json_t *ta = json_deep_copy(a), *tb = json_deep_copy(b);
        size_t i;
        json_t *c;
        json_array_foreach(json_object_get(ta, "cpus"), i, c)
            json_object_set_new(c, "measured_mhz", json_null());
        json_array_foreach(json_object_get(tb, "cpus"), i, c)
            json_object_set_new(c, "measured_mhz", json_null());
        ca = top_clock(ta, &unused);
        cb = top_clock(tb, &unused);
        json_decref(ta);
        json_decref(tb);
    }
    if (ca > 0 && cb > 0 && differ_pct(ca, cb, CPUCLOCK_MISMATCH_PCT))
        item(sb, "CPU %.0f -> %.0f MHz %s", ca, cb, how);
    else if (ca > 0 && cb > 0)
        item(sb, "CPU %.0f MHz unchanged (%s, within %.0f%%)", cb, how, CPUCLOCK_MISMATCH_PCT);
    char *ga = governors(a), *gb = governors(b);
    if (!same_str(ga, gb))
        item(sb, "governor %s -> %s", ga ? ga : "none", gb ? gb : "none");
    free(ga);
    free(gb);
}

static void diff_strings(struct strbuf *sb, json_t *a, json_t *b)
{
    const char *ka = str(a, "kernel"), *kb = str(b, "kernel");
    if (same_str(ka, kb))
        item(sb, "kernel unchanged");
    else
        item(sb, "kernel %s -> %s", ka ? ka : "unknown", kb ? kb : "unknown");
    if (!same_str(str(a, "cmdline"), str(b, "cmdline")))
        item(sb, "kernel command line changed");
    static const struct { const char *key, *label; } fields[] = {
        { "model", "model" }, { "soc_family", "SoC" }, { "soc_revision", "SoC revision" },
    };
    for (size_t i = 0; i < ARRAY_SIZE(fields); i++) {
        const char *va = str(a, fields[i].key), *vb = str(b, fields[i].key);
        if (!same_str(va, vb))
            item(sb, "%s %s -> %s", fields[i].label, va ? va : "unknown", vb ? vb : "unknown");
    }
    if (!json_equal(json_object_get(a, "compatible"), json_object_get(b, "compatible")))
        item(sb, "device-tree compatible changed");
    const char *ba = str(json_object_get(a, "bootloader"), "version");
    const char *bb = str(json_object_get(b, "bootloader"), "version");
    if (!same_str(ba, bb))
        item(sb, "boot loader %s -> %s", ba ? ba : "unknown", bb ? bb : "unknown");
    double ma = num(a, "mem_mb"), mb = num(b, "mem_mb");
    if (ma > 0 && mb > 0 && ma != mb)
        item(sb, "memory %.0f -> %.0f MB", ma, mb);
    double da = num(a, "dt_memory_mb"), db = num(b, "dt_memory_mb");
    if (da > 0 && db > 0 && da != db)
        item(sb, "device-tree memory %.0f -> %.0f MB", da, db);
}

/* Start temperatures that moved by SYSSTATE_TEMP_CHANGE_C or more. */
static void diff_thermal(struct strbuf *sb, json_t *a, json_t *b)
{
    size_t i, k;
    json_t *za, *zb;
    json_array_foreach(json_object_get(a, "thermal"), i, za)
        json_array_foreach(json_object_get(b, "thermal"), k, zb) {
            const char *n = str(za, "zone");
            if (!n || !same_str(n, str(zb, "zone")))
                continue;
            double ta = num(za, "start_c"), tb = num(zb, "start_c");
            if (fabs(ta - tb) >= SYSSTATE_TEMP_CHANGE_C)
                item(sb, "%s %.0f -> %.0f C at start", str(zb, "type") ? str(zb, "type") : n,
                     ta, tb);
        }
}

char *sysstate_diff(json_t *a, json_t *b)
{
    bool ha = json_is_object(a), hb = json_is_object(b);
    if (!ha || !hb)
        return xasprintf("not recorded in %s (a run from before evmbench recorded the system)",
                         !ha && !hb ? "A or B" : !ha ? "A" : "B");
    struct strbuf sb;
    sb_init(&sb);
    diff_ddr(&sb, a, b);
    diff_cpu(&sb, a, b);
    diff_strings(&sb, a, b);
    diff_thermal(&sb, a, b);
    return sb_steal(&sb);
}

/* --- text ------------------------------------------------------------------ */

char *sysstate_summary(json_t *sys)
{
    if (!json_is_object(sys))
        return xstrdup("not recorded (a run from before evmbench recorded the system)");
    struct strbuf sb;
    sb_init(&sb);
    json_t *d = json_object_get(sys, "ddr");
    if (num(d, "mts") > 0)
        item(&sb, "DDR %.0f MT/s (%s)", num(d, "mts"), str(d, "mts_source"));
    else if (num(d, "clock_mhz") > 0)
        item(&sb, "DDR clock %.0f MHz (%s), rate not readable", num(d, "clock_mhz"),
             str(d, "clock_source"));
    else
        item(&sb, "DDR rate not readable");
    bool measured;
    double mhz = top_clock(sys, &measured);
    if (mhz > 0)
        item(&sb, "CPU %.0f MHz %s", mhz, measured ? "measured" : "cpufreq max");
    if (str(sys, "kernel"))
        item(&sb, "kernel %s", str(sys, "kernel"));
    const char *bl = str(json_object_get(sys, "bootloader"), "version");
    if (bl)
        item(&sb, "%s", bl);
    return sb_steal(&sb);
}

static void print_ddr(json_t *sys, FILE *out)
{
    json_t *d = json_object_get(sys, "ddr");
    char *line;
    if (num(d, "mts") > 0)
        line = xasprintf("%.0f MT/s (%s: %s at %.1f MHz x %g)", num(d, "mts"),
                         str(d, "mts_source"), str(d, "clock_detail"), num(d, "clock_mhz"),
                         num(d, "pll_to_mts"));
    else
        line = xstrdup(str(d, "mts_why") ? str(d, "mts_why") : "not recorded");
    board_print_field(out, "DDR rate", line);
    free(line);
    if (num(d, "clock_mhz") > 0)
        line = xasprintf("%.1f MHz (%s: %s)", num(d, "clock_mhz"), str(d, "clock_source"),
                         str(d, "clock_detail"));
    else
        line = xstrdup("not readable");
    board_print_field(out, "DDR clock", line);
    free(line);
    struct strbuf sb;
    sb_init(&sb);
    size_t i;
    json_t *t;
    json_array_foreach(json_object_get(d, "tried"), i, t)
        sb_addf(&sb, "%s%s", sb.len ? "; " : "", json_string_value(t));
    if (sb.len)
        board_print_field(out, "DDR not from", sb.buf);
    sb_free(&sb);
}

static void print_cpus(json_t *sys, FILE *out)
{
    size_t i;
    json_t *c;
    json_array_foreach(json_object_get(sys, "cpus"), i, c) {
        struct strbuf sb;
        sb_init(&sb);
        if (num(c, "measured_mhz") > 0)
            sb_addf(&sb, "%.0f MHz measured, ", num(c, "measured_mhz"));
        else
            sb_add(&sb, "not measured, ");
        if (num(c, "cur_mhz") > 0)
            sb_addf(&sb, "cpufreq %.0f MHz (%.0f-%.0f)", num(c, "cur_mhz"), num(c, "min_mhz"),
                    num(c, "max_mhz"));
        else
            sb_add(&sb, "no cpufreq");
        if (str(c, "governor"))
            sb_addf(&sb, " %s", str(c, "governor"));
        char label[16];
        snprintf(label, sizeof label, "CPU%d", (int)num(c, "cpu"));
        board_print_field(out, label, sb.buf);
        sb_free(&sb);
    }
}

void sysstate_print_text(json_t *sys, FILE *out)
{
    print_ddr(sys, out);
    print_cpus(sys, out);
    if (num(sys, "dt_memory_mb") > 0) {
        char *mem = xasprintf("%.0f MB (device tree %s)", num(sys, "dt_memory_mb"),
                              str(sys, "dt_memory_node"));
        board_print_field(out, "DRAM", mem);
        free(mem);
    }
    board_print_field(out, "Command line", str(sys, "cmdline"));
    json_t *bl = json_object_get(sys, "bootloader");
    char *line = str(bl, "version") ? xasprintf("%s (%s)", str(bl, "version"), str(bl, "source"))
                                    : xstrdup(str(bl, "why") ? str(bl, "why") : "unknown");
    board_print_field(out, "Boot loader", line);
    free(line);
    struct strbuf sb;
    sb_init(&sb);
    size_t i;
    json_t *z;
    json_array_foreach(json_object_get(sys, "thermal"), i, z) {
        sb_addf(&sb, "%s%s %.1f C", sb.len ? ", " : "",
                str(z, "type") ? str(z, "type") : str(z, "zone"), num(z, "start_c"));
        if (json_is_number(json_object_get(z, "end_c")))
            sb_addf(&sb, " -> %.1f C", num(z, "end_c"));
    }
    board_print_field(out, "Temperatures", sb.len ? sb.buf : "no thermal zones");
    sb_free(&sb);
}
