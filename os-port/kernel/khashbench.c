/* SPDX-License-Identifier: MIT */
/*
 * Hashing timed in kernel space: khashbench(alg, provider, count, size,
 * &elapsed) and, with BOOT_HASHBENCH=1, seed 000's boot-time Listing 9. The
 * time is the CPU's time counter (r_time64), so the figures compare with the
 * user-space ones of hashbench (docs/hash-syscall.md).
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
#include "hashsoc/hash.h"

static char benchbuf[KHASH_BENCH_MAX] __attribute__((aligned(64)));

/* count hashes of size bytes ("hellohello..."), timed in the kernel */
int khash_bench(int alg, int provider, int count, int size, uint64 *elapsed)
{
  uint8_t d[HASH_MAX_DIGEST];
  if (hash_alg_name(alg) == 0 || provider < 0 || provider > HASH_PROV_AUTO || count < 0 || size < 0 ||
      size > KHASH_BENCH_MAX)
    return -1;
  if (benchbuf[0] != 'h')
    for (int i = 0; i < KHASH_BENCH_MAX; i++)
      benchbuf[i] = "hello"[i % 5];
  int prov = khash_pick_provider(alg, provider, size);
  int flags = prov == HASH_PROV_HW ? KHASH_HW_FLAGS : 0;
  int outlen = hash_alg_digest_len(alg) ? hash_alg_digest_len(alg) : 32;
  struct proc *p = myproc(); /* 0 at boot (BOOT_HASHBENCH) */
  uint64 t0 = r_time64();
  for (int i = 0; i < count; i++) {
    /* a killed process stops here, within one hash. The flag is read
     * without p->lock (killed() takes it): a stale 0 costs one more hash,
     * and the loop's figures stay those of hashing alone. */
    if (p && *(volatile int *)&p->killed)
      return -1;
    if (hash_digest(alg, prov, flags, benchbuf, size, d, outlen) < 0)
      return -1;
  }
  *elapsed = r_time64() - t0;
  return 0;
}

/* BOOT_HASHBENCH=1: seed 000's Listing 9, 1000 x SHA-256("hello") at boot */
void khash_bootbench(void)
{
#ifdef BOOT_HASHBENCH
  uint64 t;
  if (khash_bench(HASH_SHA256, HASH_PROV_SW, BOOT_HASHBENCH_COUNT, 5, &t) == 0)
    printf("Time in kernel space(startup): %llu (%d x SHA-256 'hello', software)\n", t, BOOT_HASHBENCH_COUNT);
  if (khash_engine_present(HASH_SHA256) &&
      khash_bench(HASH_SHA256, HASH_PROV_HW, BOOT_HASHBENCH_COUNT, 5, &t) == 0)
    printf("Time in kernel space(startup): %llu (%d x SHA-256 'hello', hardware)\n", t, BOOT_HASHBENCH_COUNT);
#endif
}


/* khashbench() for a user process: the time goes to its address out */
int khash_bench_user(int alg, int provider, int count, int size, uintptr out)
{
  uint64 t;
  if (uvmwritable(myproc()->pagetable, out, sizeof t) < 0) /* before the loop */
    return -1;
  if (khash_bench(alg, provider, count, size, &t) < 0)
    return -1;
  return copyout(myproc()->pagetable, out, (char *)&t, sizeof t) < 0 ? -1 : 0;
}
