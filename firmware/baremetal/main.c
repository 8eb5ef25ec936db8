/* SPDX-License-Identifier: MIT */
/*
 * HashSoC bare-metal firmware: self-test, then benchmark.
 *
 * Output is one record per line so tests/test_soc_firmware.py can check every digest
 * against Python's hashlib:
 *   T <alg> <path> <msg> <len> <offset> <outlen> <hex>   a digest (path: sw, pio, dma, irq;
 *                                                        sg/sgsw: scattered pieces, whose
 *                                                        number is in the offset column)
 *   H <alg> <path> <keylen> <len> <hex>                  an HMAC (hmac_rows(): the key is
 *                                                        "pat" bytes 64.., or "dev" = the
 *                                                        device key; the message "pat")
 *   R <alg> <case> <path> <hex>                          RFC 4231's case (rfc4231.h)
 *   K <kind> <alg> <nlen> <slen> <keylen> <len> <outlen> <hex>
 *                                                        cSHAKE (C), KMAC (K), KMACXOF (X)
 *                                                        on SHAKE's sponge, sw and hw (sp800185_rows())
 *   I <alg> <path> <msg> <len> <chunk> <hex>             incremental, two contexts interleaved
 *   E <check> <got> <want> ok|FAIL                       an error-path check
 *   B <alg> <path> <len> <clocks> <core-busy-clocks>     a benchmark row
 *   C <alg> <len> <offset> <seed> <hex>                  coherence: DMA digest of bytes
 *                                                        the CPU stored just before
 *   L <what> <clocks>                                    latency: what one piece of a
 *                                                        short digest costs (latency())
 * Messages: "pat" = byte i is (i * 131 + 7) & 0xff; "hello"; "empty"; "mouna" (seed 001).
 * The run ends with "SELFTEST <p> passed, <f> failed", then "DONE", then the simulation
 * is stopped through the sim_finish CSR (when there is one).
 */
#include <stdio.h>
#include <string.h>

#include <generated/csr.h>
#include <generated/mem.h>
#include <generated/soc.h>
#include <system.h>

#include "hashsoc/hash.h"
#include "hashsoc/hash_regs.h" /* HBIT: the refusal checks write registers directly */
#include "board.h"
#include "rfc4231.h" /* generated: scripts/genhmackat.py */


#define MAXLEN 65536
static uint8_t msgbuf[MAXLEN + 8] __attribute__((aligned(4)));
static uint8_t out[512], ref[512];
static int passed, failed;
static void coherence(void);
static void every_mib(void);

/* Paths: software; the engine fed by CPU stores, by DMA (whatever the length), by DMA
 * with an interrupt wait; "auto" = the driver's choice (short messages by its short path,
 * others by DMA): the self-test covers the first four, the latency rows all five. */
static const char *path_name[] = { "sw", "pio", "dma", "irq", "auto" };
static const int path_prov[] = { HASH_PROV_SW, HASH_PROV_HW, HASH_PROV_HW, HASH_PROV_HW, HASH_PROV_HW };
static const int path_flags[] = { 0, HASH_F_PIO, HASH_F_DMA, HASH_F_DMA | HASH_F_IRQ, 0 };

static void pattern(uint8_t *p, size_t n)
{
  for (size_t i = 0; i < n; i++)
    p[i] = (uint8_t)(i * 131 + 7);
}

/* One fputs per digest: picolibc's printf costs thousands of clocks per call here. */
static void hex(const uint8_t *p, int n)
{
  static const char digits[] = "0123456789abcdef";
  char s[2 * 512 + 1];
  for (int i = 0; i < n; i++) {
    s[2 * i] = digits[p[i] >> 4];
    s[2 * i + 1] = digits[p[i] & 15];
  }
  s[2 * n] = 0;
  fputs(s, stdout);
}

static void check(const char *what, int got, int want)
{
  int ok = got == want;
  printf("E %s %d %d %s\n", what, got, want, ok ? "ok" : "FAIL");
  ok ? passed++ : failed++;
}

static int have_engine(int alg)
{
  return (hash_probe() >> hash_alg_engine(alg)) & 1;
}

/* A T row: the digest in out (r bytes), or the error code r. */
static void t_row(int alg, const char *path, const char *msg, size_t len, int off, size_t outlen, int r)
{
  printf("T %s %s %s %u %d %u ", hash_alg_name(alg), path, msg, (unsigned)len, off, (unsigned)outlen);
  if (r > 0)
    hex(out, r);
  else
    printf("error%d", r);
  printf("\n");
}

/* Hash one message on every path and compare each with software. */
static void digest_all_paths(int alg, const char *name, const uint8_t *msg, size_t len, size_t outlen)
{
  int hw = have_engine(alg);
  int n = hash_digest(alg, HASH_PROV_SW, 0, msg, len, ref, outlen);
  printf("T %s sw %s %u 0 %u ", hash_alg_name(alg), name, (unsigned)len, (unsigned)outlen);
  hex(ref, n);
  printf("\n");
  for (int p = 1; hw && p < 4; p++) {
    for (int off = 0; off < (p == 1 || p == 2 ? 4 : 1); off++) {
      const uint8_t *src = msg;
      if (off) {
        memmove(msgbuf + 4 + off, msg, len); /* unaligned DMA source */
        src = msgbuf + 4 + off;
      }
      memset(out, 0, sizeof(out));
      int r = hash_digest(alg, path_prov[p], path_flags[p], src, len, out, outlen);
      t_row(alg, path_name[p], name, len, off, outlen, r);
      (r == n && memcmp(out, ref, n) == 0) ? passed++ : failed++;
      if (off)
        pattern(msgbuf, len + 8); /* restore only what memmove touched */
    }
  }
}

