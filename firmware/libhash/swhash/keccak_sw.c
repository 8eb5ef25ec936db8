/* SPDX-License-Identifier: MIT */
/*
 * keccak_sw.c - portable software Keccak-f[1600] sponge on bit-interleaved
 * 32-bit lanes (FIPS 202 SHA3 / SHAKE, original Keccak).
 *
 * Freestanding C99 (only <stdint.h>/<stddef.h>), no library calls, no global
 * mutable state. Shared by bare-metal firmware, the xv6 kernel and xv6 user
 * programs. Design notes are in firmware/libhash/swhash/README.md; in short:
 *
 *  - bit interleaving (Keccak team, "Keccak implementation overview", sec. 2.1):
 *    a 64-bit rotation by r becomes two 32-bit rotations (by r/2, or by
 *    (r+1)/2 and (r-1)/2 with the halves swapped for odd r), so RV32 needs
 *    6 instructions per lane rotation instead of ~10 with 64-bit lanes;
 *  - one round per loop iteration, theta / rho+pi / chi / iota written out
 *    with constant indices (no "% 5" at run time: the divider is iterative),
 *    reading state a[] and writing state e[], the two swapped each round
 *    (24 rounds, so the result ends up back in the caller's array). One round
 *    is ~2 KiB of rv32 code, which fits the 4 KiB I-cache; two rounds per
 *    iteration would not;
 *  - rho, pi and chi are fused per output row and per half (even / odd
 *    words), so only 5 B values and the 10 D words are live at a time and the
 *    state is read once and written once per round besides theta's column
 *    sums;
 *  - lane complementing (same reference, sec. 2.2): six lanes are kept
 *    complemented inside the permutation, so chi needs 10 NOTs per round
 *    instead of 50 (rv32 has no and-not instruction);
 *  - whole blocks are absorbed lane by lane with word loads when the input is
 *    word-aligned.
 */
#include "keccak_sw.h"

/* ---- helpers ------------------------------------------------------------ */

/* SWH_OPAQUE: empty asm hiding a value from the optimiser, so that the clear
 * loops cannot be turned into memset() calls (there is no memset in the xv6
 * kernel). SWH_BARRIER: compiler-only memory barrier (no instruction) used to
 * keep GCC from hoisting state loads in the round (see KECCAK_ROW). */
#if defined(__GNUC__)
#define SWH_OPAQUE(x)     __asm__("" : "+r"(x))
#define SWH_BARRIER()     __asm__ volatile("" ::: "memory")
#define SWH_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define SWH_OPAQUE(x)     ((void)0)
#define SWH_BARRIER()     ((void)0)
#define SWH_ALWAYS_INLINE inline
#endif

/* Rotate left by a constant 0..31 (n = 0 gives x | x = x, no undefined shift). */
#define ROL32(x, n) (((x) << (n)) | ((x) >> ((32 - (n)) & 31)))

/* Gather the even bits of x into bits 15:0 and the odd bits into 31:16
 * (a perfect outer unshuffle, 4 delta swaps). */
static inline uint32_t keccak_unshuffle(uint32_t x)
{
  uint32_t t;
  t = (x ^ (x >> 1)) & 0x22222222u;
  x ^= t ^ (t << 1);
  t = (x ^ (x >> 2)) & 0x0C0C0C0Cu;
  x ^= t ^ (t << 2);
  t = (x ^ (x >> 4)) & 0x00F000F0u;
  x ^= t ^ (t << 4);
  t = (x ^ (x >> 8)) & 0x0000FF00u;
  x ^= t ^ (t << 8);
  return x;
}

/* Inverse of keccak_unshuffle: bits 15:0 to the even, 31:16 to the odd bits. */
static inline uint32_t keccak_shuffle(uint32_t x)
{
  uint32_t t;
  t = (x ^ (x >> 8)) & 0x0000FF00u;
  x ^= t ^ (t << 8);
  t = (x ^ (x >> 4)) & 0x00F000F0u;
  x ^= t ^ (t << 4);
  t = (x ^ (x >> 2)) & 0x0C0C0C0Cu;
  x ^= t ^ (t << 2);
  t = (x ^ (x >> 1)) & 0x22222222u;
  x ^= t ^ (t << 1);
  return x;
}

