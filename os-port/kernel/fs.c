/* SPDX-License-Identifier: MIT */
/* File system: blocks, inodes, directories, path names (xv6 format).
 *
 * Layers, from the bottom: the buffer cache (bio.c) and the log (log.c)
 * below this file; then block allocation (the free bitmap); inodes, which
 * are files as sequences of blocks; directories, which are inodes of type
 * T_DIR holding struct dirent entries; and path names, looked up a
 * directory at a time.  sysfile.c builds the system calls on top.
 *
 * Every change to a block goes through log_write(), so any function here
 * that may write must be called inside a transaction (begin_op/end_op);
 * the comments below say which. */
#include "types.h"
#include "riscv.h"
#include "defs.h"
#include "param.h"
#include "stat.h"
#include "spinlock.h"
#include "proc.h"
#include "sleeplock.h"
#include "fs.h"
#include "buf.h"
#include "file.h"

#define min(a, b) ((a) < (b) ? (a) : (b))

/* read from block 1 by fsinit() and never changed afterwards, so it is
 * read without a lock */
struct superblock sb;

/* The data area, [datastart, sb.size): the only blocks an inode may own.
 * Set by fsinit() and never changed afterwards. */
static uint datastart;

static void readsb(int dev, struct superblock *sbp)
{
  struct buf *bp = bread(dev, 1);
  memmove(sbp, bp->data, sizeof(*sbp));
  brelse(bp);
}

static void fscheck(int dev);

/* Mount the root file system, from the first process (forkret): the
 * log's recovery sleeps on buffer locks.  The image comes from outside
 * (docs/integrity.md), so its layout is checked before anything is read
 * through it: the regions in mkfs's order, none overlapping another, all
 * on a disk no larger than the one fscheck()'s maps cover.  A disk that
 * fails cannot be mounted at all: a panic that says why. */
void fsinit(int dev)
{
  readsb(dev, &sb);
  if (sb.magic != FSMAGIC)
    panic("invalid file system");
  uint64 inodeend = (uint64)sb.inodestart + sb.ninodes / IPB + 1;
  uint64 dataend = (uint64)sb.bmapstart + sb.size / BPB + 1;
  if (sb.size > FSSIZE || sb.logstart < 2 || sb.nlog < 2 || sb.ninodes < 2 ||
      (uint64)sb.logstart + sb.nlog > sb.inodestart || inodeend > sb.bmapstart || dataend > sb.size)
    panic("fsinit: the superblock's regions overlap or leave the disk");
  datastart = dataend;
  initlog(dev, &sb);
  fscheck(dev);
}

/* zero block bno on disk (through the log) */
static void bzero(int dev, int bno)
{
  struct buf *bp = bread(dev, bno);
  memset(bp->data, 0, BSIZE);
  log_write(bp);
  brelse(bp);
}

/* ---- Block ownership ----
 *
 * The image comes from outside (docs/integrity.md, "The file system's
 * metadata"): its inodes may point at metadata blocks, two inodes may
 * point at one block, and the bitmap may call an owned block free.  Left
 * alone, a write to one file, or an allocation, would then change
 * another file's bytes without a writei() on it, and integrity.c's
 * verified mark (dropped only by writei() and itrunc() on the inode it
 * belongs to) would vouch for bytes it never hashed.
 *
 * So at mount fscheck() counts every block pointer of every allocated
 * inode (its direct blocks, its indirect block and that block's entries)
 * and settles, for the whole boot:
 *   - a pointer outside the data area is never followed: bmap() refuses
 *     it, and balloc() never hands out such a block, so the log, the
 *     inodes and the bitmap change only through log.c, iupdate()/ialloc()
 *     and balloc()/bfree();
 *   - a data block with two or more pointers, or with one while its bit
 *     says free, is held: balloc() never hands it out and bfree() never
 *     frees it, whatever its bit says (so its bit never changes again).
 * The invariant from then on: a data block that is not held has at most
 * one pointer, and its bit is set if it has one.  balloc() hands out only
 * free blocks that are not held -- pointer-less, by the invariant -- and
 * each to one inode; bfree() runs when that inode's itrunc() drops its
 * pointer.  So a block that is not held belongs to one inode, and only
 * bmap()/writei() on that inode, under its lock, change its bytes.
 * iblocks() tells integrity.c whether all of a file's blocks are such. */