/* Two contexts hashing interleaved pieces on the same engine: lazy export/import. */
static void interleaved(int alg_a, int alg_b, int prov, int flags, const char *path)
{
  struct hash_ctx a, b;
  size_t la = 1000, lb = 777, ca = 100, cb = 37, pa = 0, pb = 0;
  size_t oa = hash_alg_digest_len(alg_a) ? 0 : 32, ob = hash_alg_digest_len(alg_b) ? 0 : 32;
  uint8_t da[64], db[64];
  int ra = hash_begin(&a, alg_a, prov, flags), rb = hash_begin(&b, alg_b, prov, flags);
  while (ra >= 0 && rb >= 0 && (pa < la || pb < lb)) {
    size_t na = la - pa < ca ? la - pa : ca, nb = lb - pb < cb ? lb - pb : cb;
    if (na) {
      ra = hash_update(&a, msgbuf + pa, na);
      pa += na;
    }
    if (nb && rb >= 0) {
      rb = hash_update(&b, msgbuf + pb, nb);
      pb += nb;
    }
  }
  if (ra >= 0)
    ra = hash_final(&a, da, oa ? oa : sizeof(da));
  if (rb >= 0)
    rb = hash_final(&b, db, ob ? ob : sizeof(db));
  printf("I %s %s pat %u %u ", hash_alg_name(alg_a), path, (unsigned)la, (unsigned)ca);
  if (ra > 0)
    hex(da, ra);
  else
    printf("error%d", ra);
  printf("\nI %s %s pat %u %u ", hash_alg_name(alg_b), path, (unsigned)lb, (unsigned)cb);
  if (rb > 0)
    hex(db, rb);
  else
    printf("error%d", rb);
  printf("\n");
  uint8_t ra_ref[64], rb_ref[64];
  int na = hash_digest(alg_a, HASH_PROV_SW, 0, msgbuf, la, ra_ref, oa ? oa : sizeof(ra_ref));
  int nb = hash_digest(alg_b, HASH_PROV_SW, 0, msgbuf, lb, rb_ref, ob ? ob : sizeof(rb_ref));
  (ra == na && memcmp(da, ra_ref, na) == 0) ? passed++ : failed++;
  (rb == nb && memcmp(db, rb_ref, nb) == 0) ? passed++ : failed++;
}

static void known_answers(void)
{
  static const uint8_t hello256[32] = { 0x2c, 0xf2, 0x4d, 0xba, 0x5f, 0xb0, 0xa3, 0x0e, 0x26, 0xe8, 0x3b,
    0x2a, 0xc5, 0xb9, 0xe2, 0x9e, 0x1b, 0x16, 0x1e, 0x5c, 0x1f, 0xa7, 0x42, 0x5e, 0x73, 0x04, 0x33, 0x62,
    0x93, 0x8b, 0x98, 0x24 };
  static const uint8_t empty256[32] = { 0xe3, 0xb0, 0xc4, 0x42, 0x98, 0xfc, 0x1c, 0x14, 0x9a, 0xfb, 0xf4,
    0xc8, 0x99, 0x6f, 0xb9, 0x24, 0x27, 0xae, 0x41, 0xe4, 0x64, 0x9b, 0x93, 0x4c, 0xa4, 0x95, 0x99, 0x1b,
    0x78, 0x52, 0xb8, 0x55 };
  static const uint8_t mouna512[64] = { 0xe7, 0x92, 0x89, 0x68, 0x76, 0x64, 0xe3, 0xd0, 0xdc, 0xf5, 0xb1,
    0xc1, 0xde, 0xba, 0x54, 0x5f, 0x97, 0x66, 0xe5, 0x2f, 0xb0, 0xf1, 0xa8, 0xae, 0x1c, 0x6d, 0xce, 0x5e,
    0x53, 0xe8, 0xdf, 0x74, 0x7e, 0xf6, 0x81, 0xeb, 0x41, 0x1c, 0x88, 0xb5, 0x70, 0xc0, 0x28, 0x09, 0xc4,
    0xde, 0xbd, 0xb1, 0x70, 0x0b, 0xc6, 0x49, 0xfd, 0xaf, 0x90, 0xac, 0x30, 0x3b, 0x4d, 0xd6, 0xbb, 0xac,
    0x58, 0xb8 };
  for (int p = 0; p < 4; p++) {
    char what[48];
    if (p && !have_engine(HASH_SHA256))
      break;
    hash_digest(HASH_SHA256, path_prov[p], path_flags[p], "hello", 5, out, 32);
    snprintf(what, sizeof(what), "sha256_hello_%s", path_name[p]);
    check(what, memcmp(out, hello256, 32), 0);
    hash_digest(HASH_SHA256, path_prov[p], path_flags[p], "", 0, out, 32);
    snprintf(what, sizeof(what), "sha256_empty_%s", path_name[p]);
    check(what, memcmp(out, empty256, 32), 0);
  }
  for (int p = 0; p < 4; p++) {
    char what[48];
    if (p && !have_engine(HASH_SHA3_512))
      break;
    hash_digest(HASH_SHA3_512, path_prov[p], path_flags[p], "Mouna_Noura_ATSIP_2020", 22, out, 64);
    snprintf(what, sizeof(what), "sha3_512_mouna_%s", path_name[p]);
    check(what, memcmp(out, mouna512, 64), 0);
  }
}

/*
 * HMAC (hash_hmac, hash_hmac_begin) over every hash of HASH_HMAC_TABLE: keys around the
 * blocks (64 and 128 bytes; longer ones are hashed first), messages around them, on every
 * path; streamed in pieces with a plain hash
 * of another context between them on the same engine (each piece then imports the HMAC
 * state: key words, init, the ipad block, the context); the device key on the engine.
 * The host checks every H row with Python's hmac (the device key: keys/device_key).
 */
static void h_row(int alg, const char *path, int keylen, size_t len, int r)
{
  printf("H %s %s %d %u ", hash_alg_name(alg), path, keylen, (unsigned)len);
  if (r > 0)
    hex(out, r);
  else
    printf("error%d", r);
  printf("\n");
}

/* An HMAC on the engine fed in 100-byte pieces, another context's digest on the same
 * engine between each two (so every piece after the first resumes a saved state). */
