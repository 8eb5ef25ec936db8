/* SPDX-License-Identifier: MIT */
#include "kernel/types.h"
#include "kernel/stat.h"
#include "kernel/fcntl.h"
#include "user/user.h"

/* program entry: exec() leaves argc in a0 and argv in a1 */
__attribute__((section(".text.start"))) void _start(int argc, char **argv)
{
  extern int main(int, char **);
  exit(main(argc, argv));
}

char *strcpy(char *s, const char *t)
{
  char *os = s;
  while ((*s++ = *t++) != 0)
    ;
  return os;
}

int strcmp(const char *p, const char *q)
{
  while (*p && *p == *q)
    p++, q++;
  return (uchar)*p - (uchar)*q;
}

int strncmp(const char *p, const char *q, int n)
{
  for (; n > 0; n--, p++, q++) {
    if (*p != *q || *p == 0)
      return (uchar)*p - (uchar)*q;
  }
  return 0;
}

uint strlen(const char *s)
{
  uint n = 0;
  while (s[n])
    n++;
  return n;
}

void *memset(void *dst, int c, uint n)
{
  char *d = dst;
  for (uint i = 0; i < n; i++)
    d[i] = c;
  return dst;
}

char *strchr(const char *s, char c)
{
  for (; *s; s++)
    if (*s == c)
      return (char *)s;
  return 0;
}

char *gets(char *buf, int max)
{
  int i;
  for (i = 0; i + 1 < max;) {
    char c;
    if (read(0, &c, 1) < 1)
      break;
    buf[i++] = c;
    if (c == '\n' || c == '\r')
      break;
  }
  buf[i] = 0;
  return buf;
}

int stat(const char *n, struct stat *st)
{
  int fd = open(n, O_RDONLY);
  if (fd < 0)
    return -1;
  int r = fstat(fd, st);
  close(fd);
  return r;
}

int atoi(const char *s)
{
  int n = 0, neg = 0;
  if (*s == '-') {
    neg = 1;
    s++;
  }
  while ('0' <= *s && *s <= '9')
    n = n * 10 + *s++ - '0';
  return neg ? -n : n;
}

void *memmove(void *vdst, const void *vsrc, int n)
{
  char *dst = vdst;
  const char *src = vsrc;
  if (src > dst) {
    while (n-- > 0)
      *dst++ = *src++;
  } else {
    dst += n;
    src += n;
    while (n-- > 0)
      *--dst = *--src;
  }
  return vdst;
}

int memcmp(const void *s1, const void *s2, uint n)
{
  const uchar *p1 = s1, *p2 = s2;
  for (; n; n--, p1++, p2++)
    if (*p1 != *p2)
      return *p1 - *p2;
  return 0;
}

void *memcpy(void *dst, const void *src, uint n)
{
  return memmove(dst, src, n);
}
