/* SPDX-License-Identifier: MIT */
/* Physical and virtual memory layout.
 *
 * Physical (per platform, see plat_*.h):
 *   RAM_BASE ................ kernel text, data, bss (up to "end")
 *   RAM_BASE + 2 MiB ........ RAMDISK_BASE: fs.img (2 MiB reserved), loaded
 *                             by QEMU's -device loader or LiteX --ram-init
 *   end .. RAMDISK_BASE and
 *   RAMDISK_BASE+2 MiB .. PHYSTOP: pages handed out by kalloc()
 *
 * Kernel virtual: RAM and devices are mapped 1:1; kernel stacks sit just
 * below the trampoline, each with an unmapped guard page.
 * User virtual: page 0 is never mapped (NULL faults); text/data from
 * USERBASE, then one guard page, the stack, the heap; the trapframe at
 * 0xFFFFE000 and the trampoline at 0xFFFFF000 (neither has PTE_U). */
#ifndef XV_MEMLAYOUT_H
#define XV_MEMLAYOUT_H
#include "plat.h"
#define KERNBASE   RAM_BASE
#define PHYSTOP    (RAM_BASE + RAM_SIZE)
#define TRAMPOLINE 0xFFFFF000u
#define TRAPFRAME  (TRAMPOLINE - PGSIZE)
#define MAXUVA     TRAPFRAME /* user addresses are < MAXUVA */
#define USERBASE   0x1000u
#define KSTACK(p)  (TRAMPOLINE - ((p) + 1) * 2 * PGSIZE)
#endif
