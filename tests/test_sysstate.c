/* test_sysstate.c - the system record (board/sysstate.h) over the fixture
 * trees in tests/data/sysroots-sys, the DDR data file (board/ddrspec.h),
 * what differs between two records, and the record in the results store. */
#include "config.h"

#include <errno.h>
#include <ftw.h>
#include <grp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "board/ddrspec.h"
#include "board/sysstate.h"
#include "common/util.h"
#include "run/result.h"
#include "store/store.h"
#include "suites.h"
#include "test_helpers.h"

static struct ddrspec spec;

static void load_spec(void)
{
    struct diag d;
    diag_init(&d);
    ck_assert_int_ge(ddrspec_load(&spec, &d), 4);
    ck_assert_uint_eq(d.n, 0);
    diag_free(&d);
}

/* The record of fixture `name` for SoC family `family`, cores not measured. */
static json_t *read_fixture(const char *name, const char *family, const char *k3conf)
{
    char *rel = path_join("sysroots-sys", name);
    char *root = test_data_path(rel);
    struct sysstate_opts o = { .sysroot = root, .soc = ddrspec_find(&spec, family),
                               .k3conf = k3conf };
    json_t *sys = sysstate_read(&o);
    free(root);
    free(rel);
    return sys;
}

static double num(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    ck_assert_msg(json_is_number(v), "%s is not a number", key);
    return json_number_value(v);
}

static const char *str(json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    ck_assert_msg(s != NULL, "%s is not a string", key);
    return s;
}

/* The "tried" reasons of the DDR record, joined. */
static char *tried(json_t *sys)
{
    struct strbuf sb;
    sb_init(&sb);
    size_t i;
    json_t *t;
    json_array_foreach(json_object_get(json_object_get(sys, "ddr"), "tried"), i, t)
        sb_addf(&sb, "%s|", json_string_value(t));
    return sb_steal(&sb);
}

START_TEST(test_am62x_clk_summary_ddr)
{
    load_spec();
    json_t *sys = read_fixture("am62x-ddr1600", "AM62X", NULL);
    json_t *ddr = json_object_get(sys, "ddr");
    ck_assert_double_eq_tol(num(ddr, "mts"), 1600, 0.01);
    ck_assert_str_eq(str(ddr, "mts_source"), "clk_summary");
    ck_assert_double_eq_tol(num(ddr, "clock_mhz"), 400, 0.01);
    ck_assert_str_eq(str(ddr, "clock_detail"), "clk:170:1");
    ck_assert_double_eq_tol(sysstate_ddr_mts(sys), 1600, 0.01);
    /* the rest of the system */
    ck_assert_str_eq(str(sys, "kernel"), "6.6.32-ti-01451-g9d6c5cd3a7ab");
    ck_assert_ptr_nonnull(strstr(str(sys, "cmdline"), "root=PARTUUID=076c4a2a-02"));
    ck_assert_str_eq(str(sys, "model"), "Texas Instruments AM625 SK");
    ck_assert_uint_eq(json_array_size(json_object_get(sys, "compatible")), 2);
    ck_assert_str_eq(str(sys, "soc_family"), "AM62X");
    ck_assert_str_eq(str(sys, "soc_revision"), "SR1.0");
    ck_assert_int_eq((int)num(sys, "mem_mb"), 1874);
    json_t *bl = json_object_get(sys, "bootloader");
    ck_assert_str_eq(str(bl, "version"), "U-Boot 2024.04-ti-g29d0c23b9a12");
    ck_assert_str_eq(str(bl, "source"), "/proc/device-tree/chosen/u-boot,version");
    json_t *cpus = json_object_get(sys, "cpus");
    ck_assert_uint_eq(json_array_size(cpus), 4);
    for (size_t i = 0; i < 4; i++) {
        json_t *c = json_array_get(cpus, i);
        ck_assert_int_eq((int)num(c, "cpu"), (int)i);
        ck_assert_double_eq_tol(num(c, "max_mhz"), 1400, 0.01);
        ck_assert_double_eq_tol(num(c, "min_mhz"), 200, 0.01);
        ck_assert_str_eq(str(c, "governor"), "performance");
        ck_assert(json_is_null(json_object_get(c, "measured_mhz")));   /* not asked */
    }
    json_t *th = json_object_get(sys, "thermal");
    ck_assert_uint_eq(json_array_size(th), 2);
    ck_assert_str_eq(str(json_array_get(th, 0), "type"), "main0_thermal");
    ck_assert_double_eq_tol(num(json_array_get(th, 0), "start_c"), 45.3, 0.01);
    /* 1600 MT/s on the 16-bit bus of the AM62x */
    ck_assert_double_eq_tol(ddrspec_peak_mbs(ddrspec_find(&spec, "am62x"), 1600), 3200, 0.01);
    json_decref(sys);
    ddrspec_free(&spec);
}
END_TEST

