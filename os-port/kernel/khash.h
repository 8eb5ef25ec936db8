/* kernel/khash.c: hashing system calls (docs/hash-syscall.md) */
#ifndef XV_KHASH_H
#define XV_KHASH_H
#define KHASH_MAX_XOF   4096  /* largest SHAKE output of one hash()/read() */
#define KHASH_BENCH_MAX 16384 /* largest khashbench message */
#ifndef BOOT_HASHBENCH_COUNT
#define BOOT_HASHBENCH_COUNT 1000
#endif
struct file;
struct khstream;
void khashinit(void);
void khash_intr(int engine);
void khash_tick(void);
void khash_bootbench(void);
int khash_open(int alg, int provider, struct file *f);
int khash_read(struct file *f, uintptr addr, int n);
int khash_write(struct file *f, uintptr addr, int n);
void khash_close(struct khstream *s);
#endif
