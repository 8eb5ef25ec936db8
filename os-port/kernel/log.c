/* Write-ahead log for crash-safe file-system updates (group commit).
 * On disk: a header block with the count and the home block numbers,
 * then the logged copies.  A transaction is begin_op() ... end_op(). */
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

static struct {
  struct spinlock lock;
  int start;
  int size;
  int outstanding; /* FS system calls in progress */
  int committing;
  int dev;
  struct logheader lh;
} log;

static void recover_from_log(void);
static void commit(void);

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

/* copy committed blocks from the log to their home locations */
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
  log.lh.n = lh->n;
  for (int i = 0; i < log.lh.n; i++)
    log.lh.block[i] = lh->block[i];
  brelse(buf);
}

/* the real commit point: the header block on disk */
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

static void recover_from_log(void)
{
  read_head();
  install_trans(1);
  log.lh.n = 0;
  write_head();
}

void begin_op(void)
{
  acquire(&log.lock);
  for (;;) {
    if (log.committing) {
      sleep(&log, &log.lock);
    } else if (log.lh.n + (log.outstanding + 1) * MAXOPBLOCKS > LOGSIZE) {
      sleep(&log, &log.lock); /* this op might exhaust the log */
    } else {
      log.outstanding++;
      release(&log.lock);
      break;
    }
  }
}

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

static void commit(void)
{
  if (log.lh.n > 0) {
    write_log();
    write_head();
    install_trans(0);
    log.lh.n = 0;
    write_head();
  }
}

/* record that b was modified; it is written at commit (absorbing
 * repeated writes of one block in a transaction) */
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
