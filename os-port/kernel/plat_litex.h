/* SPDX-License-Identifier: MIT */
/* LiteX SoC with VexRiscv `linux` (see docs/xv6.md). Everything that differs
 * between HashSoCs (CSR addresses, interrupts, the timebase, the RAM) comes from
 * the SoC's own generated headers: the Makefile refuses to build without them,
 * and socid.c stops a kernel that boots on another SoC. */
#ifndef XV_PLAT_LITEX_H
#define XV_PLAT_LITEX_H
/* We only want the address macros: no LiteX accessor functions, no libc. */
#define CSR_ACCESSORS_DEFINED      1
#define LITEX_CSR_ACCESS_FUNCTIONS 0
#include <generated/soc.h>
#include <generated/mem.h>
#include <generated/csr.h>

#define PLAT_NAME    "litex"
#define RAM_BASE     ((uint32)MAIN_RAM_BASE)
#define RAM_SIZE     ((uint32)MAIN_RAM_SIZE)
/* fs.img right after the kernel keeps the --ram-init image small (4 MiB) */
#define RAMDISK_BASE (RAM_BASE + 0x200000u) /* 0x40200000 */
#define RAMDISK_MAX  0x200000u              /* 2 MiB */
#define UART0_IRQ    UART_INTERRUPT
#define JUNK_FILL    0 /* never touch all of RAM on the slow simulator */

/* the CSR window mapped into the kernel page table */
#define LITEX_CSR_WINDOW_BASE ((uint32)CSR_BASE)
#define LITEX_CSR_WINDOW_SIZE 0x10000u

/* LiteX UART registers: 32-bit, 4 bytes apart */
#define LX_UART_RXTX       0x00
#define LX_UART_TXFULL     0x04
#define LX_UART_RXEMPTY    0x08
#define LX_UART_EV_STATUS  0x0c
#define LX_UART_EV_PENDING 0x10
#define LX_UART_EV_ENABLE  0x14
#define LX_UART_EV_TX      0x1
#define LX_UART_EV_RX      0x2

/* VexRiscv custom CSRs for the external interrupt array (machine level) */
#define VEX_CSR_IRQ_MASK    0xBC0
#define VEX_CSR_IRQ_PENDING 0xFC0

#if MAIN_RAM_BASE != 0x40000000L
#error "os-port expects main RAM at 0x40000000 (the kernel is linked there)"
#endif
#if MAIN_RAM_SIZE < 0x00800000L
#error "os-port expects at least 8 MiB of main RAM (kernel, RAM disk, pages)"
#endif
#if TIMEBASE_HZ != CONFIG_CLOCK_FREQUENCY
#error "TIMEBASE_HZ (from the Makefile) is not this SoC's CONFIG_CLOCK_FREQUENCY"
#endif
#ifndef CSR_CPU_TIMER_LATCH_ADDR
#error "the SoC has no VexRiscv machine timer: build the CPU with add_timer() / with_timer=True"
#endif
#endif
