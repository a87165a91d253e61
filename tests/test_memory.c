/* test_memory.c - the memory kernels (bw_mem, bw_file_rd, bw_mmap_rd,
 * lat_mem_rd, lat_ops, stream-threads) run in-process in quick mode with
 * small sizes. */
#include "config.h"

#include <dirent.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel/kernel.h"
#include "kernel/report.h"
#include "suites.h"
#include "test_helpers.h"
#include "common/util.h"
#include "benches/kernels/registry.h"

/* The guide's LMBench rows these kernels produce (evmbench refs --board
 * am62xx_sk-fs --section LMBench), with their units. */
#define BW(op) "bw_mem-" op "-1mb", "bw_mem-" op "-2mb", "bw_mem-" op "-4mb", \
               "bw_mem-" op "-8mb", "bw_mem-" op "-16mb"
static const char *const rows_bw_mem[] = {
    BW("rd"), BW("wr"), BW("rdwr"), BW("cp"), BW("frd"), BW("fwr"), BW("fcp"),
    BW("bzero"), BW("bcopy"),
};
static const char *const rows_bw_file_rd[] = { "bw_file_rd-io-1mb", "bw_file_rd-o2c-1mb" };
static const char *const rows_bw_mmap_rd[] = { "bw_mmap_rd-mo-1mb", "bw_mmap_rd-o2c-1mb" };
static const char *const rows_lat_mem_rd[] = {
    "lat_mem_rd-stride128-sz50", "lat_mem_rd-stride128-sz31k",
    "lat_mem_rd-stride128-sz62k", "lat_mem_rd-stride128-sz125k",
    "lat_mem_rd-stride128-sz250k", "lat_mem_rd-stride128-sz500k",
    "lat_mem_rd-stride128-sz1000k", "lat_mem_rd-stride128-sz64000k",
    "latency_for_0.50_mb_block_size", "latency_for_1.00_mb_block_size",
};
static const char *const rows_lat_ops[] = {
    "lat_ops-int-bit", "lat_ops-int-add", "lat_ops-int-mul", "lat_ops-int-div",
    "lat_ops-int-mod", "lat_ops-int64-bit", "lat_ops-int64-add", "lat_ops-int64-mul",
    "lat_ops-int64-div", "lat_ops-int64-mod", "lat_ops-float-add", "lat_ops-float-mul",
    "lat_ops-float-div", "lat_ops-double-add", "lat_ops-double-mul", "lat_ops-double-div",
};
static const char *const rows_stream_threads[] = {
    "copy-threads", "scale-threads", "add-threads", "triad-threads",
};

struct kernel_rows {
    const char *kernel;
    const char *section;
    const char *const *ids;
    size_t n;
    const char *unit;           /* of every row but the two below */
};

static const struct kernel_rows all_rows[] = {
    { "bw_mem", "lmbench", rows_bw_mem, ARRAY_SIZE(rows_bw_mem), "mb/s" },
    { "bw_file_rd", "lmbench", rows_bw_file_rd, ARRAY_SIZE(rows_bw_file_rd), "mb/s" },
    { "bw_mmap_rd", "lmbench", rows_bw_mmap_rd, ARRAY_SIZE(rows_bw_mmap_rd), "mb/s" },
    { "lat_mem_rd", "lmbench", rows_lat_mem_rd, ARRAY_SIZE(rows_lat_mem_rd), "ns" },
    { "lat_ops", "lmbench", rows_lat_ops, ARRAY_SIZE(rows_lat_ops), "ns" },
    { "stream-threads", "stream", rows_stream_threads, ARRAY_SIZE(rows_stream_threads),
      "mb/s" },
};

/* Every metric measured, positive and finite, nothing failed. */
static void assert_all_measured(const struct run_events *s, int rc)
{
    ck_assert_msg(rc == 0, "%s returned %d (%s)", s->k->name, rc,
                  s->fail_text ? s->fail_text : "");
    ck_assert_int_eq(s->unknown_samples + s->unknown_fails, 0);
    ck_assert_int_eq(s->bad_values, 0);
    ck_assert_int_gt(s->progress, 0);
    for (size_t i = 0; i < s->k->nmetrics; i++) {
        ck_assert_msg(s->fails[i] == 0, "%s failed: %s", s->k->metrics[i].id,
                      s->fail_text ? s->fail_text : "");
        ck_assert_msg(s->samples[i] > 0, "%s has no sample", s->k->metrics[i].id);
    }
}

