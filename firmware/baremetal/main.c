/* SPDX-License-Identifier: MIT */
/*
 * HashSoC bare-metal firmware: self-test, then benchmark (APP=main, the default).
 *
 * Output is one record per line so tests/test_soc_firmware.py can check every digest
 * against Python's hashlib:
 *   T <alg> <path> <msg> <len> <offset> <outlen> <hex>   a digest (path: sw, pio, dma, irq;
 *                                                        sg/sgsw: scattered pieces, whose
 *                                                        number is in the offset column)
 *   H <alg> <path> <keylen> <len> <hex>                  an HMAC (hmac_rows(): the key is
 *                                                        "pat" bytes 64.., or "dev" = the
 *                                                        device key; the message "pat")
 *   R <alg> <case> <path> <hex>                          RFC 4231's case (rfc4231.h)
 *   K <kind> <alg> <nlen> <slen> <keylen> <len> <outlen> <hex>
 *                                                        cSHAKE (C), KMAC (K), KMACXOF (X)
 *                                                        on SHAKE's sponge, sw and hw (sp800185_rows())
 *   I <alg> <path> <msg> <len> <chunk> <hex>             incremental, two contexts interleaved
 *   E <check> <got> <want> ok|FAIL                       an error-path check
 *   B <alg> <path> <len> <clocks> <core-busy-clocks>     a benchmark row
 *   C <alg> <len> <offset> <seed> <hex>                  coherence: DMA digest of bytes
 *                                                        the CPU stored just before
 *   L <what> <clocks>                                    latency: what one piece of a
 *                                                        short digest costs (latency())
 * Messages: "pat" = byte i is (i * 131 + 7) & 0xff; "hello"; "empty"; "mouna" (seed 001).
 * The run ends with "SELFTEST <p> passed, <f> failed", then "DONE", then the simulation
 * is stopped through the sim_finish CSR (when there is one).
 *
 * The groups, a file per kind: t_digest.c (known answers, every path, interleaved
 * contexts), t_errors.c, t_keyed.c (HMAC, cSHAKE, KMAC), t_lists.c (scatter-gather),
 * t_memory.c (coherence, every MiB), bench.c (B and L rows); fwtest.c what they share.
 */
#include "fwtest.h"

/* The groups, each timed: a P row with its clocks ("digests" prints one per algorithm). */
static const struct {
  const char *name;
  void (*run)(void);
} groups[] = { { "known", known_answers }, { 0, digests }, { "interleaved", interleaved_contexts },
  { "error_paths", error_paths }, { "hmac", hmac_rows }, { "sp800185", sp800185_rows },
  { "scattered", scattered }, { "in_place_lists", in_place_lists }, { "sg_refusals", sg_refusals },
  { "coherence", coherence }, { "every_mib", every_mib } };

static void selftest(void)
{
  pattern(msgbuf, MAXLEN);
  for (unsigned g = 0; g < sizeof(groups) / sizeof(groups[0]); g++) {
    uint64_t t = now();
    groups[g].run();
    if (groups[g].name)
      printf("P %s %u\n", groups[g].name, (unsigned)(now() - t));
  }
  printf("SELFTEST %d passed, %d failed\n", passed, failed);
}

int main(void)
{
  platform_check_soc();
  platform_irq_init();
  printf("\nHashSoC firmware: self-test and benchmark\n");
  int engines = hash_probe();
  printf("engines: sha256=%d keccak=%d sha512=%d\n", engines & 1, (engines >> 1) & 1, (engines >> 2) & 1);
  uint64_t t0 = now();
  selftest();
  uint64_t t1 = now();
  bench();
  uint64_t t2 = now();
  printf("CLOCKS selftest %u bench %u\n", (unsigned)(t1 - t0), (unsigned)(t2 - t1));
  printf("DONE\n");
  finish();
  return 0;
}
