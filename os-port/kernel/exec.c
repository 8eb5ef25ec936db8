/* SPDX-License-Identifier: MIT */
/* exec: replace the user image with an ELF32 program from the file system.
 * User layout: [USERBASE: segments][guard page][stack (USERSTACK pages)]
 * then the heap grows upward from p->sz. */
#include "types.h"
#include "param.h"
#include "memlayout.h"
#include "riscv.h"
#include "spinlock.h"
#include "proc.h"
#include "defs.h"
#include "elf.h"
#include "integrity.h"

static int flags2perm(uint32 flags)
{
  int perm = 0;
  if (flags & ELF_PROG_FLAG_EXEC)
    perm |= PTE_X;
  if (flags & ELF_PROG_FLAG_WRITE)
    perm |= PTE_W;
  return perm;
}

/* load sz bytes at file offset off into pt at va (page aligned, mapped) */
static int loadseg(pagetable_t pt, uintptr va, struct inode *ip, uint off, uint sz)
{
  for (uint i = 0; i < sz; i += PGSIZE) {
    uintptr pa = walkaddr(pt, va + i);
    if (pa == 0)
      panic("loadseg: address should exist");
    uint n = sz - i < PGSIZE ? sz - i : PGSIZE;
    if (readi(ip, 0, pa, off + i, n) != (int)n)
      return -1;
  }
  return 0;
}

int exec(char *path, char **argv)
{
  char *s, *last;
  int i;
  uintptr argc, sz = 0, sp, ustack[MAXARG + 1], stackbase;
  struct elfhdr elf;
  struct inode *ip;
  struct proghdr ph;
  pagetable_t pagetable = 0, oldpagetable;
  struct proc *p = myproc();

  begin_op();
  if ((ip = namei(path)) == 0) {
    end_op();
    return -1;
  }
  ilock(ip);
  /* the manifest's verdict (integrity.c); ip stays locked until the
   * segments are loaded, and its blocks are its own (fs.c's block
   * ownership), so no write can come between: what runs is what was
   * hashed */
  if (integrity_exec(ip, path) < 0)
    goto bad;
  if (readi(ip, 0, (uintptr)&elf, 0, sizeof(elf)) != sizeof(elf))
    goto bad;
  if (elf.magic != ELF_MAGIC || elf.elf[0] != 1 /* ELFCLASS32 */ || elf.machine != 243 /* RISC-V */)
    goto bad;
  if ((pagetable = proc_pagetable(p)) == 0)
    goto bad;

  for (i = 0; i < elf.phnum; i++) {
    uint off = elf.phoff + i * sizeof(ph);
    if (readi(ip, 0, (uintptr)&ph, off, sizeof(ph)) != sizeof(ph))
      goto bad;
    if (ph.type != ELF_PROG_LOAD || ph.memsz == 0)
      continue; /* the linker may emit an empty data segment */
    if (ph.memsz < ph.filesz)
      goto bad;
    if (ph.vaddr + ph.memsz < ph.vaddr || ph.vaddr < USERBASE || ph.vaddr + ph.memsz > MAXUVA)
      goto bad;
    if (ph.vaddr % PGSIZE != 0 || ph.vaddr < PGROUNDUP(sz))
      goto bad;
    uintptr sz1 = uvmalloc(pagetable, sz, ph.vaddr + ph.memsz, flags2perm(ph.flags));
    if (sz1 == 0)
      goto bad;
    sz = sz1;
    if (loadseg(pagetable, ph.vaddr, ip, ph.off, ph.filesz) < 0)
      goto bad;
  }
  iunlockput(ip);
  end_op();
  ip = 0;

  p = myproc();
  uintptr oldsz = p->sz;

  /* a guard page (not user-accessible) and the user stack */
  sz = PGROUNDUP(sz);
  uintptr sz1 = uvmalloc(pagetable, sz, sz + (USERSTACK + 1) * PGSIZE, PTE_W);
  if (sz1 == 0)
    goto bad;
  sz = sz1;
  uvmclear(pagetable, sz - (USERSTACK + 1) * PGSIZE);
  sp = sz;
  stackbase = sp - USERSTACK * PGSIZE;

  /* argument strings, then the argv[] array */
  for (argc = 0; argv[argc]; argc++) {
    if (argc >= MAXARG)
      goto bad;
    sp -= strlen(argv[argc]) + 1;
    sp -= sp % 16; /* the RISC-V ABI keeps sp 16-byte aligned */
    if (sp < stackbase)
      goto bad;
    if (copyout(pagetable, sp, argv[argc], strlen(argv[argc]) + 1) < 0)
      goto bad;
    ustack[argc] = sp;
  }
  ustack[argc] = 0;
  sp -= (argc + 1) * sizeof(uintptr);
  sp -= sp % 16;
  if (sp < stackbase)
    goto bad;
  if (copyout(pagetable, sp, ustack, (argc + 1) * sizeof(uintptr)) < 0)
    goto bad;

  /* main(argc, argv): argc is returned in a0 by the syscall path */
  p->trapframe->a1 = sp;

  for (last = s = path; *s; s++)
    if (*s == '/')
      last = s + 1;
  safestrcpy(p->name, last, sizeof(p->name));

  oldpagetable = p->pagetable;
  p->pagetable = pagetable;
  p->sz = sz;
  p->trapframe->epc = elf.entry;
  p->trapframe->sp = sp;
  proc_freepagetable(oldpagetable, oldsz);
  fence_i(); /* instruction fetches must see the code just loaded */
  return argc;

bad:
  if (pagetable)
    proc_freepagetable(pagetable, sz);
  if (ip) {
    iunlockput(ip);
    end_op();
  }
  return -1;
}
