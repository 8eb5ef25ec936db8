/* SPDX-License-Identifier: MIT */
/* measure: print the measurement register (docs/integrity.md, "Measured boot"): the
 * SHA-256 chain of what booted since reset, the kernel's digest (extended by the ROM) and
 * the manifest's (by the kernel), and how many extends made it. The host computes the
 * value it should be from the build's files: python3 scripts/measure.py. */
#include "kernel/types.h"
#include "user/user.h"

int main(void)
{
  static const char digit[] = "0123456789abcdef";
  uchar v[32];
  char hx[65];
  int n = measure(v);
  if (n < 0) {
    fprintf(2, "measure: no measurement register on this platform\n");
    exit(1);
  }
  for (int i = 0; i < 32; i++) {
    hx[2 * i] = digit[v[i] >> 4];
    hx[2 * i + 1] = digit[v[i] & 15];
  }
  hx[64] = 0;
  printf("measurement %s (%d extends)\n", hx, n);
  exit(0);
}
