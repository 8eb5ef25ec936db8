/* SPDX-License-Identifier: MIT */
/*
 * sha512_sw.c - portable software SHA-512 / SHA-384 / SHA-512/224 /
 * SHA-512/256 (FIPS 180-4).
 *
 * Freestanding C99 (only <stdint.h>/<stddef.h>), no library calls, no global
 * mutable state. Shared by bare-metal firmware, the xv6 kernel and xv6 user
 * programs. The structure is sha256_sw.c's; the design notes are in
 * firmware/libhash/swhash/README.md. In short:
 *
 *  - 8 rounds per loop iteration (10 iterations for the 80 rounds), register
 *    rotation by renaming the macro arguments;
 *  - message schedule in a 16-word circular window: after the 8 rounds that
 *    consumed W[t..t+7] that half of the window is overwritten with
 *    W[t+16..t+23]. The window is stored twice, so that one short loop does
 *    the 8 steps with constant offsets (written out they would be 2 KiB of rv32
 *    code, and the function would no longer fit VexRiscv's 4 KiB I-cache);
 *  - Maj(a,b,c) = b ^ ((a^b) & (b^c)) with (a^b) carried into the next round as
 *    its (b^c);
 *  - rv32 has 32-bit registers: the compression function works on 32-bit
 *    halves, written out (adds with an explicit carry, rotations as pairs of
 *    shifts), and keeps only a, b, e, f, g, h in registers (d comes from a
 *    small array). Nothing needs a 64-bit multiply, divide or variable shift,
 *    so no libgcc helper is called.
 */
#include "sha512_sw.h"

/* ---- small helpers: no libc ------------------------------------------- */

/* SWH_OPAQUE: an empty asm that makes a value opaque to the optimiser. Used in
 * the byte copy / clear loops so that GCC and clang cannot turn them into calls
 * to memcpy()/memset(), which do not exist in the xv6 kernel, and in the
 * schedule loop. SWH_BARRIER: compiler-only barrier (no instruction). */
#if defined(__GNUC__)
#define SWH_OPAQUE(x) __asm__("" : "+r"(x))
#define SWH_BARRIER() __asm__ volatile("" ::: "memory")
#else
#define SWH_OPAQUE(x) ((void)0)
#define SWH_BARRIER() ((void)0)
#endif

static inline void sha512_copy_bytes(uint8_t *dst, const uint8_t *src, size_t n)
{
  size_t i;
  for (i = 0; i < n; i++) {
    SWH_OPAQUE(dst);
    dst[i] = src[i];
  }
}

static inline void sha512_zero_bytes(uint8_t *dst, size_t n)
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

/* Two 32-bit halves: no 64-bit shift of a byte on rv32. */
static inline uint64_t load_be64(const uint8_t *p)
{
  return ((uint64_t)load_be32(p) << 32) | load_be32(p + 4);
}

static inline void store_be32(uint8_t *p, uint32_t v)
{
  p[0] = (uint8_t)(v >> 24);
  p[1] = (uint8_t)(v >> 16);
  p[2] = (uint8_t)(v >> 8);
  p[3] = (uint8_t)v;
}

/* ---- constants (read-only) -------------------------------------------- */

/* FIPS 180-4 4.2.3: the first 64 bits of the fractional parts of the cube
 * roots of the first 80 primes. */
