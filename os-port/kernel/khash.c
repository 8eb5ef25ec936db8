/* SPDX-License-Identifier: MIT */
/*
 * Hashing as a kernel service (docs/hash-syscall.md): the provider policy
 * and hash(alg, provider, buf, len, out, outlen), the one-shot digest of a
 * user buffer read in place (no copy). The buffer is checked and walked
 * with vm.c's uvmruns; the physically contiguous runs of user
 * pages go to the driver as a list, which the engine reads in place
 * and walks by scatter-gather DMA.
 * The stream file type is hashfile.c, the benchmarks khashbench.c, the
 * system calls syshash.c, the driver's platform half hashplat.c.
 */
#include "types.h"
#include "param.h"
#include "memlayout.h"
#include "riscv.h"
#include "spinlock.h"
#include "sleeplock.h"
#include "proc.h"
#include "fs.h"
#include "file.h"
#include "defs.h"
#include "khash.h"
#include "kmac.h"
#include "hashsoc/hash.h"

/* ---- policy ---- */

/* HASH_PROV_AUTO picks the engine from this message size on (bytes),
 * measured with hashbench -x on litex_sim (docs/hash-syscall.md): with the
 * driver's short path, syscall+hw beats syscall+sw from 0 bytes on, so
 * the engine is used whenever there is one */
#ifndef KHASH_AUTO_THRESHOLD
#define KHASH_AUTO_THRESHOLD 0
#endif
int khash_engine_present(int alg)
{
  return (hash_probe() >> hash_alg_engine(alg)) & 1;
}

int khash_pick_provider(int alg, int provider, uint len)
{
  if (provider == HASH_PROV_AUTO)
    return (len >= KHASH_AUTO_THRESHOLD && khash_engine_present(alg)) ? HASH_PROV_HW : HASH_PROV_SW;
  return provider;
}

/* ---- user buffers, in place ---- */

/* Each process's two lists of a chunk's runs, which the engine reads in place
 * (hash_update_list_nowait): uvmruns writes the runs the engine then walks, and
 * nothing copies them while the engine streams the last chunk (on a board each store
 * then waits for the engine to yield the SDRAM). Kernel data is mapped virtual =
 * physical, which the kernel stack is not. A process uses only its own slot, one
 * system call at a time: no lock. While the engine reads one list the next chunk's
 * runs go into the other. */
#define KHASH_RUNS (KHASH_CHUNK / PGSIZE + 1) /* a chunk may span 17 pages */
static struct hash_seg khash_lists[NPROC][2][KHASH_RUNS];
extern struct proc proc[NPROC];

/* hash_update over a checked user range, at most maxchunk bytes per driver
 * call. A chunk is gathered as the physically contiguous runs of its pages
 * (uvmruns), which the engine reads as one scatter-gather list: no CPU
 * between pages. Each call holds the engine only for its chunk: another
 * process's context can take the engine between chunks (the driver
 * switches contexts lazily), and a killed process stops between them. */
int khash_update_user(struct hash_ctx *c, pagetable_t pt, uintptr va, uint len, uint maxchunk)
{
  struct hash_seg(*lists)[KHASH_RUNS] = khash_lists[myproc() - proc];
  int which = 0;
  uintptr end = va + len;
  if (end < va)
    return -1;
  if (maxchunk > KHASH_CHUNK)
    maxchunk = KHASH_CHUNK;
  while (va < end) {
    /* Every chunk but the last ends the message at a block boundary (SHA3-256's
     * 136-byte rate does not divide 64 KiB): the engine then takes each chunk by DMA
     * alone, and the next list starts as soon as this one ends, without a tail
     * block fed by stores in between. */
    uint want = end - va > maxchunk ? hash_cut(c, maxchunk) : end - va;
    struct hash_seg *seg = lists[which];
    int n;
    if (killed(myproc()) || (n = uvmruns(pt, va, end, want, seg, KHASH_RUNS)) <= 0) {
      /* The engine may still read the last chunk: wait for it before the
       * pages can go (a killed process's return to kalloc on exit). */
      hash_update_segs(c, 0, 0);
      return -1;
    }
    for (int i = 0; i < n; i++) /* loads only: stores wait behind a running DMA */
      va += seg[i].len;
    /* Not the last chunk: the engine reads it while we walk the next one; the
     * next call waits for it first, and so does any other process that takes
     * the engine meanwhile. The last chunk waits, so the user's buffer is
     * free when we return. */
    if ((va < end ? hash_update_list_nowait(c, seg, n) : hash_update_segs(c, seg, n)) < 0)
      return -1;
    which = !which;
  }
  return 0;
}

