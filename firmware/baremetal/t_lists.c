/* SPDX-License-Identifier: MIT */
/*
 * The self-test's scatter-gather: descriptor lists the driver builds (T rows "sg", "sgsw",
 * "sgnw"), lists it hands the engine in place ("sgip", "sgipbuf"), and the engine's
 * refusals of bad lists (E rows).
 */
#include "fwtest.h"

/*
 * Scatter-gather (hash_update_segs): the "pat" message cut into pieces of 1..maxpiece
 * bytes, copied to places in sgbuf that are neither in order nor aligned (like a user
 * buffer's physical pages), hashed on the engine by descriptor lists and in software.
 * Printed as T rows with path "sg" (engine) or "sgsw", the piece count in the offset
 * column. With head, 7 bytes go first by hash_update, so the lists start mid-block.
 * Path "sgnw" gives the pieces in two hash_update_segs_nowait calls, and on every other
 * message a hash("hello") on the same engine comes between them (it must take the
 * engine while the first list may still run: a wrong "hello" digest fails the row).
 */
static uint8_t sgbuf[16384];

/* Cut src[0, len) into pieces segs[first...], copied backwards from sgbuf[*pos] down
 * with 1-3 byte gaps; the number of pieces, or -1 if they do not all fit. */
static int scatter_at(int first, size_t *pos, const uint8_t *src, size_t len, size_t maxpiece, uint32_t seed)
{
  size_t i = 0;
  int n = first;
  while (i < len && n<N_SEGS && * pos> maxpiece + 3) {
    seed = seed * 1664525u + 1013904223u;
    size_t k = 1 + (seed >> 8) % maxpiece;
    k = k < len - i ? k : len - i;
    *pos -= k + 1 + n % 3;
    memcpy(sgbuf + *pos, src + i, k);
    segs[n].data = sgbuf + *pos;
    segs[n].len = k;
    n++;
    i += k;
  }
  return i == len ? n - first : -1;
}

/* ... from the end of sgbuf into segs[0...]. */
static int scatter(const uint8_t *src, size_t len, size_t maxpiece, uint32_t seed)
{
  size_t pos = sizeof(sgbuf);
  return scatter_at(0, &pos, src, len, maxpiece, seed);
}

/* hash("hello") on alg's engine, checked against software: 0, or HASH_ERR_HW if wrong. */
static int hello_beside(int alg)
{
  uint8_t a[32], b[32];
  hash_digest(alg, HASH_PROV_SW, 0, "hello", 5, a, 32);
  int r = hash_digest(alg, HASH_PROV_HW, 0, "hello", 5, b, 32);
  return r < 0 ? r : memcmp(a, b, 32) ? HASH_ERR_HW : 0;
}

void scattered(void)
{
  static const size_t lens[] = { 0, 1, 55, 137, 1000, 5000 };
  static const size_t maxpiece[] = { 1, 7, 300, 3000 };
  static const int algs[] = { HASH_SHA256, HASH_SHA3_256, HASH_SHAKE128 };
  for (unsigned a = 0; a < sizeof(algs) / sizeof(algs[0]); a++) {
    int alg = algs[a];
    size_t outlen = hash_alg_digest_len(alg) ? (size_t)hash_alg_digest_len(alg) : 32;
    for (unsigned i = 0; i < sizeof(lens) / sizeof(lens[0]); i++)
      for (unsigned m = 0; m < sizeof(maxpiece) / sizeof(maxpiece[0]); m++) {
        size_t len = lens[i], head = (i + m) % 2 && len > 7 ? 7 : 0;
        int n = scatter(msgbuf + head, len - head, maxpiece[m], i * 31 + m);
        if (n < 0)
          continue;                   /* more pieces than segs[] */
        for (int p = 0; p < 3; p++) { /* sg, sgsw, sgnw */
          if (p != 1 && !have_engine(alg))
            continue;
          struct hash_ctx c;
          int r = hash_begin(&c, alg, p == 1 ? HASH_PROV_SW : HASH_PROV_HW, 0);
          if (r >= 0 && head)
            r = hash_update(&c, msgbuf, head);
          if (r >= 0 && p < 2)
            r = hash_update_segs(&c, segs, n);
          if (r >= 0 && p == 2) {
            r = hash_update_segs_nowait(&c, segs, n / 2);
            if (r >= 0 && (i + m) % 2)
              r = hello_beside(alg);
            if (r >= 0)
              r = hash_update_segs_nowait(&c, segs + n / 2, n - n / 2);
          }
          memset(out, 0, outlen);
          if (r >= 0)
            r = hash_final(&c, out, outlen);
          t_row(alg, p == 1 ? "sgsw" : p ? "sgnw" : "sg", "pat", len, n, outlen, r);
        }
      }
  }
}

