/* SPDX-License-Identifier: MIT */
/*
 * sha256_sw.h - portable software SHA-256 / SHA-224 (FIPS 180-4).
 *
 * One source for bare-metal firmware, the xv6 kernel and xv6 user programs:
 * freestanding C99, needs only <stdint.h> and <stddef.h>, calls no library
 * function (not even memcpy/memset), keeps no global mutable state (all state
 * is in the caller's context, so it is reentrant), and is endian-neutral.
 *
 * Usage:
 *     struct sha256_sw c;
 *     sha256_sw_init(&c, 0);              // 0 = SHA-256, 1 = SHA-224
 *     sha256_sw_update(&c, data, len);    // any number of times, any length
 *     sha256_sw_final(&c, digest);        // 32 bytes (SHA-224: 28 bytes)
 *
 * See firmware/libhash/swhash/README.md for the optimisation choices.
 */
#ifndef SHA256_SW_H
#define SHA256_SW_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SHA256_SW_BLOCK_BYTES  64u
#define SHA256_SW_DIGEST_BYTES 32u
#define SHA224_SW_DIGEST_BYTES 28u

struct sha256_sw {
  uint32_t h[8];       /* chaining value H0..H7 (native integers)            */
  uint64_t bytes;      /* message bytes hashed so far (incl. those in buf)   */
  uint8_t buf[64];     /* partial block, buflen bytes valid                  */
  uint32_t buflen;     /* 0..63                                              */
  uint32_t digest_len; /* 32 (SHA-256) or 28 (SHA-224)                       */
};

/* Start a new hash. is224: 0 = SHA-256, nonzero = SHA-224. */
void sha256_sw_init(struct sha256_sw *c, int is224);

/* Hash len more bytes (len may be 0; data may be unaligned). */
void sha256_sw_update(struct sha256_sw *c, const void *data, size_t len);

/* Pad, finish and write c->digest_len (32 or 28) bytes to out. The context
 * must be re-initialised before it is used again. */
void sha256_sw_final(struct sha256_sw *c, uint8_t *out);

/* The core loop: compress nblocks consecutive 64-byte blocks (no alignment
 * requirement) into the chaining value h. Exposed for the driver, which moves
 * a context between this code and the hardware engine at block boundaries. */
void sha256_sw_compress(uint32_t h[8], const uint8_t *blocks, size_t nblocks);

#ifdef __cplusplus
}
#endif

#endif /* SHA256_SW_H */
