/* gunzip.c - one gzip member (RFC 1952) holding deflate data (RFC 1951).
 *
 * Written for the packed built-in data: a few hundred kilobytes unpacked
 * once at start, so clarity wins over speed. Codes are read a bit at a
 * time against the canonical Huffman ranges; there are no lookup tables
 * to get wrong. Every error stops the decoder at once and keeps the first
 * reason. */
#include "config.h"
#include "common/gunzip.h"

#include <string.h>

#define MAXBITS 15          /* the longest Huffman code */
#define NLITLEN 288         /* literal/length symbols, 286 and 287 unused */
#define NDIST 30

struct inflater {
    const unsigned char *in, *in_end;
    unsigned char *out;
    size_t outpos, outlen;
    uint32_t bitbuf;        /* bits read ahead, least significant first */
    unsigned nbits;         /* how many; always < 8 between calls */
    const char *why;        /* the first error; once set, nothing more is read */
};

static void fail(struct inflater *s, const char *why)
{
    if (!s->why)
        s->why = why;
}

/* The next n bits (n <= 16) of the stream, the first one in the lowest
 * place (RFC 1951 3.1.1). Past the end: 0, and the decoder fails. */
static unsigned read_bits(struct inflater *s, unsigned n)
{
    while (s->nbits < n) {
        if (s->in == s->in_end) {
            fail(s, "the data end too soon");
            return 0;
        }
        s->bitbuf |= (uint32_t)*s->in++ << s->nbits;
        s->nbits += 8;
    }
    unsigned v = s->bitbuf & ((1u << n) - 1);
    s->bitbuf >>= n;
    s->nbits -= n;
    return v;
}

/* A canonical Huffman code: how many codes each length has, and the
 * symbols in code order (RFC 1951 3.2.2). */
struct huffman {
    uint16_t count[MAXBITS + 1];
    uint16_t symbol[NLITLEN];
};

/* Builds h from length[0..n) (0: the symbol is not used). False when the
 * lengths ask for more codes than their bits allow. A code with room left
 * over is accepted (a block with one distance code has one); reading an
 * unassigned code then fails. */
static bool huffman_build(struct huffman *h, const uint8_t *length, unsigned n)
{
    memset(h->count, 0, sizeof h->count);
    for (unsigned i = 0; i < n; i++)
        h->count[length[i]]++;
    h->count[0] = 0;
    int room = 1;
    for (unsigned len = 1; len <= MAXBITS; len++) {
        room = room * 2 - h->count[len];
        if (room < 0)
            return false;
    }
    uint16_t next[MAXBITS + 1];
    next[1] = 0;
    for (unsigned len = 1; len < MAXBITS; len++)
        next[len + 1] = next[len] + h->count[len];
    for (unsigned i = 0; i < n; i++)
        if (length[i])
            h->symbol[next[length[i]]++] = (uint16_t)i;
    return true;
}

/* One symbol coded with h. The codes of one length are consecutive
 * numbers, and the first code of length L+1 is twice the number after the
 * last code of length L; so the code is read most significant bit first
 * and tested against each length's range as it grows. -1 on failure. */
static int huffman_read(struct inflater *s, const struct huffman *h)
{
    unsigned code = 0, first = 0, index = 0;
    for (unsigned len = 1; len <= MAXBITS; len++) {
        code |= read_bits(s, 1);
        if (s->why)
            return -1;
        unsigned count = h->count[len];
        if (code - first < count)
            return h->symbol[index + (code - first)];
        index += count;
        first = (first + count) << 1;
        code <<= 1;
    }
    fail(s, "a Huffman code is not assigned");
    return -1;
}

/* A stored block: skip to the byte boundary, LEN, its complement NLEN, then
 * LEN bytes as they are. */
static void inflate_stored(struct inflater *s)
{
    s->bitbuf = 0;          /* fewer than 8 bits: the rest of the byte */
    s->nbits = 0;
    if (s->in_end - s->in < 4) {
        fail(s, "the data end too soon");
        return;
    }
    unsigned len = s->in[0] | (unsigned)s->in[1] << 8;
    unsigned nlen = s->in[2] | (unsigned)s->in[3] << 8;
    s->in += 4;
    if (len != (~nlen & 0xffffu)) {
        fail(s, "a stored block's length is damaged");
        return;
    }
    if ((size_t)(s->in_end - s->in) < len) {
        fail(s, "the data end too soon");
        return;
    }
    if (s->outlen - s->outpos < len) {
        fail(s, "the data are longer than expected");
        return;
    }
    memcpy(s->out + s->outpos, s->in, len);
    s->outpos += len;
    s->in += len;
}