/* blocks that are never allocated or freed this boot; written by
 * fscheck() before any other process exists, only read afterwards */
static uchar held[FSSIZE / 8 + 1];

static int inmap(uchar *map, uint b)
{
  return map[b / 8] >> (b % 8) & 1;
}

static void setmap(uchar *map, uint b)
{
  map[b / 8] |= 1 << (b % 8);
}

static int indata(uint b)
{
  return b >= datastart && b < sb.size;
}

/* block b's bit in the free bitmap: 1 in use, 0 free */
static int bitof(int dev, uint b)
{
  struct buf *bp = bread(dev, BBLOCK(b, sb));
  int used = bp->data[(b % BPB) / 8] >> (b % 8) & 1;
  brelse(bp);
  return used;
}

/* one block pointer met by fscheck() */
static void count(uchar *seen, uint b, int *outside)
{
  if (b == 0)
    return;
  if (!indata(b)) {
    (*outside)++;
    return;
  }
  if (inmap(seen, b))
    setmap(held, b);
  setmap(seen, b);
}

/* Count the pointers and fill held[] (see above).  From fsinit(), after
 * the log's recovery (which may have rewritten any block), before any
 * process but the first exists.  Each inode block and bitmap block is
 * read once: a bread() is a few thousand clocks on VexRiscv. */
static void fscheck(int dev)
{
  static uchar seen[FSSIZE / 8 + 1];
  static uint addrs[IPB][NDIRECT + 1];
  int outside = 0, nheld = 0;
  for (uint first = 0; first < sb.ninodes; first += IPB) {
    int n = 0;
    struct buf *bp = bread(dev, IBLOCK(first, sb));
    for (uint i = 0; i < IPB && first + i < sb.ninodes; i++) {
      struct dinode *dip = (struct dinode *)bp->data + i;
      /* inode 0 is never used; a free inode's pointers are cleared by
       * ialloc() before use */
      if (first + i > 0 && dip->type != 0)
        memmove(addrs[n++], dip->addrs, sizeof(addrs[0]));
    }
    brelse(bp); /* not held while reading indirect blocks: one buffer at a time */
    for (int k = 0; k < n; k++) {
      for (int j = 0; j <= NDIRECT; j++)
        if (addrs[k][j])
          count(seen, addrs[k][j], &outside);
      if (indata(addrs[k][NDIRECT])) {
        bp = bread(dev, addrs[k][NDIRECT]);
        uint *a = (uint *)bp->data;
        for (uint j = 0; j < NINDIRECT; j++)
          if (a[j]) /* most are 0: files are short */
            count(seen, a[j], &outside);
        brelse(bp);
      }
    }
  }
  for (uint first = 0; first < sb.size; first += BPB) {
    struct buf *bp = bread(dev, BBLOCK(first, sb));
    /* a byte of the bitmap and of seen[] at a time: 8 blocks (first is a
     * multiple of BPB, so block b is bit b % 8 of byte b / 8 in both) */
    for (uint b = first; b < first + BPB && b < sb.size; b += 8) {
      uint i = b / 8, freeseen = seen[i] & ~bp->data[(b % BPB) / 8];
      for (uint k = 0; freeseen && k < 8; k++)
        if ((freeseen >> k & 1) && indata(b + k))
          setmap(held, b + k);
      for (uint m = held[i]; m; m &= m - 1)
        nheld++;
    }
    brelse(bp);
  }
  if (outside || nheld)
    printf("fs: %d block pointers outside the data area (never followed), "
           "%d blocks shared or marked free (never allocated)\n",
        outside, nheld);
}

/* Whether block pointer b of a file is the file's own (see above): 0,
 * or why not. */
static const char *ownblock(int dev, uint b)
{
  if (b == 0)
    return 0;
  if (!indata(b))
    return "a block is outside the data area";
  if (inmap(held, b))
    return bitof(dev, b) ? "a block is also another file's" : "a block is on the free list";
  return 0;
}

