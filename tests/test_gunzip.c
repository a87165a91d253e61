/* test_gunzip.c - the decoder of the packed built-in data, against what the
 * real gzip writes: every block type, the optional header fields, and
 * damage of every kind refused without reading or writing out of bounds. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/gunzip.h"
#include "common/util.h"
#include "data/embedded.h"
#include "suites.h"

static char dir[] = "/tmp/evmbench-gunzip-test-XXXXXX";

static void setup(void)
{
    strcpy(dir, "/tmp/evmbench-gunzip-test-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
    char *cmd = xasprintf("rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
    free(cmd);
}

/* data[0..n) as the gzip program packs it with options opts ("-9 -n");
 * *outn gets the size. */
static unsigned char *run_gzip(const unsigned char *data, size_t n, const char *opts,
                               size_t *outn)
{
    char *in = xasprintf("%s/in", dir), *out = xasprintf("%s/in.gz", dir);
    FILE *f = fopen(in, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(data, 1, n, f), n);
    ck_assert_int_eq(fclose(f), 0);
    char *cmd = xasprintf("gzip -f %s '%s'", opts, in);
    ck_assert_msg(system(cmd) == 0, "%s failed", cmd);
    size_t len = 0;
    unsigned char *gz = (unsigned char *)read_file(out, 1u << 24, &len);
    ck_assert_ptr_nonnull(gz);
    unlink(out);
    free(cmd);
    free(in);
    free(out);
    *outn = len;
    return gz;
}

/* The type of the first deflate block of a member whose header is 10 bytes. */
static unsigned first_block_type(const unsigned char *gz)
{
    return (gz[10] >> 1) & 3;
}

/* gunzip gives data[0..n) back from gz. */
static void check_unpacks(const unsigned char *gz, size_t gzn, const unsigned char *data,
                          size_t n)
{
    unsigned char *out = xmalloc(n);
    const char *why = NULL;
    ck_assert_msg(gunzip(gz, gzn, out, n, &why), "gunzip: %s", why ? why : "?");
    ck_assert_ptr_null(why);
    ck_assert(memcmp(out, data, n) == 0);
    free(out);
}

/* Text that compresses well: lines of a performance table. */
static unsigned char *table_text(size_t *n)
{
    struct strbuf sb;
    sb_init(&sb);
    for (int i = 0; i < 2000; i++)
        sb_addf(&sb, "| bw_mem %d KiB | rd %.2f MB/s | wr %.2f MB/s |\n", i * 4,
                   1000.0 + i * 1.37, 2000.0 - i * 0.71);
    *n = sb.len;
    return (unsigned char *)sb_steal(&sb);
}

START_TEST(crc32_of_the_check_string)
{
    /* the check value of CRC-32/ISO-HDLC */
    ck_assert_uint_eq(crc32_update(0, (const unsigned char *)"123456789", 9), 0xcbf43926u);
    /* in pieces as in one */
    uint32_t c = crc32_update(0, (const unsigned char *)"1234", 4);
    ck_assert_uint_eq(crc32_update(c, (const unsigned char *)"56789", 5), 0xcbf43926u);
    ck_assert_uint_eq(crc32_update(0, NULL, 0), 0);
}
END_TEST

START_TEST(every_block_type_gzip_writes)
{
    size_t gzn;
    /* a few bytes: the fixed codes */
    const unsigned char hello[] = "hello, board\n";
    unsigned char *gz = run_gzip(hello, sizeof hello - 1, "-9 -n", &gzn);
    ck_assert_uint_eq(first_block_type(gz), 1);
    check_unpacks(gz, gzn, hello, sizeof hello - 1);
    free(gz);

    /* a long table: codes of its own, lengths and distances */
    size_t tn;
    unsigned char *text = table_text(&tn);
    gz = run_gzip(text, tn, "-9 -n", &gzn);
    ck_assert_uint_eq(first_block_type(gz), 2);
    ck_assert_uint_lt(gzn, tn / 4);
    check_unpacks(gz, gzn, text, tn);
    free(gz);
    /* the fastest level too, and with the file name in the header */
    gz = run_gzip(text, tn, "-1", &gzn);
    ck_assert(gz[3] & 0x08);
    check_unpacks(gz, gzn, text, tn);
    free(gz);
    free(text);

    /* bytes that do not compress: stored blocks, more than one (64 KiB each) */
    size_t rn = 200000;
    unsigned char *noise = xmalloc(rn);
    uint32_t x = 2463534242u;
    for (size_t i = 0; i < rn; i++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        noise[i] = (unsigned char)x;
    }
    gz = run_gzip(noise, rn, "-9 -n", &gzn);
    ck_assert_uint_eq(first_block_type(gz), 0);
    check_unpacks(gz, gzn, noise, rn);
    free(gz);
    free(noise);

    /* one byte repeated: copies that overlap themselves (distance 1) */
    unsigned char run[100000];
    memset(run, 'z', sizeof run);
    gz = run_gzip(run, sizeof run, "-9 -n", &gzn);
    ck_assert_uint_lt(gzn, 1000);
    check_unpacks(gz, gzn, run, sizeof run);
    free(gz);

    /* nothing at all */
    gz = run_gzip((const unsigned char *)"", 0, "-9 -n", &gzn);
    check_unpacks(gz, gzn, (const unsigned char *)"", 0);
    free(gz);
}
END_TEST

