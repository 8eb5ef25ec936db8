/* SPDX-License-Identifier: MIT */
/* 16550 UART (QEMU virt): the device half of uart.c. Its transmit-holding-
 * register-empty interrupt drains uart.c's ring; input arrives by interrupt
 * (PLIC -> machine mode -> SSIP, see mtrap.c). */
#include "types.h"
#include "param.h"
#include "memlayout.h"
#include "riscv.h"
#include "spinlock.h"
#include "proc.h"
#include "defs.h"

#define REG(r)        ((volatile uchar *)(UART0 + (r)))
#define RHR           0
#define THR           0
#define IER           1
#define IER_RX        0x01
#define IER_TX        0x02
#define FCR           2
#define IIR           2
#define LCR           3
#define LCR_DLAB      0x80
#define LSR           5
#define LSR_RX_READY  0x01
#define LSR_THR_EMPTY 0x20
#define rd(r)         (*REG(r))
#define wr(r, v)      (*REG(r) = (v))

void uartdev_init(void)
{
  wr(IER, 0);
  wr(LCR, LCR_DLAB);
  wr(0, 3);      /* divisor low: 38400 baud */
  wr(1, 0);      /* divisor high */
  wr(LCR, 3);    /* 8 bits, no parity, one stop bit */
  wr(FCR, 0x07); /* enable and clear FIFOs */
  wr(IER, IER_RX | IER_TX);
}

int uartdev_txready(void)
{
  return (rd(LSR) & LSR_THR_EMPTY) != 0;
}

void uartdev_tx(int c)
{
  wr(THR, c);
}

int uartdev_rx(void)
{
  if (rd(LSR) & LSR_RX_READY)
    return rd(RHR);
  return -1;
}

/* reading IIR acknowledges a "transmit holding register empty" interrupt;
 * a receive interrupt goes away as RHR is read empty */
void uartdev_ack(void)
{
  (void)rd(IIR);
}
