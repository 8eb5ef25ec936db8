/* SPDX-License-Identifier: MIT */
# swtch(struct context *old, struct context *new)
# Save the callee-saved registers in *old, load them from *new.
#
# This is the whole context switch between kernel threads (a process's
# kernel thread and a hart's scheduler thread).  swtch is called like any C
# function, so the caller-saved registers are already saved by the
# compiler wherever they are still needed; only ra, sp and s0..s11 have to
# survive.  Loading the new ra and sp and executing `ret` continues the
# other thread where it called swtch (or, for a new process, at forkret
# on its fresh stack: allocproc() sets that context up).
#
# Always called with interrupts off and the process's p->lock held (see
# scheduler() and sched() in proc.c); the user registers are not involved:
# they are in the trapframe since the trap that entered the kernel.
.globl swtch
swtch:
    sw ra, 0(a0)
    sw sp, 4(a0)
    sw s0, 8(a0)
    sw s1, 12(a0)
    sw s2, 16(a0)
    sw s3, 20(a0)
    sw s4, 24(a0)
    sw s5, 28(a0)
    sw s6, 32(a0)
    sw s7, 36(a0)
    sw s8, 40(a0)
    sw s9, 44(a0)
    sw s10, 48(a0)
    sw s11, 52(a0)
    lw ra, 0(a1)
    lw sp, 4(a1)
    lw s0, 8(a1)
    lw s1, 12(a1)
    lw s2, 16(a1)
    lw s3, 20(a1)
    lw s4, 24(a1)
    lw s5, 28(a1)
    lw s6, 32(a1)
    lw s7, 36(a1)
    lw s8, 40(a1)
    lw s9, 44(a1)
    lw s10, 48(a1)
    lw s11, 52(a1)
    ret
