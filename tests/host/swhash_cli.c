/* SPDX-License-Identifier: MIT */
/*
 * swhash_cli.c - host test driver for firmware/libhash/swhash (sha256_sw.c, sha512_sw.c,
 * keccak_sw.c, hmac_sw.c, sp800185_sw.c).
 *
 * Reads one command per line on stdin, writes one answer line per command on
 * stdout (flushed after each line, so a caller may also talk to it line by
 * line, as the Monte Carlo tests do). Answers are lower-case hex; a malformed
 * command gets a line starting with "ERR".
 *
 *   H ALG MODE SEED HEXMSG OUTLEN
 *       Hash HEXMSG ("-" = empty message) with ALG and print OUTLEN bytes of
 *       output (OUTLEN 0 = the algorithm's digest length; required for SHAKE).
 *       ALG:  sha224 sha256 sha384 sha512 sha512-224 sha512-256
 *             sha3-224 sha3-256 sha3-384 sha3-512
 *             shake128 shake256 keccak-224 keccak-256 keccak-384 keccak-512
 *             (every algorithm of hashsoc/hash_spec.h, by its name there)
 *             sponge-RATE-PADHEX (any rate in bytes, any pad byte)
 *       MODE: one     - one update/absorb call, one final/squeeze call
 *             chunk   - update/absorb in random chunks of 0..200 bytes
 *             squeeze - one absorb, squeeze in random chunks of 0..200 bytes
 *             lanes   - random absorb chunks; between chunks (and between
 *                       squeeze chunks) the Keccak state is exported with
 *                       keccak_sw_to_lanes() through a little-endian byte
 *                       image into a fresh context with keccak_sw_from_lanes();
 *                       for SHA-2 the context is moved by its fields
 *             all     - chunk + squeeze + lanes
 *       SEED: decimal seed of the chunk-size generator.
 *   STATE ALG HEXMSG
 *       Absorb HEXMSG, print the plain FIPS 202 state bytes (200 bytes, from
 *       keccak_sw_to_lanes() stored little-endian) followed by " POS".
 *   PERM HEX200
 *       Load 200 state bytes with keccak_sw_from_lanes(), apply one
 *       keccak_sw_f1600(), print the 200 state bytes from keccak_sw_to_lanes().
 *   COMPRESS HEXH32 HEXBLOCKS
 *       sha256_sw_compress() on 8 big-endian chaining words and N*64 bytes;
 *       prints the 8 words big-endian.
 *   COMPRESS512 HEXH64 HEXBLOCKS
 *       sha512_sw_compress() on 8 big-endian 64-bit chaining words and N*128
 *       bytes; prints the 8 words big-endian.
 *   MODE512 MODE HEXMSG
 *       sha512_sw_init(&c, MODE) with any integer MODE (also out of range),
 *       one update, final; prints c.digest_len bytes ("ERR" if final wrote
 *       beyond them).
 *   HMAC ALG MODE SEED HEXKEY HEXMSG
 *       hmac_sw.c: the MAC of HEXMSG under HEXKEY ("-" = empty), ALG a SHA-2 hash
 *       (sha256 ... sha512-256), MODE one (one update) or chunk (random chunks, SEED as
 *       for H).
 *   CSHAKE ALG SEED HEXN HEXS HEXMSG OUTLEN
 *       cSHAKE on ALG's sponge (shake128 or shake256) with function name HEXN and
 *       customization HEXS ("-" = empty; both empty: SHAKE, as SP 800-185 says): the
 *       prefix (sp800185_sw_prefix), HEXMSG in random chunks (SEED), OUTLEN bytes.
 *   KMAC ALG SEED HEXKEY HEXS HEXMSG OUTLEN XOF
 *       KMAC (XOF 0) or KMACXOF (XOF 1) on ALG's sponge: HEXMSG in random chunks.
 *   QUIT
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hashsoc/hash_spec.h"
#include "hmac_sw.h"
#include "keccak_sw.h"
#include "sha256_sw.h"
#include "sp800185_sw.h"
#include "sha512_sw.h"

/* ---- small utilities -------------------------------------------------------- */

