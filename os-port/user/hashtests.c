/* SPDX-License-Identifier: MIT */
/* hashtests [-c N] [-k] [-s]: the hash system calls' checks, one PASS/FAIL line each.
 *   (no option)  argument checks (bad algorithms, providers, pointers, lengths, hmac,
 *                output buffers; streams; khashbench), every algorithm over a
 *                multi-page buffer and over scattered pages, streams that lose
 *                nothing, kill latency, the engine shared between the chunks of
 *                a long hash()
 *   -c N         N processes stream different messages through hashopen() on the
 *                hardware at once
 *   -k           a process killed in the middle of a hardware stream; the
 *                engines must still give the right digests afterwards
 *   -s           only the check that the engine is shared between the chunks
 *                of a long hash() (also part of the run without options)
 * Digests of long messages are printed as lines the host checks with hashlib
 * (tests/test_xv6_hash.py): a reference computed here in software would take
 * most of the run on the simulators, and would be our own C checked against
 * itself.
 * Ends with "hashtests: P passed, F failed". */
#include "kernel/types.h"
#include "kernel/kmac.h"
#include "user/user.h"
#include "hashsoc/hash.h"

int main(int argc, char *argv[]);
static int npass, nfail;
static uchar o1[4096], o2[4096];

static void check(int ok, const char *what)
{
  printf("%s: %s\n", ok ? "PASS" : "FAIL", what);
  if (ok)
    npass++;
  else
    nfail++;
}

static int eq(const uchar *a, const uchar *b, int n)
{
  return memcmp(a, b, n) == 0;
}

/* byte i of every long message here (the host computes the same) */
static char pattern(int i)
{
  return (char)(i * 7 + (i >> 8));
}

/* d[0..n) in hex (n <= 100), for one printf per line: a line is then one
 * write, and lines of concurrent processes stay whole */
static char *hex(const uchar *d, int n)
{
  static const char x[] = "0123456789abcdef";
  static char t[2 * 100 + 1];
  for (int i = 0; i < n; i++) {
    t[2 * i] = x[d[i] >> 4];
    t[2 * i + 1] = x[d[i] & 15];
  }
  t[2 * n] = 0;
  return t;
}

static const uchar sha256_hello[32] = { 0x2c, 0xf2, 0x4d, 0xba, 0x5f, 0xb0, 0xa3, 0x0e, 0x26, 0xe8, 0x3b,
  0x2a, 0xc5, 0xb9, 0xe2, 0x9e, 0x1b, 0x16, 0x1e, 0x5c, 0x1f, 0xa7, 0x42, 0x5e, 0x73, 0x04, 0x33, 0x62, 0x93,
  0x8b, 0x98, 0x24 };

static int have_hw(void)
{
  return hash(HASH_SHA256, HASH_PROV_HW, "hello", 5, o1, 32) == 32;
}

/* the SoC has the engine of algorithm alg */
static int alg_hw(int alg)
{
  int ol = uh_digestlen(alg) ? uh_digestlen(alg) : 32;
  return hash(alg, HASH_PROV_HW, "hello", 5, o1, ol) == ol;
}

/* kmac() (docs/hash-syscall.md): bad arguments return -1; the system call's MAC is
 * the user-space driver's (the host checks both against pycryptodome: hmac -a kmac128) */
