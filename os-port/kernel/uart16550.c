/* 16550 UART driver (QEMU virt).  Output goes through a small ring that
 * the transmit-holding-register-empty interrupt drains; input arrives by
 * interrupt (PLIC -> machine mode -> SSIP, see mtrap.c) and goes to the
 * console. */
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

extern volatile int panicked;

static struct spinlock tx_lock;
#define TXBUF 32
static char tx_buf[TXBUF];
static uint tx_w, tx_r;

static void uartstart(void);

void uartinit(void)
{
  wr(IER, 0);
  wr(LCR, LCR_DLAB);
  wr(0, 3);      /* divisor low: 38400 baud */
  wr(1, 0);      /* divisor high */
  wr(LCR, 3);    /* 8 bits, no parity, one stop bit */
  wr(FCR, 0x07); /* enable and clear FIFOs */
  wr(IER, IER_RX | IER_TX);
  initlock(&tx_lock, "uart");
}

/* buffered output for write(); sleeps while the ring is full */
void uartputc(int c)
{
  acquire(&tx_lock);
  if (panicked)
    for (;;)
      ;
  while (tx_w == tx_r + TXBUF)
    sleep(&tx_r, &tx_lock);
  tx_buf[tx_w++ % TXBUF] = c;
  uartstart();
  release(&tx_lock);
}

/* polled output for printf and echo; usable with interrupts off */
void uartputc_sync(int c)
{
  push_off();
  while ((rd(LSR) & LSR_THR_EMPTY) == 0)
    ;
  wr(THR, c);
  pop_off();
}

/* move characters from the ring to the UART; tx_lock held */
static void uartstart(void)
{
  while (tx_w != tx_r) {
    if ((rd(LSR) & LSR_THR_EMPTY) == 0)
      return; /* the THRE interrupt will call us again */
    int c = tx_buf[tx_r++ % TXBUF];
    wakeup(&tx_r);
    wr(THR, c);
  }
}

static int uartgetc(void)
{
  if (rd(LSR) & LSR_RX_READY)
    return rd(RHR);
  return -1;
}

void uartintr(void)
{
  (void)rd(IIR); /* acknowledge a THRE interrupt */
  for (;;) {
    int c = uartgetc();
    if (c < 0)
      break;
    consoleintr(c);
  }
  acquire(&tx_lock);
  uartstart();
  release(&tx_lock);
}
