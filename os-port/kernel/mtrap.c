/* SPDX-License-Identifier: MIT */
/* The machine-mode layer: a minimal SBI-like monitor shared by both
 * platforms.
 *
 *  - mstart(): delegation, trap vector, interrupt enables, enter S-mode.
 *  - emulation of `csrr rd, time/timeh` (rdtime/rdtimeh) for S and U mode:
 *    VexRiscv has no time CSR, and on QEMU mcounteren.TM is kept 0 so that
 *    it takes the same path.  mtval holds the instruction word.
 *  - timer: the machine timer interrupt raises STIP and masks MTIE;
 *    SBI_SET_TIMER / SBI_SET_TIMER_NEXT program the next deadline, clear
 *    STIP and unmask MTIE.
 *  - external interrupts: taken at machine level (VexRiscv has no S-level
 *    external input), the lines are masked and remembered, and SSIP is
 *    raised; S-mode asks which lines with SBI_IRQ_CLAIM and re-enables
 *    them with SBI_IRQ_COMPLETE once the devices are serviced.
 *  - every other trap that reaches machine mode is redirected to S-mode
 *    as if it had been delegated. */
#include "types.h"
#include "param.h"
#include "memlayout.h"
#include "riscv.h"
#include "sbi.h"
#include "mplat.h"

extern char mtrapvec[], sentry[];
extern uint32 mframe[];

/* M-mode data, touched only in machine mode.  No lock protects it: M-mode
 * traps do not nest (mstatus.MIE is off in mtrap()) and there is one
 * hart; S-mode reaches it only through the SBI calls below. */
static uint32 irq_pending;   /* lines taken by M-mode, not yet claimed */
static uint64 last_deadline; /* the last timer compare value set */
/* statistics, read with SBI_STATS */
static uint32 mstats[MSTAT_N];

static void mputs(const char *s)
{
  while (*s)
    mplat_putc(*s++);
}

static void mputhex(uint32 v)
{
  for (int k = 28; k >= 0; k -= 4)
    mplat_putc("0123456789abcdef"[(v >> k) & 0xf]);
}

static void mpanic(const char *why, uint32 *regs)
{
  mputs("\nmpanic: ");
  mputs(why);
  mputs(" mcause=");
  mputhex(CSR_READ(mcause));
  mputs(" mepc=");
  mputhex(CSR_READ(mepc));
  mputs(" mtval=");
  mputhex(CSR_READ(mtval));
  mputs(" mstatus=");
  mputhex(CSR_READ(mstatus));
  if (regs) {
    mputs(" ra=");
    mputhex(regs[1]);
    mputs(" sp=");
    mputhex(regs[2]);
  }
  mputs("\n");
  for (;;)
    ;
}

/* Set up machine mode and drop to S-mode at sentry (mstart.S), with
 * paging off and S-mode interrupts disabled.  What is delegated goes
 * straight to the kernel's stvec; the rest comes here. */
void mstart(void)
{
  uint32 x = CSR_READ(mstatus);
  x &= ~(MSTATUS_MPP_MASK | MSTATUS_MPRV | MSTATUS_SIE | MSTATUS_MIE);
  x |= MSTATUS_MPP_S;
  CSR_WRITE(mstatus, x);
  CSR_WRITE(mepc, (uintptr)sentry);
  CSR_WRITE(satp, 0);

  /* Exceptions S-mode handles directly.  Not illegal instruction (time
   * emulation), not access faults and not ecall from S (ours). */
  CSR_WRITE(medeleg, (1u << CAUSE_MISALIGNED_FETCH) | (1u << CAUSE_BREAKPOINT) |
                         (1u << CAUSE_MISALIGNED_LOAD) | (1u << CAUSE_MISALIGNED_STORE) |
                         (1u << CAUSE_USER_ECALL) | (1u << CAUSE_FETCH_PAGE_FAULT) |
                         (1u << CAUSE_LOAD_PAGE_FAULT) | (1u << CAUSE_STORE_PAGE_FAULT));
  /* the S-level interrupts, which M-mode raises by setting their mip
   * bits, go to S-mode; the M-level timer and external interrupts stay
   * here */
  CSR_WRITE(mideleg, MIP_SSIP | MIP_STIP | MIP_SEIP);
  CSR_WRITE(mtvec, (uintptr)mtrapvec);
  CSR_WRITE(mscratch, (uintptr)mframe);

  mplat_init();
  CSR_WRITE(mip, 0);
  CSR_WRITE(mie, MIE_MTIE | MIE_MEIE);
  asm volatile("mret");
  for (;;)
    ;
}

/* Deliver the current exception to S-mode as if medeleg had delegated it:
 * do by hand what the hardware does on a delegated trap (scause, sepc,
 * stval, SPP from the previous mode, SPIE from SIE, SIE off), then mret
 * to the kernel's stvec in S-mode.  A trap from M-mode itself is a bug in
 * this layer. */