/* Whether every block ip points at, its indirect block and those beyond
 * its size included, belongs to ip alone: 0, or why not.  With list, the
 * same walk also writes the file's blocks in order, list[0..nb) for its
 * nb = ceil(size / BSIZE) blocks up to MAXFILE (0 for a hole), so that a
 * caller that reads them in place reads the indirect block once with us.
 * ip->lock held (its pointers do not change meanwhile). */
const char *iblocks(struct inode *ip, uint *list)
{
  const char *why = 0;
  uint nb = ip->size / BSIZE + (ip->size % BSIZE != 0);
  for (int i = 0; i <= NDIRECT && why == 0; i++)
    why = ownblock(ip->dev, ip->addrs[i]);
  for (uint i = 0; list && i < NDIRECT && i < nb; i++)
    list[i] = ip->addrs[i];
  if (why == 0 && ip->addrs[NDIRECT]) {
    struct buf *bp = bread(ip->dev, ip->addrs[NDIRECT]);
    uint *a = (uint *)bp->data;
    for (uint j = 0; j < NINDIRECT && why == 0; j++)
      if (a[j]) /* most are 0 beyond the size */
        why = ownblock(ip->dev, a[j]);
    for (uint i = NDIRECT; list && i < nb && i < MAXFILE; i++)
      list[i] = a[i - NDIRECT];
    brelse(bp);
  } else {
    for (uint i = NDIRECT; list && i < nb && i < MAXFILE; i++)
      list[i] = 0;
  }
  return why;
}

/* Allocate a zeroed data block; 0 if the disk is full.  Inside a
 * transaction.  Finding a 0 bit and setting it happen while this process
 * holds the bitmap block's sleep-lock, so two processes can never take
 * the same block.  Only the data area's blocks that are not held are
 * handed out, whatever the bitmap says of the others (Block ownership).
 * Zeroing the block keeps a previous file's data from showing up in a
 * new one. */
static uint balloc(uint dev)
{
  for (uint b = 0; b < sb.size; b += BPB) {
    struct buf *bp = bread(dev, BBLOCK(b, sb));
    for (uint bi = 0; bi < BPB && b + bi < sb.size; bi++) {
      uint m = 1u << (bi % 8);
      if ((bp->data[bi / 8] & m) == 0 && indata(b + bi) && !inmap(held, b + bi)) {
        bp->data[bi / 8] |= m;
        log_write(bp);
        brelse(bp);
        bzero(dev, b + bi);
        return b + bi;
      }
    }
    brelse(bp);
  }
  printf("balloc: out of blocks\n");
  return 0;
}

/* Free a data block: clear its bit in the bitmap.  Inside a transaction.
 * A held block or one outside the data area keeps its bit (Block
 * ownership): another pointer may still lead to it. */
static void bfree(int dev, uint b)
{
  if (!indata(b) || inmap(held, b))
    return;
  struct buf *bp = bread(dev, BBLOCK(b, sb));
  uint bi = b % BPB;
  uint m = 1u << (bi % 8);
  if ((bp->data[bi / 8] & m) == 0)
    panic("freeing free block");
  bp->data[bi / 8] &= ~m;
  log_write(bp);
  brelse(bp);
}

/* In-memory inode cache.  ref counts C pointers; valid says the disk
 * copy has been read; the sleep-lock protects the fields below it.
 *
 * The on-disk inodes (struct dinode, in the inode blocks) say what each
 * file is; the table holds an in-memory struct inode for every inode
 * that some kernel code is using, so that all users of a file share one
 * copy and one lock.
 *
 * Two counts, not to be confused:
 *   ip->ref    the number of C pointers to the in-memory entry (open
 *              files, cwds, and functions in the middle of using it).
 *              At 0 the entry may be reused for another inode.
 *   ip->nlink  the number of directory entries naming the file, stored
 *              on disk.  At 0 the file is deleted -- but only when the
 *              last reference goes (iput), so an open file that was
 *              unlinked can still be read and written.
 *
 * Two kinds of lock:
 *   itable.lock  (spinlock) protects which inode each entry holds (dev,
 *                inum) and every ref.
 *   ip->lock     (sleep-lock) protects the rest: valid and the copy of
 *                the disk inode (type, size, nlink, addrs, ...), and the
 *                file's contents for readi/writei.
 *
 * The life of a use: iget() finds or makes the entry and takes a
 * reference, without locking it or reading the disk; ilock() locks it
 * and reads the disk inode if needed; iunlock() unlocks; iput() drops the
 * reference.  Getting a reference and locking are separate steps so that
 * code can keep an inode for long (an open file, a cwd) without holding
 * its lock, and so that path lookup can take a reference to the next
 * directory before it locks it (see namex). */
