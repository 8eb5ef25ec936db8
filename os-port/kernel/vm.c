/* SPDX-License-Identifier: MIT */
/* Sv32 virtual memory: two-level page tables with 32-bit PTEs.
 * Every leaf PTE is created with A set (and D when writable) because the
 * VexRiscv MMU faults on A=0 and refuses writes on D=0 instead of
 * updating the bits itself.
 *
 * A page table is one 4 KiB page of 1024 PTEs, for either level; its
 * physical address is also its kernel pointer, since the kernel maps RAM
 * 1:1.  There is one kernel page table, shared by all harts and built
 * once, and one page table per process that maps its user memory plus the
 * trampoline and trapframe (proc.c).  No lock protects a user page table:
 * only its own process changes it (sbrk, exec), or fork()/wait() while
 * the process cannot run. */
#include "types.h"
#include "param.h"
#include "memlayout.h"
#include "elf.h"
#include "riscv.h"
#include "spinlock.h"
#include "proc.h"
#include "defs.h"
#include "hashsoc/hash.h"
#include "hashsoc/hash_regs.h" /* after memlayout.h: LiteX's csr.h and mem.h first */

pagetable_t kernel_pagetable;

extern char etext[];      /* kernel.ld: end of kernel text */
extern char trampoline[]; /* trampoline.S */

static void kvmmap(pagetable_t kpt, uintptr va, uintptr pa, uintptr sz, int perm)
{
  if (mappages(kpt, va, sz, pa, perm) != 0)
    panic("kvmmap");
}

#ifdef PLATFORM_LITEX
static const uintptr engine_window[HASH_ENGINE_COUNT] = {
#define WINDOW(key, ident, ctx_words) [HASH_ENGINE_##key] = HASH_##key##_WIN_BASE,
  HASH_ENGINE_TABLE(WINDOW)
#undef WINDOW
};
#endif

/* The kernel's page table: devices, RAM and the RAM disk 1:1 (so that
 * physical addresses work as pointers after paging is on), the
 * trampoline at the top, and the kernel stacks below it. */
static pagetable_t kvmmake(void)
{
  pagetable_t kpt = (pagetable_t)kalloc();
  memset(kpt, 0, PGSIZE);
#if defined(PLATFORM_QEMU)
  kvmmap(kpt, UART0, UART0, PGSIZE, PTE_R | PTE_W);
#elif defined(PLATFORM_LITEX)
  kvmmap(kpt, LITEX_CSR_WINDOW_BASE, LITEX_CSR_WINDOW_BASE, LITEX_CSR_WINDOW_SIZE, PTE_R | PTE_W);
  /* every hash engine's data window the SoC has (uncached: top nibble 0xB),
   * 1:1 because the driver stores through pointers into them. From the
   * driver's engine table, so that an engine added to the SoC is mapped (the
   * SHA-512 engine's window was not, and its first store was a kernel page
   * fault); hash_regs.h gives base 0 for an engine the SoC lacks. */
  for (int e = 0; e < HASH_ENGINE_COUNT; e++)
    if (engine_window[e])
      kvmmap(kpt, engine_window[e], engine_window[e], HWIN_SIZE, PTE_R | PTE_W);
#endif
  /* kernel text: read + execute */
  kvmmap(kpt, KERNBASE, KERNBASE, (uintptr)etext - KERNBASE, PTE_R | PTE_X);
  /* kernel data, free RAM and the RAM disk */
  kvmmap(kpt, (uintptr)etext, (uintptr)etext, PHYSTOP - (uintptr)etext, PTE_R | PTE_W);
  /* the trampoline at the top of every address space */
  kvmmap(kpt, TRAMPOLINE, (uintptr)trampoline, PGSIZE, PTE_R | PTE_X);
  proc_mapstacks(kpt);
  return kpt;
}

void kvminit(void)
{
  kernel_pagetable = kvmmake();
}

/* Turn paging on for this hart.  The code keeps running because it is
 * mapped 1:1; the fences order earlier page-table stores before the switch
 * and drop any translation cached before it. */
void kvminithart(void)
{
  sfence_vma();
  w_satp(MAKE_SATP(kernel_pagetable));
  sfence_vma();
}

/* Return the address of the PTE for va, creating the second-level table
 * if alloc is set.  Only the two Sv32 levels exist: level 1 (4 MiB
 * entries, VPN[1]) and level 0 (4 KiB pages, VPN[0]).
 *
 * This is the MMU's walk done in software.  The kernel never creates
 * 4 MiB megapages, so a valid level-1 entry must point to a table.  The
 * returned PTE may be invalid: callers check PTE_V.  0 means there is no
 * level-0 table (and alloc was not set, or kalloc() failed). */
