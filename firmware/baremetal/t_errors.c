/* SPDX-License-Identifier: MIT */
/*
 * The self-test's error paths: bad arguments, DMA refused, an engine usable after an
 * error or an abort, the short path's corner cases (E rows).
 */
#include "fwtest.h"

void error_paths(void)
{
  struct hash_ctx c;
  check("bad_alg", hash_digest(99, HASH_PROV_SW, 0, "x", 1, out, 32), HASH_ERR_ALG);
  check("bad_provider", hash_digest(HASH_SHA256, 7, 0, "x", 1, out, 32), HASH_ERR_ALG);
  check("bad_flags", hash_digest(HASH_SHA256, HASH_PROV_HW, 0x80, "x", 1, out, 32), HASH_ERR_ARG);
  check("null_data", hash_digest(HASH_SHA256, HASH_PROV_HW, 0, NULL, 5, out, 32), HASH_ERR_ARG);
  check("null_out", hash_digest(HASH_SHA256, HASH_PROV_SW, 0, "x", 1, NULL, 32), HASH_ERR_ARG);
  check("short_out", hash_digest(HASH_SHA256, HASH_PROV_SW, 0, "x", 1, out, 16), HASH_ERR_LEN);
  check("null_ctx", hash_begin(NULL, HASH_SHA256, HASH_PROV_SW, 0), HASH_ERR_ARG);
  hash_begin(&c, HASH_SHA256, HASH_PROV_SW, 0);
  hash_final(&c, out, 32);
  check("update_after_final", hash_update(&c, "x", 1), HASH_ERR_STATE);
  /* hash_cut: the largest count that ends at a block boundary (SHA3-256: 136 bytes). */
  hash_begin(&c, HASH_SHA3_256, HASH_PROV_SW, 0);
  check("cut_aligned", (int)hash_cut(&c, 65536), 481 * 136);
  check("cut_short", (int)hash_cut(&c, 135), 135);
  hash_update(&c, msgbuf, 100);
  check("cut_partial", (int)hash_cut(&c, 1000), 36 + 7 * 136);
  check("cut_to_boundary", (int)hash_cut(&c, 36), 36);
  check("cut_before_boundary", (int)hash_cut(&c, 35), 35);
  hash_abort(&c);
  if (!have_engine(HASH_SHA256))
    return;
  /* DMA from outside main RAM (here: the CSR bank): the engine refuses the command
   * with bad_range, the driver reports HASH_ERR_HW and the engine stays usable. */
  hash_begin(&c, HASH_SHA256, HASH_PROV_HW, 0);
  check("dma_outside_ram", hash_update(&c, (const void *)CSR_BASE, 64), HASH_ERR_HW);
  check("dma_outside_ram_errors", (int)c.hw_errors, 1 << CSR_SHA256_ERRORS_BAD_RANGE_OFFSET);
  check("usable_after_error", hash_digest(HASH_SHA256, HASH_PROV_HW, 0, "hello", 5, out, 32), 32);
  /* A context abandoned mid-message does not block the next user. */
  hash_begin(&c, HASH_SHA256, HASH_PROV_HW, 0);
  hash_update(&c, msgbuf, 128);
  hash_abort(&c);
  check("usable_after_abort", hash_digest(HASH_SHA256, HASH_PROV_HW, 0, "hello", 5, out, 32), 32);
  /* The short path with an unaligned output buffer (byte stores) and a SHA-224 digest
   * that is not a multiple of 16 bytes. */
  hash_digest(HASH_SHA256, HASH_PROV_SW, 0, "hello", 5, ref, 32);
  memset(out, 0, 40);
  check("short_unaligned_out", hash_digest(HASH_SHA256, HASH_PROV_HW, 0, "hello", 5, out + 3, 32), 32);
  check("short_unaligned_out_bytes", memcmp(out + 3, ref, 32) | out[0] | out[1] | out[2] | out[35], 0);
  hash_digest(HASH_SHA224, HASH_PROV_SW, 0, msgbuf + 1, 55, ref, 28);
  memset(out, 0, 40);
  check("short_sha224", hash_digest(HASH_SHA224, HASH_PROV_HW, 0, msgbuf + 1, 55, out, 28), 28);
  check("short_sha224_bytes", memcmp(out, ref, 28) | out[28], 0);
  /* A message held open by a context is saved, not lost, when the short path needs
   * the engine. */
  hash_begin(&c, HASH_SHA256, HASH_PROV_HW, 0);
  hash_update(&c, msgbuf, 100);
  hash_digest(HASH_SHA256, HASH_PROV_HW, 0, "hello", 5, out, 32);
  hash_update(&c, msgbuf + 100, 100);
  hash_final(&c, out, 32);
  hash_digest(HASH_SHA256, HASH_PROV_SW, 0, msgbuf, 200, ref, 32);
  check("short_path_saves_open_context", memcmp(out, ref, 32), 0);
}
