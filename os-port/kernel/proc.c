/* SPDX-License-Identifier: MIT */
/* Processes, scheduling, sleep/wakeup, fork/exit/wait/kill.
 *
 * The locks of this file, in the order they may nest:
 *   wait_lock  -> p->lock (of any process) -> pid_lock
 *
 *   p->lock    protects the fields of struct proc marked so in proc.h
 *              (state, chan, killed, xstate, pid).  It is also the lock
 *              that travels through a context switch: a process gives up
 *              the CPU by calling sched() with its p->lock held, and the
 *              lock is released on the other side, by the scheduler or by
 *              the next process (see scheduler() and sched()).
 *   wait_lock  protects every p->parent, and is the condition lock of a
 *              parent sleeping in wait(): an exiting child does its
 *              wakeup() under it, so the wakeup cannot fall between the
 *              parent's scan of its children and its sleep.
 *   pid_lock   protects nextpid only.
 *
 * A process switches between its own kernel thread and the per-hart
 * scheduler thread with swtch(); there is never a direct switch from one
 * process to another. */
#include "types.h"
#include "param.h"
#include "memlayout.h"
#include "riscv.h"
#include "spinlock.h"
#include "proc.h"
#include "sbi.h"
#include "defs.h"
#include "integrity.h"
#include "khash.h"

struct cpu cpus[NCPU];
struct proc proc[NPROC];
struct proc *initproc;

static int nextpid = 1;
static struct spinlock pid_lock; /* for nextpid */
/* protects p->parent and keeps wakeups of parents in wait() from being
 * lost; always taken before any p->lock */
static struct spinlock wait_lock;

/* How many processes are RUNNABLE: changed only with the process's state,
 * under its p->lock (makerunnable, and the scheduler when it picks one),
 * by atomic adds because different locks guard different processes. */
static uint nrunnable;

extern char trampoline[];
static void freeproc(struct proc *p);
static void forkret(void);

/* p->state = RUNNABLE, counted. Caller holds p->lock. */
static void makerunnable(struct proc *p)
{
  p->state = RUNNABLE;
  __atomic_add_fetch(&nrunnable, 1, __ATOMIC_RELAXED);
}

/* One kernel stack per process slot, with an unmapped guard page below.
 * KSTACK(i) steps down two pages per slot and only the upper page of each
 * pair is mapped: a kernel stack that overflows runs into the unmapped
 * page and faults instead of silently overwriting the stack of the slot
 * below.  Called once, on the kernel page table,
 * before paging is turned on; the stacks stay mapped for ever and are
 * reused by whichever process takes the slot. */
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

/* The hart's number, kept in tp: set at boot (mstart.S, main()), and
 * restored from the trapframe by uservec because user code may use tp
 * for anything.
 * Interrupts must be off while the answer is used: with interrupts on, a
 * timer tick could reschedule the process, on SMP onto another hart. */
int cpuid(void)
{
  return r_tp();
}

/* mycpu() is inline, in proc.h. */

/* The process running on this hart, or 0 in the scheduler.  With more
 * than one hart, push_off() makes the read of mycpu()->proc happen on the
 * hart that was asked; the answer stays right afterwards, because a
 * process that moves moves with its own struct proc.  With one hart a
 * process cannot move, and a timer tick that reschedules it in the middle
 * of the read brings it back with cpus[0].proc pointing to it again, so
 * the read needs no fence; that matters because this is the kernel's most
 * frequent call (each argint() makes one), and push_off/pop_off (two
 * sstatus writes) made it cost ~30 clocks. */
struct proc *myproc(void)
{
#if NCPU == 1
  return cpus[0].proc;
#else
  push_off();
  struct proc *p = mycpu()->proc;
  pop_off();
  return p;
#endif
}

static int allocpid(void)
{
  acquire(&pid_lock);
  int pid = nextpid++;
  release(&pid_lock);
  return pid;
}

/* Find an UNUSED slot and prepare it to run in the kernel (forkret).
 * Returns with p->lock held, or 0.  The lock is kept so that nobody
 * (the scheduler, wait(), kill()) looks at the half-built process; the
 * state USED keeps other allocproc() calls off the slot and the scheduler
 * away until the caller makes it RUNNABLE. */
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
  /* The first swtch() to this process "returns" to forkret() on the top
   * of the slot's kernel stack. */
  memset(&p->context, 0, sizeof(p->context));
  p->context.ra = (uintptr)forkret;
  p->context.sp = p->kstack + PGSIZE;
  return p;
}

/* Give back everything a process slot owns and mark it UNUSED.  p->lock
 * held.  Open files and cwd are gone already (exit() closed them); the
 * kernel stack stays mapped for the slot's next user. */
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

