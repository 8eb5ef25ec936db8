/* SPDX-License-Identifier: MIT */
# The first user program: exec("/init", {"/init", 0}); exit if it fails.
# Linked at USERBASE (0x1000) and copied into the first process by
# userinit(); it must be position independent.
#include "syscall.h"
.globl start
start:
    la a0, init
    la a1, argv
    li a7, SYS_exec
    ecall
1:  li a7, SYS_exit
    li a0, 1
    ecall
    j 1b
init:
    .string "/init"
.p2align 2
argv:
    .word init - start + 0x1000
    .word 0
