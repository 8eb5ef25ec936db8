/* SPDX-License-Identifier: MIT */
/* Mutual-exclusion spin locks (single hart today, but written for SMP).
 *
 * A spinlock is for short critical sections that never sleep.  The rules
 * every caller relies on:
 *
 *  - While a hart holds any spinlock its supervisor interrupts are off.
 *    Otherwise an interrupt handler that wants the same lock (clockintr()
 *    takes tickslock, uartintr() the UART's and the console's locks) would
 *    spin forever on the hart that holds it, because the holder cannot run
 *    again until the handler returns.  acquire() turns interrupts off
 *    before it even tries to take the lock, and they stay off until this
 *    hart's last lock is released.
 *  - A holder must not block.  The two sanctioned hand-overs: sleep(chan,
 *    lk) is called with the condition lock lk held and gives it up only
 *    once p->lock is held; sched() is entered holding exactly p->lock,
 *    which whoever runs next on this hart releases (see proc.c).
 *  - Locks that nest are always taken in one global order, so two harts
 *    can never each hold what the other waits for.  The orders in use:
 *    wait_lock before any p->lock; a condition lock (pipe, log, tickslock,
 *    a sleep-lock's inner lock, ...) before p->lock in sleep()/wakeup();
 *    bcache.lock and itable.lock are let go before a buffer's or inode's
 *    sleep-lock is waited for (iput's acquiresleep() under itable.lock is
 *    of an inode nobody else can hold, so it never waits).
 *
 * Machine mode (mtrap.c) is not covered by any of this: M-level interrupts
 * arrive even with S-mode interrupts off, so the M-mode layer keeps to its
 * own data and never takes a kernel lock. */
#include "types.h"
#include "param.h"
#include "memlayout.h"
#include "spinlock.h"
#include "riscv.h"
#include "proc.h"
#include "defs.h"

void initlock(struct spinlock *lk, char *name)
{
  lk->name = name;
  lk->locked = 0;
  lk->cpu = 0;
}

/* Spin until the lock is ours.  Taking a lock this hart already holds is
 * a bug (it would spin forever), so it panics instead. */
void acquire(struct spinlock *lk)
{
  push_off(); /* no interrupts while holding a spin lock: avoids deadlock */
  if (holding(lk))
    panic("acquire %s", lk->name);
  /* The atomic swap writes 1 and returns the old value: whoever reads
   * back 0 is the one hart that took the lock.  On RV32A this is an
   * amoswap.w.aq; the acquire ordering keeps the loads and stores of the
   * critical section from being performed before the lock is held. */
  while (__atomic_exchange_n(&lk->locked, 1, __ATOMIC_ACQUIRE) != 0)
    ;
  /* recorded for holding() and for panic messages */
  lk->cpu = mycpu();
}

void release(struct spinlock *lk)
{
  if (!holding(lk))
    panic("release %s", lk->name);
  lk->cpu = 0;
  /* The release ordering makes every store of the critical section
   * visible before another hart can see locked == 0. */
  __atomic_store_n(&lk->locked, 0, __ATOMIC_RELEASE);
  /* interrupts come back only when the outermost lock is gone */
  pop_off();
}

/* Does this hart hold lk?  Interrupts must be off, so that the answer
 * cannot go stale by the process moving to another hart. */
int holding(struct spinlock *lk)
{
  return lk->locked && lk->cpu == mycpu();
}

/* push_off/pop_off nest like intr_off/intr_on; the outermost pop_off
 * restores the interrupt state found by the outermost push_off.
 *
 * They count rather than just switch interrupts off and on, because
 * locks nest: after acquire(a); acquire(b); release(b); interrupts must
 * still be off, since a is held.  c->intena remembers whether interrupts
 * were on before the first push_off, so that code which already ran with
 * interrupts off (a trap handler, the scheduler between processes) does
 * not get them switched on behind its back by the last pop_off. */
void push_off(void)
{
  int old = intr_get();
  /* off first: mycpu() and c->noff are only stable with interrupts off */
  intr_off();
  struct cpu *c = mycpu();
  if (c->noff == 0)
    c->intena = old;
  c->noff++;
}

void pop_off(void)
{
  struct cpu *c = mycpu();
  if (intr_get())
    panic("pop_off: interruptible");
  if (c->noff < 1)
    panic("pop_off: unbalanced");
  c->noff--;
  if (c->noff == 0 && c->intena)
    intr_on();
}