static void kmacargs(void)
{
  static char longkey[300], longs[200];
  static const uchar msg[] = "kmac me";
  struct kmac_key k = { "key", 3, "app", 3, 0 };
  int n = sizeof msg - 1;
  struct hash_ctx c;
  check(kmac(HASH_SHAKE128, HASH_PROV_SW, &k, msg, n, o1, 32) == 32 &&
            hash_kmac_begin(&c, HASH_SHAKE128, HASH_PROV_SW, 0, "key", 3, "app", 3) == 0 &&
            hash_update(&c, msg, n) == 0 && hash_final(&c, o2, 32) == 32 && eq(o1, o2, 32),
      "kmac sw = the driver in user space");
  check(kmac(HASH_SHAKE256, HASH_PROV_AUTO, &k, msg, n, o1, 4096) == 4096, "kmac256 auto: 4096 bytes");
  check(kmac(HASH_SHAKE128, HASH_PROV_SW, &k, msg, n, o1, 4097) == -1, "kmac 4097 bytes: no");
  check(kmac(HASH_SHAKE128, HASH_PROV_SW, &k, msg, n, o1, 0) == -1, "kmac 0 bytes: no");
  if (alg_hw(HASH_SHAKE128))
    check(kmac(HASH_SHAKE128, HASH_PROV_HW, &k, msg, n, o2, 32) == 32 &&
              kmac(HASH_SHAKE128, HASH_PROV_SW, &k, msg, n, o1, 32) == 32 && eq(o1, o2, 32),
        "kmac hw = sw");
  else
    check(kmac(HASH_SHAKE128, HASH_PROV_HW, &k, msg, n, o1, 32) == -1, "kmac hw: no engine");
  check(kmac(HASH_SHA3_256, HASH_PROV_SW, &k, msg, n, o1, 32) == -1, "kmac of SHA3-256: no");
  check(kmac(HASH_SHAKE128, HASH_PROV_USER, &k, msg, n, o1, 32) == -1, "kmac provider user: no");
  check(kmac(HASH_SHAKE128, HASH_PROV_SW, 0, msg, n, o1, 32) == -1, "kmac NULL key struct");
  check(kmac(HASH_SHAKE128, HASH_PROV_SW, (void *)0x80000000, msg, n, o1, 32) == -1,
      "kmac struct at 0x80000000");
  struct kmac_key bad = k;
  bad.key = (void *)0x80000000;
  check(kmac(HASH_SHAKE128, HASH_PROV_SW, &bad, msg, n, o1, 32) == -1, "kmac key at 0x80000000");
  bad = k;
  bad.key = longkey;
  bad.keylen = 257;
  check(kmac(HASH_SHAKE128, HASH_PROV_SW, &bad, msg, n, o1, 32) == -1, "kmac 257-byte key: no");
  bad.keylen = 256;
  check(kmac(HASH_SHAKE128, HASH_PROV_SW, &bad, msg, n, o1, 32) == 32, "kmac 256-byte key");
  bad = k;
  bad.custom = longs;
  bad.customlen = KMAC_CUSTOM_MAX + 1;
  check(kmac(HASH_SHAKE128, HASH_PROV_SW, &bad, msg, n, o1, 32) == -1, "kmac customization too long");
  bad = k;
  bad.flags = 2;
  check(kmac(HASH_SHAKE128, HASH_PROV_SW, &bad, msg, n, o1, 32) == -1, "kmac unknown flag");
  bad.flags = KMAC_XOF;
  check(kmac(HASH_SHAKE128, HASH_PROV_SW, &bad, msg, n, o2, 32) == 32 && !eq(o1, o2, 32), "kmacxof differs");
  check(kmac(HASH_SHAKE128, HASH_PROV_SW, &k, (void *)0x40000000, 8, o1, 32) == -1,
      "kmac buffer at 0x40000000");
  check(
      kmac(HASH_SHAKE128, HASH_PROV_SW, &k, msg, n, (void *)main, 32) == -1, "kmac output in read-only text");
}

/* hmac() and hmacverify() (docs/integrity.md): bad arguments return -1, and
 * a known MAC (RFC 2104's construction, the common "quick brown fox" example) */