START_TEST(test_clk_summary_without_ddr_clock)
{
    load_spec();
    json_t *sys = read_fixture("am62x-no-ddr-clock", "AM62X", NULL);
    json_t *ddr = json_object_get(sys, "ddr");
    ck_assert(json_is_null(json_object_get(ddr, "mts")));
    ck_assert(json_is_null(json_object_get(ddr, "clock_mhz")));
    ck_assert_ptr_nonnull(strstr(str(ddr, "mts_why"), "not readable"));
    char *why = tried(sys);
    ck_assert_msg(strstr(why, "clk_summary: ") && strstr(why, "no clock named like the DDR, "
                                                           "nor clk:170:1"), "%s", why);
    ck_assert_msg(strstr(why, "device tree: no memory-controller"), "%s", why);
    ck_assert_msg(strstr(why, "k3conf: not run for a --sysroot tree"), "%s", why);
    free(why);
    ck_assert_double_eq(sysstate_ddr_mts(sys), 0);
    /* no rate, no peak: nothing rather than a guess */
    ck_assert_double_eq(ddrspec_peak_mbs(ddrspec_find(&spec, "AM62X"), sysstate_ddr_mts(sys)), 0);
    json_decref(sys);
    ddrspec_free(&spec);
}
END_TEST

START_TEST(test_k3conf_gives_the_ddr_clock)
{
    load_spec();
    char *fake = test_data_path("sysroots-sys/k3conf-fake");
    char *log = xasprintf("%s/k3conf-args-%d", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
                          (int)getpid());
    setenv("K3CONF_FAKE_LOG", log, 1);
    json_t *sys = read_fixture("am62x-no-ddr-clock", "AM62X", fake);
    unsetenv("K3CONF_FAKE_LOG");
    json_t *ddr = json_object_get(sys, "ddr");
    ck_assert_double_eq_tol(num(ddr, "mts"), 1600, 0.01);
    ck_assert_str_eq(str(ddr, "mts_source"), "k3conf");
    ck_assert_ptr_nonnull(strstr(str(ddr, "clock_detail"), "DEV_DDR16SS0_DDRSS_DDR_PLL_CLK"));
    /* read-only: it was asked to dump the DDR device's clocks, nothing else */
    char *args = read_line_file(log);
    ck_assert_ptr_nonnull(args);
    ck_assert_str_eq(args, "dump clock 170");
    free(args);
    unlink(log);
    free(log);
    json_decref(sys);
    /* without a TI-SCI clock for the SoC, k3conf is not asked */
    sys = read_fixture("am62x-no-ddr-clock", "J721E", fake);
    ck_assert(json_is_null(json_object_get(json_object_get(sys, "ddr"), "mts")));
    char *why = tried(sys);
    ck_assert_msg(strstr(why, "k3conf: no TI-SCI DDR clock is known"), "%s", why);
    free(why);
    json_decref(sys);
    free(fake);
    ddrspec_free(&spec);
}
END_TEST