/* The optional header fields gzip itself does not write: extra field,
 * comment and header CRC, built here as RFC 1952 lays them out. */
START_TEST(optional_header_fields)
{
    const unsigned char data[] = "uptime 3 days\n";
    size_t gzn;
    unsigned char *gz = run_gzip(data, sizeof data - 1, "-9 -n", &gzn);
    const unsigned char extra[] = { 4, 0, 'E', 'V', 1, 2 };   /* XLEN 4, one subfield */
    const char comment[] = "AM62x SK";
    size_t hn = 10 + sizeof extra + sizeof comment + 2;
    unsigned char *m = xmalloc(hn + gzn - 10);
    memcpy(m, gz, 10);
    m[3] = 0x04 | 0x10 | 0x02;
    memcpy(m + 10, extra, sizeof extra);
    memcpy(m + 10 + sizeof extra, comment, sizeof comment);
    uint32_t hcrc = crc32_update(0, m, hn - 2);
    m[hn - 2] = (unsigned char)hcrc;
    m[hn - 1] = (unsigned char)(hcrc >> 8);
    memcpy(m + hn, gz + 10, gzn - 10);
    size_t mn = hn + gzn - 10;
    check_unpacks(m, mn, data, sizeof data - 1);

    unsigned char out[sizeof data];
    const char *why = NULL;
    m[hn - 1] ^= 1;
    ck_assert(!gunzip(m, mn, out, sizeof data - 1, &why));
    ck_assert_str_eq(why, "the header CRC does not match");
    m[hn - 1] ^= 1;
    m[3] |= 0x20;
    ck_assert(!gunzip(m, mn, out, sizeof data - 1, &why));
    ck_assert_str_eq(why, "reserved header flags are set");
    free(m);
    free(gz);
}
END_TEST

/* Damage anywhere is refused, and nothing is read or written out of
 * bounds (the sanitizer build checks that): each byte changed, each
 * length cut, the wrong expected size, bytes after the member. */
START_TEST(damage_is_refused)
{
    size_t tn, gzn;
    unsigned char *text = table_text(&tn);
    tn = 3000;          /* a short piece keeps the byte-by-byte loop quick */
    unsigned char *gz = run_gzip(text, tn, "-9 -n", &gzn);
    ck_assert_uint_eq(first_block_type(gz), 2);
    unsigned char *out = xmalloc(tn + 1);
    const char *why;
    for (size_t i = 0; i < gzn; i++) {
        gz[i] ^= 0x55;
        why = NULL;
        bool ok = gunzip(gz, gzn, out, tn, &why);
        gz[i] ^= 0x55;
        if (i >= 4 && i < 10) {
            /* time stamp, extra flags and OS: nothing checks them */
            ck_assert_msg(ok, "byte %zu: %s", i, why);
            ck_assert(memcmp(out, text, tn) == 0);
        } else {
            ck_assert_msg(!ok, "byte %zu changed, still accepted", i);
            ck_assert_ptr_nonnull(why);
        }
    }
    for (size_t cut = 0; cut < gzn; cut++) {
        why = NULL;
        ck_assert_msg(!gunzip(gz, cut, out, tn, &why), "cut to %zu bytes, still accepted", cut);
        ck_assert_ptr_nonnull(why);
    }
    ck_assert(!gunzip(gz, gzn, out, tn - 1, &why));
    ck_assert_str_eq(why, "the data are longer than expected");
    ck_assert(!gunzip(gz, gzn, out, tn + 1, &why));
    ck_assert_str_eq(why, "the data are shorter than expected");
    unsigned char *longer = xmalloc(gzn + 1);
    memcpy(longer, gz, gzn);
    longer[gzn] = 0;
    ck_assert(!gunzip(longer, gzn + 1, out, tn, &why));
    ck_assert_str_eq(why, "there are bytes after the gzip member");
    free(longer);
    gz[gzn - 4] ^= 1;       /* the length field */
    ck_assert(!gunzip(gz, gzn, out, tn, &why));
    ck_assert_str_eq(why, "the length field does not match");
    gz[gzn - 4] ^= 1;
    gz[gzn - 8] ^= 1;       /* the CRC-32 */
    ck_assert(!gunzip(gz, gzn, out, tn, &why));
    ck_assert_str_eq(why, "the CRC-32 does not match");
    free(out);
    free(gz);
    free(text);
}
END_TEST

