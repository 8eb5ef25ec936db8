/* SPDX-License-Identifier: MIT */
/* mkfs: build an xv6 file-system image on the host.
 *   mkfs fs.img file...
 * Each file is copied into the root directory under its base name, with
 * a leading '_' removed (build/qemu/user/_cat -> /cat). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <fcntl.h>
#include <unistd.h>
#include <assert.h>

#define XV_TYPES_H /* use host types instead of kernel/types.h */
typedef unsigned int uint;
typedef unsigned short ushort;
typedef unsigned char uchar;
typedef uint32_t uint32;
#include "kernel/fs.h"
#include "kernel/param.h"
#define stat xv6_stat /* do not clash with the host struct stat */
#include "kernel/stat.h"
#undef stat

#define NINODES 200

/* disk layout: [ boot | super | log | inodes | bitmap | data ] */
static int nbitmap = FSSIZE / (BSIZE * 8) + 1;
static int ninodeblocks = NINODES / IPB + 1;
static int nlog = LOGSIZE;
static int nmeta, nblocks;

static int fsfd;
static struct superblock sb;
static char zeroes[BSIZE];
static uint freeinode = 1;
static uint freeblock;

/* the image is little-endian, like RISC-V */
static ushort xshort(ushort x)
{
  ushort y;
  uchar *a = (uchar *)&y;
  a[0] = x;
  a[1] = x >> 8;
  return y;
}

static uint xint(uint x)
{
  uint y;
  uchar *a = (uchar *)&y;
  a[0] = x;
  a[1] = x >> 8;
  a[2] = x >> 16;
  a[3] = x >> 24;
  return y;
}

static void die(const char *s)
{
  perror(s);
  exit(1);
}

static void wsect(uint sec, void *buf)
{
  if (lseek(fsfd, (off_t)sec * BSIZE, SEEK_SET) != (off_t)sec * BSIZE)
    die("lseek");
  if (write(fsfd, buf, BSIZE) != BSIZE)
    die("write");
}

static void rsect(uint sec, void *buf)
{
  if (lseek(fsfd, (off_t)sec * BSIZE, SEEK_SET) != (off_t)sec * BSIZE)
    die("lseek");
  if (read(fsfd, buf, BSIZE) != BSIZE)
    die("read");
}

static void winode(uint inum, struct dinode *ip)
{
  char buf[BSIZE];
  uint bn = IBLOCK(inum, sb);
  rsect(bn, buf);
  *((struct dinode *)buf + (inum % IPB)) = *ip;
  wsect(bn, buf);
}

static void rinode(uint inum, struct dinode *ip)
{
  char buf[BSIZE];
  rsect(IBLOCK(inum, sb), buf);
  *ip = *((struct dinode *)buf + (inum % IPB));
}

static uint ialloc(ushort type)
{
  uint inum = freeinode++;
  struct dinode din;
  memset(&din, 0, sizeof(din));
  din.type = xshort(type);
  din.nlink = xshort(1);
  din.size = xint(0);
  winode(inum, &din);
  return inum;
}

/* mark the first `used` blocks as in use */
static void balloc(int used)
{
  uchar buf[BSIZE];
  assert(used < BSIZE * 8);
  memset(buf, 0, BSIZE);
  for (int i = 0; i < used; i++)
    buf[i / 8] |= 1 << (i % 8);
  wsect(sb.bmapstart, buf);
}

#define MIN(a, b) ((a) < (b) ? (a) : (b))

static void iappend(uint inum, void *xp, int n)
{
  char *p = xp;
  uint fbn, off, n1;
  struct dinode din;
  char buf[BSIZE];
  uint indirect[NINDIRECT];
  uint x;

  rinode(inum, &din);
  off = xint(din.size);
  while (n > 0) {
    fbn = off / BSIZE;
    assert(fbn < MAXFILE);
    if (fbn < NDIRECT) {
      if (xint(din.addrs[fbn]) == 0)
        din.addrs[fbn] = xint(freeblock++);
      x = xint(din.addrs[fbn]);
    } else {
      if (xint(din.addrs[NDIRECT]) == 0)
        din.addrs[NDIRECT] = xint(freeblock++);
      rsect(xint(din.addrs[NDIRECT]), (char *)indirect);
      if (indirect[fbn - NDIRECT] == 0) {
        indirect[fbn - NDIRECT] = xint(freeblock++);
        wsect(xint(din.addrs[NDIRECT]), (char *)indirect);
      }
      x = xint(indirect[fbn - NDIRECT]);
    }
    if (freeblock >= FSSIZE) {
      fprintf(stderr, "mkfs: file system full (FSSIZE %d)\n", FSSIZE);
      exit(1);
    }
    n1 = MIN((uint)n, (fbn + 1) * BSIZE - off);
    rsect(x, buf);
    memmove(buf + off - (fbn * BSIZE), p, n1);
    wsect(x, buf);
    n -= n1;
    off += n1;
    p += n1;
  }
  din.size = xint(off);
  winode(inum, &din);
}