/* Every metric failed with a reason, no sample. */
static void assert_all_failed(const struct run_events *s, int rc)
{
    ck_assert_int_eq(rc, -1);
    ck_assert_int_eq(s->unknown_samples + s->unknown_fails, 0);
    ck_assert_ptr_nonnull(s->fail_text);
    ck_assert_uint_gt(strlen(s->fail_text), 10);
    for (size_t i = 0; i < s->k->nmetrics; i++) {
        ck_assert_msg(s->fails[i] == 1, "%s: %d failures", s->k->metrics[i].id, s->fails[i]);
        ck_assert_int_eq(s->samples[i], 0);
    }
}

START_TEST(metric_ids_are_the_guides_rows)
{
    const struct kernel_rows *kr = &all_rows[_i];
    const struct kernel *k = kernel_find(kr->kernel);
    ck_assert_msg(k != NULL, "kernel %s not registered", kr->kernel);
    ck_assert_str_eq(k->name, kr->kernel);
    ck_assert_str_eq(k->section, kr->section);
    ck_assert_uint_eq(k->nmetrics, kr->n);
    for (size_t i = 0; i < kr->n; i++) {
        ck_assert_str_eq(k->metrics[i].id, kr->ids[i]);
        const char *unit = strncmp(kr->ids[i], "latency_for_", 12) == 0 ? "nanosec" : kr->unit;
        ck_assert_str_eq(k->metrics[i].unit, unit);
    }
    ck_assert(k->budget_quick_s > 0 && k->budget_quick_s <= k->budget_full_s);
    /* lmbench's statistic: the minimum for lat_mem_rd, the median else;
     * STREAM's best rate. */
    enum summary want = strcmp(kr->kernel, "lat_mem_rd") == 0 ? SUMMARY_MIN
                        : strcmp(kr->kernel, "stream-threads") == 0 ? SUMMARY_MAX
                        : SUMMARY_MEDIAN;
    for (size_t i = 0; i < kr->n; i++)
        ck_assert_int_eq(k->metrics[i].summary, want);
}
END_TEST

START_TEST(bw_mem_quick_small)
{
    struct kernel_params p = { .quick = true, .size = 64 << 10, .iterations = 2 };
    struct run_events s;
    int rc = run_events_kernel("bw_mem", &p, NULL, &s);
    assert_all_measured(&s, rc);
    /* MB/s: the best sample within a factor of 500 below and 50 above a
     * memcpy of 64 KiB timed here (a wrong unit is off by 1000 or more),
     * whatever this machine's speed. The best sample, not the worst: on a
     * loaded machine one sample may be preempted, and the cached memcpy is
     * itself some 20 times faster than a copy through DRAM (30 under
     * qemu-user). */
    double here = test_memcpy_mbs(64 << 10);
    static const char *const rates[] = { "bw_mem-bcopy-16mb", "bw_mem-rd-1mb" };
    for (size_t r = 0; r < ARRAY_SIZE(rates); r++) {
        size_t i = run_events_index(&s, rates[r]);
        ck_assert_msg(s.min[i] > 0 && s.max[i] > here / 500 && s.max[i] < here * 50,
                      "%s: %g .. %g MB/s, a memcpy here %g MB/s", rates[r], s.min[i], s.max[i],
                      here);
    }
    run_events_free(&s);
}
END_TEST

START_TEST(bw_mem_impossible_size)
{
    struct kernel_params p = { .quick = true, .size = SIZE_MAX / 4 };
    struct run_events s;
    int rc = run_events_kernel("bw_mem", &p, NULL, &s);
    assert_all_failed(&s, rc);
    run_events_free(&s);
}
END_TEST

/* Entries of dir whose name starts with "evmbench-". */
static int count_leftovers(const char *dir)
{
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        n += strncmp(e->d_name, "evmbench-", 9) == 0;
    closedir(d);
    return n;
}

