/* SPDX-License-Identifier: MIT */
/* usertests [-q] [name]: tests of the system-call interface and of the
 * kernel's robustness.  Each test runs in its own child process; a test
 * passes when its child exits with status 0.  -q runs the quick subset
 * (for the slow LiteX simulator).  Prints "ALL TESTS PASSED" at the end. */
#include "kernel/types.h"
#include "kernel/stat.h"
#include "kernel/fcntl.h"
#include "kernel/fs.h"
#include "kernel/param.h"
#include "kernel/riscv.h"
#define TRAMPOLINE 0xFFFFF000u /* kernel/memlayout.h */
#define TRAPFRAME  0xFFFFE000u
#include "user/user.h"

static const char *cur = "?";
static char buf[BSIZE * 4];

#define FAIL(...)                                                                                            \
  do {                                                                                                       \
    printf("%s: ", cur);                                                                                     \
    printf(__VA_ARGS__);                                                                                     \
    printf("\n");                                                                                            \
    exit(1);                                                                                                 \
  } while (0)
#define CHECK(c, ...)                                                                                        \
  do {                                                                                                       \
    if (!(c))                                                                                                \
      FAIL(__VA_ARGS__);                                                                                     \
  } while (0)

/* addresses no user process may pass to the kernel */
static const uint32 badaddrs[] = {
  0,           /* NULL: page 0 is never mapped */
  0x80000000u, /* the QEMU kernel */
  0x40000000u, /* the LiteX kernel */
  0x80200000u, /* the RAM disk (QEMU) */
  0xF0000000u, /* LiteX CSRs */
  0x10000000u, /* the QEMU UART */
  TRAPFRAME,   /* 0xFFFFE000: mapped, but not PTE_U */
  TRAMPOLINE,  /* 0xFFFFF000 */
  0xFFFFFFF0u,
  0xFFFFFFFFu,
};
#define NBAD (sizeof(badaddrs) / sizeof(badaddrs[0]))

/* run fn in a child; the child must be killed by the kernel (status -1) */
static void expect_killed(const char *what, void (*fn)(uint32), uint32 arg)
{
  int pid = fork();
  CHECK(pid >= 0, "fork failed");
  if (pid == 0) {
    fn(arg);
    exit(0); /* should not get here */
  }
  int st = 0;
  CHECK(wait(&st) == pid, "wait failed");
  CHECK(st == -1, "%s at %p was not killed (status %d)", what, (void *)arg, st);
}

/* ---------------------------------------------------------------- bad pointers */

static void badread(void)
{
  int fd = open("README", O_RDONLY);
  CHECK(fd >= 0, "open README");
  for (uint i = 0; i < NBAD; i++) {
    int r = read(fd, (void *)badaddrs[i], 10);
    CHECK(r == -1, "read into %p returned %d", (void *)badaddrs[i], r);
  }
  /* text is mapped but not writable */
  CHECK(read(fd, (void *)0x1000, 10) == -1, "read into text succeeded");
  close(fd);
}

static void badwrite(void)
{
  int fd = open("bw.tmp", O_CREATE | O_RDWR);
  CHECK(fd >= 0, "create");
  for (uint i = 0; i < NBAD; i++) {
    int r = write(fd, (void *)badaddrs[i], 10);
    CHECK(r == -1, "write from %p returned %d", (void *)badaddrs[i], r);
  }
  int p[2];
  CHECK(pipe(p) == 0, "pipe");
  for (uint i = 0; i < NBAD; i++)
    CHECK(write(p[1], (void *)badaddrs[i], 10) == -1, "pipe write from %p", (void *)badaddrs[i]);
  CHECK(write(p[1], "x", 1) == 1, "pipe write");
  for (uint i = 0; i < NBAD; i++)
    CHECK(read(p[0], (void *)badaddrs[i], 1) == -1, "pipe read into %p", (void *)badaddrs[i]);
  close(p[0]);
  close(p[1]);
  /* console writes too */
  CHECK(write(1, (void *)0xFFFFF000u, 4) <= 0, "console write from the trampoline");
  /* one that runs into an unmapped page writes the bytes before it (three spaces) */
  char *end = (char *)(((uintptr)sbrk(0) + PGSIZE - 1) & ~(uintptr)(PGSIZE - 1));
  memset(end - 3, ' ', 3);
  int n = write(1, end - 3, 8);
  CHECK(n == 3, "console write into an unmapped page returned %d", n);
  close(fd);
  unlink("bw.tmp");
}

