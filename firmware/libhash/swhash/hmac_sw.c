/* SPDX-License-Identifier: MIT */
/*
 * hmac_sw.c - portable software HMAC-SHA-256 / HMAC-SHA-224 on sha256_sw (hmac_sw.h).
 */
#include "hmac_sw.h"

/* As in sha256_sw.c: keeps GCC and clang from turning the byte loops into memset(). */
#if defined(__GNUC__)
#define HMAC_OPAQUE(x) __asm__("" : "+r"(x))
#else
#define HMAC_OPAQUE(x) ((void)0)
#endif

#define IPAD 0x36u
#define OPAD 0x5cu

/* Clear n bytes so the compiler cannot drop the stores (the key must not linger). */
static void wipe(void *p, size_t n)
{
  volatile uint8_t *b = (volatile uint8_t *)p;
  size_t i;
  for (i = 0; i < n; i++)
    b[i] = 0;
}

void hmac_sha256_sw_init(struct hmac_sha256_sw *c, int is224, const void *key, size_t keylen)
{
  uint8_t k0[SHA256_SW_BLOCK_BYTES], pad[SHA256_SW_BLOCK_BYTES];
  const uint8_t *k = (const uint8_t *)key;
  size_t i, n = keylen;

  /* K0: a key longer than the block is hashed first (with the same H, RFC 2104). */
  if (keylen > SHA256_SW_BLOCK_BYTES) {
    sha256_sw_init(&c->inner, is224);
    sha256_sw_update(&c->inner, key, keylen);
    sha256_sw_final(&c->inner, k0);
    n = is224 ? SHA224_SW_DIGEST_BYTES : SHA256_SW_DIGEST_BYTES;
    k = k0;
  }
  for (i = 0; i < SHA256_SW_BLOCK_BYTES; i++) {
    uint8_t b = i < n ? k[i] : 0;
    HMAC_OPAQUE(b);
    pad[i] = (uint8_t)(b ^ IPAD);
    k0[i] = (uint8_t)(b ^ OPAD); /* k0 is read before it is written: k may be k0 */
  }
  sha256_sw_init(&c->inner, is224);
  sha256_sw_update(&c->inner, pad, SHA256_SW_BLOCK_BYTES);
  sha256_sw_init(&c->outer, is224);
  sha256_sw_update(&c->outer, k0, SHA256_SW_BLOCK_BYTES);
  wipe(k0, sizeof k0);
  wipe(pad, sizeof pad);
}

void hmac_sha256_sw_update(struct hmac_sha256_sw *c, const void *data, size_t len)
{
  sha256_sw_update(&c->inner, data, len);
}

void hmac_sha256_sw_final(struct hmac_sha256_sw *c, uint8_t *out)
{
  uint8_t d[SHA256_SW_DIGEST_BYTES];
  size_t n = c->inner.digest_len;
  sha256_sw_final(&c->inner, d);
  sha256_sw_update(&c->outer, d, n);
  sha256_sw_final(&c->outer, out);
  wipe(d, sizeof d);
  wipe(c, sizeof *c);
}