static inline uint32_t load_le32(const uint8_t *p)
{
  return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static inline void store_le32(uint8_t *p, uint32_t v)
{
  p[0] = (uint8_t)v;
  p[1] = (uint8_t)(v >> 8);
  p[2] = (uint8_t)(v >> 16);
  p[3] = (uint8_t)(v >> 24);
}

/* Plain lane (lo = bits 31:0, hi = bits 63:32) -> interleaved (even, odd). */
static inline void keccak_interleave(uint32_t lo, uint32_t hi, uint32_t *even, uint32_t *odd)
{
  lo = keccak_unshuffle(lo);
  hi = keccak_unshuffle(hi);
  *even = (lo & 0x0000FFFFu) | (hi << 16);
  *odd = (lo >> 16) | (hi & 0xFFFF0000u);
}

/* Interleaved (even, odd) -> plain lane (lo, hi). */
static inline void keccak_deinterleave(uint32_t even, uint32_t odd, uint32_t *lo, uint32_t *hi)
{
  *lo = keccak_shuffle((even & 0x0000FFFFu) | (odd << 16));
  *hi = keccak_shuffle((even >> 16) | (odd & 0xFFFF0000u));
}

/* XOR one plain lane (lo, hi) into lane `lane` of the interleaved state. */
static SWH_ALWAYS_INLINE void keccak_xor_words(uint32_t *s, unsigned lane, uint32_t lo, uint32_t hi)
{
  uint32_t e, o;
  keccak_interleave(lo, hi, &e, &o);
  s[2 * lane] ^= e;
  s[2 * lane + 1] ^= o;
}

/* XOR 8 message bytes into lane `lane` of the interleaved state. */
static inline void keccak_xor_lane(uint32_t *s, unsigned lane, const uint8_t *p)
{
  keccak_xor_words(s, lane, load_le32(p), load_le32(p + 4));
}

/* XOR nlanes * 8 message bytes into lanes 0..nlanes-1 (a whole block).
 * On a little-endian GCC target a word-aligned message is read with word
 * loads (through a may_alias type, so strict aliasing stays intact): that
 * saves 18 of ~80 instructions per lane on rv32. */
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__)
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define SWH_LE_WORD_LOADS 1
typedef uint32_t __attribute__((__may_alias__)) swh_u32_alias;
#endif
#endif

static SWH_ALWAYS_INLINE void keccak_xor_block(uint32_t *s, const uint8_t *p, unsigned nlanes)
{
  unsigned lane;
#ifdef SWH_LE_WORD_LOADS
  if (((uintptr_t)p & 3u) == 0) {
    const swh_u32_alias *w = (const swh_u32_alias *)(const void *)p;
    for (lane = 0; lane < nlanes; lane++)
      keccak_xor_words(s, lane, w[2 * lane], w[2 * lane + 1]);
    return;
  }
#endif
  for (lane = 0; lane < nlanes; lane++)
    keccak_xor_words(s, lane, load_le32(p + 8 * lane), load_le32(p + 8 * lane + 4));
}

/* XOR one byte into state byte `pos` (0..199). Byte k of a lane holds lane
 * bits 8k..8k+7: its even bits are word bits 4k..4k+3 of the even word, its
 * odd bits the same positions of the odd word. */
static inline void keccak_xor_byte(uint32_t *s, unsigned pos, uint8_t v)
{
  uint32_t u = keccak_unshuffle(v);
  unsigned sh = (pos & 7u) * 4u;
  s[2 * (pos >> 3)] ^= (u & 0xFu) << sh;
  s[2 * (pos >> 3) + 1] ^= ((u >> 16) & 0xFu) << sh;
}

/* Read state byte `pos` (0..199). */
static inline uint8_t keccak_get_byte(const uint32_t *s, unsigned pos)
{
  unsigned sh = (pos & 7u) * 4u;
  uint32_t u = ((s[2 * (pos >> 3)] >> sh) & 0xFu) | (((s[2 * (pos >> 3) + 1] >> sh) & 0xFu) << 16);
  return (uint8_t)keccak_shuffle(u);
}

/* ---- the permutation ------------------------------------------------------ */

