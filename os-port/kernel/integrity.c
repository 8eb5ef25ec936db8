/* SPDX-License-Identifier: MIT */
/*
 * The image's integrity manifest (docs/integrity.md).
 *
 * /manifest lists "<sha256 hex>  <name>" for every file of the image that
 * must not change (tools/mkmanifest.py writes it when the image is built),
 * and /manifest.mac holds "<mac hex>  kernel-version <N>": the HMAC-SHA-256
 * under the device key of "kernel-version <N>\n" and the manifest's bytes.
 * A kernel accepts only the manifest of its own version (KERNEL_VERSION),
 * so an old image's manifest is refused by a new kernel, and a new one's by
 * an old kernel. Only the SHA-256 engine holds that key (on QEMU, which has no
 * engine, the kernel has a public stand-in), so a manifest whose MAC
 * checks was made by whoever built the image, not by someone who changed
 * the file system afterwards.
 *
 * At boot (forkret, before init runs) the MAC is checked and every listed
 * file hashed; the manifest's entries are bound to the inodes their names
 * lead to then. At exec, a program is run only if its inode is listed and
 * its SHA-256 is the listed one (enforce mode; log mode reports and runs
 * it). A match is remembered in the in-memory inode (ip->verified) until
 * the file is written, so a program is hashed once, not at every exec.
 *
 * Both rest on fs.c's block ownership: a listed file is checked only if
 * every block it points at is its own (iblocks()), so that nothing but a
 * write to that inode, under its lock, can change the bytes hashed here.
 */
#include "types.h"
#include "param.h"
#include "riscv.h"
#include "spinlock.h"
#include "sleeplock.h"
#include "fs.h"
#include "file.h"
#include "stat.h"
#include "defs.h"
#include "khash.h"
#include "integrity.h"
#include "hashsoc/hash.h"
#include "hash_plat_kernel.h" /* HASH_PLAT_SW_DEVICE_KEY: QEMU's stand-in */
#include "hashsoc/measure.h"  /* the measurement register (LiteX) */
#include "proc.h"

#define DLEN    32 /* SHA-256 digests and HMAC-SHA-256 MACs */
#define OPFILES 8  /* files a transaction of the boot check takes (checkfiles) */
_Static_assert(OPFILES + 1 <= MAXOPBLOCKS, "an inode block a file and one bitmap block");
_Static_assert(FSSIZE <= BPB, "one bitmap block");

static const char *modename[] = { "off", "log", "enforce" };

struct mentry {
  uchar digest[DLEN];
  char name[DIRSIZ + 1];
  uint inum; /* the inode the name led to at boot; 0: none */
};

/* The manifest exec trusts. Written once, at boot, by the first process
 * before it runs init, when no other process exists; only read after
 * that, so exec reads it without a lock. */
static struct mentry table[NMANIFEST];
static int ntable;
static int trusted; /* the manifest passed its checks at boot */

/* A check (boot, the verify system call) reads /manifest into text and
 * parses it into ent. One check at a time: the lock is held across the
 * whole check, which sleeps (the disk, the engine). */
static struct {
  struct sleeplock lock;
  char text[MANIFEST_MAX];
  int textlen; /* bytes of text read by load(), or -1 */
  struct mentry ent[NMANIFEST];
  uint blocks[MAXFILE];         /* hashinplace: a file's blocks (iblocks), */
  struct hash_seg seg[MAXFILE]; /* and its pieces (no kalloc() and its two fills a file) */
  struct dirent root[PGSIZE / sizeof(struct dirent)]; /* readroot() */
  int nroot;                                          /* entries in root[], or -1 */
} chk;

/* The MAC: on the engine when there is one, the only holder of the device
 * key; QEMU has none and computes it in software with its stand-in key. */
static int macprovider(void)
{
  return khash_engine_present(HASH_SHA256) ? HASH_PROV_HW : HASH_PROV_SW;
}

/* The files: the engine too, the faster hash (docs/integrity.md), unless
 * the build asks for software (make INTEGRITY_SW=1, for comparison). */
static int provider(void)
{
#ifdef INTEGRITY_SW
  return HASH_PROV_SW;
#else
  return macprovider();
#endif
}

#ifdef HASH_PLAT_SW_DEVICE_KEY
#define KEYNOTE ", device key: public QEMU stand-in, INSECURE"
#else
#define KEYNOTE ""
#endif

