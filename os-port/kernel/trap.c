/* SPDX-License-Identifier: MIT */
/* Supervisor traps: from user space (via the trampoline) and from the
 * kernel (kernelvec).  Device interrupts arrive as
 *   - supervisor timer interrupts (STIP raised by machine mode), and
 *   - supervisor software interrupts (SSIP raised by machine mode after it
 *     took and masked an external interrupt). */
#include "types.h"
#include "param.h"
#include "memlayout.h"
#include "riscv.h"
#include "spinlock.h"
#include "proc.h"
#include "sbi.h"
#include "defs.h"
#include "khash.h"

/* tickslock protects ticks, and is the condition lock of sys_sleep(),
 * which sleeps on &ticks; clockintr() takes it in interrupt context,
 * which is one reason a spinlock holder keeps interrupts off. */
struct spinlock tickslock;
uint ticks;
uint nintr_ssi, nintr_sti;              /* supervisor interrupts taken (procdump) */
uint32 intr_epc, intr_sstatus;          /* where the last device interrupt came in */
uint32 tick_kernel_epc, tick_kernel_ra; /* kernel pc and ra at the last tick taken in the kernel */

extern char trampoline[], uservec[], userret[];
void kernelvec(void);

void trapinit(void)
{
  initlock(&tickslock, "time");
}

/* Per hart: traps taken in S-mode go to kernelvec from now on, and the
 * three supervisor interrupt sources are enabled in sie (sstatus.SIE, the
 * global switch, stays off until the scheduler's intr_on()). */
void trapinithart(void)
{
  w_stvec((uintptr)kernelvec);
  w_sie(r_sie() | SIE_SSIE | SIE_STIE | SIE_SEIE);
  /* the first deadline from an S-mode (emulated) read of time */
  sbi_set_timer(r_time64() + TICK_INTERVAL);
}

static const char *causename(uint32 c)
{
  switch (c) {
  case CAUSE_MISALIGNED_FETCH:
    return "misaligned fetch";
  case CAUSE_FETCH_ACCESS:
    return "fetch access fault";
  case CAUSE_ILLEGAL_INSN:
    return "illegal instruction";
  case CAUSE_BREAKPOINT:
    return "breakpoint";
  case CAUSE_MISALIGNED_LOAD:
    return "misaligned load";
  case CAUSE_LOAD_ACCESS:
    return "load access fault";
  case CAUSE_MISALIGNED_STORE:
    return "misaligned store";
  case CAUSE_STORE_ACCESS:
    return "store access fault";
  case CAUSE_FETCH_PAGE_FAULT:
    return "instruction page fault";
  case CAUSE_LOAD_PAGE_FAULT:
    return "load page fault";
  case CAUSE_STORE_PAGE_FAULT:
    return "store page fault";
  default:
    return "?";
  }
}

/* The tick: M-mode turned the machine timer interrupt into STIP (mtrap.c),
 * and the SBI call below both arms the next deadline and clears STIP. */
static void clockintr(void)
{
  acquire(&tickslock);
  ticks++;
  wakeup(&ticks);
  release(&tickslock);
  khash_tick(); /* time-outs of hash engine interrupt waits */
  /* the next deadline on a fixed grid (previous deadline + interval):
   * no drift from the latency of this handler, and no emulated time reads
   * (three per 64-bit read) on every tick */
  sbi_set_timer_next(TICK_INTERVAL);
}

/* 2 for a timer tick, 1 for another device interrupt, 0 if not ours.
 * Called from usertrap() and kerneltrap() with interrupts still off (the
 * trap cleared sstatus.SIE), so a handler cannot be interrupted by the
 * next device interrupt.
 *
 * External interrupts reach S-mode indirectly: machine mode takes them,
 * masks the lines and raises SSIP.  We claim the set of lines, service
 * each device, and complete them to unmask them; a line that is still
 * asserted will then interrupt again. */
static int devintr(void)
{
  uint32 scause = r_scause();
  if (scause == (CAUSE_INTR | IRQ_SSI)) {
    nintr_ssi++;
    intr_epc = r_sepc();
    intr_sstatus = r_sstatus();
    /* clear only SSIP: a read-modify-write of sip could lose an STIP that
     * machine mode raises in between (VexRiscv lets S-mode write STIP) */
    CSR_CLEAR(sip, MIP_SSIP);
    uint32 lines = sbi_irq_claim();
    if (lines & (1u << UART0_IRQ))
      uartintr();
#ifdef SHA256_INTERRUPT
    if (lines & (1u << SHA256_INTERRUPT))
      khash_intr(0); /* HASH_ENGINE_SHA256 */
#endif
#ifdef KECCAK_INTERRUPT
    if (lines & (1u << KECCAK_INTERRUPT))
      khash_intr(1); /* HASH_ENGINE_KECCAK */
#endif
#ifdef SHA512_INTERRUPT
    if (lines & (1u << SHA512_INTERRUPT))
      khash_intr(2); /* HASH_ENGINE_SHA512 */
#endif
    if (lines)
      sbi_irq_complete(lines);
    return 1;
  }
  if (scause == (CAUSE_INTR | IRQ_STI)) {
    nintr_sti++;
    clockintr();
    return 2;
  }
  return 0;
}

