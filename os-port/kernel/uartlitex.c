/* LiteX UART driver.  Registers are 32-bit CSRs 4 bytes apart from
 * CSR_UART_BASE.  Events (EV_*): bit 0 tx (TX FIFO became non-full),
 * bit 1 rx (RX FIFO became non-empty); both are edge events, so they are
 * acknowledged before the FIFOs are serviced.  Writing the rx bit of
 * EV_PENDING also pops the RX FIFO. */
#include "types.h"
#include "param.h"
#include "memlayout.h"
#include "riscv.h"
#include "spinlock.h"
#include "proc.h"
#include "defs.h"

#define UREG(off) (*(volatile uint32 *)((uintptr)CSR_UART_BASE + (off)))

extern volatile int panicked;

static struct spinlock tx_lock;
#define TXBUF 32
static char tx_buf[TXBUF];
static uint tx_w, tx_r;

static void uartstart(void);

void uartinit(void)
{
  UREG(LX_UART_EV_ENABLE) = 0;
  UREG(LX_UART_EV_PENDING) = LX_UART_EV_TX | LX_UART_EV_RX;
  UREG(LX_UART_EV_ENABLE) = LX_UART_EV_TX | LX_UART_EV_RX;
  initlock(&tx_lock, "uart");
}

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

void uartputc_sync(int c)
{
  push_off();
  while (UREG(LX_UART_TXFULL))
    ;
  UREG(LX_UART_RXTX) = c;
  pop_off();
}

static void uartstart(void)
{
  while (tx_w != tx_r) {
    if (UREG(LX_UART_TXFULL))
      return; /* the tx event fires when the FIFO has room again */
    int c = tx_buf[tx_r++ % TXBUF];
    wakeup(&tx_r);
    UREG(LX_UART_RXTX) = c;
  }
}

void uartintr(void)
{
  uint32 pend = UREG(LX_UART_EV_PENDING);
  if (pend & LX_UART_EV_TX)
    UREG(LX_UART_EV_PENDING) = LX_UART_EV_TX;
  while (!UREG(LX_UART_RXEMPTY)) {
    int c = UREG(LX_UART_RXTX) & 0xff;
    UREG(LX_UART_EV_PENDING) = LX_UART_EV_RX; /* pop + acknowledge */
    consoleintr(c);
  }
  acquire(&tx_lock);
  uartstart();
  release(&tx_lock);
}