static void hmacargs(void)
{
  static const char fox[] = "The quick brown fox jumps over the lazy dog";
  static const uchar foxmac[32] = { 0xf7, 0xbc, 0x83, 0xf4, 0x30, 0x53, 0x84, 0x24, 0xb1, 0x32, 0x98, 0xe6,
    0xaa, 0x6f, 0xb1, 0x43, 0xef, 0x4d, 0x59, 0xa1, 0x49, 0x46, 0x17, 0x59, 0x97, 0x47, 0x9d, 0xbc, 0x2d,
    0x1a, 0x3c, 0xd8 };
  static char longkey[300];
  int n = strlen(fox);
  check(hmac(HASH_SHA256, HASH_PROV_SW, "key", 3, fox, n, o1) == 32 && eq(o1, foxmac, 32),
      "hmac sw: known MAC");
  check(hmac(HASH_SHA256, HASH_PROV_AUTO, "key", 3, fox, n, o1) == 32 && eq(o1, foxmac, 32),
      "hmac auto: known MAC");
  check(hmac(HASH_SHA224, HASH_PROV_SW, "key", 3, fox, n, o1) == 28, "hmac sha224: 28 bytes");
  check(hmac(HASH_SHA512, HASH_PROV_SW, "key", 3, fox, n, o1) == 64, "hmac sha512: 64 bytes");
  check(hmac(HASH_SHA384, HASH_PROV_SW, "key", 3, fox, n, o1) == 48, "hmac sha384: 48 bytes");
  check(hmac(HASH_SHA512_256, HASH_PROV_SW, "key", 3, fox, n, o1) == -1, "hmac of SHA-512/256: no");
  check(hmac(HASH_SHA3_256, HASH_PROV_SW, "key", 3, fox, n, o1) == -1, "hmac of SHA3-256: no");
  check(hmac(HASH_SHA256, HASH_PROV_USER, "key", 3, fox, n, o1) == -1, "hmac provider user: no");
  check(hmac(HASH_SHA256, -1, "key", 3, fox, n, o1) == -1, "hmac provider -1");
  check(hmac(HASH_SHA256, HASH_PROV_SW, 0, 3, fox, n, o1) == -1, "hmac NULL key, length 3");
  check(hmac(HASH_SHA256, HASH_PROV_SW, 0, 0, fox, n, o1) == 32, "hmac empty key");
  check(hmac(HASH_SHA256, HASH_PROV_SW, longkey, 256, fox, n, o1) == 32, "hmac 256-byte key");
  check(hmac(HASH_SHA256, HASH_PROV_SW, longkey, 257, fox, n, o1) == -1, "hmac 257-byte key: no");
  check(hmac(HASH_SHA256, HASH_PROV_SW, (void *)0x80000000, 8, fox, n, o1) == -1, "hmac key at 0x80000000");
  check(hmac(HASH_SHA256, HASH_PROV_SW, "key", 3, (void *)0x40000000, 8, o1) == -1,
      "hmac buffer at 0x40000000");
  check(hmac(HASH_SHA256, HASH_PROV_SW, "key", 3, fox, 0xFFFFFFF0u, o1) == -1, "hmac length that wraps");
  check(hmac(HASH_SHA256, HASH_PROV_SW, "key", 3, fox, n, 0) == -1, "hmac NULL output");
  check(
      hmac(HASH_SHA256, HASH_PROV_SW, "key", 3, fox, n, (void *)main) == -1, "hmac output in read-only text");
  check(hmacverify(HASH_SHA256, HASH_PROV_AUTO, fox, n, foxmac, 32) == -1,
      "hmacverify: a MAC under another key");
  check(hmacverify(HASH_SHA256, HASH_PROV_AUTO, fox, n, foxmac, 31) == -1, "hmacverify: MAC length 31");
  check(hmacverify(HASH_SHA256, HASH_PROV_AUTO, fox, n, 0, 32) == -1, "hmacverify: NULL MAC");
  check(hmacverify(HASH_SHA256, HASH_PROV_AUTO, (void *)0xF0000000, 8, foxmac, 32) == -1,
      "hmacverify: buffer at 0xF0000000");
  check(hmacverify(HASH_KECCAK_256, HASH_PROV_AUTO, fox, n, foxmac, 32) == -1, "hmacverify: Keccak-256: no");
}

