/* lat_ops.c - latency of basic operations, as lmbench's lat_ops reports it.
 *
 * lat_ops(8) times "interlocking" operations: each one needs the result of
 * the one before, so the time per operation is its latency, in ns. Here
 * every chain is one operation type, the operand kept in a register by an
 * empty asm statement after each step (KEEP), so the compiler can neither
 * fold a run of steps into one (x + a + a ... = x + n*a) nor reorder them.
 * Floating-point chains need no such fence: without -ffast-math the
 * compiler may not reassociate them. Each unit of work is 100 steps.
 *
 *   add   x = x + a                 (float/double: x + a, then - a)
 *   bit   x = x ^ a                 (exclusive or)
 *   mul   x = x * a, a odd          (float/double: x * 2, then * 0.5)
 *   div   x = s / x                 (x swings between two values, as in
 *                                    lmbench: a large and a small quotient)
 *   mod   x = (x % m) | m, the time of one "| m" (the bit row, measured
 *         first) subtracted, as lmbench subtracts its extra operation:
 *         the bit row's median from the mod chain's, one value
 *         (kb_report_net), which fails with both figures when not above
 *         zero; the mod row fails when its bit row could not be timed
 *
 * Operand values come from volatile variables, so nothing is known at
 * compile time; int is 32-bit, int64 64-bit (integer add/bit/mul unsigned
 * so overflow is defined). Values stay bounded and normal (no denormals).
 *
 * Timing (kernel_util.h, KB_BUDGET_MEM): 11 intervals of at least 50 ms;
 * lmbench prints the median.
 *
 * Known difference from lmbench's own numbers: lmbench's bit and add loops
 * are several operations per step that GCC partly simplifies, so its int
 * bit row comes out below one cycle (AM62x guide: 0.48 ns, 1 cycle is
 * 0.71 ns at 1.4 GHz) and its add can print 0.00; here each is one cycle. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/kernel.h"
#include "benches/kernels/kernel_util.h"
#include "common/stats.h"
#include "common/util.h"

#define OPS_PER_UNIT        100

/* Keeps x in a register, opaque to the optimiser. */
#define KEEP(x) __asm__ volatile("" : "+r"(x))

enum ops_row {
    OPS_INT_BIT, OPS_INT_ADD, OPS_INT_MUL, OPS_INT_DIV, OPS_INT_MOD,
    OPS_I64_BIT, OPS_I64_ADD, OPS_I64_MUL, OPS_I64_DIV, OPS_I64_MOD,
    OPS_FLT_ADD, OPS_FLT_MUL, OPS_FLT_DIV,
    OPS_DBL_ADD, OPS_DBL_MUL, OPS_DBL_DIV,
    OPS_NROWS
};

static const struct kernel_metric ops_metrics[OPS_NROWS] = {
    [OPS_INT_BIT] = { .id = "lat_ops-int-bit", .unit = "ns", .summary = SUMMARY_MEDIAN, .cpu_bound = true },
    [OPS_INT_ADD] = { .id = "lat_ops-int-add", .unit = "ns", .summary = SUMMARY_MEDIAN, .cpu_bound = true },
    [OPS_INT_MUL] = { .id = "lat_ops-int-mul", .unit = "ns", .summary = SUMMARY_MEDIAN, .cpu_bound = true },
    [OPS_INT_DIV] = { .id = "lat_ops-int-div", .unit = "ns", .summary = SUMMARY_MEDIAN, .cpu_bound = true },
    [OPS_INT_MOD] = { .id = "lat_ops-int-mod", .unit = "ns", .summary = SUMMARY_MEDIAN, .cpu_bound = true },
    [OPS_I64_BIT] = { .id = "lat_ops-int64-bit", .unit = "ns", .summary = SUMMARY_MEDIAN, .cpu_bound = true },
    [OPS_I64_ADD] = { .id = "lat_ops-int64-add", .unit = "ns", .summary = SUMMARY_MEDIAN, .cpu_bound = true },
    [OPS_I64_MUL] = { .id = "lat_ops-int64-mul", .unit = "ns", .summary = SUMMARY_MEDIAN, .cpu_bound = true },
    [OPS_I64_DIV] = { .id = "lat_ops-int64-div", .unit = "ns", .summary = SUMMARY_MEDIAN, .cpu_bound = true },
    [OPS_I64_MOD] = { .id = "lat_ops-int64-mod", .unit = "ns", .summary = SUMMARY_MEDIAN, .cpu_bound = true },
    [OPS_FLT_ADD] = { .id = "lat_ops-float-add", .unit = "ns", .summary = SUMMARY_MEDIAN, .cpu_bound = true },
    [OPS_FLT_MUL] = { .id = "lat_ops-float-mul", .unit = "ns", .summary = SUMMARY_MEDIAN, .cpu_bound = true },
    [OPS_FLT_DIV] = { .id = "lat_ops-float-div", .unit = "ns", .summary = SUMMARY_MEDIAN, .cpu_bound = true },
    [OPS_DBL_ADD] = { .id = "lat_ops-double-add", .unit = "ns", .summary = SUMMARY_MEDIAN, .cpu_bound = true },
    [OPS_DBL_MUL] = { .id = "lat_ops-double-mul", .unit = "ns", .summary = SUMMARY_MEDIAN, .cpu_bound = true },
    [OPS_DBL_DIV] = { .id = "lat_ops-double-div", .unit = "ns", .summary = SUMMARY_MEDIAN, .cpu_bound = true },
};

