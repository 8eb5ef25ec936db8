/* SPDX-License-Identifier: MIT */
/*
 * The engines' ownership: probing, who holds an engine (its owner), moving a message
 * between the engine and its context (the lazy switch: drv_save, drv_acquire), waiting
 * for the engine and failing a message. hash_driver.h has the locking rules.
 */
#include "hash_driver.h"

struct engine_state drv_engines[HASH_ENGINE_COUNT] = {
#define ENGINE(key, ident, ctx_words)                                                                        \
  [HASH_ENGINE_##key] = { HASH_##key##_CSR_BASE, HASH_##key##_WIN_BASE, ident, ctx_words, -1, 0, 0, 0, 0 },
  HASH_ENGINE_TABLE(ENGINE)
#undef ENGINE
};

/* Drop the engine's message (abort + err_clear). A DMA it stopped may still be ending
 * its last bus read, so the engine stays busy for a few clocks: the next user waits for
 * that (drv_acquire() always, the short path when this flag says so). */
void drv_abort_engine(struct engine_state *e)
{
  wr(e, HREG(CTRL), HBIT(CTRL, ABORT) | HBIT(CTRL, ERR_CLEAR));
  e->draining = 1;
  e->running = 0;
}

/* The first call reads the ID registers and resets the engines; later calls only report
 * (resetting then would destroy a message some context holds in an engine). The first
 * probe of an engine takes its lock and looks again under it: two threads that both saw
 * `present` < 0 must not both reset it, the second after the first has begun a message.
 * Once set, `present` never changes, so reading it without the lock is safe. */
int hash_probe(void)
{
  int mask = 0;
  for (int i = 0; i < HASH_ENGINE_COUNT; i++) {
    struct engine_state *e = &drv_engines[i];
    if (e->present < 0) {
      hash_plat_lock(i);
      if (e->present < 0) {
        e->present = e->csr != 0 && rd(e, HREG(ID)) == e->ident;
        if (e->present) {
          wr(e, HREG(EV_ENABLE), 0);
          drv_abort_engine(e);
        }
      }
      hash_plat_unlock(i);
    }
    if (e->present)
      mask |= 1 << i;
  }
  return mask;
}

/* Drop whatever the engine holds and leave it clean for the next user; returns its
 * error bits. */
uint32_t drv_reset_engine(struct engine_state *e)
{
  uint32_t errors = rd(e, HREG(ERRORS));
  drv_abort_engine(e);
  wr(e, HREG(EV_ENABLE), 0);
  e->irq_events = 0;
  e->owner = 0;
  return errors;
}

/* The engine failed: drop the message (and a keyed one's secrets: nobody calls final or
 * abort on a finished message). */
int drv_fail(struct engine_state *e, struct hash_ctx *c, int err)
{
  c->hw_errors = drv_reset_engine(e);
  c->state = ST_FINISHED;
  drv_wipe_key(c);
  return err;
}

/* Wait until (status & mask) == want. Bounded; an error bit fails the message. */
int drv_wait_status(struct engine_state *e, struct hash_ctx *c, uint32_t mask, uint32_t want)
{
  if (e->irq_events) {
    /* Adaptive: most waits (a block, a page of DMA) end sooner than an interrupt
     * round trip through the OS. Poll up to the platform's bound with the interrupt
     * off; only then enable it, look once more (so a completion between the last
     * poll and the enable is not missed: status is a level), and sleep. */
    uint32_t st = rd(e, HREG(STATUS));
    for (uint32_t n = 0; /* (!=, not <: the bound may be 0, and gcc warns of n < 0) */
         n != HASH_PLAT_POLLS_BEFORE_SLEEP && (st & mask) != want && !(st & HBIT(STATUS, ERROR)); n++)
      st = rd(e, HREG(STATUS));
    if ((st & mask) != want && !(st & HBIT(STATUS, ERROR))) {
      e->irq_flag = 0;
      wr(e, HREG(EV_PENDING), 0xffffffffu);
      wr(e, HREG(EV_ENABLE), e->irq_events);
      st = rd(e, HREG(STATUS));
      if ((st & mask) != want && !(st & HBIT(STATUS, ERROR)))
        hash_plat_irq_wait(e - drv_engines, &e->irq_flag);
      wr(e, HREG(EV_ENABLE), 0);
    }
    e->irq_events = 0;
  }
  for (uint32_t n = 0;; n++) {
    uint32_t st = rd(e, HREG(STATUS));
    if (st & HBIT(STATUS, ERROR))
      return drv_fail(e, c, HASH_ERR_HW);
    if ((st & mask) == want)
      return HASH_OK;
    if (n >= HASH_PLAT_SPIN_LIMIT)
      return drv_fail(e, c, HASH_ERR_TIMEOUT);
  }
}

/* ---- moving the engine between contexts ---- */

/* Wait for the engine's DMA to end (sleeping on its interrupt with HASH_F_IRQ). A DMA
 * that already ended may have ended on an error (a bad descriptor stops the list): that
 * fails the message here, before the caller gives the engine anything more. */
int drv_wait_dma(struct engine_state *e, struct hash_ctx *c)
{
  uint32_t st = rd(e, HREG(STATUS));
  if (st & HBIT(STATUS, ERROR))
    return drv_fail(e, c, HASH_ERR_HW);
  if (!(st & HBIT(STATUS, DMA_BUSY)))
    return HASH_OK;
  irq_arm(e, c, HBIT(EV_ENABLE, DMA));
  return drv_wait_status(e, c, HBIT(STATUS, DMA_BUSY), 0);
}

/* Let the owner's last list end (hash_update_segs_nowait returned while the engine
 * still read it): then the engine is idle at a block boundary, as every other call
 * leaves it. A failure is the owner's: drv_fail() finishes its message and frees the
 * engine, and the owner's next call reports it. */
int drv_settle(struct engine_state *e)
{
  if (!e->running)
    return HASH_OK;
  e->running = 0;
  struct hash_ctx *o = e->owner;
  int r = drv_wait_dma(e, o);
  /* The core still hashes the last block or two: tens of clocks, polled. */
  return r < 0 ? r : drv_wait_status(e, o, HBIT(STATUS, BUSY), 0);
}

/* The lazy switch's export: the owner o's state into its context, the engine free. */
void drv_save(struct engine_state *e, struct hash_ctx *o)
{
  if (drv_settle(e) < 0)
    return; /* o's message failed and the engine is free */
  /* Holders are at a block boundary between calls (settled), so busy is 0 here. */
  for (int i = 0; i < e->ctx_words; i++)
    o->u.hw_ctx[i] = hash_plat_read(e->win + HWIN_CTX + 4 * i);
  o->hw_saved = 1;
  e->owner = 0;
}

void hash_release(int engine)
{
  if (engine < 0 || engine >= HASH_ENGINE_COUNT)
    return;
  struct engine_state *e = &drv_engines[engine];
  hash_plat_lock(engine);
  if (e->owner)
    drv_save(e, e->owner);
  hash_plat_unlock(engine);
}

/* Make the engine hold c's message: open it in c's mode, importing saved state. */
int drv_acquire(struct engine_state *e, struct hash_ctx *c)
{
  /* The owner goes on: only its DMA must have ended. The engine takes a command or PIO
   * words while the core still hashes the last block (the frontend holds them until the
   * core is ready), so that tail overlaps setting up what comes next (a long hash()'s
   * chunks: docs/hash-syscall.md, "Bulk throughput"). `running` stays set, so whatever
   * needs the engine idle (drv_save, a waiting call's end) still settles it. */
  if (e->owner == c)
    return e->running ? drv_wait_dma(e, c) : HASH_OK;
  if (e->owner)
    drv_save(e, e->owner);
  /* After an abort the DMA may still be ending its last bus read. */
  if (wait_idle(e) < 0)
    return drv_fail(e, c, HASH_ERR_TIMEOUT);
  if (c->hmac == HASH_HMAC_KEY_WINDOW || c->kmac_words) {
    /* The key words are write-only and shared, so c's K0 is written before every init
     * (a KMAC's key block before its first). The engine refuses them while a message is
     * open, as the one drv_save() left is. */
    wr(e, HREG(CTRL), HBIT(CTRL, ABORT));
    for (int i = 0; i < (c->hmac ? c->block / 4 : c->kmac_words); i++)
      hash_plat_write(e->win + HWIN_KEY + 4 * i, c->hw_key[i]);
  }
  wr(e, HREG(CTRL), HBIT(CTRL, INIT) | engine_mode(c) << HSHIFT(CTRL, MODE));
  if (c->hw_saved) {
    /* HMAC: init hashes K0 ^ ipad first (~80 clocks); the import overwrites its result.
     * drv_wait_status() has failed the message on an error or a time-out: pass on which. */
    int r = c->hmac ? drv_wait_status(e, c, HBIT(STATUS, BUSY), 0) : HASH_OK;
    if (r < 0)
      return r;
    for (int i = 0; i < e->ctx_words; i++)
      hash_plat_write(e->win + HWIN_CTX + 4 * i, c->u.hw_ctx[i]);
    c->hw_saved = 0;
  }
  if (rd(e, HREG(STATUS)) & HBIT(STATUS, ERROR))
    return drv_fail(e, c, HASH_ERR_HW);
  e->owner = c;
  return HASH_OK;
}
