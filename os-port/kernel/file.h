/* SPDX-License-Identifier: MIT */
#ifndef XV_FILE_H
#define XV_FILE_H
struct file {
  enum { FD_NONE, FD_PIPE, FD_INODE, FD_DEVICE, FD_HASH } type;
  int ref;
  char readable;
  char writable;
  struct pipe *pipe;   /* FD_PIPE */
  struct inode *ip;    /* FD_INODE and FD_DEVICE */
  uint off;            /* FD_INODE */
  short major;         /* FD_DEVICE */
  struct khstream *hs; /* FD_HASH (hashfile.c) */
};

#define major(dev)  ((dev) >> 16 & 0xFFFF)
#define minor(dev)  ((dev)&0xFFFF)
#define mkdev(m, n) ((uint)((m) << 16 | (n)))

/* in-memory copy of an inode */
struct inode {
  uint dev;
  uint inum;
  int ref;
  struct sleeplock lock;
  int valid;
  short type; /* copy of disk inode */
  short major;
  short minor;
  short nlink;
  uint size;
  uint addrs[NDIRECT + 1];
  /* integrity.c: the contents were hashed and matched the manifest.
   * Under lock, like the contents: cleared by writei() and itrunc(), and
   * when ilock() reads the inode from disk. */
  char verified;
};

/* maps a major device number to device functions */
struct devsw {
  int (*read)(int user_dst, uintptr dst, int n);
  int (*write)(int user_src, uintptr src, int n);
};
extern struct devsw devsw[];
#define CONSOLE 1
#endif
