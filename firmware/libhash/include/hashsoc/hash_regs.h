/* SPDX-License-Identifier: MIT */
/*
 * Register offsets of the hash engines, taken from LiteX's generated csr.h and mem.h
 * (the platform header includes them first). The engines have one register layout, so
 * offsets come from whichever engine the SoC has; engine bases are 0 when absent.
 */
#ifndef HASHSOC_HASH_REGS_H
#define HASHSOC_HASH_REGS_H

#if defined(CSR_SHA256_BASE)
#define HREG(name)         (CSR_SHA256_##name##_ADDR - CSR_SHA256_BASE)
#define HBIT(reg, field)   (1u << CSR_SHA256_##reg##_##field##_OFFSET)
#define HSHIFT(reg, field) CSR_SHA256_##reg##_##field##_OFFSET
#elif defined(CSR_KECCAK_BASE)
#define HREG(name)         (CSR_KECCAK_##name##_ADDR - CSR_KECCAK_BASE)
#define HBIT(reg, field)   (1u << CSR_KECCAK_##reg##_##field##_OFFSET)
#define HSHIFT(reg, field) CSR_KECCAK_##reg##_##field##_OFFSET
#elif defined(CSR_SHA512_BASE)
#define HREG(name)         (CSR_SHA512_##name##_ADDR - CSR_SHA512_BASE)
#define HBIT(reg, field)   (1u << CSR_SHA512_##reg##_##field##_OFFSET)
#define HSHIFT(reg, field) CSR_SHA512_##reg##_##field##_OFFSET
#else
/* A platform without engines (e.g. QEMU): the driver still builds, probe finds nothing
 * (every base is 0 below) and hardware requests fail with HASH_ERR_NODEV. */
#define HREG(name)         0u
#define HBIT(reg, field)   0u
#define HSHIFT(reg, field) 0u
#endif

#ifdef CSR_SHA256_BASE
#define HASH_SHA256_CSR_BASE CSR_SHA256_BASE
#define HASH_SHA256_WIN_BASE SHA256_BASE
#else
#define HASH_SHA256_CSR_BASE 0
#define HASH_SHA256_WIN_BASE 0
#endif
#ifdef CSR_KECCAK_BASE
#define HASH_KECCAK_CSR_BASE CSR_KECCAK_BASE
#define HASH_KECCAK_WIN_BASE KECCAK_BASE
#else
#define HASH_KECCAK_CSR_BASE 0
#define HASH_KECCAK_WIN_BASE 0
#endif
#ifdef CSR_SHA512_BASE
#define HASH_SHA512_CSR_BASE CSR_SHA512_BASE
#define HASH_SHA512_WIN_BASE SHA512_BASE
#else
#define HASH_SHA512_CSR_BASE 0
#define HASH_SHA512_WIN_BASE 0
#endif

/* The data window's offsets (HWIN_*) and the engine IDs are in hash_spec.h. */

#endif
