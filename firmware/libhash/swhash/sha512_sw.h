/* SPDX-License-Identifier: MIT */
/*
 * sha512_sw.h - portable software SHA-512 / SHA-384 / SHA-512/224 /
 * SHA-512/256 (FIPS 180-4).
 *
 * One source for bare-metal firmware, the xv6 kernel and xv6 user programs:
 * freestanding C99, needs only <stdint.h> and <stddef.h>, calls no library
 * function (not even memcpy/memset) and no libgcc helper on rv32 (64-bit
 * adds, logic and constant shifts only), keeps no global mutable state (all
 * state is in the caller's context, so it is reentrant), and is endian-neutral.
 *
 * Usage:
 *     struct sha512_sw c;
 *     sha512_sw_init(&c, 0);              // mode, see below
 *     sha512_sw_update(&c, data, len);    // any number of times, any length
 *     sha512_sw_final(&c, digest);        // c.digest_len bytes (64/48/28/32)
 *
 * See firmware/libhash/swhash/README.md for the optimisation choices.
 */
#ifndef SHA512_SW_H
#define SHA512_SW_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SHA512_SW_BLOCK_BYTES      128u
#define SHA512_SW_DIGEST_BYTES     64u
#define SHA384_SW_DIGEST_BYTES     48u
#define SHA512_224_SW_DIGEST_BYTES 28u
#define SHA512_256_SW_DIGEST_BYTES 32u

/* The modes are the SHA-512 engine's mode numbers (HASH_ALG_TABLE in
 * hashsoc/hash_spec.h, generated from gateware/hashspec.py); they are repeated
 * here because this code includes nothing but <stdint.h>/<stddef.h>. */
#define SHA512_SW_MODE_SHA512     0
#define SHA512_SW_MODE_SHA384     1
#define SHA512_SW_MODE_SHA512_224 2
#define SHA512_SW_MODE_SHA512_256 3

struct sha512_sw {
  uint64_t h[8];       /* chaining value H0..H7 (native integers)            */
  uint64_t bytes;      /* message bytes hashed so far (incl. those in buf)   */
  uint8_t buf[128];    /* partial block, buflen bytes valid                  */
  uint32_t buflen;     /* 0..127                                             */
  uint32_t digest_len; /* 64, 48, 28 or 32 (by mode)                         */
};

/* Start a new hash. mode: 0 = SHA-512, 1 = SHA-384, 2 = SHA-512/224,
 * 3 = SHA-512/256. Any other mode is a caller bug and selects SHA-512 (as
 * sha256_sw_init's is224 selects SHA-224 for any nonzero value). */
void sha512_sw_init(struct sha512_sw *c, int mode);

/* Hash len more bytes (len may be 0; data may be unaligned). */
void sha512_sw_update(struct sha512_sw *c, const void *data, size_t len);

/* Pad, finish and write c->digest_len bytes to out (SHA-512/224: H0..H2 and
 * the upper half of H3, big-endian). The context must be re-initialised
 * before it is used again. */
void sha512_sw_final(struct sha512_sw *c, uint8_t *out);

/* The core loop: compress nblocks consecutive 128-byte blocks (no alignment
 * requirement) into the chaining value h. Exposed for the driver, which moves
 * a context between this code and the hardware engine at block boundaries
 * (buflen == 0). */
void sha512_sw_compress(uint64_t h[8], const uint8_t *blocks, size_t nblocks);

#ifdef __cplusplus
}
#endif

#endif /* SHA512_SW_H */