static uint64_t rng_state;

static uint32_t rng_next(void)
{
  /* xorshift64* */
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return (uint32_t)((rng_state * 0x2545F4914F6CDD1DULL) >> 32);
}

static void rng_seed(uint64_t seed)
{
  rng_state = seed * 0x9E3779B97F4A7C15ULL + 0x1234567ULL;
  if (rng_state == 0)
    rng_state = 1;
  (void)rng_next();
}

/* Chunk size: half of the time 0..8 (byte and lane paths), else 0..200. */
static size_t rng_chunk(void)
{
  uint32_t r = rng_next();
  if (r & 1)
    return (r >> 1) % 9;
  return (r >> 1) % 201;
}

static int hexval(int ch)
{
  if (ch >= '0' && ch <= '9')
    return ch - '0';
  if (ch >= 'a' && ch <= 'f')
    return ch - 'a' + 10;
  if (ch >= 'A' && ch <= 'F')
    return ch - 'A' + 10;
  return -1;
}

/* Decode hex into a fresh malloc'ed buffer ("-" = empty). Returns NULL on error. */
static uint8_t *unhex(const char *s, size_t *outlen)
{
  size_t n, i;
  uint8_t *buf;

  if (strcmp(s, "-") == 0)
    s = "";
  n = strlen(s);
  if (n % 2)
    return NULL;
  buf = malloc(n / 2 + 1);
  if (!buf)
    return NULL;
  for (i = 0; i < n / 2; i++) {
    int hi = hexval((unsigned char)s[2 * i]), lo = hexval((unsigned char)s[2 * i + 1]);
    if (hi < 0 || lo < 0) {
      free(buf);
      return NULL;
    }
    buf[i] = (uint8_t)(hi << 4 | lo);
  }
  *outlen = n / 2;
  return buf;
}

static void print_hex(const uint8_t *p, size_t n)
{
  static const char digits[] = "0123456789abcdef";
  size_t i;
  for (i = 0; i < n; i++) {
    putchar(digits[p[i] >> 4]);
    putchar(digits[p[i] & 15]);
  }
}

/* Read one line of any length; returns NULL at EOF. */
static char *read_line(void)
{
  static char *buf;
  static size_t cap;
  size_t len = 0;
  int ch;

  for (;;) {
    ch = getchar();
    if (ch == EOF) {
      if (len == 0)
        return NULL;
      break;
    }
    if (ch == '\n')
      break;
    if (len + 1 >= cap) {
      size_t ncap = cap ? 2 * cap : 4096;
      char *nb = realloc(buf, ncap);
      if (!nb) {
        fprintf(stderr, "out of memory\n");
        exit(2);
      }
      buf = nb;
      cap = ncap;
    }
    buf[len++] = (char)ch;
  }
  if (!buf) {
    buf = malloc(1);
    cap = 1;
  }
  if (len && buf[len - 1] == '\r')
    len--;
  buf[len] = 0;
  return buf;
}

/* ---- algorithms ---------------------------------------------------------- */

enum kind { K_SHA2, K_SHA512, K_KECCAK };

struct alg {
  const char *name;
  enum kind kind;
  unsigned param; /* SHA-256 engine: is224; SHA-512 engine: mode; Keccak: rate in bytes */
  uint8_t pad;    /* Keccak pad byte */
  size_t digest;  /* default output length, 0 = must be given (XOF) */
};

/* Every algorithm of the one description (hashsoc/hash_spec.h); SHA-256's param says 224,
 * SHA-512's is the engine mode (sha512_sw_init's mode). */