static int hwflags(int prov)
{
  return prov == HASH_PROV_HW ? HASH_F_IRQ : 0;
}

/* SHA-256 of a file's contents; ip->lock held (so nobody writes it
 * meanwhile). Read a page at a time into a kernel page, which the engine
 * reads by DMA (the kernel maps RAM at virtual = physical). */
static int hashinode(struct inode *ip, uchar *out)
{
  struct hash_ctx c;
  char *page = kalloc();
  int prov = provider(), r = -1;
  if (page == 0)
    return -1;
  if (hash_begin(&c, HASH_SHA256, prov, hwflags(prov)) < 0)
    goto done;
  for (uint off = 0; off < ip->size; off += PGSIZE) {
    uint n = ip->size - off < PGSIZE ? ip->size - off : PGSIZE;
    if (readi(ip, 0, (uintptr)page, off, n) != (int)n || hash_update(&c, page, n) < 0) {
      hash_abort(&c);
      goto done;
    }
  }
  r = hash_final(&c, out, DLEN) == DLEN ? 0 : -1;
done:
  kfree(page);
  return r;
}

/* SHA-256 of a file's contents read in place from the RAM disk, the
 * engine walking its blocks by scatter-gather DMA (one piece per run of
 * consecutive blocks): no copy into the buffer cache and a page, which
 * cost the boot check ~17 of its ~18 clocks per byte.  ip->lock held,
 * and iblocks(ip, chk.blocks) passed, which listed the file's blocks
 * there.  Only at boot, before init runs: the log's recovery installed
 * its blocks on the disk, and since then nothing has written a data
 * block (the check's transactions can only free an unlinked inode:
 * bitmap and inode blocks), so no data block in the cache is newer than
 * the RAM disk's.  Later a transaction's newer blocks may be only in the
 * cache: exec and verify use hashinode.  chk.lock held: its blocks[] and
 * seg[] are used here. */
static int hashinplace(struct inode *ip, uchar *out)
{
  struct hash_ctx c;
  struct hash_seg *seg = chk.seg;
  int prov = provider(), n = 0;
  uint nb = ip->size / BSIZE + (ip->size % BSIZE != 0);
  if (nb > MAXFILE)
    return -1;
  for (uint i = 0; i < nb; i++) {
    char *p = chk.blocks[i] ? ramdiskblock(chk.blocks[i]) : 0;
    uint len = ip->size - i * BSIZE < BSIZE ? ip->size - i * BSIZE : BSIZE;
    if (p == 0)
      return -1; /* a hole: "cannot be read", as readi() stops there */
    if (n > 0 && (char *)seg[n - 1].data + seg[n - 1].len == p)
      seg[n - 1].len += len;
    else
      seg[n++] = (struct hash_seg){ p, len };
  }
  if (hash_begin(&c, HASH_SHA256, prov, hwflags(prov)) < 0)
    return -1;
  if (hash_update_segs(&c, seg, n) < 0) {
    hash_abort(&c);
    return -1;
  }
  return hash_final(&c, out, DLEN) == DLEN ? 0 : -1;
}

/* "/" + a manifest name: every listed file is in the root directory */
static struct inode *lookup(char *name)
{
  char path[DIRSIZ + 2];
  path[0] = '/';
  safestrcpy(path + 1, name, DIRSIZ + 1);
  return namei(path);
}

/* At boot, the root directory's entries, read once into chk.root for
 * the check's lookups: a namei() is ~12k clocks of locks and buffer
 * cache on VexRiscv, and the check made one a file.  chk.nroot = their
 * number, or -1 if they do not fit (then each name goes to lookup()).
 * chk.lock held. */
static void readroot(void)
{
  chk.nroot = -1;
  begin_op();
  struct inode *dp = namei("/");
  if (dp) {
    ilock(dp);
    if (dp->type == T_DIR && dp->size <= sizeof(chk.root)) {
      int got = readi(dp, 0, (uintptr)chk.root, 0, dp->size);
      chk.nroot = got < 0 ? -1 : got / (int)sizeof(chk.root[0]);
    }
    iunlockput(dp);
  }
  end_op();
}

