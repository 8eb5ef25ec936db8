/* SPDX-License-Identifier: MIT */
/*
 * The hash library's shim for bare-metal firmware on HashSoC (LiteX BIOS libraries).
 * The xv6 kernel and xv6 user space have their own, with the same names
 * (os-port/kernel/hash_plat_kernel.h, os-port/user/hash_plat_user.h).
 */
#ifndef HASH_PLAT_BAREMETAL_H
#define HASH_PLAT_BAREMETAL_H

#include <stdint.h>
#include <generated/csr.h>
#include <generated/mem.h>

static inline uint32_t hash_plat_read(uintptr_t addr)
{
  return *(volatile uint32_t *)addr;
}
static inline void hash_plat_write(uintptr_t addr, uint32_t v)
{
  *(volatile uint32_t *)addr = v;
}

/* One CPU, no OS: nothing to lock. */
static inline void hash_plat_lock(int engine)
{
  (void)engine;
}
static inline void hash_plat_unlock(int engine)
{
  (void)engine;
}

/* Physical = virtual here. */
static inline uint32_t hash_plat_bus_addr(const void *p)
{
  return (uint32_t)(uintptr_t)p;
}

/* Wait for hash_isr() to have run for this engine (HASH_F_IRQ): platform.c's
 * interrupt handler calls hash_isr(); until then the CPU spins on the flag, which sits in
 * cached RAM, so the spin makes no bus traffic (bounded by HASH_PLAT_SPIN_LIMIT). */
void hash_plat_irq_wait(int engine, volatile int *flag);

/* Bound on polling loops: far above any legitimate wait (a 64 KiB DMA is ~70k clocks). */
#define HASH_PLAT_SPIN_LIMIT 50000000u

#endif
