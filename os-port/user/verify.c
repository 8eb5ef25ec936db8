/* SPDX-License-Identifier: MIT */
/* verify: check /manifest (its MAC under the device key) and every file it
 * lists, now. The kernel prints a line per failure and the summary line,
 * as at boot (docs/integrity.md); exit 1 if anything failed. */
#include "kernel/types.h"
#include "user/user.h"

int main(void)
{
  int failed = verify();
  exit(failed != 0);
}
