/* SPDX-License-Identifier: MIT */
/*
 * Keyed hashing: HMAC over the SHA-2 engines, cSHAKE and KMAC on the Keccak engine (SP
 * 800-185), in software and on the engines, and the wiping of keys and of every state
 * derived from one (the engine's mode for a keyed message is hash_driver.h's engine_mode).
 */
#include "hash_driver.h"

/* The software HMAC's family for a SHA-2 algorithm (its mode is the engine's). */
static int sw_family(int alg)
{
  return drv_algs[alg].engine == HASH_ENGINE_SHA512 ? HMAC_SW_SHA512 : HMAC_SW_SHA256;
}

/* A keyed message's secrets must not outlive it in the context: a caller's HMAC key (or,
 * in software, the states derived from it), and on the engine the saved engine state of
 * any HMAC, the device key's too, which the lazy switch (drv_save()) leaves in c->u.hw_ctx:
 * the inner hash's state after K0 ^ ipad, derived from the key; a KMAC's sponge, which
 * has absorbed the key block. Called by final and abort and when the engine fails the
 * message (drv_fail()). */
void drv_wipe_key(struct hash_ctx *c)
{
  if (c->kmac) { /* the sponge's state after the key block (software's or the engine's saved
                    one), and on the engine the key block and the bytes stored through buf */
    volatile uint32_t *w = (volatile uint32_t *)&c->u;
    for (size_t i = 0; i < sizeof c->u / 4; i++)
      w[i] = 0;
    w = c->hw_key;
    for (size_t i = 0; i < sizeof c->hw_key / 4; i++)
      w[i] = 0;
    w = (volatile uint32_t *)c->buf;
    for (size_t i = 0; i < sizeof c->buf / 4; i++)
      w[i] = 0;
    c->kmac = c->kmac_words = 0;
    c->hw_saved = 0;
  }
  if (!c->hmac)
    return;
  volatile uint32_t *k = c->provider == HASH_PROV_SW ? (uint32_t *)&c->u.hmac : c->hw_key;
  size_t n = c->provider == HASH_PROV_SW ? sizeof c->u.hmac : sizeof c->hw_key;
  if (c->hmac == HASH_HMAC_KEY_WINDOW)
    for (size_t i = 0; i < n / 4; i++)
      k[i] = 0;
  if (c->provider == HASH_PROV_HW) {
    volatile uint32_t *w = c->u.hw_ctx;
    for (int i = 0; i < drv_engines[drv_algs[c->alg].engine].ctx_words; i++)
      w[i] = 0;
    c->hw_saved = 0;
  }
}

int hash_alg_hmac(int alg)
{
  return hmac_shift(alg) >= 0;
}

int hash_hmac_begin(struct hash_ctx *c, int alg, int provider, int flags, const void *key, size_t keylen)
{
  int devkey = flags & HASH_F_DEVKEY, r;
  uint8_t k0[4 * HASH_HMAC_KEY_WORDS];

  if (!c)
    return HASH_ERR_ARG;
  if (hmac_shift(alg) < 0)
    return HASH_ERR_ALG;
  if (devkey ? key || keylen : !key && keylen)
    return HASH_ERR_ARG;
  if ((r = hash_begin(c, alg, provider, flags & ~HASH_F_DEVKEY)) < 0)
    return r;
  if (provider == HASH_PROV_SW) {
    if (devkey) {
#ifdef HASH_PLAT_SW_DEVICE_KEY
      key = HASH_PLAT_SW_DEVICE_KEY;
      keylen = HASH_DEVICE_KEY_BYTES;
#else
      c->state = ST_FINISHED;
      return HASH_ERR_NODEV;
#endif
    }
    hmac_sw_init(&c->u.hmac, sw_family(alg), drv_algs[alg].mode, key, keylen);
    c->hmac = HASH_HMAC_KEY_WINDOW; /* (any nonzero value: software HMAC) */
    return HASH_OK;
  }
  if (devkey) {
    c->hmac = HASH_HMAC_KEY_DEVICE;
    return HASH_OK;
  }
  /* K0 (RFC 2104): the key padded with zeros, hashed first if longer than the block. */
  hmac_sw_k0(sw_family(alg), drv_algs[alg].mode, key, keylen, k0);
  for (int i = 0; i < c->block / 4; i++) {
    uint32_t w = 0;
    for (int j = 3; j >= 0; j--)
      w = w << 8 | k0[4 * i + j];
    c->hw_key[i] = w;
  }
  for (size_t i = 0; i < sizeof k0; i++)
    ((volatile uint8_t *)k0)[i] = 0;
  c->hmac = HASH_HMAC_KEY_WINDOW;
  return HASH_OK;
}

/* Nonzero if cSHAKE and KMAC run on alg's sponge (HASH_SP800_185_TABLE). */
static int sp800185_alg(int alg)
{
#define X(key, cshake, kmac) alg == HASH_##key ||
  return HASH_SP800_185_TABLE(X) 0;
#undef X
}

/* SP 800-185's bytes for the engine (sp800185_out): through hash_update by stores (they are
 * the driver's own, e.g. on a kernel stack the DMA cannot read), the first error kept. */
struct hw_out {
  struct hash_ctx *c;
  int r;
};
static void hw_out(void *arg, const void *p, size_t n)
{
  struct hw_out *o = arg;
  if (o->r >= 0) {
    uint8_t flags = o->c->flags;
    o->c->flags = (uint8_t)((flags & ~HASH_F_DMA) | HASH_F_PIO);
    o->r = hash_update(o->c, p, n);
    o->c->flags = flags;
  }
}
/* ... into a buffer of cap bytes: n counts every byte, the ones past cap are dropped (so
 * n <= cap says the whole encoding is there). */
