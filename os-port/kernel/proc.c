/* Processes, scheduling, sleep/wakeup, fork/exit/wait/kill. */
#include "types.h"
#include "param.h"
#include "memlayout.h"
#include "riscv.h"
#include "spinlock.h"
#include "proc.h"
#include "sbi.h"
#include "defs.h"

struct cpu cpus[NCPU];
struct proc proc[NPROC];
struct proc *initproc;

static int nextpid = 1;
static struct spinlock pid_lock;
/* protects p->parent and keeps wakeups of parents in wait() from being
 * lost; always taken before any p->lock */
static struct spinlock wait_lock;

extern char trampoline[];
static void freeproc(struct proc *p);
static void forkret(void);

/* one kernel stack per process slot, with an unmapped guard page below */
void proc_mapstacks(pagetable_t kpt)
{
  for (int i = 0; i < NPROC; i++) {
    char *pa = kalloc();
    if (pa == 0)
      panic("proc_mapstacks");
    if (mappages(kpt, KSTACK(i), PGSIZE, (uintptr)pa, PTE_R | PTE_W) != 0)
      panic("proc_mapstacks: map");
  }
}

void procinit(void)
{
  initlock(&pid_lock, "nextpid");
  initlock(&wait_lock, "wait_lock");
  for (int i = 0; i < NPROC; i++) {
    initlock(&proc[i].lock, "proc");
    proc[i].state = UNUSED;
    proc[i].kstack = KSTACK(i);
  }
}

/* interrupts must be off while the answer is used */
int cpuid(void)
{
  return r_tp();
}

struct cpu *mycpu(void)
{
  return &cpus[cpuid()];
}

struct proc *myproc(void)
{
  push_off();
  struct proc *p = mycpu()->proc;
  pop_off();
  return p;
}

static int allocpid(void)
{
  acquire(&pid_lock);
  int pid = nextpid++;
  release(&pid_lock);
  return pid;
}

/* Find an UNUSED slot and prepare it to run in the kernel (forkret).
 * Returns with p->lock held, or 0. */
static struct proc *allocproc(void)
{
  struct proc *p;
  for (p = proc; p < &proc[NPROC]; p++) {
    acquire(&p->lock);
    if (p->state == UNUSED)
      goto found;
    release(&p->lock);
  }
  return 0;
found:
  p->pid = allocpid();
  p->state = USED;
  if ((p->trapframe = (struct trapframe *)kalloc()) == 0 || (p->pagetable = proc_pagetable(p)) == 0) {
    freeproc(p);
    release(&p->lock);
    return 0;
  }
  memset(&p->context, 0, sizeof(p->context));
  p->context.ra = (uintptr)forkret;
  p->context.sp = p->kstack + PGSIZE;
  return p;
}

/* p->lock held */
static void freeproc(struct proc *p)
{
  if (p->trapframe)
    kfree(p->trapframe);
  p->trapframe = 0;
  if (p->pagetable)
    proc_freepagetable(p->pagetable, p->sz);
  p->pagetable = 0;
  p->sz = 0;
  p->pid = 0;
  p->parent = 0;
  p->name[0] = 0;
  p->chan = 0;
  p->killed = 0;
  p->xstate = 0;
  p->state = UNUSED;
}

/* A user page table with only the trampoline and the trapframe. */
pagetable_t proc_pagetable(struct proc *p)
{
  pagetable_t pt = uvmcreate();
  if (pt == 0)
    return 0;
  if (mappages(pt, TRAMPOLINE, PGSIZE, (uintptr)trampoline, PTE_R | PTE_X) < 0) {
    uvmfree(pt, 0);
    return 0;
  }
  if (mappages(pt, TRAPFRAME, PGSIZE, (uintptr)p->trapframe, PTE_R | PTE_W) < 0) {
    uvmunmap(pt, TRAMPOLINE, 1, 0);
    uvmfree(pt, 0);
    return 0;
  }
  return pt;
}

void proc_freepagetable(pagetable_t pt, uintptr sz)
{
  uvmunmap(pt, TRAMPOLINE, 1, 0);
  uvmunmap(pt, TRAPFRAME, 1, 0);
  uvmfree(pt, sz);
}

/* The first process runs /init through a tiny program that calls
 * exec("/init", ...): initcode.S, linked at USERBASE, embedded here. */
extern uchar initcode_start[], initcode_end[];

void userinit(void)
{
  struct proc *p = allocproc();
  initproc = p;
  uint n = initcode_end - initcode_start;
  if (n > PGSIZE)
    panic("initcode too big");
  char *mem = kalloc();
  memset(mem, 0, PGSIZE);
  memmove(mem, initcode_start, n);
  mappages(p->pagetable, USERBASE, PGSIZE, (uintptr)mem, PTE_R | PTE_W | PTE_X | PTE_U);
  p->sz = USERBASE + PGSIZE;
  p->trapframe->epc = USERBASE;
  p->trapframe->sp = USERBASE + PGSIZE;
  safestrcpy(p->name, "initcode", sizeof(p->name));
  p->cwd = namei("/");
  p->state = RUNNABLE;
  release(&p->lock);
}

