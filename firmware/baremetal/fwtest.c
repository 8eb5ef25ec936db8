/* SPDX-License-Identifier: MIT */
/*
 * The self-test's and the benchmark's shared state and row printers (fwtest.h).
 */
#include "fwtest.h"

uint8_t msgbuf[MAXLEN + 8] __attribute__((aligned(4)));
uint8_t out[512], ref[512];
struct hash_seg segs[N_SEGS];
int passed, failed;

const char *const path_name[5] = { "sw", "pio", "dma", "irq", "auto" };
const int path_prov[5] = { HASH_PROV_SW, HASH_PROV_HW, HASH_PROV_HW, HASH_PROV_HW, HASH_PROV_HW };
const int path_flags[5] = { 0, HASH_F_PIO, HASH_F_DMA, HASH_F_DMA | HASH_F_IRQ, 0 };

void pattern(uint8_t *p, size_t n)
{
  for (size_t i = 0; i < n; i++)
    p[i] = (uint8_t)(i * 131 + 7);
}

/* One fputs per digest: picolibc's printf costs thousands of clocks per call here. */
void hex(const uint8_t *p, int n)
{
  static const char digits[] = "0123456789abcdef";
  char s[2 * 512 + 1];
  for (int i = 0; i < n; i++) {
    s[2 * i] = digits[p[i] >> 4];
    s[2 * i + 1] = digits[p[i] & 15];
  }
  s[2 * n] = 0;
  fputs(s, stdout);
}

void check(const char *what, int got, int want)
{
  int ok = got == want;
  printf("E %s %d %d %s\n", what, got, want, ok ? "ok" : "FAIL");
  ok ? passed++ : failed++;
}

int have_engine(int alg)
{
  return (hash_probe() >> hash_alg_engine(alg)) & 1;
}

/* A T row: the digest in out (r bytes), or the error code r. */
void t_row(int alg, const char *path, const char *msg, size_t len, int off, size_t outlen, int r)
{
  printf("T %s %s %s %u %d %u ", hash_alg_name(alg), path, msg, (unsigned)len, off, (unsigned)outlen);
  if (r > 0)
    hex(out, r);
  else
    printf("error%d", r);
  printf("\n");
}
