/* SPDX-License-Identifier: MIT */
/*
 * The hash library's shim for the xv6 kernel: the platform half of
 * firmware/libhash/driver/ (contract in docs/driver-api.md; the functions
 * are in kernel/hashplat.c).
 *  - registers: one 32-bit access through the kernel page table, where the
 *    engine CSRs (in the 0xF0000000 CSR window) and the data windows
 *    (hash_spec.h's HASH_ENGINE_WINDOW_*) are mapped at virtual = physical;
 *  - lock: a sleep lock per engine (the driver holds it across waits);
 *  - bus address: kernel virtual = physical (RAM is mapped 1:1), and user
 *    buffers are handed to the driver as the physical addresses of their
 *    physically contiguous runs of pages by khash.c (hash_update_segs);
 *  - irq wait: sleep until the engine's interrupt (hash_isr, called from
 *    trap.c's devintr) wakes us, bounded by a few timer ticks.
 * On QEMU there are no engines: LiteX's headers are absent, hash_regs.h gives
 * base 0 for both engines, hash_probe() finds none and hardware requests fail.
 */
#ifndef HASH_PLAT_KERNEL_H
#define HASH_PLAT_KERNEL_H

#include <stdint.h>
#ifdef PLATFORM_LITEX
#include "plat_litex.h" /* generated/csr.h, mem.h, soc.h (address macros only) */
#endif

static inline uint32_t hash_plat_read(uintptr_t addr)
{
  return *(volatile uint32_t *)addr;
}
static inline void hash_plat_write(uintptr_t addr, uint32_t v)
{
  *(volatile uint32_t *)addr = v;
}

void hash_plat_lock(int engine);
void hash_plat_unlock(int engine);
void hash_plat_irq_wait(int engine, volatile int *flag);

static inline uint32_t hash_plat_bus_addr(const void *p)
{
  return (uint32_t)(uintptr_t)p;
}

/* a status poll is one CSR-bus read (~10 clocks): 20M polls is ~10 s of a
 * 20 MHz CPU, far above any real wait (1 MiB of DMA is ~1.1M clocks) */
#define HASH_PLAT_SPIN_LIMIT 20000000u

/* With HASH_F_IRQ the driver first polls this many times (~10 clocks a poll: about the time
 * a 4 KiB DMA takes), then sleeps: an interrupt round trip through the machine-mode layer
 * and the scheduler costs more than a short wait. */
#define HASH_PLAT_POLLS_BEFORE_SLEEP 512u

/* The device key in software: only QEMU, which has no engine, gets one, a public and
 * INSECURE stand-in (k/qemukey.c, generated from tools/qemu-device-key.hex, the file the
 * QEMU image's manifest is signed with: docs/integrity.md). On LiteX the key is in the
 * engine alone, and software HMAC with HASH_F_DEVKEY fails (HASH_ERR_NODEV). */
#ifdef PLATFORM_QEMU
extern const unsigned char qemu_device_key[];
#define HASH_PLAT_SW_DEVICE_KEY qemu_device_key
#endif

/* The longest descriptor list the driver builds: khash.c hands it at most
 * one KHASH_CHUNK of user pages at a time (17 runs), so the driver's lists
 * need not take the engine's HASH_SG_MAX (2 KiB each). */
#define HASH_PLAT_SG_MAX 32

#endif