static int hmac_streamed(
    int alg, int flags, const uint8_t *key, size_t keylen, const uint8_t *msg, size_t len)
{
  struct hash_ctx c, other;
  int r = hash_hmac_begin(&c, alg, HASH_PROV_HW, flags, key, keylen);
  for (size_t at = 0; r >= 0 && at < len; at += 100) {
    r = hash_update(&c, msg + at, len - at < 100 ? len - at : 100);
    hash_begin(&other, HASH_SHA256, HASH_PROV_HW, 0); /* takes the engine between pieces */
    hash_update(&other, "in between", 10);
    hash_final(&other, ref, 32);
  }
  return r < 0 ? r : hash_final(&c, out, sizeof(out));
}

/* The algorithms the driver can HMAC, from the one description. */
static const int hmac_algs[] = {
#define X(key, shift) HASH_##key,
  HASH_HMAC_TABLE(X)
#undef X
};
#define N_HMAC_ALGS (int)(sizeof(hmac_algs) / sizeof(hmac_algs[0]))

/* RFC 4231's cases on every path, one-shot and streamed (a hash of another context
 * between the pieces). */
static void rfc4231_rows(void)
{
  for (int a = 0; a < N_HMAC_ALGS; a++) {
    int alg = hmac_algs[a], hw = have_engine(alg);
    for (unsigned i = 0; i < sizeof(rfc4231) / sizeof(rfc4231[0]); i++) {
      for (int p = 0; p < (hw ? 5 : 1); p++) {
        int r = p < 4 ? hash_hmac(alg, path_prov[p], path_flags[p], rfc4231[i].key, rfc4231[i].keylen,
                            rfc4231[i].msg, rfc4231[i].len, out, 64)
                      : hmac_streamed(
                            alg, 0, rfc4231[i].key, rfc4231[i].keylen, rfc4231[i].msg, rfc4231[i].len);
        printf("R %s %u %s ", hash_alg_name(alg), i, p < 4 ? path_name[p] : "stream");
        if (r > 0)
          hex(out, r);
        else
          printf("error%d", r);
        printf("\n");
      }
    }
  }
}

/* A device-key HMAC switched out mid-message (another context takes the engine, so the
 * driver saves the inner hash's state, derived from the key, into c), then ended by
 * final (how 0), abort (1) or an engine error (2: DMA from outside main RAM). Returns
 * the OR of c's saved-state words after the end, or -1 if the state was not saved. */
static int devkey_state_left(int how)
{
  struct hash_ctx c, other;
  uint32_t any = 0;
  memset(&c, 0, sizeof(c)); /* so that a word left nonzero is one the driver wrote */
  hash_hmac_begin(&c, HASH_SHA256, HASH_PROV_HW, HASH_F_DEVKEY, 0, 0);
  hash_update(&c, msgbuf, 128);
  hash_begin(&other, HASH_SHA256, HASH_PROV_HW, 0); /* takes the engine: c is saved */
  hash_update(&other, "in between", 10);
  hash_final(&other, ref, 32);
  for (int i = 0; i < HASH_HW_CTX_WORDS; i++)
    any |= c.u.hw_ctx[i];
  if (!c.hw_saved || !any)
    return -1;
  if (how == 0)
    hash_final(&c, out, 32);
  else if (how == 1)
    hash_abort(&c);
  else
    hash_update(&c, (const void *)CSR_BASE, 64);
  any = 0;
  for (int i = 0; i < HASH_HW_CTX_WORDS; i++)
    any |= c.u.hw_ctx[i];
  return (int)any;
}

