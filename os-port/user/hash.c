/* SPDX-License-Identifier: MIT */
/* hash [-a ALG]... [-p sw|hw|auto|user] [-l BYTES] [-n N] [text ...]
 * Hashes the arguments joined by spaces, like seed 000's usha:
 *   SHA-256 hash of 'hello': 2cf24dba...
 * sw/hw/auto go through the hash() system call; user hashes in user space.
 * -a may be given more than once, and `-a all` names every algorithm: one line
 * each, in that order, from one process (a command's fork, exec and exit cost
 * 0.5-0.8 M clocks, exectime on litex_sim: more than its hashes).  Default:
 * sha256. */
#include "kernel/types.h"
#include "user/user.h"

static char msg[2048];
static uchar out[4096];
static char hex[8193];

static void usage(void)
{
  fprintf(2, "usage: hash [-a ALG]... [-p sw|hw|auto|user] [-l BYTES] [-n N] [text ...]\nALG: all");
  uh_algnames(2);
  exit(2);
}

/* One algorithm's line; 0, or -1 if it failed. */
static int one(int alg, int prov, int outlen, uint len)
{
  if (uh_digestlen(alg))
    outlen = uh_digestlen(alg);
  else if (outlen == 0)
    outlen = alg == HASH_SHAKE128 ? 32 : 64; /* SHAKE128: 32 bytes, SHAKE256: 64 */
  if (outlen <= 0 || outlen > (int)sizeof out) {
    fprintf(2, "hash: bad output length\n");
    exit(2);
  }
  int r = prov == HASH_PROV_USER ? uh_userhash(alg, msg, len, out, outlen)
                                 : hash(alg, prov, msg, len, out, outlen);
  if (r != outlen) {
    printf("hash: %s failed (%d)\n", uh_algname(alg), r);
    return -1;
  }
  uh_hex(hex, out, outlen);
  printf("%s hash of '%s': %s\n", uh_algname(alg), msg, hex);
  return 0;
}

int main(int argc, char *argv[])
{
  int algs[HASH_ALG_COUNT], nalg = 0;
  int prov = HASH_PROV_AUTO, outlen = 0, i = 1, gen = -1;
  for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
    if (strcmp(argv[i], "-a") == 0 && i + 1 < argc) {
      if (strcmp(argv[++i], "all") == 0) {
        for (nalg = 0; nalg < HASH_ALG_COUNT; nalg++)
          algs[nalg] = nalg;
      } else if (nalg < HASH_ALG_COUNT && (algs[nalg] = uh_alg(argv[i])) >= 0) {
        nalg++;
      } else {
        usage();
      }
    } else if (strcmp(argv[i], "-p") == 0 && i + 1 < argc) {
      if ((prov = uh_prov(argv[++i])) < 0)
        usage();
    } else if (strcmp(argv[i], "-l") == 0 && i + 1 < argc) {
      outlen = atoi(argv[++i]);
    } else if (strcmp(argv[i], "-n") == 0 && i + 1 < argc && atoi(argv[i + 1]) < (int)sizeof msg) {
      gen = atoi(argv[++i]);
    } else {
      usage();
    }
  }
  if (nalg == 0)
    algs[nalg++] = HASH_SHA256;
  uint len = 0;
  for (; i < argc; i++) {
    uint n = strlen(argv[i]);
    if (len + n + 1 >= sizeof msg) {
      fprintf(2, "hash: message too long\n");
      exit(2);
    }
    if (len)
      msg[len++] = ' ';
    memmove(msg + len, argv[i], n);
    len += n;
  }
  if (gen >= 0)
    for (len = 0; len < (uint)gen; len++)
      msg[len] = 'a' + len % 26;
  int failed = 0;
  for (int k = 0; k < nalg; k++)
    failed |= one(algs[k], prov, outlen, len) < 0;
  exit(failed);
}