static void redirect_to_s(uint32 *regs, uint32 cause, uint32 tval)
{
  uint32 ms = CSR_READ(mstatus);
  uint32 mpp = ms & MSTATUS_MPP_MASK;
  if (mpp == MSTATUS_MPP_M)
    mpanic("trap in machine mode", regs);
  mstats[MSTAT_REDIRECT]++;
  CSR_WRITE(scause, cause);
  CSR_WRITE(sepc, CSR_READ(mepc));
  CSR_WRITE(stval, tval);
  if (mpp == MSTATUS_MPP_S)
    ms |= MSTATUS_SPP;
  else
    ms &= ~MSTATUS_SPP;
  if (ms & MSTATUS_SIE)
    ms |= MSTATUS_SPIE;
  else
    ms &= ~MSTATUS_SPIE;
  ms &= ~MSTATUS_SIE;
  ms = (ms & ~MSTATUS_MPP_MASK) | MSTATUS_MPP_S;
  CSR_WRITE(mstatus, ms);
  CSR_WRITE(mepc, CSR_READ(stvec) & ~3u);
}

/* Fallback when mtval does not carry the instruction: load it from mepc
 * with the privilege (and translation) of the trapping mode. */
static uint32 fetch_insn(uint32 epc)
{
  uint32 insn, tmp;
  asm volatile("li %1, %3\n"
               "csrs mstatus, %1\n"
               "lw %0, 0(%2)\n"
               "csrc mstatus, %1\n"
               : "=&r"(insn), "=&r"(tmp)
               : "r"(epc), "i"(MSTATUS_MPRV | MSTATUS_MXR)
               : "memory");
  return insn;
}

/* csrr rd, time / timeh, in any of the read-only encodings:
 * csrrs/csrrc rd, csr, x0 and csrrsi/csrrci rd, csr, 0. */
static int emulate_time_read(uint32 *regs)
{
  uint32 insn = CSR_READ(mtval);
  if (insn == 0)
    insn = fetch_insn(CSR_READ(mepc));
  if ((insn & 0x7f) != 0x73)
    return 0;
  uint32 funct3 = (insn >> 12) & 7;
  uint32 rs1 = (insn >> 15) & 31;
  uint32 rd = (insn >> 7) & 31;
  uint32 csr = insn >> 20;
  if (!(funct3 == 2 || funct3 == 3 || funct3 == 6 || funct3 == 7) || rs1 != 0)
    return 0;
  uint32 v;
  if (csr == 0xC01)
    v = (uint32)mplat_time();
  else if (csr == 0xC81)
    v = (uint32)(mplat_time() >> 32);
  else
    return 0;
  if (rd != 0)
    regs[rd] = v;
  mstats[MSTAT_TIME_EMUL]++;
  CSR_WRITE(mepc, CSR_READ(mepc) + 4);
  return 1;
}

static void sbi_dispatch(uint32 *regs)
{
  uint32 a0 = regs[10], a1 = regs[11], ret = 0;
  mstats[MSTAT_ECALL]++;
  switch (regs[17]) {
  case SBI_SET_TIMER:
  case SBI_SET_TIMER_NEXT: {
    uint64 t = ((uint64)a1 << 32) | a0;
    if (regs[17] == SBI_SET_TIMER_NEXT) {
      t = last_deadline + a0;
      uint64 now = mplat_time();
      if (t <= now && a0 != 0) /* late: skip to the next grid point */
        t = last_deadline + ((now - last_deadline) / a0 + 1) * a0;
    }
    last_deadline = t;
    mplat_set_timecmp(t);
    CSR_CLEAR(mip, MIP_STIP);
    CSR_SET(mie, MIE_MTIE);
    break;
  }
  case SBI_PUTCHAR:
    mplat_putc(a0);
    break;
  case SBI_IRQ_CLAIM:
    ret = irq_pending;
    irq_pending = 0;
    break;
  case SBI_IRQ_COMPLETE:
    mplat_irq_complete(a0);
    break;
  case SBI_SHUTDOWN:
    mplat_shutdown(a0);
    break;
  case SBI_STATS:
    ret = a0 < MSTAT_N ? mstats[a0] : 0;
    break;
  default:
    ret = (uint32)-1;
    break;
  }
  regs[10] = ret;
  CSR_WRITE(mepc, CSR_READ(mepc) + 4);
}

void mtrap(uint32 *regs)
{
  uint32 cause = CSR_READ(mcause);
  if (cause & CAUSE_INTR) {
    switch (cause & ~CAUSE_INTR) {
    case IRQ_MTI:
      /* Pass the tick on as STIP.  MTIE goes off because the machine
       * timer interrupt stays pending until the compare register moves:
       * the kernel's next SBI_SET_TIMER* moves it and unmasks MTIE. */
      mstats[MSTAT_MTI]++;
      CSR_SET(mip, MIP_STIP);
      CSR_CLEAR(mie, MIE_MTIE);
      return;
    case IRQ_MEI:
      /* the lines are masked by the claim until SBI_IRQ_COMPLETE, so the
       * level-triggered interrupt does not come straight back */
      mstats[MSTAT_MEI]++;
      irq_pending |= mplat_irq_claim();
      CSR_SET(mip, MIP_SSIP);
      return;
    default:
      mpanic("unexpected interrupt", regs);
    }
  }
  switch (cause) {
  case CAUSE_ILLEGAL_INSN:
    if (emulate_time_read(regs))
      return;
    redirect_to_s(regs, cause, CSR_READ(mtval));
    return;
  case CAUSE_SUPERVISOR_ECALL:
    sbi_dispatch(regs);
    return;
  default:
    redirect_to_s(regs, cause, CSR_READ(mtval));
    return;
  }
}
