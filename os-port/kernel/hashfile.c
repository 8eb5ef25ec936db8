/* SPDX-License-Identifier: MIT */
/*
 * A hash context as a file (hashopen(alg, provider), docs/hash-syscall.md):
 * write = update, the first read = final, then end of file; closing the last
 * reference before the final read drops the message (and frees the engine).
 * Like pipe.c, a file type of its own (FD_HASH); file.c dispatches to it.
 *
 * Each stream has a sleep lock: two processes sharing the descriptor (after
 * fork or dup) take turns, and the lock is held across the driver's waits.
 * Lock order: the stream's lock, then the engine's (in the driver).
 */
#include "types.h"
#include "param.h"
#include "memlayout.h"
#include "riscv.h"
#include "spinlock.h"
#include "sleeplock.h"
#include "proc.h"
#include "fs.h"
#include "file.h"
#include "defs.h"
#include "khash.h"
#include "hashsoc/hash.h"

struct khstream {
  struct sleeplock lk;
  int done; /* final has been read */
  struct hash_ctx ctx;
};

int khash_open(int alg, int provider, struct file *f)
{
  if (hash_alg_name(alg) == 0 || provider < 0 || provider > HASH_PROV_AUTO)
    return -1;
  int prov = provider;
  if (provider == HASH_PROV_AUTO) /* streams are long: the engine when there is one */
    prov = khash_engine_present(alg) ? HASH_PROV_HW : HASH_PROV_SW;
  struct khstream *s = kalloc();
  if (s == 0)
    return -1;
  initsleeplock(&s->lk, "hashfd");
  s->done = 0;
  if (hash_begin(&s->ctx, alg, prov, prov == HASH_PROV_HW ? HASH_F_IRQ : 0) < 0) {
    kfree(s);
    return -1;
  }
  f->type = FD_HASH;
  f->hs = s;
  f->readable = 1;
  f->writable = 1;
  return 0;
}

/* write = update; long writes go to the driver KHASH_CHUNK at a time, so
 * the engine lock is never held for more than a chunk's worth of DMA */
int khash_write(struct file *f, uintptr addr, int n)
{
  struct khstream *s = f->hs;
  struct proc *p = myproc();
  if (n < 0 || uvmreadable(p->pagetable, addr, n) < 0)
    return -1;
  acquiresleep(&s->lk);
  int r = s->done ? -1 : khash_update_user(&s->ctx, p->pagetable, addr, n, KHASH_CHUNK);
  releasesleep(&s->lk);
  return r < 0 ? -1 : n;
}

/* first read = final (n >= digest length; SHAKE: n bytes, at most
 * KHASH_MAX_XOF), then end of file. Bad input loses nothing: a read that
 * is refused (too short, an output buffer the process cannot write) and a
 * SHAKE read of 0 bytes leave the message open for the next read. */
int khash_read(struct file *f, uintptr addr, int n)
{
  struct khstream *s = f->hs;
  uint8_t d[HASH_MAX_DIGEST], *o = d;
  int r;
  if (n < 0)
    return -1;
  acquiresleep(&s->lk);
  if (s->done) {
    r = 0;
    goto out;
  }
  int dl = s->ctx.digest_len;
  uint want = dl ? dl : (uint)n;
  r = -1;
  if ((dl && n < dl) || want > KHASH_MAX_XOF)
    goto out;
  if (want == 0) { /* SHAKE, 0 bytes: nothing to give yet */
    r = 0;
    goto out;
  }
  /* checked before the final, which consumes the message: with the buffer
   * writable now, the copyout below cannot fail (the process is single-
   * threaded, and it is here, so its pages stay) */
  if (uvmwritable(myproc()->pagetable, addr, want) < 0)
    goto out;
  if (want > sizeof d && (o = kalloc()) == 0)
    goto out;
  if ((r = hash_final(&s->ctx, o, want)) >= 0) {
    s->done = 1;
    if (copyout(myproc()->pagetable, addr, o, want) < 0)
      r = -1;
  } else {
    r = -1;
  }
  if (o != d)
    kfree(o);
out:
  releasesleep(&s->lk);
  return r;
}

/* the last reference is gone: drop an unfinished message (frees the engine) */
void khash_close(struct khstream *s)
{
  hash_abort(&s->ctx);
  kfree(s);
}
