/* SPDX-License-Identifier: MIT */
/* Machine-mode platform hooks (mplat_qemu.c / mplat_litex.c). */
#ifndef XV_MPLAT_H
#define XV_MPLAT_H
void mplat_init(void);                /* timer compare = max, IRQ routing */
uint64 mplat_time(void);              /* the 64-bit platform timer */
void mplat_set_timecmp(uint64 t);     /* machine timer interrupt at t */
uint32 mplat_irq_claim(void);         /* pending lines, now masked */
void mplat_irq_complete(uint32 mask); /* unmask those lines */
void mplat_putc(int c);               /* polled console output */
void mplat_shutdown(uint32 code);
#endif
