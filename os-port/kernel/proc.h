/* SPDX-License-Identifier: MIT */
#ifndef XV_PROC_H
#define XV_PROC_H
/* callee-saved registers for kernel context switches (swtch.S); the
 * layout is the order swtch.S stores them in */
struct context {
  uint32 ra, sp;
  uint32 s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11;
};

/* Per-hart state, indexed by the hart id in tp (cpuid()). */
struct cpu {
  struct proc *proc;      /* process running here, or 0 */
  struct context context; /* swtch() here to enter scheduler() */
  int noff;               /* depth of push_off() nesting */
  int intena;             /* were interrupts enabled before push_off()? */
};
extern struct cpu cpus[NCPU];

/* This hart's struct cpu. Inline: every spin lock asks for it two or
 * three times (push_off, holding, pop_off), and a call cost more than the
 * answer (a Verilator trace of a hash() system call counted ~70 calls).
 * Interrupts must be off while the answer is used, as for cpuid(). */
static inline struct cpu *mycpu(void)
{
  return &cpus[r_tp()];
}

/* Per-process page at TRAPFRAME, used by trampoline.S.  The offsets are
 * used by the assembly: the five kernel words, then x1..x31 at
 * TF_X(n) = 16 + 4*n.
 *
 * uservec saves every user register here on a trap from user mode, and
 * userret loads them back, so the trapframe is the user half of a
 * process's state while it is in the kernel (syscall arguments are read
 * from a0..a7 here, and the result is stored into a0).  The kernel_*
 * words are written by usertrapret() on every return to user space, for
 * the next uservec: it cannot compute them itself, because it starts on
 * the user page table with only the trapframe to read from. */
struct trapframe {
  uint32 kernel_satp;                              /*   0 */
  uint32 kernel_sp;                                /*   4 */
  uint32 kernel_trap;                              /*   8 usertrap() */
  uint32 epc;                                      /*  12 saved user pc */
  uint32 kernel_hartid;                            /*  16 */
  uint32 ra, sp, gp, tp, t0, t1, t2, s0, s1;       /* x1..x9   20..52 */
  uint32 a0, a1, a2, a3, a4, a5, a6, a7;           /* x10..x17 56..84 */
  uint32 s2, s3, s4, s5, s6, s7, s8, s9, s10, s11; /* x18..x27 88..124 */
  uint32 t3, t4, t5, t6;                           /* x28..x31 128..140 */
};

/* UNUSED: free slot.  USED: being set up by allocproc()/fork, not yet
 * runnable.  ZOMBIE: exited, its status waiting for the parent's wait(). */
enum procstate { UNUSED, USED, SLEEPING, RUNNABLE, RUNNING, ZOMBIE };

/* Per-process state.  The slots live in proc[NPROC] (proc.c) and are
 * reused, each with a kernel stack fixed at KSTACK(slot). */
struct proc {
  struct spinlock lock;
  /* p->lock must be held when using these: */
  enum procstate state;
  void *chan;
  int killed;
  int xstate;
  int pid;
  /* wait_lock must be held when using this: */
  struct proc *parent;
  /* private to the process (others may touch them only while it cannot
   * run, e.g. fork() setting up a USED child, wait() freeing a ZOMBIE): */
  uintptr kstack;
  uintptr sz; /* top of user memory (text+data+stack+heap) */
  pagetable_t pagetable;
  struct trapframe *trapframe;
  struct context context;
  struct file *ofile[NOFILE];
  struct inode *cwd;
  char name[16];
};
#endif
