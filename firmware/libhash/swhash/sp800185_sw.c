/* SPDX-License-Identifier: MIT */
/*
 * sp800185_sw.c - NIST SP 800-185's encodings, for keccak_sw and for the engine (sp800185_sw.h).
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

/* left_encode(x) = n || x's n bytes, to out; returns the byte count. */
static size_t left_encode(sp800185_out *out, void *arg, uint64_t x)
{
  uint8_t b[9];
  unsigned first = be_bytes(x, b + 1);
  b[first] = (uint8_t)(8 - first);
  out(arg, b + first, 9 - first);
  return 9 - first;
}

void sp800185_right_encode(sp800185_out *out, void *arg, uint64_t x)
{
  uint8_t b[9];
  unsigned first = be_bytes(x, b);
  b[8] = (uint8_t)(8 - first);
  out(arg, b + first, 9 - first);
}

/* encode_string(s) = left_encode(8 * len) || s; returns the byte count. */
static size_t encode_string(sp800185_out *out, void *arg, const void *s, size_t len)
{
  size_t n = left_encode(out, arg, (uint64_t)len << 3);
  if (len)
    out(arg, s, len);
  return n + len;
}

/* The zeros that end bytepad(X, rate), `done` bytes of it written so far; returns the
 * bytepad's length. A call to out for a whole rate of them, not a call per few: every
 * call costs the sink its own overhead. */
static size_t pad_to_rate(sp800185_out *out, void *arg, size_t rate, size_t done)
{
  static const uint8_t zeros[200] = { 0 }; /* a whole state: more than any rate */
  size_t left = rate ? (rate - done % rate) % rate : 0, all = done + left; /* (rate 0: an invalid sponge) */
  while (left) {
    size_t n = left < sizeof zeros ? left : sizeof zeros;
    out(arg, zeros, n);
    left -= n;
  }
  return all;
}

size_t sp800185_prefix(
    sp800185_out *out, void *arg, size_t rate, const void *n, size_t nlen, const void *s, size_t slen)
{
  size_t done = left_encode(out, arg, rate);
  done += encode_string(out, arg, n, nlen);
  done += encode_string(out, arg, s, slen);
  return pad_to_rate(out, arg, rate, done);
}

size_t sp800185_key(sp800185_out *out, void *arg, size_t rate, const void *k, size_t klen)
{
  size_t done = left_encode(out, arg, rate);
  done += encode_string(out, arg, k, klen);
  return pad_to_rate(out, arg, rate, done);
}

/* The software sponge as an out. */
static void absorb(void *c, const void *p, size_t n)
{
  keccak_sw_absorb(c, p, n);
}

void sp800185_sw_prefix(struct keccak_sw *c, const void *n, size_t nlen, const void *s, size_t slen)
{
  sp800185_prefix(absorb, c, c->rate, n, nlen, s, slen);
}

void sp800185_sw_key(struct keccak_sw *c, const void *k, size_t klen)
{
  sp800185_key(absorb, c, c->rate, k, klen);
}

void sp800185_sw_right_encode(struct keccak_sw *c, uint64_t x)
{
  sp800185_right_encode(absorb, c, x);
}
