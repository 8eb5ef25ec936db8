/* SPDX-License-Identifier: MIT */
/*
 * swhash_bench.c - small bare-metal benchmark of the software hashes.
 *
 * Default platform: QEMU `virt` (rv32), where the counter is `minstret`; run
 * QEMU with `-icount shift=0` so that it counts retired instructions exactly
 * (without -icount QEMU returns host ticks). Build and run:
 *
 *   riscv64-unknown-elf-gcc -march=rv32ima -misa-spec=2.2 -mabi=ilp32 -O2 \
 *       -ffreestanding -nostdlib -Wall -Wextra -Wl,-Ttext=0x80000000 \
 *       -o swhash_bench.elf swhash_bench.c sha256_sw.c sha512_sw.c keccak_sw.c -lgcc
 *   qemu-system-riscv32 -machine virt -bios none -nographic -icount shift=0 \
 *       -kernel swhash_bench.elf
 *
 * On another platform (LiteX SoC) build with -DSWBENCH_EXTERNAL_PLATFORM and
 * provide swbench_putc(), swbench_counter() (e.g. the memory-mapped `time`
 * timer; VexRiscv has no cycle/instret CSR), swbench_exit() and the startup
 * code that calls swbench_main().
 *
 * Instruction counts are a proxy for cycles only: they do not show I-cache
 * misses, load-use stalls or branch penalties.
 */
#include <stddef.h>
#include <stdint.h>

#include "hashsoc/hash_spec.h"
#include "keccak_sw.h"
#include "sha256_sw.h"
#include "sha512_sw.h"

void swbench_main(void);

#ifdef SWBENCH_EXTERNAL_PLATFORM
void swbench_putc(char ch);
uint64_t swbench_counter(void);
void swbench_exit(int code);
#else
/* ---- QEMU virt: 16550 UART at 0x10000000, SiFive test device at 0x100000 */

static void swbench_putc(char ch)
{
  volatile uint8_t *uart = (volatile uint8_t *)0x10000000u;
  while ((uart[5] & 0x20) == 0)
    ;
  uart[0] = (uint8_t)ch;
}

static uint64_t swbench_counter(void)
{
  uint32_t hi, lo, hi2;
  do {
    __asm__ volatile("csrr %0, minstreth" : "=r"(hi));
    __asm__ volatile("csrr %0, minstret" : "=r"(lo));
    __asm__ volatile("csrr %0, minstreth" : "=r"(hi2));
  } while (hi != hi2);
  return ((uint64_t)hi << 32) | lo;
}

static void swbench_exit(int code)
{
  volatile uint32_t *test = (volatile uint32_t *)0x100000u;
  *test = code ? (((uint32_t)code << 16) | 0x3333u) : 0x5555u;
  for (;;)
    ;
}

static uint8_t swbench_stack[8192] __attribute__((aligned(16)));

void _start(void) __attribute__((naked, section(".text.startup")));
void _start(void)
{
  __asm__ volatile("la sp, %0\n"
                   "li t0, 8192\n"
                   "add sp, sp, t0\n"
                   "call swbench_main\n"
                   "1: j 1b\n"
                   :
                   : "i"(swbench_stack));
}
#endif

/* ---- tiny output helpers (no libc) -------------------------------------- */

static void put_str(const char *s)
{
  while (*s)
    swbench_putc(*s++);
}

static void put_u64(uint64_t v)
{
  char buf[21];
  int i = 20;
  buf[i] = 0;
  do {
    /* v / 10 without __udivdi3 on small values; counts fit 32 bits here */
    uint32_t w = (uint32_t)v;
    buf[--i] = (char)('0' + w % 10u);
    v = w / 10u;
  } while (v);
  put_str(buf + i);
}

static void put_hex(const uint8_t *p, size_t n)
{
  static const char d[] = "0123456789abcdef";
  size_t i;
  for (i = 0; i < n; i++) {
    swbench_putc(d[p[i] >> 4]);
    swbench_putc(d[p[i] & 15]);
  }
}

/* per-unit value with one decimal: total*10/n */
static void put_ratio(uint64_t total, uint32_t n)
{
  uint32_t t10 = (uint32_t)(total * 10u / n);
  put_u64(t10 / 10u);
  swbench_putc('.');
  swbench_putc((char)('0' + t10 % 10u));
}

static void report(const char *what, uint64_t count, uint32_t units, const char *unit)
{
  put_str(what);
  put_str(": ");
  put_u64(count);
  put_str(" instret");
  if (units) {
    put_str(", ");
    put_ratio(count, units);
    put_str(unit);
  }
  put_str("\n");
}

