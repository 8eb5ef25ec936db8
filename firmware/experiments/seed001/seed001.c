/* SPDX-License-Identifier: MIT */
/*
 * seed001.c - seed 001's Table III on HashSoC: SHA3-512("Mouna_Noura_ATSIP_2020") with
 * the project's software Keccak (firmware/libhash/swhash/keccak_sw.c) compiled at -O0, -O1, -O2
 * and -Os (four renamed copies, see keccak_variant.c), and the same message through the
 * driver API on the software provider and on the Keccak engine (DMA and PIO).
 *
 * Two builds of this one file:
 *
 *  - HashSoC (litex_sim or a board): clocks from the CPU's 64-bit memory-mapped timer.
 *    For every row: one cold call (I- and D-cache invalidated just before it: VexRiscv's
 *    fence.i and its data-cache flush 0x500F, see invalidate_caches()) and 5 warm calls.
 *    All measurements are taken first and printed afterwards (no UART traffic during a
 *    timed call); interrupts stay off. Output, one line per row:
 *      SEED001 timer <clocks of one back-to-back timer read pair>
 *      ROW <row> <cold> <warm median> <warm1> .. <warm5> <ok|FAIL> <digest hex>
 *      BUSY <row> <clocks>      (engine rows: the Keccak core's busy clocks in the last call)
 *      SEED001 DONE
 *    then the simulation is stopped through the sim_finish CSR.
 *
 *  - QEMU virt (-DSEED001_QEMU, rv32ima, M-mode, `-icount shift=0`): retired
 *    instructions from `minstret` around the same wrapper calls, linking the very same
 *    variant objects. Output:
 *      QCAL <nops> <counted>          a straight run of <nops> nops, counted
 *      QTIMER <overhead>              instret of a back-to-back counter read pair
 *      QROW <row> <n1> <n2> <n3> <ok|FAIL> <digest hex>   (counts, overhead subtracted)
 *      QDONE
 *
 * <row>: sw-O0 sw-O1 sw-O2 sw-Os (this file's wrappers around one variant: init, absorb,
 * squeeze into a context on the stack); HashSoC only: api-sw, hw-dma, hw-pio
 * (hash_digest(HASH_SHA3_512, ...) with the software provider, the engine fed by DMA, the
 * engine fed by CPU stores).
 */
#include <stddef.h>
#include <stdint.h>

#include "hashsoc/hash_spec.h"
#include "keccak_sw.h"

#define VARIANT_DECL(sfx)                                                                                    \
  void keccak_sw_init##sfx(struct keccak_sw *c, unsigned rate_bytes, uint8_t pad_byte);                      \
  void keccak_sw_absorb##sfx(struct keccak_sw *c, const void *data, size_t len);                             \
  void keccak_sw_squeeze##sfx(struct keccak_sw *c, uint8_t *out, size_t len);                                \
  static __attribute__((noinline)) int sha3_512##sfx(const uint8_t *m, size_t n, uint8_t *out)               \
  {                                                                                                          \
    struct keccak_sw c;                                                                                      \
    keccak_sw_init##sfx(&c, HASH_BLOCK_SHA3_512, HASH_PAD_SHA3_512);                                         \
    keccak_sw_absorb##sfx(&c, m, n);                                                                         \
    keccak_sw_squeeze##sfx(&c, out, 64);                                                                     \
    return 64;                                                                                               \
  }

VARIANT_DECL(_O0)
VARIANT_DECL(_O1)
VARIANT_DECL(_O2)
VARIANT_DECL(_Os)

typedef int (*hash_fn)(const uint8_t *m, size_t n, uint8_t *out);

static const uint8_t expected[64] = { 0xe7, 0x92, 0x89, 0x68, 0x76, 0x64, 0xe3, 0xd0, 0xdc, 0xf5, 0xb1, 0xc1,
  0xde, 0xba, 0x54, 0x5f, 0x97, 0x66, 0xe5, 0x2f, 0xb0, 0xf1, 0xa8, 0xae, 0x1c, 0x6d, 0xce, 0x5e, 0x53, 0xe8,
  0xdf, 0x74, 0x7e, 0xf6, 0x81, 0xeb, 0x41, 0x1c, 0x88, 0xb5, 0x70, 0xc0, 0x28, 0x09, 0xc4, 0xde, 0xbd, 0xb1,
  0x70, 0x0b, 0xc6, 0x49, 0xfd, 0xaf, 0x90, 0xac, 0x30, 0x3b, 0x4d, 0xd6, 0xbb, 0xac, 0x58, 0xb8 };

/* The message, word-aligned in both builds so every build takes the same code path. */
static const char message[24] __attribute__((aligned(8))) = "Mouna_Noura_ATSIP_2020";
#define MSG_LEN 22

#define WARM 5

static int same(const uint8_t *a, const uint8_t *b, int n)
{
  int d = 0;
  for (int i = 0; i < n; i++)
    d |= a[i] ^ b[i];
  return d == 0;
}

