/* SPDX-License-Identifier: MIT */
/*
 * The benchmark: B rows (a digest's clocks and the core's busy clocks, per path and
 * length; HMAC, KMAC, scatter-gather) and L rows (where a short digest's clocks go).
 * scripts/bench.py reads them into docs/bench.md.
 */
#include "fwtest.h"

static void bench_one(int alg, int p, size_t len)
{
  size_t outlen = hash_alg_digest_len(alg) ? (size_t)hash_alg_digest_len(alg) : 32;
  /* A short digest on the same path first: the row's call then finds the driver's code in
   * the instruction cache, whatever printf() evicted and wherever the linker put the code
   * (on the twin a cold driver costs ~400 clocks of SDRAM refills per call, and its
   * refills delay the engine's DMA). */
  hash_digest(alg, path_prov[p], path_flags[p], msgbuf, 4, out, outlen);
  uint64_t t0 = now();
  int r = hash_digest(alg, path_prov[p], path_flags[p], msgbuf, len, out, outlen);
  uint64_t t1 = now();
  uint32_t busy = p ? hash_hw_busy_cycles(hash_alg_engine(alg)) : 0;
  if (r > 0)
    printf("B %s %s %u %u %u\n", hash_alg_name(alg), path_name[p], (unsigned)len, (unsigned)(t1 - t0),
        (unsigned)busy);
}

/*
 * Where a DMA's clocks go on a memory path with caches: the same 4 KiB hashed twice, the
 * second pass timed. Main RAM's L2 (8 KiB or more on the boards) then holds every line, so
 * "dmahot" against "dma" of the same size separates the L2's hit path from its refills.
 */
static void bench_hot(int alg)
{
  size_t outlen = hash_alg_digest_len(alg) ? (size_t)hash_alg_digest_len(alg) : 32;
  hash_digest(alg, HASH_PROV_HW, 0, msgbuf, 4096, out, outlen);
  uint64_t t0 = now();
  int r = hash_digest(alg, HASH_PROV_HW, 0, msgbuf, 4096, out, outlen);
  uint64_t t1 = now();
  if (r > 0)
    printf("B %s dmahot 4096 %u %u\n", hash_alg_name(alg), (unsigned)(t1 - t0),
        (unsigned)hash_hw_busy_cycles(hash_alg_engine(alg)));
}

/*
 * Latency: where the clocks of a short digest go. Each figure is the smallest of
 * LAT_RUNS runs with the timer's own cost taken off, so it is the warm cost (code and data
 * in the caches); "cold" rows flush both caches first, the cost of a call after other
 * work has evicted the driver. Register and window accesses are timed 16 at a time.
 */
#define LAT_RUNS 6
#define LAT_MIN(var, stmt)                                                                                   \
  do {                                                                                                       \
    var = ~0u;                                                                                               \
    for (int k_ = 0; k_ < LAT_RUNS; k_++) {                                                                  \
      uint64_t t_ = now();                                                                                   \
      stmt;                                                                                                  \
      uint32_t d_ = (uint32_t)(now() - t_);                                                                  \
      if (d_ < var)                                                                                          \
        var = d_;                                                                                            \
    }                                                                                                        \
  } while (0)
#define REP16(x) x x x x x x x x x x x x x x x x

static void lat_row(const char *what, uint32_t clocks, uint32_t timer, int per)
{
  clocks = clocks > timer ? clocks - timer : 0;
  printf("L %s %u\n", what, (unsigned)((clocks + per / 2) / per));
}

/* One warm digest's clocks (LAT_MIN of hash_digest). A function of its own in .text.hot,
 * like hash_digest: the linker script places the two side by side, so the loop and the
 * driver never share a set of the direct-mapped instruction cache (inlined into main(),
 * wherever main's code fell, the loop evicted the driver's lines on every call). */
static __attribute__((hot, noinline)) uint32_t lat_digest(int alg, int p, size_t len)
{
  uint32_t t;
  LAT_MIN(t, hash_digest(alg, path_prov[p], path_flags[p], msgbuf, len, out, 32));
  return t;
}