/* The bus address of the list the engine was last started on. */
static uint32_t dma_addr_of(int alg)
{
  return hash_alg_engine(alg) == HASH_ENGINE_SHA256 ? sha256_dma_addr_read() : keccak_dma_addr_read();
}

/*
 * hash_update_list_nowait: a message of whole blocks as two lists that the engine reads
 * in place from segs[] (the second given while the engine may still walk the first), then
 * a tail by hash_update; the digest must be the message's, and the engine must have been
 * started on segs[] itself ("sgip"). With bytes already buffered in the context the
 * driver cannot (the engine would read the list before them): it copies the list, as
 * hash_update_segs_nowait does ("sgipbuf").
 */
void in_place_lists(void)
{
  static const int algs[] = { HASH_SHA256, HASH_SHA3_256, HASH_SHAKE128 };
  static const size_t maxpiece[] = { 7, 300, 3000 };
  for (unsigned a = 0; a < sizeof(algs) / sizeof(algs[0]); a++) {
    int alg = algs[a];
    if (!have_engine(alg))
      continue;
    size_t outlen = hash_alg_digest_len(alg) ? (size_t)hash_alg_digest_len(alg) : 32;
    size_t b = (size_t)hash_alg_block_len(alg);
    for (unsigned m = 0; m < sizeof(maxpiece) / sizeof(maxpiece[0]); m++)
      for (int head = 0; head <= 5; head += 5) {
        /* head bytes (buffered in the context), lists of 2 and 3 blocks, a tail. */
        size_t la = 2 * b, lb = 3 * b, tail = 1 + m, len = head + la + lb + tail;
        size_t pos = sizeof(sgbuf);
        int na = scatter_at(0, &pos, msgbuf + head, la, maxpiece[m], 7 * m + head);
        int nb = na < 0 ? -1 : scatter_at(na, &pos, msgbuf + head + la, lb, maxpiece[m], 11 * m + head);
        if (nb < 0 || na + nb > HASH_SG_MAX)
          continue;
        struct hash_ctx c;
        int r = hash_begin(&c, alg, HASH_PROV_HW, 0);
        if (r >= 0 && head)
          r = hash_update(&c, msgbuf, head);
        if (r >= 0)
          r = hash_update_list_nowait(&c, segs, na);
        int placed = dma_addr_of(alg) == (uint32_t)(uintptr_t)segs;
        if (r >= 0)
          r = hash_update_list_nowait(&c, segs + na, nb);
        placed += dma_addr_of(alg) == (uint32_t)(uintptr_t)(segs + na);
        if (r >= 0)
          r = hash_update(&c, msgbuf + head + la + lb, tail);
        memset(out, 0, outlen);
        if (r >= 0)
          r = hash_final(&c, out, outlen);
        const char *path = head ? "sgipbuf" : "sgip";
        t_row(alg, path, "pat", len, na + nb, outlen, r);
        char what[40];
        snprintf(what, sizeof(what), "%s_%s_%u_lists_in_place", path, hash_alg_name(alg), (unsigned)m);
        check(what, placed, head ? 0 : 2);
      }
  }
}

/*
 * The engine's refusals of bad descriptor lists (registers written directly: the driver
 * never builds such lists). Each list command is started on an open SHA-256 message; the
 * check is the error bits it leaves, then the engine must be usable again.
 */
static uint32_t sg_desc[2 * (HASH_SG_MAX + 1)] __attribute__((aligned(8)));

static uint32_t sg_raw(uint32_t list, uint32_t count)
{
  /* The list was just written by plain stores, and its address reaches the engine only
   * as an integer: without this the compiler may sink those stores past the CSR writes
   * (it did, once SHA-512 changed what got inlined: the engine read the previous list). */
  __asm__ volatile("fence" ::: "memory");
  sha256_ctrl_write(HBIT(CTRL, INIT) | (0u << HSHIFT(CTRL, MODE)));
  sha256_dma_addr_write(list);
  sha256_dma_len_write(count);
  sha256_dma_ctrl_write(HBIT(DMA_CTRL, START) | HBIT(DMA_CTRL, LIST) | HBIT(DMA_CTRL, LAST));
  for (int n = 0; (sha256_status_read() & HBIT(STATUS, BUSY)) && n < 100000; n++)
    ;
  uint32_t errors = sha256_errors_read();
  sha256_ctrl_write(HBIT(CTRL, ABORT) | HBIT(CTRL, ERR_CLEAR));
  return errors;
}