/* A user page table with only the trampoline and the trapframe, the two
 * pages uservec/userret need at fixed addresses at the top of every user
 * address space.  Neither has PTE_U: user code cannot read or change
 * them, but the kernel-mode trampoline code can. */
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

/* Undo proc_pagetable() and free the user memory [USERBASE, sz).  The
 * trampoline is shared and the trapframe is freed by freeproc(), so those
 * two are only unmapped. */
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
  makerunnable(p);
  release(&p->lock);
}

/* Grow or shrink user memory by n bytes (sbrk).  Only the process itself
 * changes its sz and page table, so no lock is needed.  Growth may not
 * wrap around or reach the trapframe; shrinking stops at USERBASE. */
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

/* Create a child that is a copy of the calling process: memory, registers,
 * open files and cwd.  Returns the child's pid to the parent; the child
 * starts in forkret() and returns 0 to user space. */
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
  /* np->lock is let go before wait_lock is taken, as wait_lock comes first
   * in the lock order.  The child is still USED, so nobody runs it yet. */
  release(&np->lock);

  acquire(&wait_lock);
  np->parent = p;
  release(&wait_lock);

  /* only now, with its parent set, may the child run (and exit) */
  acquire(&np->lock);
  makerunnable(np);
  release(&np->lock);
  /* the child's text was copied into fresh pages: make the instruction
   * cache see it (VexRiscv's I-cache is not coherent with stores) */
  fence_i();
  return pid;
}

/* Give p's children to init; wait_lock held.  init may already have
 * one of them as a zombie to collect, hence the wakeup. */
static void reparent(struct proc *p)
{
  for (struct proc *pp = proc; pp < &proc[NPROC]; pp++) {
    if (pp->parent == p) {
      pp->parent = initproc;
      wakeup(initproc);
    }
  }
}

/* Terminate the calling process; never returns.  The process becomes a
 * ZOMBIE that keeps its slot (and its memory, freed by freeproc()) until
 * its parent collects the status in wait(). */
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
  /* iput() may free the inode on disk: it needs a transaction */
  begin_op();
  iput(p->cwd);
  end_op();
  p->cwd = 0;

  /* wait_lock, then p->lock: the order wait() uses as well.  The parent
   * may be woken before we are a ZOMBIE, but it cannot scan its children
   * until we release wait_lock, and by then the state is ZOMBIE. */
  acquire(&wait_lock);
  reparent(p);
  wakeup(p->parent);
  acquire(&p->lock);
  p->xstate = status;
  p->state = ZOMBIE;
  release(&wait_lock);
  /* Still holding p->lock: the parent's wait() needs it to free this slot,
   * and gets it only after the scheduler has switched off this kernel
   * stack and released it. */
  sched();
  panic("zombie exit");
}

/* Wait for a child to exit; copy its status to addr (if not 0).  Returns
 * the child's pid, or -1 if there are no children, the copy fails, or
 * the caller was killed.
 *
 * wait_lock is held for the whole scan and is the condition lock of the
 * sleep: exit() wakes the parent under wait_lock, so a child that exits
 * after the scan but before the sleep still wakes us.  pp->parent is read
 * under wait_lock (which protects it) and pp->state under pp->lock. */
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
        /* copyout() does not sleep or fault (it walks the page table by
         * software), so it is allowed with spinlocks held */
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
    sleep(p, &wait_lock); /* the channel is our own proc: see exit() */
  }
}

/* Per-CPU scheduler loop: pick a RUNNABLE process and swtch to it.
 * Never returns.
 *
 * The hand-off of p->lock: the scheduler acquires p->lock, marks p
 * RUNNING and swtch()es to it; the process resumes either in forkret()
 * (first run) or on return from its own swtch() in sched(), and in both
 * cases releases p->lock itself.  When the process gives the CPU back it
 * takes p->lock again, changes its state and calls sched(), whose swtch()
 * lands here, right after ours, with p->lock held: the scheduler releases
 * it.  So between the state change and the completed switch, p->lock is
 * held throughout, and no other hart can pick p while it is still running
 * on its kernel stack. */
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
        __atomic_sub_fetch(&nrunnable, 1, __ATOMIC_RELAXED);
        c->proc = p;
        swtch(&c->context, &p->context);
        c->proc = 0;
        found = 1;
      }
      release(&p->lock);
    }
    if (!found) {
      /* nothing to run: idle until an interrupt (at worst the next tick)
       * wakes somebody */
      intr_on();
      asm volatile("wfi");
    }
  }
}

