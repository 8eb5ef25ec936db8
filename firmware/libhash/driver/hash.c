/* SPDX-License-Identifier: MIT */
/*
 * HashSoC driver: software and hardware providers behind one API (hashsoc/hash.h).
 *
 * Hardware contexts are switched lazily, as an OS does with FPU registers: a context
 * keeps the engine between calls; only when another context needs the engine is the
 * holder's state exported into its struct hash_ctx (10 words for SHA-256, 52 for Keccak)
 * and imported again when it comes back. To make export always possible, update() only
 * ever gives the engine whole blocks and keeps the partial block in ctx->buf; final()
 * sends that tail with "last" and the engine pads.
 */
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
static const struct alg_info algs[HASH_ALG_COUNT] = {
#define ALG(key, name, title, engine, mode, digest, block, pad)                                              \
  [HASH_##key] = { title, engine, mode, digest, block, pad },
  HASH_ALG_TABLE(ALG)
#undef ALG
};

/* HMAC over alg: where the key source's bits start in the engine's mode (HASH_HMAC_TABLE),
 * or -1 if no engine HMACs alg. */
static int hmac_shift(int alg)
{
#define X(key, shift) alg == HASH_##key ? shift:
  return HASH_HMAC_TABLE(X) - 1;
#undef X
}

/* The software HMAC's family for a SHA-2 algorithm (its mode is the engine's). */
static int sw_family(int alg)
{
  return algs[alg].engine == HASH_ENGINE_SHA512 ? HMAC_SW_SHA512 : HMAC_SW_SHA256;
}

/* The driver's view of one engine (an accelerator: the frontend and its core,
 * gateware/common/engine.py; "engine" always means that hardware unit). */
struct engine_state {
  uintptr_t csr, win;
  uint32_t ident;
  uint8_t ctx_words;      /* context words that make up an exported state */
  int8_t present;         /* -1: not probed yet */
  uint8_t draining;       /* aborted since: a DMA may still be ending a bus read */
  struct hash_ctx *owner; /* context whose state is in the engine */
  volatile int irq_flag;
  uint32_t irq_events; /* HASH_F_IRQ: the events that end the current wait */
  uint8_t running;     /* the engine may still work for the owner: its last list (after
                          hash_update_segs_nowait), or the core on the last block */
  uint8_t list;        /* which of the engine's two sg_lists it was last given */
};

static struct engine_state engines[HASH_ENGINE_COUNT] = {
#define ENGINE(key, ident, ctx_words)                                                                        \
  [HASH_ENGINE_##key] = { HASH_##key##_CSR_BASE, HASH_##key##_WIN_BASE, ident, ctx_words, -1, 0, 0, 0, 0 },
  HASH_ENGINE_TABLE(ENGINE)
#undef ENGINE
};

static int valid_alg(int alg)
{
  return alg >= 0 && alg < HASH_ALG_COUNT;
}
const char *hash_alg_name(int alg)
{
  return valid_alg(alg) ? algs[alg].name : 0;
}
int hash_alg_digest_len(int alg)
{
  return valid_alg(alg) ? algs[alg].digest : HASH_ERR_ALG;
}
int hash_alg_block_len(int alg)
{
  return valid_alg(alg) ? algs[alg].block : HASH_ERR_ALG;
}
int hash_alg_engine(int alg)
{
  return valid_alg(alg) ? algs[alg].engine : HASH_ERR_ALG;
}

static void copy(void *dst, const void *src, size_t n)
{
  uint8_t *d = dst;
  const uint8_t *s = src;
  while (n--)
    *d++ = *s++;
}

/* ---- registers ---- */

static uint32_t rd(struct engine_state *e, uint32_t off)
{
  return hash_plat_read(e->csr + off);
}
static void wr(struct engine_state *e, uint32_t off, uint32_t v)
{
  hash_plat_write(e->csr + off, v);
}

/* Drop the engine's message (abort + err_clear). A DMA it stopped may still be ending
 * its last bus read, so the engine stays busy for a few clocks: the next user waits for
 * that (acquire() always, the short path when this flag says so). */
static void abort_engine(struct engine_state *e)
{
  wr(e, HREG(CTRL), HBIT(CTRL, ABORT) | HBIT(CTRL, ERR_CLEAR));
  e->draining = 1;
  e->running = 0;
}

/* Wait, bounded, until the engine is not busy (a stopped DMA has ended its last read);
 * 0, or -1 on time-out. Used by acquire() always and by the short path after an abort. */
static inline __attribute__((always_inline)) int wait_idle(struct engine_state *e)
{
  for (uint32_t n = 0; rd(e, HREG(STATUS)) & HBIT(STATUS, BUSY); n++)
    if (n >= HASH_PLAT_SPIN_LIMIT)
      return -1;
  e->draining = 0;
  return 0;
}

/* The first call reads the ID registers and resets the engines; later calls only report
 * (resetting then would destroy a message some context holds in an engine). */
int hash_probe(void)
{
  int mask = 0;
  for (int i = 0; i < HASH_ENGINE_COUNT; i++) {
    struct engine_state *e = &engines[i];
    if (e->present < 0) {
      e->present = e->csr != 0 && rd(e, HREG(ID)) == e->ident;
      if (e->present) {
        wr(e, HREG(EV_ENABLE), 0);
        abort_engine(e);
      }
    }
    if (e->present)
      mask |= 1 << i;
  }
  return mask;
}

static struct engine_state *engine_for(int alg)
{
  struct engine_state *e = &engines[algs[alg].engine];
  if (e->present < 0)
    hash_probe();
  return e->present ? e : 0;
}

/* Drop whatever the engine holds and leave it clean for the next user; returns its
 * error bits. */
static uint32_t reset_engine(struct engine_state *e)
{
  uint32_t errors = rd(e, HREG(ERRORS));
  abort_engine(e);
  wr(e, HREG(EV_ENABLE), 0);
  e->irq_events = 0;
  e->owner = 0;
  return errors;
}

static void wipe_key(struct hash_ctx *c);

/* The engine failed: drop the message (and a keyed one's secrets: nobody calls final or
 * abort on a finished message). */
static int fail(struct engine_state *e, struct hash_ctx *c, int err)
{
  c->hw_errors = reset_engine(e);
  c->state = ST_FINISHED;
  wipe_key(c);
  return err;
}

/* Name the events that end the next wait (HASH_F_IRQ); wait_status enables them only
 * if it is going to sleep. */
static void irq_arm(struct engine_state *e, struct hash_ctx *c, uint32_t events)
{
  if (c->flags & HASH_F_IRQ)
    e->irq_events = events | HBIT(EV_ENABLE, ERROR);
}

/* Wait until (status & mask) == want. Bounded; an error bit fails the message. */
static int wait_status(struct engine_state *e, struct hash_ctx *c, uint32_t mask, uint32_t want)
{
  if (e->irq_events) {
    /* Adaptive: most waits (a block, a page of DMA) end sooner than an interrupt
     * round trip through the OS. Poll up to the platform's bound with the interrupt
     * off; only then enable it, look once more (so a completion between the last
     * poll and the enable is not missed: status is a level), and sleep. */
    uint32_t st = rd(e, HREG(STATUS));
    for (uint32_t n = 0;
         n < HASH_PLAT_POLLS_BEFORE_SLEEP && (st & mask) != want && !(st & HBIT(STATUS, ERROR)); n++)
      st = rd(e, HREG(STATUS));
    if ((st & mask) != want && !(st & HBIT(STATUS, ERROR))) {
      e->irq_flag = 0;
      wr(e, HREG(EV_PENDING), 0xffffffffu);
      wr(e, HREG(EV_ENABLE), e->irq_events);
      st = rd(e, HREG(STATUS));
      if ((st & mask) != want && !(st & HBIT(STATUS, ERROR)))
        hash_plat_irq_wait(e - engines, &e->irq_flag);
      wr(e, HREG(EV_ENABLE), 0);
    }
    e->irq_events = 0;
  }
  for (uint32_t n = 0;; n++) {
    uint32_t st = rd(e, HREG(STATUS));
    if (st & HBIT(STATUS, ERROR))
      return fail(e, c, HASH_ERR_HW);
    if ((st & mask) == want)
      return HASH_OK;
    if (n >= HASH_PLAT_SPIN_LIMIT)
      return fail(e, c, HASH_ERR_TIMEOUT);
  }
}

/* ---- moving the engine between contexts ---- */

/* Wait for the engine's DMA to end (sleeping on its interrupt with HASH_F_IRQ). A DMA
 * that already ended may have ended on an error (a bad descriptor stops the list): that
 * fails the message here, before the caller gives the engine anything more. */
static int wait_dma(struct engine_state *e, struct hash_ctx *c)
{
  uint32_t st = rd(e, HREG(STATUS));
  if (st & HBIT(STATUS, ERROR))
    return fail(e, c, HASH_ERR_HW);
  if (!(st & HBIT(STATUS, DMA_BUSY)))
    return HASH_OK;
  irq_arm(e, c, HBIT(EV_ENABLE, DMA));
  return wait_status(e, c, HBIT(STATUS, DMA_BUSY), 0);
}

/* Let the owner's last list end (hash_update_segs_nowait returned while the engine
 * still read it): then the engine is idle at a block boundary, as every other call
 * leaves it. A failure is the owner's: fail() finishes its message and frees the
 * engine, and the owner's next call reports it. */
static int settle(struct engine_state *e)
{
  if (!e->running)
    return HASH_OK;
  e->running = 0;
  struct hash_ctx *o = e->owner;
  int r = wait_dma(e, o);
  /* The core still hashes the last block or two: tens of clocks, polled. */
  return r < 0 ? r : wait_status(e, o, HBIT(STATUS, BUSY), 0);
}

static void save(struct engine_state *e, struct hash_ctx *o)
{
  if (settle(e) < 0)
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
  struct engine_state *e = &engines[engine];
  hash_plat_lock(engine);
  if (e->owner)
    save(e, e->owner);
  hash_plat_unlock(engine);
}

/* alg's cSHAKE mode on the engine, or with kmac its KMAC mode (HASH_SP800_185_TABLE). */
static uint32_t sp800185_mode(int alg, int kmac)
{
#define X(key, cshake, kmac_mode) alg == HASH_##key ? (kmac ? kmac_mode : cshake):
  return HASH_SP800_185_TABLE(X) 0;
#undef X
}

/* The engine's ctrl.mode for c's message: the hash's, with an HMAC's key source, or the
 * cSHAKE mode (KMAC's mode for the init that takes its key block). A saved message is
 * imported in the cSHAKE mode: its key block is in the state. */
static uint32_t engine_mode(const struct hash_ctx *c)
{
  if (c->cshake)
    return sp800185_mode(c->alg, c->kmac_words != 0);
  return algs[c->alg].mode | (c->hmac ? (uint32_t)c->hmac << hmac_shift(c->alg) : 0);
}

/* Make the engine hold c's message: open it in c's mode, importing saved state. */
static int acquire(struct engine_state *e, struct hash_ctx *c)
{
  /* The owner goes on: only its DMA must have ended. The engine takes a command or PIO
   * words while the core still hashes the last block (the frontend holds them until the
   * core is ready), so that tail overlaps setting up what comes next (a long hash()'s
   * chunks: docs/hash-syscall.md, "Bulk throughput"). `running` stays set, so whatever
   * needs the engine idle (save, a waiting call's end) still settles it. */
  if (e->owner == c)
    return e->running ? wait_dma(e, c) : HASH_OK;
  if (e->owner)
    save(e, e->owner);
  /* After an abort the DMA may still be ending its last bus read. */
  if (wait_idle(e) < 0)
    return fail(e, c, HASH_ERR_TIMEOUT);
  if (c->hmac == HASH_HMAC_KEY_WINDOW || c->kmac_words) {
    /* The key words are write-only and shared, so c's K0 is written before every init
     * (a KMAC's key block before its first). The engine refuses them while a message is
     * open, as the one save() left is. */
    wr(e, HREG(CTRL), HBIT(CTRL, ABORT));
    for (int i = 0; i < (c->hmac ? c->block / 4 : c->kmac_words); i++)
      hash_plat_write(e->win + HWIN_KEY + 4 * i, c->hw_key[i]);
  }
  wr(e, HREG(CTRL), HBIT(CTRL, INIT) | engine_mode(c) << HSHIFT(CTRL, MODE));
  if (c->hw_saved) {
    /* HMAC: init hashes K0 ^ ipad first (~80 clocks); the import overwrites its result.
     * wait_status() has failed the message on an error or a time-out: pass on which. */
    int r = c->hmac ? wait_status(e, c, HBIT(STATUS, BUSY), 0) : HASH_OK;
    if (r < 0)
      return r;
    for (int i = 0; i < e->ctx_words; i++)
      hash_plat_write(e->win + HWIN_CTX + 4 * i, c->u.hw_ctx[i]);
    c->hw_saved = 0;
  }
  if (rd(e, HREG(STATUS)) & HBIT(STATUS, ERROR))
    return fail(e, c, HASH_ERR_HW);
  e->owner = c;
  return HASH_OK;
}

/* ---- feeding data ---- */

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

/* Give the engine n bytes by CPU stores; with last, they end the message. */
static int feed_pio(struct engine_state *e, struct hash_ctx *c, const uint8_t *p, size_t n, int last)
{
  pio_words(e, p, n & ~(size_t)3);
  if (last)
    pio_final(e, p + (n & ~(size_t)3), n & 3);
  if (rd(e, HREG(STATUS)) & HBIT(STATUS, ERROR))
    return fail(e, c, HASH_ERR_HW);
  return HASH_OK;
}

/* Give the engine the caller's n bytes (DMA unless HASH_F_PIO); with last, they end the
 * message. Bytes from the context's own buffer always go by feed_pio: at most one block,
 * and the context may live where DMA cannot read (e.g. an OS kernel stack that is not
 * mapped virtual = physical). */
static int feed(struct engine_state *e, struct hash_ctx *c, const uint8_t *p, size_t n, int last)
{
  if (c->flags & HASH_F_PIO)
    return feed_pio(e, c, p, n, last);
  if (n == 0) { /* nothing to read: just close the message */
    if (last)
      pio_final(e, p, 0);
    return HASH_OK;
  }
  wr(e, HREG(DMA_ADDR), hash_plat_bus_addr(p));
  wr(e, HREG(DMA_LEN), (uint32_t)n);
  irq_arm(e, c, HBIT(EV_ENABLE, DMA));
  wr(e, HREG(DMA_CTRL), HBIT(DMA_CTRL, START) | (last ? HBIT(DMA_CTRL, LAST) : 0));
  return wait_status(e, c, HBIT(STATUS, DMA_BUSY), 0);
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

/* A cursor over the caller's pieces: the next byte is seg[i].data[off]. */
struct seg_cursor {
  const struct hash_seg *seg;
  int nseg, i;
  size_t off;
};

/* The next run of at most max bytes at the cursor (skipping empty pieces); 0 at the end.
 * Inlined into the list loop below: as a call it shared I-cache lines with the loop
 * (VexRiscv's 4 KiB direct-mapped cache), and the two evicted each other on every
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

/* Write the next pieces at the cursor, at most *n bytes and HASH_PLAT_SG_MAX pieces,
 * into the list the engine is not reading; return how many, *n less their bytes.
 * The cursor and the count are copied into locals and written back once: the loop then
 * stores only the list itself. This runs while the engine may still stream the last
 * list, and on a board every store waits for the engine's port to yield the SDRAM; kept
 * in memory, the cursor cost ~4 more stores per piece (docs/hash-syscall.md, "Bulk
 * throughput"). */
static int build_list(struct engine_state *e, struct seg_cursor *k, size_t *n)
{
  uint32_t *list = sg_lists[e - engines][!e->list];
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
 * idle and the caller's). The caller waits for it, or leaves that to settle(). */
static void start_list_at(struct engine_state *e, uint32_t list, int d)
{
  wr(e, HREG(DMA_ADDR), list);
  wr(e, HREG(DMA_LEN), (uint32_t)d);
  wr(e, HREG(DMA_CTRL), HBIT(DMA_CTRL, START) | HBIT(DMA_CTRL, LIST));
  e->running = 1;
}

/* ... on the d pieces build_list wrote. */
static void start_list(struct engine_state *e, int d)
{
  e->list = !e->list;
  start_list_at(e, hash_plat_bus_addr(sg_lists[e - engines][e->list]), d);
}

/* Can the engine read the caller's pieces as its list (hash_update_list_nowait)? The
 * layout is known at compile time; the rest is looked at with loads only. */
static int usable_in_place(const struct hash_seg *seg, int nseg)
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

/* After the last bytes: wait for done, read the output, free the engine. */
static int finish(struct engine_state *e, struct hash_ctx *c, uint8_t *out, size_t outlen)
{
  const struct alg_info *a = &algs[c->alg];
  size_t want = a->digest ? a->digest : outlen;
  size_t got = 0;
  int r;

  irq_arm(e, c, HBIT(EV_ENABLE, DONE));
  if ((r = wait_status(e, c, HBIT(STATUS, DONE), HBIT(STATUS, DONE))) < 0)
    return r;
  for (;;) {
    size_t n = want - got < a->block ? want - got : a->block;
    read_out(e, out + got, n);
    got += n;
    if (got == want)
      break;
    irq_arm(e, c, HBIT(EV_ENABLE, DONE));
    wr(e, HREG(CTRL), HBIT(CTRL, SQUEEZE) | ((uint32_t)a->mode << HSHIFT(CTRL, MODE)));
    if ((r = wait_status(e, c, HBIT(STATUS, DONE), HBIT(STATUS, DONE))) < 0)
      return r;
  }
  e->owner = 0;
  e->running = 0; /* done: the engine is idle */
  c->state = ST_FINISHED;
  return (int)got;
}

/* ---- the API ---- */

/* A keyed message's secrets must not outlive it in the context: a caller's HMAC key (or,
 * in software, the states derived from it), and on the engine the saved engine state of
 * any HMAC, the device key's too, which the lazy switch (save()) leaves in c->u.hw_ctx:
 * the inner hash's state after K0 ^ ipad, derived from the key; a KMAC's sponge, which
 * has absorbed the key block. Called by final and abort and when the engine fails the
 * message (fail()). */
static void wipe_key(struct hash_ctx *c)
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
    for (int i = 0; i < engines[algs[c->alg].engine].ctx_words; i++)
      w[i] = 0;
    c->hw_saved = 0;
  }
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
    struct engine_state *e = &engines[i];
    if (e->owner == c) {
      hash_plat_lock(i);
      abort_engine(e);
      e->owner = 0;
      hash_plat_unlock(i);
    }
  }
  c->alg = alg;
  c->provider = provider;
  c->flags = flags;
  c->block = algs[alg].block;
  c->digest_len = algs[alg].digest;
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
  } else if (algs[alg].engine == HASH_ENGINE_SHA256) {
    sha256_sw_init(&c->u.sha, alg == HASH_SHA224);
  } else if (algs[alg].engine == HASH_ENGINE_SHA512) {
    sha512_sw_init(&c->u.sha512, algs[alg].mode); /* (its modes are the engine's) */
  } else {
    keccak_sw_init(&c->u.keccak, algs[alg].block, algs[alg].pad);
  }
  c->state = ST_OPEN;
  return HASH_OK;
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
    hmac_sw_init(&c->u.hmac, sw_family(alg), algs[alg].mode, key, keylen);
    c->hmac = HASH_HMAC_KEY_WINDOW; /* (any nonzero value: software HMAC) */
    return HASH_OK;
  }
  if (devkey) {
    c->hmac = HASH_HMAC_KEY_DEVICE;
    return HASH_OK;
  }
  /* K0 (RFC 2104): the key padded with zeros, hashed first if longer than the block. */
  hmac_sw_k0(sw_family(alg), algs[alg].mode, key, keylen, k0);
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
    keccak_sw_init(&c->u.keccak, algs[alg].block, HASH_CSHAKE_PAD);
    sp800185_sw_prefix(&c->u.keccak, n, nlen, s, slen);
    if (kmac)
      sp800185_sw_key(&c->u.keccak, key, keylen);
    c->kmac = (uint8_t)kmac;
    return HASH_OK;
  }
  size_t rate = algs[alg].block;
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
    else if (algs[c->alg].engine == HASH_ENGINE_SHA256)
      sha256_sw_update(&c->u.sha, p, len);
    else if (algs[c->alg].engine == HASH_ENGINE_SHA512)
      sha512_sw_update(&c->u.sha512, p, len);
    else
      keccak_sw_absorb(&c->u.keccak, p, len);
    return HASH_OK;
  }

  int id = algs[c->alg].engine;
  struct engine_state *e = &engines[id];
  hash_plat_lock(id);
  if (c->buflen) {
    size_t take = c->block - c->buflen < len ? c->block - c->buflen : len;
    copy(c->buf + c->buflen, p, take);
    c->buflen += take;
    p += take;
    len -= take;
    if (c->buflen < c->block)
      goto out; /* all of data is in buf; nothing for the engine yet */
    if ((r = acquire(e, c)) < 0 || (r = feed_pio(e, c, c->buf, c->block, 0)) < 0)
      goto out;
    c->buflen = 0;
  }
  size_t whole = len - len % c->block;
  if (whole) {
    if ((r = acquire(e, c)) < 0 || (r = feed(e, c, p, whole, 0)) < 0)
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
    r = settle(e);
  hash_plat_unlock(id);
  return r;
}

