/* SPDX-License-Identifier: MIT */
/* Machine-mode platform code for QEMU virt: CLINT timer, PLIC context 0
 * (hart 0, machine mode), 16550 for polled output, sifive_test poweroff. */
#include "types.h"
#include "param.h"
#include "memlayout.h"
#include "riscv.h"
#include "mplat.h"

#define R32(a)              (*(volatile uint32 *)(uintptr)(a))
#define PLIC_PRIORITY(irq)  (PLIC_BASE + 4 * (irq))
#define PLIC_ENABLE(ctx)    (PLIC_BASE + 0x2000 + 0x80 * (ctx))
#define PLIC_THRESHOLD(ctx) (PLIC_BASE + 0x200000 + 0x1000 * (ctx))
#define PLIC_CLAIM(ctx)     (PLIC_BASE + 0x200004 + 0x1000 * (ctx))
#define MCTX                0 /* hart 0, M-mode */
#define SCTX                1 /* hart 0, S-mode: unused */

uint64 mplat_time(void)
{
  uint32 hi, lo;
  do {
    hi = R32(CLINT_MTIME + 4);
    lo = R32(CLINT_MTIME);
  } while (hi != R32(CLINT_MTIME + 4));
  return ((uint64)hi << 32) | lo;
}

void mplat_set_timecmp(uint64 t)
{
  R32(CLINT_MTIMECMP(0) + 4) = 0xffffffff; /* no spurious match midway */
  R32(CLINT_MTIMECMP(0)) = (uint32)t;
  R32(CLINT_MTIMECMP(0) + 4) = (uint32)(t >> 32);
}

void mplat_init(void)
{
  mplat_set_timecmp(~0ULL);
  R32(PLIC_PRIORITY(UART0_IRQ)) = 1;
  R32(PLIC_ENABLE(MCTX)) = 1u << UART0_IRQ;
  R32(PLIC_THRESHOLD(MCTX)) = 0;
  R32(PLIC_ENABLE(SCTX)) = 0;
}

uint32 mplat_irq_claim(void)
{
  uint32 m = 0, id;
  /* a claimed source stays quiet until it is completed */
  while ((id = R32(PLIC_CLAIM(MCTX))) != 0)
    m |= 1u << id;
  return m;
}

void mplat_irq_complete(uint32 mask)
{
  for (uint32 id = 1; id < 32; id++)
    if (mask & (1u << id))
      R32(PLIC_CLAIM(MCTX)) = id;
}

void mplat_putc(int c)
{
  volatile uchar *u = (volatile uchar *)UART0;
  while ((u[5] & 0x20) == 0)
    ;
  u[0] = c;
}

void mplat_shutdown(uint32 code)
{
  R32(VIRT_TEST) = code == 0 ? 0x5555 : ((code << 16) | 0x3333);
  for (;;)
    ;
}
