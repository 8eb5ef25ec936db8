/* SPDX-License-Identifier: MIT */
/*
 * The hash library's platform half for the xv6 kernel (the functions that
 * kernel/hash_plat_kernel.h declares), and the engines' interrupt:
 *  - hash_plat_lock/unlock: one lock per engine, taken in turn (below).
 *  - hash_plat_irq_wait: sleep until the engine's interrupt, bounded by
 *    HASH_IRQ_TIMEOUT_TICKS (a lost interrupt then costs a poll, not a hang),
 *    when another process is runnable; else the driver polls.
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

/*
 * One lock per engine. The driver holds it from the first register write of
 * a request to the last read, across waits, so one process at a time talks
 * to an engine.
 *  - It sleeps, because a DMA of a long message can take milliseconds.
 *  - It is handed over in turn (a ticket lock): a long hash() takes and
 *    releases it once per KHASH_CHUNK, and with xv6's sleep lock the
 *    releasing process, still running, took it straight back before the
 *    waiter it had woken could run, so a second process waited for the
 *    whole message. With tickets the releaser queues behind the waiter and
 *    sleeps, and the waiter runs (hashtests -s).
 *  - Uncontended it costs two atomic adds and no spin lock: a short hash is
 *    ~300 clocks of driver work, and the sleep lock's acquire/release pairs
 *    (interrupts off and on, myproc(), fences) cost several times that.
 * Invariants: a caller owns the engine while serving == its ticket. A
 * waiter tests serving and sleeps while holding lk, and the releaser, after
 * its atomic serving++, takes lk to wake waiters whenever next shows one
 * (next != serving), so the wakeup cannot fall between the test and the
 * sleep. A ticket taken after that check equals serving: no sleep needed.
 * A waiter cannot give its ticket back, so kill() does not wake it; the
 * wait is bounded because every holder keeps the engine for one chunk.
 * At boot (no process yet: BOOT_HASHBENCH) there is one thread and the
 * fast path always succeeds.
 */
struct englock {
  uint next;          /* the ticket the next caller takes (atomic add) */
  uint serving;       /* the ticket that owns the engine (atomic add) */
  struct spinlock lk; /* orders waiters' sleep against the release's wakeup */
};
static struct englock englock[HASH_ENGINE_COUNT];

/* The slow paths are separate functions, so that the fast ones need no stack
 * frame: on a board each store of a frame waits for the engine's DMA to yield
 * the SDRAM (a long hash() takes and releases the lock once per chunk while
 * the engine streams the last one). */
static __attribute__((noinline)) void englock_wait(struct englock *l, uint me)
{
  acquire(&l->lk);
  while (__atomic_load_n(&l->serving, __ATOMIC_ACQUIRE) != me)
    sleep(l, &l->lk);
  release(&l->lk);
}

static __attribute__((noinline)) void englock_wake(struct englock *l)
{
  acquire(&l->lk);
  wakeup(l);
  release(&l->lk);
}

void hash_plat_lock(int engine)
{
  struct englock *l = &englock[engine];
  uint me = __atomic_fetch_add(&l->next, 1, __ATOMIC_ACQUIRE);
  if (__atomic_load_n(&l->serving, __ATOMIC_ACQUIRE) != me)
    englock_wait(l, me);
}

void hash_plat_unlock(int engine)
{
  struct englock *l = &englock[engine];
  uint now = __atomic_add_fetch(&l->serving, 1, __ATOMIC_RELEASE);
  if (__atomic_load_n(&l->next, __ATOMIC_ACQUIRE) != now)
    englock_wake(l);
}

static struct spinlock hirqlock; /* flag test + sleep vs. hash_isr + wakeup */
static char irqchan[HASH_ENGINE_COUNT];
static int irqwaiters;
uint khash_nintr[HASH_ENGINE_COUNT], khash_nirqtimeout;

/* a lost interrupt costs at most this long, then the driver polls */
#define HASH_IRQ_TIMEOUT_TICKS (2 * TICK_HZ + 2)

void hash_plat_irq_wait(int engine, volatile int *flag)
{
  if (myproc() == 0) {
    for (uint32 n = 0; !*flag && n < HASH_PLAT_SPIN_LIMIT; n++)
      ;
    return;
  }
  /* Sleeping pays when another process can use the CPU meanwhile; with
   * none, the round trip (interrupt through the machine-mode layer, wakeup,
   * the scheduler's switch back) only adds ~6k clocks to every wait, e.g.
   * per 64 KiB chunk of a long hash(). Return at once and the driver polls
   * (with interrupts on, so a timer tick still preempts us for anyone who
   * becomes runnable). */
  if (!anyrunnable())
    return;
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
  initlock(&englock[HASH_ENGINE_SHA256].lk, "sha256");
  initlock(&englock[HASH_ENGINE_KECCAK].lk, "keccak");
  initlock(&englock[HASH_ENGINE_SHA512].lk, "sha512");
  initlock(&hirqlock, "hashirq");
}
