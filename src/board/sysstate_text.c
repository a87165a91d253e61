/* sysstate_text.c - the system record read back (sysstate.h): its DDR
 * rate, what differs between the records of two runs, the record in one
 * line and as "Label:  value" lines. It reads only the JSON record. */
#include "config.h"
#include "board/sysstate.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "board/board.h"
#include "kernel/cpuclock.h"
#include "common/util.h"

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

double sysstate_measured_mhz(json_t *sys)
{
    double m = 0;
    size_t i;
    json_t *c;
    json_array_foreach(json_object_get(sys, "cpus"), i, c)
        m = fmax(m, num(c, "measured_mhz"));
    return m;
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

/* The fastest core's clock of a and b, like for like: measured on both
 * sides, else cpufreq's maximum on both; *measured says which. */
static void clocks(json_t *a, json_t *b, double *ca, double *cb, bool *measured)
{
    bool meas_a, meas_b;
    *ca = top_clock(a, &meas_a);
    *cb = top_clock(b, &meas_b);
    *measured = meas_a && meas_b;
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
        *ca = top_clock(ta, &unused);
        *cb = top_clock(tb, &unused);
        json_decref(ta);
        json_decref(tb);
    }
}

static void diff_cpu(struct strbuf *sb, json_t *a, json_t *b)
{
    double ca, cb;
    bool measured;
    clocks(a, b, &ca, &cb, &measured);
    const char *how = measured ? "measured" : "cpufreq max";
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

void sysstate_changes(json_t *a, json_t *b, struct sysstate_change *c)
{
    memset(c, 0, sizeof *c);
    if (!json_is_object(a) || !json_is_object(b))
        return;
    double ma = sysstate_ddr_mts(a), mb = sysstate_ddr_mts(b);
    if (ma > 0 && mb > 0 && differ_pct(ma, mb, 0.5)) {
        c->ddr_from = ma;
        c->ddr_to = mb;
    }
    double ca, cb;
    clocks(a, b, &ca, &cb, &c->cpu_measured);
    if (ca > 0 && cb > 0 && differ_pct(ca, cb, CPUCLOCK_MISMATCH_PCT)) {
        c->cpu_from = ca;
        c->cpu_to = cb;
    }
    char *ga = governors(a), *gb = governors(b);
    if (!same_str(ga, gb))
        c->governor = xasprintf("%s -> %s", ga ? ga : "none", gb ? gb : "none");
    free(ga);
    free(gb);
    c->kernel = !same_str(str(a, "kernel"), str(b, "kernel"));
    c->cmdline = !same_str(str(a, "cmdline"), str(b, "cmdline"));
    c->device_tree = !json_equal(json_object_get(a, "compatible"),
                                 json_object_get(b, "compatible")) ||
                     !same_str(str(a, "model"), str(b, "model"));
    c->boot_loader = !same_str(str(json_object_get(a, "bootloader"), "version"),
                               str(json_object_get(b, "bootloader"), "version"));
}

void sysstate_change_free(struct sysstate_change *c)
{
    free(c->governor);
    c->governor = NULL;
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

/* One core: "1398 MHz measured; cpufreq current 1400 MHz, range 200-1400
 * MHz, governor performance", each clock named by its source. */
static void print_cpu(json_t *c, FILE *out)
{
    struct strbuf sb;
    sb_init(&sb);
    if (num(c, "measured_mhz") > 0)
        sb_addf(&sb, "%.0f MHz measured; ", num(c, "measured_mhz"));
    else
        sb_add(&sb, "not measured; ");
    double cur = num(c, "cur_mhz"), lo = num(c, "min_mhz"), hi = num(c, "max_mhz");
    if (cur > 0)
        sb_addf(&sb, "cpufreq current %.0f MHz", cur);
    else if (hi > 0)
        sb_add(&sb, "no current clock in cpufreq");
    else
        sb_add(&sb, "no cpufreq");
    if (lo > 0 && hi > 0)
        sb_addf(&sb, ", range %.0f-%.0f MHz", lo, hi);
    else if (hi > 0)
        sb_addf(&sb, ", maximum %.0f MHz", hi);
    if (str(c, "governor"))
        sb_addf(&sb, ", governor %s", str(c, "governor"));
    char label[16];
    snprintf(label, sizeof label, "CPU%d", (int)num(c, "cpu"));
    board_print_field(out, label, sb.buf);
    sb_free(&sb);
}

static void print_cpus(json_t *sys, FILE *out)
{
    size_t i;
    json_t *c;
    json_array_foreach(json_object_get(sys, "cpus"), i, c)
        print_cpu(c, out);
    if (str(sys, "measured_why"))
        board_print_field(out, "Not measured", str(sys, "measured_why"));
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
