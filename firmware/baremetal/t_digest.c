/* SPDX-License-Identifier: MIT */
/*
 * The self-test's digests: known answers, every algorithm at lengths around its padding
 * limits on every path (T rows), and two contexts interleaved on one engine (I rows).
 */
#include "fwtest.h"

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

void known_answers(void)
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

/* Every algorithm on every path: "hello", lengths around the SHA-2 padding limits and
 * word boundaries, and around each algorithm's block; a P row per algorithm (its clocks). */
void digests(void)
{
  static const size_t lens[] = { 0, 1, 3, 4, 55, 56, 64, 65, 300 };
  for (int alg = 0; alg < HASH_ALG_COUNT; alg++) {
    uint64_t t = now();
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
}

/* Two contexts interleaved on each engine, on each of the four paths. */
void interleaved_contexts(void)
{
  for (int p = 0; p < 4; p++) {
    if (p == 0 || have_engine(HASH_SHA256))
      interleaved(HASH_SHA256, HASH_SHA224, path_prov[p], path_flags[p], path_name[p]);
    if (p == 0 || have_engine(HASH_SHA3_256))
      interleaved(HASH_SHA3_256, HASH_SHAKE128, path_prov[p], path_flags[p], path_name[p]);
  }
}