/* /name's inode, with a reference; 0 if absent.  From chk.root when
 * readroot() filled it: the boot check runs before any other process,
 * so the directory cannot change meanwhile.  chk.lock held. */
static struct inode *findname(char *name)
{
  if (chk.nroot < 0)
    return lookup(name);
  for (int i = 0; i < chk.nroot; i++)
    if (chk.root[i].inum != 0 && namecmp(name, chk.root[i].name) == 0)
      return iget(ROOTDEV, chk.root[i].inum);
  return 0;
}

/* Read the regular file /name into buf (at most max bytes); its length,
 * or -1 if it is missing, not a file or longer than max. */
static int readfile(char *name, char *buf, int max)
{
  int n = -1;
  begin_op();
  struct inode *ip = findname(name);
  if (ip) {
    ilock(ip);
    if (ip->type == T_FILE && ip->size <= (uint)max)
      n = readi(ip, 0, (uintptr)buf, 0, ip->size);
    iunlockput(ip);
  }
  end_op();
  return n;
}

static int hexval(int c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  return -1; /* mkmanifest.py and sha256sum write lower case */
}

/* n bytes from 2n hex digits; -1 if one is not a digit */
static int unhex(uchar *out, const char *s, int n)
{
  for (int i = 0; i < n; i++) {
    int h = hexval(s[2 * i]), l = hexval(s[2 * i + 1]);
    if (h < 0 || l < 0)
      return -1;
    out[i] = h << 4 | l;
  }
  return 0;
}

/* The lines of the manifest: "<64 hex>  <name>\n", name 1..DIRSIZ
 * characters without '/' or ' '. The count, or -1 at the first bad line. */
static int parse(char *s, int len, struct mentry *e)
{
  int n = 0;
  char *end = s + len;
  while (s < end) {
    if (n == NMANIFEST || end - s < 2 * DLEN + 4 || unhex(e[n].digest, s, DLEN) < 0)
      return -1;
    s += 2 * DLEN;
    if (s[0] != ' ' || s[1] != ' ')
      return -1;
    s += 2;
    int k = 0;
    while (s + k < end && s[k] != '\n' && s[k] != '/' && s[k] != ' ' && k <= DIRSIZ)
      k++;
    if (k == 0 || k > DIRSIZ || s + k == end || s[k] != '\n')
      return -1;
    memmove(e[n].name, s, k);
    e[n].name[k] = 0;
    e[n].inum = 0;
    s += k + 1;
    n++;
  }
  return n;
}

/* Read /manifest and /manifest.mac and check the MAC under the device key,
 * then parse the manifest into chk.ent. chk.lock held. 0 and *n = the
 * number of entries, or why the manifest is rejected. */
/* manifest.mac's version: the decimal number after "<64 hex>  kernel-version "
 * up to the newline, or -1 if the line is not that. */
static int macversion(const char *s, int len)
{
  static const char tag[] = "  " MANIFEST_VERSION_TAG " ";
  int v = 0, i = 2 * DLEN, k = 0;
  for (; tag[k]; k++, i++)
    if (i >= len || s[i] != tag[k])
      return -1;
  for (k = 0; i < len && s[i] >= '0' && s[i] <= '9' && k < 9; i++, k++)
    v = 10 * v + s[i] - '0';
  if (k == 0 || !(i == len || (i == len - 1 && s[i] == '\n')))
    return -1;
  return v;
}

/* Append s, or v in decimal, at p; return the end (no terminating 0). */
static char *puts_at(char *p, const char *s)
{
  while (*s)
    *p++ = *s++;
  return p;
}
static char *putnum_at(char *p, uint v)
{
  char d[10];
  int k = 0;
  do
    d[k++] = '0' + v % 10;
  while ((v /= 10) != 0);
  while (k > 0)
    *p++ = d[--k];
  return p;
}

