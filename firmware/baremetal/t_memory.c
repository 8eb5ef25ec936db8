/* SPDX-License-Identifier: MIT */
/*
 * The self-test's memory checks: coherence between the CPU's stores and the engines' DMA
 * (C rows), and every MiB of main RAM reached by the CPU and the engines alike.
 */
#include "fwtest.h"

/*
 * Coherence: the bytes the CPU stores immediately before a DMA hash are the bytes the
 * engine reads, whatever still holds them (VexRiscv's write-through D-cache, the board's
 * L2, a write on its way to SDRAM). Each buffer is first hashed by DMA (so its old
 * contents are where a DMA read leaves them), then overwritten by the CPU with an
 * xorshift32 stream, then hashed by DMA at once. The host regenerates the stream from
 * the seed and checks the digest with hashlib; no software hash runs here, so nothing
 * evicts or refreshes a cache line between the stores and the DMA.
 */
static void fill_xorshift(uint8_t *p, size_t n, uint32_t seed)
{
  uint32_t x = seed;
  for (size_t i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    p[i] = (uint8_t)x;
  }
}

void coherence(void)
{
  static const size_t sizes[] = { 1, 3, 4, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 255, 256, 1000, 1024,
    4095, 4096, 8192, 8193, 12345 };
  static const int algs[] = { HASH_SHA256, HASH_SHA3_256 };
  uint32_t seed = 0x1234567;
  for (unsigned a = 0; a < sizeof(algs) / sizeof(algs[0]); a++) {
    if (!have_engine(algs[a]))
      continue;
    for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
      for (int off = 0; off < 4; off++) {
        /* spread the buffers over different L2 lines and 4 KiB pages */
        uint8_t *buf = msgbuf + ((i * 1040 + off * 4100) % (MAXLEN - 12345 - 8)) + off;
        size_t n = sizes[i];
        hash_digest(algs[a], HASH_PROV_HW, HASH_F_DMA, buf, n, out, 32);
        seed = seed * 1664525u + 1013904223u;
        fill_xorshift(buf, n, seed | 1);
        int r = hash_digest(algs[a], HASH_PROV_HW, HASH_F_DMA, buf, n, out, 32);
        printf("C %s %u %d %u ", hash_alg_name(algs[a]), (unsigned)n, off, (unsigned)(seed | 1));
        if (r > 0)
          hex(out, r);
        else
          printf("error%d", r);
        printf("\n");
      }
    }
  }
  pattern(msgbuf, MAXLEN);
}

/*
 * All of main RAM is addressable, by the CPU and by the engines alike, at every 32-bit
 * lane of a 16-byte beat (the Arty's LiteDRAM port is 128 bits wide: a wrong lane pick or
 * byte enable there was found by accident once, eda3c27). In each MiB (past the firmware's
 * image, below its stack) the CPU stores the four words of one beat; then the CPU reads
 * them back and the engine hashes the beat by DMA, and one of its words alone (the lane
 * turns from MiB to MiB, so a one-word command starts at each lane). All are stored before
 * any is read, and the reads go in address order to beats that share every cache's set
 * (1 MiB apart), so each read is a refill from main RAM: an address that aliases another
 * MiB (a bit of it lost on the way to the SDRAM) reads the words stored there later. The
 * board's L2 once lost bit 24 of the byte address in its Verilog (soc/l2wt.py): on the
 * ULX3S the CPU saw the upper 16 MiB on top of the lower, the engines did not.
 */
extern char _end[];

#define BEAT_WORDS 4

static uint32_t mib_word(uint32_t k, uint32_t lane)
{
  return 0x5a000000u ^ (k * 0x00010203u) ^ (lane << 28) ^ (lane * 0x00408000u);
}

/* The engine's SHA-256, by DMA, of the n bytes at lane `lane` of MiB k's beat equals the
 * software's of the words stored there (not of what the CPU read back: each path's errors
 * are its own). */
static int dma_matches(volatile uint32_t *beat, uint32_t k, uint32_t lane, size_t n)
{
  uint32_t want[BEAT_WORDS];
  uint8_t ref[32];
  for (size_t i = 0; i < n / 4; i++)
    want[i] = mib_word(k, lane + i);
  hash_digest(HASH_SHA256, HASH_PROV_SW, 0, want, n, ref, 32);
  int r = hash_digest(HASH_SHA256, HASH_PROV_HW, HASH_F_DMA, (const void *)(beat + lane), n, out, 32);
  return r == 32 && memcmp(out, ref, 32) == 0;
}

void every_mib(void)
{
  const uint32_t mib = 1u << 20, off = mib / 2, stack = 256 * 1024;
  int words = 0, cpu_bad = 0, dma_bad = 0;
  for (int pass = 0; pass < 2; pass++)
    for (uint32_t k = 0; k < MAIN_RAM_SIZE / mib; k++) {
      uint32_t a = MAIN_RAM_BASE + k * mib + off;
      if (a < (uint32_t)(uintptr_t)_end || a + 4 * BEAT_WORDS > MAIN_RAM_BASE + MAIN_RAM_SIZE - stack)
        continue;
      volatile uint32_t *w = (volatile uint32_t *)(uintptr_t)a;
      if (pass == 0) {
        for (uint32_t j = 0; j < BEAT_WORDS; j++)
          w[j] = mib_word(k, j);
        continue;
      }
      if (k == 0 || words == 0)
        flush_cpu_dcache();
      for (uint32_t j = 0; j < BEAT_WORDS; j++)
        cpu_bad += w[j] != mib_word(k, j);
      dma_bad += !dma_matches(w, k, 0, 4 * BEAT_WORDS) + !dma_matches(w, k, k % BEAT_WORDS, 4);
      words += BEAT_WORDS;
    }
  printf("M %d MiB, %d words\n", (int)(MAIN_RAM_SIZE / mib), words);
  check("ram_every_mib_cpu", cpu_bad, 0);
  if (have_engine(HASH_SHA256))
    check("ram_every_mib_dma", dma_bad, 0);
  check("ram_every_mib_words", words >= BEAT_WORDS * ((int)(MAIN_RAM_SIZE / mib) - 1), 1);
}
