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
#define XV_TICK_HZ TICK_HZ
#endif