static struct {
  struct spinlock lock;
  struct inode inode[NINODE];
} itable;

void iinit(void)
{
  initlock(&itable.lock, "itable");
  for (int i = 0; i < NINODE; i++)
    initsleeplock(&itable.inode[i].lock, "inode");
}


/* Allocate an on-disk inode of the given type; returns it unlocked (and
 * with a reference), or 0 when there are no free inodes.  Inside a
 * transaction.  As in balloc(), the inode block's sleep-lock makes the
 * test for type 0 and the claim one step: a non-zero type marks the
 * on-disk inode taken. */
struct inode *ialloc(uint dev, short type)
{
  for (uint inum = 1; inum < sb.ninodes; inum++) {
    struct buf *bp = bread(dev, IBLOCK(inum, sb));
    struct dinode *dip = (struct dinode *)bp->data + inum % IPB;
    if (dip->type == 0) {
      memset(dip, 0, sizeof(*dip));
      dip->type = type;
      log_write(bp);
      brelse(bp);
      return iget(dev, inum);
    }
    brelse(bp);
  }
  printf("ialloc: no inodes\n");
  return 0;
}

/* Copy a modified in-memory inode to disk; ip->lock held.  Inside a
 * transaction.  Must follow every change of a field that lives on disk:
 * the in-memory copy is not written back by itself. */
void iupdate(struct inode *ip)
{
  struct buf *bp = bread(ip->dev, IBLOCK(ip->inum, sb));
  struct dinode *dip = (struct dinode *)bp->data + ip->inum % IPB;
  dip->type = ip->type;
  dip->major = ip->major;
  dip->minor = ip->minor;
  dip->nlink = ip->nlink;
  dip->size = ip->size;
  memmove(dip->addrs, ip->addrs, sizeof(ip->addrs));
  log_write(bp);
  brelse(bp);
}

/* Find the entry for inode (dev, inum), or take a free one, and return
 * it with one more reference.  Neither locks the inode nor reads it from
 * disk (valid = 0 tells ilock() to).  A table with no free entry is a
 * kernel panic.
 *
 * An entry whose last reference is gone (ref 0) but that still holds a
 * valid copy of its inode is taken back as it is, with what the kernel
 * knows about the file (integrity.c's verified digest): that copy is the
 * disk's, because every change of a dinode goes through iupdate() from
 * this entry, and an inode freed by iput() was marked invalid here.  Free
 * entries are taken round the table from a moving hand, so the entry just
 * released is the last to be reused, not the first. */
struct inode *iget(uint dev, uint inum)
{
  static int hand; /* where the search for a free entry starts; itable.lock */
  struct inode *ip, *empty = 0;
  acquire(&itable.lock);
  for (ip = &itable.inode[0]; ip < &itable.inode[NINODE]; ip++) {
    if (ip->dev == dev && ip->inum == inum && (ip->ref > 0 || ip->valid)) {
      ip->ref++;
      release(&itable.lock);
      return ip;
    }
  }
  for (int i = 0; i < NINODE && empty == 0; i++) {
    ip = &itable.inode[(hand + i) % NINODE];
    if (ip->ref == 0) {
      empty = ip;
      hand = (hand + i + 1) % NINODE;
    }
  }
  if (empty == 0)
    panic("iget: no inodes");
  ip = empty;
  ip->dev = dev;
  ip->inum = inum;
  ip->ref = 1;
  ip->valid = 0;
  release(&itable.lock);
  return ip;
}

/* one more reference, e.g. for a child's cwd in fork() */
struct inode *idup(struct inode *ip)
{
  acquire(&itable.lock);
  ip->ref++;
  release(&itable.lock);
  return ip;
}

/* Lock the inode, reading it from disk if needed.  The caller holds a
 * reference (ref >= 1), which keeps the entry from being reused. */
