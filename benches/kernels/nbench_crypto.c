/* nbench_crypto.c - BYTEmark IDEA encryption and Huffman compression.
 *
 * IDEA: the block cipher as Schneier's "Applied Cryptography" describes
 * it (8 rounds of XOR, addition mod 2^16 and multiplication mod 2^16+1 on
 * 16-bit words, 128-bit key, 64-bit blocks). An iteration encrypts a
 * 4000-byte buffer into a second one and decrypts that into a third,
 * which must equal the first.
 * Huffman: an iteration counts the byte frequencies of a 5000-byte text,
 * builds the Huffman tree bottom up, compresses the text a bit at a time
 * (walking from each leaf up to the root) and decompresses it a bit at a
 * time (walking from the root down), which must give the text back. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benches/kernels/nbench.h"

/* --- IDEA --------------------------------------------------------------- */

/* Multiplication modulo 65537, where 0 stands for 65536. */
static inline uint16_t idea_mul(uint16_t a, uint16_t b)
{
    if (a == 0)
        return (uint16_t)(65537u - b);
    if (b == 0)
        return (uint16_t)(65537u - a);
    uint32_t p = (uint32_t)a * b;
    uint32_t lo = p & 0xffffu, hi = p >> 16;
    return (uint16_t)(lo - hi + (lo < hi));
}

/* Multiplicative inverse modulo 65537 (x^65535), 0 standing for 65536. */
static uint16_t idea_inv(uint16_t x)
{
    uint64_t base = x ? x : 65536u, r = 1;
    for (unsigned e = 65535; e; e >>= 1) {
        if (e & 1)
            r = r * base % 65537u;
        base = base * base % 65537u;
    }
    return (uint16_t)(r == 65536u ? 0 : r);
}

void nb_idea_key(const uint16_t key[8], uint16_t ek[52])
{
    /* The 128-bit key, rotated left 25 bits for every 8 subkeys. */
    uint64_t hi = 0, lo = 0;
    for (int i = 0; i < 4; i++) {
        hi = hi << 16 | key[i];
        lo = lo << 16 | key[i + 4];
    }
    for (int i = 0; i < 52; i++) {
        if (i && i % 8 == 0) {
            uint64_t nhi = hi << 25 | lo >> 39, nlo = lo << 25 | hi >> 39;
            hi = nhi;
            lo = nlo;
        }
        int w = i % 8;
        ek[i] = (uint16_t)((w < 4 ? hi >> (48 - 16 * w) : lo >> (48 - 16 * (w - 4))) & 0xffff);
    }
}

void nb_idea_invert(const uint16_t ek[52], uint16_t dk[52])
{
    /* Round r of decryption undoes round 9 - r of encryption. */
    for (int r = 0; r <= 8; r++) {
        const uint16_t *e = ek + 48 - 6 * r;
        uint16_t *d = dk + 6 * r;
        bool outer = r == 0 || r == 8;
        d[0] = idea_inv(e[0]);
        d[1] = (uint16_t)-e[outer ? 1 : 2];
        d[2] = (uint16_t)-e[outer ? 2 : 1];
        d[3] = idea_inv(e[3]);
        if (r < 8) {
            d[4] = e[-2];
            d[5] = e[-1];
        }
    }
}

void nb_idea_block(const uint16_t k[52], const uint16_t in[4], uint16_t out[4])
{
    uint16_t x1 = in[0], x2 = in[1], x3 = in[2], x4 = in[3];
    for (int r = 0; r < 8; r++, k += 6) {
        uint16_t a = idea_mul(x1, k[0]);
        uint16_t b = (uint16_t)(x2 + k[1]);
        uint16_t c = (uint16_t)(x3 + k[2]);
        uint16_t d = idea_mul(x4, k[3]);
        uint16_t e = idea_mul((uint16_t)(a ^ c), k[4]);
        uint16_t f = idea_mul((uint16_t)((b ^ d) + e), k[5]);
        e = (uint16_t)(e + f);
        x1 = (uint16_t)(a ^ f);
        x2 = (uint16_t)(c ^ f);     /* the middle words change places */
        x3 = (uint16_t)(b ^ e);
        x4 = (uint16_t)(d ^ e);
    }
    out[0] = idea_mul(x1, k[0]);
    out[1] = (uint16_t)(x3 + k[1]);
    out[2] = (uint16_t)(x2 + k[2]);
    out[3] = idea_mul(x4, k[3]);
}

#define IDEA_WORDS (NB_IDEA_SIZE / 2)

/* The buffers as 16-bit words, IDEA's unit, in the CPU's byte order. */
struct idea {
    size_t loops;
    uint16_t ek[52], dk[52];
    uint16_t plain[IDEA_WORDS], crypt[IDEA_WORDS], plain2[IDEA_WORDS];
};