static void sg_desc_set(int i, uint32_t addr, uint32_t len)
{
  sg_desc[HASH_SG_DESC_WORDS * i + HASH_SG_ADDR] = addr;
  sg_desc[HASH_SG_DESC_WORDS * i + HASH_SG_LEN] = len;
}

void sg_refusals(void)
{
  if (!have_engine(HASH_SHA256))
    return;
  const uint32_t bad_list = 1u << CSR_SHA256_ERRORS_BAD_LIST_OFFSET;
  const uint32_t bad_range = 1u << CSR_SHA256_ERRORS_BAD_RANGE_OFFSET;
  uint32_t list = (uint32_t)(uintptr_t)sg_desc, hello = (uint32_t)(uintptr_t)msgbuf;
  for (int i = 0; i <= HASH_SG_MAX; i++)
    sg_desc_set(i, hello, 5);
  check("sg_good_list", (int)sg_raw(list, 2), 0);
  check("sg_limit_list", (int)sg_raw(list, HASH_SG_MAX), 0);
  check("sg_zero_descriptors", (int)sg_raw(list, 0), (int)bad_list);
  check("sg_over_limit", (int)sg_raw(list, HASH_SG_MAX + 1), (int)bad_list);
  check("sg_unaligned_list", (int)sg_raw(list + 2, 1), (int)bad_list);
  check("sg_list_wraps", (int)sg_raw(0xfffffff8u, 2), (int)bad_range);
  check("sg_list_outside_ram", (int)sg_raw(CSR_BASE, 1), (int)bad_range);
  sg_desc_set(1, hello, 0);
  check("sg_zero_length_descriptor", (int)sg_raw(list, 3), (int)bad_list);
  sg_desc_set(1, CSR_BASE, 64);
  check("sg_descriptor_outside_ram", (int)sg_raw(list, 3), (int)bad_range);
  sg_desc_set(1, 0xfffffff0u, 0x20);
  check("sg_descriptor_wraps", (int)sg_raw(list, 3), (int)bad_range);
  sg_desc_set(1, hello, 5);
  /* The driver: a piece outside main RAM fails the message with HASH_ERR_HW. */
  struct hash_ctx c;
  struct hash_seg bad[2] = { { msgbuf, 64 }, { (const void *)CSR_BASE, 64 } };
  hash_begin(&c, HASH_SHA256, HASH_PROV_HW, 0);
  check("sg_driver_piece_outside_ram", hash_update_segs(&c, bad, 2), HASH_ERR_HW);
  check("sg_driver_errors", (int)c.hw_errors, (int)bad_range);
  check("sg_usable_after", hash_digest(HASH_SHA256, HASH_PROV_HW, HASH_F_DMA, "hello", 5, out, 32), 32);
  /* _nowait: the error comes with the next call on the context (here the final). */
  hash_begin(&c, HASH_SHA256, HASH_PROV_HW, 0);
  int r = hash_update_segs_nowait(&c, bad, 2);
  check("sg_nowait_bad_piece_next_call", r < 0 ? r : hash_final(&c, out, 32), HASH_ERR_HW);
  check("sg_nowait_errors", (int)c.hw_errors, (int)bad_range);
  check(
      "sg_nowait_usable_after", hash_digest(HASH_SHA256, HASH_PROV_HW, HASH_F_DMA, "hello", 5, out, 32), 32);
  /* In place: the engine reads bad[] itself and refuses its second piece the same way. */
  hash_begin(&c, HASH_SHA256, HASH_PROV_HW, 0);
  r = hash_update_list_nowait(&c, bad, 2);
  check("sg_in_place_bad_piece_next_call", r < 0 ? r : hash_final(&c, out, 32), HASH_ERR_HW);
  check("sg_in_place_errors", (int)c.hw_errors, (int)bad_range);
  check("sg_in_place_usable_after", hash_digest(HASH_SHA256, HASH_PROV_HW, HASH_F_DMA, "hello", 5, out, 32),
      32);
}