static const struct alg algs[] = {
#define ALG(key, name, title, engine, mode, digest, block, pad)                                              \
  { name,                                                                                                    \
    engine == HASH_ENGINE_SHA256   ? K_SHA2                                                                  \
    : engine == HASH_ENGINE_SHA512 ? K_SHA512                                                                \
                                   : K_KECCAK,                                                               \
    engine == HASH_ENGINE_SHA256   ? HASH_##key == HASH_SHA224                                               \
    : engine == HASH_ENGINE_SHA512 ? mode                                                                    \
                                   : block,                                                                  \
    pad, digest },
  HASH_ALG_TABLE(ALG)
#undef ALG
};

/* Also "sponge-RATE-PADHEX": a Keccak sponge with any rate (decimal bytes,
 * passed to keccak_sw_init unchecked) and pad byte; OUTLEN must be given. */
static const struct alg *find_alg(const char *name)
{
  static struct alg custom;
  unsigned rate, pad;
  char extra;
  size_t i;

  for (i = 0; i < sizeof algs / sizeof algs[0]; i++)
    if (strcmp(algs[i].name, name) == 0)
      return &algs[i];
  if (sscanf(name, "sponge-%u-%x%c", &rate, &pad, &extra) == 2 && pad <= 0xFF) {
    custom.name = name;
    custom.kind = K_KECCAK;
    custom.param = rate;
    custom.pad = (uint8_t)pad;
    custom.digest = 0;
    return &custom;
  }
  return NULL;
}

/* Move a Keccak context through the plain-lane representation and a byte
 * image (as the driver does when it hands a context to the hardware engine):
 * the destination is a different, freshly initialised struct. */
static void keccak_move(struct keccak_sw *dst, const struct keccak_sw *src)
{
  uint32_t words[50];
  uint8_t image[200];
  size_t i;

  keccak_sw_to_lanes(src->s, words);
  for (i = 0; i < 50; i++) {
    image[4 * i + 0] = (uint8_t)words[i];
    image[4 * i + 1] = (uint8_t)(words[i] >> 8);
    image[4 * i + 2] = (uint8_t)(words[i] >> 16);
    image[4 * i + 3] = (uint8_t)(words[i] >> 24);
  }
  memset(words, 0xA5, sizeof words);
  for (i = 0; i < 50; i++)
    words[i] = (uint32_t)image[4 * i] | (uint32_t)image[4 * i + 1] << 8 | (uint32_t)image[4 * i + 2] << 16 |
               (uint32_t)image[4 * i + 3] << 24;

  memset(dst, 0x5A, sizeof *dst);
  keccak_sw_init(dst, src->rate, src->pad);
  keccak_sw_from_lanes(dst->s, words);
  dst->pos = src->pos;
  dst->squeezing = src->squeezing;
}

/* The two SHA-2 contexts have the same fields (words of their width): one body for both. */
#define SHA2_MOVE(name, type)                                                                                \
  static void name(struct type *dst, const struct type *src)                                                 \
  {                                                                                                          \
    size_t i;                                                                                                \
    memset(dst, 0x5A, sizeof *dst);                                                                          \
    for (i = 0; i < 8; i++)                                                                                  \
      dst->h[i] = src->h[i];                                                                                 \
    dst->bytes = src->bytes;                                                                                 \
    dst->buflen = src->buflen;                                                                               \
    for (i = 0; i < src->buflen; i++)                                                                        \
      dst->buf[i] = src->buf[i];                                                                             \
    dst->digest_len = src->digest_len;                                                                       \
  }
SHA2_MOVE(sha2_move, sha256_sw)
SHA2_MOVE(sha512_move, sha512_sw)

/* cmd_hash's one absorbing loop, for every family: the contexts behind void pointers. */
union anyctx {
  struct sha256_sw s256;
  struct sha512_sw s512;
  struct keccak_sw k;
};
typedef void absorb_fn(void *ctx, const uint8_t *p, size_t n);
typedef void move_fn(void *dst, const void *src);
static void absorb_s256(void *c, const uint8_t *p, size_t n)
{
  sha256_sw_update(c, p, n);
}
static void absorb_s512(void *c, const uint8_t *p, size_t n)
{
  sha512_sw_update(c, p, n);
}
static void absorb_k(void *c, const uint8_t *p, size_t n)
{
  keccak_sw_absorb(c, p, n);
}
static void move_s256(void *d, const void *s)
{
  sha2_move(d, s);
}
static void move_s512(void *d, const void *s)
{
  sha512_move(d, s);
}
static void move_k(void *d, const void *s)
{
  keccak_move(d, s);
}