/* A bit writer for hand-made deflate data: fields go least significant
 * bit first, Huffman codes most significant bit first (RFC 1951 3.1.1). */
struct bitw {
    unsigned char buf[64];
    size_t nbits;
};

static void put_bits(struct bitw *w, unsigned value, unsigned n)
{
    for (unsigned i = 0; i < n; i++, w->nbits++)
        if (value >> i & 1)
            w->buf[w->nbits / 8] |= (unsigned char)(1u << (w->nbits % 8));
}

static void put_code(struct bitw *w, unsigned code, unsigned len)
{
    while (len--)
        put_bits(w, code >> len & 1, 1);
}

/* A member of a gzip header, the deflate bits of w, and a trailer for
 * empty data (only the decoder's error before the trailer matters). */
static size_t member(unsigned char *m, const struct bitw *w)
{
    static const unsigned char head[10] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3 };
    size_t n = (w->nbits + 7) / 8;
    memcpy(m, head, 10);
    memcpy(m + 10, w->buf, n);
    memset(m + 10 + n, 0, 8);
    return 10 + n + 8;
}

START_TEST(hand_made_bad_codes)
{
    unsigned char m[96], out[8];
    const char *why;
    /* a dynamic block whose code-length code gives 19 codes one bit each */
    struct bitw w = { { 0 }, 0 };
    put_bits(&w, 1, 1);
    put_bits(&w, 2, 2);
    put_bits(&w, 0, 5);
    put_bits(&w, 0, 5);
    put_bits(&w, 15, 4);
    for (int i = 0; i < 19; i++)
        put_bits(&w, 1, 3);
    ck_assert(!gunzip(m, member(m, &w), out, 0, &why));
    ck_assert_str_eq(why, "a block's code-length code is over-subscribed");
    /* a fixed block that starts with a copy: length 3 (code 257, 0000001),
     * distance 1 (code 0, 00000), with nothing before it */
    memset(&w, 0, sizeof w);
    put_bits(&w, 1, 1);
    put_bits(&w, 1, 2);
    put_code(&w, 1, 7);
    put_code(&w, 0, 5);
    ck_assert(!gunzip(m, member(m, &w), out, 3, &why));
    ck_assert_str_eq(why, "a distance reaches before the start of the data");
    /* the same after a literal 'a' (00110000 + 0x61): a run of three */
    memset(&w, 0, sizeof w);
    put_bits(&w, 1, 1);
    put_bits(&w, 1, 2);
    put_code(&w, 0x30 + 'a', 8);
    put_code(&w, 1, 7);
    put_code(&w, 0, 5);
    put_code(&w, 0, 7);                 /* end of block */
    size_t n = member(m, &w);
    uint32_t crc = crc32_update(0, (const unsigned char *)"aaaa", 4);
    for (int i = 0; i < 4; i++)
        m[n - 8 + i] = (unsigned char)(crc >> (8 * i));
    m[n - 4] = 4;
    ck_assert_msg(gunzip(m, n, out, 4, &why), "%s", why);
    ck_assert(memcmp(out, "aaaa", 4) == 0);
    /* length symbol 286 (11000110) is reserved */
    memset(&w, 0, sizeof w);
    put_bits(&w, 1, 1);
    put_bits(&w, 1, 2);
    put_code(&w, 0xc0 + 6, 8);
    ck_assert(!gunzip(m, member(m, &w), out, 3, &why));
    ck_assert_str_eq(why, "a length code is out of range");
}
END_TEST

/* Streams gzip never writes, made by hand: the reserved block type, a
 * stored block whose length and complement disagree, not gzip at all. */
