/* Bare-metal platform pieces: the interrupt handler and the driver's IRQ wait. */
#include <generated/csr.h>
#include <generated/soc.h>
#include <irq.h>
#include <libbase/uart.h>

#include "hashsoc/hash.h"
#include "hash_plat.h"

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
void platform_irq_init(void);
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
