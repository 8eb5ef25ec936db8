/* SPDX-License-Identifier: MIT */
# Machine-mode entry (both platforms).  QEMU (-bios none) and the LiteX
# BIOS both jump here, at the start of RAM, in machine mode.
#
#  1. install a tolerant trap vector that skips a faulting instruction, so
#     that optional CSRs (mhartid, PMP, mcounteren, scounteren) can be
#     probed on CPUs that lack them (VexRiscv `linux` has no PMP);
#  2. zero .bss (kernel.bin for LiteX does not carry it);
#  3. continue in C (mtrap.c: mstart()), which enters S-mode at sentry.

#include "riscv.h"

.section .text.entry
.globl _entry
_entry:
    la t0, early_trap
    csrw mtvec, t0
    li tp, 0
    csrr tp, mhartid          # stays 0 if mhartid traps
    bnez tp, park             # single-hart kernel

    la t0, __bss_start
    la t1, __bss_end
1:  bgeu t0, t1, 2f
    sw zero, 0(t0)
    addi t0, t0, 4
    j 1b
2:
    # PMP: one TOR region over all of memory, RWX, for S and U mode.
    # Without it QEMU denies every S/U access; VexRiscv has no PMP and the
    # writes trap into early_trap, which skips them.
    li t0, -1
    csrw pmpaddr0, t0
    li t0, 0x0f               # A=TOR, R, W, X
    csrw pmpcfg0, t0

    # counters: hide `time` from S/U so that reads trap and get emulated,
    # unless NATIVE_TIME (QEMU only) asks for the hardware path.
#if NATIVE_TIME
    li t0, 0x2                # TM
#else
    li t0, 0
#endif
    csrw mcounteren, t0
    csrw scounteren, t0

    la sp, mstack_top
    call mstart               # does not return
park:
    wfi
    j park

# Skips the instruction that trapped.  Used only before mstart(); clobbers
# only t6, which the code above does not use.
.align 4
early_trap:
    csrr t6, mepc
    addi t6, t6, 4
    csrw mepc, t6
    mret

# Supervisor entry: mret from mstart() lands here in S-mode.
.globl sentry
sentry:
    la sp, stack0
    li t0, 4096
    add sp, sp, t0
    call main
3:  j 3b

# Machine trap vector.  mscratch points to a 32-word frame (mframe) at the
# top of the machine stack; regs[n] holds xn.  The C handler runs on the
# stack below the frame.
#
# M-mode traps do not nest: taking one clears mstatus.MIE, and mtrap()
# never sets it, so one frame is enough.  They can, however, arrive at
# any point of S-mode or U-mode code -- machine interrupts are taken in
# lower modes whatever sstatus.SIE says -- so everything is saved,
# including the temporaries, and the supervisor's stack is not touched.
# mscratch holds the frame's address while outside M-mode; the swap
# below trades it for the interrupted sp, and it is written back before
# the C code so that it is right again for the next trap.
.align 4
.globl mtrapvec
mtrapvec:
    csrrw sp, mscratch, sp
    sw x1, 4(sp)
    sw x3, 12(sp)
    sw x4, 16(sp)
    sw x5, 20(sp)
    sw x6, 24(sp)
    sw x7, 28(sp)
    sw x8, 32(sp)
    sw x9, 36(sp)
    sw x10, 40(sp)
    sw x11, 44(sp)
    sw x12, 48(sp)
    sw x13, 52(sp)
    sw x14, 56(sp)
    sw x15, 60(sp)
    sw x16, 64(sp)
    sw x17, 68(sp)
    sw x18, 72(sp)
    sw x19, 76(sp)
    sw x20, 80(sp)
    sw x21, 84(sp)
    sw x22, 88(sp)
    sw x23, 92(sp)
    sw x24, 96(sp)
    sw x25, 100(sp)
    sw x26, 104(sp)
    sw x27, 108(sp)
    sw x28, 112(sp)
    sw x29, 116(sp)
    sw x30, 120(sp)
    sw x31, 124(sp)
    csrr t0, mscratch
    sw t0, 8(sp)              # the interrupted sp
    csrw mscratch, sp
    mv a0, sp
    call mtrap
    lw x1, 4(sp)
    lw x3, 12(sp)
    lw x4, 16(sp)
    lw x5, 20(sp)
    lw x6, 24(sp)
    lw x7, 28(sp)
    lw x8, 32(sp)
    lw x9, 36(sp)
    lw x10, 40(sp)
    lw x11, 44(sp)
    lw x12, 48(sp)
    lw x13, 52(sp)
    lw x14, 56(sp)
    lw x15, 60(sp)
    lw x16, 64(sp)
    lw x17, 68(sp)
    lw x18, 72(sp)
    lw x19, 76(sp)
    lw x20, 80(sp)
    lw x21, 84(sp)
    lw x22, 88(sp)
    lw x23, 92(sp)
    lw x24, 96(sp)
    lw x25, 100(sp)
    lw x26, 104(sp)
    lw x27, 108(sp)
    lw x28, 112(sp)
    lw x29, 116(sp)
    lw x30, 120(sp)
    lw x31, 124(sp)
    lw sp, 8(sp)              # last: sp was the frame pointer
    mret

.section .bss
.align 4
.globl mstack
mstack:
    .space 4096
.globl mstack_top
mstack_top:                   # also the base of mframe
.globl mframe
mframe:
    .space 128
