/* SPDX-License-Identifier: MIT */
/*
 * dmacontend: what a running DMA and the CPU cost each other (docs/hash-syscall.md,
 * "Bulk throughput"). `make bench` runs it on both targets into docs/bench.json and
 * docs/bench.md ("The DMA against the CPU"); by hand:
 *
 *   python -m soc.runfw --app dmacontend --target ulx3s-twin      (or sim)
 *
 * 64 KiB through each engine, warm (the best of two runs), in one DMA command and as
 * scatter-gather lists of 4096/2048/512-byte pieces in reverse, forward and scattered
 * order; then the 4 KiB list again while the CPU, between hash_update_segs_nowait and
 * hash_final, reads (cpu=1) or stores to (cpu=2) every 32nd byte of another 64 KiB.
 * One line per run: "X <alg> <how> piece=<bytes> order=<0 rev|1 fwd|2 scattered>
 * cpu=<0|1|2> clocks=<all> busy=<core busy clocks> submit=<clocks in the nowait call> ok",
 * "ok" when every digest of the run equals the one-command digest (and that one the
 * software's); tests/test_soc_firmware.py runs it on both targets and checks that.
 */
#include <stdio.h>
#include <string.h>

#include "hashsoc/hash.h"
#include "board.h"

#define N 65536
static uint8_t buf[N] __attribute__((aligned(4096)));
static volatile uint32_t other[N / 4] __attribute__((aligned(4096)));
static struct hash_seg segs[N / 512];
static uint8_t out[64], ref[64]; /* ref: the one-command digest of the same 64 KiB */

static void run_sg(int alg, size_t piece, int order, int cpu)
{
  size_t n = N / piece;
  for (size_t i = 0; i < n; i++) {
    size_t k = order == 0 ? n - 1 - i : order == 1 ? i : (i * 7) % n;
    segs[i].data = buf + k * piece;
    segs[i].len = piece;
  }
  uint32_t best = ~0u, busy = 0, submit = 0;
  int same = 1;
  for (int rep = 0; rep < 2; rep++) {
    struct hash_ctx c;
    uint64_t t0 = now();
    int r = hash_begin(&c, alg, HASH_PROV_HW, HASH_F_DMA);
    uint64_t t1 = now();
    if (r >= 0)
      r = hash_update_segs_nowait(&c, segs, (int)n);
    uint64_t t2 = now();
    uint32_t sum = 0;
    for (int i = 0; cpu && i < N / 4; i += 8) {
      if (cpu == 1)
        sum += other[i];
      else
        other[i] = (uint32_t)i;
    }
    (void)sum;
    if (r >= 0)
      r = hash_final(&c, out, 32);
    uint64_t t3 = now();
    if (r < 0) {
      printf("X %s sg failed %d\n", hash_alg_name(alg), r);
      return;
    }
    same &= memcmp(out, ref, 32) == 0;
    if ((uint32_t)(t3 - t0) < best) {
      best = (uint32_t)(t3 - t0);
      busy = hash_hw_busy_cycles(hash_alg_engine(alg));
      submit = (uint32_t)(t2 - t1);
    }
  }
  printf("X %s sg piece=%u order=%d cpu=%d clocks=%u busy=%u submit=%u %s\n", hash_alg_name(alg),
      (unsigned)piece, order, cpu, (unsigned)best, (unsigned)busy, (unsigned)submit, same ? "ok" : "FAIL");
}

int main(void)
{
  platform_check_soc();
  platform_irq_init();
  int engines = hash_probe();
  for (size_t i = 0; i < N; i++)
    buf[i] = (uint8_t)(i * 131 + 7);
  static const int algs[] = { HASH_SHA3_256, HASH_SHA256 };
  for (int a = 0; a < 2; a++) {
    int alg = algs[a];
    if (!(engines >> hash_alg_engine(alg) & 1))
      continue;
    uint32_t best = ~0u;
    for (int rep = 0; rep < 2; rep++) {
      uint64_t t0 = now();
      hash_digest(alg, HASH_PROV_HW, HASH_F_DMA, buf, N, ref, 32);
      uint64_t t1 = now();
      if ((uint32_t)(t1 - t0) < best)
        best = (uint32_t)(t1 - t0);
    }
    printf("X %s dma piece=%u order=1 cpu=0 clocks=%u busy=%u submit=0 ", hash_alg_name(alg), N,
        (unsigned)best, (unsigned)hash_hw_busy_cycles(hash_alg_engine(alg)));
    hash_digest(alg, HASH_PROV_SW, 0, buf, N, out, 32);
    printf("%s\n", memcmp(out, ref, 32) == 0 ? "ok" : "FAIL");
    static const size_t pieces[] = { 4096, 4096, 4096, 2048, 512, 512 };
    static const int orders[] = { 0, 1, 2, 1, 1, 0 };
    for (unsigned i = 0; i < sizeof(pieces) / sizeof(pieces[0]); i++)
      run_sg(alg, pieces[i], orders[i], 0);
    run_sg(alg, 4096, 0, 1);
    run_sg(alg, 4096, 0, 2);
  }
  printf("DONE\n");
  finish();
  return 0;
}
