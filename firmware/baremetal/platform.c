/* SPDX-License-Identifier: MIT */
/* Bare-metal platform pieces: the interrupt handler and the driver's IRQ wait. */
#include <generated/csr.h>
#include <generated/soc.h>
#include <irq.h>
#include <stdio.h>
#include <libbase/uart.h>

#include "hashsoc/hash.h"
#include "hash_plat_baremetal.h"
#include "hashsoc/soc_id.h"
#include "board.h"

void isr(void);
void isr(void)
{
  uint32_t pending = irq_pending() & irq_getmask();
#ifdef SHA256_INTERRUPT
  if (pending & (1u << SHA256_INTERRUPT))
    hash_isr(HASH_ENGINE_SHA256);
#endif
#ifdef KECCAK_INTERRUPT
  if (pending & (1u << KECCAK_INTERRUPT))
    hash_isr(HASH_ENGINE_KECCAK);
#endif
#if !defined(UART_POLLING) && defined(UART_INTERRUPT)
  if (pending & (1u << UART_INTERRUPT))
    uart_isr();
#endif
}

void hash_plat_irq_wait(int engine, volatile int *flag)
{
  (void)engine;
  for (uint32_t n = 0; !*flag && n < HASH_PLAT_SPIN_LIMIT; n++)
    ;
}

/* Route the engines' interrupts to the CPU (called once from main). */
void platform_irq_init(void)
{
  uint32_t mask = irq_getmask();
#ifdef SHA256_INTERRUPT
  mask |= 1u << SHA256_INTERRUPT;
#endif
#ifdef KECCAK_INTERRUPT
  mask |= 1u << KECCAK_INTERRUPT;
#endif
  irq_setmask(mask);
  /* LiteX's irq_setie() sets only mstatus.MIE; the linux variant of VexRiscv also
   * gates its external interrupt with the standard mie.MEIE bit. */
  asm volatile("csrs mie, %0" ::"r"(1u << 11));
  irq_setie(1);
}

/* Stop here, before any engine is touched, unless this is the SoC the firmware was built for
 * (firmware/libhash/include/hashsoc/soc_id.h). Called first from main. On the wrong SoC only the
 * pinned CSRs are used (UART, soc_id, identifier), and the program idles instead of
 * finish()ing: sim_finish may be another peripheral there. */
void platform_check_soc(void)
{
  uint32_t found;
  char ident[64];
  if (hashsoc_soc_check(&found, ident, sizeof(ident)) == 0)
    return;
  printf(HASHSOC_SOC_MISMATCH_FMT, CONFIG_IDENTIFIER, (unsigned)CONFIG_SOC_ID, ident, (unsigned)found);
  for (;;)
    ;
}
