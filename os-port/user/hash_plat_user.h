/* SPDX-License-Identifier: MIT */
/* The hash library's shim for xv6 user space: the driver (firmware/libhash/driver/) is linked into
 * user programs for its software provider only. No LiteX headers, so
 * hashsoc/hash_regs.h gives both engines base 0: hardware requests fail with
 * HASH_ERR_NODEV and no register is ever touched. */
#ifndef HASH_PLAT_USER_H
#define HASH_PLAT_USER_H
#include <stdint.h>
static inline uint32_t hash_plat_read(uintptr_t addr)
{
  (void)addr;
  return 0;
}
static inline void hash_plat_write(uintptr_t addr, uint32_t v)
{
  (void)addr;
  (void)v;
}
static inline void hash_plat_lock(int engine)
{
  (void)engine;
}
static inline void hash_plat_unlock(int engine)
{
  (void)engine;
}
static inline uint32_t hash_plat_bus_addr(const void *p)
{
  return (uint32_t)(uintptr_t)p;
}
static inline void hash_plat_irq_wait(int engine, volatile int *flag)
{
  (void)engine;
  (void)flag;
}
#define HASH_PLAT_SPIN_LIMIT 1u
#endif