static void hmac_rows(void)
{
  rfc4231_rows();
  static const int keylens[] = { 0, 20, 64, 65, 128, 131 };
  static const size_t lens[] = { 0, 5, 55, 64, 65, 112, 300 };
  const uint8_t *key = msgbuf + 64;
  for (int a = 0; a < N_HMAC_ALGS; a++) {
    int alg = hmac_algs[a], hw = have_engine(alg);
    for (unsigned k = 0; k < sizeof(keylens) / sizeof(keylens[0]); k++)
      for (unsigned i = 0; i < sizeof(lens) / sizeof(lens[0]); i++)
        for (int p = 0; p < (hw ? 4 : 1); p++) {
          if (p != 2 && (k + i + p) % 3) /* every pair by DMA, a third on the other paths */
            continue;
          int r = hash_hmac(alg, path_prov[p], path_flags[p], key, keylens[k], msgbuf, lens[i], out, 64);
          h_row(alg, path_name[p], keylens[k], lens[i], r);
        }
    if (!hw)
      continue;
    h_row(alg, "dma", 100, 4096, hash_hmac(alg, HASH_PROV_HW, HASH_F_DMA, key, 100, msgbuf, 4096, out, 64));
    h_row(alg, "stream", 65, 1000, hmac_streamed(alg, 0, key, 65, msgbuf, 1000));
    h_row(alg, "streampio", 20, 1000, hmac_streamed(alg, HASH_F_PIO, key, 20, msgbuf, 1000));
    for (unsigned i = 0; i < sizeof(lens) / sizeof(lens[0]); i++)
      h_row(alg, "dev", -1, lens[i],
          hash_hmac(alg, HASH_PROV_HW, HASH_F_DEVKEY, 0, 0, msgbuf, lens[i], out, 64));
    h_row(alg, "devpio", -1, 300,
        hash_hmac(alg, HASH_PROV_HW, HASH_F_DEVKEY | HASH_F_PIO, 0, 0, msgbuf, 300, out, 64));
    h_row(alg, "devstream", -1, 1000, hmac_streamed(alg, HASH_F_DEVKEY, 0, 0, msgbuf, 1000));
  }
  check("hmac_bad_alg", hash_hmac(HASH_SHA3_256, HASH_PROV_SW, 0, "k", 1, "x", 1, out, 32), HASH_ERR_ALG);
  check("hmac_null_key", hash_hmac(HASH_SHA256, HASH_PROV_SW, 0, NULL, 5, "x", 1, out, 32), HASH_ERR_ARG);
  check("hmac_devkey_and_key", hash_hmac(HASH_SHA256, HASH_PROV_HW, HASH_F_DEVKEY, "k", 1, "x", 1, out, 32),
      HASH_ERR_ARG);
  check("hmac_devkey_sw_nodev", hash_hmac(HASH_SHA256, HASH_PROV_SW, HASH_F_DEVKEY, 0, 0, "x", 1, out, 32),
      HASH_ERR_NODEV);
  check("hmac_short_out", hash_hmac(HASH_SHA256, HASH_PROV_SW, 0, "k", 1, "x", 1, out, 31), HASH_ERR_LEN);
  if (!have_engine(HASH_SHA256))
    return;
  /* The key words read 0, after a MAC under a key and one under the device key, on each
   * SHA-2 engine the SoC has. */
  uint32_t any = 0;
  static const struct {
    int alg;
    uintptr_t win;
  } keyed[] = { { HASH_SHA256, HASH_SHA256_WIN_BASE }, { HASH_SHA512, HASH_SHA512_WIN_BASE } };
  for (unsigned e = 0; e < sizeof(keyed) / sizeof(keyed[0]); e++) {
    if (!have_engine(keyed[e].alg))
      continue;
    hash_hmac(keyed[e].alg, HASH_PROV_HW, 0, key, 128, msgbuf, 64, out, 64);
    for (int i = 0; i < HASH_HMAC_KEY_WORDS; i++)
      any |= *(volatile uint32_t *)(keyed[e].win + HWIN_KEY + 4 * i);
    hash_hmac(keyed[e].alg, HASH_PROV_HW, HASH_F_DEVKEY, 0, 0, msgbuf, 64, out, 64);
    for (int i = 0; i < HASH_HMAC_KEY_WORDS; i++)
      any |= *(volatile uint32_t *)(keyed[e].win + HWIN_KEY + 4 * i);
  }
  check("hmac_key_reads_zero", (int)any, 0);
  /* A context abandoned mid-HMAC leaves no key behind: the next MAC is right. */
  struct hash_ctx c;
  hash_hmac_begin(&c, HASH_SHA256, HASH_PROV_HW, 0, key, 20);
  hash_update(&c, msgbuf, 128);
  hash_abort(&c);
  check("hmac_abort_wipes_key", (int)(c.hw_key[0] | c.hw_key[4]), 0);
  h_row(HASH_SHA256, "afterabort", 64, 64,
      hash_hmac(HASH_SHA256, HASH_PROV_HW, 0, key, 64, msgbuf, 64, out, 32));
  /* The device key's saved engine state goes with the message. */
  check("hmac_final_wipes_saved_state", devkey_state_left(0), 0);
  check("hmac_abort_wipes_saved_state", devkey_state_left(1), 0);
  check("hmac_error_wipes_saved_state", devkey_state_left(2), 0);
  h_row(HASH_SHA256, "dev", -1, 64,
      hash_hmac(HASH_SHA256, HASH_PROV_HW, HASH_F_DEVKEY, 0, 0, msgbuf, 64, out, 32));
}

/*
 * cSHAKE and KMAC (hash_cshake_begin, hash_kmac_begin) in software and, where the SoC has
 * the Keccak engine, on it: prefixes and keys around the rate (on the engine: the key block
 * in the key words, or as message data for a key or prefix longer than a block), KMACXOF,
 * messages in pieces, on the engine also with another context taking it between pieces
 * ("switch"). A K row per MAC or output, which the host checks with pycryptodome:
 * K KIND ALG PROVIDER N-LEN S-LEN KEY-LEN MSG-LEN OUT-LEN HEX, where N is "fn" repeated, S
 * "HashSoC" repeated, the key msgbuf[64...] and the message msgbuf[0...].
 */
