/* Supervisor-mode kernel entry (from sentry in mstart.S). */
#include "types.h"
#include "param.h"
#include "memlayout.h"
#include "riscv.h"
#include "sbi.h"
#include "defs.h"
#include "khash.h"

void main(void)
{
  w_tp(0);   /* hart id: single-hart kernel */
  consoleinit();
  printfinit();
  printf("\nxv6-rv32 kernel booting (%s, Sv32, %d Hz ticks, %d Hz timebase)\n",
         PLAT_NAME, TICK_HZ, TIMEBASE_HZ);
  kinit();
  kvminit();
  kvminithart();
  procinit();
  trapinit();
  trapinithart();
  binit();
  iinit();
  fileinit();
  ramdiskinit();
  khashinit();
  khash_bootbench();
  userinit();
  printf("free pages: %u\n", kfreepages());
  scheduler();
}

/* the boot stack of the supervisor kernel (sentry) */
__attribute__((aligned(16))) char stack0[4096 * NCPU];