static void badargs(void)
{
  char *stack = (char *)o1; /* any valid user address */
  check(hash(-1, HASH_PROV_SW, "hello", 5, o1, 64) == -1, "unknown algorithm -1");
  check(hash(HASH_ALG_COUNT, HASH_PROV_SW, "hello", 5, o1, 64) == -1, "unknown algorithm HASH_ALG_COUNT");
  check(hash(1000, HASH_PROV_AUTO, "hello", 5, o1, 64) == -1, "unknown algorithm 1000");
  check(hash(HASH_SHA256, HASH_PROV_USER, "hello", 5, o1, 64) == -1, "provider user (no system call)");
  check(hash(HASH_SHA256, -1, "hello", 5, o1, 64) == -1, "unknown provider -1");
  check(hash(HASH_SHA256, HASH_PROV_SW, 0, 5, o1, 32) == -1, "NULL buffer");
  check(hash(HASH_SHA256, HASH_PROV_SW, 0, 0, o1, 32) == 32, "NULL buffer, length 0 (empty message)");
  static const uintptr bad[] = { 0x80000000, 0x40000000, 0x40200000, HASH_ENGINE_WINDOW_SHA256,
    HASH_ENGINE_WINDOW_KECCAK, HASH_ENGINE_WINDOW_SHA512, 0xF0000000, 0x10000000, 0xFFFFE000, 0xFFFFF000,
    0xFFFFFFF0 };
  static const char *badn[] = { "0x80000000 (QEMU RAM)", "0x40000000 (LiteX RAM)", "0x40200000 (RAM disk)",
    "the SHA-256 window", "the Keccak window", "the SHA-512 window", "0xF0000000 (CSRs)", "0x10000000 (UART)",
    "TRAPFRAME", "TRAMPOLINE", "0xFFFFFFF0" };
  for (int i = 0; i < (int)(sizeof bad / sizeof bad[0]); i++) {
    char what[80];
    for (int p = 0; p < 3; p++) {
      strcpy(what, "buffer at ");
      strcpy(what + strlen(what), badn[i]);
      strcpy(what + strlen(what), p == 0 ? " sw" : p == 1 ? " hw" : " auto");
      check(hash(HASH_SHA256, p, (void *)bad[i], 5, o1, 32) == -1, what);
    }
    strcpy(what, "output at ");
    strcpy(what + strlen(what), badn[i]);
    check(hash(HASH_SHA256, HASH_PROV_SW, "hello", 5, (void *)bad[i], 32) == -1, what);
  }
  char *top = sbrk(0);
  check(hash(HASH_SHA256, HASH_PROV_SW, top, 5, o1, 32) == -1, "unmapped buffer (past sbrk)");
  check(hash(HASH_SHA256, HASH_PROV_SW, top - 2, 5, o1, 32) == -1, "buffer running into unmapped memory");
  check(hash(HASH_SHA256, HASH_PROV_AUTO, top - 4096, 8192, o1, 32) == -1,
      "long buffer running into unmapped memory");
  check(hash(HASH_SHA256, HASH_PROV_SW, stack, 0xFFFFFFF0u, o1, 32) == -1, "length that wraps");
  check(hash(HASH_SHA256, HASH_PROV_SW, stack, 0x80000000u, o1, 32) == -1, "length 2^31");
  check(hash(HASH_SHA256, HASH_PROV_SW, (void *)0xFFFFF000, 0x2000, o1, 32) == -1, "pointer + length wrap");
  check(hash(HASH_SHA256, HASH_PROV_SW, "hello", 5, o1, 31) == -1, "SHA-256 outlen 31");
  check(hash(HASH_SHA3_512, HASH_PROV_SW, "hello", 5, o1, 63) == -1, "SHA3-512 outlen 63");
  check(hash(HASH_SHA256, HASH_PROV_SW, "hello", 5, 0, 32) == -1, "NULL output");
  check(hash(HASH_SHA256, HASH_PROV_SW, "hello", 5, (void *)main, 32) == -1, "output in read-only text");
  check(hash(HASH_SHAKE128, HASH_PROV_SW, "hello", 5, o1, 4097) == -1, "SHAKE128 output > 4096");
  check(hash(HASH_SHAKE128, HASH_PROV_SW, "hello", 5, o1, 4096) == 4096, "SHAKE128 output 4096");
  check(hash(HASH_SHAKE256, HASH_PROV_SW, "hello", 5, o1, 0) == 0, "SHAKE256 output 0");
  check(hash(HASH_SHA256, HASH_PROV_SW, "hello", 5, o1, 32) == 32 && eq(o1, sha256_hello, 32),
      "SHA-256('hello') sw");
  check(hash(HASH_SHA256, HASH_PROV_AUTO, "hello", 5, o1, 64) == 32 && eq(o1, sha256_hello, 32),
      "SHA-256('hello') auto, outlen 64");
  check(
      hash(HASH_SHA256, HASH_PROV_SW, (void *)main, 100, o1, 32) == 32, "hashing read-only text is allowed");

  /* streams */
  check(hashopen(-1, HASH_PROV_SW) == -1 && hashopen(HASH_ALG_COUNT, HASH_PROV_SW) == -1 &&
            hashopen(HASH_SHA256, 7) == -1,
      "hashopen bad arguments");
  int h = hashopen(HASH_SHA256, HASH_PROV_SW);
  check(h >= 0, "hashopen sha256 sw");
  check(write(h, (void *)0x80000000, 5) == -1 && write(h, (void *)0x40000000, 5) == -1 &&
            write(h, (void *)HASH_ENGINE_WINDOW_SHA256, 5) == -1 && write(h, 0, 5) == -1,
      "stream write bad buffers");
  check(write(h, "hel", 3) == 3 && write(h, "", 0) == 0 && write(h, "lo", 2) == 2, "stream writes");
  check(read(h, o1, 31) == -1, "stream read shorter than the digest");
  check(read(h, (void *)0x40000000, 32) == -1 && read(h, 0, 32) == -1 && read(h, (void *)main, 32) == -1,
      "stream read to a kernel address, NULL or text: refused");
  check(read(h, o1, 32) == 32 && eq(o1, sha256_hello, 32), "a refused stream read loses nothing");
  int h2 = hashopen(HASH_SHA256, HASH_PROV_SW);
  write(h2, "hello", 5);
  check(read(h2, o1, 64) == 32 && eq(o1, sha256_hello, 32), "stream digest");
  check(read(h2, o1, 64) == 0, "stream read after final = EOF");
  check(write(h2, "x", 1) == -1, "stream write after final");
  close(h2);
  close(h);
  int hs = hashopen(HASH_SHAKE256, HASH_PROV_SW);
  write(hs, "hello", 5);
  check(read(hs, o2, 200) == 200 && hash(HASH_SHAKE256, HASH_PROV_SW, "hello", 5, o1, 200) == 200 &&
            eq(o1, o2, 200),
      "SHAKE256 stream 200 bytes = hash()");
  close(hs);
  hs = hashopen(HASH_SHAKE128, HASH_PROV_SW);
  write(hs, "hello", 5);
  check(read(hs, o2, 0) == 0 && read(hs, o2, 32) == 32 &&
            hash(HASH_SHAKE128, HASH_PROV_SW, "hello", 5, o1, 32) == 32 && eq(o1, o2, 32),
      "SHAKE stream: a 0-byte read finishes nothing");
  close(hs);
  uint64 t;
  check(khashbench(HASH_ALG_COUNT, HASH_PROV_SW, 1, 5, &t) == -1 &&
            khashbench(HASH_SHA256, HASH_PROV_SW, 1, 16385, &t) == -1 &&
            khashbench(HASH_SHA256, HASH_PROV_SW, -1, 5, &t) == -1 &&
            khashbench(HASH_SHA256, HASH_PROV_SW, 1, 5, (void *)0x40000000) == -1,
      "khashbench bad arguments");
  check(khashbench(HASH_SHA256, HASH_PROV_SW, 2, 5, &t) == 0 && t > 0, "khashbench sha256 sw");
}