static void latency(void)
{
  uint32_t timer, t;
  LAT_MIN(timer, (void)0);
  printf("L timer %u\n", (unsigned)timer);
  if (!have_engine(HASH_SHA256))
    return;
  /* Raw accesses to the SHA-256 engine (idle, no message open). */
  volatile uint32_t *csr = (volatile uint32_t *)CSR_SHA256_STATUS_ADDR;
  volatile uint32_t *ev = (volatile uint32_t *)CSR_SHA256_EV_ENABLE_ADDR;
  volatile uint32_t *ctx = (volatile uint32_t *)(SHA256_BASE + HWIN_CTX);
  volatile uint32_t *ram = (volatile uint32_t *)msgbuf;
  uint32_t sink = 0;
  hash_digest(HASH_SHA256, HASH_PROV_HW, HASH_F_PIO, "", 0, out, 32); /* done: ctx readable */
  LAT_MIN(t, REP16(sink += *csr;));
  lat_row("csr_read", t, timer, 16);
  LAT_MIN(t, REP16(*ev = 0;));
  lat_row("csr_write", t, timer, 16);
  LAT_MIN(t, REP16(sink += *ctx;));
  lat_row("window_read", t, timer, 16);
  LAT_MIN(t, REP16(*ctx = sink;));
  lat_row("window_write", t, timer, 16);
  LAT_MIN(t, REP16(sink += *ram;));
  lat_row("ram_read_hit", t, timer, 16);
  LAT_MIN(t, REP16(*ram = sink;));
  lat_row("ram_write", t, timer, 16);
  /* Data words into an open message: 16 words (one SHA-256 block) and the final word. */
  volatile uint32_t *data = (volatile uint32_t *)(SHA256_BASE + HWIN_DATA);
  volatile uint32_t *fin = (volatile uint32_t *)(SHA256_BASE + HWIN_FINAL);
  t = ~0u;
  for (int k = 0; k < LAT_RUNS; k++) {
    sha256_ctrl_write(1u << CSR_SHA256_CTRL_INIT_OFFSET); /* mode 0: SHA-256 */
    uint64_t t0 = now();
    REP16(*data = sink;)
    *fin = 0;
    uint32_t d = (uint32_t)(now() - t0);
    t = d < t ? d : t;
    while (!(sha256_status_read() & (1u << CSR_SHA256_STATUS_DONE_OFFSET)))
      ;
  }
  lat_row("window_data_write", t, timer, 17);
  (void)sink;
  /* Whole digests, warm and cold (both caches flushed just before; the flush's own cost
   * is taken off too). */
  uint32_t flush;
  LAT_MIN(flush, (flush_cpu_icache(), flush_cpu_dcache()));
  static const int algs[] = { HASH_SHA256, HASH_SHA3_256 };
  static const size_t lens[] = { 0, 5, 55 };
  for (unsigned a = 0; a < 2; a++) {
    if (!have_engine(algs[a]))
      continue;
    for (int p = 0; p < 5; p++) {
      if (p == 3)
        continue;
      for (unsigned i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
        char what[48];
        t = lat_digest(algs[a], p, lens[i]);
        snprintf(
            what, sizeof(what), "digest_%s_%s_%u", hash_alg_name(algs[a]), path_name[p], (unsigned)lens[i]);
        lat_row(what, t, timer, 1);
      }
      char what[48];
      LAT_MIN(t, (flush_cpu_icache(), flush_cpu_dcache(),
                     hash_digest(algs[a], path_prov[p], path_flags[p], msgbuf, 5, out, 32)));
      snprintf(what, sizeof(what), "cold_%s_%s_5", hash_alg_name(algs[a]), path_name[p]);
      lat_row(what, t, timer + flush, 1);
    }
  }
}

/*
 * Scatter-gather's rate: 64 KiB as pieces of `piece` bytes in reverse address order (a
 * user buffer's pages as xv6's allocator hands them out), through hash_update_segs:
 * "sg4096" against "dma" of the same 64 KiB in one command is what the walk costs.
 */
static void bench_sg(int alg, size_t piece)
{
  size_t n = MAXLEN / piece;
  for (size_t i = 0; i < n; i++) {
    segs[i].data = msgbuf + (n - 1 - i) * piece;
    segs[i].len = piece;
  }
  struct hash_ctx c;
  uint64_t t0 = now();
  int r = hash_begin(&c, alg, HASH_PROV_HW, 0);
  if (r >= 0)
    r = hash_update_segs(&c, segs, (int)n);
  if (r >= 0)
    r = hash_final(&c, out, 32);
  uint64_t t1 = now();
  if (r > 0)
    printf("B %s sg%u %u %u %u\n", hash_alg_name(alg), (unsigned)piece, (unsigned)MAXLEN, (unsigned)(t1 - t0),
        (unsigned)hash_hw_busy_cycles(hash_alg_engine(alg)));
}

