/* SPDX-License-Identifier: MIT */
/* Machine-mode platform code for LiteX + VexRiscv `linux`.
 *  - timer: LiteX VexRiscvTimer CSRs (cpu_timer_*).  Writing LATCH copies
 *    the running counter into TIME and TIME_CMP into the comparator; 64-bit
 *    CSRs are two 32-bit words with the HIGH word at the lower address.
 *  - external interrupts: VexRiscv's custom CSRs 0xBC0 (mask) and 0xFC0
 *    (pending), one bit per LiteX IRQ line. */
#include "types.h"
#include "param.h"
#include "memlayout.h"
#include "riscv.h"
#include "mplat.h"

#define R32(a) (*(volatile uint32 *)(uintptr)(a))
/* the UART and, when the SoC has them, the hash engines (kernel/khash.c) */
#ifdef SHA256_INTERRUPT
#define SHA256_IRQ_BIT (1u << SHA256_INTERRUPT)
#else
#define SHA256_IRQ_BIT 0u
#endif
#ifdef KECCAK_INTERRUPT
#define KECCAK_IRQ_BIT (1u << KECCAK_INTERRUPT)
#else
#define KECCAK_IRQ_BIT 0u
#endif
#ifdef SHA512_INTERRUPT
#define SHA512_IRQ_BIT (1u << SHA512_INTERRUPT)
#else
#define SHA512_IRQ_BIT 0u
#endif
#define HANDLED_IRQS ((1u << UART0_IRQ) | SHA256_IRQ_BIT | KECCAK_IRQ_BIT | SHA512_IRQ_BIT)

static inline uint32 irq_mask_read(void)
{
  uint32 v;
  asm volatile("csrr %0, 0xBC0" : "=r"(v));
  return v;
}
static inline void irq_mask_write(uint32 v)
{
  asm volatile("csrw 0xBC0, %0" ::"r"(v));
}
static inline uint32 irq_pending_read(void)
{
  uint32 v;
  asm volatile("csrr %0, 0xFC0" : "=r"(v));
  return v;
}

uint64 mplat_time(void)
{
  R32(CSR_CPU_TIMER_LATCH_ADDR) = 1;
  uint32 hi = R32(CSR_CPU_TIMER_TIME_ADDR);
  uint32 lo = R32(CSR_CPU_TIMER_TIME_ADDR + 4);
  return ((uint64)hi << 32) | lo;
}

void mplat_set_timecmp(uint64 t)
{
  R32(CSR_CPU_TIMER_TIME_CMP_ADDR) = (uint32)(t >> 32);
  R32(CSR_CPU_TIMER_TIME_CMP_ADDR + 4) = (uint32)t;
  R32(CSR_CPU_TIMER_LATCH_ADDR) = 1; /* load the comparator */
}

void mplat_init(void)
{
  mplat_set_timecmp(~0ULL);
  irq_mask_write(HANDLED_IRQS);
}

uint32 mplat_irq_claim(void)
{
  uint32 mask = irq_mask_read();
  uint32 p = irq_pending_read() & mask;
  irq_mask_write(mask & ~p);
  return p;
}

void mplat_irq_complete(uint32 m)
{
  irq_mask_write(irq_mask_read() | (m & HANDLED_IRQS));
}

void mplat_putc(int c)
{
  while (R32(CSR_UART_BASE + LX_UART_TXFULL))
    ;
  R32(CSR_UART_BASE + LX_UART_RXTX) = c;
}

void mplat_shutdown(uint32 code)
{
  (void)code;
  for (;;)
    asm volatile("wfi");
}
