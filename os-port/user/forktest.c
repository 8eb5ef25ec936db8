/* SPDX-License-Identifier: MIT */
/* fork until the process table is full, then wait for all children */
#include "kernel/types.h"
#include "user/user.h"

#define N 1000

static void print(const char *s)
{
  write(1, s, strlen(s));
}

int main(void)
{
  int n, pid;
  print("fork test\n");
  for (n = 0; n < N; n++) {
    pid = fork();
    if (pid < 0)
      break;
    if (pid == 0)
      exit(0);
  }
  if (n == N) {
    print("fork claimed to work N times!\n");
    exit(1);
  }
  for (; n > 0; n--) {
    if (wait(0) < 0) {
      print("wait stopped early\n");
      exit(1);
    }
  }
  if (wait(0) != -1) {
    print("wait got too many\n");
    exit(1);
  }
  print("fork test OK\n");
  exit(0);
}