/* The message into ctx[*which]: whole, or (chunked) in random pieces, in lanes mode moving
 * the context to the other slot at random between pieces (as an OS moves a saved context),
 * and ending with an empty update. */
static void absorb(absorb_fn *f, move_fn *move, union anyctx ctx[2], int *which, const uint8_t *msg,
    size_t msglen, int chunked, int lanes)
{
  size_t off = 0;
  if (!chunked) {
    f(&ctx[*which], msg, msglen);
    return;
  }
  while (off < msglen) {
    size_t n = rng_chunk();
    if (n > msglen - off)
      n = msglen - off;
    f(&ctx[*which], msg + off, n);
    off += n;
    if (lanes && (rng_next() & 1)) {
      move(&ctx[*which ^ 1], &ctx[*which]);
      *which ^= 1;
    }
  }
  f(&ctx[*which], msg + msglen, 0);
}

static int cmd_hash(char **tok, int ntok)
{
  const struct alg *alg;
  const char *mode;
  uint8_t *msg, *out;
  size_t msglen, outlen, off;
  int do_chunk, do_squeeze, do_lanes;
  int which = 0; /* ping-pong between two contexts in lanes mode */
  union anyctx ctx[2];

  if (ntok != 6)
    return -1;
  alg = find_alg(tok[1]);
  if (!alg)
    return -1;
  mode = tok[2];
  do_chunk = !strcmp(mode, "chunk") || !strcmp(mode, "lanes") || !strcmp(mode, "all");
  do_squeeze = !strcmp(mode, "squeeze") || !strcmp(mode, "all");
  do_lanes = !strcmp(mode, "lanes") || !strcmp(mode, "all");
  if (!do_chunk && !do_squeeze && strcmp(mode, "one"))
    return -1;
  rng_seed(strtoull(tok[3], NULL, 10));
  msg = unhex(tok[4], &msglen);
  if (!msg)
    return -1;
  outlen = strtoul(tok[5], NULL, 10);
  if (outlen == 0)
    outlen = alg->digest;
  if (outlen == 0 || (alg->kind != K_KECCAK && outlen != alg->digest)) {
    free(msg);
    return -1;
  }
  out = malloc(outlen + 1);
  if (!out) {
    free(msg);
    return -1;
  }

  if (alg->kind == K_SHA2) {
    sha256_sw_init(&ctx[0].s256, (int)alg->param);
    absorb(absorb_s256, move_s256, ctx, &which, msg, msglen, do_chunk, do_lanes);
    sha256_sw_final(&ctx[which].s256, out);
  } else if (alg->kind == K_SHA512) {
    sha512_sw_init(&ctx[0].s512, (int)alg->param);
    absorb(absorb_s512, move_s512, ctx, &which, msg, msglen, do_chunk, do_lanes);
    if (ctx[which].s512.digest_len != outlen) {
      free(out);
      free(msg);
      return -1;
    }
    sha512_sw_final(&ctx[which].s512, out);
  } else {
    keccak_sw_init(&ctx[0].k, alg->param, alg->pad);
    absorb(absorb_k, move_k, ctx, &which, msg, msglen, do_chunk, do_lanes);
    if (!do_squeeze && !do_lanes) {
      keccak_sw_squeeze(&ctx[which].k, out, outlen);
    } else {
      off = 0;
      while (off < outlen) {
        size_t n = do_squeeze ? rng_chunk() : 8 + rng_next() % 200;
        if (n > outlen - off)
          n = outlen - off;
        keccak_sw_squeeze(&ctx[which].k, out + off, n);
        off += n;
        if (do_lanes && (rng_next() & 1)) {
          keccak_move(&ctx[which ^ 1].k, &ctx[which].k);
          which ^= 1;
        }
      }
    }
  }
  print_hex(out, outlen);
  putchar('\n');
  free(out);
  free(msg);
  return 0;
}