static void sp800185_rows(void)
{
  static char n[64], s[200];
  static const struct {
    char kind;
    int nlen, slen, keylen, len, outlen;
  } cases[] = {
    { 'C', 2, 7, 0, 0, 32 },
    { 'C', 0, 160, 0, 300, 200 },
    { 'C', 0, 0, 0, 5, 16 },
    { 'K', 0, 0, 32, 4, 32 },
    { 'K', 0, 21, 168, 200, 64 },
    { 'K', 0, 160, 16, 50, 32 },
    { 'K', 0, 7, 5, 137, 1 },
    { 'X', 0, 7, 32, 100, 300 },
  };
  static const char *const prov_name[] = { "sw", "hw", "switch" };
  for (unsigned i = 0; i < sizeof n; i++)
    n[i] = "fn"[i % 2];
  for (unsigned i = 0; i < sizeof s; i++)
    s[i] = "HashSoC"[i % 7];
  for (int alg = HASH_SHAKE128; alg <= HASH_SHAKE256; alg++)
    for (int p = 0; p < (have_engine(alg) ? 3 : 1); p++)
      for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct hash_ctx c, other;
        int prov = p ? HASH_PROV_HW : HASH_PROV_SW;
        int r = cases[i].kind == 'C' ? hash_cshake_begin(&c, alg, prov, 0, n, cases[i].nlen, s, cases[i].slen)
                                     : hash_kmac_begin(&c, alg, prov, cases[i].kind == 'X' ? HASH_F_XOF : 0,
                                           msgbuf + 64, cases[i].keylen, s, cases[i].slen);
        for (int at = 0; r >= 0 && at < cases[i].len; at += 100) { /* in pieces */
          r = hash_update(&c, msgbuf + at, cases[i].len - at < 100 ? cases[i].len - at : 100);
          if (p == 2) { /* another message takes the engine: c's state is saved, restored */
            hash_begin(&other, HASH_SHA3_256, HASH_PROV_HW, 0);
            hash_update(&other, "in between", 10);
            hash_final(&other, ref, 32);
          }
        }
        if (r >= 0)
          r = hash_final(&c, out, cases[i].outlen);
        printf("K %c %s %s %d %d %d %d %d ", cases[i].kind, hash_alg_name(alg), prov_name[p], cases[i].nlen,
            cases[i].slen, cases[i].keylen, cases[i].len, cases[i].outlen);
        if (r > 0)
          hex(out, r);
        else
          printf("error%d", r);
        printf("\n");
      }
  struct hash_ctx c;
  check("kmac_bad_alg", hash_kmac_begin(&c, HASH_SHA3_256, HASH_PROV_SW, 0, "k", 1, 0, 0), HASH_ERR_ALG);
  check("kmac_null_key", hash_kmac_begin(&c, HASH_SHAKE128, HASH_PROV_SW, 0, NULL, 5, 0, 0), HASH_ERR_ARG);
  check("kmac_hw_null_key", hash_kmac_begin(&c, HASH_SHAKE128, HASH_PROV_HW, 0, NULL, 5, 0, 0), HASH_ERR_ARG);
  check("cshake_bad_alg", hash_cshake_begin(&c, HASH_SHA3_256, HASH_PROV_SW, 0, NULL, 0, NULL, 0),
      HASH_ERR_ALG);
  check(
      "cshake_null_s", hash_cshake_begin(&c, HASH_SHAKE256, HASH_PROV_SW, 0, NULL, 0, NULL, 3), HASH_ERR_ARG);
  hash_kmac_begin(&c, HASH_SHAKE128, HASH_PROV_SW, 0, msgbuf + 64, 32, 0, 0);
  hash_update(&c, msgbuf, 10);
  hash_abort(&c);
  uint32_t any = 0;
  for (unsigned i = 0; i < sizeof c.u.keccak / 4; i++)
    any |= ((uint32_t *)&c.u.keccak)[i];
  check("kmac_abort_wipes_state", (int)any, 0);
  if (!have_engine(HASH_SHAKE128))
    return;
  /* On the engine: a KMAC switched out mid-message leaves its sponge's state (derived from
   * the key) in c; abort and final wipe it, with the key block; the key words read 0. */
  for (int how = 0; how < 2; how++) {
    struct hash_ctx other;
    memset(&c, 0, sizeof(c));
    hash_kmac_begin(&c, HASH_SHAKE128, HASH_PROV_HW, 0, msgbuf + 64, 32, "S", 1);
    hash_update(&c, msgbuf, 168);
    hash_begin(&other, HASH_SHA3_256, HASH_PROV_HW, 0); /* takes the engine: c is saved */
    hash_update(&other, "in between", 10);
    hash_final(&other, ref, 32);
    any = 0;
    for (int i = 0; i < HASH_HW_CTX_WORDS; i++)
      any |= c.u.hw_ctx[i];
    int saved = c.hw_saved && any;
    if (how)
      hash_abort(&c);
    else
      hash_final(&c, out, 32);
    any = 0;
    for (int i = 0; i < HASH_HW_CTX_WORDS; i++)
      any |= c.u.hw_ctx[i];
    for (int i = 0; i < HASH_HW_KEY_WORDS; i++)
      any |= c.hw_key[i];
    check(how ? "kmac_hw_abort_wipes_saved_state" : "kmac_hw_final_wipes_saved_state", saved ? (int)any : -1,
        0);
  }
  any = 0;
  for (int i = 0; i < HASH_KMAC_KEY_WORDS; i++)
    any |= *(volatile uint32_t *)(HASH_KECCAK_WIN_BASE + HWIN_KEY + 4 * i);
  check("kmac_key_reads_zero", (int)any, 0);
}

static void error_paths(void)
{
  struct hash_ctx c;
  check("bad_alg", hash_digest(99, HASH_PROV_SW, 0, "x", 1, out, 32), HASH_ERR_ALG);
  check("bad_provider", hash_digest(HASH_SHA256, 7, 0, "x", 1, out, 32), HASH_ERR_ALG);
  check("bad_flags", hash_digest(HASH_SHA256, HASH_PROV_HW, 0x80, "x", 1, out, 32), HASH_ERR_ARG);
  check("null_data", hash_digest(HASH_SHA256, HASH_PROV_HW, 0, NULL, 5, out, 32), HASH_ERR_ARG);
  check("null_out", hash_digest(HASH_SHA256, HASH_PROV_SW, 0, "x", 1, NULL, 32), HASH_ERR_ARG);
  check("short_out", hash_digest(HASH_SHA256, HASH_PROV_SW, 0, "x", 1, out, 16), HASH_ERR_LEN);
  check("null_ctx", hash_begin(NULL, HASH_SHA256, HASH_PROV_SW, 0), HASH_ERR_ARG);
  hash_begin(&c, HASH_SHA256, HASH_PROV_SW, 0);
  hash_final(&c, out, 32);
  check("update_after_final", hash_update(&c, "x", 1), HASH_ERR_STATE);
  /* hash_cut: the largest count that ends at a block boundary (SHA3-256: 136 bytes). */
  hash_begin(&c, HASH_SHA3_256, HASH_PROV_SW, 0);
  check("cut_aligned", (int)hash_cut(&c, 65536), 481 * 136);
  check("cut_short", (int)hash_cut(&c, 135), 135);
  hash_update(&c, msgbuf, 100);
  check("cut_partial", (int)hash_cut(&c, 1000), 36 + 7 * 136);
  check("cut_to_boundary", (int)hash_cut(&c, 36), 36);
  check("cut_before_boundary", (int)hash_cut(&c, 35), 35);
  hash_abort(&c);
  if (!have_engine(HASH_SHA256))
    return;
  /* DMA from outside main RAM (here: the CSR bank): the engine refuses the command
   * with bad_range, the driver reports HASH_ERR_HW and the engine stays usable. */
  hash_begin(&c, HASH_SHA256, HASH_PROV_HW, 0);
  check("dma_outside_ram", hash_update(&c, (const void *)CSR_BASE, 64), HASH_ERR_HW);
  check("dma_outside_ram_errors", (int)c.hw_errors, 1 << CSR_SHA256_ERRORS_BAD_RANGE_OFFSET);
  check("usable_after_error", hash_digest(HASH_SHA256, HASH_PROV_HW, 0, "hello", 5, out, 32), 32);
  /* A context abandoned mid-message does not block the next user. */
  hash_begin(&c, HASH_SHA256, HASH_PROV_HW, 0);
  hash_update(&c, msgbuf, 128);
  hash_abort(&c);
  check("usable_after_abort", hash_digest(HASH_SHA256, HASH_PROV_HW, 0, "hello", 5, out, 32), 32);
  /* The short path with an unaligned output buffer (byte stores) and a SHA-224 digest
   * that is not a multiple of 16 bytes. */
  hash_digest(HASH_SHA256, HASH_PROV_SW, 0, "hello", 5, ref, 32);
  memset(out, 0, 40);
  check("short_unaligned_out", hash_digest(HASH_SHA256, HASH_PROV_HW, 0, "hello", 5, out + 3, 32), 32);
  check("short_unaligned_out_bytes", memcmp(out + 3, ref, 32) | out[0] | out[1] | out[2] | out[35], 0);
  hash_digest(HASH_SHA224, HASH_PROV_SW, 0, msgbuf + 1, 55, ref, 28);
  memset(out, 0, 40);
  check("short_sha224", hash_digest(HASH_SHA224, HASH_PROV_HW, 0, msgbuf + 1, 55, out, 28), 28);
  check("short_sha224_bytes", memcmp(out, ref, 28) | out[28], 0);
  /* A message held open by a context is saved, not lost, when the short path needs
   * the engine. */
  hash_begin(&c, HASH_SHA256, HASH_PROV_HW, 0);
  hash_update(&c, msgbuf, 100);
  hash_digest(HASH_SHA256, HASH_PROV_HW, 0, "hello", 5, out, 32);
  hash_update(&c, msgbuf + 100, 100);
  hash_final(&c, out, 32);
  hash_digest(HASH_SHA256, HASH_PROV_SW, 0, msgbuf, 200, ref, 32);
  check("short_path_saves_open_context", memcmp(out, ref, 32), 0);
}

