/* sysstate.c - the state of the system a run ran on (sysstate.h): reading
 * the record from the device tree, the CPUs, memory, the kernel, the boot
 * loader and the thermal zones, with the "ddr" member of sysstate_ddr.c;
 * the SoC's DDR facts; what the end of a run adds. Telling records apart
 * and printing them: sysstate_text.c. */
#include "config.h"
#include "board/sysstate.h"
#include "board/sysstate_impl.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "kernel/cpuclock.h"
#include "common/util.h"

#define PROP_MAX     4096           /* a device-tree property or sysfs value */
#define MAX_CPUS     256
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

json_t *sysstate_jstr(const char *s)
{
    return s ? json_string_from_outside(s) : json_null();
}

json_t *sysstate_jnum(double v)
{
    return v > 0 && isfinite(v) ? json_real(round(v * 10) / 10) : json_null();
}

static bool is_real_root(const char *sysroot)
{
    return !sysroot || sysroot[strspn(sysroot, "/")] == '\0';
}

const char *sysstate_why_not(int err)
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

bool sysstate_prop_cells(const char *node, const char *name, uint64_t *out, size_t ncells)
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
    sysstate_prop_cells(base, "#address-cells", &acells, 1);
    sysstate_prop_cells(base, "#size-cells", &scells, 1);
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

/* The cores, each with its measured clock when measure_s > 0 (the real
 * root only: a --sysroot tree's cores are not the ones this process runs
 * on) and what cpufreq says. */
static json_t *read_cpus(const char *sysroot, const char *root, double measure_s)
{
    int cpus[MAX_CPUS];
    size_t n = list_cpus(root, cpus, MAX_CPUS);
    struct cpuclock_core measured[MAX_CPUS];
    size_t nm = measure_s > 0 && is_real_root(sysroot)
              ? cpuclock_survey(sysroot, measure_s, measured, MAX_CPUS) : 0;
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
        json_object_set_new(o, "measured_mhz", sysstate_jnum(mhz));
        json_object_set_new(o, "cur_mhz", sysstate_jnum(cpuclock_cpufreq_cur_mhz(sysroot, cpu)));
        json_object_set_new(o, "min_mhz", sysstate_jnum(read_number(root, rel, 1000)));
        json_object_set_new(o, "max_mhz", sysstate_jnum(cpuclock_cpufreq_max_mhz(sysroot, cpu)));
        snprintf(rel, sizeof rel, "sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", cpu);
        char *gov = read_value(root, rel);
        json_object_set_new(o, "governor", sysstate_jstr(gov));
        free(gov);
        json_array_append_new(arr, o);
    }
    return arr;
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
    json_object_set_new(o, "version", sysstate_jstr(v));
    json_object_set_new(o, "source", sysstate_jstr(source));
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
            json_object_set_new(o, "type", sysstate_jstr(type));
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
    json_object_set_new(s, "kernel", sysstate_jstr(release));
    json_object_set_new(s, "cmdline", sysstate_jstr(cmdline));
    free(release);
    free(cmdline);

    char *model = base ? prop_string(base, "model") : NULL;
    json_object_set_new(s, "model", sysstate_jstr(model));
    free(model);
    json_object_set_new(s, "compatible", dt_compatible(base));
    char *family = read_value(root, "sys/devices/soc0/family");
    char *revision = read_value(root, "sys/devices/soc0/revision");
    json_object_set_new(s, "soc_family", sysstate_jstr(family));
    json_object_set_new(s, "soc_revision", sysstate_jstr(revision));
    free(family);
    free(revision);
    long mb = read_mem_mb(root);
    json_object_set_new(s, "mem_mb", mb > 0 ? json_integer(mb) : json_null());
    char *mem_node = NULL;
    long dt_mb = base ? dt_memory_mb(base, &mem_node) : 0;
    json_object_set_new(s, "dt_memory_mb", dt_mb > 0 ? json_integer(dt_mb) : json_null());
    json_object_set_new(s, "dt_memory_node", dt_mb > 0 ? sysstate_jstr(mem_node) : json_null());
    free(mem_node);
    json_object_set_new(s, "bootloader", read_bootloader(root, base));
    json_object_set_new(s, "cpus", read_cpus(o->sysroot, root, o->measure_s));
    json_object_set_new(s, "measured_why", o->measure_s > 0 && !real
                        ? json_string(SYSSTATE_TREE_NOT_MEASURED) : json_null());
    json_object_set_new(s, "ddr", sysstate_read_ddr(o, root, base, real));
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