START_TEST(file_read_quick_and_clean)
{
    const char *name = _i == 0 ? "bw_file_rd" : "bw_mmap_rd";
    char dir[] = "/tmp/evmbench-test-memory-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char *old = getenv("TMPDIR") ? xstrdup(getenv("TMPDIR")) : NULL;
    setenv("TMPDIR", dir, 1);

    struct kernel_params p = { .quick = true, .iterations = 2 };
    struct run_events s;
    int rc = run_events_kernel(name, &p, NULL, &s);
    int left = count_leftovers(dir);

    if (old)
        setenv("TMPDIR", old, 1);
    else
        unsetenv("TMPDIR");
    free(old);
    rmdir(dir);
    assert_all_measured(&s, rc);
    ck_assert_int_eq(left, 0);
    run_events_free(&s);
}
END_TEST

START_TEST(file_read_failures)
{
    const char *name = _i % 2 == 0 ? "bw_file_rd" : "bw_mmap_rd";
    char *old = getenv("TMPDIR") ? xstrdup(getenv("TMPDIR")) : NULL;
    struct kernel_params p = { .quick = true, .iterations = 1 };
    if (_i < 2)
        p.size = (size_t)1 << 40;           /* more than the 16 MB file */
    else
        setenv("TMPDIR", "/nonexistent/evmbench-no-such-dir", 1);
    struct run_events s;
    int rc = run_events_kernel(name, &p, NULL, &s);
    if (old)
        setenv("TMPDIR", old, 1);
    else
        unsetenv("TMPDIR");
    free(old);
    assert_all_failed(&s, rc);
    run_events_free(&s);
}
END_TEST

START_TEST(lat_mem_rd_quick)
{
    /* The DRAM row, 64 MiB: beyond the caches of the EVMs and of this
     * machine, slower than the 512-byte L1 row anywhere. */
    struct kernel_params p = { .quick = true, .iterations = 3 };
    struct run_events s;
    int rc = run_events_kernel("lat_mem_rd", &p, NULL, &s);
    assert_all_measured(&s, rc);
    size_t l1 = run_events_index(&s, "lat_mem_rd-stride128-sz50");
    size_t dram = run_events_index(&s, "lat_mem_rd-stride128-sz64000k");
    ck_assert_msg(s.min[l1] < s.min[dram], "sz50 %.3f ns, 64 MiB %.3f ns",
                  s.min[l1], s.min[dram]);
    size_t big = run_events_index(&s, "lat_mem_rd-stride128-sz1000k");
    /* The guide's other names carry the same samples. */
    size_t a = run_events_index(&s, "latency_for_1.00_mb_block_size");
    ck_assert_int_eq(s.samples[a], s.samples[big]);
    ck_assert_double_eq(s.min[a], s.min[big]);
    a = run_events_index(&s, "latency_for_0.50_mb_block_size");
    size_t b = run_events_index(&s, "lat_mem_rd-stride128-sz500k");
    ck_assert_double_eq(s.min[a], s.min[b]);
    run_events_free(&s);
}
END_TEST

START_TEST(lat_mem_rd_sizes)
{
    struct run_events s;
    /* Impossible: everything fails cleanly. */
    struct kernel_params p = { .quick = true, .size = SIZE_MAX / 4 };
    int rc = run_events_kernel("lat_mem_rd", &p, NULL, &s);
    assert_all_failed(&s, rc);
    run_events_free(&s);

    /* 64 KiB: the rows above it fail, the others are measured. */
    p = (struct kernel_params){ .quick = true, .size = 64 << 10, .iterations = 1 };
    rc = run_events_kernel("lat_mem_rd", &p, NULL, &s);
    ck_assert_int_eq(rc, 0);
    const char *measured[] = { "lat_mem_rd-stride128-sz50", "lat_mem_rd-stride128-sz31k",
                               "lat_mem_rd-stride128-sz62k" };
    const char *failed[] = { "lat_mem_rd-stride128-sz125k", "lat_mem_rd-stride128-sz250k",
                             "lat_mem_rd-stride128-sz500k", "latency_for_0.50_mb_block_size",
                             "lat_mem_rd-stride128-sz1000k", "latency_for_1.00_mb_block_size",
                             "lat_mem_rd-stride128-sz64000k" };
    for (size_t i = 0; i < ARRAY_SIZE(measured); i++)
        ck_assert_int_gt(s.samples[run_events_index(&s, measured[i])], 0);
    for (size_t i = 0; i < ARRAY_SIZE(failed); i++) {
        ck_assert_int_eq(s.fails[run_events_index(&s, failed[i])], 1);
        ck_assert_int_eq(s.samples[run_events_index(&s, failed[i])], 0);
    }
    run_events_free(&s);
}
END_TEST

