/* SPDX-License-Identifier: MIT */
/* Write-ahead log for crash-safe file-system updates (group commit).
 * On disk: a header block with the count and the home block numbers,
 * then the logged copies.  A transaction is begin_op() ... end_op().
 *
 * A file-system system call changes several blocks (a bitmap block, an
 * inode, a directory block, ...), and a crash half-way would leave them
 * inconsistent.  So no change goes to its home block directly: the call
 * brackets its work in begin_op()/end_op() and uses log_write() where it
 * would have used bwrite().  At commit the changed blocks are first
 * written to the log area, then the header with their count -- the
 * single write that makes the transaction happen -- and only then to
 * their home locations; finally the count is reset to 0.  After a crash,
 * recovery replays a log whose header says n > 0 (the whole transaction)
 * and ignores one with n == 0 (none of it).  Either way every call is
 * all or nothing.
 *
 * Concurrent system calls share one transaction: `outstanding` counts
 * the calls between begin_op() and end_op(), and the last one out
 * commits for all.  begin_op() holds a call back while a commit is in
 * progress, or when the log might not have room for it: each call may
 * log up to MAXOPBLOCKS distinct blocks.
 *
 * (The RAM disk does not survive a reboot, so recovery has nothing to
 * replay here in practice; the protocol is kept whole anyway.) */
#include "types.h"
#include "riscv.h"
#include "defs.h"
#include "param.h"
#include "spinlock.h"
#include "sleeplock.h"
#include "fs.h"
#include "buf.h"

struct logheader {
  int n;
  int block[LOGSIZE];
};

/* log.lock protects outstanding, committing and lh (the in-memory header:
 * the blocks logged so far); it is also the condition lock of begin_op()'s
 * sleep.  start, size and dev are set once. */
static struct {
  struct spinlock lock;
  int start; /* block number of the header; logged copies follow it */
  int size;
  int outstanding; /* FS system calls in progress */
  int committing;  /* commit() running: no begin_op() may start */
  int dev;
  struct logheader lh;
} log;

static void recover_from_log(void);
static void commit(void);

/* Called once, from fsinit() in the first process (recovery reads and
 * writes blocks, which needs a process context for the sleep-locks). */
void initlog(int dev, struct superblock *sb)
{
  if (sizeof(struct logheader) >= BSIZE)
    panic("initlog: too big logheader");
  initlock(&log.lock, "log");
  log.start = sb->logstart;
  log.size = sb->nlog;
  log.dev = dev;
  recover_from_log();
}

/* Copy committed blocks from the log to their home locations.  In a
 * normal commit the cached home buffers already hold the new data and
 * were pinned by log_write(); they are unpinned here.  During recovery
 * nothing was pinned. */
static void install_trans(int recovering)
{
  for (int tail = 0; tail < log.lh.n; tail++) {
    struct buf *lbuf = bread(log.dev, log.start + tail + 1);
    struct buf *dbuf = bread(log.dev, log.lh.block[tail]);
    memmove(dbuf->data, lbuf->data, BSIZE);
    bwrite(dbuf);
    if (!recovering)
      bunpin(dbuf);
    brelse(lbuf);
    brelse(dbuf);
  }
}

static void read_head(void)
{
  struct buf *buf = bread(log.dev, log.start);
  struct logheader *lh = (struct logheader *)(buf->data);
  /* the image comes from outside: a count the log cannot hold would read
   * past lh->block[] and install blocks from beyond the log */
  if (lh->n < 0 || lh->n > LOGSIZE || lh->n >= log.size)
    panic("log: the header counts %d blocks, more than the log holds", lh->n);
  log.lh.n = lh->n;
  for (int i = 0; i < log.lh.n; i++)
    log.lh.block[i] = lh->block[i];
  brelse(buf);
}

/* The real commit point: the header block on disk.  Writing it with
 * n > 0 commits the transaction whose blocks are already in the log;
 * writing it with n == 0 retires the log once they are installed. */
