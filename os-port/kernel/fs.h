/* SPDX-License-Identifier: MIT */
/* On-disk file system format, identical to xv6-riscv's (all fields are
 * 32-bit or smaller, so the 64-bit and 32-bit layouts agree). */
#ifndef XV_FS_H
#define XV_FS_H
#define ROOTINO 1
#define BSIZE   1024
#define FSMAGIC 0x10203040

/* block 0 boot | 1 super | log | inodes | free bitmap | data */
struct superblock {
  uint magic;
  uint size;    /* blocks in the image */
  uint nblocks; /* data blocks */
  uint ninodes;
  uint nlog;
  uint logstart;
  uint inodestart;
  uint bmapstart;
  uint nimage; /* blocks stored in the image file: [nimage, size) are all
                       zero, left out of the file, and zero-filled at boot */
};

#define NDIRECT   12
#define NINDIRECT (BSIZE / sizeof(uint))
#define MAXFILE   (NDIRECT + NINDIRECT)

struct dinode {
  short type;
  short major;
  short minor;
  short nlink;
  uint size;
  uint addrs[NDIRECT + 1];
};

#define IPB           (BSIZE / sizeof(struct dinode))
#define IBLOCK(i, sb) ((i) / IPB + (sb).inodestart)
#define BPB           (BSIZE * 8)
#define BBLOCK(b, sb) ((b) / BPB + (sb).bmapstart)

#define DIRSIZ 14
struct dirent {
  ushort inum;
  char name[DIRSIZ];
};
#endif