static void badwrap(void)
{
  int fd = open("README", O_RDONLY);
  CHECK(fd >= 0, "open README");
  /* pointer + length wraps past 4 GiB or runs into the top pages */
  CHECK(read(fd, (void *)0xFFFFFF00u, 0x200) == -1, "read wrapping 0xFFFFFF00+0x200");
  CHECK(read(fd, (void *)0xF0000000u, 0x20000000) == -1, "read 0xF0000000+0x20000000");
  CHECK(write(1, (void *)0xFFFFFFF0u, 0x20) == -1, "write wrapping");
  CHECK(read(fd, buf, -1) == -1, "negative length read");
  CHECK(write(1, buf, -5) == -1, "negative length write");
  /* a valid buffer whose end is beyond the heap */
  char *top = sbrk(0);
  int r = read(fd, top - 8, 100);
  CHECK(r == -1 || r <= 8, "read past the end of memory returned %d", r);
  close(fd);
}

static void badstr(void)
{
  char *argv[] = { "echo", "hi", 0 };
  for (uint i = 0; i < NBAD; i++) {
    char *s = (char *)badaddrs[i];
    CHECK(open(s, O_RDONLY) == -1, "open(%p)", s);
    CHECK(open(s, O_CREATE | O_RDWR) == -1, "create(%p)", s);
    CHECK(mkdir(s) == -1, "mkdir(%p)", s);
    CHECK(chdir(s) == -1, "chdir(%p)", s);
    CHECK(unlink(s) == -1, "unlink(%p)", s);
    CHECK(link("README", s) == -1, "link(README, %p)", s);
    CHECK(link(s, "x") == -1, "link(%p, x)", s);
    CHECK(exec(s, argv) == -1, "exec(%p)", s);
    CHECK(exec("echo", (char **)s) == -1, "exec(echo, argv=%p)", s);
    if (s != 0) { /* {echo, NULL} would be a valid argv */
      char *bargv[] = { "echo", s, 0 };
      CHECK(exec("echo", bargv) == -1, "exec(echo, {echo, %p})", s);
    }
  }
  /* a string that runs off the end of mapped memory without a NUL */
  char *top = sbrk(0);
  char *p = sbrk(PGSIZE);
  CHECK(p != (char *)-1, "sbrk");
  memset(p, 'a', PGSIZE);
  top = p + PGSIZE;
  CHECK(open(top - 5, O_RDONLY) == -1, "unterminated path");
  sbrk(-PGSIZE);
}

static void badmisc(void)
{
  for (uint i = 0; i < NBAD; i++) {
    int *fds = (int *)badaddrs[i];
    CHECK(pipe(fds) == -1, "pipe(%p)", fds);
  }
  int fd = open("README", O_RDONLY);
  for (uint i = 0; i < NBAD; i++)
    CHECK(fstat(fd, (struct stat *)badaddrs[i]) == -1, "fstat(%p)", (void *)badaddrs[i]);
  close(fd);
  /* no descriptors leaked by the failed pipe() calls */
  int fds[NOFILE];
  int n = 0;
  while (n < NOFILE && (fds[n] = open("README", O_RDONLY)) >= 0)
    n++;
  CHECK(n == NOFILE - 3, "only %d descriptors free", n);
  for (int i = 0; i < n; i++)
    close(fds[i]);
  /* wait() with a bad status pointer fails; the child can still be reaped */
  int pid = fork();
  if (pid == 0)
    exit(3);
  CHECK(wait((int *)0xFFFFF000u) == -1, "wait(bad)");
  int st;
  CHECK(wait(&st) == pid && st == 3, "wait after wait(bad)");
  /* bad file descriptors */
  CHECK(read(-1, buf, 1) == -1 && read(NOFILE, buf, 1) == -1 && read(100, buf, 1) == -1, "bad fd");
  CHECK(close(-1) == -1 && close(NOFILE) == -1 && dup(NOFILE + 1) == -1, "bad fd close/dup");
  /* an unknown system call number */
  register int a0 asm("a0") = 0;
  register int a7 asm("a7") = 99;
  asm volatile("ecall" : "+r"(a0) : "r"(a7) : "memory");
  CHECK(a0 == -1, "syscall 99 returned %d", a0);
}

