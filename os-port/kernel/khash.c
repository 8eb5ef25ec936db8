/*
 * Hashing as a kernel service (docs/hash-syscall.md):
 *  - the platform half of firmware/driver/hash.c (hash_plat_* for the xv6
 *    kernel, see kernel/hash_plat.h) and the engines' interrupt handler;
 *  - hash(alg, provider, buf, len, out, outlen): one-shot digest of a user
 *    buffer, read in place (no copy): the page table is walked page by page,
 *    each physically contiguous run of user pages goes to the driver (and the
 *    engine's DMA reads it directly);
 *  - hashopen(alg, provider): a hash context as a file descriptor (write =
 *    update, first read = final, close before final = abort);
 *  - khashbench(alg, provider, count, size, &elapsed): hashing in kernel space,
 *    timed by the kernel.
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
#include "hash_plat.h"

/* ---- the driver's platform shim ---- */

static struct sleeplock englock[HASH_ENGINE_COUNT];
static struct spinlock hirqlock; /* flag test + sleep vs. hash_isr + wakeup */
static char irqchan[HASH_ENGINE_COUNT];
static int irqwaiters;
uint khash_nintr[HASH_ENGINE_COUNT], khash_nirqtimeout;

/* a lost interrupt costs at most this long, then the driver polls */
#define HASH_IRQ_TIMEOUT_TICKS (2 * TICK_HZ + 2)

/* At boot (no process yet: BOOT_HASHBENCH) there is one thread and no lock. */
void hash_plat_lock(int engine)
{
  if (myproc())
    acquiresleep(&englock[engine]);
}

void hash_plat_unlock(int engine)
{
  if (myproc())
    releasesleep(&englock[engine]);
}

void hash_plat_irq_wait(int engine, volatile int *flag)
{
  if (myproc() == 0) {
    for (uint32 n = 0; !*flag && n < HASH_PLAT_SPIN_LIMIT; n++)
      ;
    return;
  }
  acquire(&hirqlock);
  uint t0 = *(volatile uint *)&ticks;
  irqwaiters++;
  while (!*flag) {
    if (*(volatile uint *)&ticks - t0 >= HASH_IRQ_TIMEOUT_TICKS) {
      khash_nirqtimeout++;
      break;
    }
    sleep(&irqchan[engine], &hirqlock);
  }
  irqwaiters--;
  release(&hirqlock);
}

/* From devintr (trap.c): the engine's interrupt line was claimed. */
void khash_intr(int engine)
{
  acquire(&hirqlock);
  hash_isr(engine);
  khash_nintr[engine]++;
  wakeup(&irqchan[engine]);
  release(&hirqlock);
}

/* From the timer interrupt: lets a waiter notice its time-out. */
void khash_tick(void)
{
  if (irqwaiters == 0)
    return;
  acquire(&hirqlock);
  for (int i = 0; i < HASH_ENGINE_COUNT; i++)
    wakeup(&irqchan[i]);
  release(&hirqlock);
}

void khashinit(void)
{
  initsleeplock(&englock[HASH_ENGINE_SHA256], "sha256");
  initsleeplock(&englock[HASH_ENGINE_KECCAK], "keccak");
  initlock(&hirqlock, "hashirq");
}

/* ---- policy ---- */

/* HASH_PROV_AUTO picks the engine from this message size on (bytes),
 * measured with hashbench on litex_sim (docs/hash-syscall.md) */
#ifndef KHASH_AUTO_THRESHOLD
#define KHASH_AUTO_THRESHOLD 1 /* litex_sim: syscall+hw beats syscall+sw from 1 byte on */
#endif
/* Hardware requests arm the engine's interrupt; the driver polls a short while first
 * (HASH_PLAT_POLLS_BEFORE_SLEEP in hash_plat.h) and sleeps only on long waits. */

static int engine_present(int alg)
{
  return (hash_probe() >> hash_alg_engine(alg)) & 1;
}

