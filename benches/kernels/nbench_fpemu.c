/* nbench_fpemu.c - BYTEmark emulated floating point.
 *
 * A small software floating-point package, as BYTE describes it: numbers
 * carry a type, a sign, a signed 16-bit exponent and a mantissa of four
 * 16-bit words, and every operation is done with 16-bit integer adds,
 * subtracts and one-bit shifts (alignment and normalisation shift a bit
 * at a time, multiplication is shift-and-add, division is restoring
 * division), as on a processor without a floating-point unit.
 *
 * The test fills two arrays of 3000 numbers with quotients of random
 * integers and combines them into a third, element by element, in a
 * repeating mix of 4 additions, 4 subtractions, 5 multiplications and
 * 3 divisions per 16 elements. An iteration is one pass over the arrays.
 * The results are checked against the hardware's double precision. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benches/kernels/nbench.h"

#define W 4     /* mantissa words */

static bool mant_zero(const uint16_t *m)
{
    return !(m[0] | m[1] | m[2] | m[3]);
}

/* m <<= 1; returns the bit shifted out. */
static int shl1(uint16_t *m)
{
    int carry = 0;
    for (int i = W - 1; i >= 0; i--) {
        int out = m[i] >> 15;
        m[i] = (uint16_t)(m[i] << 1 | carry);
        carry = out;
    }
    return carry;
}

/* m >>= 1 with `in` entering at the top; returns the bit shifted out. */
static int shr1(uint16_t *m, int in)
{
    for (int i = 0; i < W; i++) {
        int out = m[i] & 1;
        m[i] = (uint16_t)(m[i] >> 1 | in << 15);
        in = out;
    }
    return in;
}

/* d = a + b; returns the carry. */
static int add_mant(uint16_t *d, const uint16_t *a, const uint16_t *b)
{
    uint32_t carry = 0;
    for (int i = W - 1; i >= 0; i--) {
        uint32_t s = (uint32_t)a[i] + b[i] + carry;
        d[i] = (uint16_t)s;
        carry = s >> 16;
    }
    return (int)carry;
}

/* d = a - b; returns the borrow. */
static int sub_mant(uint16_t *d, const uint16_t *a, const uint16_t *b)
{
    uint32_t borrow = 0;
    for (int i = W - 1; i >= 0; i--) {
        uint32_t s = (uint32_t)a[i] - b[i] - borrow;
        d[i] = (uint16_t)s;
        borrow = (s >> 16) & 1;
    }
    return (int)borrow;
}

static int cmp_mant(const uint16_t *a, const uint16_t *b)
{
    for (int i = 0; i < W; i++)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    return 0;
}

static void set_zero(struct nb_fpf *d, int sign)
{
    memset(d, 0, sizeof *d);
    d->type = NB_FPF_ZERO;
    d->sign = (uint8_t)sign;
}

static void set_special(struct nb_fpf *d, int type, int sign)
{
    set_zero(d, sign);
    d->type = (uint8_t)type;
}

/* Shifts left until the top bit is set, a bit at a time. */
static void normalize(struct nb_fpf *d)
{
    if (mant_zero(d->mant)) {
        set_zero(d, d->sign);
        return;
    }
    while (!(d->mant[0] & 0x8000)) {
        shl1(d->mant);
        d->exp--;
    }
}

void nb_fpf_from_i32(int32_t v, struct nb_fpf *d)
{
    if (v == 0) {
        set_zero(d, 0);
        return;
    }
    uint32_t mag = v < 0 ? 0u - (uint32_t)v : (uint32_t)v;
    d->type = NB_FPF_NORMAL;
    d->sign = v < 0;
    d->exp = 32;
    d->mant[0] = (uint16_t)(mag >> 16);
    d->mant[1] = (uint16_t)mag;
    d->mant[2] = d->mant[3] = 0;
    normalize(d);
}

static void addsub(const struct nb_fpf *x, const struct nb_fpf *y, int negate_y,
                   struct nb_fpf *d)
{
    int ysign = y->sign ^ negate_y;
    if (x->type == NB_FPF_NAN || y->type == NB_FPF_NAN) {
        set_special(d, NB_FPF_NAN, 0);
        return;
    }
    if (x->type == NB_FPF_INF || y->type == NB_FPF_INF) {
        if (x->type == NB_FPF_INF && y->type == NB_FPF_INF && x->sign != ysign)
            set_special(d, NB_FPF_NAN, 0);
        else if (x->type == NB_FPF_INF)
            set_special(d, NB_FPF_INF, x->sign);
        else
            set_special(d, NB_FPF_INF, ysign);
        return;
    }
    if (y->type == NB_FPF_ZERO) {
        *d = *x;
        return;
    }
    if (x->type == NB_FPF_ZERO) {
        *d = *y;
        d->sign = (uint8_t)ysign;
        return;
    }

