/* gunzip.h - unpacks one gzip member (RFC 1952 around RFC 1951 deflate).
 *
 * The static binary carries its data files packed with `gzip -9 -n` on the
 * build machine (contrib/embed-data.sh); this is the other half. It is a
 * plain, bounded decoder: the caller knows the unpacked size, gives a
 * buffer of exactly that size, and any input that is not one well-formed
 * member with that size and a matching CRC-32 is refused. It never reads
 * outside in[0..inlen) nor writes outside out[0..outlen). */
#ifndef EVMBENCH_GUNZIP_H
#define EVMBENCH_GUNZIP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Unpacks in[0..inlen), one gzip member and nothing after it, into
 * out[0..outlen). True when the member unpacks to exactly outlen bytes and
 * its CRC-32 and length fields match. Else false, *why (may be NULL) set to
 * a static English phrase ("the CRC-32 does not match", "the data end too
 * soon", ...) and out partly written. */
bool gunzip(const unsigned char *in, size_t inlen, unsigned char *out, size_t outlen,
            const char **why);

/* The CRC-32 of buf[0..n) as gzip computes it (ISO 3309, reflected
 * polynomial 0xEDB88320), continuing from crc (0 to start). */
uint32_t crc32_update(uint32_t crc, const unsigned char *buf, size_t n);

#endif
