/* SPDX-License-Identifier: MIT */
/* Helpers shared by the hash programs: algorithm names, hex output, the
 * user-space software hashes (firmware/libhash/driver/'s software provider,
 * linked into user space with user/hash_plat_user.h) and the *sum tools. */
#include "kernel/types.h"
#include "kernel/fcntl.h"
#include "kernel/param.h"
#include "user/user.h"
#include "hashsoc/hash.h"

/* command-line names, in enum order (hashsoc/hash_spec.h) */
static const char *names[HASH_ALG_COUNT] = {
#define ALG(key, name, title, engine, mode, digest, block, pad) [HASH_##key] = name,
  HASH_ALG_TABLE(ALG)
#undef ALG
};

int uh_alg(const char *name)
{
  for (int i = 0; i < HASH_ALG_COUNT; i++)
    if (strcmp(name, names[i]) == 0)
      return i;
  return -1;
}

/* the names, space-separated, and a newline */
void uh_algnames(int fd)
{
  for (int i = 0; i < HASH_ALG_COUNT; i++)
    fprintf(fd, " %s", names[i]);
  fprintf(fd, "\n");
}

/* the names of those hmac() takes (HASH_HMAC_TABLE), the same way */
void uh_hmacnames(int fd)
{
  for (int i = 0; i < HASH_ALG_COUNT; i++)
    if (hash_alg_hmac(i))
      fprintf(fd, " %s", names[i]);
  fprintf(fd, "\n");
}

const char *uh_algname(int alg)
{
  return hash_alg_name(alg);
}
int uh_digestlen(int alg)
{
  return hash_alg_digest_len(alg);
}

static const char *provs[HASH_PROV_COUNT] = {
  [HASH_PROV_SW] = "sw", [HASH_PROV_HW] = "hw", [HASH_PROV_AUTO] = "auto", [HASH_PROV_USER] = "user"
};

int uh_prov(const char *name)
{
  for (int i = 0; i < HASH_PROV_COUNT; i++)
    if (strcmp(name, provs[i]) == 0)
      return i;
  return -1;
}

int uh_userhash(int alg, const void *buf, uint len, void *out, uint outlen)
{
  int r = hash_digest(alg, HASH_PROV_SW, 0, buf, len, out, outlen);
  return r < 0 ? -1 : r;
}

void uh_hex(char *dst, const uchar *d, int n)
{
  static const char hx[] = "0123456789abcdef";
  for (int i = 0; i < n; i++) {
    dst[2 * i] = hx[d[i] >> 4];
    dst[2 * i + 1] = hx[d[i] & 15];
  }
  dst[2 * n] = 0;
}

static char sumbuf[4096];

/* hash one file descriptor through a hashopen() stream (4 KiB reads), or in
 * user space (provider user) */
static int sumfd(int fd, int alg, int prov, uchar *out, int outlen)
{
  int n;
  if (prov == HASH_PROV_USER) {
    struct hash_ctx c;
    if (hash_begin(&c, alg, HASH_PROV_SW, 0) < 0)
      return -1;
    while ((n = read(fd, sumbuf, sizeof sumbuf)) > 0)
      hash_update(&c, sumbuf, n);
    if (n < 0)
      return -1;
    return hash_final(&c, out, outlen);
  }
  int h = hashopen(alg, prov);
  if (h < 0)
    return -1;
  while ((n = read(fd, sumbuf, sizeof sumbuf)) > 0)
    if (write(h, sumbuf, n) != n) {
      n = -1;
      break;
    }
  int r = n < 0 ? -1 : read(h, out, outlen);
  close(h);
  return r;
}

static uchar out[4096];
static char hex[8193];

/* The next line of fd, without its newline, NUL-terminated in
 * line[0..max), through a buffer: one read() per 512 bytes, not per
 * character. Its length; -1 at the end of the file; -2 for a line longer
 * than max - 1 (cut). */
static struct {
  char buf[512];
  int n, pos;
} lr;
static int readline(int fd, char *line, int max)
{
  int k = 0, eof = 0;
  for (;;) {
    if (lr.pos == lr.n) {
      lr.pos = 0;
      if ((lr.n = read(fd, lr.buf, sizeof lr.buf)) <= 0) {
        lr.n = 0;
        eof = 1;
        break;
      }
    }
    char c = lr.buf[lr.pos++];
    if (c == '\n')
      break;
    if (k < max - 1)
      line[k] = c;
    k++;
  }
  line[k < max - 1 ? k : max - 1] = 0;
  if (eof && k == 0)
    return -1;
  return k < max ? k : -2;
}