    /* Larger magnitude first, the other aligned to it. */
    const struct nb_fpf *big = x, *small = y;
    int bsign = x->sign, ssign = ysign;
    if (x->exp < y->exp || (x->exp == y->exp && cmp_mant(x->mant, y->mant) < 0)) {
        big = y;
        small = x;
        bsign = ysign;
        ssign = x->sign;
    }
    uint16_t m[W];
    memcpy(m, small->mant, sizeof m);
    for (int shift = big->exp - small->exp; shift > 0; shift--) {
        shr1(m, 0);
        if (mant_zero(m))
            break;
    }
    d->type = NB_FPF_NORMAL;
    d->sign = (uint8_t)bsign;
    d->exp = big->exp;
    if (bsign == ssign) {
        if (add_mant(d->mant, big->mant, m)) {
            shr1(d->mant, 1);
            d->exp++;
        }
    } else {
        sub_mant(d->mant, big->mant, m);
        normalize(d);
    }
}

void nb_fpf_add(const struct nb_fpf *x, const struct nb_fpf *y, struct nb_fpf *d)
{
    addsub(x, y, 0, d);
}

void nb_fpf_sub(const struct nb_fpf *x, const struct nb_fpf *y, struct nb_fpf *d)
{
    addsub(x, y, 1, d);
}

void nb_fpf_mul(const struct nb_fpf *x, const struct nb_fpf *y, struct nb_fpf *d)
{
    int sign = x->sign ^ y->sign;
    if (x->type == NB_FPF_NAN || y->type == NB_FPF_NAN
        || (x->type == NB_FPF_INF && y->type == NB_FPF_ZERO)
        || (x->type == NB_FPF_ZERO && y->type == NB_FPF_INF)) {
        set_special(d, NB_FPF_NAN, 0);
        return;
    }
    if (x->type == NB_FPF_INF || y->type == NB_FPF_INF) {
        set_special(d, NB_FPF_INF, sign);
        return;
    }
    if (x->type == NB_FPF_ZERO || y->type == NB_FPF_ZERO) {
        set_zero(d, sign);
        return;
    }
    /* Shift and add: for each bit of y from the bottom, add x into the
     * high half when it is set, then shift the 128-bit product right. */
    uint16_t hi[W] = { 0 }, lo[W] = { 0 }, ym[W];
    memcpy(ym, y->mant, sizeof ym);
    for (int bit = 0; bit < 16 * W; bit++) {
        int carry = 0;
        if (shr1(ym, 0))
            carry = add_mant(hi, hi, x->mant);
        int out = shr1(hi, carry);
        shr1(lo, out);
    }
    d->type = NB_FPF_NORMAL;
    d->sign = (uint8_t)sign;
    d->exp = (int16_t)(x->exp + y->exp);
    memcpy(d->mant, hi, sizeof hi);
    if (!(d->mant[0] & 0x8000)) {       /* 0.1xx * 0.1xx >= 0.01 */
        shl1(d->mant);
        d->mant[W - 1] |= (uint16_t)(lo[0] >> 15);
        d->exp--;
    }
}

void nb_fpf_div(const struct nb_fpf *x, const struct nb_fpf *y, struct nb_fpf *d)
{
    int sign = x->sign ^ y->sign;
    if (x->type == NB_FPF_NAN || y->type == NB_FPF_NAN
        || (x->type == NB_FPF_ZERO && y->type == NB_FPF_ZERO)
        || (x->type == NB_FPF_INF && y->type == NB_FPF_INF)) {
        set_special(d, NB_FPF_NAN, 0);
        return;
    }
    if (x->type == NB_FPF_INF || y->type == NB_FPF_ZERO) {
        set_special(d, NB_FPF_INF, sign);
        return;
    }
    if (x->type == NB_FPF_ZERO || y->type == NB_FPF_INF) {
        set_zero(d, sign);
        return;
    }
    /* Restoring division, one quotient bit per step; `top` is the bit
     * shifted out of the remainder, so rem can reach 2 * divisor. */
    uint16_t rem[W], q[W] = { 0 };
    memcpy(rem, x->mant, sizeof rem);
    int top = 0;
    int16_t exp = (int16_t)(x->exp - y->exp + 1);
    for (int bit = 0; bit < 16 * W; bit++) {
        int qbit = top || cmp_mant(rem, y->mant) >= 0;
        if (qbit)
            sub_mant(rem, rem, y->mant);
        shl1(q);
        q[W - 1] |= (uint16_t)qbit;
        top = shl1(rem);
    }
    d->type = NB_FPF_NORMAL;
    d->sign = (uint8_t)sign;
    d->exp = exp;
    memcpy(d->mant, q, sizeof q);
    normalize(d);
}