/* a multi-page buffer, every algorithm: hash() on each kernel provider and a
 * stream written in growing pieces (1, 4, 13, 40, ... bytes), each digest
 * printed as "big ALG PROV hash|stream LEN HEX" for the host. With the
 * engines present only hw, its streams and auto, and only the algorithms
 * whose engine the SoC has: the kernel's software provider is the C that
 * QEMU's run checks here. */
static void bigbuffers(int hw)
{
  int n = 3 * 4096 + 1234;
  char *b = sbrk(n + 4096);
  char *p = b + 777; /* unaligned, spans 4 pages */
  for (int i = 0; i < n; i++)
    p[i] = pattern(i);
  for (int alg = 0; alg < HASH_ALG_COUNT; alg++) {
    if (hw && !alg_hw(alg))
      continue;
    int ol = uh_digestlen(alg) ? uh_digestlen(alg) : 100;
    char what[48];
    for (int prov = 0; prov < 3; prov++) {
      if (prov == (hw ? HASH_PROV_SW : HASH_PROV_HW))
        continue;
      const char *pn = prov == 0 ? "sw" : prov == 1 ? "hw" : "auto";
      int r = hash(alg, prov, p, n, o2, ol);
      strcpy(what, uh_algname(alg));
      strcpy(what + strlen(what), " 13522 bytes ");
      strcpy(what + strlen(what), pn);
      check(r == ol, what);
      printf("big %s %s hash %d %s\n", uh_algname(alg), pn, n, hex(o2, ol));
      if (prov == 2)
        continue;
      int h = hashopen(alg, prov);
      int ok = h >= 0;
      for (int off = 0, k = 1; ok && off < n; off += k, k = k * 3 + 1)
        ok = write(h, p + off, off + k > n ? n - off : k) == (off + k > n ? n - off : k);
      ok = ok && read(h, o2, ol) == ol;
      close(h);
      strcpy(what, uh_algname(alg));
      strcpy(what + strlen(what), " stream ");
      strcpy(what + strlen(what), pn);
      check(ok, what);
      printf("big %s %s stream %d %s\n", uh_algname(alg), pn, n, hex(o2, ol));
    }
  }
  sbrk(-(n + 4096));
}