/* hash_update_segs and its _nowait form: with wait 0 the call returns once the engine
 * has its last list, and the next call that needs the engine waits for it (settle). */
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
  int id = algs[c->alg].engine;
  struct engine_state *e = &engines[id];
  hash_plat_lock(id);
  if (in_place && c->buflen == 0 && total % c->block == 0 && usable_in_place(seg, nseg)) {
    /* The caller's array is the list: no copy, no stores while the engine may still be
     * streaming the last one (docs/hash-syscall.md, "Bulk throughput"). */
    if ((r = acquire(e, c)) >= 0)
      start_list_at(e, hash_plat_bus_addr(seg), nseg);
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
  int d = whole ? build_list(e, &k, &whole) : 0;
  if (c->buflen) {
    if ((r = acquire(e, c)) < 0 || (r = feed_pio(e, c, c->buf, c->block, 0)) < 0)
      goto out;
    c->buflen = 0;
  }
  if (d) {
    if ((r = acquire(e, c)) < 0)
      goto out;
    start_list(e, d);
    while (whole) { /* more pieces than one list holds: the next list, in turn */
      d = build_list(e, &k, &whole);
      if ((r = wait_dma(e, c)) < 0) /* the core may still hash: it takes the next list */
        goto out;
      start_list(e, d);
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
    r = settle(e);
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
  } else if (algs[c->alg].engine == HASH_ENGINE_SHA256) {
    uint8_t d[32];
    sha256_sw_final(&c->u.sha, d);
    copy(out, d, c->digest_len);
    outlen = c->digest_len;
  } else if (algs[c->alg].engine == HASH_ENGINE_SHA512) {
    uint8_t d[64];
    sha512_sw_final(&c->u.sha512, d);
    copy(out, d, c->digest_len);
    outlen = c->digest_len;
  } else {
    if (c->kmac) /* KMAC binds the output's length in bits; KMACXOF binds 0 */
      sp800185_sw_right_encode(&c->u.keccak, c->kmac == 2 ? 0 : (uint64_t)outlen << 3);
    keccak_sw_squeeze(&c->u.keccak, out, c->digest_len ? c->digest_len : outlen);
    outlen = c->digest_len ? c->digest_len : outlen;
    wipe_key(c); /* KMAC: the keyed state goes with the message */
  }
  c->state = ST_FINISHED;
  return (int)outlen;
}

static int check_out(struct hash_ctx *c, uint8_t *out, size_t outlen)
{
  if (!out && outlen)
    return HASH_ERR_ARG;
  if (c->digest_len ? outlen < c->digest_len : outlen > 0x7fffffff)
    return HASH_ERR_LEN;
  if (c->digest_len && !out)
    return HASH_ERR_ARG;
  return HASH_OK;
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

  if (c->kmac) { /* KMAC binds the output's length in bits; KMACXOF binds 0 */
    struct hw_out o = { c, HASH_OK };
    sp800185_right_encode(hw_out, &o, c->kmac == 2 ? 0 : (uint64_t)outlen << 3);
    if (o.r < 0) {
      hash_abort(c);
      return o.r;
    }
  }
  int id = algs[c->alg].engine;
  struct engine_state *e = &engines[id];
  hash_plat_lock(id);
  if ((r = acquire(e, c)) >= 0 && (r = feed_pio(e, c, c->buf, c->buflen, 1)) >= 0)
    r = finish(e, c, out, outlen);
  hash_plat_unlock(id);
  wipe_key(c);
  return r;
}

void hash_abort(struct hash_ctx *c)
{
  if (!c || c->state != ST_OPEN)
    return;
  if (c->provider == HASH_PROV_HW) {
    int id = algs[c->alg].engine;
    struct engine_state *e = &engines[id];
    hash_plat_lock(id);
    if (e->owner == c) {
      abort_engine(e);
      e->owner = 0;
    }
    hash_plat_unlock(id);
  }
  wipe_key(c);
  c->state = ST_FINISHED;
}

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
 * leaf: it saves two registers on the stack where it saved five when it called save().
 * On the ULX3S twin a store to main RAM right after another costs ~10 clocks (the
 * write-through L2 waits for the SDRAM). The rare cases, an engine someone else holds
 * or an abort still draining, go to digest_short_settle, and a failure to short_failed,
 * by tail calls, for the same reason.
 */
/* The short path failed: leave the engine clean; a tail call, as digest_short_settle. */
static __attribute__((noinline)) int short_failed(struct engine_state *e, int err)
{
  reset_engine(e);
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
  struct engine_state *e = &engines[id];
  int r;

  /* Another context's open message is saved lazily, as acquire() does; after an abort,
   * the stopped DMA may still be ending its last read. */
  if (e->owner != 0)
    save(e, e->owner);
  if (e->draining && wait_idle(e) < 0)
    r = short_failed(e, HASH_ERR_TIMEOUT);
  else
    r = short_run(e, mode, p, n, out, want);
  hash_plat_unlock(id);
  return r;
}

HOT int digest_short(int id, uint8_t mode, const uint8_t *p, size_t n, uint8_t *out, size_t want)
{
  struct engine_state *e = &engines[id];
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
  int id = algs[alg].engine;
  struct engine_state *e = &engines[id];
  hash_plat_lock(id);
  if ((r = acquire(e, &c)) >= 0 && (r = feed(e, &c, data, len, 1)) >= 0)
    r = finish(e, &c, out, outlen);
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
    const struct alg_info *a = &algs[alg];
    size_t want = a->digest ? a->digest : outlen;
    if (likely(want && outlen >= want && want <= a->block && engines[a->engine].present > 0))
      return digest_short(a->engine, a->mode, data, len, out, want);
  }
  return digest_ctx(alg, provider, flags, data, len, out, outlen);
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

void hash_isr(int engine)
{
  if (engine < 0 || engine >= HASH_ENGINE_COUNT)
    return;
  struct engine_state *e = &engines[engine];
  wr(e, HREG(EV_PENDING), rd(e, HREG(EV_PENDING)));
  wr(e, HREG(EV_ENABLE), 0);
  e->irq_flag = 1;
}

uint32_t hash_hw_busy_cycles(int engine)
{
  if (engine < 0 || engine >= HASH_ENGINE_COUNT || engines[engine].csr == 0)
    return 0;
  return rd(&engines[engine], HREG(BUSY_CYCLES));
}
