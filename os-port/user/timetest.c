/* SPDX-License-Identifier: MIT */
/* timetest [ticks]: checks the user-space `time` counter (csrr time/timeh,
 * emulated by machine mode unless the kernel was built with NATIVE_TIME).
 *  1. consecutive 64-bit reads never go backwards;
 *  2. the 32-bit read agrees with the 64-bit one;
 *  3. sleep(N ticks) advances the counter by about N * TIMEBASE/TICK_HZ. */
#include "kernel/types.h"
#include "user/user.h"

#define NREADS 2000

int main(int argc, char *argv[])
{
  int nticks = argc > 1 ? atoi(argv[1]) : XV_TICK_HZ / 2;
  int ok = 1;
  if (nticks < 2)
    nticks = 2;
  printf("timetest: timebase %d Hz, tick %d Hz\n", XV_TIMEBASE_HZ, XV_TICK_HZ);

  uint64 prev = rdtime64(), first = prev, maxstep = 0;
  int backwards = 0;
  for (int i = 0; i < NREADS; i++) {
    uint64 t = rdtime64();
    if (t < prev)
      backwards++;
    else if (t - prev > maxstep)
      maxstep = t - prev;
    prev = t;
  }
  printf("timetest: %d reads, %d went backwards, %llu clocks in all, max step %llu\n", NREADS, backwards,
      prev - first, maxstep);
  if (backwards) {
    printf("timetest: FAIL: time is not monotonic\n");
    ok = 0;
  } else {
    printf("timetest: monotonic OK\n");
  }

  uint64 a = rdtime64();
  uint32 lo = rdtime32();
  uint64 b = rdtime64();
  if ((uint32)(lo - (uint32)a) > (uint32)(b - a)) {
    printf("timetest: FAIL: 32-bit read %u outside [%u, %u]\n", lo, (uint32)a, (uint32)b);
    ok = 0;
  }

  /* line up with a tick edge, then sleep */
  sleep(1);
  int u0 = uptime();
  uint64 t0 = rdtime64();
  sleep(nticks);
  uint64 t1 = rdtime64();
  int u1 = uptime();
  uint64 elapsed = t1 - t0;
  uint64 expect = (uint64)nticks * XV_TIMEBASE_HZ / XV_TICK_HZ;
  uint32 pct = (uint32)(elapsed * 1000 / expect); /* per mille */
  printf("timetest: sleep(%d) took %d ticks, %llu clocks, expected %llu (%d.%d%%)\n", nticks, u1 - u0,
      elapsed, expect, pct / 10, pct % 10);
  /* sleep(n) returns after n to n+1 tick interrupts; allow scheduling slack */
  if (elapsed * 10 < expect * 8 || elapsed * 10 > expect * 14) {
    printf("timetest: FAIL: elapsed time does not match the tick rate\n");
    ok = 0;
  }
  printf(ok ? "timetest: OK\n" : "timetest: FAILED\n");
  exit(ok ? 0 : 1);
}
