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
#define MEASURE_WORD(base, k) ((uintptr_t)(base) + 4 * (k))
#define MEASURE_BUSY(st)      (((st) >> CSR_MEASURE_STATUS_BUSY_OFFSET) & 1)
#define MEASURE_COUNT(st)                                                                                    \
  (((st) >> CSR_MEASURE_STATUS_COUNT_OFFSET) & ((1u << CSR_MEASURE_STATUS_COUNT_SIZE) - 1))

/* Wait until no extend is in progress; the status word, or 0xFFFFFFFF on a time-out. */
static inline uint32_t measure_idle(void)
{
  for (uint32_t n = 0; n < HASH_PLAT_SPIN_LIMIT; n++) {
    uint32_t st = hash_plat_read(CSR_MEASURE_STATUS_ADDR);
    if (!MEASURE_BUSY(st))
      return st;
  }
  return 0xFFFFFFFFu;
}

/* Extend the register with m; 0, or -1 if it did not take the extend (its count did not
 * move). The caller serialises extends (one at a time: the ROM, then the kernel's boot). */
static inline int measure_extend(const uint8_t m[MEASURE_BYTES])
{
  uint32_t before = measure_idle();
  if (before == 0xFFFFFFFFu)
    return -1;
  for (int k = 0; k < MEASURE_BYTES / 4; k++)
    hash_plat_write(MEASURE_WORD(CSR_MEASURE_DATA0_ADDR, k),
        m[4 * k] | m[4 * k + 1] << 8 | m[4 * k + 2] << 16 | (uint32_t)m[4 * k + 3] << 24);
  hash_plat_write(CSR_MEASURE_CTRL_ADDR, 1u << CSR_MEASURE_CTRL_EXTEND_OFFSET);
  uint32_t after = measure_idle();
  return after != 0xFFFFFFFFu && MEASURE_COUNT(after) == ((MEASURE_COUNT(before) + 1) &
                                                             ((1u << CSR_MEASURE_STATUS_COUNT_SIZE) - 1))
             ? 0
             : -1;
}

/* The value into out and the number of extends since reset; -1 on a time-out. */
static inline int measure_read(uint8_t out[MEASURE_BYTES])
{
  uint32_t st = measure_idle();
  if (st == 0xFFFFFFFFu)
    return -1;
  for (int k = 0; k < MEASURE_BYTES / 4; k++) {
    uint32_t w = hash_plat_read(MEASURE_WORD(CSR_MEASURE_VALUE0_ADDR, k));
    out[4 * k] = w, out[4 * k + 1] = w >> 8, out[4 * k + 2] = w >> 16, out[4 * k + 3] = w >> 24;
  }
  return (int)MEASURE_COUNT(st);
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