START_TEST(lat_ops_quick)
{
    struct kernel_params p = { .quick = true, .iterations = 2 };
    struct run_events s;
    int rc = run_events_kernel("lat_ops", &p, NULL, &s);
    assert_all_measured(&s, rc);
    /* A division takes longer than an addition on every CPU. */
    size_t add = run_events_index(&s, "lat_ops-int-add");
    ck_assert(s.min[run_events_index(&s, "lat_ops-int-div")] > s.min[add]);
    ck_assert(s.min[run_events_index(&s, "lat_ops-double-div")] > s.min[add]);
    /* mod is net of its extra "| m" (the bit row's median): a difference
     * of two medians, one value, never one per interval nor a made-up
     * floor; the other rows one sample per recorded interval */
    for (size_t i = 0; i < s.k->nmetrics; i++) {
        bool mod = str_ends_with(s.k->metrics[i].id, "-mod");
        ck_assert_msg(s.samples[i] == (mod ? 1 : 2), "%s: %d samples",
                      s.k->metrics[i].id, s.samples[i]);
    }
    run_events_free(&s);
}
END_TEST

START_TEST(stream_threads_small)
{
    /* 0: one thread per online CPU; then 1 and 3 explicit threads. */
    static const int threads[] = { 0, 1, 3 };
    struct kernel_params p = { .quick = true, .size = 200000, .iterations = 3,
                               .threads = threads[_i] };
    struct run_events s;
    int rc = run_events_kernel("stream-threads", &p, NULL, &s);
    assert_all_measured(&s, rc);
    for (size_t i = 0; i < s.k->nmetrics; i++)
        ck_assert_int_eq(s.samples[i], 2);      /* the first pass is a warm-up */
    run_events_free(&s);

    /* The guide's STREAM rows stay single-threaded whatever p.threads. */
    const struct kernel *k = kernel_find("stream");
    ck_assert_ptr_nonnull(k);
    ck_assert_uint_eq(k->nmetrics, 4);
}
END_TEST

START_TEST(stream_threads_impossible_size)
{
    struct kernel_params p = { .quick = true, .size = SIZE_MAX / 64, .threads = 2 };
    struct run_events s;
    int rc = run_events_kernel("stream-threads", &p, NULL, &s);
    assert_all_failed(&s, rc);
    run_events_free(&s);
}
END_TEST

Suite *suite_memory(void)
{
    Suite *s = suite_create("memory");
    TCase *tc = tcase_create("ids");
    tcase_add_loop_test(tc, metric_ids_are_the_guides_rows, 0, (int)ARRAY_SIZE(all_rows));
    suite_add_tcase(s, tc);

    tc = tcase_create("bw_mem");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, bw_mem_quick_small);
    tcase_add_test(tc, bw_mem_impossible_size);
    tcase_add_loop_test(tc, file_read_quick_and_clean, 0, 2);
    tcase_add_loop_test(tc, file_read_failures, 0, 4);
    suite_add_tcase(s, tc);

    tc = tcase_create("latency");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, lat_mem_rd_quick);
    tcase_add_test(tc, lat_mem_rd_sizes);
    tcase_add_test(tc, lat_ops_quick);
    suite_add_tcase(s, tc);

    tc = tcase_create("stream_threads");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, stream_threads_small, 0, 3);
    tcase_add_test(tc, stream_threads_impossible_size);
    suite_add_tcase(s, tc);
    return s;
}