/*
 * Scatter-gather (hash_update_segs): the "pat" message cut into pieces of 1..maxpiece
 * bytes, copied to places in sgbuf that are neither in order nor aligned (like a user
 * buffer's physical pages), hashed on the engine by descriptor lists and in software.
 * Printed as T rows with path "sg" (engine) or "sgsw", the piece count in the offset
 * column. With head, 7 bytes go first by hash_update, so the lists start mid-block.
 * Path "sgnw" gives the pieces in two hash_update_segs_nowait calls, and on every other
 * message a hash("hello") on the same engine comes between them (it must take the
 * engine while the first list may still run: a wrong "hello" digest fails the row).
 */
static uint8_t sgbuf[16384];
static struct hash_seg segs[1500];

/* Cut src[0, len) into pieces segs[first...], copied backwards from sgbuf[*pos] down
 * with 1-3 byte gaps; the number of pieces, or -1 if they do not all fit. */
static int scatter_at(int first, size_t *pos, const uint8_t *src, size_t len, size_t maxpiece, uint32_t seed)
{
  size_t i = 0;
  int n = first;
  while (i < len && n < (int)(sizeof(segs) / sizeof(segs[0])) && *pos > maxpiece + 3) {
    seed = seed * 1664525u + 1013904223u;
    size_t k = 1 + (seed >> 8) % maxpiece;
    k = k < len - i ? k : len - i;
    *pos -= k + 1 + n % 3;
    memcpy(sgbuf + *pos, src + i, k);
    segs[n].data = sgbuf + *pos;
    segs[n].len = k;
    n++;
    i += k;
  }
  return i == len ? n - first : -1;
}

/* ... from the end of sgbuf into segs[0...]. */
static int scatter(const uint8_t *src, size_t len, size_t maxpiece, uint32_t seed)
{
  size_t pos = sizeof(sgbuf);
  return scatter_at(0, &pos, src, len, maxpiece, seed);
}

/* hash("hello") on alg's engine, checked against software: 0, or HASH_ERR_HW if wrong. */
static int hello_beside(int alg)
{
  uint8_t a[32], b[32];
  hash_digest(alg, HASH_PROV_SW, 0, "hello", 5, a, 32);
  int r = hash_digest(alg, HASH_PROV_HW, 0, "hello", 5, b, 32);
  return r < 0 ? r : memcmp(a, b, 32) ? HASH_ERR_HW : 0;
}

static void scattered(void)
{
  static const size_t lens[] = { 0, 1, 55, 137, 1000, 5000 };
  static const size_t maxpiece[] = { 1, 7, 300, 3000 };
  static const int algs[] = { HASH_SHA256, HASH_SHA3_256, HASH_SHAKE128 };
  for (unsigned a = 0; a < sizeof(algs) / sizeof(algs[0]); a++) {
    int alg = algs[a];
    size_t outlen = hash_alg_digest_len(alg) ? (size_t)hash_alg_digest_len(alg) : 32;
    for (unsigned i = 0; i < sizeof(lens) / sizeof(lens[0]); i++)
      for (unsigned m = 0; m < sizeof(maxpiece) / sizeof(maxpiece[0]); m++) {
        size_t len = lens[i], head = (i + m) % 2 && len > 7 ? 7 : 0;
        int n = scatter(msgbuf + head, len - head, maxpiece[m], i * 31 + m);
        if (n < 0)
          continue;                   /* more pieces than segs[] */
        for (int p = 0; p < 3; p++) { /* sg, sgsw, sgnw */
          if (p != 1 && !have_engine(alg))
            continue;
          struct hash_ctx c;
          int r = hash_begin(&c, alg, p == 1 ? HASH_PROV_SW : HASH_PROV_HW, 0);
          if (r >= 0 && head)
            r = hash_update(&c, msgbuf, head);
          if (r >= 0 && p < 2)
            r = hash_update_segs(&c, segs, n);
          if (r >= 0 && p == 2) {
            r = hash_update_segs_nowait(&c, segs, n / 2);
            if (r >= 0 && (i + m) % 2)
              r = hello_beside(alg);
            if (r >= 0)
              r = hash_update_segs_nowait(&c, segs + n / 2, n - n / 2);
          }
          memset(out, 0, outlen);
          if (r >= 0)
            r = hash_final(&c, out, outlen);
          t_row(alg, p == 1 ? "sgsw" : p ? "sgnw" : "sg", "pat", len, n, outlen, r);
        }
      }
  }
}

