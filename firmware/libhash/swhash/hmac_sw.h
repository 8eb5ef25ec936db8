/* SPDX-License-Identifier: MIT */
/*
 * hmac_sw.h - portable software HMAC over the SHA-2 hashes (RFC 2104, FIPS 198-1):
 * HMAC-SHA-256/224 on sha256_sw, HMAC-SHA-512/384 (and /512-224, /512-256) on sha512_sw.
 *
 * The same rules as those hashes: freestanding C99, no library calls, all state in the
 * caller's context. HMAC(K, m) = H((K0 ^ opad) || H((K0 ^ ipad) || m)), where K0 is K
 * padded with zeros to the hash's block (64 or 128 bytes), or H(K) padded when K is longer
 * than a block.
 *
 * Usage:
 *     struct hmac_sw c;
 *     hmac_sw_init(&c, HMAC_SW_SHA256, 0, key, keylen); // mode: 0 SHA-256, 1 SHA-224
 *     hmac_sw_update(&c, data, len);                   // any number of times
 *     hmac_sw_final(&c, mac);                          // hmac_sw_mac_len(&c) bytes
 * HMAC_SW_SHA512's modes are sha512_sw's (0 SHA-512, 1 SHA-384, 2 SHA-512/224,
 * 3 SHA-512/256).
 *
 * The context holds the key only as the two hash states after K0 ^ ipad and K0 ^ opad
 * (not K itself); final wipes both.
 */
#ifndef HMAC_SW_H
#define HMAC_SW_H

#include "sha256_sw.h"
#include "sha512_sw.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The hash family under the HMAC. */
#define HMAC_SW_SHA256 0
#define HMAC_SW_SHA512 1

union hmac_sw_hash {
  struct sha256_sw s256;
  struct sha512_sw s512;
};

struct hmac_sw {
  union hmac_sw_hash inner; /* after K0 ^ ipad, then the message */
  union hmac_sw_hash outer; /* after K0 ^ opad */
  int family;               /* HMAC_SW_SHA256 or HMAC_SW_SHA512 */
};

/* Start an HMAC under key[0, keylen) (keylen may be 0, key may then be NULL) over the
 * family's hash `mode` (sha256_sw's is224, or sha512_sw's mode). */
void hmac_sw_init(struct hmac_sw *c, int family, int mode, const void *key, size_t keylen);

/* K0: key[0, keylen) padded with zeros to the family's block, or its hash (the family's
 * `mode`) padded when longer than the block; k0 holds SHA512_SW_BLOCK_BYTES. Returns the
 * block's length (64 or 128). hmac_sw_init's first step; the driver's too, for the
 * engine's key words. */
size_t hmac_sw_k0(int family, int mode, const void *key, size_t keylen, uint8_t *k0);

/* MAC len more bytes of the message. */
void hmac_sw_update(struct hmac_sw *c, const void *data, size_t len);

/* The MAC's length in bytes: the hash's digest (32, 28, 64, 48, ...). */
size_t hmac_sw_mac_len(const struct hmac_sw *c);

/* Write the MAC (hmac_sw_mac_len bytes) to out and wipe the context. */
void hmac_sw_final(struct hmac_sw *c, uint8_t *out);

#ifdef __cplusplus
}
#endif

#endif /* HMAC_SW_H */
