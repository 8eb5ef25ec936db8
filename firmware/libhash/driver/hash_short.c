/* SPDX-License-Identifier: MIT */
/*
 * hash_digest: a whole message in one call, and its short path for a few words.
 */
#include "hash_driver.h"

/*
 * The short path of hash_digest (HASH_SHORT_MAX): a message of a few words costs the
 * engine about one block's time (~80 clocks for SHA-256, ~30 for Keccak), so what the
 * caller waits for is the driver's own work, and this path does as little as can be
 * done: no context, the message by CPU stores (a DMA command costs three register
 * writes and a bus round trip before its first byte), no busy check unless the engine
 * was aborted, one status poll loop, no interrupt, the digest read with word stores. The checks
 * are done by the caller before, the engine's lazy switch after the lock. Measured in
 * docs/bench.md ("latency"). n <= HASH_SHORT_MAX; want <= the algorithm's block.
 *
 * short_run is the work once the engine is free and the caller holds its lock. It
 * calls nothing, so on bare metal (where the lock is no call either) digest_short is a
 * leaf: it saves two registers on the stack where it saved five when it called drv_save().
 * On the ULX3S twin a store to main RAM right after another costs ~10 clocks (the
 * write-through L2 waits for the SDRAM). The rare cases, an engine someone else holds
 * or an abort still draining, go to digest_short_settle, and a failure to short_failed,
 * by tail calls, for the same reason.
 */

/* The short path failed: leave the engine clean; a tail call, as digest_short_settle. */
static __attribute__((noinline)) int short_failed(struct engine_state *e, int err)
{
  drv_reset_engine(e);
  return err;
}

HOT int short_run(struct engine_state *e, uint8_t mode, const uint8_t *p, size_t n, uint8_t *out, size_t want)
{
  uint32_t st;

  wr(e, HREG(CTRL), HBIT(CTRL, INIT) | ((uint32_t)mode << HSHIFT(CTRL, MODE)));
  pio_words(e, p, n & ~(size_t)3);
  pio_final(e, p + (n & ~(size_t)3), n & 3);
  /* A refused init or data word sets an error bit, which this loop sees. */
  for (uint32_t k = 0; !((st = rd(e, HREG(STATUS))) & (HBIT(STATUS, DONE) | HBIT(STATUS, ERROR))); k++)
    if (k >= HASH_PLAT_SPIN_LIMIT)
      return short_failed(e, HASH_ERR_TIMEOUT);
  if (unlikely(st & HBIT(STATUS, ERROR)))
    return short_failed(e, HASH_ERR_HW);
  read_out(e, out, want);
  return (int)want;
}

/* digest_short when the engine is not free: save the other context's message or let an
 * aborted DMA end, then run. Out of line, so that the common path calls nothing. Called
 * with the engine's lock held, which it releases, so digest_short reaches it by a tail
 * call and the engine's state it looked at cannot change in between. */
static __attribute__((noinline)) int digest_short_settle(
    int id, uint8_t mode, const uint8_t *p, size_t n, uint8_t *out, size_t want)
{
  struct engine_state *e = &drv_engines[id];
  int r;

  /* Another context's open message is saved lazily, as drv_acquire() does; after an abort,
   * the stopped DMA may still be ending its last read. */
  if (e->owner != 0)
    drv_save(e, e->owner);
  if (e->draining && wait_idle(e) < 0)
    r = short_failed(e, HASH_ERR_TIMEOUT);
  else
    r = short_run(e, mode, p, n, out, want);
  hash_plat_unlock(id);
  return r;
}

HOT int digest_short(int id, uint8_t mode, const uint8_t *p, size_t n, uint8_t *out, size_t want)
{
  struct engine_state *e = &drv_engines[id];
  int r;

  hash_plat_lock(id);
  if (unlikely(e->owner != 0 || e->draining))
    return digest_short_settle(id, mode, p, n, out, want); /* it releases the lock */
  r = short_run(e, mode, p, n, out, want);
  hash_plat_unlock(id);
  return r;
}

/* hash_digest's other path: a context on the stack (~450 bytes), kept out of the short
 * path's frame. */
static __attribute__((noinline)) int digest_ctx(
    int alg, int provider, int flags, const void *data, size_t len, uint8_t *out, size_t outlen)
{
  struct hash_ctx c;
  int r;

  if ((r = hash_begin(&c, alg, provider, flags)) < 0)
    return r;
  if ((r = check_out(&c, out, outlen)) < 0)
    return r;
  if (provider == HASH_PROV_SW) {
    if ((r = hash_update(&c, data, len)) < 0)
      return r;
    return hash_final(&c, out, outlen);
  }
  /* Hardware: the whole message in one go, the engine pads. */
  int id = drv_algs[alg].engine;
  struct engine_state *e = &drv_engines[id];
  hash_plat_lock(id);
  if ((r = drv_acquire(e, &c)) >= 0 && (r = drv_feed(e, &c, data, len, 1)) >= 0)
    r = drv_finish(e, &c, out, outlen);
  if (e->owner == &c)
    e->owner = 0;
  hash_plat_unlock(id);
  return r;
}

/* hot: GCC puts it in .text.hot, which a linker script can keep beside its callers' hot
 * loops (firmware/baremetal/linker.ld): VexRiscv's instruction cache is direct mapped,
 * and a caller whose loop shares cache sets with this code refills them on every call. */
__attribute__((hot)) int hash_digest(
    int alg, int provider, int flags, const void *data, size_t len, uint8_t *out, size_t outlen)
{
  if (!data && len)
    return HASH_ERR_ARG;
  /* The short path when it applies; its checks are those hash_begin and check_out make. */
  if (likely(provider == HASH_PROV_HW && valid_alg(alg) && len <= HASH_SHORT_MAX &&
             !(flags & ~(HASH_F_PIO | HASH_F_IRQ)) && out)) {
    const struct alg_info *a = &drv_algs[alg];
    size_t want = a->digest ? a->digest : outlen;
    if (likely(want && outlen >= want && want <= a->block && drv_engines[a->engine].present > 0))
      return digest_short(a->engine, a->mode, data, len, out, want);
  }
  return digest_ctx(alg, provider, flags, data, len, out, outlen);
}
