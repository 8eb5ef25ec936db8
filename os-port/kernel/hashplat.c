/* SPDX-License-Identifier: MIT */
/*
 * The hash library's platform half for the xv6 kernel (the functions that
 * kernel/hash_plat_kernel.h declares), and the engines' interrupt:
 *  - hash_plat_lock/unlock: one sleep lock per engine. The driver holds it
 *    from the first register write of a request to the last read, across
 *    waits, so one process at a time talks to an engine; a sleep lock,
 *    because a DMA of a long message can take milliseconds.
 *  - hash_plat_irq_wait: sleep until the engine's interrupt, bounded by
 *    HASH_IRQ_TIMEOUT_TICKS (a lost interrupt then costs a poll, not a hang).
 *  - khash_intr: called from devintr (trap.c) for an engine's line.
 */
#include "types.h"
#include "param.h"
#include "memlayout.h"
#include "riscv.h"
#include "spinlock.h"
#include "sleeplock.h"
#include "proc.h"
#include "fs.h"
#include "file.h"
#include "defs.h"
#include "khash.h"
#include "hashsoc/hash.h"
#include "hash_plat_kernel.h"

static struct sleeplock englock[HASH_ENGINE_COUNT];
static struct spinlock hirqlock; /* flag test + sleep vs. hash_isr + wakeup */
static char irqchan[HASH_ENGINE_COUNT];
static int irqwaiters;
uint khash_nintr[HASH_ENGINE_COUNT], khash_nirqtimeout;

/* a lost interrupt costs at most this long, then the driver polls */
#define HASH_IRQ_TIMEOUT_TICKS (2 * TICK_HZ + 2)

/* At boot (no process yet: BOOT_HASHBENCH) there is one thread and no lock. */
void hash_plat_lock(int engine)
{
  if (myproc())
    acquiresleep(&englock[engine]);
}

void hash_plat_unlock(int engine)
{
  if (myproc())
    releasesleep(&englock[engine]);
}

void hash_plat_irq_wait(int engine, volatile int *flag)
{
  if (myproc() == 0) {
    for (uint32 n = 0; !*flag && n < HASH_PLAT_SPIN_LIMIT; n++)
      ;
    return;
  }
  acquire(&hirqlock);
  uint t0 = *(volatile uint *)&ticks;
  irqwaiters++;
  while (!*flag) {
    if (*(volatile uint *)&ticks - t0 >= HASH_IRQ_TIMEOUT_TICKS) {
      khash_nirqtimeout++;
      break;
    }
    sleep(&irqchan[engine], &hirqlock);
  }
  irqwaiters--;
  release(&hirqlock);
}

/* hirqlock orders the waiter's test of *flag and its sleep against the
 * handler's hash_isr (which sets the flag) and wakeup: the waiter holds it
 * from the test until sleep() has released it atomically with marking the
 * process asleep, and the handler takes it around both, so a wakeup can
 * never fall between the test and the sleep. */

/* From devintr (trap.c): the engine's interrupt line was claimed. */
void khash_intr(int engine)
{
  acquire(&hirqlock);
  hash_isr(engine);
  khash_nintr[engine]++;
  wakeup(&irqchan[engine]);
  release(&hirqlock);
}

/* From the timer interrupt: lets a waiter notice its time-out. */
void khash_tick(void)
{
  if (irqwaiters == 0)
    return;
  acquire(&hirqlock);
  for (int i = 0; i < HASH_ENGINE_COUNT; i++)
    wakeup(&irqchan[i]);
  release(&hirqlock);
}

void khashinit(void)
{
  initsleeplock(&englock[HASH_ENGINE_SHA256], "sha256");
  initsleeplock(&englock[HASH_ENGINE_KECCAK], "keccak");
  initlock(&hirqlock, "hashirq");
}
