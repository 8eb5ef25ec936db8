/* SPDX-License-Identifier: MIT */
/* Is this the SoC the kernel was built for?
 *
 * The kernel is compiled against one LiteX SoC's generated headers: the engines' register
 * addresses, the timer's rate and the RAM size all come from them. On another SoC the
 * kernel would still print (the UART sits at the same CSR location on every HashSoC) but
 * its timer would run at the wrong rate and its engine stores would land in some other
 * peripheral. So main() calls socidcheck() right after the console is up and before
 * anything else touches the hardware: on a mismatch it prints one line (what the kernel was
 * built for, what it found; firmware/libhash/include/hashsoc/soc_id.h) and stops the CPU.
 *
 * QEMU's virt machine is not a LiteX SoC and has nothing to check. */
#include "types.h"
#include "param.h"
#include "riscv.h"
#include "defs.h"

#ifdef PLATFORM_LITEX
#include "hash_plat_kernel.h"
#include "hashsoc/soc_id.h"

void socidcheck(void)
{
  uint32_t found;
  char ident[64];

  if (hashsoc_soc_check(&found, ident, sizeof(ident)) == 0)
    return;
  printf(HASHSOC_SOC_MISMATCH_FMT, CONFIG_IDENTIFIER, (uint32)CONFIG_SOC_ID, ident, (uint32)found);
  /* Stop for good: no interrupt is wanted (stvec is not even set yet). */
  intr_off();
  for (;;)
    asm volatile("wfi");
}
#else
void socidcheck(void) {}
#endif