/* Round constants RC[i] in interleaved form: {even, odd} for round i. */
static const uint32_t keccak_rc[48] = {
  0x00000001u, 0x00000000u, 0x00000000u, 0x00000089u, /*  0,  1 */
  0x00000000u, 0x8000008bu, 0x00000000u, 0x80008080u, /*  2,  3 */
  0x00000001u, 0x0000008bu, 0x00000001u, 0x00008000u, /*  4,  5 */
  0x00000001u, 0x80008088u, 0x00000001u, 0x80000082u, /*  6,  7 */
  0x00000000u, 0x0000000bu, 0x00000000u, 0x0000000au, /*  8,  9 */
  0x00000001u, 0x00008082u, 0x00000000u, 0x00008003u, /* 10, 11 */
  0x00000001u, 0x0000808bu, 0x00000001u, 0x8000000bu, /* 12, 13 */
  0x00000001u, 0x8000008au, 0x00000001u, 0x80000081u, /* 14, 15 */
  0x00000000u, 0x80000081u, 0x00000000u, 0x80000008u, /* 16, 17 */
  0x00000000u, 0x00000083u, 0x00000000u, 0x80008003u, /* 18, 19 */
  0x00000001u, 0x80008088u, 0x00000000u, 0x80000088u, /* 20, 21 */
  0x00000001u, 0x00008000u, 0x00000000u, 0x80008082u, /* 22, 23 */
};

/* rho on one interleaved lane after theta: source lane l (words 2l, 2l+1),
 * theta column dx, rotation r (a compile-time constant 0..62).
 * Even r: both halves rotate by r/2. Odd r: the halves swap; the new even
 * word is the old odd word rotated by (r+1)/2, the new odd word the old even
 * word rotated by (r-1)/2. The unused branch is folded away. */
#define RHO_EVEN(l, dx, r)                                                                                   \
  (((r)&1) ? ROL32(a[2 * (l) + 1] ^ Do[dx], ((r) + 1) >> 1) : ROL32(a[2 * (l)] ^ De[dx], (r) >> 1))
#define RHO_ODD(l, dx, r)                                                                                    \
  (((r)&1) ? ROL32(a[2 * (l)] ^ De[dx], (r) >> 1) : ROL32(a[2 * (l) + 1] ^ Do[dx], (r) >> 1))

/* chi with lane complementing (Keccak team, "Keccak implementation
 * overview", sec. 2.2). Inside keccak_sw_f1600 the six lanes of
 * KECCAK_COMPLEMENT_LANES are stored complemented. chi's
 * b0 ^ (~b1 & b2) then becomes, per output, an AND or an OR of the stored
 * values, and each row needs a single NOT (shared by two outputs) instead of
 * five; the output comes out in the same complemented pattern, so the pattern
 * is invariant from round to round. Which inputs arrive complemented follows
 * from the pattern (a column with an odd number of complemented lanes has a
 * complemented parity, theta spreads that into D, pi moves the lanes). The
 * formulas below were found by exhaustive search over {AND, OR} x {one NOT
 * per row} and checked on all 8 input combinations of each output; the
 * vector tests cover them as well. iota (0 except for row 0) is XOR-ed into
 * the first output.
 *
 * Each CHI_Yn writes row n's five outputs to e[w], e[w+2], ..., e[w+8]. */
#define CHI_Y0(w, iota)                                                                                      \
  do {                                                                                                       \
    uint32_t n_ = ~b2;                                                                                       \
    e[(w) + 0] = b0 ^ (b1 | b2) ^ (iota);                                                                    \
    e[(w) + 2] = b1 ^ (n_ | b3);                                                                             \
    e[(w) + 4] = b2 ^ (b3 & b4);                                                                             \
    e[(w) + 6] = b3 ^ (b4 | b0);                                                                             \
    e[(w) + 8] = b4 ^ (b0 & b1);                                                                             \
  } while (0)
#define CHI_Y1(w, iota)                                                                                      \
  do {                                                                                                       \
    uint32_t n_ = ~b4;                                                                                       \
    e[(w) + 0] = b0 ^ (b1 | b2) ^ (iota);                                                                    \
    e[(w) + 2] = b1 ^ (b2 & b3);                                                                             \
    e[(w) + 4] = b2 ^ (b3 | n_);                                                                             \
    e[(w) + 6] = b3 ^ (b4 | b0);                                                                             \
    e[(w) + 8] = b4 ^ (b0 & b1);                                                                             \
  } while (0)
