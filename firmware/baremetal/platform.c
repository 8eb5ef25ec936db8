/* SPDX-License-Identifier: MIT */
/* Bare-metal platform pieces: the interrupt handler, the driver's IRQ wait, the console. */
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
#ifdef SHA512_INTERRUPT
  if (pending & (1u << SHA512_INTERRUPT))
    hash_isr(HASH_ENGINE_SHA512);
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
#ifdef SHA512_INTERRUPT
  mask |= 1u << SHA512_INTERRUPT;
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

/* The console: stdout, stderr and stdin for picolibc, in place of LiteX's (libc's
 * stdio.c, which then is not linked). LiteX's uart_write() goes through its interrupt-
 * driven ring buffer once interrupts are on, as they are here for the engines: ~55 clocks
 * more per character than writing the UART's FIFO when it has room. The self-test prints
 * ~200 KB, all from the main program, never from an interrupt handler, so it writes the
 * FIFO directly: litex_sim's self-test took 67.8 M clocks before, 57.1 M after. Input
 * still comes through LiteX's receive ring (uart_isr fills it). */
static int console_putc(char c, FILE *f)
{
  if (c == '\n')
    console_putc('\r', f);
  while (uart_txfull_read())
    ;
  uart_rxtx_write(c);
  return c;
}

static int console_getc(FILE *f)
{
  (void)f;
  for (;;)
    if (uart_read_nonblock())
      return uart_read();
}

static FILE console = FDEV_SETUP_STREAM(console_putc, console_getc, NULL, _FDEV_SETUP_RW);
FILE *const stdout = &console;
FILE *const stderr = &console;
FILE *const stdin = &console;
