/* SPDX-License-Identifier: MIT */
/* Console: line-buffered input from the UART (with ^H, ^U, ^D, ^P) and
 * output to the UART.  Reads and writes reach it through devsw[CONSOLE]. */
#include "types.h"
#include "param.h"
#include "spinlock.h"
#include "sleeplock.h"
#include "fs.h"
#include "file.h"
#include "memlayout.h"
#include "riscv.h"
#include "defs.h"
#include "proc.h"

#define BACKSPACE 0x100
#define CTRL(x)   ((x) - '@')

/* used by printf and echo: synchronous output */
void consputc(int c)
{
  if (c == BACKSPACE) {
    uartputc_sync('\b');
    uartputc_sync(' ');
    uartputc_sync('\b');
  } else {
    uartputc_sync(c);
  }
}

/* The input line editor. buf is a ring indexed by r <= w <= e, which only
 * grow (the slot is the index modulo INPUT_BUF): [r, w) are complete lines
 * a reader may take, [w, e) the line being typed, which ^H and ^U edit and
 * which becomes readable (w = e) at a newline, a ^D or a full buffer.
 * cons.lock protects all of it. consoleintr runs in the UART interrupt and
 * takes the lock there: that is safe because acquire() turns interrupts off
 * on this CPU, so no reader holding it can be interrupted by the console.
 * A reader sleeps on &cons.r with the lock held until w moves; consoleintr
 * moves w and calls wakeup under the same lock, so the wakeup cannot fall
 * between the reader's test and its sleep. */
#define INPUT_BUF 256 /* a line with a SHA-512 MAC's 128 hex digits fits (sh's line too) */
static struct {
  struct spinlock lock;
  char buf[INPUT_BUF];
  uint r; /* read index */
  uint w; /* write index: end of the last complete line */
  uint e; /* edit index */
} cons;

/* One write() at a time: held across a write's copy into the UART's ring, so
 * the bytes of one write() reach the line together, and the lines of
 * concurrent processes (user printf makes one write() per call) do not
 * interleave. A sleep lock, because the holder sleeps in uartwrite while the
 * ring is full. Kernel printf (consputc) does not take it: a kernel message
 * goes out at once, even in the middle of a user's line. */
static struct sleeplock wlock;

/* write(): copied in pieces of up to 64 bytes into the UART's ring, which may
 * sleep while it is full (uart.c), under wlock */
static int consolewrite(int user_src, uintptr src, int n)
{
  char piece[64];
  int i = 0;
  acquiresleep(&wlock);
  while (i < n) {
    /* a piece never crosses a page, so a bad page stops the write exactly
     * where it starts, as a byte-at-a-time copy would */
    uint m = PGSIZE - (src + i) % PGSIZE;
    if (m > sizeof piece)
      m = sizeof piece;
    if (m > (uint)(n - i))
      m = n - i;
    if (either_copyin(piece, user_src, src + i, m) == -1)
      break;
    uartwrite(piece, m);
    i += m;
  }
  releasesleep(&wlock);
  return i;
}

/* read(): up to n bytes, at most one line; sleeps until a line is complete.
 * A killed process stops waiting (its read returns -1). */
static int consoleread(int user_dst, uintptr dst, int n)
{
  int want = n;
  acquire(&cons.lock);
  while (n > 0) {
    while (cons.r == cons.w) {
      if (killed(myproc())) {
        release(&cons.lock);
        return -1;
      }
      sleep(&cons.r, &cons.lock);
    }
    int c = cons.buf[cons.r++ % INPUT_BUF];
    if (c == CTRL('D')) {
      if (n < want)
        cons.r--; /* keep ^D for the next read so that it returns 0 */
      break;
    }
    char cc = c;
    if (either_copyout(user_dst, dst, &cc, 1) == -1)
      break;
    dst++;
    n--;
    if (c == '\n')
      break;
  }
  release(&cons.lock);
  return want - n;
}

/* called by the UART driver for every input character */
void consoleintr(int c)
{
  acquire(&cons.lock);
  switch (c) {
  case CTRL('P'):
    procdump();
    break;
  case CTRL('U'):
    while (cons.e != cons.w && cons.buf[(cons.e - 1) % INPUT_BUF] != '\n') {
      cons.e--;
      consputc(BACKSPACE);
    }
    break;
  case CTRL('H'):
  case '\x7f':
    if (cons.e != cons.w) {
      cons.e--;
      consputc(BACKSPACE);
    }
    break;
  default:
    if (c != 0 && cons.e - cons.r < INPUT_BUF) {
      if (c == '\r')
        c = '\n';
      consputc(c);
      cons.buf[cons.e++ % INPUT_BUF] = c;
      if (c == '\n' || c == CTRL('D') || cons.e - cons.r == INPUT_BUF) {
        cons.w = cons.e;
        wakeup(&cons.r);
      }
    }
    break;
  }
  release(&cons.lock);
}

void consoleinit(void)
{
  initlock(&cons.lock, "cons");
  initsleeplock(&wlock, "conswrite");
  uartinit();
  devsw[CONSOLE].read = consoleread;
  devsw[CONSOLE].write = consolewrite;
}
