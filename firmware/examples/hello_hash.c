/* SPDX-License-Identifier: MIT */
/*
 * hello_hash.c - a bare-metal program of your own on HashSoC (README, "Your own bare-metal
 * program"): the driver API (docs/driver-api.md) in software and on the engines, timed
 * with the CPU's machine timer.
 *
 *     make fw APP=firmware/examples/hello_hash.c                  on litex_sim
 *     make twin-fw APP=firmware/examples/hello_hash.c [BOARD=arty]   on a board's twin
 *
 * It is built like firmware/baremetal's programs (their Makefile, linker script and
 * platform.c: the ROM runs it signed, from main RAM) and prints DONE last, where the run
 * stops. tests/test_soc_firmware.py checks every digest it prints against hashlib.
 */
#include <stdio.h>

#include "board.h" /* now(), finish(), platform_check_soc() */
#include "hashsoc/hash.h"

static void line(const char *alg, const char *how, const uint8_t *d, int n, uint64_t clocks)
{
  printf("%-12s %-2s ", alg, how);
  for (int i = 0; i < n; i++)
    printf("%02x", d[i]);
  printf(" %6u clocks\n", (unsigned)clocks);
}

/* The engine when the SoC has alg's, else software. */
static int provider(int engines, int alg)
{
  return engines & (1 << hash_alg_engine(alg)) ? HASH_PROV_HW : HASH_PROV_SW;
}

int main(void)
{
  static const char msg[] = "hello";
  static const char *const prov_name[] = { "sw", "hw" };
  uint8_t d[32];
  platform_check_soc();
  int engines = hash_probe(); /* a bit per engine the SoC has (enum hash_engine_id) */

  /* One call: SHA-256 of "hello", in software and (if the SoC has it) on the engine. */
  for (int prov = HASH_PROV_SW; prov <= HASH_PROV_HW; prov++) {
    if (prov == HASH_PROV_HW && provider(engines, HASH_SHA256) != HASH_PROV_HW)
      continue;
    uint64_t t0 = now();
    int n = hash_digest(HASH_SHA256, prov, 0, msg, 5, d, sizeof d);
    uint64_t t1 = now();
    if (n > 0)
      line("SHA-256", prov_name[prov], d, n, t1 - t0);
  }

  /* A message in pieces: SHA3-256 of "hello" as "hel" + "lo". */
  struct hash_ctx c;
  int prov = provider(engines, HASH_SHA3_256);
  uint64_t t0 = now();
  int n = hash_begin(&c, HASH_SHA3_256, prov, 0);
  if (n >= 0 && (n = hash_update(&c, "hel", 3)) >= 0 && (n = hash_update(&c, "lo", 2)) >= 0)
    n = hash_final(&c, d, sizeof d);
  uint64_t t1 = now();
  if (n > 0)
    line("SHA3-256", prov_name[prov], d, n, t1 - t0);

  /* A MAC: HMAC-SHA-256 of "hello" under the key "key". */
  t0 = now();
  prov = provider(engines, HASH_SHA256);
  n = hash_hmac(HASH_SHA256, prov, 0, "key", 3, msg, 5, d, sizeof d);
  t1 = now();
  if (n > 0)
    line("HMAC-SHA-256", prov_name[prov], d, n, t1 - t0);

  printf("DONE\n");
  finish();
  return 0;
}