pte_t *walk(pagetable_t pt, uintptr va, int alloc)
{
  pte_t *pte = &pt[PX(1, va)];
  if (*pte & PTE_V) {
    if (*pte & (PTE_R | PTE_W | PTE_X))
      panic("walk: megapage");
    pt = (pagetable_t)PTE2PA(*pte);
  } else {
    if (!alloc || (pt = (pagetable_t)kalloc()) == 0)
      return 0;
    memset(pt, 0, PGSIZE);
    *pte = PA2PTE(pt) | PTE_V; /* non-leaf: A/D/U must stay 0 */
  }
  return &pt[PX(0, va)];
}

/* Physical address of a user-accessible page, or 0.  The check for
 * PTE_U keeps system calls from reaching, on the user's behalf, pages the
 * user itself may not touch: the trampoline, the trapframe and the stack
 * guard page. */
uintptr walkaddr(pagetable_t pt, uintptr va)
{
  if (va >= MAXUVA)
    return 0;
  pte_t *pte = walk(pt, va, 0);
  if (pte == 0 || (*pte & PTE_V) == 0 || (*pte & PTE_U) == 0)
    return 0;
  return PTE2PA(*pte);
}

/* Map [va, va+size) to [pa, pa+size).  va and size need not be aligned.
 * Returns -1 if a page-table page cannot be allocated (the pages mapped
 * so far stay mapped; callers unmap them).  Mapping over a valid PTE is a
 * kernel bug. */
int mappages(pagetable_t pt, uintptr va, uintptr size, uintptr pa, int perm)
{
  if (size == 0)
    panic("mappages: size");
  uintptr a = PGROUNDDOWN(va);
  uintptr last = PGROUNDDOWN(va + size - 1);
  uint32 flags = perm | PTE_V | PTE_A | ((perm & PTE_W) ? PTE_D : 0);
  for (;;) {
    pte_t *pte = walk(pt, a, 1);
    if (pte == 0)
      return -1;
    if (*pte & PTE_V)
      panic("mappages: remap %p", (void *)a);
    *pte = PA2PTE(pa) | flags;
    if (a == last)
      break;
    a += PGSIZE;
    pa += PGSIZE;
  }
  return 0;
}

/* Remove npages of mappings starting at va (page aligned); pages that are
 * not mapped are skipped.  Optionally free the physical memory.
 * (Skipping is needed: sbrk(-n) can leave holes below sz, see uvmcopy.)
 * No TLB flush here: in the kernel the live table is the kernel's, and
 * userret fences when it switches to the user table again. */
void uvmunmap(pagetable_t pt, uintptr va, uint npages, int do_free)
{
  if (va % PGSIZE)
    panic("uvmunmap: not aligned");
  for (uint i = 0; i < npages; i++, va += PGSIZE) {
    pte_t *pte = walk(pt, va, 0);
    if (pte == 0 || (*pte & PTE_V) == 0)
      continue;
    if (PTE_FLAGS(*pte) == PTE_V)
      panic("uvmunmap: not a leaf");
    if (do_free)
      kfree((void *)PTE2PA(*pte));
    *pte = 0;
  }
}

/* an empty user page table, or 0 */
pagetable_t uvmcreate(void)
{
  pagetable_t pt = (pagetable_t)kalloc();
  if (pt == 0)
    return 0;
  memset(pt, 0, PGSIZE);
  return pt;
}

/* Grow user memory from oldsz to newsz (both counted from 0; the first
 * page of the address space is never mapped).  Returns newsz or 0. */
uintptr uvmalloc(pagetable_t pt, uintptr oldsz, uintptr newsz, int xperm)
{
  if (newsz < oldsz)
    return oldsz;
  if (newsz > MAXUVA)
    return 0;
  uintptr a = PGROUNDUP(oldsz);
  if (a < USERBASE)
    a = USERBASE;
  for (; a < newsz; a += PGSIZE) {
    char *mem = kalloc();
    if (mem == 0) {
      uvmdealloc(pt, a, oldsz);
      return 0;
    }
    memset(mem, 0, PGSIZE); /* a process never sees another's old data */
    if (mappages(pt, a, PGSIZE, (uintptr)mem, PTE_R | PTE_U | xperm) != 0) {
      kfree(mem);
      uvmdealloc(pt, a, oldsz);
      return 0;
    }
  }
  return newsz;
}

/* Shrink user memory from oldsz to newsz. */
uintptr uvmdealloc(pagetable_t pt, uintptr oldsz, uintptr newsz)
{
  if (newsz >= oldsz)
    return oldsz;
  if (PGROUNDUP(newsz) < PGROUNDUP(oldsz)) {
    uint n = (PGROUNDUP(oldsz) - PGROUNDUP(newsz)) / PGSIZE;
    uvmunmap(pt, PGROUNDUP(newsz), n, 1);
  }
  return newsz;
}

