/* SPDX-License-Identifier: MIT */
/*
 * keccak_sw.h - portable software Keccak-f[1600] sponge (FIPS 202):
 * SHA3-224/256/384/512, SHAKE128/256 (any output length, squeezed
 * incrementally) and the original Keccak-224/256/384/512 (pad byte 0x01).
 *
 * One source for bare-metal firmware, the xv6 kernel and xv6 user programs:
 * freestanding C99, needs only <stdint.h> and <stddef.h>, calls no library
 * function, keeps no global mutable state (reentrant), endian-neutral.
 *
 * The state is kept BIT-INTERLEAVED: each 64-bit lane i is split into two
 * 32-bit words, s[2i] = its even-numbered bits (bit 2k of the lane is bit k of
 * the word) and s[2i+1] = its odd-numbered bits. Then every 64-bit rotation is
 * two 32-bit rotations, which is what makes Keccak fast on RV32. Input is
 * interleaved on absorb and de-interleaved on squeeze; keccak_sw_to_lanes()/
 * keccak_sw_from_lanes() convert to and from the plain lane order that the
 * hardware engine's context window uses (lane i = x + 5y at words 2i = bits
 * 31:0 and 2i+1 = bits 63:32; stored little-endian these words are exactly the
 * FIPS 202 state bytes).
 *
 * Usage:
 *     struct keccak_sw c;
 *     keccak_sw_init(&c, HASH_BLOCK_SHA3_256, HASH_PAD_SHA3_256);  // hashsoc/hash_spec.h
 *     keccak_sw_absorb(&c, msg, len);     // any number of times
 *     keccak_sw_squeeze(&c, out, 32);     // first call pads; more calls
 *                                         // continue the output (XOF)
 *
 * See firmware/libhash/swhash/README.md for the optimisation choices.
 */
#ifndef KECCAK_SW_H
#define KECCAK_SW_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Rates and pad bytes are facts of the algorithms, not of this code: take them from
 * hashsoc/hash_spec.h (HASH_BLOCK_SHA3_256, HASH_PAD_SHA3_256, ..., generated from
 * gateware/hashspec.py). The rate is 200 - 2 * (security bits / 8) bytes; the pad byte
 * holds the domain bits and the first padding bit (0x06 SHA3, 0x1F SHAKE, 0x01 Keccak). */

struct keccak_sw {
  uint32_t s[50];    /* bit-interleaved lanes: s[2i] even bits, s[2i+1] odd bits of lane i */
  uint32_t rate;     /* bytes per block, 1..199 (0 = invalid rate given to init)          */
  uint32_t pos;      /* absorbing: bytes XOR-ed into the current block;
                          squeezing: bytes of the current output block already read       */
  uint8_t pad;       /* 0x06 SHA3, 0x1F SHAKE, 0x01 Keccak                                */
  uint8_t squeezing; /* 0 while absorbing, 1 once keccak_sw_squeeze() has padded          */
};

/* Start a new sponge: zero state, rate_bytes (1..199; the standard ones are
 * multiples of 8, which take the fast lane-wise path), pad_byte. A rate
 * outside 1..199 is a caller bug: absorb then ignores input and squeeze
 * outputs zero bytes (nothing is written outside the context). */
void keccak_sw_init(struct keccak_sw *c, unsigned rate_bytes, uint8_t pad_byte);

/* Absorb len more bytes (any length, any alignment). Ignored once squeezing
 * has started. */
void keccak_sw_absorb(struct keccak_sw *c, const void *data, size_t len);

/* Write the next len output bytes. The first call pads and finishes
 * absorbing; later calls continue the same output stream, so squeezing
 * 10 + 20 bytes gives the same 30 bytes as squeezing 30 at once. */
void keccak_sw_squeeze(struct keccak_sw *c, uint8_t *out, size_t len);

/* One Keccak-f[1600] permutation (24 rounds) on the bit-interleaved state. */
void keccak_sw_f1600(uint32_t s[50]);

/* Convert between the interleaved state and plain lanes (lane i: low word at
 * 2i, high word at 2i+1). in/out may be the same array. */
void keccak_sw_to_lanes(const uint32_t s[50], uint32_t out_words[50]);
void keccak_sw_from_lanes(uint32_t s[50], const uint32_t in_words[50]);

#ifdef __cplusplus
}
#endif

#endif /* KECCAK_SW_H */