/* Run-time operands: the compiler knows none of them. */
static volatile uint32_t v_u32_a = 0x9e3779b9u, v_u32_odd = 37u;
static volatile int32_t v_i32_s = (37 << 20) + 12345, v_i32_r = 37, v_i32_m = 63;
static volatile uint64_t v_u64_a = UINT64_C(0x9e3779b97f4a7c15), v_u64_odd = 40503u;
static volatile int64_t v_i64_s = (INT64_C(37) << 46) + 12345,
                        v_i64_r = (INT64_C(37) << 33) + 37,
                        v_i64_m = (INT64_C(1) << 40) + 63;
static volatile float v_f_x = 1.0f, v_f_a = 1000.5f, v_f_two = 2.0f, v_f_half = 0.5f,
                      v_f_num = 3.14159265f, v_f_den = 1.41421356f;
static volatile double v_d_x = 1.0, v_d_a = 1000.5, v_d_two = 2.0, v_d_half = 0.5,
                       v_d_num = 3.14159265, v_d_den = 1.41421356;

#define TEN(s) s s s s s s s s s s
#define HUNDRED(s) TEN(TEN(s))

/* Integer chains; T the type, the step a statement on x. */
#define INT_BODY(name, T, init, step)                               \
    static int name(void *ctx, uint64_t n, char *err, size_t len)  \
    {                                                               \
        (void)ctx;                                                  \
        (void)err;                                                  \
        (void)len;                                                  \
        init;                                                       \
        for (uint64_t i = 0; i < n; i++) {                          \
            HUNDRED(step; KEEP(x);)                                 \
        }                                                           \
        kb_use((uintptr_t)x);                                       \
        return 0;                                                   \
    }

INT_BODY(int_bit, uint32_t, uint32_t x = v_u32_a; uint32_t a = v_u32_odd, x ^= a)
INT_BODY(int_add, uint32_t, uint32_t x = v_u32_a; uint32_t a = v_u32_odd, x += a)
INT_BODY(int_mul, uint32_t, uint32_t x = v_u32_a | 1; uint32_t a = v_u32_odd, x *= a)
INT_BODY(int_div, int32_t, int32_t x = v_i32_r; int32_t s = v_i32_s, x = s / x)
INT_BODY(int_mod, int32_t, int32_t x = v_i32_s; int32_t m = v_i32_m, x = (x % m) | m)
INT_BODY(i64_bit, uint64_t, uint64_t x = v_u64_a; uint64_t a = v_u64_odd, x ^= a)
INT_BODY(i64_add, uint64_t, uint64_t x = v_u64_a; uint64_t a = v_u64_odd, x += a)
INT_BODY(i64_mul, uint64_t, uint64_t x = v_u64_a | 1; uint64_t a = v_u64_odd, x *= a)
INT_BODY(i64_div, int64_t, int64_t x = v_i64_r; int64_t s = v_i64_s, x = s / x)
INT_BODY(i64_mod, int64_t, int64_t x = v_i64_s; int64_t m = v_i64_m, x = (x % m) | m)

/* Floating-point chains: two steps per pair, 50 pairs per unit. */
#define FP_BODY(name, T, init, step1, step2)                        \
    static int name(void *ctx, uint64_t n, char *err, size_t len)  \
    {                                                               \
        (void)ctx;                                                  \
        (void)err;                                                  \
        (void)len;                                                  \
        init;                                                       \
        for (uint64_t i = 0; i < n; i++) {                          \
            TEN(FIVE_PAIRS(step1, step2))                           \
        }                                                           \
        kb_use((uintptr_t)(x * 1000.0));                            \
        return 0;                                                   \
    }
#define FIVE_PAIRS(a, b) a; b; a; b; a; b; a; b; a; b;

FP_BODY(flt_add, float, float x = v_f_x; float a = v_f_a, x = x + a, x = x - a)
FP_BODY(flt_mul, float, float x = v_f_x; float a = v_f_two; float b = v_f_half,
        x = x * a, x = x * b)
