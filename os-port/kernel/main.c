/* SPDX-License-Identifier: MIT */
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
  w_tp(0); /* hart id: single-hart kernel */
  consoleinit();
  printfinit();
  socidcheck(); /* before anything else touches the SoC: the wrong one stops here */
  printf(
      "\nxv6-rv32 kernel booting (%s, Sv32, %d Hz ticks, %d Hz timebase)\n", PLAT_NAME, TICK_HZ, TIMEBASE_HZ);
  printf("memory: %d KiB RAM at %p\n", RAM_SIZE / 1024, (void *)RAM_BASE);
  /* how long the loader took (BIOS, serial upload): boot-time figures, docs/boards.md */
  printf("kernel: entered %u ms after reset\n", (uint32)(r_time64() / (TIMEBASE_HZ / 1000)));
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