/* Scatter-gather: buffers over many pages, which xv6's allocator hands out
 * in no particular physical order, at every alignment within a word and
 * across page and chunk (64 KiB) boundaries. hash() with the engine reads
 * them as descriptor lists; each digest is printed as "sg ALG OFF LEN HEX"
 * for the host to check with hashlib. The buffer is filled once: the
 * message at offset OFF is bytes OFF .. OFF+LEN-1 of pattern(). */
static void scattered(int hw)
{
  static const int lens[] = { 5 * 4096 + 13, 2 * 65536 + 4096 + 5 };
  static const int offs[] = { 0, 1, 2, 3, 4095 };
  static const int algs[] = { HASH_SHA256, HASH_SHA3_256 };
  int most = 2 * 65536 + 4096 + 5 + 4096;
  char *b = sbrk(most);
  if (b == (char *)-1) {
    check(0, "scattered: sbrk");
    return;
  }
  for (int i = 0; i < most; i++)
    b[i] = pattern(i);
  for (int l = 0; l < 2; l++)
    for (int o = 0; o < 5; o++) {
      for (int a = 0; a < 2; a++) {
        int ol = uh_digestlen(algs[a]);
        int r = hash(algs[a], hw ? HASH_PROV_HW : HASH_PROV_SW, b + offs[o], lens[l], o2, ol);
        check(r == ol, hw ? "scattered pages hw" : "scattered pages sw");
        printf("sg %s %d %d %s\n", uh_algname(algs[a]), offs[o], lens[l], hex(o2, ol));
      }
    }
  sbrk(-most);
}