static const uint64_t sha512_K[80] = {
  0x428a2f98d728ae22ull,
  0x7137449123ef65cdull,
  0xb5c0fbcfec4d3b2full,
  0xe9b5dba58189dbbcull,
  0x3956c25bf348b538ull,
  0x59f111f1b605d019ull,
  0x923f82a4af194f9bull,
  0xab1c5ed5da6d8118ull,
  0xd807aa98a3030242ull,
  0x12835b0145706fbeull,
  0x243185be4ee4b28cull,
  0x550c7dc3d5ffb4e2ull,
  0x72be5d74f27b896full,
  0x80deb1fe3b1696b1ull,
  0x9bdc06a725c71235ull,
  0xc19bf174cf692694ull,
  0xe49b69c19ef14ad2ull,
  0xefbe4786384f25e3ull,
  0x0fc19dc68b8cd5b5ull,
  0x240ca1cc77ac9c65ull,
  0x2de92c6f592b0275ull,
  0x4a7484aa6ea6e483ull,
  0x5cb0a9dcbd41fbd4ull,
  0x76f988da831153b5ull,
  0x983e5152ee66dfabull,
  0xa831c66d2db43210ull,
  0xb00327c898fb213full,
  0xbf597fc7beef0ee4ull,
  0xc6e00bf33da88fc2ull,
  0xd5a79147930aa725ull,
  0x06ca6351e003826full,
  0x142929670a0e6e70ull,
  0x27b70a8546d22ffcull,
  0x2e1b21385c26c926ull,
  0x4d2c6dfc5ac42aedull,
  0x53380d139d95b3dfull,
  0x650a73548baf63deull,
  0x766a0abb3c77b2a8ull,
  0x81c2c92e47edaee6ull,
  0x92722c851482353bull,
  0xa2bfe8a14cf10364ull,
  0xa81a664bbc423001ull,
  0xc24b8b70d0f89791ull,
  0xc76c51a30654be30ull,
  0xd192e819d6ef5218ull,
  0xd69906245565a910ull,
  0xf40e35855771202aull,
  0x106aa07032bbd1b8ull,
  0x19a4c116b8d2d0c8ull,
  0x1e376c085141ab53ull,
  0x2748774cdf8eeb99ull,
  0x34b0bcb5e19b48a8ull,
  0x391c0cb3c5c95a63ull,
  0x4ed8aa4ae3418acbull,
  0x5b9cca4f7763e373ull,
  0x682e6ff3d6b2b8a3ull,
  0x748f82ee5defb2fcull,
  0x78a5636f43172f60ull,
  0x84c87814a1f0ab72ull,
  0x8cc702081a6439ecull,
  0x90befffa23631e28ull,
  0xa4506cebde82bde9ull,
  0xbef9a3f7b2c67915ull,
  0xc67178f2e372532bull,
  0xca273eceea26619cull,
  0xd186b8c721c0c207ull,
  0xeada7dd6cde0eb1eull,
  0xf57d4f7fee6ed178ull,
  0x06f067aa72176fbaull,
  0x0a637dc5a2c898a6ull,
  0x113f9804bef90daeull,
  0x1b710b35131c471bull,
  0x28db77f523047d84ull,
  0x32caab7b40c72493ull,
  0x3c9ebe0a15c9bebcull,
  0x431d67c49c100d4cull,
  0x4cc5d4becb3e42b6ull,
  0x597f299cfc657e2aull,
  0x5fcb6fab3ad6faecull,
  0x6c44198c4a475817ull,
};

/* FIPS 180-4 5.3.4-5.3.6, indexed by mode. SHA-512: fractional parts of the
 * square roots of the first 8 primes; SHA-384: of the 9th to 16th primes;
 * SHA-512/t: the output of the SHA-512/t IV generation function (5.3.6). */
static const uint64_t sha512_iv[4][8] = {
  {
      /* SHA-512 */
      0x6a09e667f3bcc908ull,
      0xbb67ae8584caa73bull,
      0x3c6ef372fe94f82bull,
      0xa54ff53a5f1d36f1ull,
      0x510e527fade682d1ull,
      0x9b05688c2b3e6c1full,
      0x1f83d9abfb41bd6bull,
      0x5be0cd19137e2179ull,
  },
  {
      /* SHA-384 */
      0xcbbb9d5dc1059ed8ull,
      0x629a292a367cd507ull,
      0x9159015a3070dd17ull,
      0x152fecd8f70e5939ull,
      0x67332667ffc00b31ull,
      0x8eb44a8768581511ull,
      0xdb0c2e0d64f98fa7ull,
      0x47b5481dbefa4fa4ull,
  },
  {
      /* SHA-512/224 */
      0x8c3d37c819544da2ull,
      0x73e1996689dcd4d6ull,
      0x1dfab7ae32ff9c82ull,
      0x679dd514582f9fcfull,
      0x0f6d2b697bd44da8ull,
      0x77e36f7304c48942ull,
      0x3f9d85a86a1d36c8ull,
      0x1112e6ad91d692a1ull,
  },
  {
      /* SHA-512/256 */
      0x22312194fc2bf72cull,
      0x9f555fa3c84c64c2ull,
      0x2393b86b6f53b151ull,
      0x963877195940eabdull,
      0x96283ee2a88effe3ull,
      0xbe5e1e2553863992ull,
      0x2b0199fc2c85b8aaull,
      0x0eb72ddc81c52ca2ull,
  },
};