/* Lengths 3..258 and distances 1..32768: a base and extra bits to add. */
static const uint16_t length_base[29] = {
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
    35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258 };
static const uint8_t length_extra[29] = {
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2,
    3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0 };
static const uint16_t dist_base[NDIST] = {
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193,
    257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577 };
static const uint8_t dist_extra[NDIST] = {
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6,
    7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13 };

/* The symbols of a compressed block up to its end code: literals, and
 * (length, distance) pairs that copy earlier output (they may overlap). */
static void inflate_codes(struct inflater *s, const struct huffman *lit,
                          const struct huffman *dist)
{
    for (;;) {
        int sym = huffman_read(s, lit);
        if (sym < 0 || sym == 256)
            return;
        if (sym < 256) {
            if (s->outpos == s->outlen) {
                fail(s, "the data are longer than expected");
                return;
            }
            s->out[s->outpos++] = (unsigned char)sym;
            continue;
        }
        sym -= 257;
        if (sym >= 29) {
            fail(s, "a length code is out of range");
            return;
        }
        size_t len = length_base[sym] + read_bits(s, length_extra[sym]);
        int d = huffman_read(s, dist);
        if (d < 0)
            return;
        if (d >= NDIST) {
            fail(s, "a distance code is out of range");
            return;
        }
        size_t back = dist_base[d] + read_bits(s, dist_extra[d]);
        if (s->why)
            return;
        if (back > s->outpos) {
            fail(s, "a distance reaches before the start of the data");
            return;
        }
        if (len > s->outlen - s->outpos) {
            fail(s, "the data are longer than expected");
            return;
        }
        for (size_t i = 0; i < len; i++, s->outpos++)
            s->out[s->outpos] = s->out[s->outpos - back];
    }
}

/* A block with the fixed codes of RFC 1951 3.2.6. */
static void inflate_fixed(struct inflater *s)
{
    uint8_t length[NLITLEN];
    unsigned i = 0;
    for (; i < 144; i++)
        length[i] = 8;
    for (; i < 256; i++)
        length[i] = 9;
    for (; i < 280; i++)
        length[i] = 7;
    for (; i < NLITLEN; i++)
        length[i] = 8;
    struct huffman lit, dist;
    huffman_build(&lit, length, NLITLEN);
    for (i = 0; i < NDIST; i++)
        length[i] = 5;
    huffman_build(&dist, length, NDIST);
    inflate_codes(s, &lit, &dist);
}

/* A block with its own codes (RFC 1951 3.2.7): the code lengths are
 * themselves Huffman-coded, with runs. */
static void inflate_dynamic(struct inflater *s)
{
    static const uint8_t order[19] = { 16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15 };
    unsigned nlit = read_bits(s, 5) + 257;
    unsigned ndist = read_bits(s, 5) + 1;
    unsigned nclen = read_bits(s, 4) + 4;
    if (s->why)
        return;
    if (nlit > 286 || ndist > NDIST) {
        fail(s, "a block header counts too many codes");
        return;
    }
    uint8_t clen[19] = { 0 };
    for (unsigned i = 0; i < nclen; i++)
        clen[order[i]] = (uint8_t)read_bits(s, 3);
    struct huffman lencode;
    if (!huffman_build(&lencode, clen, 19)) {
        fail(s, "a block's code-length code is over-subscribed");
        return;
    }
    uint8_t length[286 + NDIST] = { 0 };
    unsigned n = 0;
    while (n < nlit + ndist) {
        int sym = huffman_read(s, &lencode);
        if (sym < 0)
            return;
        if (sym < 16) {
            length[n++] = (uint8_t)sym;
            continue;
        }
        uint8_t value = 0;
        unsigned repeat;
        if (sym == 16) {
            if (n == 0) {
                fail(s, "a length repeat has nothing to repeat");
                return;
            }
            value = length[n - 1];
            repeat = 3 + read_bits(s, 2);
        } else if (sym == 17) {
            repeat = 3 + read_bits(s, 3);
        } else {
            repeat = 11 + read_bits(s, 7);
        }
        if (s->why)
            return;
        if (n + repeat > nlit + ndist) {
            fail(s, "a length repeat runs past the last code");
            return;
        }
        while (repeat--)
            length[n++] = value;
    }
    if (length[256] == 0) {
        fail(s, "a block has no end-of-block code");
        return;
    }
    struct huffman lit, dist;
    if (!huffman_build(&lit, length, nlit) || !huffman_build(&dist, length + nlit, ndist)) {
        fail(s, "a block's Huffman code is over-subscribed");
        return;
    }
    inflate_codes(s, &lit, &dist);
}