/* Free the page-table pages themselves (all leaves already removed). */
static void freewalk(pagetable_t pt)
{
  for (int i = 0; i < 1024; i++) {
    pte_t pte = pt[i];
    if ((pte & PTE_V) == 0)
      continue;
    if (pte & (PTE_R | PTE_W | PTE_X))
      panic("freewalk: leaf");
    pagetable_t child = (pagetable_t)PTE2PA(pte);
    for (int j = 0; j < 1024; j++)
      if (child[j] & PTE_V)
        panic("freewalk: leaf %x", i * 1024 + j);
    kfree(child);
    pt[i] = 0;
  }
  kfree(pt);
}

void uvmfree(pagetable_t pt, uintptr sz)
{
  if (sz > USERBASE)
    uvmunmap(pt, USERBASE, (PGROUNDUP(sz) - USERBASE) / PGSIZE, 1);
  freewalk(pt);
}

/* Copy the user memory of a parent into a child (fork): every page is
 * duplicated (no copy-on-write), with the same permissions.  On failure
 * the child's pages mapped so far are freed and -1 returned. */
int uvmcopy(pagetable_t old, pagetable_t new, uintptr sz)
{
  uintptr va;
  for (va = USERBASE; va < sz; va += PGSIZE) {
    pte_t *pte = walk(old, va, 0);
    if (pte == 0 || (*pte & PTE_V) == 0)
      continue; /* e.g. a page given back with sbrk(-n) below sz */
    char *mem = kalloc();
    if (mem == 0)
      goto err;
    memmove(mem, (char *)PTE2PA(*pte), PGSIZE);
    if (mappages(new, va, PGSIZE, (uintptr)mem, PTE_FLAGS(*pte) & (PTE_R | PTE_W | PTE_X | PTE_U)) != 0) {
      kfree(mem);
      goto err;
    }
  }
  return 0;
err:
  uvmunmap(new, USERBASE, (va - USERBASE) / PGSIZE, 1);
  return -1;
}

/* Make a page inaccessible to user mode (the stack guard page).  It stays
 * mapped, but user accesses fault and copyin/copyout refuse it, so a
 * stack overflow cannot run into the data below. */
void uvmclear(pagetable_t pt, uintptr va)
{
  pte_t *pte = walk(pt, va, 0);
  if (pte == 0)
    panic("uvmclear");
  *pte &= ~PTE_U;
}

/* Copy len bytes from kernel src to user dstva.  The destination must be
 * mapped, user-accessible and writable; no wrap-around past 4 GiB.
 *
 * The user's pointer is never dereferenced: each page is looked up in the
 * user page table and written through its physical address (mapped 1:1
 * in the kernel).  So a bad address makes this return -1 instead of
 * faulting in the kernel, and these copies are safe with spinlocks held.
 * The checks are per page, as permissions are, and the range check up
 * front keeps dstva + len from wrapping or reaching the trapframe. */
int copyout(pagetable_t pt, uintptr dstva, const void *src, uint len)
{
  const char *s = src;
  if (dstva + len < dstva || dstva + len > MAXUVA)
    return -1;
  while (len > 0) {
    uintptr va0 = PGROUNDDOWN(dstva);
    pte_t *pte = walk(pt, va0, 0);
    /* PTE_W as well: a user must not get the kernel to write its
     * read-only text for it */
    if (pte == 0 || (*pte & (PTE_V | PTE_U | PTE_W)) != (PTE_V | PTE_U | PTE_W))
      return -1;
    uintptr pa0 = PTE2PA(*pte);
    uint n = PGSIZE - (dstva - va0);
    if (n > len)
      n = len;
    memmove((void *)(pa0 + (dstva - va0)), s, n);
    len -= n;
    s += n;
    dstva = va0 + PGSIZE;
  }
  return 0;
}

/* Copy len bytes from user srcva to kernel dst; the same checks as
 * copyout, except that any user page may be read (walkaddr()). */
int copyin(pagetable_t pt, void *dst, uintptr srcva, uint len)
{
  char *d = dst;
  if (srcva + len < srcva || srcva + len > MAXUVA)
    return -1;
  while (len > 0) {
    uintptr va0 = PGROUNDDOWN(srcva);
    uintptr pa0 = walkaddr(pt, va0);
    if (pa0 == 0)
      return -1;
    uint n = PGSIZE - (srcva - va0);
    if (n > len)
      n = len;
    memmove(d, (void *)(pa0 + (srcva - va0)), n);
    len -= n;
    d += n;
    srcva = va0 + PGSIZE;
  }
  return 0;
}

/* Copy a NUL-terminated string of at most max bytes from user space.
 * Returns 0 when the NUL was copied, -1 if the string is longer than max
 * or runs into an unmapped or non-user page. */
