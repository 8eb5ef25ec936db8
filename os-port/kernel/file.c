/* SPDX-License-Identifier: MIT */
/* Open-file table: files are inodes, pipes or devices.
 *
 * A struct file is what a file descriptor points to.  Several descriptors
 * (after dup(), or in a parent and a child after fork()) may share one,
 * and with it the read/write offset.  ftable.lock protects every f->ref
 * (and the claim of a free slot); the other fields are set before the
 * file is shared and not changed afterwards, except f->off, which is
 * updated under the inode's sleep-lock (fileread/filewrite). */
#include "types.h"
#include "riscv.h"
#include "defs.h"
#include "param.h"
#include "fs.h"
#include "spinlock.h"
#include "sleeplock.h"
#include "file.h"
#include "stat.h"
#include "proc.h"
#include "khash.h"

struct devsw devsw[NDEV];
static struct {
  struct spinlock lock;
  struct file file[NFILE];
} ftable;

void fileinit(void)
{
  initlock(&ftable.lock, "ftable");
}

/* a free file structure with ref 1, or 0 if all NFILE are open */
struct file *filealloc(void)
{
  acquire(&ftable.lock);
  for (struct file *f = ftable.file; f < ftable.file + NFILE; f++) {
    if (f->ref == 0) {
      f->ref = 1;
      release(&ftable.lock);
      return f;
    }
  }
  release(&ftable.lock);
  return 0;
}

/* one more reference (dup, fork) */
struct file *filedup(struct file *f)
{
  acquire(&ftable.lock);
  if (f->ref < 1)
    panic("filedup");
  f->ref++;
  release(&ftable.lock);
  return f;
}

/* Drop a reference; the last one closes the pipe end, hash stream or
 * inode behind the file. */
void fileclose(struct file *f)
{
  acquire(&ftable.lock);
  if (f->ref < 1)
    panic("fileclose");
  if (--f->ref > 0) {
    release(&ftable.lock);
    return;
  }
  /* Free the slot under the lock, but close what it referred to from a
   * copy, after releasing ftable.lock: iput() and begin_op() sleep, and
   * no spinlock may be held across a sleep. */
  struct file ff = *f;
  f->ref = 0;
  f->type = FD_NONE;
  release(&ftable.lock);

  if (ff.type == FD_PIPE) {
    pipeclose(ff.pipe, ff.writable);
  } else if (ff.type == FD_HASH) {
    khash_close(ff.hs);
  } else if (ff.type == FD_INODE || ff.type == FD_DEVICE) {
    /* a transaction: this may be the last reference to an unlinked file */
    begin_op();
    iput(ff.ip);
    end_op();
  }
}

/* fstat(): copy the inode's metadata to the user address addr. */
int filestat(struct file *f, uintptr addr)
{
  struct stat st;
  if (f->type == FD_INODE || f->type == FD_DEVICE) {
    ilock(f->ip);
    stati(f->ip, &st);
    iunlock(f->ip);
    if (copyout(myproc()->pagetable, addr, &st, sizeof(st)) < 0)
      return -1;
    return 0;
  }
  return -1;
}

/* read(): n bytes into the user address addr. */
int fileread(struct file *f, uintptr addr, int n)
{
  int r = 0;
  if (!f->readable)
    return -1;
  if (f->type == FD_PIPE) {
    r = piperead(f->pipe, addr, n);
  } else if (f->type == FD_DEVICE) {
    if (f->major < 0 || f->major >= NDEV || !devsw[f->major].read)
      return -1;
    r = devsw[f->major].read(1, addr, n);
  } else if (f->type == FD_INODE) {
    /* the inode lock also serialises the use of the shared f->off */
    ilock(f->ip);
    if ((r = readi(f->ip, 1, addr, f->off, n)) > 0)
      f->off += r;
    iunlock(f->ip);
  } else if (f->type == FD_HASH) {
    r = khash_read(f, addr, n);
  } else {
    panic("fileread");
  }
  return r;
}

/* write(): n bytes from the user address addr.  Returns n, or -1. */
int filewrite(struct file *f, uintptr addr, int n)
{
  int r, ret = 0;
  if (!f->writable)
    return -1;
  if (f->type == FD_PIPE) {
    ret = pipewrite(f->pipe, addr, n);
  } else if (f->type == FD_DEVICE) {
    if (f->major < 0 || f->major >= NDEV || !devsw[f->major].write)
      return -1;
    ret = devsw[f->major].write(1, addr, n);
  } else if (f->type == FD_INODE) {
    /* write a few blocks at a time so that one transaction never
     * exceeds the log: inode, indirect block, bitmap, 2 for alignment.
     * A write larger than that becomes several transactions, so a crash
     * may leave a prefix of it on disk, but never a broken file system.
     * The division by 2 allows a bitmap block beside every data block,
     * which is generous: one bitmap block covers BPB blocks. */
    int max = ((MAXOPBLOCKS - 1 - 1 - 2) / 2) * BSIZE;
    int i = 0;
    while (i < n) {
      int n1 = n - i;
      if (n1 > max)
        n1 = max;
      begin_op();
      ilock(f->ip);
      if ((r = writei(f->ip, 1, addr + i, f->off, n1)) > 0)
        f->off += r;
      iunlock(f->ip);
      end_op();
      if (r != n1)
        break; /* error from writei */
      i += r;
    }
    ret = (i == n ? n : -1);
  } else if (f->type == FD_HASH) {
    ret = khash_write(f, addr, n);
  } else {
    panic("filewrite");
  }
  return ret;
}