static const char *load(int *n)
{
  static char why[80];
  char mactext[2 * DLEN + sizeof MANIFEST_VERSION_TAG + 16];
  char vline[sizeof MANIFEST_VERSION_TAG + 16];
  uchar want[DLEN], mac[DLEN];
  struct hash_ctx c;
  int prov = macprovider();

  int len = readfile("manifest", chk.text, sizeof chk.text);
  chk.textlen = len;
  if (len < 0)
    return "no readable /manifest of at most 8192 bytes";
  int maclen = readfile("manifest.mac", mactext, sizeof mactext);
  int version = maclen < 0 ? -1 : macversion(mactext, maclen);
  if (version < 0 || unhex(want, mactext, DLEN) < 0)
    return "no /manifest.mac of one line \"<64 hex>  " MANIFEST_VERSION_TAG " <N>\"";
  if (version != KERNEL_VERSION) {
    char *p = putnum_at(puts_at(why, "it is for kernel version "), version);
    *putnum_at(puts_at(p, ", this kernel is version "), KERNEL_VERSION) = 0;
    return why;
  }
  /* The device key's MAC, which only the engine (QEMU: the kernel) can
   * compute, of the version's line and the manifest. Compared in constant
   * time, so that how long the comparison took says nothing about how much
   * of a forged MAC was right. */
  char *e = putnum_at(puts_at(vline, MANIFEST_VERSION_TAG " "), version);
  *e++ = '\n';
  int vlen = e - vline;
  int r = hash_hmac_begin(&c, HASH_SHA256, prov, hwflags(prov) | HASH_F_DEVKEY, 0, 0);
  if (r == 0)
    r = hash_update(&c, vline, vlen);
  if (r == 0)
    r = hash_update(&c, chk.text, len);
  if (r == 0)
    r = hash_final(&c, mac, DLEN);
  else
    hash_abort(&c);
  if (r != DLEN)
    return "no device key to check it with";
  int same = memeq_ct(mac, want, DLEN);
  memset(mac, 0, sizeof mac);
  if (!same)
    return "manifest.mac is not the device key's MAC of /manifest";
  if ((*n = parse(chk.text, len, chk.ent)) < 0)
    return "a line is not \"<64 hex>  <name>\"";
  return 0;
}

/* Hash every listed file and compare; print a line per failure. With bind
 * (boot), remember each entry's inode, mark the files that match as
 * verified for exec, and hash them in place (hashinplace: only then is
 * the RAM disk as new as the cache). chk.lock held. The number of
 * failures. */
static int checkfiles(struct mentry *e, int n, int bind)
{
  uchar d[DLEN];
  int failed = 0;
  for (int i = 0; i < n; i++) {
    const char *why = 0;
    /* A file's iput() may be the last reference to an unlinked inode,
     * which frees it: its inode block and the bitmap block (one: fsinit
     * allows no more than FSSIZE < BPB blocks) go into the log.  So a
     * transaction may take OPFILES files within MAXOPBLOCKS, and the boot
     * check takes them so (a begin_op/end_op pair, whose wakeup walks the
     * process table, was ~4k clocks a file); verify, one at a time. */
    if (i % (bind ? OPFILES : 1) == 0)
      begin_op();
    struct inode *ip = findname(e[i].name);
    if (ip == 0) {
      why = "missing";
    } else {
      ilock(ip);
      if (bind)
        e[i].inum = ip->inum;
      if (ip->type != T_FILE)
        why = "cannot be read";
      else if ((why = iblocks(ip, bind ? chk.blocks : 0)) != 0)
        ; /* its bytes could change without a write to it (fs.c) */
      else if ((bind ? hashinplace(ip, d) : hashinode(ip, d)) < 0)
        why = "cannot be read";
      else if (!memeq_ct(d, e[i].digest, DLEN))
        why = "digest differs from the manifest";
      else if (bind)
        ip->verified = 1;
      iunlockput(ip);
    }
    if ((i + 1) % (bind ? OPFILES : 1) == 0 || i == n - 1)
      end_op();
    if (why) {
      printf("integrity: %s: %s\n", e[i].name, why);
      failed++;
    }
  }
  return failed;
}

static void summary(const char *what, int n, int failed, uint64 t0)
{
  uint64 t = r_time64() - t0;
  printf("integrity: %s: %d files checked, %d failed, %llu clocks (%s%s)\n", what, n, failed, t,
      provider() == HASH_PROV_HW ? "engine" : "software", KEYNOTE);
}

/* Measured boot (docs/integrity.md): extend the measurement register with the SHA-256 of
 * the manifest as read, accepted or not, before anything it lists runs. The ROM extended it
 * with the kernel's digest before jumping here. chk.lock held. */