static int pick_provider(int alg, int provider, uint len)
{
  if (provider == HASH_PROV_AUTO)
    return (len >= KHASH_AUTO_THRESHOLD && engine_present(alg)) ? HASH_PROV_HW : HASH_PROV_SW;
  return provider;
}

static int hw_flags(uint len)
{
  (void)len;
  return HASH_F_IRQ;
}

/* ---- user buffers, in place ---- */

/* Physical address of the user page holding va if it is readable by the
 * user (PTE_U and PTE_R), else 0. */
static uintptr upage(pagetable_t pt, uintptr va)
{
  if (va >= MAXUVA)
    return 0;
  pte_t *pte = walk(pt, va, 0);
  if (pte == 0 || (*pte & (PTE_V | PTE_U | PTE_R)) != (PTE_V | PTE_U | PTE_R))
    return 0;
  return PTE2PA(*pte);
}

/* Is [va, va+len) user-readable memory? (len 0: always; no wrap, below MAXUVA) */
static int ucheck(pagetable_t pt, uintptr va, uint len)
{
  if (len == 0)
    return 0;
  if (va + len < va || va + len > MAXUVA)
    return -1;
  for (uintptr a = PGROUNDDOWN(va); a < va + len && a >= PGROUNDDOWN(va); a += PGSIZE)
    if (upage(pt, a) == 0)
      return -1;
  return 0;
}

/* Next physically contiguous run of [*va, end): at most maxrun bytes.
 * Returns the kernel (= physical) address and sets *n; 0 on a bad page. */
static char *urun(pagetable_t pt, uintptr va, uintptr end, uint maxrun, uint *n)
{
  uintptr pa = upage(pt, va);
  if (pa == 0)
    return 0;
  pa += va % PGSIZE;
  uint len = PGSIZE - va % PGSIZE;
  if (len > end - va)
    len = end - va;
  while (len < maxrun && va + len < end) {
    uintptr npa = upage(pt, va + len);
    if (npa != pa + len)
      break;
    uint more = end - (va + len) < PGSIZE ? end - (va + len) : PGSIZE;
    len += more;
  }
  if (len > maxrun)
    len = maxrun;
  *n = len;
  return (char *)pa;
}

/* hash_update over a (checked) user range, one contiguous run at a time */
static int update_user(struct hash_ctx *c, pagetable_t pt, uintptr va, uint len, uint maxrun)
{
  uintptr end = va + len;
  while (va < end) {
    uint n;
    char *p = urun(pt, va, end, maxrun, &n);
    if (p == 0)
      return -1;
    if (hash_update(c, p, n) < 0)
      return -1;
    va += n;
  }
  return 0;
}

/* ---- hash() ---- */

int khash_user(int alg, int provider, uintptr buf, uint len, uintptr out, uint outlen)
{
  struct proc *p = myproc();
  uint8_t d[HASH_MAX_DIGEST];
  uint8_t *o = d;
  int r = -1;

  if (hash_alg_name(alg) == 0 || provider < 0 || provider > HASH_PROV_AUTO)
    return -1;
  int dl = hash_alg_digest_len(alg);
  if (dl ? outlen < (uint)dl : outlen > KHASH_MAX_XOF)
    return -1;
  if (dl)
    outlen = dl;
  if (ucheck(p->pagetable, buf, len) < 0)
    return -1;
  if (outlen > sizeof d && (o = kalloc()) == 0)
    return -1;
  int prov = pick_provider(alg, provider, len);
  int flags = prov == HASH_PROV_HW ? hw_flags(len) : 0;
  uint n = 0;
  char *pa = len ? urun(p->pagetable, buf, buf + len, len, &n) : 0;
  if (len && pa == 0)
    goto done;
  if (n == len) {
    /* one physically contiguous run (or empty): one driver call, one DMA command */
    r = hash_digest(alg, prov, flags, pa, len, o, outlen);
  } else {
    struct hash_ctx c;
    if ((r = hash_begin(&c, alg, prov, flags)) >= 0) {
      if (update_user(&c, p->pagetable, buf, len, len) < 0) {
        hash_abort(&c);
        r = -1;
      } else {
        r = hash_final(&c, o, outlen);
        hash_abort(&c); /* no-op unless final failed and left it open */
      }
    }
  }
  if (r >= 0 && copyout(p->pagetable, out, o, outlen) < 0)
    r = -1;
done:
  if (o != d)
    kfree(o);
  return r < 0 ? -1 : r;
}

