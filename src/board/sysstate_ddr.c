/* sysstate_ddr.c - the "ddr" member of the system record (sysstate.h):
 * the DDR controller's clock from the first source that gives it
 * (clk_summary, the device tree, k3conf), why each other source did not,
 * and the data rate when the SoC's DDR facts say how the clock gives it. */
#include "config.h"
#include "board/sysstate.h"
#include "board/sysstate_impl.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <ctype.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/util.h"
#include "run/spawn.h"

#define DT_DEPTH     2              /* controller nodes under a bus node */
#define K3CONF_S     10.0           /* k3conf's time limit */

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
        *why = xasprintf("%s: %s%s", path, sysstate_why_not(errno),
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
        if (sysstate_prop_cells(node, props[i], &hz, 1) && hz > 0) {
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

json_t *sysstate_read_ddr(const struct sysstate_opts *o, const char *root, const char *base,
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
    json_object_set_new(d, "mts", sysstate_jnum(mts));
    json_object_set_new(d, "mts_source", mts > 0 ? json_string(source) : json_null());
    json_object_set_new(d, "mts_why", sysstate_jstr(mts_why));
    json_object_set_new(d, "clock_mhz", sysstate_jnum(c.mhz));
    json_object_set_new(d, "clock_source", source ? json_string(source) : json_null());
    json_object_set_new(d, "clock_detail", sysstate_jstr(c.detail));
    json_object_set_new(d, "pll_to_mts", mts > 0 ? json_real(o->soc->pll_to_mts) : json_null());
    json_object_set_new(d, "tried", tried);
    free(mts_why);
    free(c.detail);
    return d;
}