FP_BODY(flt_div, float, float x = v_f_den; float s = v_f_num, x = s / x, x = s / x)
FP_BODY(dbl_add, double, double x = v_d_x; double a = v_d_a, x = x + a, x = x - a)
FP_BODY(dbl_mul, double, double x = v_d_x; double a = v_d_two; double b = v_d_half,
        x = x * a, x = x * b)
FP_BODY(dbl_div, double, double x = v_d_den; double s = v_d_num, x = s / x, x = s / x)

static const kb_fn ops_bodies[OPS_NROWS] = {
    [OPS_INT_BIT] = int_bit, [OPS_INT_ADD] = int_add, [OPS_INT_MUL] = int_mul,
    [OPS_INT_DIV] = int_div, [OPS_INT_MOD] = int_mod,
    [OPS_I64_BIT] = i64_bit, [OPS_I64_ADD] = i64_add, [OPS_I64_MUL] = i64_mul,
    [OPS_I64_DIV] = i64_div, [OPS_I64_MOD] = i64_mod,
    [OPS_FLT_ADD] = flt_add, [OPS_FLT_MUL] = flt_mul, [OPS_FLT_DIV] = flt_div,
    [OPS_DBL_ADD] = dbl_add, [OPS_DBL_MUL] = dbl_mul, [OPS_DBL_DIV] = dbl_div,
};

struct ops_sample_ctx {
    struct report *r;
    const char *id;             /* NULL: measured, not reported (p->only) */
    bool net;                   /* a helper operation is subtracted: the
                                   row is reported once, after the run */
    struct stats raw;           /* samples before the subtraction */
};

static void ops_sample(void *ctx, const struct kb_interval *iv)
{
    struct ops_sample_ctx *s = ctx;
    double ns = kb_per_op(iv) * 1e9 / OPS_PER_UNIT;
    stats_push(&s->raw, ns);
    if (s->net || !s->id)
        return;
    report_sample(s->r, s->id, ns);
}

/* Whether row i is timed under p->only: when wanted, and a bit row also
 * when its mod row is (mod's latency is net of bit's). */
static bool ops_timed(const struct kernel_params *p, int i)
{
    if (kernel_wants(p, ops_metrics[i].id))
        return true;
    if (i == OPS_INT_BIT)
        return kernel_wants(p, ops_metrics[OPS_INT_MOD].id);
    if (i == OPS_I64_BIT)
        return kernel_wants(p, ops_metrics[OPS_I64_MOD].id);
    return false;
}

static int ops_run(const struct kernel_params *p, struct report *r)
{
    struct kb_opts o;
    kb_opts_for(&o, p, KB_BUDGET_MEM, 0);
    double bit_ns[2] = { 0, 0 };        /* int, int64 */
    int ok = 0, total = 0, done = 0;
    for (int i = 0; i < OPS_NROWS; i++)
        total += ops_timed(p, i);

    for (int i = 0; i < OPS_NROWS; i++) {
        bool is_bit = i == OPS_INT_BIT || i == OPS_I64_BIT;
        bool is_mod = i == OPS_INT_MOD || i == OPS_I64_MOD;
        int wide = i >= OPS_I64_BIT;
        if (!ops_timed(p, i))
            continue;
        struct ops_sample_ctx s = {
            .r = r, .id = kernel_wants(p, ops_metrics[i].id) ? ops_metrics[i].id : NULL,
            .net = is_mod,
        };
        stats_init(&s.raw);
        struct kb_opts so = o;
        so.on_interval = ops_sample;
        so.cb_ctx = &s;
        struct kb_result res;
        char err[256] = "";
        if (is_mod && !(bit_ns[wide] > 0)) {
            if (s.id)
                report_fail(r, s.id, "no time of the bit operation to subtract (see %s)",
                            ops_metrics[wide ? OPS_I64_BIT : OPS_INT_BIT].id);
        } else if (kb_measure(ops_bodies[i], NULL, &so, &res, err, sizeof err) < 0) {
            if (s.id)
                report_fail(r, s.id, "%s", err);
        } else {
            kb_result_free(&res);
            if (s.id && (!is_mod || kb_report_net(r, &s.id, 1, "ns", stats_median(&s.raw),
                                                  bit_ns[wide]) == 0))
                ok++;
        }
        if (is_bit)
            bit_ns[wide] = s.raw.count ? stats_median(&s.raw) : 0;
        stats_free(&s.raw);
        report_progress(r, ++done, total);
    }
    return ok ? 0 : -1;
}

const struct kernel kernel_lat_ops = {
    .name = "lat_ops",
    .section = "lmbench",
    .description = "lmbench lat_ops: latency of int, int64, float and double "
                   "add, mul, div, mod and bit operations",
    .metrics = ops_metrics,
    .nmetrics = OPS_NROWS,
    /* 16 rows: ~0.15 s each when quick; 11 x 50 ms + calibration full. */
    .budget_quick_s = 3.0,
    .budget_full_s = 11.0,
    .run = ops_run,
};