START_TEST(test_j721e_device_tree_clock)
{
    load_spec();
    json_t *sys = read_fixture("j721e-dt-ddr", "J721E", NULL);
    json_t *ddr = json_object_get(sys, "ddr");
    ck_assert_double_eq_tol(num(ddr, "clock_mhz"), 1066.5, 0.01);
    ck_assert_str_eq(str(ddr, "clock_source"), "device tree");
    ck_assert_str_eq(str(ddr, "clock_detail"),
                     "/bus@100000/memorycontroller@2990000 ti,ddr-freq1");
    /* the J721E's PLL-to-rate ratio is not in the data file: no rate */
    ck_assert(json_is_null(json_object_get(ddr, "mts")));
    ck_assert_ptr_nonnull(strstr(str(ddr, "mts_why"), "not known for J721E"));
    json_t *bl = json_object_get(sys, "bootloader");
    ck_assert_str_eq(str(bl, "source"), "kernel log");
    ck_assert_ptr_nonnull(strstr(str(bl, "version"), "U-Boot 2024.04-ti-g29d0c23b"));
    ck_assert_str_eq(str(sys, "soc_family"), "J721E");
    ck_assert_uint_eq(json_array_size(json_object_get(sys, "cpus")), 2);
    /* two 2 GB ranges in the default 2 + 1 cells: the EVM's 4 GB, beside MemTotal */
    ck_assert_int_eq((int)num(sys, "dt_memory_mb"), 4096);
    ck_assert_str_eq(str(sys, "dt_memory_node"), "/memory@80000000");
    ck_assert_int_eq((int)num(sys, "mem_mb"), 3647);
    json_decref(sys);
    ddrspec_free(&spec);
}
END_TEST

/* --- debugfs that this user may not read ------------------------------- */

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    ck_assert_int_eq(fclose(f), 0);
}

/* A tree whose clk_summary holds a DDR clock in a debugfs of mode 0700
 * (as the kernel mounts it): root reads it, nobody else. */
static char *unreadable_debugfs_tree(void)
{
    char *root = test_tmpdir("sysstate");
    ck_assert_int_eq(chmod(root, 0755), 0);
    char *dir = path_join(root, "sys");
    ck_assert_int_eq(mkdir(dir, 0755), 0);
    free(dir);
    dir = path_join(root, "sys/kernel");
    ck_assert_int_eq(mkdir(dir, 0755), 0);
    free(dir);
    dir = path_join(root, "sys/kernel/debug");
    ck_assert_int_eq(mkdir(dir, 0755), 0);
    char *clk = path_join(dir, "clk");
    ck_assert_int_eq(mkdir(clk, 0755), 0);
    char *summary = path_join(clk, "clk_summary");
    write_file(summary, "   clock  enable_cnt  prepare_cnt  protect_cnt  rate  accuracy  phase\n"
                        "--------------------------------------------------------------------\n"
                        " clk:170:1  1  1  0  400000000  0  0\n");
    free(summary);
    free(clk);
    /* root reads through 0700 as its owner; for anyone else it is closed */
    ck_assert_int_eq(chmod(dir, geteuid() == 0 ? 0700 : 0000), 0);
    free(dir);
    return root;
}

static void write_bytes(const char *root, const char *rel, const void *data, size_t len)
{
    char *path = path_join(root, rel);
    for (char *p = strchr(path + strlen(root) + 1, '/'); p; p = strchr(p + 1, '/')) {
        *p = '\0';
        ck_assert(mkdir(path, 0755) == 0 || errno == EEXIST);
        *p = '/';
    }
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(data, 1, len, f), len);
    ck_assert_int_eq(fclose(f), 0);
    free(path);
}

/* The memory nodes' reg in the root's cells: 2 + 2 (64-bit sizes), and a
 * #size-cells no DRAM size can be read with. */
