/* SPDX-License-Identifier: MIT */
/*
 * The API's core: the algorithm table and its queries, and a message's life on either
 * provider (begin, update, update from pieces, final, abort). The engine's side of each
 * step is hash_engine.c's and hash_feed.c's.
 */
#include "hash_driver.h"

/* (hash_driver.h) */
const struct alg_info drv_algs[HASH_ALG_COUNT] = {
#define ALG(key, name, title, engine, mode, digest, block, pad)                                              \
  [HASH_##key] = { title, engine, mode, digest, block, pad },
  HASH_ALG_TABLE(ALG)
#undef ALG
};

const char *hash_alg_name(int alg)
{
  return valid_alg(alg) ? drv_algs[alg].name : 0;
}
int hash_alg_digest_len(int alg)
{
  return valid_alg(alg) ? drv_algs[alg].digest : HASH_ERR_ALG;
}
int hash_alg_block_len(int alg)
{
  return valid_alg(alg) ? drv_algs[alg].block : HASH_ERR_ALG;
}
int hash_alg_engine(int alg)
{
  return valid_alg(alg) ? drv_algs[alg].engine : HASH_ERR_ALG;
}

int hash_begin(struct hash_ctx *c, int alg, int provider, int flags)
{
  if (!c)
    return HASH_ERR_ARG;
  if (!valid_alg(alg) || (provider != HASH_PROV_SW && provider != HASH_PROV_HW))
    return HASH_ERR_ALG;
  if (flags & ~(HASH_F_PIO | HASH_F_IRQ | HASH_F_DMA) || (flags & HASH_F_PIO && flags & HASH_F_DMA))
    return HASH_ERR_ARG;
  /* A context begun again must not continue an old message an engine still holds for
   * it. (Its fields may be uninitialised: only compare the pointer.) */
  for (int i = 0; i < HASH_ENGINE_COUNT; i++) {
    struct engine_state *e = &drv_engines[i];
    if (e->owner == c) {
      hash_plat_lock(i);
      drv_abort_engine(e);
      e->owner = 0;
      hash_plat_unlock(i);
    }
  }
  c->alg = alg;
  c->provider = provider;
  c->flags = flags;
  c->block = drv_algs[alg].block;
  c->digest_len = drv_algs[alg].digest;
  c->buflen = 0;
  c->total = 0;
  c->hw_errors = 0;
  c->hw_saved = 0;
  c->hmac = 0;
  c->kmac = 0;
  c->cshake = 0;
  c->kmac_words = 0;
  if (provider == HASH_PROV_HW) {
    if (!engine_for(alg))
      return HASH_ERR_NODEV;
  } else if (drv_algs[alg].engine == HASH_ENGINE_SHA256) {
    sha256_sw_init(&c->u.sha, alg == HASH_SHA224);
  } else if (drv_algs[alg].engine == HASH_ENGINE_SHA512) {
    sha512_sw_init(&c->u.sha512, drv_algs[alg].mode); /* (its modes are the engine's) */
  } else {
    keccak_sw_init(&c->u.keccak, drv_algs[alg].block, drv_algs[alg].pad);
  }
  c->state = ST_OPEN;
  return HASH_OK;
}

int hash_update(struct hash_ctx *c, const void *data, size_t len)
{
  const uint8_t *p = data;
  int r = HASH_OK;

  if (!c || (!data && len))
    return HASH_ERR_ARG;
  if (c->state != ST_OPEN)
    return HASH_ERR_STATE;
  /* SHA-2 counts bits in 64 bits: at most 2^61 - 1 bytes. */
  if (c->total + len < c->total || (c->total + len) >> 61)
    return HASH_ERR_LEN;
  c->total += len;
  if (c->provider == HASH_PROV_SW) {
    if (c->hmac)
      hmac_sw_update(&c->u.hmac, p, len);
    else if (drv_algs[c->alg].engine == HASH_ENGINE_SHA256)
      sha256_sw_update(&c->u.sha, p, len);
    else if (drv_algs[c->alg].engine == HASH_ENGINE_SHA512)
      sha512_sw_update(&c->u.sha512, p, len);
    else
      keccak_sw_absorb(&c->u.keccak, p, len);
    return HASH_OK;
  }

  int id = drv_algs[c->alg].engine;
  struct engine_state *e = &drv_engines[id];
  hash_plat_lock(id);
  if (c->buflen) {
    size_t take = c->block - c->buflen < len ? c->block - c->buflen : len;
    copy(c->buf + c->buflen, p, take);
    c->buflen += take;
    p += take;
    len -= take;
    if (c->buflen < c->block)
      goto out; /* all of data is in buf; nothing for the engine yet */
    if ((r = drv_acquire(e, c)) < 0 || (r = drv_feed_pio(e, c, c->buf, c->block, 0)) < 0)
      goto out;
    c->buflen = 0;
  }
  size_t whole = len - len % c->block;
  if (whole) {
    if ((r = drv_acquire(e, c)) < 0 || (r = drv_feed(e, c, p, whole, 0)) < 0)
      goto out;
  }
  copy(c->buf, p + whole, len - whole);
  c->buflen = len - whole;
  if (e->owner == c)
    e->running = 1;
out:
  /* Leave the engine idle at a block boundary, so it can be handed over (and done
   * with any pieces an earlier hash_update_segs_nowait gave it). */
  if (r >= 0 && e->owner == c)
    r = drv_settle(e);
  hash_plat_unlock(id);
  return r;
}

/* hash_update_segs and its _nowait form: with wait 0 the call returns once the engine
 * has its last list, and the next call that needs the engine waits for it (drv_settle). */
static int update_segs(struct hash_ctx *c, const struct hash_seg *seg, int nseg, int wait, int in_place)
{
  size_t total = 0;
  int r = HASH_OK;

  if (!c || nseg < 0 || (!seg && nseg))
    return HASH_ERR_ARG;
  for (int i = 0; i < nseg; i++) {
    if (!seg[i].data && seg[i].len)
      return HASH_ERR_ARG;
    if (total + seg[i].len < total)
      return HASH_ERR_LEN;
    total += seg[i].len;
  }
  if (c->state != ST_OPEN)
    return HASH_ERR_STATE;
  if (c->provider == HASH_PROV_SW || c->flags & HASH_F_PIO) {
    for (int i = 0; i < nseg && r >= 0; i++)
      r = hash_update(c, seg[i].data, seg[i].len);
    return r;
  }
  if (c->total + total < c->total || (c->total + total) >> 61)
    return HASH_ERR_LEN;
  c->total += total;

  /* As hash_update: the engine gets whole blocks only, the rest waits in c->buf. */
  struct seg_cursor k = { seg, nseg, 0, 0 };
  const uint8_t *p;
  size_t n;
  int id = drv_algs[c->alg].engine;
  struct engine_state *e = &drv_engines[id];
  hash_plat_lock(id);
  if (in_place && c->buflen == 0 && total % c->block == 0 && drv_usable_in_place(seg, nseg)) {
    /* The caller's array is the list: no copy, no stores while the engine may still be
     * streaming the last one (docs/hash-syscall.md, "Bulk throughput"). */
    if ((r = drv_acquire(e, c)) >= 0)
      drv_start_list_at(e, hash_plat_bus_addr(seg), nseg);
    goto out;
  }
  if (c->buflen) {
    while (c->buflen < c->block && (n = seg_next(&k, c->block - c->buflen, &p)) != 0) {
      copy(c->buf + c->buflen, p, n);
      c->buflen += n;
      total -= n;
    }
    if (c->buflen < c->block)
      goto out;
  }
  size_t whole = total - total % c->block;
  /* The first list is written before anything waits for the engine, which may still
   * be walking this context's last one (_nowait): the two overlap. */
  int d = whole ? drv_build_list(e, &k, &whole) : 0;
  if (c->buflen) {
    if ((r = drv_acquire(e, c)) < 0 || (r = drv_feed_pio(e, c, c->buf, c->block, 0)) < 0)
      goto out;
    c->buflen = 0;
  }
  if (d) {
    if ((r = drv_acquire(e, c)) < 0)
      goto out;
    drv_start_list(e, d);
    while (whole) { /* more pieces than one list holds: the next list, in turn */
      d = drv_build_list(e, &k, &whole);
      if ((r = drv_wait_dma(e, c)) < 0) /* the core may still hash: it takes the next list */
        goto out;
      drv_start_list(e, d);
    }
  }
  while ((n = seg_next(&k, c->block - c->buflen, &p)) != 0) {
    copy(c->buf + c->buflen, p, n);
    c->buflen += n;
  }
  if (e->owner == c)
    e->running = 1; /* (a PIO block alone may still be in the core, too) */
out:
  /* hash_update_segs leaves the engine idle at a block boundary, done with these
   * pieces and any an earlier _nowait call gave it (even when it has no bytes for
   * the engine itself). */
  if (wait && r >= 0 && e->owner == c)
    r = drv_settle(e);
  hash_plat_unlock(id);
  return r;
}

int hash_update_segs(struct hash_ctx *c, const struct hash_seg *seg, int nseg)
{
  return update_segs(c, seg, nseg, 1, 0);
}

int hash_update_segs_nowait(struct hash_ctx *c, const struct hash_seg *seg, int nseg)
{
  return update_segs(c, seg, nseg, 0, 0);
}

int hash_update_list_nowait(struct hash_ctx *c, const struct hash_seg *list, int nseg)
{
  return update_segs(c, list, nseg, 0, 1);
}

size_t hash_cut(const struct hash_ctx *c, size_t n)
{
  if (!c || c->block == 0)
    return n;
  /* The first boundary after at least one byte: the end of the partial block, or a
   * whole block on. */
  size_t first = c->block - c->total % c->block;
  if (n < first)
    return n;
  return first + (n - first) / c->block * c->block;
}

static int sw_final(struct hash_ctx *c, uint8_t *out, size_t outlen)
{
  if (c->hmac) {
    uint8_t d[64];
    hmac_sw_final(&c->u.hmac, d); /* (wipes its key states) */
    copy(out, d, c->digest_len);
    outlen = c->digest_len;
  } else if (drv_algs[c->alg].engine == HASH_ENGINE_SHA256) {
    uint8_t d[32];
    sha256_sw_final(&c->u.sha, d);
    copy(out, d, c->digest_len);
    outlen = c->digest_len;
  } else if (drv_algs[c->alg].engine == HASH_ENGINE_SHA512) {
    uint8_t d[64];
    sha512_sw_final(&c->u.sha512, d);
    copy(out, d, c->digest_len);
    outlen = c->digest_len;
  } else {
    if (c->kmac) /* KMAC binds the output's length in bits; KMACXOF binds 0 */
      sp800185_sw_right_encode(&c->u.keccak, c->kmac == 2 ? 0 : (uint64_t)outlen << 3);
    keccak_sw_squeeze(&c->u.keccak, out, c->digest_len ? c->digest_len : outlen);
    outlen = c->digest_len ? c->digest_len : outlen;
    drv_wipe_key(c); /* KMAC: the keyed state goes with the message */
  }
  c->state = ST_FINISHED;
  return (int)outlen;
}

int hash_final(struct hash_ctx *c, uint8_t *out, size_t outlen)
{
  int r;
  if (!c)
    return HASH_ERR_ARG;
  if (c->state != ST_OPEN)
    return HASH_ERR_STATE;
  if ((r = check_out(c, out, outlen)) < 0)
    return r;
  if (c->provider == HASH_PROV_SW)
    return sw_final(c, out, outlen);

  if (c->kmac && (r = drv_kmac_encode_length(c, outlen)) < 0)
    return r;
  int id = drv_algs[c->alg].engine;
  struct engine_state *e = &drv_engines[id];
  hash_plat_lock(id);
  if ((r = drv_acquire(e, c)) >= 0 && (r = drv_feed_pio(e, c, c->buf, c->buflen, 1)) >= 0)
    r = drv_finish(e, c, out, outlen);
  hash_plat_unlock(id);
  drv_wipe_key(c);
  return r;
}

void hash_abort(struct hash_ctx *c)
{
  if (!c || c->state != ST_OPEN)
    return;
  if (c->provider == HASH_PROV_HW) {
    int id = drv_algs[c->alg].engine;
    struct engine_state *e = &drv_engines[id];
    hash_plat_lock(id);
    if (e->owner == c) {
      drv_abort_engine(e);
      e->owner = 0;
    }
    hash_plat_unlock(id);
  }
  drv_wipe_key(c);
  c->state = ST_FINISHED;
}