static void words_to_bytes(const uint32_t *w, uint8_t *b, size_t nwords)
{
  size_t i;
  for (i = 0; i < nwords; i++) {
    b[4 * i] = (uint8_t)w[i];
    b[4 * i + 1] = (uint8_t)(w[i] >> 8);
    b[4 * i + 2] = (uint8_t)(w[i] >> 16);
    b[4 * i + 3] = (uint8_t)(w[i] >> 24);
  }
}

static int cmd_state(char **tok, int ntok)
{
  const struct alg *alg;
  struct keccak_sw c;
  uint32_t words[50];
  uint8_t bytes[200];
  uint8_t *msg;
  size_t msglen;

  if (ntok != 3 || !(alg = find_alg(tok[1])) || alg->kind != K_KECCAK)
    return -1;
  msg = unhex(tok[2], &msglen);
  if (!msg)
    return -1;
  keccak_sw_init(&c, alg->param, alg->pad);
  keccak_sw_absorb(&c, msg, msglen);
  keccak_sw_to_lanes(c.s, words);
  words_to_bytes(words, bytes, 50);
  print_hex(bytes, 200);
  printf(" %u\n", (unsigned)c.pos);
  free(msg);
  return 0;
}

static int cmd_perm(char **tok, int ntok)
{
  uint32_t s[50], words[50];
  uint8_t bytes[200];
  uint8_t *in;
  size_t inlen, i;

  if (ntok != 2 || !(in = unhex(tok[1], &inlen)))
    return -1;
  if (inlen != 200) {
    free(in);
    return -1;
  }
  for (i = 0; i < 50; i++)
    words[i] = (uint32_t)in[4 * i] | (uint32_t)in[4 * i + 1] << 8 | (uint32_t)in[4 * i + 2] << 16 |
               (uint32_t)in[4 * i + 3] << 24;
  keccak_sw_from_lanes(s, words);
  keccak_sw_f1600(s);
  keccak_sw_to_lanes(s, words);
  words_to_bytes(words, bytes, 50);
  print_hex(bytes, 200);
  putchar('\n');
  free(in);
  return 0;
}

static int cmd_compress(char **tok, int ntok)
{
  uint32_t h[8];
  uint8_t *hb, *blocks, out[32];
  size_t hlen, blen, i;

  if (ntok != 3 || !(hb = unhex(tok[1], &hlen)))
    return -1;
  blocks = unhex(tok[2], &blen);
  if (!blocks || hlen != 32 || blen % 64) {
    free(hb);
    free(blocks);
    return -1;
  }
  for (i = 0; i < 8; i++)
    h[i] = (uint32_t)hb[4 * i] << 24 | (uint32_t)hb[4 * i + 1] << 16 | (uint32_t)hb[4 * i + 2] << 8 |
           (uint32_t)hb[4 * i + 3];
  sha256_sw_compress(h, blocks, blen / 64);
  for (i = 0; i < 8; i++) {
    out[4 * i] = (uint8_t)(h[i] >> 24);
    out[4 * i + 1] = (uint8_t)(h[i] >> 16);
    out[4 * i + 2] = (uint8_t)(h[i] >> 8);
    out[4 * i + 3] = (uint8_t)h[i];
  }
  print_hex(out, 32);
  putchar('\n');
  free(hb);
  free(blocks);
  return 0;
}

