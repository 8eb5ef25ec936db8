/* RAM disk: the file-system image lives in RAM at RAMDISK_BASE, put there
 * by the loader (QEMU -device loader / LiteX --ram-init).  Same driver on
 * both platforms; the disk is not persistent across boots. */
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
