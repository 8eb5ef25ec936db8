/* SPDX-License-Identifier: MIT */
/*
 * sha256_sw.c - portable software SHA-256 / SHA-224 (FIPS 180-4).
 *
 * Freestanding C99 (only <stdint.h>/<stddef.h>), no library calls, no global
 * mutable state. Shared by bare-metal firmware, the xv6 kernel and xv6 user
 * programs. Design notes (why the loop looks the way it does) are in
 * firmware/libhash/swhash/README.md; in short:
 *
 *  - 8 rounds per loop iteration, register rotation by renaming the macro
 *    arguments, so the 8-round body is ~1.2 KiB of rv32 code and the whole
 *    compression function (2.5 KiB) stays inside VexRiscv's 4 KiB I-cache
 *    (full unrolling was measured at +150 % cycles because of I-cache misses);
 *  - message schedule in a 16-word circular window: after the 8 rounds that
 *    consumed W[t..t+7] that half of the window is overwritten with
 *    W[t+16..t+23] (8 written-out steps, no index arithmetic at run time);
 *  - Maj(a,b,c) = b ^ ((a^b) & (b^c)) with (a^b) carried into the next round as
 *    its (b^c): 3 logic ops instead of 4.
 */
#include "sha256_sw.h"

/* ---- small helpers: no libc ------------------------------------------- */

/* An empty asm that makes a value opaque to the optimiser. Used in the byte
 * copy / clear loops so that GCC and clang cannot turn them into calls to
 * memcpy()/memset(), which do not exist in the xv6 kernel. */
#if defined(__GNUC__)
#define SWH_OPAQUE(x) __asm__("" : "+r"(x))
#else
#define SWH_OPAQUE(x) ((void)0)
#endif

static inline void sha256_copy_bytes(uint8_t *dst, const uint8_t *src, size_t n)
{
  size_t i;
  for (i = 0; i < n; i++) {
    SWH_OPAQUE(dst);
    dst[i] = src[i];
  }
}

static inline void sha256_zero_bytes(uint8_t *dst, size_t n)
{
  size_t i;
  for (i = 0; i < n; i++) {
    SWH_OPAQUE(dst);
    dst[i] = 0;
  }
}