/* -c's options, as coreutils names them: --quiet (no "NAME: OK" lines),
 * --status (nothing printed, only the exit status), --strict (a malformed
 * line fails the check), -w/--warn (a warning per malformed line),
 * --ignore-missing (a listed file that does not open is skipped) */
enum { CK_QUIET = 1, CK_STATUS = 2, CK_STRICT = 4, CK_WARN = 8, CK_MISSING = 16 };
static const char *ckopts[] = { "--quiet", "--status", "--strict", "--warn", "--ignore-missing" };

static int ishex(const char *p, int n)
{
  for (int i = 0; i < n; i++)
    if (!((p[i] >= '0' && p[i] <= '9') || (p[i] >= 'a' && p[i] <= 'f') || (p[i] >= 'A' && p[i] <= 'F')))
      return 0;
  return 1;
}

static void warn_count(const char *prog, int n, const char *one, const char *many)
{
  if (n)
    fprintf(2, "%s: WARNING: %d %s\n", prog, n, n == 1 ? one : many);
}

/* -c: each line of the check file fd (called file) is "DIGEST  NAME" or
 * "DIGEST *NAME" (what uh_sum prints, coreutils' format); hash NAME and
 * print "NAME: OK", "NAME: FAILED" or "NAME: FAILED open or read". As
 * coreutils' sha256sum -c: 1 if a digest did not match, a listed file could
 * not be read, no line was well formed, or (--strict) a line was not; a
 * malformed line alone is a warning. */
static int check(int fd, const char *file, int alg, int prov, int outlen, int opts, const char *prog)
{
  static char line[sizeof hex + MAXPATH + 4];
  int n, lineno = 0, good = 0, failed = 0, unread = 0, bad = 0, verified = 0;
  int say = !(opts & CK_STATUS);
  lr.n = lr.pos = 0;
  while ((n = readline(fd, line, sizeof line)) != -1) {
    lineno++;
    if (n < 2 * outlen + 3 || !ishex(line, 2 * outlen) || line[2 * outlen] != ' ' ||
        (line[2 * outlen + 1] != ' ' && line[2 * outlen + 1] != '*')) {
      bad++;
      if ((opts & CK_WARN) && say) { /* "SHA256" for sha256sum, as coreutils says */
        fprintf(2, "%s: %s: %d: improperly formatted ", prog, file, lineno);
        for (const char *p = prog; *p && strcmp(p, "sum") != 0; p++)
          fprintf(2, "%c", *p >= 'a' && *p <= 'z' ? *p - 'a' + 'A' : *p);
        fprintf(2, " checksum line\n");
      }
      continue;
    }
    good++;
    char *name = line + 2 * outlen + 2;
    int g = open(name, O_RDONLY);
    if (g < 0 && (opts & CK_MISSING))
      continue;
    int r = g < 0 ? -1 : sumfd(g, alg, prov, out, outlen);
    if (g >= 0)
      close(g);
    if (r != outlen) {
      fprintf(2, "%s: %s: %s\n", prog, name, g < 0 ? "cannot open" : "read or hash failed");
      if (say)
        printf("%s: FAILED open or read\n", name);
      unread++;
      continue;
    }
    verified++;
    uh_hex(hex, out, outlen);
    line[2 * outlen] = 0;
    for (char *p = line; *p; p++) /* the digest may be written in upper case */
      if (*p >= 'A' && *p <= 'F')
        *p += 'a' - 'A';
    int ok = strcmp(hex, line) == 0;
    if (say && !(ok && (opts & CK_QUIET)))
      printf("%s: %s\n", name, ok ? "OK" : "FAILED");
    failed += !ok;
  }
  if (!good) {
    fprintf(2, "%s: %s: no properly formatted checksum lines found\n", prog, file);
    return 1;
  }
  if (say) {
    warn_count(prog, bad, "line is improperly formatted", "lines are improperly formatted");
    warn_count(prog, unread, "listed file could not be read", "listed files could not be read");
    warn_count(prog, failed, "computed checksum did NOT match", "computed checksums did NOT match");
  }
  if ((opts & CK_MISSING) && !verified) {
    if (say)
      fprintf(2, "%s: %s: no file was verified\n", prog, file);
    return 1;
  }
  return failed || unread || ((opts & CK_STRICT) && bad);
}

