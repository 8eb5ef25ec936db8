/* SPDX-License-Identifier: MIT */
/* LiteX UART: the device half of uart.c.  Registers are 32-bit CSRs 4 bytes apart from
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

void uartdev_init(void)
{
  UREG(LX_UART_EV_ENABLE) = 0;
  UREG(LX_UART_EV_PENDING) = LX_UART_EV_TX | LX_UART_EV_RX;
  UREG(LX_UART_EV_ENABLE) = LX_UART_EV_TX | LX_UART_EV_RX;
}

int uartdev_txready(void)
{
  return !UREG(LX_UART_TXFULL);
}

void uartdev_tx(int c)
{
  UREG(LX_UART_RXTX) = c;
}

/* writing the rx bit of EV_PENDING pops the RX FIFO and acknowledges */
int uartdev_rx(void)
{
  if (UREG(LX_UART_RXEMPTY))
    return -1;
  int c = UREG(LX_UART_RXTX) & 0xff;
  UREG(LX_UART_EV_PENDING) = LX_UART_EV_RX;
  return c;
}

/* the tx event (the TX FIFO became non-full) is acknowledged before the
 * FIFO is refilled, so a new edge is not lost */
void uartdev_ack(void)
{
  uint32 pend = UREG(LX_UART_EV_PENDING);
  if (pend & LX_UART_EV_TX)
    UREG(LX_UART_EV_PENDING) = LX_UART_EV_TX;
}