static void *idea_create(size_t units)
{
    struct idea *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->loops = units;
    struct nb_rng g;
    nb_rng_seed(&g, 3);
    uint16_t key[8];
    for (int i = 0; i < 8; i++)
        key[i] = (uint16_t)nb_rng_next(&g);
    nb_idea_key(key, s->ek);
    nb_idea_invert(s->ek, s->dk);
    for (size_t i = 0; i < IDEA_WORDS; i++)
        s->plain[i] = (uint16_t)nb_rng_next(&g);
    return s;
}

static void idea_destroy(void *p)
{
    free(p);
}

static void idea_prepare(void *p)
{
    struct idea *s = p;
    memset(s->crypt, 0, sizeof s->crypt);
    memset(s->plain2, 0, sizeof s->plain2);
}

static double idea_run(void *p)
{
    struct idea *s = p;
    for (size_t l = 0; l < s->loops; l++) {
        for (size_t j = 0; j < IDEA_WORDS; j += 4)
            nb_idea_block(s->ek, s->plain + j, s->crypt + j);
        for (size_t j = 0; j < IDEA_WORDS; j += 4)
            nb_idea_block(s->dk, s->crypt + j, s->plain2 + j);
    }
    return (double)s->loops;
}

static bool idea_check(void *p, char *why, size_t len)
{
    struct idea *s = p;
    if (memcmp(s->crypt, s->plain, sizeof s->plain) == 0) {
        snprintf(why, len, "the ciphertext equals the plaintext");
        return false;
    }
    for (size_t i = 0; i < IDEA_WORDS; i++)
        if (s->plain2[i] != s->plain[i]) {
            snprintf(why, len, "decryption differs from the plaintext at word %zu", i);
            return false;
        }
    return true;
}

static void idea_corrupt(void *p)
{
    struct idea *s = p;
    s->plain2[IDEA_WORDS / 2] ^= 0x40;
}

const struct nb_workload nb_idea = {
    .id = "idea",
    .what = "IDEA encryption and decryption of 4000 bytes; iterations = round trips",
    .unit_start = 1,
    .create = idea_create,
    .destroy = idea_destroy,
    .prepare = idea_prepare,
    .run = idea_run,
    .check = idea_check,
    .corrupt = idea_corrupt,
};

/* --- Huffman ------------------------------------------------------------ */

#define HUFF_NODES 512
#define HUFF_MAX_BITS 32    /* longer codes: refuse (text has ~40 symbols) */

struct huff_node {
    uint32_t freq;
    int16_t parent, left, right;    /* -1: none */
};

static inline void put_bit(uint8_t *buf, size_t at, int bit)
{
    if (bit)
        buf[at >> 3] = (uint8_t)(buf[at >> 3] | (1u << (at & 7)));
    else
        buf[at >> 3] = (uint8_t)(buf[at >> 3] & ~(1u << (at & 7)));
}

static inline int get_bit(const uint8_t *buf, size_t at)
{
    return buf[at >> 3] >> (at & 7) & 1;
}

size_t nb_huff_roundtrip(const uint8_t *in, size_t n, uint8_t *comp, uint8_t *out)
{
    struct huff_node tree[HUFF_NODES];
    bool live[HUFF_NODES];
    size_t nodes = 256, nlive = 0;

    for (size_t i = 0; i < HUFF_NODES; i++) {
        tree[i] = (struct huff_node) { 0, -1, -1, -1 };
        live[i] = false;
    }
    for (size_t i = 0; i < n; i++)
        tree[in[i]].freq++;
    for (size_t c = 0; c < 256; c++)
        if (tree[c].freq) {
            live[c] = true;
            nlive++;
        }
    if (nlive == 0)
        return 0;

    /* Join the two rarest live nodes until one root is left. */
    int root = -1;
    if (nlive == 1) {
        for (int c = 0; c < 256; c++)
            if (live[c])
                root = c;
    }
    while (nlive > 1) {
        int a = -1, b = -1;
        for (int k = 0; k < (int)nodes; k++) {
            if (!live[k])
                continue;
            if (a < 0 || tree[k].freq < tree[a].freq) {
                b = a;
                a = k;
            } else if (b < 0 || tree[k].freq < tree[b].freq) {
                b = k;
            }
        }
        int m = (int)nodes++;
        tree[m].freq = tree[a].freq + tree[b].freq;
        tree[m].left = (int16_t)a;
        tree[m].right = (int16_t)b;
        tree[a].parent = tree[b].parent = (int16_t)m;
        live[a] = live[b] = false;
        live[m] = true;
        nlive--;
        root = m;
    }

    /* Compress: climb from the leaf, then write the path root first. */
    size_t bits = 0;
    for (size_t i = 0; i < n; i++) {
        uint8_t path[HUFF_MAX_BITS];
        int depth = 0;
        for (int k = in[i]; tree[k].parent >= 0; k = tree[k].parent) {
            if (depth == HUFF_MAX_BITS)
                return 0;
            path[depth++] = (uint8_t)(tree[tree[k].parent].right == k);
        }
        if (depth == 0)         /* a one-symbol text still needs a bit */
            path[depth++] = 0;
        while (depth)
            put_bit(comp, bits++, path[--depth]);
    }

    /* Decompress: walk down from the root, a bit at a time. */
    size_t at = 0;
    for (size_t i = 0; i < n; i++) {
        int k = root;
        if (tree[k].left < 0)
            at++;
        while (tree[k].left >= 0) {
            if (at >= bits)
                return 0;
            k = get_bit(comp, at++) ? tree[k].right : tree[k].left;
        }
        out[i] = (uint8_t)k;
    }
    return bits;
}