int copyinstr(pagetable_t pt, char *dst, uintptr srcva, uint max)
{
  while (max > 0) {
    uintptr va0 = PGROUNDDOWN(srcva);
    uintptr pa0 = walkaddr(pt, va0);
    if (pa0 == 0)
      return -1;
    uint n = PGSIZE - (srcva - va0);
    if (n > max)
      n = max;
    const char *p = (const char *)(pa0 + (srcva - va0));
    for (; n > 0; n--, max--) {
      if ((*dst++ = *p++) == 0)
        return 0;
    }
    srcva = va0 + PGSIZE;
    if (srcva == 0)
      return -1; /* wrapped around the top of the address space */
  }
  return -1;
}

/* Physical address of the user page holding va if the user has access
 * perm to it (PTE_R or PTE_W, besides PTE_V and PTE_U), else 0. */
static uintptr uvmpa(pagetable_t pt, uintptr va, int perm)
{
  if (va >= MAXUVA)
    return 0;
  pte_t *pte = walk(pt, va, 0);
  int want = PTE_V | PTE_U | perm;
  if (pte == 0 || (*pte & want) != want)
    return 0;
  return PTE2PA(*pte);
}

/* Has the user access perm to all of [va, va+len)? 0 if so (always for
 * len 0), -1 if a page lacks it or the range wraps or reaches MAXUVA. */
static int uvmaccess(pagetable_t pt, uintptr va, uint len, int perm)
{
  if (len == 0)
    return 0;
  if (va + len < va || va + len > MAXUVA)
    return -1;
  for (uintptr a = PGROUNDDOWN(va); a < va + len && a >= PGROUNDDOWN(va); a += PGSIZE)
    if (uvmpa(pt, a, perm) == 0)
      return -1;
  return 0;
}

/* Is [va, va+len) memory the user may read? For a device that reads user
 * memory in place (the hash engines' DMA), where copyin's checks are not
 * made. */
int uvmreadable(pagetable_t pt, uintptr va, uint len)
{
  return uvmaccess(pt, va, len, PTE_R);
}

/* Is [va, va+len) memory the user may write? Checked before work that a
 * failed copyout would throw away (a hash stream's final read). */
int uvmwritable(pagetable_t pt, uintptr va, uint len)
{
  return uvmaccess(pt, va, len, PTE_W);
}

/* The kernel address of [va, va+len) if it lies within one user page the
 * user has access perm to (PTE_R or PTE_W), else 0 (also for len 0). One
 * walk: hash()'s short path (khash.c) reads a short message and writes its
 * digest through it, where the general path walks each range twice (check,
 * then use) and copies the digest out. */
char *uvmpage(pagetable_t pt, uintptr va, uint len, int perm)
{
  if (len == 0 || va + len < va || PGROUNDDOWN(va) != PGROUNDDOWN(va + len - 1))
    return 0;
  uintptr pa = uvmpa(pt, va, perm);
  return pa ? (char *)(pa + va % PGSIZE) : 0;
}

/* The physically contiguous runs of user memory that start at va, below
 * end and at most max bytes in all, for a device that reads them in place
 * (the hash engines' scatter-gather DMA): at most nrun of them in run[],
 * in the driver's own piece type, so they go to it as they are (kernel
 * address = physical: RAM is mapped 1:1). Returns how many, or -1 on a
 * page the user may not read. Pages that happen to be adjacent in RAM make
 * one run. One page-table walk per 4 MiB: the leaf PTEs of consecutive
 * pages are consecutive, so the next page's is pte + 1.
 * It runs while an engine's DMA streams the previous chunk from RAM, when
 * each store waits for the memory (~300 clocks on the ULX3S twin): so
 * it stores each run once, and nothing else. */
int uvmruns(pagetable_t pt, uintptr va, uintptr end, uint max, struct hash_seg *run, int nrun)
{
  const int want = PTE_V | PTE_U | PTE_R;
  pte_t *pte = 0;
  int k = 0;         /* runs stored */
  uintptr start = 0; /* the open run, in registers: [start, start + len) */
  uint len = 0;
  for (uint total = 0; va < end && total < max;) {
    if (va >= MAXUVA)
      return -1;
    pte = (pte == 0 || PX(0, va) == 0) ? walk(pt, va, 0) : pte + 1;
    if (pte == 0 || (*pte & want) != want)
      return -1;
    uintptr pa = PTE2PA(*pte) + va % PGSIZE;
    uint m = PGSIZE - va % PGSIZE;
    if (m > end - va)
      m = end - va;
    if (m > max - total)
      m = max - total;
    if (len && start + len == pa) {
      len += m;
    } else {
      if (len) {
        if (k + 1 == nrun)
          break;
        run[k].data = (void *)start;
        run[k].len = len;
        k++;
      }
      start = pa;
      len = m;
    }
    va += m;
    total += m;
  }
  if (len) {
    run[k].data = (void *)start;
    run[k].len = len;
    k++;
  }
  return k;
}