/* ---------------------------------------------------------------- faults */

static void touch(uint32 a)
{
  *(volatile char *)a = 1;
}
static void peek(uint32 a)
{
  volatile char c = *(volatile char *)a;
  (void)c;
}
static void jump(uint32 a)
{
  ((void (*)(void))a)();
}

static void faults(void)
{
  for (uint i = 0; i < NBAD; i++) {
    expect_killed("load", peek, badaddrs[i]);
    expect_killed("store", touch, badaddrs[i]);
  }
  expect_killed("store to text", touch, 0x1000);
  expect_killed("jump to NULL", jump, 0);
  expect_killed("jump to the kernel", jump, 0x80000000u);
  /* the guard page below the user stack */
  uint32 sp;
  asm volatile("mv %0, sp" : "=r"(sp));
  expect_killed("store to the stack guard page", touch, PGROUNDDOWN(sp) - 16);
}

static void illegal_insn(uint32 which)
{
  if (which == 0)
    asm volatile(".word 0"); /* all-zero: illegal */
  else if (which == 1)
    asm volatile("csrr t0, mstatus" ::: "t0"); /* machine CSR from U */
  else if (which == 2)
    asm volatile("csrr t0, cycle" ::: "t0"); /* absent on VexRiscv, disabled on QEMU */
  else if (which == 3)
    asm volatile("csrw time, zero"); /* writes to time are illegal */
  else if (which == 4)
    asm volatile("ebreak");
  else
    asm volatile("sret");
}

static void illegal(void)
{
  for (uint32 w = 0; w < 6; w++)
    expect_killed("illegal instruction", illegal_insn, w);
}

/* ---------------------------------------------------------------- processes */

static void exitwait(void)
{
  for (int i = 0; i < 20; i++) {
    int pid = fork();
    CHECK(pid >= 0, "fork");
    if (pid == 0)
      exit(i);
    int st;
    CHECK(wait(&st) == pid, "wait pid");
    CHECK(st == i, "exit status %d != %d", st, i);
  }
  CHECK(wait(0) == -1, "wait with no children");
}

static void exectest(void)
{
  unlink("echo-ok");
  int pid = fork();
  CHECK(pid >= 0, "fork");
  if (pid == 0) {
    close(1);
    CHECK(open("echo-ok", O_CREATE | O_WRONLY) == 1, "open echo-ok");
    char *argv[] = { "echo", "OK", 0 };
    exec("echo", argv);
    FAIL("exec echo");
  }
  int st;
  CHECK(wait(&st) == pid && st == 0, "child failed");
  int fd = open("echo-ok", O_RDONLY);
  CHECK(fd >= 0, "open echo-ok");
  CHECK(read(fd, buf, 3) == 3 && buf[0] == 'O' && buf[1] == 'K' && buf[2] == '\n', "wrong output");
  close(fd);
  unlink("echo-ok");
  char *argv[] = { "nonexistent", 0 };
  CHECK(exec("nonexistent", argv) == -1, "exec of a missing file");
  CHECK(exec("README", argv) == -1, "exec of a text file");
}

static void killtest(void)
{
  int pid = fork();
  CHECK(pid >= 0, "fork");
  if (pid == 0)
    for (;;)
      ;
  sleep(2);
  CHECK(kill(pid) == 0, "kill");
  int st;
  CHECK(wait(&st) == pid && st == -1, "killed child status %d", st);
  /* a child blocked in read() on a pipe */
  int p[2];
  pipe(p);
  pid = fork();
  if (pid == 0) {
    read(p[0], buf, 1);
    exit(0);
  }
  sleep(2);
  kill(pid);
  CHECK(wait(&st) == pid && st == -1, "child in read: status %d", st);
  close(p[0]);
  close(p[1]);
  CHECK(kill(123456) == -1, "kill of a missing pid");
}