static const uint8_t sha512_digest_len[4] = { 64, 48, 28, 32 };

/* ---- the compression function ----------------------------------------- */

/* rv32 has 32-bit registers only, so the compression function works on the
 * 32-bit halves of the 64-bit words, written out: left to GCC, the same code
 * on uint64_t spilled most of the state and was 6.5 KiB of rv32 code (README). */
#define HI32(x) ((uint32_t)((x) >> 32))
#define LO32(x) ((uint32_t)(x))

/* (rh:rl) += (xh:xl), the carry out of the low half by an unsigned compare.
 * xl must not be rl. */
#define ADD64(rh, rl, xh, xl)                                                                                \
  do {                                                                                                       \
    rl += (xl);                                                                                              \
    rh += (xh) + (rl < (xl));                                                                                \
  } while (0)

/* The FIPS 180-4 functions on (h:l). ROTR by n < 32 is
 * (h >> n | l << (32 - n) : l >> n | h << (32 - n)); ROTR by 32 + n swaps the
 * halves, then rotates by n. */
#define BSIG0_HI(h, l) (((h) >> 28 | (l) << 4) ^ ((l) >> 2 | (h) << 30) ^ ((l) >> 7 | (h) << 25))
#define BSIG0_LO(h, l) (((l) >> 28 | (h) << 4) ^ ((h) >> 2 | (l) << 30) ^ ((h) >> 7 | (l) << 25))
#define BSIG1_HI(h, l) (((h) >> 14 | (l) << 18) ^ ((h) >> 18 | (l) << 14) ^ ((l) >> 9 | (h) << 23))
#define BSIG1_LO(h, l) (((l) >> 14 | (h) << 18) ^ ((l) >> 18 | (h) << 14) ^ ((h) >> 9 | (l) << 23))
#define SSIG0_HI(h, l) (((h) >> 1 | (l) << 31) ^ ((h) >> 8 | (l) << 24) ^ ((h) >> 7))
#define SSIG0_LO(h, l) (((l) >> 1 | (h) << 31) ^ ((l) >> 8 | (h) << 24) ^ ((l) >> 7 | (h) << 25))
#define SSIG1_HI(h, l) (((h) >> 19 | (l) << 13) ^ ((l) >> 29 | (h) << 3) ^ ((h) >> 6))
#define SSIG1_LO(h, l) (((l) >> 19 | (h) << 13) ^ ((h) >> 29 | (l) << 3) ^ ((l) >> 6 | (h) << 26))
#define CH(x, y, z)    ((z) ^ ((x) & ((y) ^ (z))))

/* Advance one half of the 16-word schedule window by 16 rounds: w = W[t..t+7]
 * (consumed); on return w = W[t+16..t+23]:
 *   W[n+16] = s1(W[n+14]) + W[n+9] + s0(W[n+1]) + W[n]
 * The window is stored twice (w[i + 16] == w[i]), so that the reads across
 * its end are plain positive offsets and one short loop does the 8 steps
 * (written out like sha256_sched8 they are 2 KiB of rv32 code). */
static inline void sha512_sched8(uint64_t *w)
{
  unsigned j;

  for (j = 0; j < 8; j++, w++) {
    uint32_t vh, vl, xh, xl, th, tl;
    uint64_t v;

    SWH_OPAQUE(w); /* stops GCC carrying w[] values between steps in registers: it spilled */
    vh = HI32(w[0]);
    vl = LO32(w[0]);
    xh = HI32(w[1]);
    xl = LO32(w[1]);
    th = SSIG0_HI(xh, xl);
    tl = SSIG0_LO(xh, xl);
    ADD64(vh, vl, th, tl);
    th = HI32(w[9]);
    tl = LO32(w[9]);
    ADD64(vh, vl, th, tl);
    xh = HI32(w[14]);
    xl = LO32(w[14]);
    th = SSIG1_HI(xh, xl);
    tl = SSIG1_LO(xh, xl);
    ADD64(vh, vl, th, tl);
    v = (uint64_t)vh << 32 | vl;
    w[0] = v;
    w[16] = v;
  }
}

