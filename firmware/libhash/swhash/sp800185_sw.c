/* SPDX-License-Identifier: MIT */
/*
 * sp800185_sw.c - NIST SP 800-185's encodings on keccak_sw (sp800185_sw.h).
 */
#include "sp800185_sw.h"

/* x as SP 800-185's integer encoding: its big-endian bytes without leading zeros (at
 * least one byte), written to b[0..7]; returns where they start (0..7). Only constant
 * shifts: a variable 64-bit shift would call libgcc on rv32. */
static unsigned be_bytes(uint64_t x, uint8_t b[8])
{
  unsigned i, first = 7;
  for (i = 8; i-- > 0;) {
    b[i] = (uint8_t)x;
    if (b[i])
      first = i;
    x >>= 8;
  }
  return first;
}

/* left_encode(x) = n || x's n bytes; returns the bytes absorbed. */
static size_t left_encode(struct keccak_sw *c, uint64_t x)
{
  uint8_t b[9];
  unsigned first = be_bytes(x, b + 1);
  b[first] = (uint8_t)(8 - first);
  keccak_sw_absorb(c, b + first, 9 - first);
  return 9 - first;
}

void sp800185_sw_right_encode(struct keccak_sw *c, uint64_t x)
{
  uint8_t b[9];
  unsigned first = be_bytes(x, b);
  b[8] = (uint8_t)(8 - first);
  keccak_sw_absorb(c, b + first, 9 - first);
}

/* encode_string(s) = left_encode(8 * len) || s; returns the bytes absorbed. */
static size_t encode_string(struct keccak_sw *c, const void *s, size_t len)
{
  size_t n = left_encode(c, (uint64_t)len << 3);
  keccak_sw_absorb(c, s, len);
  return n + len;
}

/* The zeros that end bytepad(X, rate), `done` bytes of it absorbed so far. */
static void pad_to_rate(struct keccak_sw *c, size_t done)
{
  static const uint8_t zeros[8] = { 0 };
  size_t left = c->rate ? (c->rate - done % c->rate) % c->rate : 0;
  while (left) {
    size_t n = left < sizeof zeros ? left : sizeof zeros;
    keccak_sw_absorb(c, zeros, n);
    left -= n;
  }
}

void sp800185_sw_prefix(struct keccak_sw *c, const void *n, size_t nlen, const void *s, size_t slen)
{
  size_t done = left_encode(c, c->rate);
  done += encode_string(c, n, nlen);
  done += encode_string(c, s, slen);
  pad_to_rate(c, done);
}

void sp800185_sw_key(struct keccak_sw *c, const void *k, size_t klen)
{
  size_t done = left_encode(c, c->rate);
  done += encode_string(c, k, klen);
  pad_to_rate(c, done);
}
