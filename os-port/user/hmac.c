/* SPDX-License-Identifier: MIT */
/* hmac [-a ALG] [-p sw|hw|auto|user] -k KEY [file ...]
 *   "MAC  NAME" per file ("-" or none: standard input), HMAC under the
 *   bytes of KEY: the hmac() system call (user: in user space).
 * hmac [-a ALG] [-p sw|hw|auto] -d -c MAC [file ...]
 *   ALG: an HMAC hash of HASH_HMAC_TABLE (the usage lists them), sha256 by default.
 *   "NAME: OK" if MAC (hex) is the device key's HMAC of the file, else
 *   "NAME: FAILED" (exit 1): hmacverify(). There is no way to print the
 *   device key's MAC: anyone who could get it could sign a manifest
 *   (docs/integrity.md). */
#include "kernel/types.h"
#include "kernel/fcntl.h"
#include "user/user.h"
#include "hashsoc/hash.h"

static uchar mac[HASH_MAX_DIGEST], want[HASH_MAX_DIGEST];
static char hex[2 * HASH_MAX_DIGEST + 1];

/* the whole file into a malloc'd buffer; its length, or -1 */
static int readall(int fd, char **out)
{
  int cap = 4096, len = 0, n;
  char *buf = malloc(cap);
  while (buf && (n = read(fd, buf + len, cap - len)) > 0) {
    len += n;
    if (len == cap) {
      char *b = malloc(cap * 2);
      if (b)
        memmove(b, buf, len);
      free(buf);
      buf = b;
      cap *= 2;
    }
  }
  if (buf == 0 || n < 0) {
    free(buf);
    return -1;
  }
  *out = buf;
  return len;
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
             "ALG (default sha256):");
  uh_hmacnames(2);
  exit(2);
}

int main(int argc, char *argv[])
{
  int alg = HASH_SHA256, prov = HASH_PROV_AUTO, devkey = 0, i = 1;
  char *key = 0, *check = 0;
  for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
    if (strcmp(argv[i], "-a") == 0 && i + 1 < argc)
      alg = uh_alg(argv[++i]);
    else if (strcmp(argv[i], "-p") == 0 && i + 1 < argc)
      prov = uh_prov(argv[++i]);
    else if (strcmp(argv[i], "-k") == 0 && i + 1 < argc)
      key = argv[++i];
    else if (strcmp(argv[i], "-c") == 0 && i + 1 < argc)
      check = argv[++i];
    else if (strcmp(argv[i], "-d") == 0)
      devkey = 1;
    else
      usage();
  }
  if (alg < 0 || !hash_alg_hmac(alg) || prov < 0 || (key != 0) == devkey)
    usage();
  int mlen = uh_digestlen(alg);
  if (devkey && (check == 0 || prov == HASH_PROV_USER)) {
    fprintf(2, "hmac: -d only checks a MAC (-c MAC): the device key's MAC is never given out\n");
    exit(2);
  }
  if (check && (!devkey || unhex(want, check, mlen) < 0)) {
    fprintf(2, "hmac: -c takes the %d hex digits of a MAC, with -d\n", 2 * mlen);
    exit(2);
  }
  int status = 0;
  for (int k = i; k < argc || k == i; k++) {
    const char *name = k < argc ? argv[k] : "-";
    int fd = strcmp(name, "-") == 0 ? 0 : open(name, O_RDONLY);
    char *buf = 0;
    int len = fd < 0 ? -1 : readall(fd, &buf);
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
      int r = prov == HASH_PROV_USER ? hash_hmac(alg, HASH_PROV_SW, 0, key, strlen(key), buf, len, mac, mlen)
                                     : hmac(alg, prov, key, strlen(key), buf, len, mac);
      if (r != mlen) {
        fprintf(2, "hmac: %s: failed (%d)\n", name, r);
        status = 1;
      } else {
        uh_hex(hex, mac, mlen);
        printf("%s  %s\n", hex, name);
      }
    }
    free(buf);
    if (k >= argc)
      break;
  }
  exit(status);
}