/* One round. The caller renames the working variables instead of moving them;
 * x##_hi, x##_lo are the halves of working variable x. All 16 halves do not fit
 * in rv32's registers next to the round's temporaries, so each new "a" value
 * (read as a and b in the next two rounds, not at all as c, then once as d) is
 * also stored in s_hi/s_lo[] and d is loaded from there; the register copies
 * of c and d are stale. The arrays are volatile so that the compiler keeps
 * exactly this split. SWH_BARRIER (no instruction) separates T1 from T2: GCC's
 * pre-RA scheduler otherwise interleaves rounds and spills more (README).
 * bc holds b^c on entry and a^b (the next round's b^c) on exit. */
#define SHA512_ROUND(a, b, c, d, e, f, g, h, j)                                                              \
  do {                                                                                                       \
    uint32_t t1h_, t1l_, xh_, xl_, abh_, abl_;                                                               \
    t1h_ = BSIG1_HI(e##_hi, e##_lo);                                                                         \
    t1l_ = BSIG1_LO(e##_hi, e##_lo);                                                                         \
    xh_ = CH(e##_hi, f##_hi, g##_hi);                                                                        \
    xl_ = CH(e##_lo, f##_lo, g##_lo);                                                                        \
    ADD64(t1h_, t1l_, xh_, xl_);                                                                             \
    ADD64(t1h_, t1l_, h##_hi, h##_lo);                                                                       \
    xh_ = HI32(k[j]);                                                                                        \
    xl_ = LO32(k[j]);                                                                                        \
    ADD64(t1h_, t1l_, xh_, xl_);                                                                             \
    xh_ = HI32(w[j]);                                                                                        \
    xl_ = LO32(w[j]);                                                                                        \
    ADD64(t1h_, t1l_, xh_, xl_);                                                                             \
    d##_hi = s_hi[X_##d];                                                                                    \
    d##_lo = s_lo[X_##d];                                                                                    \
    ADD64(d##_hi, d##_lo, t1h_, t1l_);                                                                       \
    SWH_BARRIER();                                                                                           \
    abh_ = a##_hi ^ b##_hi;                                                                                  \
    abl_ = a##_lo ^ b##_lo;                                                                                  \
    xh_ = b##_hi ^ (abh_ & bc_hi);                                                                           \
    xl_ = b##_lo ^ (abl_ & bc_lo);                                                                           \
    bc_hi = abh_;                                                                                            \
    bc_lo = abl_;                                                                                            \
    ADD64(t1h_, t1l_, xh_, xl_);                                                                             \
    xh_ = BSIG0_HI(a##_hi, a##_lo);                                                                          \
    xl_ = BSIG0_LO(a##_hi, a##_lo);                                                                          \
    ADD64(t1h_, t1l_, xh_, xl_);                                                                             \
    h##_hi = t1h_;                                                                                           \
    h##_lo = t1l_;                                                                                           \
    s_hi[X_##h] = t1h_;                                                                                      \
    s_lo[X_##h] = t1l_;                                                                                      \
  } while (0)

enum { X_a, X_b, X_c, X_d, X_e, X_f, X_g, X_h };

void sha512_sw_compress(uint64_t h[8], const uint8_t *blocks, size_t nblocks)
{
  uint64_t W[32]; /* the 16-word window W[0..15] and its copy W[16..31] */
  volatile uint32_t s_hi[8], s_lo[8];

  while (nblocks--) {
    uint32_t a_hi, a_lo, b_hi, b_lo, c_hi, c_lo, d_hi, d_lo, e_hi, e_lo, f_hi, f_lo, g_hi, g_lo, h_hi, h_lo;
    uint32_t bc_hi, bc_lo;
    unsigned i;

    for (i = 0; i < 16; i++) {
      uint64_t v = load_be64(blocks + 8 * i);
      W[i] = v;
      W[i + 16] = v;
    }
    blocks += 128;

    /* a..d in s[] (rounds 0-3 load their d from there), the rest in registers */
    for (i = 0; i < 4; i++) {
      s_hi[i] = HI32(h[i]);
      s_lo[i] = LO32(h[i]);
    }
    a_hi = HI32(h[0]);
    a_lo = LO32(h[0]);
    b_hi = HI32(h[1]);
    b_lo = LO32(h[1]);
    bc_hi = b_hi ^ HI32(h[2]);
    bc_lo = b_lo ^ LO32(h[2]);
    e_hi = HI32(h[4]);
    e_lo = LO32(h[4]);
    f_hi = HI32(h[5]);
    f_lo = LO32(h[5]);
    g_hi = HI32(h[6]);
    g_lo = LO32(h[6]);
    h_hi = HI32(h[7]);
    h_lo = LO32(h[7]);

    for (i = 0; i < 80; i += 8) {
      const uint64_t *k = sha512_K + i;
      uint64_t *w = W + (i & 8);

      SHA512_ROUND(a, b, c, d, e, f, g, h, 0);
      SHA512_ROUND(h, a, b, c, d, e, f, g, 1);
      SHA512_ROUND(g, h, a, b, c, d, e, f, 2);
      SHA512_ROUND(f, g, h, a, b, c, d, e, 3);
      SHA512_ROUND(e, f, g, h, a, b, c, d, 4);
      SHA512_ROUND(d, e, f, g, h, a, b, c, 5);
      SHA512_ROUND(c, d, e, f, g, h, a, b, 6);
      SHA512_ROUND(b, c, d, e, f, g, h, a, 7);

      if (i < 64)
        sha512_sched8(w);
    }

    /* after 80 rounds s[X_a..X_d] hold a..d (the last 8 rounds stored them) */
    s_hi[X_e] = e_hi;
    s_lo[X_e] = e_lo;
    s_hi[X_f] = f_hi;
    s_lo[X_f] = f_lo;
    s_hi[X_g] = g_hi;
    s_lo[X_g] = g_lo;
    s_hi[X_h] = h_hi;
    s_lo[X_h] = h_lo;
    for (i = 0; i < 8; i++)
      h[i] += (uint64_t)s_hi[i] << 32 | s_lo[i];
  }
}

/* ---- streaming interface ---------------------------------------------- */

void sha512_sw_init(struct sha512_sw *c, int mode)
{
  unsigned m = (mode >= 1 && mode <= 3) ? (unsigned)mode : 0u; /* others: a caller bug, SHA-512 */
  unsigned i;

  for (i = 0; i < 8; i++)
    c->h[i] = sha512_iv[m][i];
  c->bytes = 0;
  c->buflen = 0;
  c->digest_len = sha512_digest_len[m];
}

void sha512_sw_update(struct sha512_sw *c, const void *data, size_t len)
{
  const uint8_t *p = (const uint8_t *)data;

  c->bytes += len;
  c->buflen &= 127u; /* always < 128; the mask only keeps a corrupted context in bounds */

  if (c->buflen) {
    size_t take = 128u - c->buflen;
    if (take > len)
      take = len;
    sha512_copy_bytes(c->buf + c->buflen, p, take);
    c->buflen += (uint32_t)take;
    p += take;
    len -= take;
    if (c->buflen < 128u)
      return;
    sha512_sw_compress(c->h, c->buf, 1);
    c->buflen = 0;
  }

  if (len >= 128u) {
    size_t n = len >> 7;
    sha512_sw_compress(c->h, p, n);
    p += n << 7;
    len &= 127u;
  }

  if (len) {
    sha512_copy_bytes(c->buf, p, len);
    c->buflen = (uint32_t)len;
  }
}

void sha512_sw_final(struct sha512_sw *c, uint8_t *out)
{
  /* The length field is the 128-bit bit count: bytes * 8 = (bytes >> 61 : bytes << 3). */
  uint64_t hi = c->bytes >> 61, lo = c->bytes << 3;
  uint32_t n = c->buflen & 127u;
  unsigned i;

  c->buf[n++] = 0x80;
  if (n > 112u) {
    sha512_zero_bytes(c->buf + n, 128u - n);
    sha512_sw_compress(c->h, c->buf, 1);
    n = 0;
  }
  sha512_zero_bytes(c->buf + n, 112u - n);
  store_be32(c->buf + 112, (uint32_t)(hi >> 32));
  store_be32(c->buf + 116, (uint32_t)hi);
  store_be32(c->buf + 120, (uint32_t)(lo >> 32));
  store_be32(c->buf + 124, (uint32_t)lo);
  sha512_sw_compress(c->h, c->buf, 1);
  c->buflen = 0;

  /* 32-bit output words: H[i/2]'s upper half, then its lower half. */
  for (i = 0; i < 16u && i < c->digest_len / 4u; i++) {
    uint64_t v = c->h[i >> 1];
    store_be32(out + 4 * i, (i & 1u) ? (uint32_t)v : (uint32_t)(v >> 32));
  }
}
