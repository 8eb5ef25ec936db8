/* SPDX-License-Identifier: MIT */
/*
 * The console UART, device-independent half: a transmit ring drained by the
 * device's "room to transmit" interrupt, the receive path to the console,
 * and polled output for printf. The device half (uart16550.c on QEMU,
 * uartlitex.c on LiteX, picked by os-port/Makefile) provides the uartdev_*
 * functions declared below.
 *
 * tx_lock protects the ring (tx_buf, tx_w, tx_r) and the device's transmit
 * register. A writer (uartwrite, from console write) puts a piece of bytes
 * in the ring under one hold of tx_lock and sleeps on &tx_r while the ring is
 * full; uartstart, run by a writer or by the interrupt, moves bytes to the
 * device while it has room and, if it freed any slot, wakes the writers once.
 * Both hold tx_lock, so a writer's test "ring full" and its sleep cannot miss
 * the wakeup: sleep releases tx_lock only once the writer is marked asleep.
 * A writer that finds the ring full first runs uartstart itself: the
 * interrupt that drains the ring comes only when the device's FIFO goes from
 * full to not full, so a ring filled while the FIFO had room would otherwise
 * wait for an edge that never comes. tx_w and tx_r only grow (the ring index
 * is their value modulo TXBUF); tx_w - tx_r is the number of bytes waiting.
 *
 * Why pieces: with a lock turn and a wakeup() (a walk of the process table)
 * per byte, a byte of console output cost the kernel ~2k clocks, slower than
 * the boards' 1 Mbaud line (600 clocks a byte at 60 MHz).
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

/* buffered output for write(): n bytes into the ring; sleeps while it is full */
void uartwrite(const char *s, int n)
{
  acquire(&tx_lock);
  if (panicked) /* printf owns the line now: freeze, as every other CPU path does */
    for (;;)
      ;
  for (int i = 0; i < n; i++) {
    while (tx_w == tx_r + TXBUF) {
      uartstart(); /* the device may have room, and then no interrupt is coming */
      if (tx_w == tx_r + TXBUF)
        sleep(&tx_r, &tx_lock);
    }
    tx_buf[tx_w++ % TXBUF] = s[i];
  }
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
  uint r = tx_r;
  while (tx_w != tx_r && uartdev_txready())
    uartdev_tx(tx_buf[tx_r++ % TXBUF]);
  if (tx_r != r)
    wakeup(&tx_r); /* a writer may be waiting for the slots just freed */
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