static void measure_manifest(void)
{
  uchar d[DLEN], v[MEASURE_BYTES];
  int prov = provider();
#ifndef CSR_MEASURE_BASE
  return; /* no measurement register (QEMU; a SoC built without one) */
#endif
  if (chk.textlen < 0)
    return;
  if (hash_digest(HASH_SHA256, prov, hwflags(prov), chk.text, chk.textlen, d, DLEN) != DLEN ||
      measure_extend(d) < 0 || measure_read(v) < 0) {
    printf("measure: the measurement register did not take the manifest's digest\n");
    return;
  }
  static const char digit[] = "0123456789abcdef";
  char hx[2 * DLEN + 1];
  for (int i = 0; i < DLEN; i++)
    hx[2 * i] = digit[d[i] >> 4], hx[2 * i + 1] = digit[d[i] & 15];
  hx[2 * DLEN] = 0;
  printf("measure: manifest sha256 %s\n", hx);
}

/* The measure system call: the register's value to user address dst. */
int integrity_measure(uintptr dst)
{
  uchar v[MEASURE_BYTES];
  int n = measure_read(v);
  if (n < 0 || copyout(myproc()->pagetable, dst, (char *)v, sizeof v) < 0)
    return -1;
  return n;
}

void integrity_boot(void)
{
  int n;
  initsleeplock(&chk.lock, "integrity");
  if (INTEGRITY_MODE == INTEGRITY_OFF) {
    printf("integrity: off: nothing checked\n");
    return;
  }
  uint64 t0 = r_time64();
  acquiresleep(&chk.lock);
  readroot();
  chk.textlen = -1;
  const char *why = load(&n);
  measure_manifest();
  if (why && INTEGRITY_MODE == INTEGRITY_ENFORCE) {
    /* Nothing on the disk can be trusted to be what was built: run none
     * of it. Stop as socidcheck() does; no lock matters any more. */
    printf("integrity: enforce: manifest rejected: %s: boot stopped\n", why);
    intr_off();
    for (;;)
      asm volatile("wfi");
  }
  if (why) {
    printf("integrity: log: manifest rejected: %s: running unchecked\n", why);
  } else {
    memmove(table, chk.ent, n * sizeof table[0]);
    ntable = n;
    trusted = 1;
    summary(modename[INTEGRITY_MODE], n, checkfiles(table, n, 1), t0);
  }
  releasesleep(&chk.lock);
}

int integrity_verify(void)
{
  int n, failed = -1;
  uint64 t0 = r_time64();
  acquiresleep(&chk.lock);
  chk.nroot = -1; /* the directory may change under a running system: namei() */
  const char *why = load(&n);
  if (why) {
    printf("integrity: verify: manifest rejected: %s\n", why);
  } else {
    /* compared with the manifest on the disk now, and bound to nothing:
     * exec keeps the table of the boot, and no verified mark is set here
     * (an older manifest with a valid MAC must not vouch for a file that
     * the boot's manifest lists with another digest) */
    failed = checkfiles(chk.ent, n, 0);
    summary("verify", n, failed, t0);
  }
  releasesleep(&chk.lock);
  return failed;
}

static struct mentry *find(struct inode *ip)
{
  for (int i = 0; i < ntable; i++)
    if (table[i].inum == ip->inum && ip->dev == ROOTDEV)
      return &table[i];
  return 0;
}

int integrity_exec(struct inode *ip, char *path)
{
  uchar d[DLEN];
  struct mentry *e;
  const char *why;

  if (INTEGRITY_MODE == INTEGRITY_OFF || ip->verified)
    return 0;
  if (!trusted)
    why = "no trusted manifest";
  else if ((e = find(ip)) == 0)
    why = "not in the manifest";
  else if ((why = iblocks(ip, 0)) != 0)
    ; /* its bytes could change without a write to it (fs.c) */
  else if (hashinode(ip, d) < 0)
    why = "cannot be read";
  else if (!memeq_ct(d, e->digest, DLEN))
    why = "digest differs from the manifest";
  else {
    ip->verified = 1; /* until writei/itrunc clear it (ip->lock held) */
    return 0;
  }
  if (INTEGRITY_MODE == INTEGRITY_ENFORCE) {
    printf("exec %s: refused: %s\n", path, why);
    return -1;
  }
  printf("exec %s: %s (integrity: log, running it)\n", path, why);
  return 0;
}
