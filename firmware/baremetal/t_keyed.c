/* SPDX-License-Identifier: MIT */
/*
 * The self-test's keyed hashes: HMAC (H and R rows, and the checks that keys and keyed
 * states are wiped), cSHAKE and KMAC (K rows).
 */
#include "fwtest.h"
#include "rfc4231.h" /* generated: scripts/genhmackat.py */

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

void hmac_rows(void)
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
void sp800185_rows(void)
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