/* ---- hash() ---- */

int khash_user(int alg, int provider, uintptr buf, uint len, uintptr out, uint outlen)
{
  struct proc *p = myproc();
  uint8_t d[HASH_MAX_DIGEST];
  uint8_t *o = d;
  int r = -1;

  if (hash_alg_name(alg) == 0 || provider < 0 || provider > HASH_PROV_AUTO)
    return -1;
  int dl = hash_alg_digest_len(alg);
  if (dl ? outlen < (uint)dl : outlen > KHASH_MAX_XOF)
    return -1;
  if (dl)
    outlen = dl;
  /* The common case, hash("hello"): the message (or none) and the digest
   * each within one page. One walk for each, and the driver writes the
   * digest straight into the user's page: no check-then-use walks, no
   * copyout (docs/hash-syscall.md: ~1,200 of ~6,000 clocks). Anything
   * else, including every bad pointer, takes the general path below. */
  int prov = khash_pick_provider(alg, provider, len);
  int flags = prov == HASH_PROV_HW ? KHASH_HW_FLAGS : 0;
  char *pb = len ? uvmpage(p->pagetable, buf, len, PTE_R) : 0;
  char *po = uvmpage(p->pagetable, out, outlen, PTE_W);
  if ((len == 0 || pb) && po) {
    r = hash_digest(alg, prov, flags, pb, len, (uint8_t *)po, outlen);
    return r < 0 ? -1 : r;
  }
  /* The buffer is checked page by page as it is walked (uvmruns): a bad
   * page ends the work with -1, and nothing has been written yet. */
  if (uvmwritable(p->pagetable, out, outlen) < 0) /* fail before the work */
    return -1;
  if (outlen > sizeof d && (o = kalloc()) == 0)
    return -1;
  struct hash_seg run = { 0, 0 };
  if (buf + len < buf || (len && uvmruns(p->pagetable, buf, buf + len, KHASH_CHUNK, &run, 1) != 1))
    goto done;
  if (run.len == len) {
    /* one physically contiguous run of at most KHASH_CHUNK bytes (or empty):
     * one driver call, one DMA command */
    r = hash_digest(alg, prov, flags, run.data, len, o, outlen);
  } else {
    struct hash_ctx c;
    if ((r = hash_begin(&c, alg, prov, flags)) >= 0) {
      /* chunks of at most KHASH_CHUNK: the engine is free for others
       * between them, and a killed process stops within one */
      if (khash_update_user(&c, p->pagetable, buf, len, KHASH_CHUNK) < 0) {
        hash_abort(&c);
        r = -1;
      } else {
        r = hash_final(&c, o, outlen);
        hash_abort(&c); /* no-op unless final failed and left it open */
      }
    }
  }
  if (r >= 0 && copyout(p->pagetable, out, o, outlen) < 0)
    r = -1;
done:
  if (o != d)
    kfree(o);
  return r < 0 ? -1 : r;
}

/* ---- hmac() and hmacverify() ---- */

/* HMAC of a user buffer, read in place as hash() reads it, into mac (the
 * kernel's). devkey: the device key (key NULL, keylen 0), which only the
 * engine holds (QEMU: the kernel's public stand-in). The MAC's length, or
 * -1. */
static int hmac_user(
    int alg, int provider, int devkey, const uchar *key, uint keylen, uintptr buf, uint len, uint8_t *mac)
{
  struct hash_ctx c;
  if (provider < 0 || provider > HASH_PROV_AUTO)
    return -1;
  int prov = khash_pick_provider(alg, provider, len);
  int flags = (prov == HASH_PROV_HW ? KHASH_HW_FLAGS : 0) | (devkey ? HASH_F_DEVKEY : 0);
  if (hash_hmac_begin(&c, alg, prov, flags, key, keylen) < 0) /* also: an alg with no HMAC */
    return -1;
  if (khash_update_user(&c, myproc()->pagetable, buf, len, KHASH_CHUNK) < 0) {
    hash_abort(&c);
    return -1;
  }
  int r = hash_final(&c, mac, HASH_MAX_DIGEST);
  hash_abort(&c); /* no-op unless final failed and left it open */
  return r < 0 ? -1 : r;
}

