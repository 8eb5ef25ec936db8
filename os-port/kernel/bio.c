/* SPDX-License-Identifier: MIT */
/* Buffer cache: NBUF cached disk blocks, LRU order, one sleep-lock each.
 *
 * The cache does two jobs: it keeps recently used blocks in memory (here
 * they are copies of RAM-disk blocks, so the saving is small), and it
 * makes sure there is at most one copy of each block, so that every
 * process sees the same data and only one at a time changes it.
 *
 * Interface: bread() returns a locked buffer holding the block's data;
 * the caller may change b->data and bwrite() it (the log does that; the
 * file system itself calls log_write()), then must brelse() it.
 *
 * Two kinds of lock:
 *   bcache.lock  (spinlock) protects which block each buffer holds (dev,
 *                blockno), every refcnt and the LRU list.
 *   b->lock      (sleep-lock) protects b->data and b->valid; held by one
 *                process from bread() to brelse(), possibly for long.
 * refcnt counts the processes that hold or wait for the buffer.  A buffer
 * with refcnt > 0 keeps its identity: bget() only recycles one whose
 * refcnt is 0.  The log also bumps refcnt (bpin) to keep a modified block
 * in the cache until it is committed. */
#include "types.h"
#include "param.h"
#include "spinlock.h"
#include "sleeplock.h"
#include "riscv.h"
#include "defs.h"
#include "fs.h"
#include "buf.h"

/* The buffers form a circular doubly-linked list through head, ordered
 * by when they were last released: head.next is most recently used,
 * head.prev the least. */
static struct {
  struct spinlock lock;
  struct buf buf[NBUF];
  struct buf head; /* head.next is most recently used */
} bcache;

void binit(void)
{
  initlock(&bcache.lock, "bcache");
  bcache.head.prev = &bcache.head;
  bcache.head.next = &bcache.head;
  for (struct buf *b = bcache.buf; b < bcache.buf + NBUF; b++) {
    b->next = bcache.head.next;
    b->prev = &bcache.head;
    initsleeplock(&b->lock, "buffer");
    bcache.head.next->prev = b;
    bcache.head.next = b;
  }
}

/* Return a locked buffer for (dev, blockno), cached or recycled.
 *
 * The lookup and the claim (refcnt++, or taking over an idle buffer) are
 * one critical section under bcache.lock, so two processes asking for
 * the same uncached block cannot each pick a buffer for it.  bcache.lock
 * is released before acquiresleep(): waiting for the buffer's owner while
 * holding the spinlock would hold up every other cache user (and sleep
 * with a spinlock held).  The refcnt taken under the spinlock keeps the
 * buffer from being recycled meanwhile. */
static struct buf *bget(uint dev, uint blockno)
{
  struct buf *b;
  acquire(&bcache.lock);
  for (b = bcache.head.next; b != &bcache.head; b = b->next) {
    if (b->dev == dev && b->blockno == blockno) {
      b->refcnt++;
      release(&bcache.lock);
      acquiresleep(&b->lock);
      return b;
    }
  }
  /* not cached: recycle the least recently used idle buffer; valid = 0
   * makes bread() fetch the block */
  for (b = bcache.head.prev; b != &bcache.head; b = b->prev) {
    if (b->refcnt == 0) {
      b->dev = dev;
      b->blockno = blockno;
      b->valid = 0;
      b->refcnt = 1;
      release(&bcache.lock);
      acquiresleep(&b->lock);
      return b;
    }
  }
  /* every buffer is in use: more than NBUF at once is a kernel bug, since
   * a file-system operation touches few blocks (see MAXOPBLOCKS) */
  panic("bget: no buffers");
  return 0;
}

/* A locked buffer with the contents of the block. */
struct buf *bread(uint dev, uint blockno)
{
  struct buf *b = bget(dev, blockno);
  if (!b->valid) {
    ramdiskrw(b, 0);
    b->valid = 1;
  }
  return b;
}

/* Write b's data to the disk now.  The caller holds b->lock. */
void bwrite(struct buf *b)
{
  if (!holdingsleep(&b->lock))
    panic("bwrite");
  ramdiskrw(b, 1);
}

/* Done with a buffer from bread(): unlock it and drop the reference. */
void brelse(struct buf *b)
{
  if (!holdingsleep(&b->lock))
    panic("brelse");
  releasesleep(&b->lock);
  acquire(&bcache.lock);
  b->refcnt--;
  if (b->refcnt == 0) {
    /* move to the head: most recently used */
    b->next->prev = b->prev;
    b->prev->next = b->next;
    b->next = bcache.head.next;
    b->prev = &bcache.head;
    bcache.head.next->prev = b;
    bcache.head.next = b;
  }
  release(&bcache.lock);
}

/* The log's hold on a buffer it has yet to install (log_write, and
 * install_trans's bunpin): the extra reference keeps the buffer, with
 * the only up-to-date copy of the block, from being recycled before the
 * commit.  Only bcache.lock is needed: refcnt is not b->lock's. */
void bpin(struct buf *b)
{
  acquire(&bcache.lock);
  b->refcnt++;
  release(&bcache.lock);
}

void bunpin(struct buf *b)
{
  acquire(&bcache.lock);
  b->refcnt--;
  release(&bcache.lock);
}
