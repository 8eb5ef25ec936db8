/* SPDX-License-Identifier: MIT */
#include "types.h"
#include "riscv.h"
#include "param.h"
#include "memlayout.h"
#include "spinlock.h"
#include "proc.h"
#include "defs.h"

uint32 sys_exit(void)
{
  int n;
  argint(0, &n);
  exit(n);
  return 0; /* not reached */
}

uint32 sys_getpid(void)
{
  return myproc()->pid;
}

uint32 sys_fork(void)
{
  return fork();
}

uint32 sys_wait(void)
{
  uintptr p;
  argaddr(0, &p);
  return wait(p);
}

uint32 sys_sbrk(void)
{
  int n;
  argint(0, &n);
  uintptr addr = myproc()->sz;
  if (growproc(n) < 0)
    return -1;
  return addr;
}

uint32 sys_sleep(void)
{
  int n;
  argint(0, &n);
  if (n < 0)
    n = 0;
  acquire(&tickslock);
  uint ticks0 = ticks;
  while (ticks - ticks0 < (uint)n) {
    if (killed(myproc())) {
      release(&tickslock);
      return -1;
    }
    sleep(&ticks, &tickslock);
  }
  release(&tickslock);
  return 0;
}

uint32 sys_kill(void)
{
  int pid;
  argint(0, &pid);
  return kill(pid);
}

/* clock ticks since boot */
uint32 sys_uptime(void)
{
  acquire(&tickslock);
  uint t = ticks;
  release(&tickslock);
  return t;
}
