/* SPDX-License-Identifier: MIT */
/*
 * HashSoC demo (make demo): the same inputs hashed by software and by the accelerators,
 * with the clocks each took, read from the CPU's 64-bit machine timer (1 tick = 1 clock).
 */
#include <stdio.h>
#include <string.h>

#include <generated/csr.h>

#include "hashsoc/hash.h"
#include "board.h"


static uint8_t big[4096] __attribute__((aligned(4)));

static void show(int alg, const char *label, const void *msg, size_t len)
{
  static const char *names[] = { "software", "hw PIO", "hw DMA" };
  static const int prov[] = { HASH_PROV_SW, HASH_PROV_HW, HASH_PROV_HW };
  static const int flags[] = { 0, HASH_F_PIO, 0 };
  uint8_t d[3][64];
  uint32_t clk[3];
  int n = 0;

  for (int p = 0; p < 3; p++) {
    uint64_t t0 = now();
    n = hash_digest(alg, prov[p], flags[p], msg, len, d[p], sizeof(d[p]));
    clk[p] = (uint32_t)(now() - t0);
    if (n < 0) {
      printf("  %s failed: %d\n", names[p], n);
      return;
    }
  }
  printf("%s of %s (%u bytes)\n  ", hash_alg_name(alg), label, (unsigned)len);
  for (int i = 0; i < n; i++)
    printf("%02x", d[0][i]);
  printf("\n");
  for (int p = 0; p < 3; p++)
    printf("  %-8s %8u clocks  %s\n", names[p], (unsigned)clk[p],
        memcmp(d[p], d[0], n) == 0 ? "same digest" : "DIFFERENT DIGEST");
  printf("  accelerator (DMA) is %u.%ux faster than software\n\n", clk[0] / clk[2],
      (clk[0] % clk[2]) * 10 / clk[2]);
}

static const char *yes(int engines, int engine)
{
  return engines & (1 << engine) ? "yes" : "no";
}

int main(void)
{
  platform_check_soc();
  platform_irq_init();
  int engines = hash_probe();
  printf("\nHashSoC demo: software vs accelerator on VexRiscv (litex_sim)\n");
  printf("engines found: SHA-256 %s, Keccak %s, SHA-512 %s\n\n", yes(engines, HASH_ENGINE_SHA256),
      yes(engines, HASH_ENGINE_KECCAK), yes(engines, HASH_ENGINE_SHA512));
  for (size_t i = 0; i < sizeof(big); i++)
    big[i] = (uint8_t)(i * 131 + 7);
  show(HASH_SHA256, "\"hello\"", "hello", 5);
  show(HASH_SHA256, "\"hallo\"", "hallo", 5);
  show(HASH_SHA3_512, "\"Mouna_Noura_ATSIP_2020\"", "Mouna_Noura_ATSIP_2020", 22);
  show(HASH_SHA256, "a 4 KiB buffer", big, sizeof(big));
  show(HASH_SHA3_256, "a 4 KiB buffer", big, sizeof(big));
  show(HASH_SHA512, "a 4 KiB buffer", big, sizeof(big));
  printf("DONE\n");
  finish();
  return 0;
}
