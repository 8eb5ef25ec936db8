/* SPDX-License-Identifier: MIT */
#include <stdarg.h>
#include "kernel/types.h"
#include "user/user.h"

/* output is collected in a small buffer and written in one write()
 * per call, so that lines from concurrent processes do not interleave */
struct out {
  int fd;
  int n;
  char buf[256]; /* a digest line of 100 bytes in hex and its label */
};

static void flush(struct out *o)
{
  if (o->n > 0)
    write(o->fd, o->buf, o->n);
  o->n = 0;
}

static void put(struct out *o, char c)
{
  if (o->n == sizeof(o->buf))
    flush(o);
  o->buf[o->n++] = c;
}

/* the digits of x in base 10 or 16, after a '-' if neg, into t; returns
 * their number (at most 21) */
static int fmtnum(char *t, uint64 x, int base, int neg)
{
  static const char digits[] = "0123456789abcdef";
  char r[20];
  int m = 0, n = 0;
  do {
    r[m++] = digits[x % base];
    x /= base;
  } while (x);
  if (neg)
    t[n++] = '-';
  while (m)
    t[n++] = r[--m];
  return n;
}

static void putnum(struct out *o, uint64 x, int base, int sgn)
{
  char t[24];
  int neg = sgn && (int64)x < 0;
  int n = fmtnum(t, neg ? -(int64)x : x, base, neg);
  for (int k = 0; k < n; k++)
    put(o, t[k]);
}

static void vprintf(int fd, const char *fmt, va_list ap)
{
  struct out o;
  o.fd = fd;
  o.n = 0;
  for (int i = 0; fmt[i]; i++) {
    char c = fmt[i];
    if (c != '%') {
      put(&o, c);
      continue;
    }
    c = fmt[++i];
    /* field width: %-20s, %12llu, %02llu */
    int left = 0, zero = 0, width = 0;
    if (c == '-') {
      left = 1;
      c = fmt[++i];
    }
    if (c == '0') {
      zero = 1;
      c = fmt[++i];
    }
    while (c >= '0' && c <= '9') {
      width = width * 10 + (c - '0');
      c = fmt[++i];
    }
    if (width) {
      char t[64];
      int n = 0, k;
      const char *str = 0;
      if (c == 'l' && fmt[i + 1] == 'l') {
        i += 2;
        c = fmt[i];
        if (c == 'd' || c == 'u' || c == 'x') {
          uint64 v = va_arg(ap, uint64);
          int neg = c == 'd' && (int64)v < 0;
          n = fmtnum(t, neg ? -(int64)v : v, c == 'x' ? 16 : 10, neg);
        }
      } else if (c == 'd' || c == 'u' || c == 'x') {
        uint32 v = va_arg(ap, uint32);
        int neg = c == 'd' && (int)v < 0;
        n = fmtnum(t, neg ? -(int)v : v, c == 'x' ? 16 : 10, neg);
      } else if (c == 's') {
        str = va_arg(ap, const char *);
        if (str == 0)
          str = "(null)";
        while (str[n])
          n++;
      } else if (c == 0) {
        break;
      }
      if (!left)
        for (k = n; k < width; k++)
          put(&o, zero ? '0' : ' ');
      for (k = 0; k < n; k++)
        put(&o, str ? str[k] : t[k]);
      if (left)
        for (k = n; k < width; k++)
          put(&o, ' ');
      continue;
    }
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
    if (c == 'd') {
      if (lng)
        putnum(&o, va_arg(ap, int64), 10, 1);
      else
        putnum(&o, (int64)va_arg(ap, int), 10, 1);
    } else if (c == 'u') {
      if (lng)
        putnum(&o, va_arg(ap, uint64), 10, 0);
      else
        putnum(&o, va_arg(ap, uint32), 10, 0);
    } else if (c == 'x') {
      if (lng)
        putnum(&o, va_arg(ap, uint64), 16, 0);
      else
        putnum(&o, va_arg(ap, uint32), 16, 0);
    } else if (c == 'p') {
      uint32 v = (uint32)va_arg(ap, void *);
      put(&o, '0');
      put(&o, 'x');
      for (int k = 28; k >= 0; k -= 4)
        put(&o, "0123456789abcdef"[(v >> k) & 0xf]);
    } else if (c == 's') {
      const char *s = va_arg(ap, const char *);
      if (s == 0)
        s = "(null)";
      while (*s)
        put(&o, *s++);
    } else if (c == 'c') {
      put(&o, va_arg(ap, int));
    } else if (c == '%') {
      put(&o, '%');
    } else {
      put(&o, '%');
      put(&o, c);
    }
  }
  flush(&o);
}

void fprintf(int fd, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vprintf(fd, fmt, ap);
  va_end(ap);
}

void printf(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vprintf(1, fmt, ap);
  va_end(ap);
}
