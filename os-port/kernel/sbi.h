/* SPDX-License-Identifier: MIT */
/* The interface between the supervisor kernel and our machine-mode layer
 * (mtrap.c): `ecall` from S-mode with the function number in a7, arguments
 * in a0/a1, result in a0.  Modelled on the legacy SBI calls. */
#ifndef XV_SBI_H
#define XV_SBI_H
#define SBI_SET_TIMER    0 /* a0 = low, a1 = high word of the deadline */
#define SBI_PUTCHAR      1 /* a0 = character (polled, for early output) */
#define SBI_IRQ_CLAIM    2 /* -> a0 = mask of external IRQ lines pending */
#define SBI_IRQ_COMPLETE 3 /* a0 = mask of lines serviced: re-enable them */
#define SBI_SHUTDOWN     4 /* a0 = exit code (QEMU only) */
#define SBI_STATS        5 /* a0 = MSTAT_xxx -> that counter */
#define SBI_SET_TIMER_NEXT                                                                                   \
  6 /* a0 = period: deadline = previous deadline + a0
                               (skipping periods already past), no time read in S */

#define MSTAT_TIME_EMUL 0 /* emulated time/timeh reads */
#define MSTAT_REDIRECT  1 /* traps redirected to S-mode */
#define MSTAT_MTI       2 /* machine timer interrupts */
#define MSTAT_MEI       3 /* machine external interrupts */
#define MSTAT_ECALL     4 /* SBI calls from S-mode */
#define MSTAT_N         5

#ifndef __ASSEMBLER__
static inline uint32 sbi_call(uint32 fid, uint32 arg0, uint32 arg1)
{
  register uint32 a0 asm("a0") = arg0;
  register uint32 a1 asm("a1") = arg1;
  register uint32 a7 asm("a7") = fid;
  asm volatile("ecall" : "+r"(a0) : "r"(a1), "r"(a7) : "memory");
  return a0;
}
static inline void sbi_set_timer(uint64 t)
{
  sbi_call(SBI_SET_TIMER, (uint32)t, (uint32)(t >> 32));
}
static inline void sbi_set_timer_next(uint32 period)
{
  sbi_call(SBI_SET_TIMER_NEXT, period, 0);
}
static inline uint32 sbi_irq_claim(void)
{
  return sbi_call(SBI_IRQ_CLAIM, 0, 0);
}
static inline void sbi_irq_complete(uint32 m)
{
  sbi_call(SBI_IRQ_COMPLETE, m, 0);
}
static inline void sbi_shutdown(uint32 code)
{
  sbi_call(SBI_SHUTDOWN, code, 0);
}
static inline uint32 sbi_stat(uint32 i)
{
  return sbi_call(SBI_STATS, i, 0);
}
#endif
#endif
