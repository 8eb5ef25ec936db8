/* SPDX-License-Identifier: MIT */
/*
 * The console UART, device-independent half: a transmit ring drained by the
 * device's "room to transmit" interrupt, the receive path to the console,
 * and polled output for printf. The device half (uart16550.c on QEMU,
 * uartlitex.c on LiteX, picked by os-port/Makefile) provides the uartdev_*
 * functions declared below.
 *
 * tx_lock protects the ring (tx_buf, tx_w, tx_r) and the device's transmit
 * register. Writers (uartputc, from console write) sleep on &tx_r while the
 * ring is full; uartstart, run by a writer or by the interrupt, moves bytes
 * to the device while it has room and wakes the writers for each byte it
 * frees. Both hold tx_lock, so a writer's test "ring full" and its sleep
 * cannot miss the wakeup: sleep releases tx_lock only once the writer is
 * marked asleep. tx_w and tx_r only grow (the ring index is their value
 * modulo TXBUF); tx_w - tx_r is the number of bytes waiting.
 */
#include "types.h"
#include "param.h"
#include "memlayout.h"
#include "riscv.h"
#include "spinlock.h"
#include "proc.h"
#include "defs.h"

/* the device half */
void uartdev_init(void);   /* the line, FIFOs, rx and tx interrupts on */
int uartdev_txready(void); /* the device can take a byte now */
void uartdev_tx(int c);    /* give it one byte (uartdev_txready() was 1) */
int uartdev_rx(void);      /* the next received byte, -1 if none */
void uartdev_ack(void);    /* acknowledge the device's interrupt */

extern volatile int panicked;

static struct spinlock tx_lock;
#define TXBUF 32
static char tx_buf[TXBUF];
static uint tx_w, tx_r;

static void uartstart(void);

void uartinit(void)
{
  uartdev_init();
  initlock(&tx_lock, "uart");
}

/* buffered output for write(); sleeps while the ring is full */
void uartputc(int c)
{
  acquire(&tx_lock);
  if (panicked) /* printf owns the line now: freeze, as every other CPU path does */
    for (;;)
      ;
  while (tx_w == tx_r + TXBUF)
    sleep(&tx_r, &tx_lock);
  tx_buf[tx_w++ % TXBUF] = c;
  uartstart();
  release(&tx_lock);
}

/* polled output for printf and the console's echo; usable with interrupts
 * off (push_off keeps this CPU from taking the UART interrupt meanwhile) */
void uartputc_sync(int c)
{
  push_off();
  while (!uartdev_txready())
    ;
  uartdev_tx(c);
  pop_off();
}

/* move bytes from the ring to the device while it has room; tx_lock held.
 * When it is full the device interrupts once it has room again. */
static void uartstart(void)
{
  while (tx_w != tx_r) {
    if (!uartdev_txready())
      return;
    int c = tx_buf[tx_r++ % TXBUF];
    wakeup(&tx_r); /* a writer may be waiting for this slot */
    uartdev_tx(c);
  }
}

/* the device interrupted (trap.c's devintr): received bytes go to the
 * console, and the device may have room to transmit again */
void uartintr(void)
{
  uartdev_ack();
  for (int c; (c = uartdev_rx()) >= 0;)
    consoleintr(c);
  acquire(&tx_lock);
  uartstart();
  release(&tx_lock);
}
