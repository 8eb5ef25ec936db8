/* SPDX-License-Identifier: MIT */
/*
 * HashSoC driver, inside: what its files share (the API is hashsoc/hash.h).
 *
 * Software and hardware providers behind one API. Hardware contexts are switched lazily,
 * as an OS does with FPU registers: a context keeps the engine between calls; only when
 * another context needs the engine is the holder's state exported into its struct
 * hash_ctx (10 words for SHA-256, 52 for Keccak) and imported again when it comes back.
 * To make export always possible, update() only ever gives the engine whole blocks and
 * keeps the partial block in ctx->buf; final() sends that tail with "last" and the engine
 * pads.
 *
 * One file per job; each compiles alone, with this header and the platform's shim:
 *   hash_api.c     the algorithm table, begin / update / final / abort
 *   hash_engine.c  engine ownership: probe, acquire, save (the lazy switch), waits, failure
 *   hash_feed.c    the data path: bytes in by PIO, DMA or descriptor lists; the output out
 *   hash_keyed.c   HMAC, cSHAKE and KMAC: keys, their wiping, the engine's keyed modes
 *   hash_short.c   hash_digest and its short path (a few words, no context)
 *   hash_isr.c     the interrupt handler and the busy-cycle counter
 * Names shared between the files start with drv_: they are global symbols in the kernel
 * (which has its own acquire()) and in every user program.
 *
 * Locking: an engine's state (struct engine_state, its descriptor lists) is guarded by
 * that engine's lock, hash_plat_lock(engine id), a lock the holder may sleep under (the
 * kernel's is a sleep lock). Every drv_ function that takes an engine_state is called
 * with it held, and hash_probe() takes it for an engine's first probe, which resets the
 * engine. The lock is held across the waits for the engine: an interrupt wait
 * (hash_plat_irq_wait) sleeps with it, and hash_isr, which wakes it, takes no lock (it
 * only acknowledges the event and sets irq_flag). A context (struct hash_ctx) belongs to
 * its caller, who does not use it from two threads at once.
 */
#ifndef HASHSOC_HASH_DRIVER_H
#define HASHSOC_HASH_DRIVER_H

#include "hashsoc/hash.h"
/* The platform's shim (hash_plat_read/write/lock/unlock/irq_wait/bus_addr and the bounds):
 * each user of the library names its own, -DHASH_PLAT='"hash_plat_<platform>.h"'
 * (firmware/libhash/libhash.mk, docs/driver-api.md). */
#ifndef HASH_PLAT
#error "compile with -DHASH_PLAT='\"hash_plat_<platform>.h\"' (firmware/libhash/libhash.mk)"
#endif
#include HASH_PLAT
#include "hashsoc/hash_regs.h"

#ifndef HASH_PLAT_POLLS_BEFORE_SLEEP
#define HASH_PLAT_POLLS_BEFORE_SLEEP 0 /* the platform's shim may set a bound */
#endif

enum { ST_IDLE, ST_OPEN, ST_FINISHED };

struct alg_info {
  const char *name;
  uint8_t engine, mode, digest, block, pad;
};

/* One row per algorithm, in enum order, from the one description (hash_spec.h). */
extern const struct alg_info drv_algs[HASH_ALG_COUNT];

static inline int valid_alg(int alg)
{
  return alg >= 0 && alg < HASH_ALG_COUNT;
}

/* The driver's view of one engine (an accelerator: the frontend and its core,
 * gateware/common/engine.py; "engine" always means that hardware unit). Guarded by the
 * engine's lock. */
struct engine_state {
  uintptr_t csr, win;
  uint32_t ident;
  uint8_t ctx_words;      /* context words that make up an exported state */
  int8_t present;         /* -1: not probed yet */
  uint8_t draining;       /* aborted since: a DMA may still be ending a bus read */
  struct hash_ctx *owner; /* context whose state is in the engine */
  volatile int irq_flag;  /* set by hash_isr, waited on by hash_plat_irq_wait */
  uint32_t irq_events;    /* HASH_F_IRQ: the events that end the current wait */
  uint8_t running;        /* the engine may still work for the owner: its last list (after
                             hash_update_segs_nowait), or the core on the last block */
  uint8_t list;           /* which of the engine's two descriptor lists it was last given */
};

extern struct engine_state drv_engines[HASH_ENGINE_COUNT];

static inline void copy(void *dst, const void *src, size_t n)
{
  uint8_t *d = dst;
  const uint8_t *s = src;
  while (n--)
    *d++ = *s++;
}

/* ---- registers ---- */

