/* SPDX-License-Identifier: MIT */
/* Kernel formatted output: %d %u %x %p %s %c %%, and the ll prefix
 * (%lld %llu %llx) for 64-bit values (%l alone is 32-bit on RV32). */
#include <stdarg.h>
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

volatile int panicked = 0;

static struct {
  struct spinlock lock;
  int locking;
} pr;

static const char digits[] = "0123456789abcdef";

static void printnum(uint64 x, int base, int sign)
{
  char buf[24];
  int i = 0, neg = 0;
  if (sign && (int64)x < 0) {
    neg = 1;
    x = -(int64)x;
  }
  do {
    buf[i++] = digits[x % base];
    x /= base;
  } while (x);
  if (neg)
    buf[i++] = '-';
  while (--i >= 0)
    consputc(buf[i]);
}

static void vprintf(const char *fmt, va_list ap)
{
  for (int i = 0; fmt[i]; i++) {
    char c = fmt[i];
    if (c != '%') {
      consputc(c);
      continue;
    }
    c = fmt[++i];
    int lng = 0; /* %l is 32-bit (long) on RV32, %ll 64-bit */
    if (c == 'l') {
      c = fmt[++i];
      if (c == 'l') {
        lng = 1;
        c = fmt[++i];
      }
    }
    if (c == 0)
      break;
    switch (c) {
    case 'd':
      if (lng)
        printnum(va_arg(ap, int64), 10, 1);
      else
        printnum((int64)va_arg(ap, int), 10, 1);
      break;
    case 'u':
      if (lng)
        printnum(va_arg(ap, uint64), 10, 0);
      else
        printnum(va_arg(ap, uint32), 10, 0);
      break;
    case 'x':
      if (lng)
        printnum(va_arg(ap, uint64), 16, 0);
      else
        printnum(va_arg(ap, uint32), 16, 0);
      break;
    case 'p': {
      uint32 v = (uint32)va_arg(ap, void *);
      consputc('0');
      consputc('x');
      for (int k = 28; k >= 0; k -= 4)
        consputc(digits[(v >> k) & 0xf]);
      break;
    }
    case 's': {
      const char *s = va_arg(ap, const char *);
      if (!s)
        s = "(null)";
      while (*s)
        consputc(*s++);
      break;
    }
    case 'c':
      consputc(va_arg(ap, int));
      break;
    case '%':
      consputc('%');
      break;
    default:
      consputc('%');
      consputc(c);
      break;
    }
  }
}

int printf(const char *fmt, ...)
{
  va_list ap;
  int locking = pr.locking;
  if (locking)
    acquire(&pr.lock);
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  if (locking)
    release(&pr.lock);
  return 0;
}

void panic(const char *fmt, ...)
{
  va_list ap;
  pr.locking = 0;
  consputc('\n');
  const char *h = "panic: ";
  while (*h)
    consputc(*h++);
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  consputc('\n');
  panicked = 1; /* freeze uart output from other code paths */
  for (;;)
    ;
}

void printfinit(void)
{
  initlock(&pr.lock, "pr");
  pr.locking = 1;
}
