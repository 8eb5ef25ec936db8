/* SPDX-License-Identifier: MIT */
#include "types.h"

void *memset(void *dst, int c, uint n)
{
  uchar *d = dst;
  uint32 w = (uchar)c;
  w |= w << 8;
  w |= w << 16;
  while (n && ((uintptr)d & 3)) {
    *d++ = c;
    n--;
  }
  while (n >= 16) {
    uint32 *q = (uint32 *)d;
    q[0] = w;
    q[1] = w;
    q[2] = w;
    q[3] = w;
    d += 16;
    n -= 16;
  }
  while (n--)
    *d++ = c;
  return dst;
}

int memcmp(const void *v1, const void *v2, uint n)
{
  const uchar *a = v1, *b = v2;
  for (; n; n--, a++, b++)
    if (*a != *b)
      return *a - *b;
  return 0;
}

/* 1 if a and b are equal: every byte is looked at whatever the others
 * are, so the time taken does not tell how many leading bytes of a MAC
 * someone guessed right (integrity.c, khash.c) */
int memeq_ct(const void *a, const void *b, uint n)
{
  const uchar *x = a, *y = b;
  uchar d = 0;
  for (uint i = 0; i < n; i++)
    d |= x[i] ^ y[i];
  return d == 0;
}

void *memmove(void *dst, const void *src, uint n)
{
  const uchar *s = src;
  uchar *d = dst;
  if (n == 0 || d == s)
    return dst;
  if (s < d && s + n > d) { /* overlap: copy backwards */
    s += n;
    d += n;
    while (n--)
      *--d = *--s;
    return dst;
  }
  if ((((uintptr)s | (uintptr)d) & 3) == 0) {
    /* 16 bytes a round first: the loads and stores back to back, one
     * loop test for four words (a RAM-disk block is 1 KiB) */
    while (n >= 16) {
      uint32 a = ((const uint32 *)s)[0], b = ((const uint32 *)s)[1];
      uint32 c = ((const uint32 *)s)[2], e = ((const uint32 *)s)[3];
      ((uint32 *)d)[0] = a;
      ((uint32 *)d)[1] = b;
      ((uint32 *)d)[2] = c;
      ((uint32 *)d)[3] = e;
      d += 16;
      s += 16;
      n -= 16;
    }
    while (n >= 4) {
      *(uint32 *)d = *(const uint32 *)s;
      d += 4;
      s += 4;
      n -= 4;
    }
  }
  while (n--)
    *d++ = *s++;
  return dst;
}

void *memcpy(void *dst, const void *src, uint n)
{
  return memmove(dst, src, n);
}

int strncmp(const char *p, const char *q, uint n)
{
  for (; n && *p && *p == *q; n--, p++, q++)
    ;
  if (n == 0)
    return 0;
  return (uchar)*p - (uchar)*q;
}

char *strncpy(char *s, const char *t, int n)
{
  char *r = s;
  while (n > 0 && (*s = *t) != 0) {
    s++;
    t++;
    n--;
  }
  while (n-- > 1)
    *++s = 0;
  return r;
}

/* like strncpy but always NUL-terminates */
char *safestrcpy(char *s, const char *t, int n)
{
  char *r = s;
  if (n <= 0)
    return r;
  while (--n > 0 && (*s = *t) != 0) {
    s++;
    t++;
  }
  *s = 0;
  return r;
}

int strlen(const char *s)
{
  int n = 0;
  while (s[n])
    n++;
  return n;
}