double nb_fpf_to_double(const struct nb_fpf *x)
{
    switch (x->type) {
    case NB_FPF_ZERO: return x->sign ? -0.0 : 0.0;
    case NB_FPF_INF: return x->sign ? -INFINITY : INFINITY;
    case NB_FPF_NAN: return NAN;
    default: break;
    }
    double m = 0;
    for (int i = 0; i < W; i++)
        m = m * 65536.0 + x->mant[i];
    m = ldexp(m, x->exp - 16 * W);
    return x->sign ? -m : m;
}

/* --- the workload -------------------------------------------------------- */

/* Operation of element i: 4 adds, 4 subtracts, 5 multiplies, 3 divides. */
static const uint8_t op_of[16] = { 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3 };

struct emf {
    size_t loops;
    struct nb_fpf a[NB_EMF_SIZE], b[NB_EMF_SIZE], c[NB_EMF_SIZE];
};

static void *emf_create(size_t units)
{
    struct emf *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->loops = units;
    struct nb_rng g;
    nb_rng_seed(&g, 13);
    for (size_t i = 0; i < NB_EMF_SIZE; i++) {
        struct nb_fpf num, den;
        nb_fpf_from_i32((int32_t)nb_rng_below(&g, 100001) - 50000, &num);
        nb_fpf_from_i32((int32_t)nb_rng_below(&g, 50000) + 1, &den);
        nb_fpf_div(&num, &den, &s->a[i]);
        nb_fpf_from_i32((int32_t)nb_rng_below(&g, 100001) - 50000, &num);
        nb_fpf_from_i32((int32_t)nb_rng_below(&g, 50000) + 1, &den);
        nb_fpf_div(&num, &den, &s->b[i]);
    }
    return s;
}

static void emf_destroy(void *p)
{
    free(p);
}

static void emf_prepare(void *p)
{
    struct emf *s = p;
    memset(s->c, 0, sizeof s->c);
}

static double emf_run(void *p)
{
    struct emf *s = p;
    for (size_t l = 0; l < s->loops; l++)
        for (size_t i = 0; i < NB_EMF_SIZE; i++)
            switch (op_of[i % 16]) {
            case 0: nb_fpf_add(&s->a[i], &s->b[i], &s->c[i]); break;
            case 1: nb_fpf_sub(&s->a[i], &s->b[i], &s->c[i]); break;
            case 2: nb_fpf_mul(&s->a[i], &s->b[i], &s->c[i]); break;
            default: nb_fpf_div(&s->a[i], &s->b[i], &s->c[i]); break;
            }
    return (double)s->loops;
}

static bool emf_check(void *p, char *why, size_t len)
{
    static const char *const names[] = { "+", "-", "*", "/" };
    struct emf *s = p;
    for (size_t i = 0; i < NB_EMF_SIZE; i++) {
        double a = nb_fpf_to_double(&s->a[i]), b = nb_fpf_to_double(&s->b[i]);
        double c = nb_fpf_to_double(&s->c[i]), want, scale;
        int op = op_of[i % 16];
        switch (op) {
        case 0: want = a + b; scale = fabs(a) + fabs(b); break;
        case 1: want = a - b; scale = fabs(a) + fabs(b); break;
        case 2: want = a * b; scale = fabs(want); break;
        default: want = a / b; scale = fabs(want); break;
        }
        if (!(fabs(c - want) <= 1e-14 * scale)) {
            snprintf(why, len, "element %zu: %.17g %s %.17g gave %.17g, expected %.17g",
                     i, a, names[op], b, c, want);
            return false;
        }
    }
    return true;
}

static void emf_corrupt(void *p)
{
    struct emf *s = p;
    s->c[8].exp++;
}

const struct nb_workload nb_fp_emulation = {
    .id = "fp_emulation",
    .what = "software floating point over 3 arrays of 3000 numbers; "
            "iterations = passes over the arrays",
    .unit_start = 1,
    .create = emf_create,
    .destroy = emf_destroy,
    .prepare = emf_prepare,
    .run = emf_run,
    .check = emf_check,
    .corrupt = emf_corrupt,
};
