/* SPDX-License-Identifier: MIT */
#include "kernel/types.h"
#include "user/user.h"

int main(void)
{
  int t = uptime();
  printf(
      "up %d ticks (%d.%d s at %d Hz)\n", t, t / XV_TICK_HZ, (t % XV_TICK_HZ) * 100 / XV_TICK_HZ, XV_TICK_HZ);
  exit(0);
}