static inline uint32_t rd(struct engine_state *e, uint32_t off)
{
  return hash_plat_read(e->csr + off);
}
static inline void wr(struct engine_state *e, uint32_t off, uint32_t v)
{
  hash_plat_write(e->csr + off, v);
}

/* Wait, bounded, until the engine is not busy (a stopped DMA has ended its last read);
 * 0, or -1 on time-out. Used by drv_acquire() always and by the short path after an abort. */
static inline __attribute__((always_inline)) int wait_idle(struct engine_state *e)
{
  for (uint32_t n = 0; rd(e, HREG(STATUS)) & HBIT(STATUS, BUSY); n++)
    if (n >= HASH_PLAT_SPIN_LIMIT)
      return -1;
  e->draining = 0;
  return 0;
}

/* ---- small helpers, inlined where they are called: as calls into another file they sat
 * outside the firmware's hot block (linker.ld), and a one-shot DMA digest of 5 bytes paid
 * their instruction-cache refills: 695 clocks on litex_sim with hash.c in one file, 1,022
 * with these out of line, 736 inlined (docs/bench.md) ---- */

/* alg's engine, probed on first use; 0 if the SoC has none. */
static inline struct engine_state *engine_for(int alg)
{
  struct engine_state *e = &drv_engines[drv_algs[alg].engine];
  if (e->present < 0)
    hash_probe();
  return e->present ? e : 0;
}

/* Name the events that end the next wait (HASH_F_IRQ); drv_wait_status enables them only
 * if it is going to sleep. */
static inline void irq_arm(struct engine_state *e, struct hash_ctx *c, uint32_t events)
{
  if (c->flags & HASH_F_IRQ)
    e->irq_events = events | HBIT(EV_ENABLE, ERROR);
}

/* HMAC over alg: where the key source's bits start in the engine's mode (HASH_HMAC_TABLE),
 * or -1 if no engine HMACs alg. */
static inline int hmac_shift(int alg)
{
#define X(key, shift) alg == HASH_##key ? shift:
  return HASH_HMAC_TABLE(X) - 1;
#undef X
}

/* alg's cSHAKE mode on the engine, or with kmac its KMAC mode (HASH_SP800_185_TABLE). */
static inline uint32_t sp800185_mode(int alg, int kmac)
{
#define X(key, cshake, kmac_mode) alg == HASH_##key ? (kmac ? kmac_mode : cshake):
  return HASH_SP800_185_TABLE(X) 0;
#undef X
}

/* The engine's ctrl.mode for c's message: the hash's, with an HMAC's key source, or the
 * cSHAKE mode (KMAC's mode for the init that takes its key block). A saved message is
 * imported in the cSHAKE mode: its key block is in the state. */
static inline uint32_t engine_mode(const struct hash_ctx *c)
{
  if (c->cshake)
    return sp800185_mode(c->alg, c->kmac_words != 0);
  return drv_algs[c->alg].mode | (c->hmac ? (uint32_t)c->hmac << hmac_shift(c->alg) : 0);
}

/* The output buffer hash_final (and hash_digest) may write: the digest's length at least. */
static inline int check_out(struct hash_ctx *c, uint8_t *out, size_t outlen)
{
  if (!out && outlen)
    return HASH_ERR_ARG;
  if (c->digest_len ? outlen < c->digest_len : outlen > 0x7fffffff)
    return HASH_ERR_LEN;
  if (c->digest_len && !out)
    return HASH_ERR_ARG;
  return HASH_OK;
}

/* ---- engine ownership (hash_engine.c) ---- */

void drv_abort_engine(struct engine_state *e);
uint32_t drv_reset_engine(struct engine_state *e);
int drv_fail(struct engine_state *e, struct hash_ctx *c, int err);
int drv_wait_status(struct engine_state *e, struct hash_ctx *c, uint32_t mask, uint32_t want);
int drv_wait_dma(struct engine_state *e, struct hash_ctx *c);
int drv_settle(struct engine_state *e);
void drv_save(struct engine_state *e, struct hash_ctx *o);
int drv_acquire(struct engine_state *e, struct hash_ctx *c);

/* ---- the data path (hash_feed.c) ---- */

/* A word of a byte buffer, read or written whole when the buffer is aligned. */
typedef uint32_t __attribute__((may_alias)) word_t;

/* The helpers of the short path (digest_short) are inlined so that its code is one
 * contiguous piece: VexRiscv's instruction cache is direct mapped (4 KiB), and a helper
 * placed elsewhere in the driver shared cache lines with it, refilling 16 lines (~260
 * clocks) on every call (seen in a Verilator trace of the I-bus). */
#define HOT         static inline __attribute__((always_inline))
/* Taken branches cost VexRiscv 2-4 clocks: the short path is laid out as fall-through. */
#define likely(x)   __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