/* Switch to the scheduler.  Caller holds exactly p->lock and has changed
 * p->state.  Any other lock held here would stay held while other
 * processes run, hence the noff check; interrupts are off because p->lock
 * is held.
 *
 * intena belongs to this kernel thread, not to the hart: it says whether
 * interrupts were on before the thread's push_off, and is saved across
 * the switch because the scheduler and other processes change
 * mycpu()->intena in between. */
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

/* Is some other process waiting for the CPU? The caller is RUNNING, so
 * it is not counted. A hint read without a lock (for a caller choosing
 * between sleeping and polling a short wait, hashplat.c), never used for
 * correctness; it costs one load, where a scan of proc[] missed the data
 * cache ~64 times (~1.5k clocks on the board's memory path). */
int anyrunnable(void)
{
  return __atomic_load_n(&nrunnable, __ATOMIC_RELAXED) != 0;
}

/* Give up the CPU for one scheduling round (timer tick). */
void yield(void)
{
  struct proc *p = myproc();
  acquire(&p->lock);
  makerunnable(p);
  sched();
  release(&p->lock);
}

/* A new process starts here (via swtch) on its first scheduling. */
static void forkret(void)
{
  static int first = 1;
  /* held since the scheduler picked us (see scheduler()) */
  release(&myproc()->lock);
  if (first) {
    /* the file system must be initialised from a process context
     * because it sleeps */
    first = 0;
    fsinit(ROOTDEV);
    /* which device key this board holds (devkey.c), before the check
     * that stops the boot if the image was signed with another one */
    devkey_print_fingerprint();
    /* before init runs: the manifest's check (integrity.c) decides
     * what may be executed, init included */
    integrity_boot();
  }
  usertrapret();
}

/* Atomically release lk and sleep on chan; reacquire lk when woken.
 *
 * The protocol: the sleeper tests its condition while holding the
 * condition lock lk, and calls sleep() without letting go of it; whoever
 * makes the condition true does so with lk held and then calls
 * wakeup(chan).  A wakeup therefore cannot be lost: sleep() takes p->lock
 * before it releases lk, and wakeup() needs p->lock to look at p, so a
 * waker either runs entirely before the sleeper's test (which then sees
 * the condition true) or finds p already SLEEPING on chan.
 *
 * A wakeup only says that the condition may have changed: callers loop
 * and test again, since another process may have consumed it first, and
 * kill() also wakes sleepers.  chan is any address both sides agree on;
 * it is never dereferenced. */
void sleep(void *chan, struct spinlock *lk)
{
  struct proc *p = myproc();
  acquire(&p->lock);
  release(lk); /* wakeup() cannot look at p while we hold p->lock */
  p->chan = chan;
  p->state = SLEEPING;
  sched();
  /* woken: the scheduler gave us the CPU with p->lock held */
  p->chan = 0;
  release(&p->lock);
  acquire(lk); /* after p->lock is gone: lk comes before p->lock */
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
    /* the caller is running, so it is not asleep on chan */
    if (p != me) {
      acquire(&p->lock);
      if (p->state == SLEEPING && p->chan == chan)
        makerunnable(p);
      release(&p->lock);
    }
  }
}

/* Mark the process pid as killed.  It does not die here: it exits the
 * next time it is in usertrap() (on its next system call, interrupt or
 * fault), and a sleeper is made RUNNABLE so that its wait loop can see
 * killed() and give up (wait(), pipes, the console read, sys_sleep).
 * Sleeps on disk buffers or inodes do not check it, so they finish the
 * operation first, which keeps the file system consistent. */
int kill(int pid)
{
  for (struct proc *p = proc; p < &proc[NPROC]; p++) {
    acquire(&p->lock);
    if (p->pid == pid) {
      p->killed = 1;
      if (p->state == SLEEPING)
        makerunnable(p);
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

/* Read without p->lock: the flag is one word that only goes from 0 to 1
 * while the process lives (kill and setkilled write it under the lock;
 * freeproc clears it for the next user of the slot), so a reader that
 * misses a kill in progress sees it at its next check, as it would with
 * the lock. killed() runs twice per system call (usertrap) and in every
 * loop a user can stretch, and the lock pair cost ~300 clocks each time. */
int killed(struct proc *p)
{
  return __atomic_load_n(&p->killed, __ATOMIC_ACQUIRE);
}

/* Copy to a user address (user_dst) or a kernel address: readi() and the
 * device read functions serve both the kernel and user buffers. */
int either_copyout(int user_dst, uintptr dst, void *src, uint len)
{
  if (user_dst)
    return copyout(myproc()->pagetable, dst, src, len);
  memmove((void *)dst, src, len);
  return 0;
}

/* the other direction, from a user or a kernel address */
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