static void write_head(void)
{
  struct buf *buf = bread(log.dev, log.start);
  struct logheader *hb = (struct logheader *)(buf->data);
  hb->n = log.lh.n;
  for (int i = 0; i < log.lh.n; i++)
    hb->block[i] = log.lh.block[i];
  bwrite(buf);
  brelse(buf);
}

/* Replay a committed transaction that may not have been installed.
 * Installing twice is harmless (the same data lands on the same blocks),
 * so a crash during recovery only means recovering again. */
static void recover_from_log(void)
{
  read_head();
  install_trans(1);
  log.lh.n = 0;
  write_head();
}

/* Start a file-system operation: called at the start of every system
 * call that may write the file system, before it locks any inode.  It
 * may sleep until a commit is done, and that commit waits for every call
 * in the transaction to reach end_op(); were we to hold an inode lock
 * while waiting, a call in the transaction that needs that inode would
 * never get there. */
void begin_op(void)
{
  acquire(&log.lock);
  for (;;) {
    if (log.committing) {
      sleep(&log, &log.lock);
    } else if (log.lh.n + (log.outstanding + 1) * MAXOPBLOCKS > LOGSIZE) {
      /* this op might exhaust the log: the blocks logged so far plus
       * MAXOPBLOCKS for each call in progress, ours included */
      sleep(&log, &log.lock);
    } else {
      log.outstanding++;
      release(&log.lock);
      break;
    }
  }
}

/* End a file-system operation; the last one out commits.  Committing
 * happens outside log.lock (it sleeps on buffer locks), with `committing`
 * keeping new operations out until it is done. */
void end_op(void)
{
  int do_commit = 0;
  acquire(&log.lock);
  log.outstanding--;
  if (log.committing)
    panic("log.committing");
  if (log.outstanding == 0) {
    do_commit = 1;
    log.committing = 1;
  } else {
    wakeup(&log); /* begin_op() may be waiting for room */
  }
  release(&log.lock);
  if (do_commit) {
    commit();
    acquire(&log.lock);
    log.committing = 0;
    wakeup(&log);
    release(&log.lock);
  }
}

/* Copy the modified blocks from the cache to the log area on disk. */
static void write_log(void)
{
  for (int tail = 0; tail < log.lh.n; tail++) {
    struct buf *to = bread(log.dev, log.start + tail + 1);
    struct buf *from = bread(log.dev, log.lh.block[tail]);
    memmove(to->data, from->data, BSIZE);
    bwrite(to);
    brelse(from);
    brelse(to);
  }
}

/* The order is what makes a crash safe at any point: before write_head()
 * the home blocks are untouched and the log is ignored; after it the log
 * holds the full transaction and recovery installs it. */
static void commit(void)
{
  if (log.lh.n > 0) {
    write_log();      /* the new data into the log */
    write_head();     /* commit */
    install_trans(0); /* the new data to its home blocks */
    log.lh.n = 0;
    write_head(); /* the log is empty again */
  }
}

/* Record that b was modified; it is written at commit (absorbing
 * repeated writes of one block in a transaction).  Replaces bwrite() in
 * the file system: the caller holds b->lock, changed b->data, and then
 * brelse()s as usual; the buffer is pinned in the cache so that its
 * data, which is newer than the disk's, survives until commit. */
void log_write(struct buf *b)
{
  int i;
  acquire(&log.lock);
  if (log.lh.n >= LOGSIZE || log.lh.n >= log.size - 1)
    panic("too big a transaction");
  if (log.outstanding < 1)
    panic("log_write outside of trans");
  for (i = 0; i < log.lh.n; i++)
    if (log.lh.block[i] == (int)b->blockno)
      break;
  log.lh.block[i] = b->blockno;
  if (i == log.lh.n) {
    bpin(b);
    log.lh.n++;
  }
  release(&log.lock);
}
