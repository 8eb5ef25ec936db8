/* Mutual-exclusion spin locks (single hart today, but written for SMP). */
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

void acquire(struct spinlock *lk)
{
  push_off(); /* no interrupts while holding a spin lock: avoids deadlock */
  if (holding(lk))
    panic("acquire %s", lk->name);
  while (__atomic_exchange_n(&lk->locked, 1, __ATOMIC_ACQUIRE) != 0)
    ;
  lk->cpu = mycpu();
}

void release(struct spinlock *lk)
{
  if (!holding(lk))
    panic("release %s", lk->name);
  lk->cpu = 0;
  __atomic_store_n(&lk->locked, 0, __ATOMIC_RELEASE);
  pop_off();
}

/* interrupts must be off */
int holding(struct spinlock *lk)
{
  return lk->locked && lk->cpu == mycpu();
}

/* push_off/pop_off nest like intr_off/intr_on; the outermost pop_off
 * restores the interrupt state found by the outermost push_off. */
void push_off(void)
{
  int old = intr_get();
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