#define CHI_Y2(w, iota)                                                                                      \
  do {                                                                                                       \
    uint32_t n_ = ~b3;                                                                                       \
    e[(w) + 0] = b0 ^ (b1 | b2) ^ (iota);                                                                    \
    e[(w) + 2] = b1 ^ (b2 & b3);                                                                             \
    e[(w) + 4] = b2 ^ (n_ & b4);                                                                             \
    e[(w) + 6] = n_ ^ (b4 | b0);                                                                             \
    e[(w) + 8] = b4 ^ (b0 & b1);                                                                             \
  } while (0)
#define CHI_Y3(w, iota)                                                                                      \
  do {                                                                                                       \
    uint32_t n_ = ~b3;                                                                                       \
    e[(w) + 0] = b0 ^ (b1 & b2) ^ (iota);                                                                    \
    e[(w) + 2] = b1 ^ (b2 | b3);                                                                             \
    e[(w) + 4] = b2 ^ (n_ | b4);                                                                             \
    e[(w) + 6] = n_ ^ (b4 & b0);                                                                             \
    e[(w) + 8] = b4 ^ (b0 | b1);                                                                             \
  } while (0)
#define CHI_Y4(w, iota)                                                                                      \
  do {                                                                                                       \
    uint32_t n_ = ~b1;                                                                                       \
    e[(w) + 0] = b0 ^ (n_ & b2) ^ (iota);                                                                    \
    e[(w) + 2] = n_ ^ (b2 | b3);                                                                             \
    e[(w) + 4] = b2 ^ (b3 & b4);                                                                             \
    e[(w) + 6] = b3 ^ (b4 | b0);                                                                             \
    e[(w) + 8] = b4 ^ (b0 & b1);                                                                             \
  } while (0)

/* Output row y of rho + pi + chi (+ iota for row 0). Output lane (x, y) comes
 * from input lane (x + 3y mod 5, x) rotated by that lane's rho offset; the
 * five (source lane, theta column, rotation) triples are spelled out by the
 * caller. Each half starts with a compiler barrier: without it GCC's pre-RA
 * scheduler hoists the loads of later rows, or keeps all 50 words live from
 * theta's column sums, and spills 60-250 words per round; with it every state
 * word is loaded exactly once here and nothing spills. */
#define KECCAK_ROW(y, CHI, l0, d0, r0, l1, d1, r1, l2, d2, r2, l3, d3, r3, l4, d4, r4)                       \
  do {                                                                                                       \
    uint32_t b0, b1, b2, b3, b4;                                                                             \
    SWH_BARRIER();                                                                                           \
    b0 = RHO_EVEN(l0, d0, r0);                                                                               \
    b1 = RHO_EVEN(l1, d1, r1);                                                                               \
    b2 = RHO_EVEN(l2, d2, r2);                                                                               \
    b3 = RHO_EVEN(l3, d3, r3);                                                                               \
    b4 = RHO_EVEN(l4, d4, r4);                                                                               \
    CHI(10 * (y), (y) == 0 ? rc[0] : 0u);                                                                    \
    SWH_BARRIER();                                                                                           \
    b0 = RHO_ODD(l0, d0, r0);                                                                                \
    b1 = RHO_ODD(l1, d1, r1);                                                                                \
    b2 = RHO_ODD(l2, d2, r2);                                                                                \
    b3 = RHO_ODD(l3, d3, r3);                                                                                \
    b4 = RHO_ODD(l4, d4, r4);                                                                                \
    CHI(10 * (y) + 1, (y) == 0 ? rc[1] : 0u);                                                                \
  } while (0)

/* One round: state a[] in, state e[] out, rc = {even, odd} round constant.
 * Always inlined into the loop of keccak_sw_f1600 (one copy of the code), so
 * that the callee-saved registers are saved once per permutation. */
