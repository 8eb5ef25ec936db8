#include "types.h"
#include "riscv.h"
#include "defs.h"
#include "param.h"
#include "spinlock.h"
#include "proc.h"
#include "fs.h"
#include "sleeplock.h"
#include "file.h"

#define PIPESIZE 512

struct pipe {
  struct spinlock lock;
  char data[PIPESIZE];
  uint nread;
  uint nwrite;
  int readopen;
  int writeopen;
};

int pipealloc(struct file **f0, struct file **f1)
{
  struct pipe *pi = 0;
  *f0 = *f1 = 0;
  if ((*f0 = filealloc()) == 0 || (*f1 = filealloc()) == 0)
    goto bad;
  if ((pi = (struct pipe *)kalloc()) == 0)
    goto bad;
  pi->readopen = 1;
  pi->writeopen = 1;
  pi->nwrite = 0;
  pi->nread = 0;
  initlock(&pi->lock, "pipe");
  (*f0)->type = FD_PIPE;
  (*f0)->readable = 1;
  (*f0)->writable = 0;
  (*f0)->pipe = pi;
  (*f1)->type = FD_PIPE;
  (*f1)->readable = 0;
  (*f1)->writable = 1;
  (*f1)->pipe = pi;
  return 0;
bad:
  if (*f0)
    fileclose(*f0);
  if (*f1)
    fileclose(*f1);
  return -1;
}

void pipeclose(struct pipe *pi, int writable)
{
  acquire(&pi->lock);
  if (writable) {
    pi->writeopen = 0;
    wakeup(&pi->nread);
  } else {
    pi->readopen = 0;
    wakeup(&pi->nwrite);
  }
  if (pi->readopen == 0 && pi->writeopen == 0) {
    release(&pi->lock);
    kfree(pi);
  } else {
    release(&pi->lock);
  }
}

int pipewrite(struct pipe *pi, uintptr addr, int n)
{
  int i = 0;
  struct proc *pr = myproc();
  acquire(&pi->lock);
  while (i < n) {
    if (pi->readopen == 0 || killed(pr)) {
      release(&pi->lock);
      return -1;
    }
    if (pi->nwrite == pi->nread + PIPESIZE) {
      wakeup(&pi->nread);
      sleep(&pi->nwrite, &pi->lock);
    } else {
      /* copy as much as fits contiguously in the ring */
      uint room = pi->nread + PIPESIZE - pi->nwrite;
      uint pos = pi->nwrite % PIPESIZE;
      uint chunk = PIPESIZE - pos;
      if (chunk > room)
        chunk = room;
      if (chunk > (uint)(n - i))
        chunk = n - i;
      if (copyin(pr->pagetable, &pi->data[pos], addr + i, chunk) == -1) {
        if (i == 0)
          i = -1;
        break;
      }
      pi->nwrite += chunk;
      i += chunk;
    }
  }
  wakeup(&pi->nread);
  release(&pi->lock);
  return i;
}

int piperead(struct pipe *pi, uintptr addr, int n)
{
  struct proc *pr = myproc();
  acquire(&pi->lock);
  while (pi->nread == pi->nwrite && pi->writeopen) {
    if (killed(pr)) {
      release(&pi->lock);
      return -1;
    }
    sleep(&pi->nread, &pi->lock);
  }
  int i = 0;
  while (i < n && pi->nread != pi->nwrite) {
    uint pos = pi->nread % PIPESIZE;
    uint chunk = PIPESIZE - pos;
    uint avail = pi->nwrite - pi->nread;
    if (chunk > avail)
      chunk = avail;
    if (chunk > (uint)(n - i))
      chunk = n - i;
    if (copyout(pr->pagetable, addr + i, &pi->data[pos], chunk) == -1) {
      if (i == 0)
        i = -1;
      break;
    }
    pi->nread += chunk;
    i += chunk;
  }
  wakeup(&pi->nwrite);
  release(&pi->lock);
  return i;
}
