/* SPDX-License-Identifier: MIT */
# The trampoline page, mapped at TRAMPOLINE (0xFFFFF000) in the kernel
# page table and in every user page table (without PTE_U), so that the
# code keeps running across the satp switch.
#
# uservec: stvec while in user mode.  Saves the user registers in the
#   trapframe (TRAPFRAME, 0xFFFFE000), switches to the kernel page table
#   and jumps to usertrap() on the process's kernel stack.
# userret(satp): back to user mode with the user page table `satp`.
#
# trapframe offsets: kernel_satp 0, kernel_sp 4, kernel_trap 8, epc 12,
# kernel_hartid 16, then x1..x31 at 16 + 4*n.
#
# Why a separate page: stvec must hold an address that is valid both in
# the user page table (where the trap arrives) and in the kernel page
# table (which uservec switches to half-way).  The kernel text is not
# mapped for user processes, so this code lives on its own page, mapped
# at the same virtual address in both; the instruction after `csrw satp`
# is then fetched from the same place under either table.
#
# The trapframe is at a fixed virtual address in every user page table
# (without PTE_U, so the user cannot touch it), so uservec can find it
# with a constant, having no free register to start with.  The kernel
# reaches the same page through p->trapframe, its physical address.

#define TF 0xFFFFE000

.section trampsec
.globl trampoline
trampoline:
.align 4
.globl uservec
uservec:
    # User mode, user page table, interrupts off (the trap cleared SIE).
    # Every register belongs to the user: park a0 in sscratch to get one
    # to work with.
    csrw sscratch, a0
    li a0, TF
    sw x1, 20(a0)
    sw x2, 24(a0)
    sw x3, 28(a0)
    sw x4, 32(a0)
    sw x5, 36(a0)
    sw x6, 40(a0)
    sw x7, 44(a0)
    sw x8, 48(a0)
    sw x9, 52(a0)
    sw x11, 60(a0)
    sw x12, 64(a0)
    sw x13, 68(a0)
    sw x14, 72(a0)
    sw x15, 76(a0)
    sw x16, 80(a0)
    sw x17, 84(a0)
    sw x18, 88(a0)
    sw x19, 92(a0)
    sw x20, 96(a0)
    sw x21, 100(a0)
    sw x22, 104(a0)
    sw x23, 108(a0)
    sw x24, 112(a0)
    sw x25, 116(a0)
    sw x26, 120(a0)
    sw x27, 124(a0)
    sw x28, 128(a0)
    sw x29, 132(a0)
    sw x30, 136(a0)
    sw x31, 140(a0)
    csrr t0, sscratch
    sw t0, 56(a0)             # user a0

    # all user registers are saved: load what usertrapret() left for us
    lw sp, 4(a0)              # kernel stack
    lw tp, 16(a0)             # hart id
    lw t0, 8(a0)              # usertrap
    lw t1, 0(a0)              # kernel satp
    # Switch to the kernel page table.  The first fence orders the stores
    # above before the switch; the second flushes the user translations
    # from the TLB, so that nothing below uses a stale user mapping.
    sfence.vma zero, zero
    csrw satp, t1
    sfence.vma zero, zero
    # usertrap() is mapped only now; it does not return (it ends in
    # usertrapret(), which comes back through userret)
    jr t0

.globl userret
userret:
    # a0: user satp.  Called by usertrapret() with interrupts off, stvec
    # already at uservec and sepc/sstatus prepared for the sret below.
    sfence.vma zero, zero
    csrw satp, a0
    sfence.vma zero, zero
    # from here on only the trampoline and the trapframe are mapped (for
    # the kernel) along with the user's pages
    li a0, TF
    lw x1, 20(a0)
    lw x2, 24(a0)
    lw x3, 28(a0)
    lw x4, 32(a0)
    lw x5, 36(a0)
    lw x6, 40(a0)
    lw x7, 44(a0)
    lw x8, 48(a0)
    lw x9, 52(a0)
    lw x11, 60(a0)
    lw x12, 64(a0)
    lw x13, 68(a0)
    lw x14, 72(a0)
    lw x15, 76(a0)
    lw x16, 80(a0)
    lw x17, 84(a0)
    lw x18, 88(a0)
    lw x19, 92(a0)
    lw x20, 96(a0)
    lw x21, 100(a0)
    lw x22, 104(a0)
    lw x23, 108(a0)
    lw x24, 112(a0)
    lw x25, 116(a0)
    lw x26, 120(a0)
    lw x27, 124(a0)
    lw x28, 128(a0)
    lw x29, 132(a0)
    lw x30, 136(a0)
    lw x31, 140(a0)
    lw a0, 56(a0)             # last: it was the base register
    # to user mode at sepc, with interrupts on (SPP = 0 and SPIE = 1, as
    # usertrapret() set them)
    sret