/* The bus address of the list the engine was last started on. */
static uint32_t dma_addr_of(int alg)
{
  return hash_alg_engine(alg) == HASH_ENGINE_SHA256 ? sha256_dma_addr_read() : keccak_dma_addr_read();
}

/*
 * hash_update_list_nowait: a message of whole blocks as two lists that the engine reads
 * in place from segs[] (the second given while the engine may still walk the first), then
 * a tail by hash_update; the digest must be the message's, and the engine must have been
 * started on segs[] itself ("sgip"). With bytes already buffered in the context the
 * driver cannot (the engine would read the list before them): it copies the list, as
 * hash_update_segs_nowait does ("sgipbuf").
 */
static void in_place_lists(void)
{
  static const int algs[] = { HASH_SHA256, HASH_SHA3_256, HASH_SHAKE128 };
  static const size_t maxpiece[] = { 7, 300, 3000 };
  for (unsigned a = 0; a < sizeof(algs) / sizeof(algs[0]); a++) {
    int alg = algs[a];
    if (!have_engine(alg))
      continue;
    size_t outlen = hash_alg_digest_len(alg) ? (size_t)hash_alg_digest_len(alg) : 32;
    size_t b = (size_t)hash_alg_block_len(alg);
    for (unsigned m = 0; m < sizeof(maxpiece) / sizeof(maxpiece[0]); m++)
      for (int head = 0; head <= 5; head += 5) {
        /* head bytes (buffered in the context), lists of 2 and 3 blocks, a tail. */
        size_t la = 2 * b, lb = 3 * b, tail = 1 + m, len = head + la + lb + tail;
        size_t pos = sizeof(sgbuf);
        int na = scatter_at(0, &pos, msgbuf + head, la, maxpiece[m], 7 * m + head);
        int nb = na < 0 ? -1 : scatter_at(na, &pos, msgbuf + head + la, lb, maxpiece[m], 11 * m + head);
        if (nb < 0 || na + nb > HASH_SG_MAX)
          continue;
        struct hash_ctx c;
        int r = hash_begin(&c, alg, HASH_PROV_HW, 0);
        if (r >= 0 && head)
          r = hash_update(&c, msgbuf, head);
        if (r >= 0)
          r = hash_update_list_nowait(&c, segs, na);
        int placed = dma_addr_of(alg) == (uint32_t)(uintptr_t)segs;
        if (r >= 0)
          r = hash_update_list_nowait(&c, segs + na, nb);
        placed += dma_addr_of(alg) == (uint32_t)(uintptr_t)(segs + na);
        if (r >= 0)
          r = hash_update(&c, msgbuf + head + la + lb, tail);
        memset(out, 0, outlen);
        if (r >= 0)
          r = hash_final(&c, out, outlen);
        const char *path = head ? "sgipbuf" : "sgip";
        t_row(alg, path, "pat", len, na + nb, outlen, r);
        char what[40];
        snprintf(what, sizeof(what), "%s_%s_%u_lists_in_place", path, hash_alg_name(alg), (unsigned)m);
        check(what, placed, head ? 0 : 2);
      }
  }
}

/*
 * The engine's refusals of bad descriptor lists (registers written directly: the driver
 * never builds such lists). Each list command is started on an open SHA-256 message; the
 * check is the error bits it leaves, then the engine must be usable again.
 */
static uint32_t sg_desc[2 * (HASH_SG_MAX + 1)] __attribute__((aligned(8)));

static uint32_t sg_raw(uint32_t list, uint32_t count)
{
  /* The list was just written by plain stores, and its address reaches the engine only
   * as an integer: without this the compiler may sink those stores past the CSR writes
   * (it did, once SHA-512 changed what got inlined: the engine read the previous list). */
  __asm__ volatile("fence" ::: "memory");
  sha256_ctrl_write(HBIT(CTRL, INIT) | (0u << HSHIFT(CTRL, MODE)));
  sha256_dma_addr_write(list);
  sha256_dma_len_write(count);
  sha256_dma_ctrl_write(HBIT(DMA_CTRL, START) | HBIT(DMA_CTRL, LIST) | HBIT(DMA_CTRL, LAST));
  for (int n = 0; (sha256_status_read() & HBIT(STATUS, BUSY)) && n < 100000; n++)
    ;
  uint32_t errors = sha256_errors_read();
  sha256_ctrl_write(HBIT(CTRL, ABORT) | HBIT(CTRL, ERR_CLEAR));
  return errors;
}

static void sg_desc_set(int i, uint32_t addr, uint32_t len)
{
  sg_desc[HASH_SG_DESC_WORDS * i + HASH_SG_ADDR] = addr;
  sg_desc[HASH_SG_DESC_WORDS * i + HASH_SG_LEN] = len;
}

