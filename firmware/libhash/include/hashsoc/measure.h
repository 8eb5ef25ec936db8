/* SPDX-License-Identifier: MIT */
/*
 * The measurement register (gateware/measure.py; docs/integrity.md, "Measured boot"),
 * for the ROM and the xv6 kernel: one copy of how it is driven.
 *
 * value := SHA-256(value || m) on each extend; 0 after reset; no other write. Words pack
 * bytes 4k..4k+3 little-endian, as the engines' digests. Include after the platform's
 * shim (HASH_PLAT: hash_plat_read/write, HASH_PLAT_SPIN_LIMIT) and LiteX's csr.h; on a
 * SoC without the register (CSR_MEASURE_BASE undefined) both calls fail with -1.
 */
#ifndef HASHSOC_MEASURE_H
#define HASHSOC_MEASURE_H

#include <stdint.h>

#define MEASURE_BYTES 32

#ifdef CSR_MEASURE_BASE
#define MEASURE_FIELD(st, f)                                                                                 \
  (((st) >> CSR_MEASURE_STATUS_##f##_OFFSET) & ((1u << CSR_MEASURE_STATUS_##f##_SIZE) - 1))

/* Poll status until (status & mask) == want; the status word, or 0xFFFFFFFF on a time-out. */
static inline uint32_t measure_wait(uint32_t mask, uint32_t want)
{
  for (uint32_t n = 0; n < HASH_PLAT_SPIN_LIMIT; n++) {
    uint32_t st = hash_plat_read(CSR_MEASURE_STATUS_ADDR);
    if ((st & mask) == want)
      return st;
  }
  return 0xFFFFFFFFu;
}
#define MEASURE_BUSY_BIT (1u << CSR_MEASURE_STATUS_BUSY_OFFSET)
#define MEASURE_WANT_BIT (1u << CSR_MEASURE_STATUS_WANT_OFFSET)

/* Extend the register with m; 0, or -1 if it did not take the extend (its count did not
 * move). The caller serialises extends (one at a time: the ROM, then the kernel's boot).
 * Each word waits for `want`: the register keeps no copy of the measurement, it hands each
 * word to its SHA-256 core as it comes, and drops one the core cannot take. */
static inline int measure_extend(const uint8_t m[MEASURE_BYTES])
{
  uint32_t before = measure_wait(MEASURE_BUSY_BIT, 0);
  if (before == 0xFFFFFFFFu)
    return -1;
  hash_plat_write(CSR_MEASURE_CTRL_ADDR, 1u << CSR_MEASURE_CTRL_START_OFFSET);
  for (int k = 0; k < MEASURE_BYTES / 4; k++) {
    if (measure_wait(MEASURE_WANT_BIT, MEASURE_WANT_BIT) == 0xFFFFFFFFu)
      return -1;
    hash_plat_write(CSR_MEASURE_DATA_ADDR,
        m[4 * k] | m[4 * k + 1] << 8 | m[4 * k + 2] << 16 | (uint32_t)m[4 * k + 3] << 24);
  }
  uint32_t after = measure_wait(MEASURE_BUSY_BIT, 0);
  uint32_t count_mask = (1u << CSR_MEASURE_STATUS_COUNT_SIZE) - 1;
  if (after == 0xFFFFFFFFu ||
      MEASURE_FIELD(after, COUNT) != ((MEASURE_FIELD(before, COUNT) + 1) & count_mask))
    return -1;
  return 0;
}

/* The value into out and the number of extends since reset; -1 on a time-out. */
static inline int measure_read(uint8_t out[MEASURE_BYTES])
{
  uint32_t st = measure_wait(MEASURE_BUSY_BIT, 0);
  if (st == 0xFFFFFFFFu)
    return -1;
  for (int k = 0; k < MEASURE_BYTES / 4; k++) {
    hash_plat_write(CSR_MEASURE_SEL_ADDR, (uint32_t)k);
    uint32_t w = hash_plat_read(CSR_MEASURE_VALUE_ADDR);
    out[4 * k] = w, out[4 * k + 1] = w >> 8, out[4 * k + 2] = w >> 16, out[4 * k + 3] = w >> 24;
  }
  return (int)MEASURE_FIELD(st, COUNT);
}
#else
static inline int measure_extend(const uint8_t m[MEASURE_BYTES])
{
  (void)m;
  return -1;
}
static inline int measure_read(uint8_t out[MEASURE_BYTES])
{
  (void)out;
  return -1;
}
#endif

#endif
