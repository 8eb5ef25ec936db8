/* SPDX-License-Identifier: MIT */
/* hashbench [-a ALG] [-n COUNT] [-s SIZE] [-S] [-x] [-M BYTES]
 * Times COUNT hashes of SIZE bytes ("hellohello...", so SIZE 5 is seed 000's
 * "hello") with the 64-bit time counter (rdtime64), in the environments of
 * seed 000's Table I plus the accelerator:
 *   user space (software), system call (software / hardware / automatic),
 *   kernel space (software / hardware: khashbench(), timed in the kernel).
 * Prints time-counter ticks per hash and per byte, for SIZE and then (unless -S)
 * for 5, 64, 1024 and 16384 bytes (COUNT scaled down above 1 KiB).
 * -x: crossover sizes, -M BYTES: one hash() call on an sbrk'd buffer (hw and sw).
 * A measurement that a scheduler tick fell into (uptime() moved) is taken again, up
 * to TRIES times, keeping the least: a tick's interrupt and trip through the scheduler
 * cost thousands of ticks of the time counter, more than a 5-byte row's work, and where
 * it falls depends on everything typed before (the simulator repeats it exactly). Rows
 * longer than the tick period (1/TICK_HZ) keep their ticks. */
#include "kernel/types.h"
#include "user/user.h"

static uchar out[64];
static char *buf;
static int alg, outlen;

static uint64 tdiv(uint64 a, uint64 b)
{
  return b ? a / b : 0;
}

/* elapsed ticks for count hashes in environment env, or ~0 */
static uint64 run(int env, int count, int size)
{
  uint64 t0, t;
  switch (env) {
  case 0: /* user space */
    t0 = rdtime64();
    for (int i = 0; i < count; i++)
      if (uh_userhash(alg, buf, size, out, outlen) < 0)
        return ~0ULL;
    return rdtime64() - t0;
  case 1:
  case 2:
  case 3: /* system call: sw, hw, auto */
    t0 = rdtime64();
    for (int i = 0; i < count; i++)
      if (hash(alg, env - 1, buf, size, out, outlen) < 0)
        return ~0ULL;
    return rdtime64() - t0;
  case 4:
  case 5: /* kernel space: sw, hw */
    if (khashbench(alg, env - 4, count, size, &t) < 0)
      return ~0ULL;
    return t;
  case 6: /* what any system call costs: the trap in and out, no work */
    t0 = rdtime64();
    for (int i = 0; i < count; i++)
      getpid();
    return rdtime64() - t0;
  }
  return ~0ULL;
}

static const char *envname[] = {
  "user space (sw)",
  "system call (sw)",
  "system call (hw)",
  "system call (auto)",
  "kernel space (sw)",
  "kernel space (hw)",
  "null system call",
};

#define TRIES 3

/* run(), again while a tick fell into it (see the top) */
static uint64 timed(int env, int count, int size)
{
  uint64 best = ~0ULL;
  for (int k = 0; k < TRIES; k++) {
    int t0 = uptime();
    uint64 t = run(env, count, size);
    if (t == ~0ULL || uptime() == t0)
      return t;
    if (t < best)
      best = t;
  }
  return best;
}

static void table(int count, int size)
{
  printf("%s, %d x %d bytes (time base %d Hz)\n", uh_algname(alg), count, size, XV_TIMEBASE_HZ);
  printf("  %-20s %12s %10s %10s\n", "environment", "total", "per hash", "per byte");
  for (int env = 0; env < 7; env++) {
    uint64 t = timed(env, count, size);
    if (t == ~0ULL) {
      printf("  %-20s %12s\n", envname[env], "n/a");
      continue;
    }
    uint64 per = tdiv(t, count);
    uint64 pb100 = tdiv(t * 100, (uint64)count * (size ? size : 1));
    printf("  %-20s %12llu %10llu %7llu.%02llu\n", envname[env], t, per, pb100 / 100, pb100 % 100);
  }
}

int main(int argc, char *argv[])
{
  int count = 20, size = 5, sweep = 1, cross = 0, big = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-a") == 0 && i + 1 < argc)
      alg = uh_alg(argv[++i]);
    else if (strcmp(argv[i], "-n") == 0 && i + 1 < argc)
      count = atoi(argv[++i]);
    else if (strcmp(argv[i], "-s") == 0 && i + 1 < argc)
      size = atoi(argv[++i]);
    else if (strcmp(argv[i], "-S") == 0)
      sweep = 0;
    else if (strcmp(argv[i], "-x") == 0)
      cross = 1;
    else if (strcmp(argv[i], "-M") == 0 && i + 1 < argc)
      big = atoi(argv[++i]);
    else
      alg = -1;
  }
  if (alg < 0 || count <= 0 || size < 0 || size > 16384 || big < 0) {
    fprintf(2, "usage: hashbench [-a ALG] [-n COUNT] [-s SIZE<=16384] [-S] [-x] [-M BYTES]\n");
    exit(2);
  }
  outlen = uh_digestlen(alg) ? uh_digestlen(alg) : 32;
  int bufsz = big > 16384 ? big : 16384;
  buf = sbrk(bufsz);
  if (buf == (char *)-1) {
    fprintf(2, "hashbench: out of memory\n");
    exit(1);
  }
  for (int i = 0; i < bufsz; i++)
    buf[i] = "hello"[i % 5];
  if (big) {
    for (int env = 2; env >= 2; env--) { /* hw only: 1 MiB in software takes minutes on litex_sim */
      uint64 t0 = rdtime64();
      int r = hash(alg, env - 1, buf, big, out, outlen);
      uint64 t = rdtime64() - t0;
      uint64 pb1000 = tdiv(t * 1000, big);
      printf("%s: one hash() of %d bytes on %s: %llu ticks, %llu.%03llu ticks/byte%s\n", uh_algname(alg), big,
          env == 2 ? "hw" : "sw", t, pb1000 / 1000, pb1000 % 1000, r < 0 ? " (FAILED)" : "");
    }
    exit(0);
  }
  if (cross) {
    static const int sizes[] = { 0, 1, 5, 8, 16, 24, 32, 40, 48, 56, 64, 96, 128, 256 };
    printf("%s crossover, %d hashes per size: ticks per hash\n", uh_algname(alg), count);
    printf("  %6s %10s %10s %10s\n", "bytes", "user sw", "syscall sw", "syscall hw");
    for (int k = 0; k < (int)(sizeof sizes / sizeof sizes[0]); k++) {
      uint64 u = timed(0, count, sizes[k]), s = timed(1, count, sizes[k]), h = timed(2, count, sizes[k]);
      printf("  %6d %10llu %10llu %10llu\n", sizes[k], tdiv(u, count), tdiv(s, count),
          h == ~0ULL ? 0 : tdiv(h, count));
    }
    exit(0);
  }
  table(count, size);
  if (sweep) {
    static const int sizes[] = { 5, 64, 1024, 16384 };
    for (int k = 0; k < 4; k++) {
      int c = sizes[k] <= 1024 ? count : count * 1024 / sizes[k];
      table(c < 2 ? 2 : c, sizes[k]);
    }
  }
  exit(0);
}
