/* nbench.h - the BYTEmark (nbench) workloads behind kernel "nbench".
 *
 * Private to benches/kernels/nbench*.c and tests/test_nbench.c. Each
 * workload is written for this project from BYTE's published description
 * of the test (BYTEmark documentation, release 2) with its documented
 * data sizes; nbench.c times them the BYTEmark way and reports
 * iterations per second.
 *
 * A workload works in "units": the thing nbench multiplies to make a
 * timed call long enough (arrays for the sorts, assignment and LU; loops
 * over a fixed buffer for FP emulation, IDEA, Huffman and the neural net;
 * coefficients for Fourier). create() allocates a state for `units`
 * units, prepare() reloads the inputs (not timed), run() is the timed
 * work and returns the iterations done in the guide's unit, check()
 * verifies the results of the last run(). */
#ifndef EVMBENCH_NBENCH_H
#define EVMBENCH_NBENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* BYTEmark's documented sizes. */
#define NB_NUMSORT_SIZE   8111u     /* 32-bit integers per array */
#define NB_STRSORT_SIZE   8111u     /* bytes of strings per array */
#define NB_STR_MIN        4u        /* string lengths, bytes */
#define NB_STR_MAX        80u
#define NB_EMF_SIZE       3000u     /* emulated floats per array */
#define NB_FOURIER_STEPS  200       /* trapezoids per coefficient */
#define NB_ASSIGN_N       101u      /* cost matrix is N x N */
#define NB_IDEA_SIZE      4000u     /* bytes encrypted and decrypted */
#define NB_HUFF_SIZE      5000u     /* bytes of text compressed */
#define NB_NNET_IN        35        /* 5 x 7 input pixels */
#define NB_NNET_MID       8
#define NB_NNET_OUT       8         /* 8-bit ASCII code */
#define NB_NNET_PATTERNS  10        /* letters A..J */
#define NB_LU_N           101u      /* LU matrix is N x N */

/* The deterministic generator every workload draws its data from. */
struct nb_rng {
    uint64_t s;
};
void nb_rng_seed(struct nb_rng *g, uint64_t seed);
uint32_t nb_rng_next(struct nb_rng *g);
uint32_t nb_rng_below(struct nb_rng *g, uint32_t n);   /* 0 .. n-1, n > 0 */

struct nb_workload {
    const char *id;         /* the guide's row slug */
    const char *what;       /* one line for the note: sizes, unit */
    size_t unit_start;      /* units of the first calibration call */
    size_t unit_bytes;      /* memory per unit (0: fixed-size state) */
    void *(*create)(size_t units);          /* NULL: out of memory */
    void (*destroy)(void *st);
    void (*prepare)(void *st);
    double (*run)(void *st);
    /* Writes a reason and returns false when the last run is wrong. */
    bool (*check)(void *st, char *why, size_t len);
    /* Spoils the last run's results (tests of the failure path). */
    void (*corrupt)(void *st);
};

extern const struct nb_workload nb_numeric_sort, nb_string_sort,
    nb_fp_emulation, nb_fourier, nb_assignment, nb_idea, nb_huffman,
    nb_neural_net, nb_lu_decomposition;

/* The nine workloads in the guide's order. */
extern const struct nb_workload *const nb_workloads[];
extern const size_t nb_workload_count;

/* Test hook: make the next runs of workload `id` fail their check
 * (NB_FAULT_CHECK) or their allocation (NB_FAULT_NOMEM); NULL clears. */
enum nb_fault { NB_FAULT_NONE, NB_FAULT_CHECK, NB_FAULT_NOMEM };
void nbench_set_fault(const char *id, enum nb_fault fault);

/* --- building blocks, exposed for the unit tests ------------------------ */

/* Heapsorts n 32-bit integers in place. */
void nb_heapsort_i32(int32_t *a, size_t n);

/* Strings packed as [length byte][bytes] in buf, string k at off[k]. */
struct nb_strings {
    uint8_t *buf;
    uint32_t *off;
    size_t n;               /* number of strings */
    size_t used;            /* bytes in use */
};
void nb_strsort(struct nb_strings *s);
bool nb_strings_sorted(const struct nb_strings *s);

/* Textbook assignment method on an n x n cost matrix (modified);
 * col[i] receives row i's column. Returns false if it gave up. */
bool nb_assign_solve(int32_t *cost, size_t n, uint8_t *mark, int16_t *col);
/* Minimum total cost by shortest augmenting paths (the check). */
int64_t nb_assign_optimum(const int32_t *cost, size_t n);

/* IDEA: 52 subkeys from a 128-bit key, their inverse, one 64-bit block
 * as four 16-bit words (the first word most significant). */
void nb_idea_key(const uint16_t key[8], uint16_t ek[52]);
void nb_idea_invert(const uint16_t ek[52], uint16_t dk[52]);
void nb_idea_block(const uint16_t k[52], const uint16_t in[4], uint16_t out[4]);

/* Huffman round trip of n bytes; returns compressed bits, 0 on error.
 * comp must hold n * 4 bytes. */
size_t nb_huff_roundtrip(const uint8_t *in, size_t n, uint8_t *comp, uint8_t *out);

/* Emulated floating point: 64-bit mantissa in four 16-bit words. */
struct nb_fpf {
    uint8_t type;           /* NB_FPF_ZERO, NB_FPF_NORMAL, ... */
    uint8_t sign;
    int16_t exp;            /* value = 0.mant x 2^exp */
    uint16_t mant[4];       /* mant[0] most significant */
};
enum { NB_FPF_ZERO, NB_FPF_NORMAL, NB_FPF_INF, NB_FPF_NAN };
void nb_fpf_from_i32(int32_t v, struct nb_fpf *d);
void nb_fpf_add(const struct nb_fpf *x, const struct nb_fpf *y, struct nb_fpf *d);
void nb_fpf_sub(const struct nb_fpf *x, const struct nb_fpf *y, struct nb_fpf *d);
void nb_fpf_mul(const struct nb_fpf *x, const struct nb_fpf *y, struct nb_fpf *d);
void nb_fpf_div(const struct nb_fpf *x, const struct nb_fpf *y, struct nb_fpf *d);
double nb_fpf_to_double(const struct nb_fpf *x);

/* Fourier coefficients of (x+1)^x on [0,2]: a[0..n-1], b[1..n-1]. */
void nb_fourier_coeffs(double *a, double *b, size_t n);

/* Solves A x = b (n x n, row-major, overwritten with its LU factors);
 * b becomes x. Returns false if A is singular. */
bool nb_lu_solve(double *a, double *b, size_t n, double *scale, size_t *perm);

/* Trains the network from fresh random weights until every output of
 * every pattern is within 0.1 of its target; returns the passes over
 * the patterns, 0 if it did not learn within `max_passes`. */
struct nb_nnet;
struct nb_nnet *nb_nnet_new(void);
void nb_nnet_free(struct nb_nnet *n);
unsigned nb_nnet_learn(struct nb_nnet *n, struct nb_rng *g, unsigned max_passes);
/* The letter (index into the patterns) the trained net reads best for
 * pattern p's pixels, by comparing its outputs with every target. */
int nb_nnet_classify(const struct nb_nnet *n, int p);

#endif