static SWH_ALWAYS_INLINE void keccak_round(
    const uint32_t *restrict a, uint32_t *restrict e, const uint32_t *rc)
{
  uint32_t Ce[5], Co[5], De[5], Do[5];

  /* theta: column parities C[x] = XOR over y of A[x, y] ... */
  Ce[0] = a[0] ^ a[10] ^ a[20] ^ a[30] ^ a[40];
  Co[0] = a[1] ^ a[11] ^ a[21] ^ a[31] ^ a[41];
  Ce[1] = a[2] ^ a[12] ^ a[22] ^ a[32] ^ a[42];
  Co[1] = a[3] ^ a[13] ^ a[23] ^ a[33] ^ a[43];
  Ce[2] = a[4] ^ a[14] ^ a[24] ^ a[34] ^ a[44];
  Co[2] = a[5] ^ a[15] ^ a[25] ^ a[35] ^ a[45];
  Ce[3] = a[6] ^ a[16] ^ a[26] ^ a[36] ^ a[46];
  Co[3] = a[7] ^ a[17] ^ a[27] ^ a[37] ^ a[47];
  Ce[4] = a[8] ^ a[18] ^ a[28] ^ a[38] ^ a[48];
  Co[4] = a[9] ^ a[19] ^ a[29] ^ a[39] ^ a[49];

  /* ... D[x] = C[x-1] ^ rot(C[x+1], 1); a rotation by 1 of an interleaved
     * lane: even' = rol32(odd, 1), odd' = even. D is applied inside rho. */
  De[0] = Ce[4] ^ ROL32(Co[1], 1);
  Do[0] = Co[4] ^ Ce[1];
  De[1] = Ce[0] ^ ROL32(Co[2], 1);
  Do[1] = Co[0] ^ Ce[2];
  De[2] = Ce[1] ^ ROL32(Co[3], 1);
  Do[2] = Co[1] ^ Ce[3];
  De[3] = Ce[2] ^ ROL32(Co[4], 1);
  Do[3] = Co[2] ^ Ce[4];
  De[4] = Ce[3] ^ ROL32(Co[0], 1);
  Do[4] = Co[3] ^ Ce[0];

  /* rho + pi + chi (+ iota in row 0), one output row at a time:
     *            (lane, D column, rho offset) for x = 0..4            */
  KECCAK_ROW(0, CHI_Y0, 0, 0, 0, 6, 1, 44, 12, 2, 43, 18, 3, 21, 24, 4, 14);
  KECCAK_ROW(1, CHI_Y1, 3, 3, 28, 9, 4, 20, 10, 0, 3, 16, 1, 45, 22, 2, 61);
  KECCAK_ROW(2, CHI_Y2, 1, 1, 1, 7, 2, 6, 13, 3, 25, 19, 4, 8, 20, 0, 18);
  KECCAK_ROW(3, CHI_Y3, 4, 4, 27, 5, 0, 36, 11, 1, 10, 17, 2, 15, 23, 3, 56);
  KECCAK_ROW(4, CHI_Y4, 2, 2, 62, 8, 3, 55, 14, 4, 39, 15, 0, 41, 21, 1, 2);
}

/* Lanes stored complemented inside keccak_sw_f1600 (x + 5y): (1,0) (2,0)
 * (3,1) (2,2) (2,3) (0,4). Complementing both words of each = 12 NOTs. */
#define KECCAK_COMPLEMENT_LANES(s)                                                                           \
  do {                                                                                                       \
    (s)[2] = ~(s)[2];                                                                                        \
    (s)[3] = ~(s)[3]; /* lane  1 */                                                                          \
    (s)[4] = ~(s)[4];                                                                                        \
    (s)[5] = ~(s)[5]; /* lane  2 */                                                                          \
    (s)[16] = ~(s)[16];                                                                                      \
    (s)[17] = ~(s)[17]; /* lane  8 */                                                                        \
    (s)[24] = ~(s)[24];                                                                                      \
    (s)[25] = ~(s)[25]; /* lane 12 */                                                                        \
    (s)[34] = ~(s)[34];                                                                                      \
    (s)[35] = ~(s)[35]; /* lane 17 */                                                                        \
    (s)[40] = ~(s)[40];                                                                                      \
    (s)[41] = ~(s)[41]; /* lane 20 */                                                                        \
  } while (0)