/* Traps from user space, entered from uservec: a system call (ecall),
 * a device interrupt, or a fault, which kills the process.  Runs on the
 * process's kernel stack with the kernel page table, and with interrupts
 * off until the point where they are safe again. */
void usertrap(void)
{
  if (r_sstatus() & SSTATUS_SPP)
    panic("usertrap: not from user mode");
  w_stvec((uintptr)kernelvec); /* we are in the kernel now */

  struct proc *p = myproc();
  /* Save sepc in the trapframe: the process may sleep or yield below, and
   * traps taken meanwhile (by this or other processes) overwrite sepc. */
  p->trapframe->epc = r_sepc();
  int which = 0;
  uint32 scause = r_scause();

  if (scause == CAUSE_USER_ECALL) {
    if (killed(p))
      exit(-1);
    p->trapframe->epc += 4; /* return after the ecall */
    /* sepc, scause and sstatus are dealt with: an interrupt may now
     * overwrite them, and a long system call should not hold off the
     * devices */
    intr_on();
    syscall();
  } else if ((which = devintr()) != 0) {
    /* handled */
  } else {
    printf("pid %d %s: trap %x (%s) epc=%p tval=%p\n", p->pid, p->name, scause, causename(scause),
        (void *)r_sepc(), (void *)r_stval());
    setkilled(p);
  }
  if (killed(p))
    exit(-1);
  if (which == 2)
    yield(); /* a timer tick: preempt, round robin */
  usertrapret();
}

/* Return to user space through the trampoline.  Also the first entry
 * into user space of every process (forkret() calls it). */
void usertrapret(void)
{
  struct proc *p = myproc();
  /* Off until sret: stvec is about to point at uservec, which expects to
   * be entered from user mode; an interrupt taken in the kernel from here
   * on would go there and save kernel registers as if they were the
   * user's. */
  intr_off();
  uintptr tramp_uservec = TRAMPOLINE + (uservec - trampoline);
  w_stvec(tramp_uservec);

  /* what uservec will need on the next trap from user space */
  p->trapframe->kernel_satp = r_satp();
  p->trapframe->kernel_sp = p->kstack + PGSIZE;
  p->trapframe->kernel_trap = (uintptr)usertrap;
  p->trapframe->kernel_hartid = r_tp();

  uint32 x = r_sstatus();
  x &= ~SSTATUS_SPP; /* to user mode */
  x |= SSTATUS_SPIE; /* with interrupts enabled */
  w_sstatus(x);
  w_sepc(p->trapframe->epc);

  /* userret is called at its address in the trampoline page, not at the
   * kernel's link address: it switches satp to the user page table, in
   * which only the TRAMPOLINE mapping of this code exists. */
  uint32 satp = MAKE_SATP(p->pagetable);
  uintptr tramp_userret = TRAMPOLINE + (userret - trampoline);
  ((void (*)(uint32))tramp_userret)(satp);
}

/* Traps from the kernel: only interrupts are expected.  Entered from
 * kernelvec on whatever kernel stack was in use (a process's, or the
 * scheduler's boot stack), with interrupts off.  frame points at the
 * registers kernelvec saved; frame[0] is the interrupted code's ra. */
void kerneltrap(uint32 *frame)
{
  uint32 sepc = r_sepc();
  uint32 sstatus = r_sstatus();
  uint32 scause = r_scause();
  if ((sstatus & SSTATUS_SPP) == 0)
    panic("kerneltrap: not from supervisor mode");
  if (intr_get())
    panic("kerneltrap: interrupts enabled");
  int which = devintr();
  if (which == 2) {
    tick_kernel_epc = sepc;
    tick_kernel_ra = frame[0];
  }
  if (which == 0)
    panic("kerneltrap: scause %x (%s) sepc=%p stval=%p", scause, causename(scause), (void *)sepc,
        (void *)r_stval());
  /* a tick preempts a process in the kernel too; in the scheduler
   * (myproc() == 0) there is nothing to give up */
  if (which == 2 && myproc() != 0)
    yield();
  /* yield() may have trapped again: restore what sret needs */
  w_sepc(sepc);
  w_sstatus(sstatus);
}