static void forkfork(void)
{
  for (int i = 0; i < 4; i++) {
    int pid = fork();
    CHECK(pid >= 0, "fork");
    if (pid == 0) {
      for (int j = 0; j < 5; j++) {
        int p2 = fork();
        if (p2 < 0)
          exit(1);
        if (p2 == 0)
          exit(0);
        wait(0);
      }
      exit(0);
    }
  }
  for (int i = 0; i < 4; i++) {
    int st;
    CHECK(wait(&st) > 0 && st == 0, "forkfork child failed");
  }
}

/* fork until the process table is full, then clean up */
static void manyprocs(void)
{
  int p[2];
  CHECK(pipe(p) == 0, "pipe");
  int n;
  for (n = 0; n < NPROC + 10; n++) {
    int pid = fork();
    if (pid < 0)
      break;
    if (pid == 0) {
      close(p[1]);
      read(p[0], buf, 1); /* until the parent closes the pipe */
      exit(0);
    }
  }
  CHECK(n < NPROC, "forked %d processes", n);
  CHECK(n > NPROC / 2, "only %d forks", n);
  close(p[0]);
  close(p[1]);
  for (int i = 0; i < n; i++) {
    int st;
    CHECK(wait(&st) >= 0 && st == 0, "child exit");
  }
  CHECK(wait(0) == -1, "extra child");
  /* the table is usable again */
  int pid = fork();
  if (pid == 0)
    exit(0);
  CHECK(pid > 0 && wait(0) == pid, "fork after cleanup");
}

/* ---------------------------------------------------------------- pipes */

static void pipetest(void)
{
  int fds[2], seq = 0;
  enum { N = 5, SZ = 1033 };
  CHECK(pipe(fds) == 0, "pipe");
  int pid = fork();
  if (pid == 0) {
    close(fds[0]);
    for (int n = 0; n < N; n++) {
      for (int i = 0; i < SZ; i++)
        buf[i] = seq++;
      if (write(fds[1], buf, SZ) != SZ)
        FAIL("pipe write");
    }
    exit(0);
  }
  close(fds[1]);
  int total = 0, cc = 1, n;
  while ((n = read(fds[0], buf, cc)) > 0) {
    for (int i = 0; i < n; i++)
      CHECK((buf[i] & 0xff) == (seq++ & 0xff), "pipe data out of order");
    total += n;
    cc = cc * 2;
    if (cc > (int)sizeof(buf))
      cc = sizeof(buf);
  }
  CHECK(total == N * SZ, "pipe total %d", total);
  close(fds[0]);
  int st;
  CHECK(wait(&st) == pid && st == 0, "writer failed");
  /* writing to a pipe without readers fails */
  CHECK(pipe(fds) == 0, "pipe");
  close(fds[0]);
  CHECK(write(fds[1], "x", 1) == -1, "write to a pipe without readers");
  close(fds[1]);
  /* reading from a pipe without writers returns 0 */
  CHECK(pipe(fds) == 0, "pipe");
  close(fds[1]);
  CHECK(read(fds[0], buf, 1) == 0, "read from a pipe without writers");
  close(fds[0]);
}

/* ---------------------------------------------------------------- files */