struct buf_out {
  uint8_t *p;
  size_t n, cap;
};
static void buf_out(void *arg, const void *p, size_t n)
{
  struct buf_out *b = arg;
  if (b->n + n <= b->cap)
    copy(b->p + b->n, p, n);
  b->n += n;
}

/* cSHAKE's and KMAC's common start: SHAKE's context on alg, the sponge restarted with
 * cSHAKE's pad byte and the prefix absorbed; KMAC's key block after it. On the engine, in
 * its cSHAKE mode; a KMAC whose key block and prefix are one block each, in its KMAC mode,
 * the key block in the key words (the engine absorbs it after the prefix). */
static int sp800185_begin(struct hash_ctx *c, int alg, int provider, int flags, const void *n, size_t nlen,
    const void *s, size_t slen, const void *key, size_t keylen, int kmac)
{
  int r;
  if (!sp800185_alg(alg))
    return HASH_ERR_ALG;
  if ((!n && nlen) || (!s && slen) || (!key && keylen))
    return HASH_ERR_ARG;
  if ((r = hash_begin(c, alg, provider, flags)) < 0)
    return r;
  if (provider == HASH_PROV_SW) {
    keccak_sw_init(&c->u.keccak, drv_algs[alg].block, HASH_CSHAKE_PAD);
    sp800185_sw_prefix(&c->u.keccak, n, nlen, s, slen);
    if (kmac)
      sp800185_sw_key(&c->u.keccak, key, keylen);
    c->kmac = (uint8_t)kmac;
    return HASH_OK;
  }
  size_t rate = drv_algs[alg].block;
  c->cshake = 1;
  c->kmac = (uint8_t)kmac;
  /* The prefix (and a KMAC's key block) encoded once into a block of whole words: one
   * hash_update of a block costs ~700 clocks on litex_sim, the same bytes a piece at a
   * time ~3,000 more (and encoding them once to measure, once to write, ~1,200 a pass). */
  uint32_t blk[HASH_MAX_BLOCK / 4];
  struct buf_out pb = { (uint8_t *)blk, 0, rate };
  sp800185_prefix(buf_out, &pb, rate, n, nlen, s, slen);
  if (kmac && pb.n == rate) {
    struct buf_out kb = { (uint8_t *)c->hw_key, 0, rate };
    if (sp800185_key(buf_out, &kb, rate, key, keylen) == rate)
      c->kmac_words = (uint8_t)(rate / 4);
  }
  struct hw_out o = { c, HASH_OK };
  if (pb.n == rate)
    hw_out(&o, blk, rate);
  else /* a long name or customization: more than one block, streamed */
    sp800185_prefix(hw_out, &o, rate, n, nlen, s, slen);
  if (kmac && !c->kmac_words) { /* the key block as message data, by stores through buf */
    sp800185_key(hw_out, &o, rate, key, keylen);
    volatile uint32_t *w = (volatile uint32_t *)c->buf;
    for (size_t i = 0; i < sizeof c->buf / 4; i++)
      w[i] = 0;
  }
  if (kmac) { /* the engine has absorbed the key words (restores are in the cSHAKE mode), or
                 they hold part of a key that did not fit */
    volatile uint32_t *w = c->hw_key;
    for (size_t i = 0; i < sizeof c->hw_key / 4; i++)
      w[i] = 0;
    c->kmac_words = 0;
  }
  c->total = 0; /* the caller's message starts here */
  if (o.r < 0)
    hash_abort(c);
  return o.r;
}

/* KMAC's end (SP 800-185): the output's length in bits, right_encoded into the message
 * (KMACXOF's: 0); on a failure the message is aborted. */
int drv_kmac_encode_length(struct hash_ctx *c, size_t outlen)
{
  struct hw_out o = { c, HASH_OK };
  sp800185_right_encode(hw_out, &o, c->kmac == 2 ? 0 : (uint64_t)outlen << 3);
  if (o.r < 0)
    hash_abort(c);
  return o.r;
}

int hash_cshake_begin(struct hash_ctx *c, int alg, int provider, int flags, const void *n, size_t nlen,
    const void *s, size_t slen)
{
  if (!c)
    return HASH_ERR_ARG;
  if (!nlen && !slen && sp800185_alg(alg)) /* SP 800-185: cSHAKE with N and S empty is SHAKE */
    return hash_begin(c, alg, provider, flags);
  return sp800185_begin(c, alg, provider, flags, n, nlen, s, slen, 0, 0, 0);
}

int hash_kmac_begin(struct hash_ctx *c, int alg, int provider, int flags, const void *key, size_t keylen,
    const void *s, size_t slen)
{
  if (!c)
    return HASH_ERR_ARG;
  return sp800185_begin(c, alg, provider, flags & ~HASH_F_XOF, HASH_KMAC_NAME, sizeof HASH_KMAC_NAME - 1, s,
      slen, key, keylen, flags & HASH_F_XOF ? 2 : 1);
}

int hash_hmac(int alg, int provider, int flags, const void *key, size_t keylen, const void *data, size_t len,
    uint8_t *out, size_t outlen)
{
  struct hash_ctx c;
  int r;

  if ((r = hash_hmac_begin(&c, alg, provider, flags, key, keylen)) < 0)
    return r;
  if ((r = check_out(&c, out, outlen)) < 0 || (r = hash_update(&c, data, len)) < 0) {
    hash_abort(&c);
    return r;
  }
  return hash_final(&c, out, outlen);
}