/* HMAC-SHA-256 one-shot (hash_hmac), a 20-byte key: software, engine by PIO and DMA;
 * "dev": the engine with the device key. Printed as B rows of algorithm HMAC-SHA-256. */
static void bench_hmac(void)
{
  static const size_t sizes[] = { 64, 65536 };
  static const char *names[] = { "sw", "pio", "dma", "dev" };
  for (int p = 0; p < 4; p++) {
    if (p && !have_engine(HASH_SHA256))
      break;
    for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
#ifndef BENCH_full
      if (p == 0 && sizes[i] == 65536)
        continue; /* 4 M simulated clocks: only in the full benchmark */
#endif
      int flags = p == 3 ? HASH_F_DEVKEY | HASH_F_DMA : path_flags[p];
      const void *key = p == 3 ? 0 : msgbuf + 64;
      uint64_t t0 = now();
      int r = hash_hmac(HASH_SHA256, path_prov[p], flags, key, p == 3 ? 0 : 20, msgbuf, sizes[i], out, 32);
      uint64_t t1 = now();
      uint32_t busy = p ? hash_hw_busy_cycles(HASH_ENGINE_SHA256) : 0;
      if (r > 0)
        printf("B HMAC-SHA-256 %s %u %u %u\n", names[p], (unsigned)sizes[i], (unsigned)(t1 - t0),
            (unsigned)busy);
    }
  }
}

/* KMAC128/256 one-shot (hash_kmac_begin, the message, hash_final), a 32-byte key and no
 * customization: on the engine its KMAC mode (the key block from the key words). Printed
 * as B rows of algorithm KMAC128/KMAC256, the core's busy clocks included, so that
 * scripts/bench.py gives clocks per permutation and DMA bytes per clock. */
static void bench_kmac(void)
{
  static const size_t sizes[] = { 64, 65536 };
  for (int alg = HASH_SHAKE128; alg <= HASH_SHAKE256; alg++)
    for (int p = 0; p < 3; p++) {
      if (p && !have_engine(alg))
        break;
      for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
#ifndef BENCH_full
        if (p == 0 && sizes[i] == 65536)
          continue; /* 8 M simulated clocks: only in the full benchmark */
#endif
        struct hash_ctx c;
        size_t outlen = alg == HASH_SHAKE128 ? 32 : 64;
        uint64_t t0 = now();
        int r = hash_kmac_begin(&c, alg, path_prov[p], path_flags[p], msgbuf + 64, 32, 0, 0);
        if (r >= 0)
          r = hash_update(&c, msgbuf, sizes[i]);
        if (r >= 0)
          r = hash_final(&c, out, outlen);
        uint64_t t1 = now();
        hash_abort(&c);
        uint32_t busy = p ? hash_hw_busy_cycles(hash_alg_engine(alg)) : 0;
        if (r > 0)
          printf("B KMAC%s %s %u %u %u\n", alg == HASH_SHAKE128 ? "128" : "256", path_name[p],
              (unsigned)sizes[i], (unsigned)(t1 - t0), (unsigned)busy);
      }
    }
}

void bench(void)
{
  static const size_t sizes[] = { 0, 5, 55, 64, 1024, 4096, 65536 };
  uint64_t t0 = now(), t1 = now();
  printf("B timer - 0 %u 0\n", (unsigned)(t1 - t0));
  latency();
  if (have_engine(HASH_SHA256))
    bench_hot(HASH_SHA256);
  if (have_engine(HASH_SHA3_256))
    bench_hot(HASH_SHA3_256);
  bench_hmac();
  bench_kmac();
  for (int a = 0; a < 2; a++) {
    int alg = a ? HASH_SHA3_256 : HASH_SHA256;
    if (have_engine(alg)) {
      bench_sg(alg, 4096);
      bench_sg(alg, 512);
    }
  }
  for (int alg = 0; alg < HASH_ALG_COUNT; alg++) {
#ifndef BENCH_full
    if (alg != HASH_SHA256 && alg != HASH_SHA3_256 && alg != HASH_SHA3_512 && alg != HASH_SHA512)
      continue;
#endif
    for (int p = 0; p < 3; p++) {
      if (p && !have_engine(alg))
        continue;
      for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
#ifndef BENCH_full
        if (p == 0 && sizes[i] == 65536 && alg != HASH_SHA256)
          continue; /* 8-16 M simulated clocks: only in the full benchmark */
#endif
        bench_one(alg, p, sizes[i]);
      }
    }
  }
}