#define MSG_BYTES 16384u
static uint8_t msg[MSG_BYTES];

void swbench_main(void)
{
  struct sha256_sw sc;
  struct sha512_sw s5;
  struct keccak_sw kc;
  uint8_t out[64];
  uint64_t t0, t1;
  uint32_t i;

  for (i = 0; i < MSG_BYTES; i++)
    msg[i] = (uint8_t)(i * 7u + 3u);

  put_str("swhash benchmark (retired instructions)\n");

  t0 = swbench_counter();
  t1 = swbench_counter();
  report("counter overhead", t1 - t0, 0, "");

  sha256_sw_init(&sc, 0);
  t0 = swbench_counter();
  sha256_sw_compress(sc.h, msg, MSG_BYTES / 64u);
  t1 = swbench_counter();
  report("sha256_sw_compress 16 KiB", t1 - t0, MSG_BYTES, " /byte");
  report("  per 64-byte block", t1 - t0, MSG_BYTES / 64u, "");

  t0 = swbench_counter();
  sha256_sw_init(&sc, 0);
  sha256_sw_update(&sc, msg, MSG_BYTES);
  sha256_sw_final(&sc, out);
  t1 = swbench_counter();
  report("SHA-256 16 KiB (init/update/final)", t1 - t0, MSG_BYTES, " /byte");
  put_str("  = ");
  put_hex(out, 32);
  put_str("\n");

  t0 = swbench_counter();
  sha256_sw_init(&sc, 0);
  sha256_sw_update(&sc, "hello", 5);
  sha256_sw_final(&sc, out);
  t1 = swbench_counter();
  report("SHA-256(\"hello\")", t1 - t0, 0, "");
  put_str("  = ");
  put_hex(out, 32);
  put_str("\n");

  sha512_sw_init(&s5, 0);
  t0 = swbench_counter();
  sha512_sw_compress(s5.h, msg, MSG_BYTES / 128u);
  t1 = swbench_counter();
  report("sha512_sw_compress 16 KiB", t1 - t0, MSG_BYTES, " /byte");
  report("  per 128-byte block", t1 - t0, MSG_BYTES / 128u, "");

  t0 = swbench_counter();
  sha512_sw_init(&s5, 0);
  sha512_sw_update(&s5, msg, MSG_BYTES);
  sha512_sw_final(&s5, out);
  t1 = swbench_counter();
  report("SHA-512 16 KiB (init/update/final)", t1 - t0, MSG_BYTES, " /byte");
  put_str("  = ");
  put_hex(out, 64);
  put_str("\n");

  keccak_sw_init(&kc, HASH_BLOCK_SHA3_256, HASH_PAD_SHA3_256);
  t0 = swbench_counter();
  for (i = 0; i < 16; i++)
    keccak_sw_f1600(kc.s);
  t1 = swbench_counter();
  report("keccak_sw_f1600 x16", t1 - t0, 16, " /permutation");

  t0 = swbench_counter();
  keccak_sw_init(&kc, HASH_BLOCK_SHA3_256, HASH_PAD_SHA3_256);
  keccak_sw_absorb(&kc, msg, MSG_BYTES);
  keccak_sw_squeeze(&kc, out, 32);
  t1 = swbench_counter();
  report("SHA3-256 16 KiB", t1 - t0, MSG_BYTES, " /byte");
  put_str("  = ");
  put_hex(out, 32);
  put_str("\n");

  t0 = swbench_counter();
  keccak_sw_init(&kc, HASH_BLOCK_SHA3_512, HASH_PAD_SHA3_512);
  keccak_sw_absorb(&kc, "Mouna_Noura_ATSIP_2020", 22);
  keccak_sw_squeeze(&kc, out, 64);
  t1 = swbench_counter();
  report("SHA3-512(22-byte seed-001 message)", t1 - t0, 0, "");
  put_str("  = ");
  put_hex(out, 64);
  put_str("\n");

  t0 = swbench_counter();
  keccak_sw_init(&kc, HASH_BLOCK_SHAKE128, HASH_PAD_SHAKE128);
  keccak_sw_absorb(&kc, msg, 32);
  for (i = 0; i < 64; i++)
    keccak_sw_squeeze(&kc, msg, 256); /* msg[0..255] = output 63*256.. */
  t1 = swbench_counter();
  report("SHAKE128 squeeze 16 KiB", t1 - t0, MSG_BYTES, " /byte");
  put_str("  last 32 = ");
  put_hex(msg + 224, 32);
  put_str("\n");

  put_str("done\n");
  swbench_exit(0);
}
