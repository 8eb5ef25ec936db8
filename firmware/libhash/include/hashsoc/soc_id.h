/* SPDX-License-Identifier: MIT */
/*
 * Am I on the SoC I was built for?  Shared by the firmware and the xv6 kernel.
 *
 * A program built against one HashSoC's generated headers carries that SoC's identity,
 * CONFIG_SOC_ID (soc.h); the running SoC answers with its own in the soc_id CSR
 * (soc/identity.py). The CSRs read here sit at the same locations on every HashSoC
 * (HashSoC.csr_map), so a program on the wrong SoC still reads the right registers and can
 * say so.  Call hashsoc_soc_check() before touching any engine; on a mismatch print its
 * message and stop.
 *
 * Needs hash_plat_read() (the platform's hash_plat_<platform>.h) and the generated csr.h
 * and soc.h.
 */
#ifndef HASHSOC_SOC_ID_H
#define HASHSOC_SOC_ID_H

#include <stdint.h>

#ifndef CONFIG_SOC_ID
#error "generated/soc.h has no CONFIG_SOC_ID: rebuild the SoC (soc/identity.py)"
#endif

/* What the message says, in the order of the arguments hashsoc_soc_check() fills in. */
#define HASHSOC_SOC_MISMATCH_FMT                                                                             \
  "soc-id: built for \"%s\" (id %x), but this SoC is \"%s\" (id %x): stopping\n"

/* The running SoC's identifier string (LiteX's identifier_mem: one character per 32-bit
 * CSR word, NUL-terminated) into buf[0..n-1]. */
static inline void hashsoc_soc_ident(char *buf, int n)
{
  int i;
  for (i = 0; i < n - 1; i++) {
    char c = (char)hash_plat_read(CSR_IDENTIFIER_MEM_BASE + 4 * i);
    if (c == 0)
      break;
    buf[i] = c;
  }
  buf[i] = 0;
}

/* 0 on the SoC this program was built for; else -1, with *found = the running SoC's
 * identity and ident[0..n-1] = its identifier string. */
static inline int hashsoc_soc_check(uint32_t *found, char *ident, int n)
{
  *found = hash_plat_read(CSR_SOC_ID_VALUE_ADDR);
  if (*found == (uint32_t)CONFIG_SOC_ID)
    return 0;
  hashsoc_soc_ident(ident, n);
  return -1;
}

#endif
