/* SPDX-License-Identifier: MIT */
/* QEMU `virt` machine (qemu-system-riscv32 -machine virt -bios none). */
#ifndef XV_PLAT_QEMU_H
#define XV_PLAT_QEMU_H
#define PLAT_NAME         "qemu"
#define RAM_BASE          0x80000000u
/* RAM: QEMU runs with -m QEMU_RAM_MB M (os-port/Makefile and scripts/xv6run.py read it here) */
#define QEMU_RAM_MB       128
#define RAM_SIZE          ((uint32)QEMU_RAM_MB << 20)
#define RAMDISK_BASE      (RAM_BASE + 0x200000u) /* 0x80200000: fs.img */
#define RAMDISK_MAX       0x200000u              /* 2 MiB */
#define UART0             0x10000000u            /* 16550 */
#define UART0_IRQ         10
#define PLIC_BASE         0x0c000000u
#define CLINT_BASE        0x02000000u
#define CLINT_MTIMECMP(h) (CLINT_BASE + 0x4000 + 8 * (h))
#define CLINT_MTIME       (CLINT_BASE + 0xBFF8)
#define VIRT_TEST         0x00100000u /* sifive_test: poweroff */
#define JUNK_FILL         1           /* fill freed/allocated pages with junk (debug) */
#endif
