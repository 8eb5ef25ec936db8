/* SPDX-License-Identifier: MIT */
#ifndef XV_PARAM_H
#define XV_PARAM_H
#define NPROC       64                /* maximum number of processes */
#define NCPU        1                 /* VexRiscv and our QEMU setup are single-hart */
#define NOFILE      16                /* open files per process */
#define NFILE       100               /* open files per system */
#define NINODE      50                /* maximum number of active i-nodes */
#define NDEV        10                /* maximum major device number */
#define ROOTDEV     1                 /* device number of file system root disk */
#define MAXARG      32                /* max exec arguments */
#define MAXOPBLOCKS 10                /* max # of blocks any FS op writes */
#define LOGSIZE     (MAXOPBLOCKS * 3) /* max data blocks in on-disk log */
#define NBUF        (MAXOPBLOCKS * 3) /* size of disk block cache */
#define FSSIZE      2000              /* size of file system in blocks (1 KiB each) */
#define MAXPATH     128               /* maximum file path name */
#define USERSTACK   1                 /* user stack pages */

/* Timer: TIMEBASE_HZ is the rate of the `time` counter (QEMU virt: 10 MHz,
 * LiteX: the system clock), TICK_HZ the scheduler tick.  Both come from
 * the Makefile so that user programs see the same values. */
#ifndef TIMEBASE_HZ
#error "TIMEBASE_HZ must be defined by the build"
#endif
#ifndef TICK_HZ
#error "TICK_HZ must be defined by the build"
#endif
#define TICK_INTERVAL ((uint64)TIMEBASE_HZ / TICK_HZ)
#endif