START_TEST(test_dt_memory_cells)
{
    char *root = test_tmpdir("sysmem");
    static const unsigned char two[] = { 0, 0, 0, 2 }, three[] = { 0, 0, 0, 3 };
    static const unsigned char reg[] = {
        0, 0, 0, 0, 0x80, 0, 0, 0,  0, 0, 0, 1, 0, 0, 0, 0,     /* 4 GB at 2 GB */
        0, 0, 0, 8, 0x80, 0, 0, 0,  0, 0, 0, 0, 0x40, 0, 0, 0,  /* 1 GB above */
    };
    write_bytes(root, "proc/device-tree/#address-cells", two, sizeof two);
    write_bytes(root, "proc/device-tree/#size-cells", two, sizeof two);
    write_bytes(root, "proc/device-tree/memory@80000000/reg", reg, sizeof reg);
    struct sysstate_opts o = { .sysroot = root };
    json_t *sys = sysstate_read(&o);
    ck_assert_int_eq((int)num(sys, "dt_memory_mb"), 5120);
    json_decref(sys);
    write_bytes(root, "proc/device-tree/#size-cells", three, sizeof three);
    sys = sysstate_read(&o);
    ck_assert(json_is_null(json_object_get(sys, "dt_memory_mb")));
    json_decref(sys);
    nftw(root, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    free(root);
}
END_TEST

START_TEST(test_debugfs_unreadable)
{
    load_spec();
    char *root = unreadable_debugfs_tree();
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        /* as root: become uid 65534, as the unprivileged user on a board */
        if (geteuid() == 0 && (setgroups(0, NULL) != 0 || setgid(65534) != 0 ||
                               setuid(65534) != 0))
            _exit(3);
        struct sysstate_opts o = { .sysroot = root, .soc = ddrspec_find(&spec, "AM62X") };
        json_t *sys = sysstate_read(&o);
        char *s = json_dumps(sys, JSON_COMPACT);
        ssize_t len = (ssize_t)strlen(s);
        _exit(write(fds[1], s, (size_t)len) == len ? 0 : 4);
    }
    close(fds[1]);
    char buf[16384];
    size_t got = 0;
    for (ssize_t n; (n = read(fds[0], buf + got, sizeof buf - 1 - got)) > 0;)
        got += (size_t)n;
    buf[got] = '\0';
    close(fds[0]);
    int st;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child status %d", st);
    json_t *sys = json_loads(buf, 0, NULL);
    ck_assert_ptr_nonnull(sys);
    json_t *ddr = json_object_get(sys, "ddr");
    ck_assert(json_is_null(json_object_get(ddr, "mts")));
    char *why = tried(sys);
    ck_assert_msg(strstr(why, "clk_summary: ") && strstr(why, "Permission denied") &&
                  strstr(why, "readable by root only"), "%s", why);
    free(why);
    json_decref(sys);
    /* root itself reads the same tree */
    if (geteuid() == 0) {
        struct sysstate_opts o = { .sysroot = root, .soc = ddrspec_find(&spec, "AM62X") };
        sys = sysstate_read(&o);
        ck_assert_double_eq_tol(sysstate_ddr_mts(sys), 1600, 0.01);
        json_decref(sys);
    }
    char *dir = path_join(root, "sys/kernel/debug");
    chmod(dir, 0755);
    free(dir);
    nftw(root, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    free(root);
    ddrspec_free(&spec);
}
END_TEST

/* A clock only named like the DDR is kept, but a source with the DDR PLL
 * (k3conf here) is preferred, and only that gives a rate. */
START_TEST(test_ddr_named_clock_is_a_fallback)
{
    load_spec();
    char *root = test_tmpdir("sysddr");
    static const char summary[] =
        "   clock  enable_cnt  prepare_cnt  protect_cnt  rate  accuracy  phase\n"
        "--------------------------------------------------------------------\n"
        " osc0  1  1  0  25000000  0  0\n"
        "    emif_phy_clk  1  1  0  266666666  0  0\n"
        "    ddr_cfg_clk  1  1  0  100000000  0  0\n";
    write_bytes(root, "sys/kernel/debug/clk/clk_summary", summary, sizeof summary - 1);
    struct sysstate_opts o = { .sysroot = root, .soc = ddrspec_find(&spec, "AM62X") };
    json_t *sys = sysstate_read(&o);
    json_t *ddr = json_object_get(sys, "ddr");
    ck_assert_str_eq(str(ddr, "clock_detail"), "emif_phy_clk");     /* the fastest */
    ck_assert_str_eq(str(ddr, "clock_source"), "clk_summary");
    ck_assert(json_is_null(json_object_get(ddr, "mts")));
    ck_assert_ptr_nonnull(strstr(str(ddr, "mts_why"), "is not the SoC's DDR PLL"));
    json_decref(sys);

    char *fake = test_data_path("sysroots-sys/k3conf-fake");
    o.k3conf = fake;
    sys = sysstate_read(&o);
    ddr = json_object_get(sys, "ddr");
    ck_assert_str_eq(str(ddr, "mts_source"), "k3conf");
    ck_assert_double_eq_tol(num(ddr, "mts"), 1600, 0.01);
    char *why = tried(sys);
    ck_assert_msg(strstr(why, "clk_summary: emif_phy_clk is not the SoC's DDR PLL|"), "%s", why);
    free(why);
    json_decref(sys);
    free(fake);
    nftw(root, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    free(root);
    ddrspec_free(&spec);
}
END_TEST

/* --- what differs ------------------------------------------------------- */

START_TEST(test_diff_of_two_fixtures)
{
    load_spec();
    json_t *a = read_fixture("am62x-ddr1600", "AM62X", NULL);
    json_t *b = read_fixture("am62x-ddr1333", "AM62X", NULL);
    char *d = sysstate_diff(a, b);
    ck_assert_msg(str_starts_with(d, "DDR 1600 -> 1333 MT/s (clk_summary), "), "%s", d);
    ck_assert_msg(strstr(d, "CPU 1400 MHz unchanged (cpufreq max"), "%s", d);
    ck_assert_msg(strstr(d, "kernel unchanged"), "%s", d);
    ck_assert_msg(!strstr(d, "boot loader"), "%s", d);
    free(d);
    d = sysstate_diff(a, a);
    ck_assert_msg(str_starts_with(d, "DDR 1600 MT/s unchanged, "), "%s", d);
    free(d);
    json_decref(a);
    json_decref(b);
    ddrspec_free(&spec);
}
END_TEST

/* Two records written out, one change each. */
static const struct {
    const char *a, *b, *want;
} diffs[] = {
    { "{\"cpus\":[{\"measured_mhz\":1400,\"max_mhz\":1400}]}",
      "{\"cpus\":[{\"measured_mhz\":1250,\"max_mhz\":1400}]}",
      "CPU 1400 -> 1250 MHz measured" },
    { "{\"cpus\":[{\"measured_mhz\":1400}]}", "{\"cpus\":[{\"measured_mhz\":1390}]}",
      "CPU 1390 MHz unchanged (measured, within 5%)" },
    { "{\"cpus\":[{\"max_mhz\":1400}]}", "{\"cpus\":[{\"measured_mhz\":1250,\"max_mhz\":1250}]}",
      "CPU 1400 -> 1250 MHz cpufreq max" },
    { "{\"cpus\":[{\"governor\":\"ondemand\"}]}", "{\"cpus\":[{\"governor\":\"performance\"}]}",
      "governor ondemand -> performance" },
    { "{\"kernel\":\"6.1.80\"}", "{\"kernel\":\"6.6.32\"}", "kernel 6.1.80 -> 6.6.32" },
    { "{\"kernel\":\"6.6\",\"cmdline\":\"a\"}", "{\"kernel\":\"6.6\",\"cmdline\":\"b\"}",
      "kernel unchanged, kernel command line changed" },
    { "{\"ddr\":{\"mts\":1600,\"mts_source\":\"k3conf\"}}", "{\"ddr\":{}}",
      "DDR 1600 MT/s -> not readable" },
    { "{\"ddr\":{\"clock_mhz\":1066.5,\"clock_source\":\"device tree\"}}",
      "{\"ddr\":{\"clock_mhz\":933,\"clock_source\":\"device tree\"}}",
      "DDR clock 1066 -> 933 MHz (device tree)" },
    { "{}", "{}", "DDR rate not readable" },
    { "{\"bootloader\":{\"version\":\"U-Boot 2023.04\"}}",
      "{\"bootloader\":{\"version\":\"U-Boot 2024.04\"}}",
      "boot loader U-Boot 2023.04 -> U-Boot 2024.04" },
    { "{\"mem_mb\":2048}", "{\"mem_mb\":1024}", "memory 2048 -> 1024 MB" },
    { "{\"dt_memory_mb\":4096}", "{\"dt_memory_mb\":2048}", "device-tree memory 4096 -> 2048 MB" },
    { "{\"thermal\":[{\"zone\":\"z0\",\"type\":\"main0\",\"start_c\":40}]}",
      "{\"thermal\":[{\"zone\":\"z0\",\"type\":\"main0\",\"start_c\":62}]}",
      "main0 40 -> 62 C at start" },
    { "{\"thermal\":[{\"zone\":\"z0\",\"start_c\":40}]}",
      "{\"thermal\":[{\"zone\":\"z0\",\"start_c\":43}]}", "kernel unchanged" },
    { "null", "{}", "not recorded in A (a run from before evmbench recorded the system)" },
};

START_TEST(test_diff_table)
{
    json_t *a = json_loads(diffs[_i].a, JSON_DECODE_ANY, NULL);
    json_t *b = json_loads(diffs[_i].b, JSON_DECODE_ANY, NULL);
    char *d = sysstate_diff(a, b);
    ck_assert_msg(strstr(d, diffs[_i].want) != NULL, "case %d: \"%s\" lacks \"%s\"", _i, d,
                  diffs[_i].want);
    /* a start temperature within 5 C is no change */
    if (_i == 13)
        ck_assert_msg(!strstr(d, " C at start"), "%s", d);
    free(d);
    json_decref(a);
    json_decref(b);
}
END_TEST

START_TEST(test_end_temperatures)
{
    json_t *sys = json_loads("{\"thermal\":[{\"zone\":\"thermal_zone0\",\"start_c\":45.3},"
                             "{\"zone\":\"thermal_zone1\",\"start_c\":46}]}", 0, NULL);
    json_t *end = json_loads("{\"thermal\":[{\"zone\":\"thermal_zone1\",\"end_c\":58.5},"
                             "{\"zone\":\"gone\",\"end_c\":1}]}", 0, NULL);
    sysstate_merge_end(sys, end);
    json_t *th = json_object_get(sys, "thermal");
    ck_assert_ptr_null(json_object_get(json_array_get(th, 0), "end_c"));
    ck_assert_double_eq_tol(num(json_array_get(th, 1), "end_c"), 58.5, 0.001);
    json_decref(end);
    json_decref(sys);
    /* from a fixture tree */
    char *root = test_data_path("sysroots-sys/am62x-ddr1600");
    end = sysstate_end(root);
    ck_assert_double_eq_tol(num(json_array_get(json_object_get(end, "thermal"), 1), "end_c"),
                            46.1, 0.001);
    json_decref(end);
    free(root);
}
END_TEST

START_TEST(test_summary_and_store_form)
{
    json_t *sys = json_loads("{\"ddr\":{\"mts\":1600,\"mts_source\":\"k3conf\"},"
                             "\"cpus\":[{\"measured_mhz\":1398.6,\"max_mhz\":1400}],"
                             "\"kernel\":\"6.6.32\",\"bootloader\":{\"version\":\"U-Boot 2024.04\"},"
                             "\"thermal\":[{\"zone\":\"z0\",\"start_c\":40}],"
                             "\"end\":{\"thermal\":[{\"zone\":\"z0\",\"end_c\":48}]}}", 0, NULL);
    ck_assert_ptr_nonnull(sys);
    char *line = sysstate_summary(sys);
    ck_assert_str_eq(line, "DDR 1600 MT/s (k3conf), CPU 1399 MHz measured, kernel 6.6.32, "
                           "U-Boot 2024.04");
    free(line);
    ck_assert_ptr_eq(sysstate_from_store(sys), sys);
    ck_assert_ptr_null(json_object_get(sys, "end"));
    ck_assert_double_eq_tol(num(json_array_get(json_object_get(sys, "thermal"), 0), "end_c"), 48,
                            0.001);
    json_decref(sys);
    ck_assert_ptr_null(sysstate_from_store(NULL));
    line = sysstate_summary(NULL);
    ck_assert_ptr_nonnull(strstr(line, "not recorded"));
    free(line);
}
END_TEST

START_TEST(test_text)
{
    load_spec();
    json_t *sys = read_fixture("am62x-ddr1600", "AM62X", NULL);
    char *text;
    size_t len;
    FILE *f = open_memstream(&text, &len);
    sysstate_print_text(sys, f);
    fclose(f);
    ck_assert_msg(strstr(text, "DDR rate:     1600 MT/s (clk_summary: clk:170:1 at 400.0 MHz "
                               "x 4)\n"), "%s", text);
    ck_assert_msg(strstr(text, "CPU3:         not measured; cpufreq current 1400 MHz, range "
                               "200-1400 MHz,\n              governor performance\n"),
                  "%s", text);
    ck_assert_msg(strstr(text, "Temperatures: main0_thermal 45.3 C, main1_thermal 46.1 C\n"),
                  "%s", text);
    for (char *line = text; *line; line = strchr(line, '\n') + 1)
        ck_assert_int_lt((int)(strchr(line, '\n') - line), 80);
    free(text);
    json_decref(sys);
    ddrspec_free(&spec);
}
END_TEST

/* --- the DDR data file --------------------------------------------------- */

START_TEST(test_ddrspec_file)
{
    load_spec();
    static const struct { const char *family; int bits; } widths[] = {
        { "AM62X", 16 }, { "J721E", 32 }, { "J721S2", 64 }, { "J784S4", 128 },
    };
    for (size_t i = 0; i < ARRAY_SIZE(widths); i++) {
        const struct ddr_soc *s = ddrspec_find(&spec, widths[i].family);
        ck_assert_ptr_nonnull(s);
        ck_assert_int_eq(s->bus_bits, widths[i].bits);
        ck_assert_msg(s->document && strstr(s->document, "TI "), "%s: no document",
                      widths[i].family);
    }
    ck_assert_ptr_null(ddrspec_find(&spec, "AM64X"));
    ck_assert_double_eq(ddrspec_peak_mbs(NULL, 1600), 0);
    ck_assert_double_eq(ddrspec_peak_mbs(ddrspec_find(&spec, "J784S4"), 0), 0);
    ck_assert_double_eq_tol(ddrspec_peak_mbs(ddrspec_find(&spec, "J784S4"), 4266), 68256, 0.01);
    ddrspec_free(&spec);

    struct diag d;
    diag_init(&d);
    ck_assert_int_eq(ddrspec_parse(&spec, "{\"format\":\"x\"}", "f.json", &d), -1);
    ck_assert_ptr_nonnull(strstr(diag_last(&d), "f.json: not a DDR data file"));
    ddrspec_free(&spec);
    ck_assert_int_eq(ddrspec_parse(&spec, "{\"format\":\"evmbench-ddr/1\",\"socs\":["
                                   "{\"family\":\"A\",\"bus_bits\":12},"
                                   "{\"family\":\"B\",\"bus_bits\":32,\"pll_to_mts\":-1},"
                                   "{\"bus_bits\":32},"
                                   "{\"family\":\"C\",\"bus_bits\":32,\"pll_to_mts\":null}]}",
                                   "g.json", &d), 1);
    ck_assert_uint_eq(d.n, 4);
    ck_assert_ptr_nonnull(strstr(d.msgs[1], "g.json: socs[0]: skipped: \"bus_bits\""));
    ck_assert_ptr_nonnull(strstr(d.msgs[2], "socs[1]: skipped: \"pll_to_mts\""));
    ck_assert_ptr_nonnull(strstr(d.msgs[3], "socs[2]: skipped: no \"family\""));
    ck_assert_double_eq(ddrspec_find(&spec, "c")->pll_to_mts, 0);
    ddrspec_free(&spec);
    /* an empty family is none: skipped, not kept to be compared later */
    ck_assert_int_eq(ddrspec_parse(&spec, "{\"format\":\"evmbench-ddr/1\",\"socs\":["
                                   "{\"family\":\"\",\"bus_bits\":32}]}", "h.json", &d), 0);
    ck_assert_str_eq(diag_last(&d), "h.json: socs[0]: skipped: no \"family\"");
    ck_assert_ptr_null(ddrspec_find(&spec, "AM62X"));
    ddrspec_free(&spec);
    diag_free(&d);
}
END_TEST

START_TEST(test_ddr_bound_rows)
{
    ck_assert(result_ddr_bound("stream", "triad", "mb/s"));
    ck_assert(result_ddr_bound("lmbench", "bw_mem-rd-16mb", "mb/s"));
    ck_assert(!result_ddr_bound("lmbench", "bw_file_rd-io-1mb", "mb/s"));
    ck_assert(!result_ddr_bound("stream", "triad", "us"));
    ck_assert(!result_ddr_bound(NULL, "triad", "mb/s"));
}
END_TEST

/* --- in the results store ------------------------------------------------ */

START_TEST(test_store_keeps_the_system)
{
    char *dir = test_tmpdir("sysstore");
    struct diag d;
    diag_init(&d);
    json_t *h = json_pack("{ss s{sis{sfss}}}", "board", "am62xx_sk-fs", "system", "format", 1,
                          "ddr", "mts", 1600.0, "mts_source", "clk_summary");
    struct store_writer *w = store_begin(dir, "am62xx_sk-fs", h, &d);
    ck_assert_ptr_nonnull(w);
    char *id = xstrdup(store_writer_id(w));
    json_t *row = json_pack("{ss ss ss sf ss}", "bench", "stream", "metric", "copy", "unit",
                            "mb/s", "value", 1000.0, "status", "ok");
    ck_assert_int_eq(store_append(w, row, &d), 0);
    json_t *end = json_pack("{s[{ss sf}]}", "thermal", "zone", "thermal_zone0", "end_c", 50.5);
    ck_assert_int_eq(store_finish_with(w, true, end, &d), 0);
    json_decref(end);

    struct stored_run r;
    ck_assert_int_eq(store_find(dir, id, &r, &d), 0);
    ck_assert(r.complete);
    json_t *sys = stored_run_system(&r);
    ck_assert_double_eq_tol(sysstate_ddr_mts(sys), 1600, 0.01);
    ck_assert_ptr_nonnull(json_object_get(json_object_get(sys, "end"), "thermal"));
    json_decref(sys);
    stored_run_free(&r);

    /* the baseline carries the system, so pruning its run loses nothing */
    json_t *rows = json_pack("[O]", row);
    ck_assert_int_eq(store_save_baseline(dir, "before", id, rows, false, &d), 0);
    json_decref(rows);
    char *path = xasprintf("%s/runs/%s.evmrun", dir, id);
    ck_assert_int_eq(unlink(path), 0);
    free(path);
    sys = store_load_system(dir, "before");
    ck_assert_double_eq_tol(sysstate_ddr_mts(sys), 1600, 0.01);
    json_decref(sys);

    /* a run file from before the system was recorded still loads, without one */
    path = xasprintf("%s/runs/20250101-000000-old.evmrun", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("{\"format\":\"evmbench-run/1\",\"id\":\"20250101-000000-old\","
          "\"started\":\"2025-01-01T00:00:00Z\",\"board\":\"am62xx_sk-fs\"}\n"
          "{\"row\":{\"bench\":\"stream\",\"metric\":\"copy\",\"unit\":\"mb/s\",\"value\":900}}\n"
          "{\"end\":\"2025-01-01T00:01:00Z\"}\n", f);
    fclose(f);
    ck_assert_int_eq(store_find(dir, "20250101-000000-old", &r, &d), 0);
    ck_assert_uint_eq(json_array_size(r.rows), 1);
    ck_assert(r.complete);
    ck_assert_ptr_null(stored_run_system(&r));
    stored_run_free(&r);
    ck_assert_ptr_null(store_load_system(dir, "20250101-000000-old"));
    ck_assert_ptr_null(store_load_system(dir, "no-such-run"));
    ck_assert_uint_eq(d.n, 0);
    free(path);
    json_decref(row);
    json_decref(h);
    free(id);
    diag_free(&d);
    char *rm = xasprintf("rm -rf '%s'", dir);
    ck_assert_int_eq(system(rm), 0);
    free(rm);
    free(dir);
}
END_TEST

Suite *suite_sysstate(void)
{
    Suite *s = suite_create("sysstate");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_am62x_clk_summary_ddr);
    tcase_add_test(tc, test_clk_summary_without_ddr_clock);
    tcase_add_test(tc, test_k3conf_gives_the_ddr_clock);
    tcase_add_test(tc, test_j721e_device_tree_clock);
    tcase_add_test(tc, test_debugfs_unreadable);
    tcase_add_test(tc, test_dt_memory_cells);
    tcase_add_test(tc, test_ddr_named_clock_is_a_fallback);
    tcase_add_test(tc, test_diff_of_two_fixtures);
    tcase_add_loop_test(tc, test_diff_table, 0, (int)ARRAY_SIZE(diffs));
    tcase_add_test(tc, test_end_temperatures);
    tcase_add_test(tc, test_summary_and_store_form);
    tcase_add_test(tc, test_text);
    tcase_add_test(tc, test_ddrspec_file);
    tcase_add_test(tc, test_ddr_bound_rows);
    tcase_add_test(tc, test_store_keeps_the_system);
    suite_add_tcase(s, tc);
    return s;
}