static int cmd_compress512(char **tok, int ntok)
{
  uint64_t h[8];
  uint8_t *hb, *blocks, out[64];
  size_t hlen, blen, i, j;

  if (ntok != 3 || !(hb = unhex(tok[1], &hlen)))
    return -1;
  blocks = unhex(tok[2], &blen);
  if (!blocks || hlen != 64 || blen % 128) {
    free(hb);
    free(blocks);
    return -1;
  }
  for (i = 0; i < 8; i++) {
    h[i] = 0;
    for (j = 0; j < 8; j++)
      h[i] = h[i] << 8 | hb[8 * i + j];
  }
  sha512_sw_compress(h, blocks, blen / 128);
  for (i = 0; i < 8; i++)
    for (j = 0; j < 8; j++)
      out[8 * i + j] = (uint8_t)(h[i] >> (56 - 8 * j));
  print_hex(out, 64);
  putchar('\n');
  free(hb);
  free(blocks);
  return 0;
}

static int cmd_mode512(char **tok, int ntok)
{
  struct sha512_sw c;
  uint8_t *msg, out[64];
  size_t msglen, i, n;
  char *end;
  long mode;

  if (ntok != 3)
    return -1;
  mode = strtol(tok[1], &end, 10);
  if (*end || !(msg = unhex(tok[2], &msglen)))
    return -1;
  memset(out, 0xEE, sizeof out);
  sha512_sw_init(&c, (int)mode);
  sha512_sw_update(&c, msg, msglen);
  sha512_sw_final(&c, out);
  free(msg);
  n = c.digest_len <= sizeof out ? c.digest_len : sizeof out;
  for (i = n; i < sizeof out; i++)
    if (out[i] != 0xEE)
      return -1; /* final wrote more than digest_len bytes */
  print_hex(out, n);
  putchar('\n');
  return 0;
}

static int cmd_hmac(char **tok, int ntok)
{
  struct hmac_sw c;
  const struct alg *alg;
  uint8_t *key, *msg, out[64];
  size_t klen, mlen, i = 0;
  int chunk;

  if (ntok != 6 || !(alg = find_alg(tok[1])) || alg->kind == K_KECCAK ||
      (strcmp(tok[2], "one") && strcmp(tok[2], "chunk")))
    return -1;
  chunk = !strcmp(tok[2], "chunk");
  rng_seed(strtoull(tok[3], NULL, 10));
  key = unhex(tok[4], &klen);
  msg = unhex(tok[5], &mlen);
  if (!key || !msg) {
    free(key);
    free(msg);
    return -1;
  }
  hmac_sw_init(
      &c, alg->kind == K_SHA512 ? HMAC_SW_SHA512 : HMAC_SW_SHA256, (int)alg->param, klen ? key : NULL, klen);
  if (hmac_sw_mac_len(&c) != alg->digest)
    return -1;
  while (chunk && i < mlen) {
    size_t n = rng_chunk();
    n = n < mlen - i ? n : mlen - i;
    hmac_sw_update(&c, msg + i, n);
    i += n;
  }
  hmac_sw_update(&c, msg + i, mlen - i);
  hmac_sw_final(&c, out);
  print_hex(out, alg->digest);
  putchar('\n');
  free(key);
  free(msg);
  return 0;
}

/* The sponge of a SHAKE named tok (cSHAKE's and KMAC's), or NULL. */
static const struct alg *sp800185_alg(const char *tok)
{
  const struct alg *a = find_alg(tok);
  return a && a->kind == K_KECCAK && a->digest == 0 && a->pad == HASH_PAD_SHAKE128 ? a : NULL;
}

static void absorb_chunks(struct keccak_sw *c, const uint8_t *msg, size_t mlen)
{
  size_t i = 0;
  while (i < mlen) {
    size_t n = rng_chunk();
    n = n < mlen - i ? n : mlen - i;
    keccak_sw_absorb(c, msg + i, n);
    i += n;
  }
}