static void add_dirent(uint dir, uint inum, const char *name)
{
  struct dirent de;
  memset(&de, 0, sizeof(de));
  de.inum = xshort(inum);
  size_t n = strlen(name);
  memcpy(de.name, name, n < DIRSIZ ? n : DIRSIZ);
  iappend(dir, &de, sizeof(de));
}

int main(int argc, char *argv[])
{
  char buf[BSIZE];
  struct dinode din;

  static_assert(sizeof(int) == 4, "integers must be 4 bytes");
  static_assert(sizeof(struct dinode) == 64, "dinode layout");
  static_assert(BSIZE % sizeof(struct dinode) == 0, "dinodes per block");
  static_assert(BSIZE % sizeof(struct dirent) == 0, "dirents per block");

  if (argc < 2) {
    fprintf(stderr, "usage: mkfs fs.img files...\n");
    exit(1);
  }
  fsfd = open(argv[1], O_RDWR | O_CREAT | O_TRUNC, 0666);
  if (fsfd < 0)
    die(argv[1]);

  nmeta = 2 + nlog + ninodeblocks + nbitmap;
  nblocks = FSSIZE - nmeta;
  sb.magic = FSMAGIC;
  sb.size = xint(FSSIZE);
  sb.nblocks = xint(nblocks);
  sb.ninodes = xint(NINODES);
  sb.nlog = xint(nlog);
  sb.logstart = xint(2);
  sb.inodestart = xint(2 + nlog);
  sb.bmapstart = xint(2 + nlog + ninodeblocks);
  printf("mkfs: %d blocks: %d meta (boot, super, log %d, inode %d, bitmap %d), %d data\n", FSSIZE, nmeta,
      nlog, ninodeblocks, nbitmap, nblocks);

  freeblock = nmeta;
  for (int i = 0; i < FSSIZE; i++)
    wsect(i, zeroes);
  memset(buf, 0, sizeof(buf));
  memmove(buf, &sb, sizeof(sb));
  wsect(1, buf);

  uint rootino = ialloc(T_DIR);
  assert(rootino == ROOTINO);
  add_dirent(rootino, rootino, ".");
  add_dirent(rootino, rootino, "..");

  for (int i = 2; i < argc; i++) {
    const char *path = argv[i];
    const char *shortname = strrchr(path, '/');
    shortname = shortname ? shortname + 1 : path;
    if (*shortname == '_')
      shortname++;
    assert(strlen(shortname) <= DIRSIZ);
    int fd = open(path, O_RDONLY);
    if (fd < 0)
      die(path);
    uint inum = ialloc(T_FILE);
    add_dirent(rootino, inum, shortname);
    int cc;
    while ((cc = read(fd, buf, sizeof(buf))) > 0)
      iappend(inum, buf, cc);
    close(fd);
  }

  /* round the root directory size up to a whole block */
  rinode(rootino, &din);
  uint off = xint(din.size);
  off = ((off / BSIZE) + 1) * BSIZE;
  din.size = xint(off);
  winode(rootino, &din);

  balloc(freeblock);
  printf("mkfs: %u of %d data blocks used\n", freeblock - nmeta, nblocks);

  /* Blocks are handed out in order, so every block from freeblock on is still
   * zero: the file stops there, and the kernel zero-fills the rest (nimage). */
  sb.nimage = xint(freeblock);
  memset(buf, 0, sizeof(buf));
  memmove(buf, &sb, sizeof(sb));
  wsect(1, buf);
  if (ftruncate(fsfd, (off_t)freeblock * BSIZE) != 0)
    die("ftruncate");
  printf("mkfs: image of %u blocks (%u bytes), %d blocks with the zeros\n", freeblock, freeblock * BSIZE,
      FSSIZE);
  return 0;
}
