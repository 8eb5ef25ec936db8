/* SPDX-License-Identifier: MIT */
/* RAM disk: the file-system image lives in RAM at RAMDISK_BASE, put there
 * by the loader (QEMU -device loader, LiteX --ram-init, litex_term --images).
 * Same driver on every platform; the disk is not persistent across boots.
 *
 * The image file holds only the blocks mkfs used (superblock.nimage): the
 * rest of the file system is zeros, which are not worth loading (over a
 * board's UART they were three quarters of the upload). ramdiskinit() writes
 * those zeros itself, because RAM after a reset holds whatever was there. */
#include "types.h"
#include "riscv.h"
#include "defs.h"
#include "param.h"
#include "memlayout.h"
#include "spinlock.h"
#include "sleeplock.h"
#include "fs.h"
#include "buf.h"

void ramdiskinit(void)
{
  struct superblock *sb = (struct superblock *)(RAMDISK_BASE + BSIZE);
  if (sb->magic != FSMAGIC)
    panic("ramdisk: no file system at %p (fs.img not loaded?)", (void *)RAMDISK_BASE);
  if ((uint64)sb->size * BSIZE > RAMDISK_MAX)
    panic("ramdisk: fs.img larger than %d bytes", RAMDISK_MAX);
  if (sb->nimage < 2 || sb->nimage > sb->size)
    panic("ramdisk: bad image size %d of %d blocks", sb->nimage, sb->size);
  uint nimage = sb->nimage, size = sb->size;
  memset((char *)(RAMDISK_BASE + nimage * BSIZE), 0, (size - nimage) * BSIZE);
  printf("ramdisk: %d of %d blocks loaded, the rest zero-filled\n", nimage, size);
}

/* b->lock held: read or write the block */
void ramdiskrw(struct buf *b, int write)
{
  if ((uint64)(b->blockno + 1) * BSIZE > RAMDISK_MAX)
    panic("ramdisk: block %d out of range", b->blockno);
  char *addr = (char *)(RAMDISK_BASE + b->blockno * BSIZE);
  if (write)
    memmove(addr, b->data, BSIZE);
  else
    memmove(b->data, addr, BSIZE);
}

/* Where block blockno lives in memory, for readers that take it in place
 * (integrity.c's boot check, by DMA).  Only as new as the buffer cache
 * when no block in the cache is newer than the disk: the caller argues
 * that.  0 if the block is outside the RAM disk. */
void *ramdiskblock(uint blockno)
{
  if ((uint64)(blockno + 1) * BSIZE > RAMDISK_MAX)
    return 0;
  return (void *)(RAMDISK_BASE + blockno * BSIZE);
}
