/* SPDX-License-Identifier: MIT */
/*
 * hmac_sw.h - portable software HMAC-SHA-256 / HMAC-SHA-224 (RFC 2104, FIPS 198-1).
 *
 * Built on sha256_sw (the same rules: freestanding C99, no library calls, all state in
 * the caller's context). HMAC(K, m) = H((K0 ^ opad) || H((K0 ^ ipad) || m)), where K0 is
 * K padded with zeros to the 64-byte block, or H(K) padded when K is longer than a block.
 *
 * Usage:
 *     struct hmac_sha256_sw c;
 *     hmac_sha256_sw_init(&c, 0, key, keylen);  // 0 = HMAC-SHA-256, 1 = HMAC-SHA-224
 *     hmac_sha256_sw_update(&c, data, len);     // any number of times
 *     hmac_sha256_sw_final(&c, mac);            // 32 bytes (HMAC-SHA-224: 28)
 *
 * The context holds the key only as the two hash states after K0 ^ ipad and K0 ^ opad
 * (not K itself); final wipes both.
 */
#ifndef HMAC_SW_H
#define HMAC_SW_H

#include "sha256_sw.h"

#ifdef __cplusplus
extern "C" {
#endif

struct hmac_sha256_sw {
  struct sha256_sw inner; /* after K0 ^ ipad, then the message */
  struct sha256_sw outer; /* after K0 ^ opad */
};

/* Start an HMAC under key[0, keylen) (keylen may be 0, key may then be NULL). */
void hmac_sha256_sw_init(struct hmac_sha256_sw *c, int is224, const void *key, size_t keylen);

/* MAC len more bytes of the message. */
void hmac_sha256_sw_update(struct hmac_sha256_sw *c, const void *data, size_t len);

/* Write the MAC (32 bytes, or 28 for HMAC-SHA-224) to out and wipe the context. */
void hmac_sha256_sw_final(struct hmac_sha256_sw *c, uint8_t *out);

#ifdef __cplusplus
}
#endif

#endif /* HMAC_SW_H */