static uint32_t le32(const unsigned char *p)
{
    return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Skips a zero-terminated header field. */
static void skip_string(struct inflater *s)
{
    const unsigned char *nul = memchr(s->in, 0, (size_t)(s->in_end - s->in));
    if (!nul) {
        fail(s, "the data end too soon");
        return;
    }
    s->in = nul + 1;
}

/* The member header (RFC 1952 2.3): magic, method 8, the optional fields
 * the flags announce (skipped; the header CRC is checked). */
static void read_header(struct inflater *s)
{
    const unsigned char *start = s->in;
    if (s->in_end - s->in < 10) {
        fail(s, "the data end too soon");
        return;
    }
    if (start[0] != 0x1f || start[1] != 0x8b) {
        fail(s, "this is not gzip data");
        return;
    }
    if (start[2] != 8) {
        fail(s, "the compression method is not deflate");
        return;
    }
    unsigned flags = start[3];
    if (flags & 0xe0) {
        fail(s, "reserved header flags are set");
        return;
    }
    s->in += 10;
    if (flags & 0x04) {                         /* FEXTRA */
        if (s->in_end - s->in < 2) {
            fail(s, "the data end too soon");
            return;
        }
        size_t xlen = s->in[0] | (size_t)s->in[1] << 8;
        s->in += 2;
        if ((size_t)(s->in_end - s->in) < xlen) {
            fail(s, "the data end too soon");
            return;
        }
        s->in += xlen;
    }
    if (flags & 0x08)                           /* FNAME */
        skip_string(s);
    if (!s->why && (flags & 0x10))              /* FCOMMENT */
        skip_string(s);
    if (!s->why && (flags & 0x02)) {            /* FHCRC */
        if (s->in_end - s->in < 2) {
            fail(s, "the data end too soon");
            return;
        }
        unsigned want = s->in[0] | (unsigned)s->in[1] << 8;
        if ((crc32_update(0, start, (size_t)(s->in - start)) & 0xffffu) != want) {
            fail(s, "the header CRC does not match");
            return;
        }
        s->in += 2;
    }
}

bool gunzip(const unsigned char *in, size_t inlen, unsigned char *out, size_t outlen,
            const char **why)
{
    struct inflater s = { .in = in, .in_end = in + inlen, .out = out, .outlen = outlen };
    read_header(&s);
    bool last = false;
    while (!s.why && !last) {
        last = read_bits(&s, 1);
        unsigned type = read_bits(&s, 2);
        if (s.why)
            break;
        if (type == 0)
            inflate_stored(&s);
        else if (type == 1)
            inflate_fixed(&s);
        else if (type == 2)
            inflate_dynamic(&s);
        else
            fail(&s, "a block has the reserved type 3");
    }
    if (!s.why && s.outpos != s.outlen)
        fail(&s, "the data are shorter than expected");
    if (!s.why && s.in_end - s.in < 8)        /* the bits left are the last byte's padding */
        fail(&s, "the data end too soon");
    if (!s.why) {
        if (le32(s.in) != crc32_update(0, out, outlen))
            fail(&s, "the CRC-32 does not match");
        else if (le32(s.in + 4) != (uint32_t)outlen)
            fail(&s, "the length field does not match");
        else if (s.in_end - s.in > 8)
            fail(&s, "there are bytes after the gzip member");
    }
    if (why)
        *why = s.why;
    return !s.why;
}

uint32_t crc32_update(uint32_t crc, const unsigned char *buf, size_t n)
{
    /* the remainder of each byte value, made here (2048 steps, a few
     * microseconds): a byte at a time is 8 times faster than a bit at a
     * time over the 318 KB of built-in data, and the table needs no
     * shared state */
    uint32_t table[256];
    for (uint32_t v = 0; v < 256; v++) {
        uint32_t r = v;
        for (int k = 0; k < 8; k++)
            r = (r >> 1) ^ (0xedb88320u & (0u - (r & 1u)));
        table[v] = r;
    }
    crc = ~crc;
    for (size_t i = 0; i < n; i++)
        crc = (crc >> 8) ^ table[(crc ^ buf[i]) & 0xffu];
    return ~crc;
}