/* grow or shrink user memory by n bytes */
int growproc(int n)
{
  struct proc *p = myproc();
  uintptr sz = p->sz;
  if (n > 0) {
    if (sz + n < sz || sz + n > MAXUVA)
      return -1;
    if ((sz = uvmalloc(p->pagetable, sz, sz + n, PTE_W)) == 0)
      return -1;
  } else if (n < 0) {
    uintptr dec = -(int32)n;
    if (dec > sz - USERBASE)
      return -1;
    sz = uvmdealloc(p->pagetable, sz, sz - dec);
  }
  p->sz = sz;
  return 0;
}

int fork(void)
{
  struct proc *p = myproc();
  struct proc *np = allocproc();
  if (np == 0)
    return -1;
  if (uvmcopy(p->pagetable, np->pagetable, p->sz) < 0) {
    freeproc(np);
    release(&np->lock);
    return -1;
  }
  np->sz = p->sz;
  *(np->trapframe) = *(p->trapframe);
  np->trapframe->a0 = 0; /* fork returns 0 in the child */
  for (int i = 0; i < NOFILE; i++)
    if (p->ofile[i])
      np->ofile[i] = filedup(p->ofile[i]);
  np->cwd = idup(p->cwd);
  safestrcpy(np->name, p->name, sizeof(p->name));
  int pid = np->pid;
  release(&np->lock);

  acquire(&wait_lock);
  np->parent = p;
  release(&wait_lock);

  acquire(&np->lock);
  np->state = RUNNABLE;
  release(&np->lock);
  /* the child's text was copied into fresh pages: make the instruction
   * cache see it (VexRiscv's I-cache is not coherent with stores) */
  fence_i();
  return pid;
}

/* give p's children to init; wait_lock held */
static void reparent(struct proc *p)
{
  for (struct proc *pp = proc; pp < &proc[NPROC]; pp++) {
    if (pp->parent == p) {
      pp->parent = initproc;
      wakeup(initproc);
    }
  }
}

void exit(int status)
{
  struct proc *p = myproc();
  if (p == initproc)
    panic("init exiting");
  for (int fd = 0; fd < NOFILE; fd++) {
    if (p->ofile[fd]) {
      fileclose(p->ofile[fd]);
      p->ofile[fd] = 0;
    }
  }
  begin_op();
  iput(p->cwd);
  end_op();
  p->cwd = 0;

  acquire(&wait_lock);
  reparent(p);
  wakeup(p->parent);
  acquire(&p->lock);
  p->xstate = status;
  p->state = ZOMBIE;
  release(&wait_lock);
  sched();
  panic("zombie exit");
}

/* Wait for a child to exit; copy its status to addr (if not 0). */
int wait(uintptr addr)
{
  struct proc *p = myproc();
  acquire(&wait_lock);
  for (;;) {
    int havekids = 0;
    for (struct proc *pp = proc; pp < &proc[NPROC]; pp++) {
      if (pp->parent != p)
        continue;
      acquire(&pp->lock);
      havekids = 1;
      if (pp->state == ZOMBIE) {
        int pid = pp->pid;
        if (addr != 0 && copyout(p->pagetable, addr, &pp->xstate, sizeof(pp->xstate)) < 0) {
          release(&pp->lock);
          release(&wait_lock);
          return -1;
        }
        freeproc(pp);
        release(&pp->lock);
        release(&wait_lock);
        return pid;
      }
      release(&pp->lock);
    }
    if (!havekids || killed(p)) {
      release(&wait_lock);
      return -1;
    }
    sleep(p, &wait_lock);
  }
}

/* Per-CPU scheduler loop: pick a RUNNABLE process and swtch to it. */
void scheduler(void)
{
  struct cpu *c = mycpu();
  c->proc = 0;
  for (;;) {
    intr_on(); /* let devices interrupt, e.g. while everyone sleeps */
    int found = 0;
    for (struct proc *p = proc; p < &proc[NPROC]; p++) {
      /* a racy peek: a slot that becomes RUNNABLE now is seen next pass */
      if (__atomic_load_n(&p->state, __ATOMIC_RELAXED) != RUNNABLE)
        continue;
      acquire(&p->lock);
      if (p->state == RUNNABLE) {
        p->state = RUNNING;
        c->proc = p;
        swtch(&c->context, &p->context);
        c->proc = 0;
        found = 1;
      }
      release(&p->lock);
    }
    if (!found) {
      intr_on();
      asm volatile("wfi");
    }
  }
}

