/* SPDX-License-Identifier: MIT */
/* Hashing in the kernel (docs/hash-syscall.md): one header for its files,
 * each with one job:
 *   hashplat.c    the hash library's platform half, the engines' interrupt
 *   khash.c       provider policy; hash(), hmac() and kmac() of a user buffer in place
 *   hashfile.c    hashopen()'s file type: write = update, read = final
 *   khashbench.c  hashing timed in kernel space, the boot benchmark
 *   syshash.c     the system calls hash, khashbench, hmac, hmacverify, kmac, verify
 *                 (sysfile.c: hashopen; integrity.c: the manifest behind verify)
 *   devkey.c      the device key's fingerprint at boot */
#ifndef XV_KHASH_H
#define XV_KHASH_H
#define KHASH_MAX_XOF      4096  /* largest SHAKE output of one hash()/read() */
#define KHASH_BENCH_MAX    16384 /* largest khashbench message */
/* the most one driver call hashes for a user: a process holds an engine for
 * at most this much DMA at a time, and notices a kill within it */
#define KHASH_CHUNK        (64 * 1024)
/* the longest key hmac() takes (the driver hashes keys longer than a block) */
#define KHASH_HMAC_KEY_MAX 256
/* the driver flags of every hardware request, whatever its length: arm the
 * engine's interrupt. The driver polls a short while first
 * (HASH_PLAT_POLLS_BEFORE_SLEEP in hash_plat_kernel.h) and sleeps only on long
 * waits, so a short message costs no interrupt either way. */
#define KHASH_HW_FLAGS     HASH_F_IRQ
#ifndef BOOT_HASHBENCH_COUNT
#define BOOT_HASHBENCH_COUNT 1000
#endif
struct file;
struct khstream;
struct hash_ctx;

/* hashplat.c */
void khashinit(void);
void khash_intr(int engine);
void khash_tick(void);

/* khash.c */
int khash_engine_present(int alg);
int khash_pick_provider(int alg, int provider, uint len);
int khash_update_user(struct hash_ctx *c, pagetable_t pt, uintptr va, uint len, uint maxchunk);
int khash_user(int alg, int provider, uintptr buf, uint len, uintptr out, uint outlen);
int khash_hmac_user(int alg, int provider, uintptr key, uint keylen, uintptr buf, uint len, uintptr out);
int khash_hmac_devcheck(int alg, int provider, uintptr buf, uint len, uintptr mac, uint maclen);
int khash_kmac_user(int alg, int provider, uintptr key, uintptr buf, uint len, uintptr out, uint outlen);

/* hashfile.c */
int khash_open(int alg, int provider, struct file *f);
int khash_read(struct file *f, uintptr addr, int n);
int khash_write(struct file *f, uintptr addr, int n);
void khash_close(struct khstream *s);

/* devkey.c: "devicekey: fingerprint <16 hex> (engine)" on the console */
void devkey_print_fingerprint(void);

/* khashbench.c */
int khash_bench(int alg, int provider, int count, int size, uint64 *elapsed);
int khash_bench_user(int alg, int provider, int count, int size, uintptr out);
void khash_bootbench(void);
#endif