static void nohw(void)
{
  check(hash(HASH_SHA256, HASH_PROV_HW, "hello", 5, o1, 32) == -1, "no engine: hash() hw = -1");
  check(hash(HASH_SHA3_256, HASH_PROV_HW, "hello", 5, o1, 32) == -1, "no engine: hash() sha3 hw = -1");
  check(hashopen(HASH_SHA256, HASH_PROV_HW) == -1, "no engine: hashopen hw = -1");
  check(hash(HASH_SHA3_256, HASH_PROV_AUTO, "hello", 5, o1, 32) == 32,
      "no engine: auto falls back to software");
}

/* child i streams message i (size 24 KiB + i*1000, byte k is k * (i + 3) + i)
 * and prints its digest as "cs I ALG LEN HEX" for the host */
static const int calg[] = { HASH_SHA256, HASH_SHA3_256, HASH_SHA224, HASH_KECCAK_256, HASH_SHAKE128,
  HASH_SHA3_512, HASH_SHA3_224, HASH_KECCAK_512 };

static int child(int i, int prov)
{
  int n = 24 * 1024 + i * 1000, ol;
  char *m = sbrk(n);
  for (int k = 0; k < n; k++)
    m[k] = (char)(k * (i + 3) + i);
  int alg = calg[i % 8];
  ol = uh_digestlen(alg) ? uh_digestlen(alg) : 64;
  int h = hashopen(alg, prov);
  if (h < 0)
    return 1;
  for (int off = 0; off < n; off += 1000) {
    int k = n - off < 1000 ? n - off : 1000;
    if (write(h, m + off, k) != k)
      return 2;
  }
  if (read(h, o2, ol) != ol)
    return 3;
  printf("cs %d %s %d %s\n", i, uh_algname(alg), n, hex(o2, ol));
  return 0;
}

static void concurrent(int nproc, int prov)
{
  int pids[16];
  for (int i = 0; i < nproc; i++) {
    pids[i] = fork();
    if (pids[i] == 0)
      exit(child(i, prov));
  }
  for (int i = 0; i < nproc; i++) {
    int st = -1, pid = wait(&st);
    char what[64];
    int k = 0;
    for (; k < nproc && pids[k] != pid; k++)
      ;
    strcpy(what, "concurrent stream ");
    strcpy(what + strlen(what), uh_algname(calg[k % 8]));
    check(pid > 0 && st == 0, what);
    if (st != 0)
      printf("  child %d status %d\n", k, st);
  }
}

/* A child that tells its parent when it is ready, so that the parent kills
 * or measures it in the middle of its work, not before it: fork_ready() forks
 * with a pipe between them, the child calls ready(c) once, and the parent's
 * wait_ready() returns c (0 if the child exited without it). */
static int readyfds[2];

static int fork_ready(void)
{
  pipe(readyfds);
  return fork();
}

static void ready(char c)
{
  write(readyfds[1], &c, 1);
}

static char wait_ready(void)
{
  char c = 0;
  close(readyfds[1]); /* then the read ends if the child exits first */
  read(readyfds[0], &c, 1);
  close(readyfds[0]);
  return c;
}

static void killed(int prov)
{
  for (int alg = 0; alg < 12; alg += 3) { /* SHA-256 and Keccak engines */
    int pid = fork_ready();
    if (pid == 0) {
      static char m[4096];
      int h = hashopen(alg, prov);
      write(h, m, sizeof m);
      ready('x'); /* streaming: the parent kills from here on */
      for (;;)
        write(h, m, sizeof m);
    }
    wait_ready();
    sleep(2); /* one to two ticks of writes */
    kill(pid);
    wait(0);
    int ol = uh_digestlen(alg) ? uh_digestlen(alg) : 32;
    uh_userhash(alg, "hello", 5, o1, ol);
    check(hash(alg, prov, "hello", 5, o2, ol) == ol && eq(o1, o2, ol),
        alg == 0 ? "after a killed SHA-256 stream, hash('hello') right"
                 : "after a killed Keccak stream, hash('hello') right");
  }
}

/* A child that hashes an 8 MiB buffer with SHA-256 on prov in a loop; its
 * pid once it has the buffer (the kernel hashes it in KHASH_CHUNK pieces,
 * checking for a kill and yielding the engine between them), -1 if not. */