static int cmd_cshake(char **tok, int ntok)
{
  const struct alg *a;
  struct keccak_sw c;
  uint8_t *n, *s, *msg, *out;
  size_t nlen, slen, mlen, outlen;

  if (ntok != 7 || !(a = sp800185_alg(tok[1])))
    return -1;
  rng_seed(strtoull(tok[2], NULL, 10));
  n = unhex(tok[3], &nlen);
  s = unhex(tok[4], &slen);
  msg = unhex(tok[5], &mlen);
  outlen = strtoul(tok[6], NULL, 10);
  out = malloc(outlen + 1);
  if (n && s && msg && out) {
    keccak_sw_init(&c, (unsigned)a->param, nlen || slen ? HASH_CSHAKE_PAD : a->pad);
    if (nlen || slen)
      sp800185_sw_prefix(&c, n, nlen, s, slen);
    absorb_chunks(&c, msg, mlen);
    keccak_sw_squeeze(&c, out, outlen);
    print_hex(out, outlen);
    putchar('\n');
  }
  int r = n && s && msg && out ? 0 : -1;
  free(n);
  free(s);
  free(msg);
  free(out);
  return r;
}

static int cmd_kmac(char **tok, int ntok)
{
  const struct alg *a;
  struct keccak_sw c;
  uint8_t *k, *s, *msg, *out;
  size_t klen, slen, mlen, outlen;
  int xof;

  if (ntok != 8 || !(a = sp800185_alg(tok[1])) || (strcmp(tok[7], "0") && strcmp(tok[7], "1")))
    return -1;
  rng_seed(strtoull(tok[2], NULL, 10));
  k = unhex(tok[3], &klen);
  s = unhex(tok[4], &slen);
  msg = unhex(tok[5], &mlen);
  outlen = strtoul(tok[6], NULL, 10);
  xof = tok[7][0] == '1';
  out = malloc(outlen + 1);
  if (k && s && msg && out) {
    keccak_sw_init(&c, (unsigned)a->param, HASH_CSHAKE_PAD);
    sp800185_sw_prefix(&c, HASH_KMAC_NAME, sizeof HASH_KMAC_NAME - 1, s, slen);
    sp800185_sw_key(&c, k, klen);
    absorb_chunks(&c, msg, mlen);
    sp800185_sw_right_encode(&c, xof ? 0 : (uint64_t)outlen * 8);
    keccak_sw_squeeze(&c, out, outlen);
    print_hex(out, outlen);
    putchar('\n');
  }
  int r = k && s && msg && out ? 0 : -1;
  free(k);
  free(s);
  free(msg);
  free(out);
  return r;
}

int main(void)
{
  char *line;

  while ((line = read_line()) != NULL) {
    char *tok[8];
    int ntok = 0, rc = -1;
    char *p = strtok(line, " \t");

    while (p && ntok < 8) {
      tok[ntok++] = p;
      p = strtok(NULL, " \t");
    }
    if (ntok == 0)
      continue;
    if (!strcmp(tok[0], "QUIT"))
      break;
    if (!strcmp(tok[0], "H"))
      rc = cmd_hash(tok, ntok);
    else if (!strcmp(tok[0], "STATE"))
      rc = cmd_state(tok, ntok);
    else if (!strcmp(tok[0], "PERM"))
      rc = cmd_perm(tok, ntok);
    else if (!strcmp(tok[0], "COMPRESS"))
      rc = cmd_compress(tok, ntok);
    else if (!strcmp(tok[0], "COMPRESS512"))
      rc = cmd_compress512(tok, ntok);
    else if (!strcmp(tok[0], "MODE512"))
      rc = cmd_mode512(tok, ntok);
    else if (!strcmp(tok[0], "HMAC"))
      rc = cmd_hmac(tok, ntok);
    else if (!strcmp(tok[0], "CSHAKE"))
      rc = cmd_cshake(tok, ntok);
    else if (!strcmp(tok[0], "KMAC"))
      rc = cmd_kmac(tok, ntok);
    if (rc)
      printf("ERR %s\n", tok[0]);
    fflush(stdout);
  }
  return 0;
}