void ilock(struct inode *ip)
{
  if (ip == 0 || ip->ref < 1)
    panic("ilock");
  acquiresleep(&ip->lock);
  if (ip->valid == 0) {
    struct buf *bp = bread(ip->dev, IBLOCK(ip->inum, sb));
    struct dinode *dip = (struct dinode *)bp->data + ip->inum % IPB;
    ip->type = dip->type;
    ip->major = dip->major;
    ip->minor = dip->minor;
    ip->nlink = dip->nlink;
    ip->size = dip->size;
    memmove(ip->addrs, dip->addrs, sizeof(ip->addrs));
    brelse(bp);
    ip->valid = 1;
    ip->verified = 0; /* a copy fresh from disk: nothing checked yet */
    if (ip->type == 0)
      panic("ilock: no type");
  }
}

void iunlock(struct inode *ip)
{
  if (ip == 0 || !holdingsleep(&ip->lock) || ip->ref < 1)
    panic("iunlock");
  releasesleep(&ip->lock);
}

/* Drop a reference; the last reference to an unlinked inode frees it
 * (must be inside a transaction, since any iput() may turn out to be
 * that last one).  The caller must not hold ip->lock. */
void iput(struct inode *ip)
{
  acquire(&itable.lock);
  if (ip->ref == 1 && ip->valid && ip->nlink == 0) {
    /* nobody else can hold the lock: ref == 1.  Nor can anyone get a new
     * reference while we work: nlink == 0 means no directory names the
     * inode, so no lookup can iget() it, and ialloc() will not hand it
     * out again before its type is 0 on disk. */
    acquiresleep(&ip->lock);
    /* itrunc() and iupdate() sleep on buffer locks: not under a spinlock */
    release(&itable.lock);
    itrunc(ip);
    ip->type = 0;
    iupdate(ip);
    ip->valid = 0; /* the next iget() of this entry reads the disk */
    releasesleep(&ip->lock);
    acquire(&itable.lock);
  }
  ip->ref--;
  release(&itable.lock);
}

/* the common iunlock(ip); iput(ip) */
void iunlockput(struct inode *ip)
{
  iunlock(ip);
  iput(ip);
}

/* Disk block of the bn-th block of ip, allocating it if needed (alloc);
 * 0 when the disk is full, or when there is none and !alloc.  ip->lock
 * held; inside a transaction if it may allocate.  The first NDIRECT block numbers are in ip->addrs[], the next
 * NINDIRECT in the indirect block whose number is ip->addrs[NDIRECT].  A
 * block allocated here is recorded in ip->addrs[] (the caller's iupdate()
 * saves it) or in the indirect block (logged here).  A pointer outside
 * the data area, which only a forged image holds, is not followed: 0, as
 * for a full disk (Block ownership). */
static uint bmap(struct inode *ip, uint bn, int alloc)
{
  uint addr;
  if (bn < NDIRECT) {
    if ((addr = ip->addrs[bn]) == 0) {
      if (!alloc)
        return 0;
      addr = balloc(ip->dev);
      if (addr == 0)
        return 0;
      ip->addrs[bn] = addr;
    }
    return indata(addr) ? addr : 0;
  }
  bn -= NDIRECT;
  if (bn < NINDIRECT) {
    if ((addr = ip->addrs[NDIRECT]) == 0) {
      if (!alloc)
        return 0;
      addr = balloc(ip->dev);
      if (addr == 0)
        return 0;
      ip->addrs[NDIRECT] = addr;
    }
    if (!indata(addr))
      return 0;
    struct buf *bp = bread(ip->dev, addr);
    uint *a = (uint *)bp->data;
    if ((addr = a[bn]) == 0 && alloc) {
      addr = balloc(ip->dev);
      if (addr) {
        a[bn] = addr;
        log_write(bp);
      }
    }
    brelse(bp);
    return indata(addr) ? addr : 0;
  }
  panic("bmap: out of range");
  return 0;
}

/* Free all blocks of ip; ip->lock held; inside a transaction.  Used when
 * a file is deleted (iput) or opened with O_TRUNC. */
