/* SPDX-License-Identifier: MIT */
/* Pipes: a PIPESIZE-byte ring buffer between a read end and a write end,
 * each a struct file (FD_PIPE).
 *
 * pi->lock protects every field, and is the condition lock of both
 * sleeps: a reader waits on &pi->nread for data or for the writer to
 * close; a writer waits on &pi->nwrite for room or for the reader to
 * close.  Each side wakes the other's channel after it has made progress.
 * killed() takes p->lock under pi->lock, which keeps to the lock order
 * (a condition lock before p->lock). */
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

/* nread and nwrite count all bytes ever read and written; they are not
 * reduced modulo PIPESIZE, so the pipe is empty when they are equal and
 * full when nwrite == nread + PIPESIZE, and byte i lives at
 * data[i % PIPESIZE].  Unsigned wrap-around keeps this right, since
 * PIPESIZE divides 2^32. */
struct pipe {
  struct spinlock lock;
  char data[PIPESIZE];
  uint nread;    /* bytes read */
  uint nwrite;   /* bytes written */
  int readopen;  /* the read end is still open */
  int writeopen; /* the write end is still open */
};

/* A new pipe: *f0 is its read end, *f1 its write end.  The struct pipe
 * takes a whole page from kalloc(). */
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

/* Close one end (from fileclose(), on the last reference to that end),
 * waking whoever waits on the other end so that it sees the close: a
 * reader then gets end of file, a writer an error.  The pipe is freed
 * when both ends are closed. */
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

/* Write n bytes from the user address addr, sleeping while the pipe is
 * full; returns the bytes written (n unless the copy failed part way),
 * or -1.  copyin() under pi->lock is allowed: it neither sleeps nor
 * faults (vm.c). */
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
      /* full: let the reader drain it, and wait for room */
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

/* Read up to n bytes into the user address addr.  Sleeps only while the
 * pipe is empty and the write end open; returns what is there (0 at end
 * of file), or -1. */
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
  wakeup(&pi->nwrite); /* there is room now */
  release(&pi->lock);
  return i;
}