/* hmac(): with the caller's key only. The key and the MAC are wiped from
 * the kernel's stack before we return. */
int khash_hmac_user(int alg, int provider, uintptr ukey, uint keylen, uintptr buf, uint len, uintptr out)
{
  uchar key[KHASH_HMAC_KEY_MAX];
  uint8_t mac[HASH_MAX_DIGEST];
  int r = -1;
  if (keylen > sizeof key || (keylen && copyin(myproc()->pagetable, key, ukey, keylen) < 0))
    return -1;
  int n = hmac_user(alg, provider, 0, key, keylen, buf, len, mac);
  if (n > 0 && copyout(myproc()->pagetable, out, mac, n) == 0)
    r = n;
  memset(key, 0, sizeof key);
  memset(mac, 0, sizeof mac);
  return r;
}

/* hmacverify(): is mac the device key's HMAC of buf? 0 yes, -1 no (or bad
 * arguments). The device key's MAC itself never leaves the kernel: anyone
 * who could read it could sign a manifest (docs/integrity.md). Compared in
 * constant time, so that timing tells nothing about a guess's right bytes. */
int khash_hmac_devcheck(int alg, int provider, uintptr buf, uint len, uintptr umac, uint maclen)
{
  uint8_t want[HASH_MAX_DIGEST], mac[HASH_MAX_DIGEST];
  if (!hash_alg_hmac(alg))
    return -1;
  if (maclen != (uint)hash_alg_digest_len(alg) || copyin(myproc()->pagetable, want, umac, maclen) < 0)
    return -1;
  int n = hmac_user(alg, provider, 1, 0, 0, buf, len, mac);
  int same = n == (int)maclen && memeq_ct(mac, want, maclen);
  memset(mac, 0, sizeof mac);
  return same ? 0 : -1;
}

/* ---- kmac() ---- */

/* kmac(): KMAC128 or KMAC256 (alg HASH_SHAKE128 or HASH_SHAKE256: the sponge,
 * HASH_SP800_185_TABLE) of a user buffer, read in place as hash() reads it,
 * under the key and customization of a struct kmac_key (copied in, then the
 * strings it points at); outlen bytes (1..KHASH_MAX_XOF), KMACXOF with
 * KMAC_XOF; the engine's KMAC mode as hmac() picks the engine (auto: where
 * there is one). The key and the MAC are wiped from the kernel before we
 * return; the driver wipes the keyed state it saved. */
int khash_kmac_user(int alg, int provider, uintptr uk, uintptr buf, uint len, uintptr out, uint outlen)
{
  pagetable_t pt = myproc()->pagetable;
  struct kmac_key k;
  uchar key[KHASH_HMAC_KEY_MAX], custom[KMAC_CUSTOM_MAX];
  struct hash_ctx c;
  uint8_t *o = 0;
  int r = -1;
  if (provider < 0 || provider > HASH_PROV_AUTO || outlen == 0 || outlen > KHASH_MAX_XOF)
    return -1;
  if (copyin(pt, (char *)&k, uk, sizeof k) < 0 || k.keylen > sizeof key || k.customlen > sizeof custom ||
      (k.flags & ~KMAC_XOF))
    return -1;
  if ((k.keylen && copyin(pt, (char *)key, (uintptr)k.key, k.keylen) < 0) ||
      (k.customlen && copyin(pt, (char *)custom, (uintptr)k.custom, k.customlen) < 0) || (o = kalloc()) == 0)
    goto done;
  int prov = khash_pick_provider(alg, provider, len);
  int flags = (prov == HASH_PROV_HW ? KHASH_HW_FLAGS : 0) | (k.flags & KMAC_XOF ? HASH_F_XOF : 0);
  if (hash_kmac_begin(&c, alg, prov, flags, key, k.keylen, custom, k.customlen) < 0)
    goto done;
  if (khash_update_user(&c, pt, buf, len, KHASH_CHUNK) < 0) {
    hash_abort(&c); /* (wipes the keyed sponge) */
    goto done;
  }
  r = hash_final(&c, o, outlen);
  if (r >= 0 && copyout(pt, out, (char *)o, outlen) < 0)
    r = -1;
done:
  memset(key, 0, sizeof key);
  if (o) {
    memset(o, 0, outlen);
    kfree(o);
  }
  return r < 0 ? -1 : r;
}