HOT void pio_words(struct engine_state *e, const uint8_t *p, size_t n)
{
  uintptr_t w = e->win + HWIN_DATA;
  if (((uintptr_t)p & 3) == 0) {
    const word_t *q = (const word_t *)p;
    size_t i = 0, words = n / 4;
    for (; i + 4 <= words; i += 4) { /* four at a time, as read_out */
      uint32_t a = q[i], b = q[i + 1], c = q[i + 2], d = q[i + 3];
      hash_plat_write(w, a);
      hash_plat_write(w, b);
      hash_plat_write(w, c);
      hash_plat_write(w, d);
    }
    for (; i < words; i++)
      hash_plat_write(w, q[i]);
  } else {
    for (size_t i = 0; i + 4 <= n; i += 4)
      hash_plat_write(w, p[i] | p[i + 1] << 8 | p[i + 2] << 16 | (uint32_t)p[i + 3] << 24);
  }
}

HOT void pio_final(struct engine_state *e, const uint8_t *p, size_t k)
{
  uint32_t v = 0;
  if (((uintptr_t)p & 3) == 0) {
    /* The whole aligned word: the engine keeps only its first k bytes, and the word
     * cannot cross a page, so reading past the k bytes is harmless. */
    if (k)
      v = *(const word_t *)p;
  } else {
    for (size_t i = 0; i < k; i++)
      v |= (uint32_t)p[i] << (8 * i);
  }
  hash_plat_write(e->win + HWIN_FINAL + 4 * k, v);
}

/* Copy n output bytes from the context window: word stores when out is aligned. */
HOT void read_out(struct engine_state *e, uint8_t *out, size_t n)
{
  uintptr_t w = e->win + HWIN_CTX;
  size_t i = 0;
  if (likely(((uintptr_t)out & 3) == 0)) {
    /* Four at a time (the loop's branch costs as much as a store), each word stored as
     * soon as it is read: a store to main RAM keeps the ULX3S twin's write-through L2
     * busy for ~10 clocks, which the next window read (another slave) overlaps, where
     * four stores in a row would wait for each other. */
    for (; i + 16 <= n; i += 16) {
      word_t *o = (word_t *)(out + i);
      o[0] = hash_plat_read(w + i);
      o[1] = hash_plat_read(w + i + 4);
      o[2] = hash_plat_read(w + i + 8);
      o[3] = hash_plat_read(w + i + 12);
    }
    for (; i + 4 <= n; i += 4)
      *(word_t *)(out + i) = hash_plat_read(w + i);
  }
  for (; i < n; i += 4) {
    uint32_t v = hash_plat_read(w + i);
    for (size_t j = 0; j < 4 && i + j < n; j++)
      out[i + j] = v >> (8 * j);
  }
}

/* A cursor over the caller's pieces: the next byte is seg[i].data[off]. */
struct seg_cursor {
  const struct hash_seg *seg;
  int nseg, i;
  size_t off;
};

/* The next run of at most max bytes at the cursor (skipping empty pieces); 0 at the end.
 * Inlined into the list loop (drv_build_list): as a call it shared I-cache lines with the
 * loop (VexRiscv's 4 KiB direct-mapped cache), and the two evicted each other on every
 * descriptor, ~170 clocks each instead of ~20 (the "sg512" benchmark row). */
HOT size_t seg_next(struct seg_cursor *k, size_t max, const uint8_t **p)
{
  while (k->i < k->nseg && k->off == k->seg[k->i].len) {
    k->i++;
    k->off = 0;
  }
  if (k->i == k->nseg || max == 0)
    return 0;
  size_t n = k->seg[k->i].len - k->off;
  n = n < max ? n : max;
  *p = (const uint8_t *)k->seg[k->i].data + k->off;
  k->off += n;
  return n;
}

int drv_feed_pio(struct engine_state *e, struct hash_ctx *c, const uint8_t *p, size_t n, int last);
int drv_feed(struct engine_state *e, struct hash_ctx *c, const uint8_t *p, size_t n, int last);
int drv_build_list(struct engine_state *e, struct seg_cursor *k, size_t *n);
void drv_start_list_at(struct engine_state *e, uint32_t list, int d);
void drv_start_list(struct engine_state *e, int d);
int drv_usable_in_place(const struct hash_seg *seg, int nseg);
int drv_finish(struct engine_state *e, struct hash_ctx *c, uint8_t *out, size_t outlen);

/* ---- keys (hash_keyed.c) ---- */

void drv_wipe_key(struct hash_ctx *c);
int drv_kmac_encode_length(struct hash_ctx *c, size_t outlen);


#endif