struct huff {
    size_t loops, bits;
    uint8_t text[NB_HUFF_SIZE], out[NB_HUFF_SIZE];
    uint8_t comp[NB_HUFF_SIZE * HUFF_MAX_BITS / 8];
};

/* Words for the text, BYTE's test compresses English-like text too. */
static const char *const huff_words[] = {
    "the", "of", "and", "to", "in", "is", "that", "for", "it", "as", "was", "with",
    "be", "by", "on", "not", "he", "this", "are", "or", "his", "from", "at", "which",
    "but", "have", "an", "they", "you", "were", "their", "one", "all", "we", "can",
    "her", "has", "there", "been", "if", "more", "when", "will", "would", "who", "so",
    "no", "benchmark", "processor", "memory", "cache", "compiler", "algorithm",
    "compression", "tree", "bits", "system", "result", "test", "number", "array",
    "floating", "point", "integer", "byte", "magazine", "performance", "board",
};

static void huff_text(uint8_t *t, size_t n, struct nb_rng *g)
{
    size_t at = 0, in_sentence = 0;
    while (at < n) {
        const char *w = huff_words[nb_rng_below(g, sizeof huff_words / sizeof *huff_words)];
        for (size_t i = 0; w[i] && at < n; i++)
            t[at++] = (uint8_t)(in_sentence == 0 && i == 0 ? w[i] - 'a' + 'A' : w[i]);
        if (at < n && ++in_sentence > 4 + nb_rng_below(g, 10)) {
            t[at++] = '.';
            in_sentence = 0;
            if (at < n && nb_rng_below(g, 8) == 0)
                t[at++] = '\n';
            else if (at < n)
                t[at++] = ' ';
        } else if (at < n) {
            t[at++] = nb_rng_below(g, 12) == 0 ? ',' : ' ';
            if (t[at - 1] == ',' && at < n)
                t[at++] = ' ';
        }
    }
}

static void *huff_create(size_t units)
{
    struct huff *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->loops = units;
    struct nb_rng g;
    nb_rng_seed(&g, 13);
    huff_text(s->text, NB_HUFF_SIZE, &g);
    return s;
}

static void huff_destroy(void *p)
{
    free(p);
}

static void huff_prepare(void *p)
{
    struct huff *s = p;
    memset(s->out, 0, sizeof s->out);
}

static double huff_run(void *p)
{
    struct huff *s = p;
    size_t bits = 0;
    for (size_t l = 0; l < s->loops; l++)
        bits = nb_huff_roundtrip(s->text, NB_HUFF_SIZE, s->comp, s->out);
    s->bits = bits;
    return (double)s->loops;
}

static bool huff_check(void *p, char *why, size_t len)
{
    struct huff *s = p;
    if (s->bits == 0 || s->bits >= 8 * NB_HUFF_SIZE) {
        snprintf(why, len, "compression gave %zu bits for %u bytes", s->bits, NB_HUFF_SIZE);
        return false;
    }
    for (size_t i = 0; i < NB_HUFF_SIZE; i++)
        if (s->out[i] != s->text[i]) {
            snprintf(why, len, "decompressed text differs from the input at byte %zu", i);
            return false;
        }
    return true;
}

static void huff_corrupt(void *p)
{
    struct huff *s = p;
    s->out[NB_HUFF_SIZE - 1] ^= 1;
}

const struct nb_workload nb_huffman = {
    .id = "huffman",
    .what = "Huffman tree, compression and decompression of 5000 bytes of text; "
            "iterations = round trips",
    .unit_start = 1,
    .create = huff_create,
    .destroy = huff_destroy,
    .prepare = huff_prepare,
    .run = huff_run,
    .check = huff_check,
    .corrupt = huff_corrupt,
};
