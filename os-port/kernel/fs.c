/* File system: blocks, inodes, directories, path names (xv6 format). */
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

struct superblock sb;

static void readsb(int dev, struct superblock *sbp)
{
  struct buf *bp = bread(dev, 1);
  memmove(sbp, bp->data, sizeof(*sbp));
  brelse(bp);
}

void fsinit(int dev)
{
  readsb(dev, &sb);
  if (sb.magic != FSMAGIC)
    panic("invalid file system");
  initlog(dev, &sb);
}

static void bzero(int dev, int bno)
{
  struct buf *bp = bread(dev, bno);
  memset(bp->data, 0, BSIZE);
  log_write(bp);
  brelse(bp);
}

/* allocate a zeroed data block; 0 if the disk is full */
static uint balloc(uint dev)
{
  for (uint b = 0; b < sb.size; b += BPB) {
    struct buf *bp = bread(dev, BBLOCK(b, sb));
    for (uint bi = 0; bi < BPB && b + bi < sb.size; bi++) {
      uint m = 1u << (bi % 8);
      if ((bp->data[bi / 8] & m) == 0) {
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

static void bfree(int dev, uint b)
{
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
 * copy has been read; the sleep-lock protects the fields below it. */
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

static struct inode *iget(uint dev, uint inum);

/* allocate an on-disk inode of the given type; returns it unlocked */
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

/* copy a modified in-memory inode to disk; ip->lock held */
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

static struct inode *iget(uint dev, uint inum)
{
  struct inode *ip, *empty = 0;
  acquire(&itable.lock);
  for (ip = &itable.inode[0]; ip < &itable.inode[NINODE]; ip++) {
    if (ip->ref > 0 && ip->dev == dev && ip->inum == inum) {
      ip->ref++;
      release(&itable.lock);
      return ip;
    }
    if (empty == 0 && ip->ref == 0)
      empty = ip;
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

struct inode *idup(struct inode *ip)
{
  acquire(&itable.lock);
  ip->ref++;
  release(&itable.lock);
  return ip;
}

/* lock the inode, reading it from disk if needed */
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

/* drop a reference; the last reference to an unlinked inode frees it
 * (must be inside a transaction) */
void iput(struct inode *ip)
{
  acquire(&itable.lock);
  if (ip->ref == 1 && ip->valid && ip->nlink == 0) {
    /* nobody else can hold the lock: ref == 1 */
    acquiresleep(&ip->lock);
    release(&itable.lock);
    itrunc(ip);
    ip->type = 0;
    iupdate(ip);
    ip->valid = 0;
    releasesleep(&ip->lock);
    acquire(&itable.lock);
  }
  ip->ref--;
  release(&itable.lock);
}

void iunlockput(struct inode *ip)
{
  iunlock(ip);
  iput(ip);
}

/* disk block of the bn-th block of ip, allocating it if needed; 0 when
 * the disk is full */
static uint bmap(struct inode *ip, uint bn)
{
  uint addr;
  if (bn < NDIRECT) {
    if ((addr = ip->addrs[bn]) == 0) {
      addr = balloc(ip->dev);
      if (addr == 0)
        return 0;
      ip->addrs[bn] = addr;
    }
    return addr;
  }
  bn -= NDIRECT;
  if (bn < NINDIRECT) {
    if ((addr = ip->addrs[NDIRECT]) == 0) {
      addr = balloc(ip->dev);
      if (addr == 0)
        return 0;
      ip->addrs[NDIRECT] = addr;
    }
    struct buf *bp = bread(ip->dev, addr);
    uint *a = (uint *)bp->data;
    if ((addr = a[bn]) == 0) {
      addr = balloc(ip->dev);
      if (addr) {
        a[bn] = addr;
        log_write(bp);
      }
    }
    brelse(bp);
    return addr;
  }
  panic("bmap: out of range");
  return 0;
}

/* free all blocks of ip; ip->lock held */
void itrunc(struct inode *ip)
{
  for (int i = 0; i < NDIRECT; i++) {
    if (ip->addrs[i]) {
      bfree(ip->dev, ip->addrs[i]);
      ip->addrs[i] = 0;
    }
  }
  if (ip->addrs[NDIRECT]) {
    struct buf *bp = bread(ip->dev, ip->addrs[NDIRECT]);
    uint *a = (uint *)bp->data;
    for (uint j = 0; j < NINDIRECT; j++)
      if (a[j])
        bfree(ip->dev, a[j]);
    brelse(bp);
    bfree(ip->dev, ip->addrs[NDIRECT]);
    ip->addrs[NDIRECT] = 0;
  }
  ip->size = 0;
  iupdate(ip);
}

void stati(struct inode *ip, struct stat *st)
{
  st->dev = ip->dev;
  st->ino = ip->inum;
  st->type = ip->type;
  st->nlink = ip->nlink;
  st->size = ip->size;
}

/* read n bytes at off into dst (user or kernel address) */
int readi(struct inode *ip, int user_dst, uintptr dst, uint off, uint n)
{
  if (off > ip->size || off + n < off)
    return 0;
  if (off + n > ip->size)
    n = ip->size - off;
  uint tot, m;
  for (tot = 0; tot < n; tot += m, off += m, dst += m) {
    uint addr = bmap(ip, off / BSIZE);
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

/* write n bytes from src at off; returns bytes written (< n on error) */
int writei(struct inode *ip, int user_src, uintptr src, uint off, uint n)
{
  if (off > ip->size || off + n < off)
    return -1;
  if (off + n > MAXFILE * BSIZE)
    return -1;
  uint tot, m;
  for (tot = 0; tot < n; tot += m, off += m, src += m) {
    uint addr = bmap(ip, off / BSIZE);
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

int namecmp(const char *s, const char *t)
{
  return strncmp(s, t, DIRSIZ);
}

/* look for name in directory dp; set *poff to the entry's offset */
struct inode *dirlookup(struct inode *dp, char *name, uint *poff)
{
  struct dirent de;
  if (dp->type != T_DIR)
    panic("dirlookup not DIR");
  for (uint off = 0; off < dp->size; off += sizeof(de)) {
    if (readi(dp, 0, (uintptr)&de, off, sizeof(de)) != sizeof(de))
      panic("dirlookup read");
    if (de.inum == 0)
      continue;
    if (namecmp(name, de.name) == 0) {
      if (poff)
        *poff = off;
      return iget(dp->dev, de.inum);
    }
  }
  return 0;
}

/* add (name, inum) to directory dp */
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
      panic("dirlink read");
    if (de.inum == 0)
      break;
  }
  strncpy(de.name, name, DIRSIZ);
  de.inum = inum;
  if (writei(dp, 0, (uintptr)&de, off, sizeof(de)) != sizeof(de))
    return -1;
  return 0;
}

/* copy the next path element into name; return the rest of the path,
 * or 0 when there is no element */
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

struct inode *namei(char *path)
{
  char name[DIRSIZ];
  return namex(path, 0, name);
}

struct inode *nameiparent(char *path, char *name)
{
  return namex(path, 1, name);
}
