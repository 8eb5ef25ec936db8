/* SPDX-License-Identifier: MIT */
/* Long-term locks that let the holder sleep (for inodes and buffers).
 *
 * A sleep-lock is held across disk work and copies to and from user
 * memory, which may take long; a waiter gives up the CPU instead of
 * spinning.  It is built from a spinlock (lk) that protects the fields
 * `locked` and `pid`, and from sleep/wakeup with the lock itself as the
 * channel.  Unlike a spinlock, holding one leaves interrupts on, and the
 * holder may sleep (e.g. waiting for a buffer's sleep-lock in bread()
 * while it holds an inode's).
 *
 * Sleep-locks must not be taken in interrupt handlers or while holding a
 * spinlock: acquiresleep() may call sleep(), and sched() panics if the
 * sleeper holds any spinlock besides its p->lock.  (iput() takes an inode's
 * sleep-lock under itable.lock, but only when it holds the sole reference,
 * so that acquiresleep() never has to wait.) */
#include "types.h"
#include "param.h"
#include "memlayout.h"
#include "riscv.h"
#include "spinlock.h"
#include "sleeplock.h"
#include "proc.h"
#include "defs.h"

void initsleeplock(struct sleeplock *lk, char *name)
{
  initlock(&lk->lk, "sleep lock");
  lk->name = name;
  lk->locked = 0;
  lk->pid = 0;
}

void acquiresleep(struct sleeplock *lk)
{
  acquire(&lk->lk);
  /* A loop, not an if: wakeup() makes every waiter runnable, and another
   * may get the lock first.  Testing `locked` and going to sleep both
   * happen under lk->lk, which releasesleep() needs in order to clear
   * `locked` and wake us, so its wakeup cannot slip in between. */
  while (lk->locked)
    sleep(lk, &lk->lk);
  lk->locked = 1;
  lk->pid = myproc()->pid; /* the owner, for holdingsleep() */
  release(&lk->lk);
}

void releasesleep(struct sleeplock *lk)
{
  acquire(&lk->lk);
  lk->locked = 0;
  lk->pid = 0;
  wakeup(lk);
  release(&lk->lk);
}

/* Is the lock held by the calling process?  Used in sanity checks
 * (bwrite, brelse, iunlock). */
int holdingsleep(struct sleeplock *lk)
{
  acquire(&lk->lk);
  int r = lk->locked && lk->pid == myproc()->pid;
  release(&lk->lk);
  return r;
}
