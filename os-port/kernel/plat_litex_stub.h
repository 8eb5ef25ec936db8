/* Stand-in for LiteX's generated headers (generated/csr.h, soc.h, mem.h),
 * used when LITEX_GENERATED_DIR is not given to make.  The values are those
 * LiteX 2024.12 generated for litex_sim's SimSoC with a VexRiscv `linux`
 * CPU, cpu.add_timer(), 32 MiB main RAM and a 1 MHz clock (CSR bus at
 * 0xF0000000, 32-bit CSRs) but they are NOT authoritative: build with
 * LITEX_GENERATED_DIR=<build>/software/include/generated for the real SoC. */
#ifndef XV_PLAT_LITEX_STUB_H
#define XV_PLAT_LITEX_STUB_H
#ifndef CSR_BASE
#define CSR_BASE 0xf0000000L
#endif
/* VexRiscvTimer (cpu_timer_*) : latch, time (64), time_cmp (64) */
#define CSR_CPU_TIMER_BASE          (CSR_BASE + 0x0000L)
#define CSR_CPU_TIMER_LATCH_ADDR    (CSR_BASE + 0x0000L)
#define CSR_CPU_TIMER_TIME_ADDR     (CSR_BASE + 0x0004L)
#define CSR_CPU_TIMER_TIME_CMP_ADDR (CSR_BASE + 0x000cL)
/* UART */
#define CSR_UART_BASE               (CSR_BASE + 0x2000L)
#define UART_INTERRUPT              0
#define CONFIG_CLOCK_FREQUENCY      1000000
#define MAIN_RAM_BASE               0x40000000L
#define MAIN_RAM_SIZE               0x02000000L
#define XV_LITEX_STUB               1
#endif
