/* SPDX-License-Identifier: MIT */
/* hmac [-a ALG] [-p sw|hw|auto|user] -k KEY [file ...]
 *   "MAC  NAME" per file ("-" or none: standard input), HMAC under the
 *   bytes of KEY: the hmac() system call (user: in user space).
 * hmac [-a ALG] [-p sw|hw|auto] -d -c MAC [file ...]
 *   ALG: an HMAC hash of HASH_HMAC_TABLE (the usage lists them), sha256 by default.
 *   "NAME: OK" if MAC (hex) is the device key's HMAC of the file, else
 *   "NAME: FAILED" (exit 1): hmacverify(). There is no way to print the
 *   device key's MAC: anyone who could get it could sign a manifest
 *   (docs/integrity.md).
 * hmac -a kmac128|kmac256 [-x] [-l LEN] [-s CUSTOM] [-p sw|auto|user] -k KEY [file ...]
 *   KMAC (NIST SP 800-185) instead: under the bytes of KEY with the
 *   customization string CUSTOM (default none), LEN bytes (default 32 for
 *   KMAC128, 64 for KMAC256), -x KMACXOF; the kmac() system call (user: in
 *   user space). Software only so far: -p hw fails. One program for both
 *   MACs: each tool carries the driver for -p user (~30 KB on fs.img, which
 *   the boards' serial boot uploads at 1 Mbaud). */
#include "kernel/types.h"
#include "kernel/fcntl.h"
#include "kernel/kmac.h"
#include "user/user.h"
#include "hashsoc/hash.h"

static uchar mac[4096], want[HASH_MAX_DIGEST];
static char hex[2 * 4096 + 1];

/* "kmac128" -> HASH_SHAKE128 ...: KMAC on each sponge of HASH_SP800_185_TABLE, named
 * after its SHAKE ("SHAKE128" -> "kmac128"); -1 if none */
static int kmac_alg(const char *name)
{
  static const int sponges[] = {
#define X(key, cshake, kmac) HASH_##key,
    HASH_SP800_185_TABLE(X)
#undef X
  };
  for (int i = 0; i < (int)(sizeof sponges / sizeof sponges[0]); i++) {
    const char *shake = uh_algname(sponges[i]);
    if (memcmp(name, "kmac", 4) == 0 && strcmp(name + 4, shake + 5) == 0)
      return sponges[i];
  }
  return -1;
}

static int unhex(uchar *d, const char *s, int n)
{
  if ((int)strlen(s) != 2 * n)
    return -1;
  for (int i = 0; i < 2 * n; i++) {
    char c = s[i];
    int v = c >= '0' && c <= '9'   ? c - '0'
            : c >= 'a' && c <= 'f' ? c - 'a' + 10
            : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                   : -1;
    if (v < 0)
      return -1;
    d[i / 2] = i % 2 ? d[i / 2] | v : v << 4;
  }
  return 0;
}

static void usage(void)
{
  fprintf(2, "usage: hmac [-a ALG] [-p sw|hw|auto|user] -k KEY [file ...]\n"
             "       hmac [-a ALG] [-p sw|hw|auto] -d -c MAC [file ...]\n"
             "       hmac -a kmac128|kmac256 [-x] [-l LEN] [-s CUSTOM] [-p sw|auto|user] -k KEY [file ...]\n"
             "ALG (default sha256):");
  uh_hmacnames(2);
  exit(2);
}

/* buf's MAC into mac: HMAC (hmac() or in user space) or KMAC (kmac() or in user
 * space); its length, or < 0 */
static int mac_of(int alg, int kmac_on, int prov, struct kmac_key *k, const char *buf, int len, int mlen)
{
  if (!kmac_on)
    return prov == HASH_PROV_USER ? hash_hmac(alg, HASH_PROV_SW, 0, k->key, k->keylen, buf, len, mac, mlen)
                                  : hmac(alg, prov, k->key, k->keylen, buf, len, mac);
  if (prov != HASH_PROV_USER)
    return kmac(alg, prov, k, buf, len, mac, mlen);
  struct hash_ctx c;
  memset(&c, 0, sizeof c); /* idle: abort is a no-op unless begin opened a message */
  int r = hash_kmac_begin(&c, alg, HASH_PROV_SW, k->flags & KMAC_XOF ? HASH_F_XOF : 0, k->key, k->keylen,
      k->custom, k->customlen);
  if (r == 0 && (r = hash_update(&c, buf, len)) == 0)
    r = hash_final(&c, mac, mlen);
  hash_abort(&c); /* (wipes the keyed sponge if final did not run) */
  return r;
}

