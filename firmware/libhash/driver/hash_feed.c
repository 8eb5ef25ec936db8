/* SPDX-License-Identifier: MIT */
/*
 * The data path: a message's bytes into the engine by CPU stores (PIO), by a DMA command
 * or by a descriptor list, and the digest (or XOF output) out of its context window.
 */
#include "hash_driver.h"

/* Give the engine n bytes by CPU stores; with last, they end the message. */
int drv_feed_pio(struct engine_state *e, struct hash_ctx *c, const uint8_t *p, size_t n, int last)
{
  pio_words(e, p, n & ~(size_t)3);
  if (last)
    pio_final(e, p + (n & ~(size_t)3), n & 3);
  if (rd(e, HREG(STATUS)) & HBIT(STATUS, ERROR))
    return drv_fail(e, c, HASH_ERR_HW);
  return HASH_OK;
}

/* Give the engine the caller's n bytes (DMA unless HASH_F_PIO); with last, they end the
 * message. Bytes from the context's own buffer always go by drv_feed_pio: at most one block,
 * and the context may live where DMA cannot read (e.g. an OS kernel stack that is not
 * mapped virtual = physical). */
int drv_feed(struct engine_state *e, struct hash_ctx *c, const uint8_t *p, size_t n, int last)
{
  if (c->flags & HASH_F_PIO)
    return drv_feed_pio(e, c, p, n, last);
  if (n == 0) { /* nothing to read: just close the message */
    if (last)
      pio_final(e, p, 0);
    return HASH_OK;
  }
  wr(e, HREG(DMA_ADDR), hash_plat_bus_addr(p));
  wr(e, HREG(DMA_LEN), (uint32_t)n);
  irq_arm(e, c, HBIT(EV_ENABLE, DMA));
  wr(e, HREG(DMA_CTRL), HBIT(DMA_CTRL, START) | (last ? HBIT(DMA_CTRL, LAST) : 0));
  return drv_wait_status(e, c, HBIT(STATUS, DMA_BUSY), 0);
}

/* ---- scatter-gather ---- */

#ifndef HASH_PLAT_SG_MAX
#define HASH_PLAT_SG_MAX HASH_SG_MAX /* the platform's shim may use shorter lists */
#endif
_Static_assert(HASH_PLAT_SG_MAX >= 1 && HASH_PLAT_SG_MAX <= HASH_SG_MAX, "HASH_PLAT_SG_MAX");

/* Each engine's descriptor lists, which the engine reads by DMA (so in main RAM, at an
 * address hash_plat_bus_addr translates). Two, so the next list can be written while
 * the engine still walks the last one (e->list names it). Guarded by the engine's lock. */
static uint32_t sg_lists[HASH_ENGINE_COUNT][2][HASH_PLAT_SG_MAX * HASH_SG_DESC_WORDS]
    __attribute__((aligned(8)));

/* Write the next pieces at the cursor, at most *n bytes and HASH_PLAT_SG_MAX pieces,
 * into the list the engine is not reading; return how many, *n less their bytes.
 * The cursor and the count are copied into locals and written back once: the loop then
 * stores only the list itself. This runs while the engine may still stream the last
 * list, and on a board every store waits for the engine's port to yield the SDRAM; kept
 * in memory, the cursor cost ~4 more stores per piece (docs/hash-syscall.md, "Bulk
 * throughput"). */
int drv_build_list(struct engine_state *e, struct seg_cursor *k, size_t *n)
{
  uint32_t *list = sg_lists[e - drv_engines][!e->list];
  struct seg_cursor at = *k;
  size_t left = *n;
  int d = 0;
  const uint8_t *p;
  size_t run;
  while (d < HASH_PLAT_SG_MAX && (run = seg_next(&at, left, &p)) != 0) {
    list[HASH_SG_DESC_WORDS * d + HASH_SG_ADDR] = hash_plat_bus_addr(p);
    list[HASH_SG_DESC_WORDS * d + HASH_SG_LEN] = (uint32_t)run;
    d++;
    left -= run;
  }
  *k = at;
  *n = left;
  return d;
}

/* Start the engine on the list of d descriptors at bus address list (the engine must be
 * idle and the caller's). The caller waits for it, or leaves that to drv_settle(). */
void drv_start_list_at(struct engine_state *e, uint32_t list, int d)
{
  wr(e, HREG(DMA_ADDR), list);
  wr(e, HREG(DMA_LEN), (uint32_t)d);
  wr(e, HREG(DMA_CTRL), HBIT(DMA_CTRL, START) | HBIT(DMA_CTRL, LIST));
  e->running = 1;
}

/* ... on the d pieces drv_build_list wrote. */
void drv_start_list(struct engine_state *e, int d)
{
  e->list = !e->list;
  drv_start_list_at(e, hash_plat_bus_addr(sg_lists[e - drv_engines][e->list]), d);
}

/* Can the engine read the caller's pieces as its list (hash_update_list_nowait)? The
 * layout is known at compile time; the rest is looked at with loads only. */
int drv_usable_in_place(const struct hash_seg *seg, int nseg)
{
  if (sizeof(struct hash_seg) != 4 * HASH_SG_DESC_WORDS || sizeof(void *) != 4 || sizeof(size_t) != 4 ||
      offsetof(struct hash_seg, data) != 4 * HASH_SG_ADDR ||
      offsetof(struct hash_seg, len) != 4 * HASH_SG_LEN)
    return 0;
  if (nseg < 1 || nseg > HASH_SG_MAX || ((uintptr_t)seg & 3) || hash_plat_bus_addr(seg) != (uintptr_t)seg)
    return 0;
  for (int i = 0; i < nseg; i++)
    if (seg[i].len == 0 || hash_plat_bus_addr(seg[i].data) != (uintptr_t)seg[i].data)
      return 0;
  return 1;
}

/* After the last bytes: wait for done, read the output, free the engine. */
int drv_finish(struct engine_state *e, struct hash_ctx *c, uint8_t *out, size_t outlen)
{
  const struct alg_info *a = &drv_algs[c->alg];
  size_t want = a->digest ? a->digest : outlen;
  size_t got = 0;
  int r;

  irq_arm(e, c, HBIT(EV_ENABLE, DONE));
  if ((r = drv_wait_status(e, c, HBIT(STATUS, DONE), HBIT(STATUS, DONE))) < 0)
    return r;
  for (;;) {
    size_t n = want - got < a->block ? want - got : a->block;
    read_out(e, out + got, n);
    got += n;
    if (got == want)
      break;
    irq_arm(e, c, HBIT(EV_ENABLE, DONE));
    wr(e, HREG(CTRL), HBIT(CTRL, SQUEEZE) | ((uint32_t)a->mode << HSHIFT(CTRL, MODE)));
    if ((r = drv_wait_status(e, c, HBIT(STATUS, DONE), HBIT(STATUS, DONE))) < 0)
      return r;
  }
  e->owner = 0;
  e->running = 0; /* done: the engine is idle */
  c->state = ST_FINISHED;
  return (int)got;
}
