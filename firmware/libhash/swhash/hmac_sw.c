/* SPDX-License-Identifier: MIT */
/*
 * hmac_sw.c - portable software HMAC over the SHA-2 hashes (hmac_sw.h).
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

/* The family's hash, one call each. */
static void h_init(union hmac_sw_hash *h, int family, int mode)
{
  if (family == HMAC_SW_SHA512)
    sha512_sw_init(&h->s512, mode);
  else
    sha256_sw_init(&h->s256, mode);
}

static void h_update(union hmac_sw_hash *h, int family, const void *data, size_t len)
{
  if (family == HMAC_SW_SHA512)
    sha512_sw_update(&h->s512, data, len);
  else
    sha256_sw_update(&h->s256, data, len);
}

static void h_final(union hmac_sw_hash *h, int family, uint8_t *out)
{
  if (family == HMAC_SW_SHA512)
    sha512_sw_final(&h->s512, out);
  else
    sha256_sw_final(&h->s256, out);
}

static size_t h_digest_len(const union hmac_sw_hash *h, int family)
{
  return family == HMAC_SW_SHA512 ? h->s512.digest_len : h->s256.digest_len;
}

size_t hmac_sw_k0(int family, int mode, const void *key, size_t keylen, uint8_t *k0)
{
  union hmac_sw_hash h;
  const uint8_t *k = (const uint8_t *)key;
  size_t i, n = keylen, block = family == HMAC_SW_SHA512 ? SHA512_SW_BLOCK_BYTES : SHA256_SW_BLOCK_BYTES;

  /* A key longer than the block is hashed first (with the same H, RFC 2104). */
  if (keylen > block) {
    h_init(&h, family, mode);
    h_update(&h, family, key, keylen);
    n = h_digest_len(&h, family);
    h_final(&h, family, k0);
    wipe(&h, sizeof h);
    k = k0;
  }
  for (i = 0; i < block; i++) {
    uint8_t b = i < n ? k[i] : 0; /* (k may be k0: byte i is read before it is written) */
    HMAC_OPAQUE(b);
    k0[i] = b;
  }
  return block;
}

void hmac_sw_init(struct hmac_sw *c, int family, int mode, const void *key, size_t keylen)
{
  uint8_t k0[SHA512_SW_BLOCK_BYTES], pad[SHA512_SW_BLOCK_BYTES];
  size_t i, block = hmac_sw_k0(family, mode, key, keylen, k0);

  c->family = family;
  for (i = 0; i < block; i++) {
    pad[i] = (uint8_t)(k0[i] ^ IPAD);
    k0[i] = (uint8_t)(k0[i] ^ OPAD);
  }
  h_init(&c->inner, family, mode);
  h_update(&c->inner, family, pad, block);
  h_init(&c->outer, family, mode);
  h_update(&c->outer, family, k0, block);
  wipe(k0, sizeof k0);
  wipe(pad, sizeof pad);
}

void hmac_sw_update(struct hmac_sw *c, const void *data, size_t len)
{
  h_update(&c->inner, c->family, data, len);
}

size_t hmac_sw_mac_len(const struct hmac_sw *c)
{
  return h_digest_len(&c->outer, c->family);
}

void hmac_sw_final(struct hmac_sw *c, uint8_t *out)
{
  uint8_t d[SHA512_SW_DIGEST_BYTES];
  size_t n = h_digest_len(&c->inner, c->family);
  h_final(&c->inner, c->family, d);
  h_update(&c->outer, c->family, d, n);
  h_final(&c->outer, c->family, out);
  wipe(d, sizeof d);
  wipe(c, sizeof *c);
}
