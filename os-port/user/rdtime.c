/* SPDX-License-Identifier: MIT */
#include "kernel/types.h"
#include "user/user.h"

uint64 rdtime64(void)
{
  uint32 hi, lo, hi2;
  for (;;) {
    asm volatile("csrr %0, timeh" : "=r"(hi));
    asm volatile("csrr %0, time" : "=r"(lo));
    asm volatile("csrr %0, timeh" : "=r"(hi2));
    if (hi == hi2)
      return ((uint64)hi << 32) | lo;
  }
}
