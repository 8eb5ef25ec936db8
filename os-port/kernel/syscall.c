/* SPDX-License-Identifier: MIT */
/* System call dispatch and argument fetching.  Arguments are in the saved
 * user registers a0..a5, the number in a7, the result goes to a0. */
#include "types.h"
#include "param.h"
#include "memlayout.h"
#include "riscv.h"
#include "spinlock.h"
#include "proc.h"
#include "syscall.h"
#include "defs.h"

/* fetch the word at user address addr */
int fetchaddr(uintptr addr, uintptr *ip)
{
  struct proc *p = myproc();
  if (addr >= p->sz || addr + sizeof(uintptr) > p->sz || addr + sizeof(uintptr) < addr)
    return -1;
  if (copyin(p->pagetable, ip, addr, sizeof(*ip)) != 0)
    return -1;
  return 0;
}

/* fetch a NUL-terminated string; returns its length or -1 */
int fetchstr(uintptr addr, char *buf, int max)
{
  struct proc *p = myproc();
  if (copyinstr(p->pagetable, buf, addr, max) < 0)
    return -1;
  return strlen(buf);
}

static uint32 argraw(int n)
{
  struct trapframe *tf = myproc()->trapframe;
  switch (n) {
  case 0:
    return tf->a0;
  case 1:
    return tf->a1;
  case 2:
    return tf->a2;
  case 3:
    return tf->a3;
  case 4:
    return tf->a4;
  case 5:
    return tf->a5;
  case 6:
    return tf->a6; /* hmac() has seven arguments */
  }
  panic("argraw");
  return -1;
}

void argint(int n, int *ip)
{
  *ip = argraw(n);
}

/* a user pointer: checked later by copyin/copyout */
void argaddr(int n, uintptr *ip)
{
  *ip = argraw(n);
}

int argstr(int n, char *buf, int max)
{
  uintptr addr;
  argaddr(n, &addr);
  return fetchstr(addr, buf, max);
}

#include "syscalltab.h"

void syscall(void)
{
  struct proc *p = myproc();
  uint32 num = p->trapframe->a7;
  if (num > 0 && num < NELEM(syscalls) && syscalls[num]) {
    p->trapframe->a0 = syscalls[num]();
  } else {
    printf("%d %s: unknown sys call %d\n", p->pid, p->name, num);
    p->trapframe->a0 = -1;
  }
  (void)syscallnames;
}