/* Format into a buffer: picolibc's printf costs thousands of clocks per call. */
static char *put_str(char *p, const char *s)
{
  while (*s)
    *p++ = *s++;
  return p;
}

static char *put_u32(char *p, uint32_t v)
{
  char tmp[11];
  int i = 0;
  do {
    tmp[i++] = (char)('0' + v % 10u);
    v /= 10u;
  } while (v);
  while (i)
    *p++ = tmp[--i];
  return p;
}

static char *put_hex(char *p, const uint8_t *b, int n)
{
  static const char d[] = "0123456789abcdef";
  for (int i = 0; i < n; i++) {
    *p++ = d[b[i] >> 4];
    *p++ = d[b[i] & 15];
  }
  return p;
}

#ifndef SEED001_QEMU
/* ======================================================================= HashSoC */

/* Code placement (see the Makefile's PAD): the banner line reports it. */
#ifndef SEED001_PAD
#define SEED001_PAD 0
#endif
#include <stdio.h>

#include <generated/csr.h>
#include <generated/soc.h>

#include "hashsoc/hash.h"

static uint32_t median(const uint32_t *v, int n)
{
  uint32_t s[WARM];
  for (int i = 0; i < n; i++) {
    int j = i;
    for (; j > 0 && s[j - 1] > v[i]; j--)
      s[j] = s[j - 1];
    s[j] = v[i];
  }
  return s[n / 2];
}

static uint64_t now(void)
{
  cpu_timer_latch_write(1);
  return cpu_timer_time_read();
}

static int api_sw(const uint8_t *m, size_t n, uint8_t *out)
{
  return hash_digest(HASH_SHA3_512, HASH_PROV_SW, 0, m, n, out, 64);
}

static int hw_dma(const uint8_t *m, size_t n, uint8_t *out)
{
  return hash_digest(HASH_SHA3_512, HASH_PROV_HW, 0, m, n, out, 64);
}

static int hw_pio(const uint8_t *m, size_t n, uint8_t *out)
{
  return hash_digest(HASH_SHA3_512, HASH_PROV_HW, HASH_F_PIO, m, n, out, 64);
}

static const struct {
  const char *name;
  hash_fn fn;
  int hw;
} rows[] = {
  { "sw-O0", sha3_512_O0, 0 },
  { "sw-O1", sha3_512_O1, 0 },
  { "sw-O2", sha3_512_O2, 0 },
  { "sw-Os", sha3_512_Os, 0 },
  { "api-sw", api_sw, 0 },
  { "hw-dma", hw_dma, 1 },
  { "hw-pio", hw_pio, 1 },
};
#define NROWS (int)(sizeof(rows) / sizeof(rows[0]))

struct result {
  uint32_t cold, warm[WARM], busy;
  int ok, ran;
  uint8_t digest[64];
};

static struct result res[NROWS];
static char line[256];

/*
 * Invalidate both caches (VexRiscv: 0x500F flushes the D-cache, which is write-through, so
 * this only invalidates; fence.i = 0x100F the I-cache). Careful: VexRiscv `linux` acts on
 * these instructions in decode (fence.i) and execute (0x500F) even on a mispredicted path.
 * Its static predictor guesses forward branches not taken and resolves them two stages
 * later, so `if (cold) flush();` written inline flushed the caches before every warm call
 * too whenever the flush instructions sat right behind the not-taken branch (every call then
 * cost as much as a cold one). So the flushes live only here, reached by a call, behind
 * enough nops that falling through from the function placed before (a `ret` is resolved
 * late as well) cannot reach them before the redirect.
 */
static __attribute__((noinline, aligned(32))) void invalidate_caches(void)
{
  __asm__ volatile(".rept 8\n nop\n .endr\n"
                   ".word 0x500F\n"
                   ".word 0x100F\n"
                   ".rept 5\n nop\n .endr\n" ::
                       : "memory");
}

static int timed_call(hash_fn fn, uint8_t *out, uint32_t *clocks)
{
  for (int j = 0; j < 64; j++)
    out[j] = 0;
  uint64_t t0 = now();
  int n = fn((const uint8_t *)message, MSG_LEN, out);
  uint64_t t1 = now();
  *clocks = (uint32_t)(t1 - t0);
  return n == 64 && same(out, expected, 64);
}

static void measure(int i)
{
  struct result *r = &res[i];
  uint8_t out[64] __attribute__((aligned(8)));
  hash_fn fn = rows[i].fn;
  /* Cold: right after invalidating both caches. No flush instruction anywhere below. */
  invalidate_caches();
  int ok = timed_call(fn, out, &r->cold);
  for (int j = 0; j < 64; j++)
    r->digest[j] = out[j];
  for (int k = 0; k < WARM; k++)
    ok &= timed_call(fn, out, &r->warm[k]);
  r->ok = ok;
  r->ran = 1;
  /* The Keccak core's busy clocks during the last call (engine rows only). */
  r->busy = rows[i].hw ? hash_hw_busy_cycles(HASH_ENGINE_KECCAK) : 0;
}

