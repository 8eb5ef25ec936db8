/* SPDX-License-Identifier: MIT */
# stvec while in the kernel: save the caller-saved registers on the
# current kernel stack, call kerneltrap(), restore them, sret.
# (tp is not saved: it holds the hart id in the kernel.)
#
# Only the caller-saved registers need saving: kerneltrap() is a C
# function and itself preserves s0..s11 and sp as the calling convention
# demands.  The interrupted code may have been anywhere, with live values
# in any temporary, so all of ra, t0..t6 and a0..a7 (and gp) are kept.
# The trap cleared sstatus.SIE, so no second interrupt arrives while this
# frame is being built; if kerneltrap() yields, the frame simply waits on
# this kernel stack until the thread runs again.
.globl kerneltrap
.globl kernelvec
.align 4                      # stvec's low two bits are its mode: 0, direct
kernelvec:
    addi sp, sp, -80
    sw ra, 0(sp)
    sw gp, 4(sp)
    sw t0, 8(sp)
    sw t1, 12(sp)
    sw t2, 16(sp)
    sw a0, 20(sp)
    sw a1, 24(sp)
    sw a2, 28(sp)
    sw a3, 32(sp)
    sw a4, 36(sp)
    sw a5, 40(sp)
    sw a6, 44(sp)
    sw a7, 48(sp)
    sw t3, 52(sp)
    sw t4, 56(sp)
    sw t5, 60(sp)
    sw t6, 64(sp)
    mv a0, sp                 # kerneltrap(frame): frame[0] = interrupted ra
    call kerneltrap
    lw ra, 0(sp)
    lw gp, 4(sp)
    lw t0, 8(sp)
    lw t1, 12(sp)
    lw t2, 16(sp)
    lw a0, 20(sp)
    lw a1, 24(sp)
    lw a2, 28(sp)
    lw a3, 32(sp)
    lw a4, 36(sp)
    lw a5, 40(sp)
    lw a6, 44(sp)
    lw a7, 48(sp)
    lw t3, 52(sp)
    lw t4, 56(sp)
    lw t5, 60(sp)
    lw t6, 64(sp)
    addi sp, sp, 80
    sret
