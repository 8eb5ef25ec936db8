/* SPDX-License-Identifier: MIT */
/* grep PATTERN [FILE...]: regular expressions with ^ $ . and *
 * Exit status as POSIX grep's, so that `grep ... && ...` and `|| ...` work: 0 when a
 * line was selected, 1 when none was, 2 on an error (a file that cannot be opened is
 * reported and skipped; the others are still read). */
#include "kernel/types.h"
#include "kernel/fcntl.h"
#include "user/user.h"

static int matchhere(const char *re, const char *text);

/* c* at the start of re, then the rest */
static int matchstar(int c, const char *re, const char *text)
{
  do {
    if (matchhere(re, text))
      return 1;
  } while (*text != 0 && (*text++ == c || c == '.'));
  return 0;
}

static int matchhere(const char *re, const char *text)
{
  if (re[0] == 0)
    return 1;
  if (re[1] == '*')
    return matchstar(re[0], re + 2, text);
  if (re[0] == '$' && re[1] == 0)
    return *text == 0;
  if (*text != 0 && (re[0] == '.' || re[0] == *text))
    return matchhere(re + 1, text + 1);
  return 0;
}

static int match(const char *re, const char *text)
{
  if (re[0] == '^')
    return matchhere(re + 1, text);
  do {
    if (matchhere(re, text))
      return 1;
  } while (*text++ != 0);
  return 0;
}

static char buf[1024];

/* prints the lines of fd that match; returns how many did */
static int grep(const char *pattern, int fd)
{
  int n, m = 0, found = 0;
  while ((n = read(fd, buf + m, sizeof(buf) - m - 1)) > 0) {
    m += n;
    buf[m] = 0;
    char *p = buf, *q;
    while ((q = strchr(p, '\n')) != 0) {
      *q = 0;
      if (match(pattern, p)) {
        *q = '\n';
        write(1, p, q + 1 - p);
        found++;
      }
      p = q + 1;
    }
    if (m > 0) {
      m -= p - buf;
      memmove(buf, p, m);
      if (m == (int)sizeof(buf) - 1)
        m = 0; /* an over-long line: drop it */
    }
  }
  if (m > 0) { /* last line without a newline */
    buf[m] = 0;
    if (match(pattern, buf)) {
      write(1, buf, m);
      write(1, "\n", 1);
      found++;
    }
  }
  return found;
}

int main(int argc, char *argv[])
{
  if (argc <= 1) {
    fprintf(2, "usage: grep pattern [file ...]\n");
    exit(2);
  }
  if (argc <= 2)
    exit(grep(argv[1], 0) ? 0 : 1);
  int found = 0, error = 0;
  for (int i = 2; i < argc; i++) {
    int fd = open(argv[i], O_RDONLY);
    if (fd < 0) {
      fprintf(2, "grep: cannot open %s\n", argv[i]);
      error = 1;
      continue;
    }
    found += grep(argv[1], fd);
    close(fd);
  }
  exit(error ? 2 : found ? 0 : 1);
}