/* NAME [-p sw|hw|auto|user] [-a BITS] [-l BYTES] [-c [--quiet] [--status]
 * [--strict] [-w] [--ignore-missing]] [file ...]: "DIGEST  NAME" lines, "-"
 * for standard input; with -c the files are lists of such lines to check. alg < 0: the family is chosen with -a (-1 SHA-3, -2 SHAKE,
 * -3 Keccak). */
int uh_sum(int argc, char **argv, int alg, int outlen, const char *prog)
{
  int prov = HASH_PROV_AUTO, bits = 0, i = 1, checking = 0, opts = 0;
  for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
    int o = 0;
    while (o < (int)(sizeof ckopts / sizeof ckopts[0]) && strcmp(argv[i], ckopts[o]) != 0)
      o++;
    if (o == 3 || strcmp(argv[i], "-w") == 0)
      o = 3;
    if (o < (int)(sizeof ckopts / sizeof ckopts[0])) {
      if ((1 << o) & (CK_QUIET | CK_STATUS | CK_WARN)) /* one level of output: the last one given */
        opts &= ~(CK_QUIET | CK_STATUS | CK_WARN);
      opts |= 1 << o;
    } else if (strcmp(argv[i], "-c") == 0)
      checking = 1;
    else if (strcmp(argv[i], "-p") == 0 && i + 1 < argc)
      prov = uh_prov(argv[++i]);
    else if (strcmp(argv[i], "-a") == 0 && i + 1 < argc)
      bits = atoi(argv[++i]);
    else if (strcmp(argv[i], "-l") == 0 && i + 1 < argc)
      outlen = atoi(argv[++i]);
    else
      goto usage;
  }
  if (prov < 0)
    goto usage;
  if (opts && !checking) {
    fprintf(2, "%s: --quiet, --status, --strict, --warn and --ignore-missing are for -c\n", prog);
    goto usage;
  }
  if (alg == -1 || alg == -3) { /* SHA-3 / Keccak: -a 224|256|384|512 */
    int base = alg == -1 ? HASH_SHA3_224 : HASH_KECCAK_224;
    if (bits == 0)
      bits = alg == -1 ? 256 : 256;
    alg = bits == 224 ? base : bits == 256 ? base + 1 : bits == 384 ? base + 2 : bits == 512 ? base + 3 : -1;
  } else if (alg == -2) { /* SHAKE: -a 128|256 */
    if (bits == 0)
      bits = 128;
    alg = bits == 128 ? HASH_SHAKE128 : bits == 256 ? HASH_SHAKE256 : -1;
    if (outlen == 0)
      outlen = bits == 128 ? 32 : 64;
  }
  if (alg < 0)
    goto usage;
  if (uh_digestlen(alg))
    outlen = uh_digestlen(alg);
  if (outlen <= 0 || outlen > (int)sizeof out)
    goto usage;
  int status = 0;
  for (int k = i; k < argc || k == i; k++) {
    const char *name = k < argc ? argv[k] : "-";
    int fd = strcmp(name, "-") == 0 ? 0 : open(name, O_RDONLY);
    if (fd < 0) {
      fprintf(2, "%s: cannot open %s\n", prog, name);
      status = 1;
      continue;
    }
    if (checking) {
      status |= check(fd, fd == 0 ? "standard input" : name, alg, prov, outlen, opts, prog);
      if (fd != 0)
        close(fd);
      if (k >= argc)
        break;
      continue;
    }
    int r = sumfd(fd, alg, prov, out, outlen);
    if (fd != 0)
      close(fd);
    if (r != outlen) {
      fprintf(2, "%s: %s: hashing failed\n", prog, name);
      status = 1;
      continue;
    }
    uh_hex(hex, out, outlen);
    printf("%s  %s\n", hex, name);
    if (k >= argc)
      break;
  }
  return status;
usage:
  fprintf(2,
      "usage: %s [-p sw|hw|auto|user] [-a BITS] [-l BYTES] [-c [--quiet] [--status] [--strict] [-w] "
      "[--ignore-missing]] [file ...]\n",
      prog);
  return 2;
}

/* the whole file into a malloc'd buffer; its length, or -1 */
int uh_readall(int fd, char **out)
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