static int longhasher(int prov)
{
  int pid = fork_ready();
  if (pid == 0) {
    int n = 8 << 20;
    char *b = sbrk(n);
    if (b == (char *)-1)
      exit(3);
    ready('y');
    for (;;)
      hash(HASH_SHA256, prov, b, n, o1, 32);
  }
  if (wait_ready() != 'y') {
    wait(0);
    return -1;
  }
  sleep(1); /* the child is inside its hash now */
  return pid;
}

/* A killed process leaves a long kernel loop within a few ticks: both would
 * take far longer to finish on their own (a khashbench with a huge count:
 * ~2^31 hashes; one 8 MiB hash(): ~9 M clocks on the engine, ~15 ticks). */
#define KILL_TICKS 5
static void killcheck(int pid, const char *what)
{
  int t0 = uptime();
  kill(pid);
  wait(0);
  int dt = uptime() - t0;
  printf("  killed after %d ticks\n", dt);
  check(dt <= KILL_TICKS, what);
}

static void killbench(int prov)
{
  int pid = fork_ready();
  if (pid == 0) {
    uint64 t;
    ready('x'); /* the parent times the kill from here */
    khashbench(HASH_SHA3_512, prov, 0x7fffffff, 16384, &t);
    exit(0);
  }
  wait_ready();
  sleep(2); /* well inside the loop */
  killcheck(pid, "kill inside khashbench: gone within 5 ticks");
}

/* The engine is shared between the chunks of a long hash(): while a
 * longhasher() child hashes 8 MiB on the engine, this process's
 * hash("hello") on the same engine waits about one KHASH_CHUNK, not the
 * whole message (kernel/hashplat.c: the engine lock is taken in turn). */
#define SHARE_MAX_CLOCKS (8 * 65536)
static void sharing(void)
{
  uint64 t0 = rdtime64();
  int r = hash(HASH_SHA256, HASH_PROV_HW, "hello", 5, o2, 32);
  uint64 dt = rdtime64() - t0;
  printf("  hash('hello') beside an 8 MiB hash() on the same engine: %d clocks\n", (int)dt);
  check(r == 32 && eq(sha256_hello, o2, 32) && dt < SHARE_MAX_CLOCKS,
      "engine shared: a second process hashes between the chunks of a long hash()");
}

/* one long-hashing child serves both checks: the engine shared, then the kill */
static void longhash(int prov, int share)
{
  int pid = longhasher(share ? HASH_PROV_HW : prov);
  check(pid > 0, "an 8 MiB buffer for the long hash()");
  if (pid <= 0)
    return;
  if (share)
    sharing();
  killcheck(pid, "kill inside an 8 MiB hash(): gone within 5 ticks");
}

int main(int argc, char *argv[])
{
  int nproc = 0, kill_test = 0, share_test = 0, prov = -1;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-c") == 0 && i + 1 < argc)
      nproc = atoi(argv[++i]);
    else if (strcmp(argv[i], "-k") == 0)
      kill_test = 1;
    else if (strcmp(argv[i], "-s") == 0)
      share_test = 1;
    else if (strcmp(argv[i], "-p") == 0 && i + 1 < argc)
      prov = uh_prov(argv[++i]);
  }
  int hw = have_hw();
  printf("hashtests: engines %s\n", hw ? "present" : "absent");
  if (prov < 0)
    prov = hw ? HASH_PROV_HW : HASH_PROV_SW;
  if (nproc > 16)
    nproc = 16;
  if (nproc)
    concurrent(nproc, prov);
  if (kill_test)
    killed(prov);
  if (share_test && hw)
    longhash(HASH_PROV_HW, 1);
  if (!nproc && !kill_test && !share_test) {
    badargs();
    hmacargs();
    kmacargs();
    if (!hw)
      nohw();
    bigbuffers(hw);
    scattered(hw);
    killbench(prov);
    longhash(prov, hw);
  }
  printf("hashtests: %d passed, %d failed\n", npass, nfail);
  exit(nfail != 0);
}
