/* SPDX-License-Identifier: MIT */
#ifndef XV_USER_H
#define XV_USER_H
#include "kernel/types.h"
struct stat;

/* system calls (usys.S) */
int fork(void);
int exit(int) __attribute__((noreturn));
int wait(int *);
int pipe(int *);
int write(int, const void *, int);
int read(int, void *, int);
int close(int);
int kill(int);
int exec(const char *, char **);
int open(const char *, int);
int mknod(const char *, short, short);
int unlink(const char *);
int fstat(int fd, struct stat *);
int link(const char *, const char *);
int mkdir(const char *);
int chdir(const char *);
int dup(int);
int getpid(void);
char *sbrk(int);
int sleep(int);
int uptime(void);
/* hashing (docs/hash-syscall.md).  alg: enum hash_alg, provider:
 * HASH_PROV_SW, HASH_PROV_HW or HASH_PROV_AUTO (hashsoc/hash_spec.h, generated
 * from gateware/hashspec.py).
 * hash(): digest of buf[0..len) into out (outlen >= digest length, exactly
 * the digest is written; SHAKE: outlen bytes, at most 4096); returns the
 * number of bytes written or -1.
 * hashopen(): a hash context as a file descriptor: write() = update,
 * the first read(fd, out, n) = final (n >= digest length; SHAKE: n bytes),
 * then read() returns 0; close() before the final read drops the message.
 * khashbench(): count hashes of size bytes ("hellohe...") in kernel space;
 * *elapsed = time-counter ticks; returns 0 or -1. */
#include "hashsoc/hash_spec.h"
int hash(int alg, int provider, const void *buf, uint len, void *out, uint outlen);
int hashopen(int alg, int provider);
int khashbench(int alg, int provider, int count, int size, uint64 *elapsed);
/* HMAC and the image's manifest (docs/integrity.md).
 * hmac(): HMAC of buf[0..len) under key[0..keylen) (keylen <= 256), alg a
 * hash of HASH_HMAC_TABLE (SHA-256, SHA-224, SHA-512, SHA-384); writes the
 * MAC (the hash's digest length) to out and returns its length, or -1.
 * hmacverify(): 0 if mac[0..maclen) is the device key's HMAC of buf, else
 * -1; the device key's MAC itself is never given out.
 * verify(): check /manifest and every file it lists now (the kernel prints
 * the failures and a summary line); the number of failures, -1 if the
 * manifest itself is rejected. */
int hmac(int alg, int provider, const void *key, uint keylen, const void *buf, uint len, void *out);
int hmacverify(int alg, int provider, const void *buf, uint len, const void *mac, uint maclen);
int verify(void);
/* kmac(): KMAC128 / KMAC256 (NIST SP 800-185; alg HASH_SHAKE128 or HASH_SHAKE256, the
 * sponge) of buf[0..len) under k's key and customization string (kernel/kmac.h),
 * outlen bytes (1..4096) into out, KMACXOF with KMAC_XOF; returns outlen or -1.
 * Software only so far: provider HASH_PROV_HW is -1. */
struct kmac_key;
int kmac(int alg, int provider, const struct kmac_key *k, const void *buf, uint len, void *out, uint outlen);
/* measure(value): the measurement register's 32 bytes into value (measured boot: the
 * ROM extended it with the kernel's SHA-256, the kernel with the manifest's); the number
 * of extends since reset, or -1 where there is no register (QEMU). */
int measure(void *value);

/* ulib.c */
int stat(const char *, struct stat *);
char *strcpy(char *, const char *);
void *memmove(void *, const void *, int);
char *strchr(const char *, char c);
int strcmp(const char *, const char *);
int strncmp(const char *, const char *, int);
char *gets(char *, int max);
uint strlen(const char *);
void *memset(void *, int, uint);
int atoi(const char *);
int memcmp(const void *, const void *, uint);
void *memcpy(void *, const void *, uint);

/* uhash.c: helpers of the hash programs */
int uh_alg(const char *name);       /* "sha256" ... "keccak-512" -> alg, or -1 */
void uh_algnames(int fd);           /* print every name, then a newline */
void uh_hmacnames(int fd);          /* those of the HMAC hashes, the same way */
const char *uh_algname(int alg);    /* "SHA-256" ... */
int uh_digestlen(int alg);          /* 0 for SHAKE */
int uh_prov(const char *name);      /* "sw" "hw" "auto" "user" -> HASH_PROV_*, else -1 */
int uh_readall(int fd, char **out); /* the whole file into a malloc'd *out: its length, or -1 */
int uh_userhash(int alg, const void *buf, uint len, void *out, uint outlen); /* in user space */
void uh_hex(char *dst, const uchar *d, int n);                               /* 2n hex digits + NUL */
int uh_sum(int argc, char **argv, int alg, int outlen, const char *prog);

/* printf.c: %d %u %x %p %s %c %%, ll prefix for 64-bit */
void fprintf(int, const char *, ...) __attribute__((format(printf, 2, 3)));
void printf(const char *, ...) __attribute__((format(printf, 1, 2)));

/* umalloc.c */
void *malloc(uint);
void free(void *);

/* rdtime.c: the 64-bit `time` counter read from user space with csrr
 * (emulated by machine mode on VexRiscv; on QEMU too unless the kernel was
 * built with NATIVE_TIME=1).  Reads timeh, time, timeh and retries if the
 * high word changed in between. */
uint64 rdtime64(void);
static inline uint32 rdtime32(void)
{
  uint32 lo;
  asm volatile("csrr %0, time" : "=r"(lo));
  return lo;
}
/* timer constants of the platform this image was built for */
#define XV_TIMEBASE_HZ TIMEBASE_HZ
#define XV_TICK_HZ     TICK_HZ
#endif
