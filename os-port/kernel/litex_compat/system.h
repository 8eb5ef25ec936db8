/* SPDX-License-Identifier: MIT */
/* LiteX's generated/csr.h includes <system.h> (from the LiteX BIOS
 * headers).  The kernel only uses the address macros, so this is empty. */