static inline uint32_t load_be32(const uint8_t *p)
{
  return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

static inline void store_be32(uint8_t *p, uint32_t v)
{
  p[0] = (uint8_t)(v >> 24);
  p[1] = (uint8_t)(v >> 16);
  p[2] = (uint8_t)(v >> 8);
  p[3] = (uint8_t)v;
}

/* ---- constants (read-only) -------------------------------------------- */

static const uint32_t sha256_K[64] = {
  0x428a2f98u,
  0x71374491u,
  0xb5c0fbcfu,
  0xe9b5dba5u,
  0x3956c25bu,
  0x59f111f1u,
  0x923f82a4u,
  0xab1c5ed5u,
  0xd807aa98u,
  0x12835b01u,
  0x243185beu,
  0x550c7dc3u,
  0x72be5d74u,
  0x80deb1feu,
  0x9bdc06a7u,
  0xc19bf174u,
  0xe49b69c1u,
  0xefbe4786u,
  0x0fc19dc6u,
  0x240ca1ccu,
  0x2de92c6fu,
  0x4a7484aau,
  0x5cb0a9dcu,
  0x76f988dau,
  0x983e5152u,
  0xa831c66du,
  0xb00327c8u,
  0xbf597fc7u,
  0xc6e00bf3u,
  0xd5a79147u,
  0x06ca6351u,
  0x14292967u,
  0x27b70a85u,
  0x2e1b2138u,
  0x4d2c6dfcu,
  0x53380d13u,
  0x650a7354u,
  0x766a0abbu,
  0x81c2c92eu,
  0x92722c85u,
  0xa2bfe8a1u,
  0xa81a664bu,
  0xc24b8b70u,
  0xc76c51a3u,
  0xd192e819u,
  0xd6990624u,
  0xf40e3585u,
  0x106aa070u,
  0x19a4c116u,
  0x1e376c08u,
  0x2748774cu,
  0x34b0bcb5u,
  0x391c0cb3u,
  0x4ed8aa4au,
  0x5b9cca4fu,
  0x682e6ff3u,
  0x748f82eeu,
  0x78a5636fu,
  0x84c87814u,
  0x8cc70208u,
  0x90befffau,
  0xa4506cebu,
  0xbef9a3f7u,
  0xc67178f2u,
};

static const uint32_t sha256_iv[8] = {
  0x6a09e667u,
  0xbb67ae85u,
  0x3c6ef372u,
  0xa54ff53au,
  0x510e527fu,
  0x9b05688cu,
  0x1f83d9abu,
  0x5be0cd19u,
};

static const uint32_t sha224_iv[8] = {
  0xc1059ed8u,
  0x367cd507u,
  0x3070dd17u,
  0xf70e5939u,
  0xffc00b31u,
  0x68581511u,
  0x64f98fa7u,
  0xbefa4fa4u,
};

/* ---- the compression function ----------------------------------------- */

#define ROTR32(x, n) (((x) >> (n)) | ((x) << (32 - (n))))
#define BSIG0(x)     (ROTR32(x, 2) ^ ROTR32(x, 13) ^ ROTR32(x, 22))
#define BSIG1(x)     (ROTR32(x, 6) ^ ROTR32(x, 11) ^ ROTR32(x, 25))
#define SSIG0(x)     (ROTR32(x, 7) ^ ROTR32(x, 18) ^ ((x) >> 3))
#define SSIG1(x)     (ROTR32(x, 17) ^ ROTR32(x, 19) ^ ((x) >> 10))
#define CH(x, y, z)  ((z) ^ ((x) & ((y) ^ (z))))

/* One round. The caller renames the working variables instead of moving them.
 * bc holds b^c on entry and a^b (the next round's b^c) on exit. */
#define SHA256_ROUND(a, b, c, d, e, f, g, h, j)                                                              \
  do {                                                                                                       \
    uint32_t t1_ = (h) + BSIG1(e) + CH(e, f, g) + k[j] + w[j];                                               \
    uint32_t ab_ = (a) ^ (b);                                                                                \
    uint32_t t2_ = BSIG0(a) + ((b) ^ (ab_ & bc));                                                            \
    bc = ab_;                                                                                                \
    (d) += t1_;                                                                                              \
    (h) = t1_ + t2_;                                                                                         \
  } while (0)

/* Advance one half of the 16-word schedule window by 16 rounds:
 * p = W[t..t+7] (consumed), q = W[t+8..t+15]. On return p = W[t+16..t+23].
 *   W[n+16] = s1(W[n+14]) + W[n+9] + s0(W[n+1]) + W[n]
 * p and q are deliberately not `restrict`: then each store to p[] orders the
 * following loads from q[], which stops GCC's pre-RA scheduler from hoisting
 * all of q[] into registers while a..h are live (that spilled ~10 words per
 * 8 rounds: 4084 instead of 3949 instructions per block on rv32). */
static inline void sha256_sched8(uint32_t *p, const uint32_t *q)
{
  p[0] += SSIG0(p[1]) + q[1] + SSIG1(q[6]);
  p[1] += SSIG0(p[2]) + q[2] + SSIG1(q[7]);
  p[2] += SSIG0(p[3]) + q[3] + SSIG1(p[0]);
  p[3] += SSIG0(p[4]) + q[4] + SSIG1(p[1]);
  p[4] += SSIG0(p[5]) + q[5] + SSIG1(p[2]);
  p[5] += SSIG0(p[6]) + q[6] + SSIG1(p[3]);
  p[6] += SSIG0(p[7]) + q[7] + SSIG1(p[4]);
  p[7] += SSIG0(q[0]) + p[0] + SSIG1(p[5]);
}

void sha256_sw_compress(uint32_t h[8], const uint8_t *blocks, size_t nblocks)
{
  uint32_t W[16];

  while (nblocks--) {
    uint32_t a, b, c, d, e, f, g, hh, bc;
    unsigned i;

    for (i = 0; i < 16; i++)
      W[i] = load_be32(blocks + 4 * i);
    blocks += 64;

    a = h[0];
    b = h[1];
    c = h[2];
    d = h[3];
    e = h[4];
    f = h[5];
    g = h[6];
    hh = h[7];
    bc = b ^ c;

    for (i = 0; i < 64; i += 8) {
      const uint32_t *k = sha256_K + i;
      uint32_t *w = W + (i & 8);

      SHA256_ROUND(a, b, c, d, e, f, g, hh, 0);
      SHA256_ROUND(hh, a, b, c, d, e, f, g, 1);
      SHA256_ROUND(g, hh, a, b, c, d, e, f, 2);
      SHA256_ROUND(f, g, hh, a, b, c, d, e, 3);
      SHA256_ROUND(e, f, g, hh, a, b, c, d, 4);
      SHA256_ROUND(d, e, f, g, hh, a, b, c, 5);
      SHA256_ROUND(c, d, e, f, g, hh, a, b, 6);
      SHA256_ROUND(b, c, d, e, f, g, hh, a, 7);

      if (i < 48)
        sha256_sched8(w, W + ((i & 8) ^ 8));
    }

    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
    h[5] += f;
    h[6] += g;
    h[7] += hh;
  }
}

/* ---- streaming interface ---------------------------------------------- */

void sha256_sw_init(struct sha256_sw *c, int is224)
{
  const uint32_t *iv = is224 ? sha224_iv : sha256_iv;
  unsigned i;

  for (i = 0; i < 8; i++)
    c->h[i] = iv[i];
  c->bytes = 0;
  c->buflen = 0;
  c->digest_len = is224 ? SHA224_SW_DIGEST_BYTES : SHA256_SW_DIGEST_BYTES;
}

void sha256_sw_update(struct sha256_sw *c, const void *data, size_t len)
{
  const uint8_t *p = (const uint8_t *)data;

  c->bytes += len;
  c->buflen &= 63u; /* always < 64; the mask only keeps a corrupted context in bounds */

  if (c->buflen) {
    size_t take = 64u - c->buflen;
    if (take > len)
      take = len;
    sha256_copy_bytes(c->buf + c->buflen, p, take);
    c->buflen += (uint32_t)take;
    p += take;
    len -= take;
    if (c->buflen < 64u)
      return;
    sha256_sw_compress(c->h, c->buf, 1);
    c->buflen = 0;
  }

  if (len >= 64u) {
    size_t n = len >> 6;
    sha256_sw_compress(c->h, p, n);
    p += n << 6;
    len &= 63u;
  }

  if (len) {
    sha256_copy_bytes(c->buf, p, len);
    c->buflen = (uint32_t)len;
  }
}

void sha256_sw_final(struct sha256_sw *c, uint8_t *out)
{
  uint64_t bits = c->bytes << 3;
  uint32_t n = c->buflen & 63u;
  unsigned i;

  c->buf[n++] = 0x80;
  if (n > 56u) {
    sha256_zero_bytes(c->buf + n, 64u - n);
    sha256_sw_compress(c->h, c->buf, 1);
    n = 0;
  }
  sha256_zero_bytes(c->buf + n, 56u - n);
  store_be32(c->buf + 56, (uint32_t)(bits >> 32));
  store_be32(c->buf + 60, (uint32_t)bits);
  sha256_sw_compress(c->h, c->buf, 1);
  c->buflen = 0;

  for (i = 0; i < 8u && i < c->digest_len / 4u; i++)
    store_be32(out + 4 * i, c->h[i]);
}