void keccak_sw_f1600(uint32_t s[50])
{
  uint32_t t[50];
  uint32_t *a = s, *e = t, *tmp;
  const uint32_t *rc;

  KECCAK_COMPLEMENT_LANES(s);
  /* 24 rounds ping-pong between s and t: an even count ends in s. */
  for (rc = keccak_rc; rc != keccak_rc + 48; rc += 2) {
    keccak_round(a, e, rc);
    tmp = a;
    a = e;
    e = tmp;
  }
  KECCAK_COMPLEMENT_LANES(s);
}

/* ---- conversions ---------------------------------------------------------- */

void keccak_sw_to_lanes(const uint32_t s[50], uint32_t out_words[50])
{
  unsigned i;
  for (i = 0; i < 50; i += 2) {
    uint32_t lo, hi;
    keccak_deinterleave(s[i], s[i + 1], &lo, &hi);
    out_words[i] = lo;
    out_words[i + 1] = hi;
  }
}

void keccak_sw_from_lanes(uint32_t s[50], const uint32_t in_words[50])
{
  unsigned i;
  for (i = 0; i < 50; i += 2) {
    uint32_t e, o;
    keccak_interleave(in_words[i], in_words[i + 1], &e, &o);
    s[i] = e;
    s[i + 1] = o;
  }
}

/* ---- sponge ----------------------------------------------------------------- */

void keccak_sw_init(struct keccak_sw *c, unsigned rate_bytes, uint8_t pad_byte)
{
  uint32_t *s = c->s;
  unsigned i;

  for (i = 0; i < 50; i++) {
    SWH_OPAQUE(s);
    s[i] = 0;
  }
  c->rate = (rate_bytes >= 1u && rate_bytes <= 199u) ? rate_bytes : 0u;
  c->pos = 0;
  c->pad = pad_byte;
  c->squeezing = 0;
}

void keccak_sw_absorb(struct keccak_sw *c, const void *data, size_t len)
{
  const uint8_t *p = (const uint8_t *)data;
  const uint32_t rate = c->rate;
  uint32_t pos = c->pos;

  if (c->squeezing || pos >= rate) /* also rate == 0; pos < rate always holds
                                         unless the context was corrupted */
    return;

  while (len) {
    if (pos == 0 && len >= rate && (rate & 7u) == 0) {
      /* whole blocks: the hot path */
      do {
        keccak_xor_block(c->s, p, rate >> 3);
        keccak_sw_f1600(c->s);
        p += rate;
        len -= rate;
      } while (len >= rate);
      continue;
    }
    if ((pos & 7u) == 0 && len >= 8 && pos + 8u <= rate) {
      keccak_xor_lane(c->s, pos >> 3, p);
      pos += 8;
      p += 8;
      len -= 8;
    } else {
      keccak_xor_byte(c->s, pos, *p);
      pos++;
      p++;
      len--;
    }
    if (pos == rate) {
      keccak_sw_f1600(c->s);
      pos = 0;
    }
  }
  c->pos = pos;
}

void keccak_sw_squeeze(struct keccak_sw *c, uint8_t *out, size_t len)
{
  const uint32_t rate = c->rate;
  uint32_t pos;

  if (rate == 0) {
    while (len--) {
      SWH_OPAQUE(out);
      *out++ = 0;
    }
    return;
  }

  if (!c->squeezing) {
    /* pad10*1 with the domain bits: pad byte at pos, 0x80 in the last
         * rate byte (both XOR-ed, so they combine when pos == rate - 1). */
    keccak_xor_byte(c->s, c->pos, c->pad);
    keccak_xor_byte(c->s, rate - 1u, 0x80);
    keccak_sw_f1600(c->s);
    c->pos = 0;
    c->squeezing = 1;
  }

  pos = c->pos;
  if (pos > rate) /* corrupted context: never read outside the state */
    pos = rate;
  while (len) {
    if (pos == rate) {
      keccak_sw_f1600(c->s);
      pos = 0;
    }
    if ((pos & 7u) == 0 && len >= 8 && pos + 8u <= rate) {
      uint32_t lo, hi;
      keccak_deinterleave(c->s[pos >> 2], c->s[(pos >> 2) + 1], &lo, &hi);
      store_le32(out, lo);
      store_le32(out + 4, hi);
      pos += 8;
      out += 8;
      len -= 8;
    } else {
      *out++ = keccak_get_byte(c->s, pos);
      pos++;
      len--;
    }
  }
  c->pos = pos;
}
