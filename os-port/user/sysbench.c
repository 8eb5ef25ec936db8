/* SPDX-License-Identifier: MIT */
/* sysbench [n]: costs in `time` clocks (TIMEBASE_HZ) of
 *   - one emulated time read (csrr time), averaged over n;
 *   - one 64-bit read (timeh, time, timeh);
 *   - one null system call round trip (getpid), averaged over n.
 * The loop overhead is measured and reported separately. */
#include "kernel/types.h"
#include "user/user.h"

static void report(const char *what, uint64 clocks, int n)
{
  uint64 x100 = clocks * 100 / n;
  uint32 ns = (uint32)(clocks * 1000000000ULL / XV_TIMEBASE_HZ / n);
  printf("sysbench: %s: %llu.%d%d clocks (%u ns) per op, %llu clocks for %d\n", what, x100 / 100,
      (int)(x100 / 10 % 10), (int)(x100 % 10), ns, clocks, n);
}

int main(int argc, char *argv[])
{
  int n = argc > 1 ? atoi(argv[1]) : 10000;
  if (n <= 0)
    n = 1;
  printf("sysbench: n=%d, timebase %d Hz\n", n, XV_TIMEBASE_HZ);
  volatile int sink = 0;

  uint64 t0 = rdtime64();
  for (int i = 0; i < n; i++)
    sink += i;
  uint64 loop = rdtime64() - t0;
  report("empty loop", loop, n);

  t0 = rdtime64();
  for (int i = 0; i < n; i++)
    sink += rdtime32();
  uint64 tr = rdtime64() - t0;
  report("time read (csrr time)", tr, n);

  t0 = rdtime64();
  for (int i = 0; i < n; i++)
    sink += (int)rdtime64();
  uint64 tr64 = rdtime64() - t0;
  report("rdtime64 (timeh,time,timeh)", tr64, n);

  t0 = rdtime64();
  for (int i = 0; i < n; i++)
    sink += getpid();
  uint64 sc = rdtime64() - t0;
  report("null syscall (getpid)", sc, n);
  exit(0);
}
