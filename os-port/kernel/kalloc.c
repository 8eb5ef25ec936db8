/* SPDX-License-Identifier: MIT */
/* Physical page allocator.
 *
 * Free pages come from two places: a list of pages that were freed, and
 * the never-used RAM, carved from the bottom up: first [end, RAMDISK_BASE),
 * then [RAMDISK_BASE + RAMDISK_MAX, PHYSTOP).  kinit() therefore touches no page at all, which matters on
 * the LiteX simulator where writing 24 MiB would take many seconds.
 * With JUNK_FILL (QEMU), freed pages are filled with 0x01 and newly
 * allocated ones with 0x05 to catch dangling references. */
#include "types.h"
#include "param.h"
#include "memlayout.h"
#include "spinlock.h"
#include "riscv.h"
#include "defs.h"

extern char end[]; /* first address after the kernel image (kernel.ld) */

/* A free page holds the list link in its own first word: the free list
 * costs no memory beyond the pages themselves. */
struct run {
  struct run *next;
};

/* kmem.lock protects every field: the list, the fresh-page cursor and the
 * count.  It is a leaf lock: nothing else is taken while it is held, so
 * kalloc()/kfree() may be called with any other spinlock held. */
static struct {
  struct spinlock lock;
  struct run *freelist;
  uintptr next_fresh;
  uintptr limit; /* end of the current fresh region */
  uint nfree;    /* pages on the free list + never used */
} kmem;

/* No page is written here: the two fresh regions are only recorded, and
 * kalloc() hands their pages out one by one when the free list is empty. */
void kinit(void)
{
  initlock(&kmem.lock, "kmem");
  kmem.freelist = 0;
  kmem.next_fresh = PGROUNDUP((uintptr)end);
  kmem.limit = RAMDISK_BASE;
  if (kmem.next_fresh > RAMDISK_BASE)
    panic("kinit: kernel overlaps the RAM disk");
  kmem.nfree = (RAMDISK_BASE - kmem.next_fresh) / PGSIZE + (PHYSTOP - (RAMDISK_BASE + RAMDISK_MAX)) / PGSIZE;
}

/* Give back the page at pa, which kalloc() returned.  A page outside the
 * allocator's RAM, inside the RAM disk, or not page-aligned is a kernel
 * bug, caught here rather than corrupting the list. */
void kfree(void *pa)
{
  uintptr a = (uintptr)pa;
  if (a % PGSIZE || a < PGROUNDUP((uintptr)end) || a >= PHYSTOP ||
      (a >= RAMDISK_BASE && a < RAMDISK_BASE + RAMDISK_MAX))
    panic("kfree %p", pa);
#if JUNK_FILL
  memset(pa, 1, PGSIZE); /* a use after free reads 0x01 bytes, not stale data */
#endif
  struct run *r = (struct run *)pa;
  acquire(&kmem.lock);
  r->next = kmem.freelist;
  kmem.freelist = r;
  kmem.nfree++;
  release(&kmem.lock);
}

/* One 4 KiB page of physical memory, or 0 when RAM is exhausted.  The
 * page's contents are undefined (junk on QEMU, whatever RAM held on
 * LiteX): callers that need zeros memset it themselves.  Because the
 * kernel maps RAM 1:1, the physical address is also the kernel's
 * pointer to the page. */
void *kalloc(void)
{
  void *p = 0;
  acquire(&kmem.lock);
  if (kmem.freelist) {
    p = kmem.freelist;
    kmem.freelist = kmem.freelist->next;
  } else {
    /* recycled pages first; then the low fresh region, and once it is
     * used up, jump over the RAM disk to the high one */
    if (kmem.next_fresh >= kmem.limit && kmem.limit == RAMDISK_BASE) {
      kmem.next_fresh = RAMDISK_BASE + RAMDISK_MAX;
      kmem.limit = PHYSTOP;
    }
    if (kmem.next_fresh < kmem.limit) {
      p = (void *)kmem.next_fresh;
      kmem.next_fresh += PGSIZE;
    }
  }
  if (p)
    kmem.nfree--;
  release(&kmem.lock);
#if JUNK_FILL
  if (p)
    memset(p, 5, PGSIZE);
#endif
  return p;
}

/* free pages, for the boot banner and procdump() (read without the lock:
 * one aligned word, and only a statistic) */
uint kfreepages(void)
{
  return kmem.nfree;
}