static void sg_refusals(void)
{
  if (!have_engine(HASH_SHA256))
    return;
  const uint32_t bad_list = 1u << CSR_SHA256_ERRORS_BAD_LIST_OFFSET;
  const uint32_t bad_range = 1u << CSR_SHA256_ERRORS_BAD_RANGE_OFFSET;
  uint32_t list = (uint32_t)(uintptr_t)sg_desc, hello = (uint32_t)(uintptr_t)msgbuf;
  for (int i = 0; i <= HASH_SG_MAX; i++)
    sg_desc_set(i, hello, 5);
  check("sg_good_list", (int)sg_raw(list, 2), 0);
  check("sg_limit_list", (int)sg_raw(list, HASH_SG_MAX), 0);
  check("sg_zero_descriptors", (int)sg_raw(list, 0), (int)bad_list);
  check("sg_over_limit", (int)sg_raw(list, HASH_SG_MAX + 1), (int)bad_list);
  check("sg_unaligned_list", (int)sg_raw(list + 2, 1), (int)bad_list);
  check("sg_list_wraps", (int)sg_raw(0xfffffff8u, 2), (int)bad_range);
  check("sg_list_outside_ram", (int)sg_raw(CSR_BASE, 1), (int)bad_range);
  sg_desc_set(1, hello, 0);
  check("sg_zero_length_descriptor", (int)sg_raw(list, 3), (int)bad_list);
  sg_desc_set(1, CSR_BASE, 64);
  check("sg_descriptor_outside_ram", (int)sg_raw(list, 3), (int)bad_range);
  sg_desc_set(1, 0xfffffff0u, 0x20);
  check("sg_descriptor_wraps", (int)sg_raw(list, 3), (int)bad_range);
  sg_desc_set(1, hello, 5);
  /* The driver: a piece outside main RAM fails the message with HASH_ERR_HW. */
  struct hash_ctx c;
  struct hash_seg bad[2] = { { msgbuf, 64 }, { (const void *)CSR_BASE, 64 } };
  hash_begin(&c, HASH_SHA256, HASH_PROV_HW, 0);
  check("sg_driver_piece_outside_ram", hash_update_segs(&c, bad, 2), HASH_ERR_HW);
  check("sg_driver_errors", (int)c.hw_errors, (int)bad_range);
  check("sg_usable_after", hash_digest(HASH_SHA256, HASH_PROV_HW, HASH_F_DMA, "hello", 5, out, 32), 32);
  /* _nowait: the error comes with the next call on the context (here the final). */
  hash_begin(&c, HASH_SHA256, HASH_PROV_HW, 0);
  int r = hash_update_segs_nowait(&c, bad, 2);
  check("sg_nowait_bad_piece_next_call", r < 0 ? r : hash_final(&c, out, 32), HASH_ERR_HW);
  check("sg_nowait_errors", (int)c.hw_errors, (int)bad_range);
  check(
      "sg_nowait_usable_after", hash_digest(HASH_SHA256, HASH_PROV_HW, HASH_F_DMA, "hello", 5, out, 32), 32);
  /* In place: the engine reads bad[] itself and refuses its second piece the same way. */
  hash_begin(&c, HASH_SHA256, HASH_PROV_HW, 0);
  r = hash_update_list_nowait(&c, bad, 2);
  check("sg_in_place_bad_piece_next_call", r < 0 ? r : hash_final(&c, out, 32), HASH_ERR_HW);
  check("sg_in_place_errors", (int)c.hw_errors, (int)bad_range);
  check("sg_in_place_usable_after", hash_digest(HASH_SHA256, HASH_PROV_HW, HASH_F_DMA, "hello", 5, out, 32),
      32);
}

static void selftest(void)
{
  /* Around the SHA-2 padding limits, word boundaries, and each algorithm's block. */
  static const size_t lens[] = { 0, 1, 3, 4, 55, 56, 64, 65, 300 };
  pattern(msgbuf, MAXLEN);
  uint64_t t = now();
  known_answers();
  printf("P known %u\n", (unsigned)(now() - t));
  for (int alg = 0; alg < HASH_ALG_COUNT; alg++) {
    t = now();
    size_t outlen = hash_alg_digest_len(alg) ? (size_t)hash_alg_digest_len(alg) : 32;
    digest_all_paths(alg, "hello", (const uint8_t *)"hello", 5, outlen);
    size_t block = hash_alg_block_len(alg);
    for (unsigned i = 0; i < sizeof(lens) / sizeof(lens[0]); i++)
      digest_all_paths(alg, "pat", msgbuf, lens[i], outlen);
    if (block != 64)
      for (size_t n = block - 1; n <= block + 1; n++)
        digest_all_paths(alg, "pat", msgbuf, n, outlen);
    if (!hash_alg_digest_len(alg)) /* SHAKE: more than one rate block of output */
      digest_all_paths(alg, "pat", msgbuf, 100, 400);
    printf("P %s %u\n", hash_alg_name(alg), (unsigned)(now() - t));
  }
  t = now();
  for (int p = 0; p < 4; p++) {
    if (p == 0 || have_engine(HASH_SHA256))
      interleaved(HASH_SHA256, HASH_SHA224, path_prov[p], path_flags[p], path_name[p]);
    if (p == 0 || have_engine(HASH_SHA3_256))
      interleaved(HASH_SHA3_256, HASH_SHAKE128, path_prov[p], path_flags[p], path_name[p]);
  }
  printf("P interleaved %u\n", (unsigned)(now() - t));
  /* each remaining group, timed as above: the clocks of a run, by group */
  static const struct {
    const char *name;
    void (*run)(void);
  } groups[] = { { "error_paths", error_paths }, { "hmac", hmac_rows }, { "sp800185", sp800185_rows },
    { "scattered", scattered }, { "in_place_lists", in_place_lists }, { "sg_refusals", sg_refusals },
    { "coherence", coherence }, { "every_mib", every_mib } };
  for (unsigned g = 0; g < sizeof(groups) / sizeof(groups[0]); g++) {
    t = now();
    groups[g].run();
    printf("P %s %u\n", groups[g].name, (unsigned)(now() - t));
  }
  printf("SELFTEST %d passed, %d failed\n", passed, failed);
}

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

static void coherence(void)
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

static void every_mib(void)
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

static void bench(void)
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

int main(void)
{
  platform_check_soc();
  platform_irq_init();
  printf("\nHashSoC firmware: self-test and benchmark\n");
  int engines = hash_probe();
  printf("engines: sha256=%d keccak=%d sha512=%d\n", engines & 1, (engines >> 1) & 1, (engines >> 2) & 1);
  uint64_t t0 = now();
  selftest();
  uint64_t t1 = now();
  bench();
  uint64_t t2 = now();
  printf("CLOCKS selftest %u bench %u\n", (unsigned)(t1 - t0), (unsigned)(t2 - t1));
  printf("DONE\n");
  finish();
  return 0;
}