/* ---- streams ---- */

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
    prov = engine_present(alg) ? HASH_PROV_HW : HASH_PROV_SW;
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

/* write = update; long writes go to the driver one page at a time, so the
 * engine lock is never held for more than a page's worth of DMA */
int khash_write(struct file *f, uintptr addr, int n)
{
  struct khstream *s = f->hs;
  struct proc *p = myproc();
  if (n < 0 || ucheck(p->pagetable, addr, n) < 0)
    return -1;
  acquiresleep(&s->lk);
  int r = s->done ? -1 : update_user(&s->ctx, p->pagetable, addr, n, PGSIZE);
  releasesleep(&s->lk);
  return r < 0 ? -1 : n;
}

/* first read = final (n >= digest length; SHAKE: n bytes, at most
 * KHASH_MAX_XOF), then end of file */
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

/* ---- kernel-space benchmark ---- */

static char benchbuf[KHASH_BENCH_MAX] __attribute__((aligned(64)));

/* count hashes of size bytes ("hellohello..."), timed in the kernel */
int khash_bench(int alg, int provider, int count, int size, uint64 *elapsed)
{
  uint8_t d[HASH_MAX_DIGEST];
  if (hash_alg_name(alg) == 0 || provider < 0 || provider > HASH_PROV_AUTO || count < 0 || size < 0 ||
      size > KHASH_BENCH_MAX)
    return -1;
  if (benchbuf[0] != 'h')
    for (int i = 0; i < KHASH_BENCH_MAX; i++)
      benchbuf[i] = "hello"[i % 5];
  int prov = pick_provider(alg, provider, size);
  int flags = prov == HASH_PROV_HW ? hw_flags(size) : 0;
  int outlen = hash_alg_digest_len(alg) ? hash_alg_digest_len(alg) : 32;
  uint64 t0 = r_time64();
  for (int i = 0; i < count; i++)
    if (hash_digest(alg, prov, flags, benchbuf, size, d, outlen) < 0)
      return -1;
  *elapsed = r_time64() - t0;
  return 0;
}

/* BOOT_HASHBENCH=1: seed 000's Listing 9, 1000 x SHA-256("hello") at boot */
void khash_bootbench(void)
{
#ifdef BOOT_HASHBENCH
  uint64 t;
  if (khash_bench(HASH_SHA256, HASH_PROV_SW, BOOT_HASHBENCH_COUNT, 5, &t) == 0)
    printf("Time in kernel space(startup): %llu (%d x SHA-256 'hello', software)\n", t, BOOT_HASHBENCH_COUNT);
  if (engine_present(HASH_SHA256) && khash_bench(HASH_SHA256, HASH_PROV_HW, BOOT_HASHBENCH_COUNT, 5, &t) == 0)
    printf("Time in kernel space(startup): %llu (%d x SHA-256 'hello', hardware)\n", t, BOOT_HASHBENCH_COUNT);
#endif
}

/* ---- system calls ---- */

uint32 sys_hash(void)
{
  int alg, prov, len, outlen;
  uintptr buf, out;
  argint(0, &alg);
  argint(1, &prov);
  argaddr(2, &buf);
  argint(3, &len);
  argaddr(4, &out);
  argint(5, &outlen);
  return khash_user(alg, prov, buf, (uint)len, out, (uint)outlen);
}

uint32 sys_khashbench(void)
{
  int alg, prov, count, size;
  uintptr out;
  uint64 t;
  argint(0, &alg);
  argint(1, &prov);
  argint(2, &count);
  argint(3, &size);
  argaddr(4, &out);
  if (khash_bench(alg, prov, count, size, &t) < 0)
    return -1;
  if (copyout(myproc()->pagetable, out, &t, sizeof t) < 0)
    return -1;
  return 0;
}