void itrunc(struct inode *ip)
{
  ip->verified = 0; /* new contents: integrity.c must hash them again */
  for (int i = 0; i < NDIRECT; i++) {
    if (ip->addrs[i]) {
      bfree(ip->dev, ip->addrs[i]);
      ip->addrs[i] = 0;
    }
  }
  if (ip->addrs[NDIRECT]) {
    if (indata(ip->addrs[NDIRECT])) {
      struct buf *bp = bread(ip->dev, ip->addrs[NDIRECT]);
      uint *a = (uint *)bp->data;
      for (uint j = 0; j < NINDIRECT; j++)
        if (a[j])
          bfree(ip->dev, a[j]);
      brelse(bp);
    }
    bfree(ip->dev, ip->addrs[NDIRECT]);
    ip->addrs[NDIRECT] = 0;
  }
  ip->size = 0;
  iupdate(ip);
}

/* Copy an inode's metadata for fstat(); ip->lock held. */
void stati(struct inode *ip, struct stat *st)
{
  st->dev = ip->dev;
  st->ino = ip->inum;
  st->type = ip->type;
  st->nlink = ip->nlink;
  st->size = ip->size;
}

/* Read n bytes at off into dst (user or kernel address).  ip->lock held.
 * Returns the bytes read (short at end of file), or -1 if the copy out
 * failed.  Needs no transaction: bmap() only looks up (writei() never
 * leaves a block below size unallocated; a forged image may, and the
 * read stops there). */
int readi(struct inode *ip, int user_dst, uintptr dst, uint off, uint n)
{
  if (off > ip->size || off + n < off)
    return 0;
  if (off + n > ip->size)
    n = ip->size - off;
  uint tot, m;
  for (tot = 0; tot < n; tot += m, off += m, dst += m) {
    uint addr = bmap(ip, off / BSIZE, 0);
    if (addr == 0)
      break;
    struct buf *bp = bread(ip->dev, addr);
    m = min(n - tot, BSIZE - off % BSIZE);
    if (either_copyout(user_dst, dst, bp->data + (off % BSIZE), m) == -1) {
      brelse(bp);
      tot = -1;
      break;
    }
    brelse(bp);
  }
  return tot;
}

/* Write n bytes from src at off; returns bytes written (< n on error).
 * ip->lock held, inside a transaction: the caller keeps n small enough
 * that the blocks written fit in the log (filewrite()).  Writing may
 * extend the file but cannot start beyond its end (no holes). */
int writei(struct inode *ip, int user_src, uintptr src, uint off, uint n)
{
  if (off > ip->size || off + n < off)
    return -1;
  if (off + n > MAXFILE * BSIZE)
    return -1;
  /* Before the first byte changes: an exec that locks the inode next
   * (integrity.c) hashes the new contents instead of trusting the old
   * digest. We hold ip->lock, as that check does. */
  ip->verified = 0;
  uint tot, m;
  for (tot = 0; tot < n; tot += m, off += m, src += m) {
    uint addr = bmap(ip, off / BSIZE, 1);
    if (addr == 0)
      break;
    struct buf *bp = bread(ip->dev, addr);
    m = min(n - tot, BSIZE - off % BSIZE);
    if (either_copyin(bp->data + (off % BSIZE), user_src, src, m) == -1) {
      brelse(bp);
      break;
    }
    log_write(bp);
    brelse(bp);
  }
  if (off > ip->size)
    ip->size = off;
  /* bmap may have changed ip->addrs[] even without growing the file */
  iupdate(ip);
  return tot;
}

/* Directory entry names are at most DIRSIZ bytes and NUL-terminated only
 * when shorter, hence strncmp. */
int namecmp(const char *s, const char *t)
{
  return strncmp(s, t, DIRSIZ);
}

/* Look for name in directory dp; set *poff to the entry's offset.
 * dp->lock held.  The inode found is returned with a reference but not
 * locked: name may be "." (dp itself, whose lock we hold) or "..", and
 * locking it here could deadlock; the caller locks it after unlocking dp
 * if it needs to.  A block at a time, not an entry at a time through
 * readi(): on VexRiscv a bread() costs thousands of clocks, and the root
 * directory's ~40 entries made every path lookup ~40 of them. */