static void filetest(void)
{
  int fd = open("f.tmp", O_CREATE | O_RDWR);
  CHECK(fd >= 0, "create");
  CHECK(write(fd, "hello world", 11) == 11, "write");
  close(fd);
  struct stat st;
  CHECK(stat("f.tmp", &st) == 0 && st.type == T_FILE && st.size == 11 && st.nlink == 1, "stat");
  fd = open("f.tmp", O_RDONLY);
  CHECK(read(fd, buf, sizeof(buf)) == 11 && memcmp(buf, "hello world", 11) == 0, "read back");
  CHECK(write(fd, "x", 1) == -1, "write to a read-only fd");
  close(fd);
  fd = open("f.tmp", O_WRONLY);
  CHECK(read(fd, buf, 1) == -1, "read from a write-only fd");
  close(fd);
  fd = open("f.tmp", O_RDWR | O_TRUNC);
  CHECK(fd >= 0 && fstat(fd, &st) == 0 && st.size == 0, "O_TRUNC");
  close(fd);
  /* link and unlink */
  CHECK(link("f.tmp", "g.tmp") == 0, "link");
  CHECK(stat("g.tmp", &st) == 0 && st.nlink == 2, "nlink after link");
  CHECK(link("f.tmp", "g.tmp") == -1, "link onto an existing name");
  CHECK(link("nothere", "h.tmp") == -1, "link of a missing file");
  CHECK(unlink("f.tmp") == 0, "unlink");
  CHECK(open("f.tmp", O_RDONLY) == -1, "open after unlink");
  CHECK(stat("g.tmp", &st) == 0 && st.nlink == 1, "nlink after unlink");
  /* an open file survives its unlink */
  fd = open("g.tmp", O_RDWR);
  CHECK(unlink("g.tmp") == 0, "unlink g");
  CHECK(write(fd, "abc", 3) == 3, "write to unlinked");
  close(fd);
  CHECK(unlink("g.tmp") == -1, "double unlink");
  /* many files */
  char name[8];
  name[0] = 'c';
  name[2] = 0;
  for (int i = 0; i < 20; i++) {
    name[1] = 'A' + i;
    fd = open(name, O_CREATE | O_RDWR);
    CHECK(fd >= 0, "create %s", name);
    CHECK(write(fd, name, 2) == 2, "write %s", name);
    close(fd);
  }
  for (int i = 0; i < 20; i++) {
    name[1] = 'A' + i;
    fd = open(name, O_RDONLY);
    CHECK(fd >= 0 && read(fd, buf, 10) == 2 && buf[1] == name[1], "read %s", name);
    close(fd);
    CHECK(unlink(name) == 0, "unlink %s", name);
  }
  /* dup shares the offset */
  fd = open("README", O_RDONLY);
  int fd2 = dup(fd);
  read(fd, buf, 5);
  CHECK(read(fd2, buf + 5, 5) == 5, "read dup");
  close(fd);
  close(fd2);
  CHECK(open("", O_RDONLY) == -1 || 1, "empty path");
}

static void dirtest(void)
{
  struct stat st;
  CHECK(mkdir("dd") == 0, "mkdir");
  CHECK(mkdir("dd") == -1, "mkdir of an existing name");
  CHECK(mkdir("dd/ee/ff") == -1, "mkdir with a missing parent");
  CHECK(stat("dd", &st) == 0 && st.type == T_DIR, "stat dir");
  CHECK(open("dd", O_RDWR) == -1, "open a directory for writing");
  CHECK(chdir("dd") == 0, "chdir dd");
  int fd = open("ff", O_CREATE | O_RDWR);
  CHECK(fd >= 0, "create dd/ff");
  close(fd);
  CHECK(mkdir("ee") == 0, "mkdir dd/ee");
  CHECK(chdir("..") == 0, "chdir ..");
  CHECK(stat("dd/ff", &st) == 0 && st.type == T_FILE, "stat dd/ff");
  CHECK(stat("dd/ee/../ff", &st) == 0, "path with ..");
  CHECK(chdir("dd/ff") == -1, "chdir into a file");
  CHECK(unlink("dd") == -1, "unlink of a non-empty directory");
  CHECK(unlink("dd/.") == -1 && unlink("dd/..") == -1, "unlink . or ..");
  CHECK(link("dd", "dd2") == -1, "link of a directory");
  CHECK(open("dd/ff/x", O_CREATE | O_RDWR) == -1, "create below a file");
  CHECK(unlink("dd/ee") == 0, "unlink dd/ee");
  CHECK(unlink("dd/ff") == 0, "unlink dd/ff");
  CHECK(unlink("dd") == 0, "unlink empty dd");
  CHECK(chdir("dd") == -1, "chdir into a removed directory");
  /* a deep path */
  CHECK(mkdir("a1") == 0 && mkdir("a1/b2") == 0 && mkdir("a1/b2/c3") == 0, "deep mkdir");
  CHECK(chdir("a1/b2/c3") == 0, "deep chdir");
  CHECK(chdir("../../..") == 0, "chdir back");
  CHECK(unlink("a1/b2/c3") == 0 && unlink("a1/b2") == 0 && unlink("a1") == 0, "deep unlink");
}

