/* SPDX-License-Identifier: MIT */
#ifndef XV_DEFS_H
#define XV_DEFS_H
struct buf;
struct context;
struct file;
struct inode;
struct pipe;
struct proc;
struct spinlock;
struct sleeplock;
struct stat;
struct superblock;

/* bio.c */
void binit(void);
struct buf *bread(uint, uint);
void brelse(struct buf *);
void bwrite(struct buf *);
void bpin(struct buf *);
void bunpin(struct buf *);

/* console.c */
void consoleinit(void);
void consoleintr(int);
void consputc(int);

/* exec.c */
int exec(char *, char **);

/* file.c */
struct file *filealloc(void);
void fileclose(struct file *);
struct file *filedup(struct file *);
void fileinit(void);
int fileread(struct file *, uintptr, int n);
int filestat(struct file *, uintptr addr);
int filewrite(struct file *, uintptr, int n);

/* fs.c */
void fsinit(int);
int dirlink(struct inode *, char *, uint);
struct inode *dirlookup(struct inode *, char *, uint *);
struct inode *ialloc(uint, short);
struct inode *idup(struct inode *);
struct inode *iget(uint, uint);
void iinit(void);
void ilock(struct inode *);
void iput(struct inode *);
void iunlock(struct inode *);
void iunlockput(struct inode *);
void iupdate(struct inode *);
int namecmp(const char *, const char *);
struct inode *namei(char *);
struct inode *nameiparent(char *, char *);
int readi(struct inode *, int, uintptr, uint, uint);
void stati(struct inode *, struct stat *);
int writei(struct inode *, int, uintptr, uint, uint);
void itrunc(struct inode *);
const char *iblocks(struct inode *, uint *);

/* socid.c */
void socidcheck(void);

/* ramdisk.c */
void ramdiskinit(void);
void ramdiskrw(struct buf *, int);
void *ramdiskblock(uint);

/* kalloc.c */
void *kalloc(void);
void kfree(void *);
void kinit(void);
uint kfreepages(void);

/* log.c */
void initlog(int, struct superblock *);
void log_write(struct buf *);
void begin_op(void);
void end_op(void);

/* pipe.c */
int pipealloc(struct file **, struct file **);
void pipeclose(struct pipe *, int);
int piperead(struct pipe *, uintptr, int);
int pipewrite(struct pipe *, uintptr, int);

/* printf.c */
int printf(const char *, ...) __attribute__((format(printf, 1, 2)));
void panic(const char *, ...) __attribute__((noreturn, format(printf, 1, 2)));
void printfinit(void);

/* proc.c */
int cpuid(void);
void exit(int) __attribute__((noreturn));
int fork(void);
int growproc(int);
void proc_mapstacks(pagetable_t);
pagetable_t proc_pagetable(struct proc *);
void proc_freepagetable(pagetable_t, uintptr);
int kill(int);
int killed(struct proc *);
void setkilled(struct proc *);
struct proc *myproc(void);
void procinit(void);
void scheduler(void) __attribute__((noreturn));
void sched(void);
void sleep(void *, struct spinlock *);
void userinit(void);
int wait(uintptr);
void wakeup(void *);
void yield(void);
int anyrunnable(void);
int either_copyout(int user_dst, uintptr dst, void *src, uint len);
int either_copyin(void *dst, int user_src, uintptr src, uint len);
void procdump(void);

/* swtch.S */
void swtch(struct context *, struct context *);

/* spinlock.c */
void acquire(struct spinlock *);
int holding(struct spinlock *);
void initlock(struct spinlock *, char *);
void release(struct spinlock *);
void push_off(void);
void pop_off(void);

/* sleeplock.c */
void acquiresleep(struct sleeplock *);
void releasesleep(struct sleeplock *);
int holdingsleep(struct sleeplock *);
void initsleeplock(struct sleeplock *, char *);

/* string.c */
int memcmp(const void *, const void *, uint);
int memeq_ct(const void *, const void *, uint);
void *memmove(void *, const void *, uint);
void *memset(void *, int, uint);
void *memcpy(void *, const void *, uint);
char *safestrcpy(char *, const char *, int);
int strlen(const char *);
int strncmp(const char *, const char *, uint);
char *strncpy(char *, const char *, int);

/* syscall.c */
void argint(int, int *);
int argstr(int, char *, int);
void argaddr(int, uintptr *);
int fetchstr(uintptr, char *, int);
int fetchaddr(uintptr, uintptr *);
void syscall(void);

/* trap.c */
extern uint ticks;
void trapinit(void);
void trapinithart(void);
extern struct spinlock tickslock;
void usertrapret(void);

/* uart.c (and its device half, uart16550.c or uartlitex.c) */
void uartinit(void);
void uartintr(void);
void uartwrite(const char *, int);
void uartputc_sync(int);

/* vm.c */
void kvminit(void);
void kvminithart(void);
pte_t *walk(pagetable_t, uintptr, int);
uintptr walkaddr(pagetable_t, uintptr);
int mappages(pagetable_t, uintptr, uintptr, uintptr, int);
pagetable_t uvmcreate(void);
uintptr uvmalloc(pagetable_t, uintptr, uintptr, int);
uintptr uvmdealloc(pagetable_t, uintptr, uintptr);
int uvmcopy(pagetable_t, pagetable_t, uintptr);
void uvmfree(pagetable_t, uintptr);
void uvmunmap(pagetable_t, uintptr, uint, int);
void uvmclear(pagetable_t, uintptr);
int copyout(pagetable_t, uintptr, const void *, uint);
int copyin(pagetable_t, void *, uintptr, uint);
int copyinstr(pagetable_t, char *, uintptr, uint);
int uvmreadable(pagetable_t, uintptr, uint);
int uvmwritable(pagetable_t, uintptr, uint);
struct hash_seg; /* hashsoc/hash.h: a piece a device reads in place */
int uvmruns(pagetable_t, uintptr, uintptr, uint, struct hash_seg *, int);
char *uvmpage(pagetable_t, uintptr, uint, int);

#define NELEM(x) (sizeof(x) / sizeof((x)[0]))
#endif