/* Switch to the scheduler.  Caller holds exactly p->lock and has changed
 * p->state. */
void sched(void)
{
  struct proc *p = myproc();
  if (!holding(&p->lock))
    panic("sched p->lock");
  if (mycpu()->noff != 1)
    panic("sched locks");
  if (p->state == RUNNING)
    panic("sched running");
  if (intr_get())
    panic("sched interruptible");
  int intena = mycpu()->intena;
  swtch(&p->context, &mycpu()->context);
  mycpu()->intena = intena;
}

void yield(void)
{
  struct proc *p = myproc();
  acquire(&p->lock);
  p->state = RUNNABLE;
  sched();
  release(&p->lock);
}

/* A new process starts here (via swtch) on its first scheduling. */
static void forkret(void)
{
  static int first = 1;
  release(&myproc()->lock);
  if (first) {
    /* the file system must be initialised from a process context
     * because it sleeps */
    first = 0;
    fsinit(ROOTDEV);
  }
  usertrapret();
}

/* Atomically release lk and sleep on chan; reacquire lk when woken. */
void sleep(void *chan, struct spinlock *lk)
{
  struct proc *p = myproc();
  acquire(&p->lock);
  release(lk);
  p->chan = chan;
  p->state = SLEEPING;
  sched();
  p->chan = 0;
  release(&p->lock);
  acquire(lk);
}

/* Wake every process sleeping on chan; caller holds the condition lock.
 * Slots that are UNUSED are skipped without taking their lock: a process
 * that is about to sleep is never UNUSED, and on the slow VexRiscv taking
 * 64 locks per wakeup made every sleep-lock release cost ~40k clocks. */
void wakeup(void *chan)
{
  struct proc *me = myproc();
  for (struct proc *p = proc; p < &proc[NPROC]; p++) {
    if (__atomic_load_n(&p->state, __ATOMIC_RELAXED) == UNUSED)
      continue;
    if (p != me) {
      acquire(&p->lock);
      if (p->state == SLEEPING && p->chan == chan)
        p->state = RUNNABLE;
      release(&p->lock);
    }
  }
}

int kill(int pid)
{
  for (struct proc *p = proc; p < &proc[NPROC]; p++) {
    acquire(&p->lock);
    if (p->pid == pid) {
      p->killed = 1;
      if (p->state == SLEEPING)
        p->state = RUNNABLE;
      release(&p->lock);
      return 0;
    }
    release(&p->lock);
  }
  return -1;
}

void setkilled(struct proc *p)
{
  acquire(&p->lock);
  p->killed = 1;
  release(&p->lock);
}

int killed(struct proc *p)
{
  acquire(&p->lock);
  int k = p->killed;
  release(&p->lock);
  return k;
}

/* copy to a user address (user_dst) or a kernel address */
int either_copyout(int user_dst, uintptr dst, void *src, uint len)
{
  if (user_dst)
    return copyout(myproc()->pagetable, dst, src, len);
  memmove((void *)dst, src, len);
  return 0;
}

int either_copyin(void *dst, int user_src, uintptr src, uint len)
{
  if (user_src)
    return copyin(myproc()->pagetable, dst, src, len);
  memmove(dst, (void *)src, len);
  return 0;
}

/* ^P on the console: list processes (no locks, may be inconsistent) */
void procdump(void)
{
  static const char *states[] = { [UNUSED] "unused",
    [USED] "used",
    [SLEEPING] "sleep ",
    [RUNNABLE] "runble",
    [RUNNING] "run   ",
    [ZOMBIE] "zombie" };
  printf("\n");
  for (struct proc *p = proc; p < &proc[NPROC]; p++) {
    if (p->state == UNUSED)
      continue;
    printf("%d %s %s", p->pid, states[p->state], p->name);
    if (p->trapframe)
      printf(" (user pc %p)", (void *)p->trapframe->epc);
    printf("\n");
  }
  extern uint nintr_ssi, nintr_sti;
  extern uint32 intr_epc, intr_sstatus, tick_kernel_epc, tick_kernel_ra;
  printf("interrupted %s code at pc %p; last tick in the kernel at pc %p ra %p\n",
      (intr_sstatus & SSTATUS_SPP) ? "kernel" : "user", (void *)intr_epc, (void *)tick_kernel_epc,
      (void *)tick_kernel_ra);
  printf("free pages: %u, ticks %u, S-mode interrupts: software %u timer %u\n", kfreepages(), ticks,
      nintr_ssi, nintr_sti);
  printf("M-mode: time reads emulated %u, traps redirected %u, timer irqs %u, "
         "external irqs %u, sbi calls %u\n",
      sbi_stat(MSTAT_TIME_EMUL), sbi_stat(MSTAT_REDIRECT), sbi_stat(MSTAT_MTI), sbi_stat(MSTAT_MEI),
      sbi_stat(MSTAT_ECALL));
}