static int quick;

/* a file that grows beyond the NDIRECT direct blocks into the indirect one */
static void bigfile(void)
{
  int nblk = quick ? NDIRECT + 8 : MAXFILE;
  int fd = open("big.tmp", O_CREATE | O_RDWR);
  CHECK(fd >= 0, "create");
  for (int i = 0; i < nblk; i++) {
    memset(buf, 0, BSIZE);
    ((int *)buf)[0] = i;
    ((int *)buf)[BSIZE / 4 - 1] = ~i;
    CHECK(write(fd, buf, BSIZE) == BSIZE, "write block %d", i);
  }
  if (nblk == MAXFILE)
    CHECK(write(fd, buf, BSIZE) == -1, "write past MAXFILE");
  close(fd);
  struct stat st;
  CHECK(stat("big.tmp", &st) == 0 && st.size == (uint)nblk * BSIZE, "size %d", st.size);
  fd = open("big.tmp", O_RDONLY);
  for (int i = 0; i < nblk; i++) {
    CHECK(read(fd, buf, BSIZE) == BSIZE, "read block %d", i);
    CHECK(((int *)buf)[0] == i && ((int *)buf)[BSIZE / 4 - 1] == ~i, "block %d content", i);
  }
  CHECK(read(fd, buf, BSIZE) == 0, "read at EOF");
  close(fd);
  CHECK(unlink("big.tmp") == 0, "unlink");
}

/* ---------------------------------------------------------------- memory */

static void sbrktest(void)
{
  char *a = sbrk(0);
  char *p = sbrk(10 * PGSIZE);
  CHECK(p == a, "sbrk returned %p, expected %p", p, a);
  for (int i = 0; i < 10 * PGSIZE; i += 512)
    p[i] = i;
  for (int i = 0; i < 10 * PGSIZE; i += 512)
    CHECK(p[i] == (char)i, "data");
  /* the child gets a copy */
  int pid = fork();
  if (pid == 0) {
    for (int i = 0; i < 10 * PGSIZE; i += 512)
      if (p[i] != (char)i)
        exit(1);
    p[0] = 99;
    exit(0);
  }
  int st;
  CHECK(wait(&st) == pid && st == 0, "child saw wrong data");
  CHECK(p[0] == 0, "child's write visible in the parent");
  /* shrink and check that the memory is gone */
  CHECK(sbrk(-10 * PGSIZE) == a + 10 * PGSIZE, "shrink");
  CHECK(sbrk(0) == a, "size after shrink");
  expect_killed("access to memory freed by sbrk", touch, (uint32)(a + 5 * PGSIZE));
  expect_killed("read of memory freed by sbrk", peek, (uint32)(a + PGSIZE));
  /* the kernel rejects freed memory too */
  int fd = open("README", O_RDONLY);
  CHECK(read(fd, a + PGSIZE, 10) == -1, "read into freed memory");
  close(fd);
  /* absurd requests */
  CHECK(sbrk(-0x10000000) == (char *)-1, "shrink below zero");
  CHECK(sbrk(0x7fffffff) == (char *)-1 || 1, "huge sbrk");
  CHECK(sbrk(0) == a, "size after failed sbrk");
  /* grow again: fresh memory is zeroed */
  p = sbrk(PGSIZE);
  CHECK(p == a && p[0] == 0 && p[PGSIZE - 1] == 0, "regrown memory not zeroed");
  sbrk(-PGSIZE);
}

/* sbrk until the kernel runs out of memory, in a child */
static int eat(void)
{
  int pid = fork();
  CHECK(pid >= 0, "fork");
  int p[2];
  if (pid == 0) {
    int mb = 0;
    while (sbrk(1 << 20) != (char *)-1)
      mb++;
    /* the memory we got is usable */
    char *top = sbrk(0);
    top[-1] = 1;
    exit(mb > 100 ? 100 : mb);
  }
  (void)p;
  int st;
  CHECK(wait(&st) == pid, "wait");
  return st;
}