int main(int argc, char *argv[])
{
  int alg = HASH_SHA256, prov = HASH_PROV_AUTO, devkey = 0, kmac_on = 0, mlen = 0, i = 1;
  char *check = 0;
  struct kmac_key k = { 0, 0, "", 0, 0 };
  for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
    if (strcmp(argv[i], "-a") == 0 && i + 1 < argc) {
      i++;
      kmac_on = kmac_alg(argv[i]) >= 0;
      alg = kmac_on ? kmac_alg(argv[i]) : uh_alg(argv[i]);
    } else if (strcmp(argv[i], "-p") == 0 && i + 1 < argc)
      prov = uh_prov(argv[++i]);
    else if (strcmp(argv[i], "-k") == 0 && i + 1 < argc)
      k.key = argv[++i];
    else if (strcmp(argv[i], "-c") == 0 && i + 1 < argc)
      check = argv[++i];
    else if (strcmp(argv[i], "-d") == 0)
      devkey = 1;
    else if (strcmp(argv[i], "-s") == 0 && i + 1 < argc)
      k.custom = argv[++i];
    else if (strcmp(argv[i], "-l") == 0 && i + 1 < argc)
      mlen = atoi(argv[++i]);
    else if (strcmp(argv[i], "-x") == 0)
      k.flags |= KMAC_XOF;
    else
      usage();
  }
  if (alg < 0 || (!kmac_on && !hash_alg_hmac(alg)) || prov < 0 || (k.key != 0) == devkey)
    usage();
  if (!kmac_on && (mlen || k.flags || *(char *)k.custom)) {
    fprintf(2, "hmac: -l, -s and -x are KMAC's (-a kmac128|kmac256)\n");
    exit(2);
  }
  if (kmac_on && mlen == 0)
    mlen = alg == HASH_SHAKE128 ? 32 : 64; /* twice the security strength */
  if (!kmac_on)
    mlen = uh_digestlen(alg);
  if (mlen < 0 || mlen > (int)sizeof mac) {
    fprintf(2, "hmac: -l takes 1..%d bytes\n", (int)sizeof mac);
    exit(2);
  }
  if (devkey && (check == 0 || prov == HASH_PROV_USER || kmac_on)) {
    fprintf(2, "hmac: -d only checks an HMAC (-c MAC): the device key's MAC is never given out\n");
    exit(2);
  }
  if (check && (!devkey || unhex(want, check, mlen) < 0)) {
    fprintf(2, "hmac: -c takes the %d hex digits of a MAC, with -d\n", 2 * mlen);
    exit(2);
  }
  if (k.key) {
    k.keylen = strlen(k.key);
    k.customlen = strlen(k.custom);
  }
  int status = 0;
  for (int f = i; f < argc || f == i; f++) {
    const char *name = f < argc ? argv[f] : "-";
    int fd = strcmp(name, "-") == 0 ? 0 : open(name, O_RDONLY);
    char *buf = 0;
    int len = fd < 0 ? -1 : uh_readall(fd, &buf);
    if (fd > 0)
      close(fd);
    if (len < 0) {
      fprintf(2, "hmac: cannot read %s\n", name);
      status = 1;
    } else if (devkey) {
      int ok = hmacverify(alg, prov, buf, len, want, mlen) == 0;
      printf("%s: %s\n", name, ok ? "OK" : "FAILED");
      status |= !ok;
    } else {
      int r = mac_of(alg, kmac_on, prov, &k, buf, len, mlen);
      if (r != mlen) {
        fprintf(2, "hmac: %s: failed (%d)\n", name, r);
        status = 1;
      } else {
        uh_hex(hex, mac, mlen);
        printf("%s  %s\n", hex, name);
      }
    }
    free(buf);
    if (f >= argc)
      break;
  }
  exit(status);
}