START_TEST(hand_made_bad_streams)
{
    unsigned char out[16];
    const char *why;
    unsigned char m[] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3,
                          0x07,                         /* BFINAL 1, BTYPE 3 */
                          0, 0, 0, 0, 0, 0, 0, 0 };
    ck_assert(!gunzip(m, sizeof m, out, 0, &why));
    ck_assert_str_eq(why, "a block has the reserved type 3");
    /* a final stored block of 2 bytes "ok": LEN 2, NLEN ~2 */
    unsigned char s[] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3,
                          0x01, 2, 0, 0xfd, 0xff, 'o', 'k', 0, 0, 0, 0, 2, 0, 0, 0 };
    uint32_t crc = crc32_update(0, (const unsigned char *)"ok", 2);
    for (int i = 0; i < 4; i++)
        s[17 + i] = (unsigned char)(crc >> (8 * i));
    ck_assert_msg(gunzip(s, sizeof s, out, 2, &why), "%s", why);
    ck_assert(memcmp(out, "ok", 2) == 0);
    /* two stored blocks, the padding bits of each header byte set: they
     * are skipped, not read as the next block's header */
    unsigned char two[] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3,
                            0xf8, 1, 0, 0xfe, 0xff, 'o',
                            0xf9, 1, 0, 0xfe, 0xff, 'k', 0, 0, 0, 0, 2, 0, 0, 0 };
    for (int i = 0; i < 4; i++)
        two[22 + i] = (unsigned char)(crc >> (8 * i));
    ck_assert_msg(gunzip(two, sizeof two, out, 2, &why), "%s", why);
    ck_assert(memcmp(out, "ok", 2) == 0);
    s[13] = 0xfe;
    ck_assert(!gunzip(s, sizeof s, out, 2, &why));
    ck_assert_str_eq(why, "a stored block's length is damaged");
    s[0] = 'P';
    ck_assert(!gunzip(s, sizeof s, out, 2, &why));
    ck_assert_str_eq(why, "this is not gzip data");
    s[0] = 0x1f;
    s[2] = 7;
    ck_assert(!gunzip(s, sizeof s, out, 2, &why));
    ck_assert_str_eq(why, "the compression method is not deflate");
}
END_TEST

/* A pack as contrib/embed-data.sh writes it: the files unpack into one
 * table; sizes that disagree or a damaged member give no table. */
START_TEST(pack_unpacks_into_a_table)
{
    const unsigned char all[] = "{\"a\":1}vt100-bytes";
    size_t gzn;
    unsigned char *gz = run_gzip(all, sizeof all - 1, "-9 -n", &gzn);
    static const char *const paths[] = { "refs/a.json", "empty", "terminfo/v/vt100" };
    static const size_t sizes[] = { 7, 0, 11 };
    struct embedded_pack p = { gz, gzn, paths, sizes, 3, 18 };
    size_t n = 0;
    const char *why = NULL;
    struct embedded_file *t = embedded_unpack(&p, &n, &why);
    ck_assert_msg(t != NULL, "%s", why);
    ck_assert_uint_eq(n, 3);
    ck_assert_str_eq(t[0].path, "refs/a.json");
    ck_assert_uint_eq(t[0].size, 7);
    ck_assert(memcmp(t[0].data, "{\"a\":1}", 7) == 0);
    ck_assert_uint_eq(t[1].size, 0);
    ck_assert_str_eq(t[2].path, "terminfo/v/vt100");
    ck_assert(memcmp(t[2].data, "vt100-bytes", 11) == 0);
    ck_assert_ptr_null(t[3].path);
    free(t);

    p.total = 19;
    ck_assert_ptr_null(embedded_unpack(&p, &n, &why));
    ck_assert_str_eq(why, "the file sizes do not add up to the packed length");
    p.total = 18;
    gz[gzn - 8] ^= 0x80;
    ck_assert_ptr_null(embedded_unpack(&p, &n, &why));
    ck_assert_str_eq(why, "the CRC-32 does not match");
    free(gz);
}
END_TEST

Suite *suite_gunzip(void)
{
    Suite *s = suite_create("gunzip");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, crc32_of_the_check_string);
    tcase_add_test(tc, every_block_type_gzip_writes);
    tcase_add_test(tc, optional_header_fields);
    tcase_add_test(tc, damage_is_refused);
    tcase_add_test(tc, hand_made_bad_streams);
    tcase_add_test(tc, hand_made_bad_codes);
    tcase_add_test(tc, pack_unpacks_into_a_table);
    suite_add_tcase(s, tc);
    return s;
}