static void oom(void)
{
  int a = eat();
  int b = eat();
  CHECK(a > 0 && b > 0, "sbrk got no memory (%d, %d)", a, b);
  CHECK(b >= a - 1, "memory was not returned: %d MiB then %d MiB", a, b);
  /* fork while memory is scarce: fails cleanly or works */
  int pid = fork();
  if (pid == 0) {
    while (sbrk(1 << 20) != (char *)-1)
      ;
    int q = fork();
    if (q == 0)
      exit(0);
    if (q > 0)
      wait(0);
    exit(0);
  }
  int st;
  CHECK(wait(&st) == pid && st == 0, "fork under memory pressure");
}

/* ---------------------------------------------------------------- time */

static void timeread(void)
{
  uint64 prev = rdtime64();
  for (int i = 0; i < 200; i++) {
    uint64 t = rdtime64();
    CHECK(t >= prev, "time went backwards");
    prev = t;
  }
  uint64 t0 = rdtime64();
  sleep(2);
  CHECK(rdtime64() > t0, "time did not advance across sleep");
}

/* ---------------------------------------------------------------- driver */

/* free memory in pages, by asking for as much as possible in a child */
static int countfree(void)
{
  int p[2];
  pipe(p);
  int pid = fork();
  if (pid == 0) {
    close(p[0]);
    int n = 0;
    while (sbrk(PGSIZE) != (char *)-1)
      n++;
    write(p[1], &n, sizeof(n));
    exit(0);
  }
  close(p[1]);
  int n = -1;
  read(p[0], &n, sizeof(n));
  close(p[0]);
  wait(0);
  return n;
}

struct test {
  void (*fn)(void);
  const char *name;
  int quick;
};

static struct test tests[] = {
  { badread, "badread", 1 },
  { badwrite, "badwrite", 1 },
  { badwrap, "badwrap", 1 },
  { badstr, "badstr", 1 },
  { badmisc, "badmisc", 1 },
  { faults, "faults", 1 },
  { illegal, "illegal", 1 },
  { exitwait, "exitwait", 1 },
  { exectest, "exec", 1 },
  { killtest, "kill", 1 },
  { forkfork, "forkfork", 0 },
  { manyprocs, "manyprocs", 0 },
  { pipetest, "pipe", 1 },
  { filetest, "files", 1 },
  { dirtest, "dirs", 1 },
  { bigfile, "bigfile", 1 },
  { sbrktest, "sbrk", 1 },
  { oom, "oom", 0 },
  { timeread, "timeread", 1 },
  { 0, 0, 0 },
};

static int run(struct test *t)
{
  printf("test %s: ", t->name);
  int pid = fork();
  if (pid < 0) {
    printf("fork failed\n");
    return 0;
  }
  if (pid == 0) {
    cur = t->name;
    t->fn();
    exit(0);
  }
  int st;
  wait(&st);
  printf(st == 0 ? "OK\n" : "FAILED\n");
  return st == 0;
}

int main(int argc, char *argv[])
{
  const char *only = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-q") == 0)
      quick = 1;
    else
      only = argv[i];
  }
  printf("usertests starting%s\n", quick ? " (quick)" : "");
  int free0 = (!quick && !only) ? countfree() : 0;
  int failed = 0, ran = 0;
  for (struct test *t = tests; t->fn; t++) {
    if (only && strcmp(only, t->name) != 0)
      continue;
    if (quick && !t->quick && !only)
      continue;
    ran++;
    if (!run(t))
      failed++;
  }
  if (free0) {
    int free1 = countfree();
    printf("free pages: %d before, %d after\n", free0, free1);
    if (free1 < free0) {
      printf("FAILED: lost %d pages\n", free0 - free1);
      failed++;
    }
  }
  if (ran == 0) {
    printf("no test named %s\n", only);
    exit(1);
  }
  if (failed) {
    printf("SOME TESTS FAILED (%d of %d)\n", failed, ran);
    exit(1);
  }
  printf("ALL TESTS PASSED (%d tests)\n", ran);
  exit(0);
}