int main(void)
{
  /* Interrupts stay off (the BIOS left them off): no handler runs inside a timed call. */
  int engines = hash_probe();
  uint32_t timer = 0;
  for (int k = 0; k < 3; k++) { /* the last of three: warm */
    uint64_t t0 = now(), t1 = now();
    timer = (uint32_t)(t1 - t0);
  }

  for (int i = 0; i < NROWS; i++)
    if (!rows[i].hw || ((engines >> HASH_ENGINE_KECCAK) & 1))
      measure(i);

  printf("\nSEED001 SHA3-512(\"%s\") engines=%d pad=%d\n", message, engines, SEED001_PAD);
  printf("SEED001 timer %u\n", (unsigned)timer);
  for (int i = 0; i < NROWS; i++) {
    struct result *r = &res[i];
    char *p = line;
    if (!r->ran) {
      printf("SKIP %s no engine\n", rows[i].name);
      continue;
    }
    p = put_str(p, "ROW ");
    p = put_str(p, rows[i].name);
    p = put_str(p, " ");
    p = put_u32(p, r->cold);
    p = put_str(p, " ");
    p = put_u32(p, median(r->warm, WARM));
    for (int k = 0; k < WARM; k++) {
      p = put_str(p, " ");
      p = put_u32(p, r->warm[k]);
    }
    p = put_str(p, r->ok ? " ok " : " FAIL ");
    p = put_hex(p, r->digest, 64);
    *p = 0;
    puts(line);
    if (rows[i].hw)
      printf("BUSY %s %u\n", rows[i].name, (unsigned)r->busy);
  }
  printf("SEED001 DONE\n");
#ifdef CSR_SIM_FINISH_BASE
  sim_finish_finish_write(1);
#endif
  for (;;)
    ;
  return 0;
}

#else
/* ========================================================================== QEMU virt */

static void putc_uart(char ch)
{
  volatile uint8_t *uart = (volatile uint8_t *)0x10000000u; /* 16550 */
  while ((uart[5] & 0x20) == 0)
    ;
  uart[0] = (uint8_t)ch;
}

static void put_line(const char *s, const char *end)
{
  while (s != end)
    putc_uart(*s++);
  putc_uart('\n');
}

/* minstret: with `-icount shift=0` QEMU's virtual clock advances one tick per retired
 * instruction, and minstret/mcycle read that clock (each CSR read ends its translation
 * block, so the count is exact). Without -icount they return host ticks. */
static inline __attribute__((always_inline)) uint32_t instret(void)
{
  uint32_t v;
  __asm__ volatile("csrr %0, minstret" : "=r"(v));
  return v;
}

static const struct {
  const char *name;
  hash_fn fn;
} qrows[] = {
  { "sw-O0", sha3_512_O0 },
  { "sw-O1", sha3_512_O1 },
  { "sw-O2", sha3_512_O2 },
  { "sw-Os", sha3_512_Os },
};

void seed001_qemu_main(void);
void seed001_qemu_main(void)
{
  char buf[256], *p;
  uint8_t out[64] __attribute__((aligned(8)));
  uint32_t a, b, overhead;

  /* Calibration: 1000 nops between two reads, minus the empty pair. */
  a = instret();
  b = instret();
  overhead = b - a;
  a = instret();
  __asm__ volatile(".rept 1000\n nop\n .endr");
  b = instret();
  p = put_str(buf, "QCAL 1000 ");
  p = put_u32(p, b - a - overhead);
  put_line(buf, p);
  p = put_str(buf, "QTIMER ");
  p = put_u32(p, overhead);
  put_line(buf, p);

  for (unsigned i = 0; i < sizeof(qrows) / sizeof(qrows[0]); i++) {
    uint32_t n[3];
    int ok = 1;
    for (int k = 0; k < 3; k++) {
      for (int j = 0; j < 64; j++)
        out[j] = 0;
      a = instret();
      int r = qrows[i].fn((const uint8_t *)message, MSG_LEN, out);
      b = instret();
      n[k] = b - a - overhead;
      ok &= r == 64 && same(out, expected, 64);
    }
    p = put_str(buf, "QROW ");
    p = put_str(p, qrows[i].name);
    for (int k = 0; k < 3; k++) {
      p = put_str(p, " ");
      p = put_u32(p, n[k]);
    }
    p = put_str(p, ok ? " ok " : " FAIL ");
    p = put_hex(p, out, 64);
    put_line(buf, p);
  }
  p = put_str(buf, "QDONE");
  put_line(buf, p);

  *(volatile uint32_t *)0x100000u = 0x5555u; /* SiFive test device: exit(0) */
  for (;;)
    ;
}

static uint8_t qstack[16384] __attribute__((aligned(16)));

void _start(void) __attribute__((naked, section(".text.startup")));
void _start(void)
{
  __asm__ volatile("la sp, %0\n"
                   "li t0, 16384\n"
                   "add sp, sp, t0\n"
                   "call seed001_qemu_main\n"
                   "1: j 1b\n"
                   :
                   : "i"(qstack));
}
#endif