struct inode *dirlookup(struct inode *dp, char *name, uint *poff)
{
  if (dp->type != T_DIR)
    panic("dirlookup not DIR");
  for (uint off = 0; off < dp->size; off += BSIZE) {
    uint addr = bmap(dp, off / BSIZE, 0);
    if (addr == 0)
      break; /* a hole or a block bmap() refused (a forged image) */
    struct buf *bp = bread(dp->dev, addr);
    struct dirent *de = (struct dirent *)bp->data;
    uint n = min(dp->size - off, BSIZE) / sizeof(*de);
    for (uint i = 0; i < n; i++) {
      if (de[i].inum != 0 && namecmp(name, de[i].name) == 0) {
        uint inum = de[i].inum;
        brelse(bp);
        if (poff)
          *poff = off + i * sizeof(*de);
        return iget(dp->dev, inum);
      }
    }
    brelse(bp);
  }
  return 0;
}

/* Add (name, inum) to directory dp: into the first free entry (inum 0),
 * or appended at the end.  dp->lock held, inside a transaction.  Fails if
 * name exists.  The caller updates the target's nlink. */
int dirlink(struct inode *dp, char *name, uint inum)
{
  struct dirent de;
  struct inode *ip;
  uint off;
  if ((ip = dirlookup(dp, name, 0)) != 0) {
    iput(ip);
    return -1;
  }
  for (off = 0; off < dp->size; off += sizeof(de)) {
    if (readi(dp, 0, (uintptr)&de, off, sizeof(de)) != sizeof(de))
      return -1; /* as in dirlookup() */
    if (de.inum == 0)
      break;
  }
  strncpy(de.name, name, DIRSIZ);
  de.inum = inum;
  if (writei(dp, 0, (uintptr)&de, off, sizeof(de)) != sizeof(de))
    return -1;
  return 0;
}

/* Copy the next path element into name; return the rest of the path,
 * or 0 when there is no element.  E.g. "a/bb/c" gives "a" and returns
 * "bb/c"; "///a//bb" gives "a" and returns "bb"; "a" gives "a" and
 * returns ""; "" and "//" return 0.  Elements longer than DIRSIZ are cut
 * to DIRSIZ bytes, without a NUL, as namecmp() expects. */
static char *skipelem(char *path, char *name)
{
  while (*path == '/')
    path++;
  if (*path == 0)
    return 0;
  char *s = path;
  while (*path != '/' && *path != 0)
    path++;
  int len = path - s;
  if (len >= DIRSIZ) {
    memmove(name, s, DIRSIZ);
  } else {
    memmove(name, s, len);
    name[len] = 0;
  }
  while (*path == '/')
    path++;
  return path;
}

/* Look up a path, one element at a time; returns the inode with a
 * reference, unlocked, or 0.  With nameiparent, return the parent
 * directory of the last element instead, and copy that element into name
 * (DIRSIZ bytes).  Must be called inside a transaction, because the
 * iput()s of the directories passed through may free one that was
 * removed meanwhile.
 *
 * At most one inode lock is held at a time: the directory is unlocked
 * (iunlockput) before the next element's inode, returned unlocked by
 * dirlookup(), gets locked at the top of the next round.  Holding the
 * directory's lock while locking the next inode would deadlock on "."
 * (the same inode) and could deadlock against a lookup of ".." walking
 * the other way.  The reference taken by dirlookup() keeps the next inode
 * in the table in between, though not unchanged: it is re-checked (is it
 * still a directory?) once locked. */
static struct inode *namex(char *path, int nameiparent, char *name)
{
  struct inode *ip, *next;
  if (*path == '/')
    ip = iget(ROOTDEV, ROOTINO);
  else
    ip = idup(myproc()->cwd);
  while ((path = skipelem(path, name)) != 0) {
    ilock(ip);
    if (ip->type != T_DIR) {
      iunlockput(ip);
      return 0;
    }
    if (nameiparent && *path == 0) {
      iunlock(ip); /* stop one level early */
      return ip;
    }
    if ((next = dirlookup(ip, name, 0)) == 0) {
      iunlockput(ip);
      return 0;
    }
    iunlockput(ip);
    ip = next;
  }
  if (nameiparent) {
    iput(ip);
    return 0;
  }
  return ip;
}

/* the inode of path, with a reference, unlocked; or 0 */
struct inode *namei(char *path)
{
  char name[DIRSIZ];
  return namex(path, 0, name);
}

/* the directory holding the last element of path, which goes to name */
struct inode *nameiparent(char *path, char *name)
{
  return namex(path, 1, name);
}
