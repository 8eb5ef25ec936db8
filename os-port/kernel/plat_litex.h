/* LiteX SoC with VexRiscv `linux` (see docs/xv6.md).
 * With -DLITEX_GENERATED (make LITEX_GENERATED_DIR=...), the CSR addresses
 * come from LiteX's generated headers; otherwise from plat_litex_stub.h. */
#ifndef XV_PLAT_LITEX_H
#define XV_PLAT_LITEX_H
#ifdef LITEX_GENERATED
/* We only want the address macros: no LiteX accessor functions, no libc. */
#define CSR_ACCESSORS_DEFINED 1
#define LITEX_CSR_ACCESS_FUNCTIONS 0
#include <generated/soc.h>
#include <generated/mem.h>
#include <generated/csr.h>
#else
#include "plat_litex_stub.h"
#endif

#define PLAT_NAME     "litex"
#define RAM_BASE      0x40000000u
#define RAM_SIZE      (32u * 1024 * 1024)
/* fs.img right after the kernel keeps the --ram-init image small (4 MiB) */
#define RAMDISK_BASE  (RAM_BASE + 0x200000u)     /* 0x40200000 */
#define RAMDISK_MAX   0x200000u                 /* 2 MiB */
#define UART0_IRQ     UART_INTERRUPT
#define JUNK_FILL     0    /* never touch all of RAM on the slow simulator */

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
#error "os-port expects main RAM at 0x40000000"
#endif
#if MAIN_RAM_SIZE < 0x02000000L
#error "os-port expects at least 32 MiB of main RAM"
#endif
#ifndef CSR_CPU_TIMER_LATCH_ADDR
#error "the SoC has no VexRiscv machine timer: build the CPU with add_timer() / with_timer=True"
#endif
#endif
