/* SPDX-License-Identifier: MIT */
/*
 * HashSoC driver API: one interface for software and hardware hashing.
 *
 * The same source serves bare-metal firmware and the xv6 kernel; what differs between
 * them (register access, how to wait, locking, bus addresses) lives in a small platform
 * header, hash_plat_<platform>.h, that each build names (firmware/libhash/libhash.mk,
 * docs/driver-api.md).
 *
 * Algorithms: SHA-224/256 (FIPS 180-4), SHA3-224/256/384/512 and SHAKE128/256 (FIPS 202),
 * original Keccak-224/256/384/512 (pre-FIPS padding, e.g. Ethereum's Keccak-256).
 * Providers: software (the portable C in firmware/libhash/swhash) or the accelerator, fed by DMA
 * (default; short one-shot messages by CPU stores unless HASH_F_DMA) or by CPU stores
 * (HASH_F_PIO), finished by polling or by interrupt (HASH_F_IRQ).
 *
 * Every call returns a negative HASH_ERR_* code on bad input; none of them can hang:
 * waits on the hardware are bounded and an engine error aborts the message.
 */
#ifndef HASHSOC_HASH_H
#define HASHSOC_HASH_H

#include <stddef.h>
#include <stdint.h>

#include "sha256_sw.h"
#include "sha512_sw.h"
#include "keccak_sw.h"
#include "hmac_sw.h"
#include "sp800185_sw.h"

/* Algorithms (enum hash_alg, HASH_ALG_TABLE), engines (enum hash_engine_id), providers
 * (HASH_PROV_SW, HASH_PROV_HW; HASH_PROV_AUTO and HASH_PROV_USER belong to xv6), the data
 * window and the engine IDs: generated from gateware/hashspec.py. */
#include "hashsoc/hash_spec.h"

/* Flags for the hardware provider. */
#define HASH_F_PIO    0x1 /* feed with CPU stores into the data window instead of DMA */
#define HASH_F_IRQ    0x2 /* sleep until the engine's interrupt instead of polling status */
#define HASH_F_DMA    0x4 /* feed by DMA whatever the length (see HASH_SHORT_MAX) */
/* hash_hmac_begin only: the device key instead of a key the caller gives. On the engine,
 * the key the gateware was built with (nobody can read it); in software, only where the
 * platform compiles in a stand-in (HASH_PLAT_SW_DEVICE_KEY: QEMU's, public, insecure). */
#define HASH_F_DEVKEY 0x8
/* hash_kmac_begin only: KMACXOF (the output's length is not bound into the MAC). */
#define HASH_F_XOF    0x10

/* hash_digest() on the hardware without HASH_F_DMA takes the short path for messages of
 * up to this many bytes whose output fits one block: CPU stores instead of a DMA command,
 * no context, no interrupt (the engine finishes in about one block's time, less than an
 * interrupt round trip), every register touched once. docs/driver-api.md. */
#define HASH_SHORT_MAX 128

#define HASH_OK          0
#define HASH_ERR_ARG     -1 /* NULL pointer or bad argument */
#define HASH_ERR_ALG     -2 /* unknown algorithm or provider */
#define HASH_ERR_LEN     -3 /* length overflow, or output buffer too small */
#define HASH_ERR_NODEV   -4 /* no engine for this algorithm */
#define HASH_ERR_HW      -5 /* the engine set an error bit (see hash_ctx.hw_errors) */
#define HASH_ERR_STATE   -6 /* call out of order (e.g. update after final) */
#define HASH_ERR_TIMEOUT -7 /* the engine did not finish in time (aborted) */

/* One hashing context. Callers treat it as opaque. A context that is begun must be
 * finished (hash_final) or dropped (hash_abort) before its memory is reused: while a
 * hardware message is open, the driver may save engine state into it. */
struct hash_ctx {
  uint8_t alg, provider, flags, state;
  uint16_t block;      /* block (SHA-2) or rate (Keccak) in bytes */
  uint16_t digest_len; /* 0 for XOF */
  uint32_t buflen;     /* bytes waiting in buf (hardware provider) */
  uint64_t total;      /* message bytes so far */
  uint32_t hw_errors;  /* the engine's error bits, after HASH_ERR_HW */
  uint8_t hw_saved;    /* hw_ctx holds this message's exported engine state */
  uint8_t hmac;        /* HMAC: 0 none; on the engine, HASH_HMAC_KEY_* (its key source) */
  uint8_t kmac;        /* KMAC: 0 none, 1 KMAC, 2 KMACXOF (hash_final's right_encode(L)) */
  uint8_t cshake;      /* on the engine: the message runs in alg's cSHAKE mode (cSHAKE, KMAC) */
  uint8_t kmac_words;  /* on the engine: hw_key holds a KMAC's key block of this many words,
                          for the engine to absorb after the prefix (its first init only) */
  /* On the engine, the key words' contents: an HMAC's K0 with a caller's key (the hash's
   * block: 16 or 32 words), written before every init (they are write-only and shared),
   * or a KMAC's key block (until the first init). Wiped by final and abort. */
  uint32_t hw_key[HASH_HW_KEY_WORDS];
  uint8_t buf[HASH_MAX_BLOCK] __attribute__((aligned(4))); /* word stores / DMA */
  union {
    struct sha256_sw sha;
    struct sha512_sw sha512;
    struct keccak_sw keccak;
    struct hmac_sw hmac; /* HMAC, software */
    uint32_t hw_ctx[HASH_HW_CTX_WORDS];
  } u;
};

/* Facts about algorithms. */
const char *hash_alg_name(int alg); /* "SHA-256", ... or NULL */
int hash_alg_digest_len(int alg);   /* bytes; 0 for SHAKE (any length) */
int hash_alg_block_len(int alg);    /* block or rate, bytes */
int hash_alg_engine(int alg);       /* enum hash_engine_id */

/* Which engines are present (bit per enum hash_engine_id); reads the ID registers. */
int hash_probe(void);

/* Incremental hashing. final writes the digest (outlen >= digest length; for SHAKE,
 * exactly outlen bytes) and returns the number of bytes written. */
int hash_begin(struct hash_ctx *c, int alg, int provider, int flags);
int hash_update(struct hash_ctx *c, const void *data, size_t len);
int hash_final(struct hash_ctx *c, uint8_t *out, size_t outlen);
/* hash_update over the concatenation of nseg pieces (scattered pages, iovecs). On the
 * hardware, by DMA, the engine walks them itself as descriptor lists (scatter-gather,
 * docs/registers.md) without the CPU between pieces; with HASH_F_PIO or in software,
 * piece by piece. Every piece's data must be readable by the engine's DMA. */
struct hash_seg {
  const void *data;
  size_t len;
};
int hash_update_segs(struct hash_ctx *c, const struct hash_seg *seg, int nseg);
/* The same, but on the hardware by DMA it returns as soon as the engine has its last
 * list, so the caller can prepare its next pieces while the engine reads these: the
 * pieces must stay unchanged until the next call on c (update, final, abort), which
 * waits for them first; hash_update_segs(c, 0, 0) only waits. A DMA error in them is
 * returned by that call. Elsewhere (sw, HASH_F_PIO) it is hash_update_segs. */
int hash_update_segs_nowait(struct hash_ctx *c, const struct hash_seg *seg, int nseg);
/* hash_update_segs_nowait with the caller's array read by the engine in place as its
 * descriptor list, instead of copied into the driver's: list must then be where the
 * engine's DMA can read it, with hash_plat_bus_addr(p) == p for it and for every piece,
 * and, like the pieces' bytes, stay unchanged until the next call on c. It is used in
 * place only when it can be as it is: struct hash_seg laid out as a descriptor (32-bit
 * pointers), 1 to HASH_SG_MAX pieces of 1 byte or more, whole blocks only, nothing
 * buffered in c, the engine by DMA; otherwise this is hash_update_segs_nowait. */
int hash_update_list_nowait(struct hash_ctx *c, const struct hash_seg *list, int nseg);
/* How many of the next n bytes one update call should take so that the message is at a
 * block boundary after them: the largest such count <= n, or n when no boundary falls
 * within n bytes. A caller that cuts a long message into calls (xv6's chunks) cuts with
 * it: then no call leaves a block's tail in c for the next one to copy and feed by stores
 * while the engine waits, and the engine takes each call's bytes by DMA alone. */
size_t hash_cut(const struct hash_ctx *c, size_t n);
/* HMAC (RFC 2104) over alg, a SHA-2 hash of HASH_HMAC_TABLE (SHA-256, SHA-224, SHA-512,
 * SHA-384), keyed with key[0, keylen) (a key longer than the block is hashed first) or,
 * with HASH_F_DEVKEY (key NULL, keylen 0), the device key. Then hash_update,
 * hash_update_segs and hash_final as for a hash; final writes the MAC (the hash's digest
 * length). On the engine, the engine does both hashes (docs/sha256.md, docs/sha512.md); a
 * caller's key stays in c until final or abort. HASH_ERR_NODEV: HASH_F_DEVKEY where there
 * is no device key. */
int hash_hmac_begin(struct hash_ctx *c, int alg, int provider, int flags, const void *key, size_t keylen);
/* Nonzero if hash_hmac_begin takes alg (HASH_HMAC_TABLE). */
int hash_alg_hmac(int alg);
/* cSHAKE (NIST SP 800-185) on alg's sponge, alg HASH_SHAKE128 (cSHAKE128) or HASH_SHAKE256
 * (HASH_SP800_185_TABLE), with the function name n[0, nlen) and the customization
 * s[0, slen) (NULL when the length is 0; both empty: SHAKE itself). Then hash_update and
 * hash_final (any output length) as for SHAKE. On the engine, its cSHAKE mode: the driver writes
 * the prefix by stores, then the message goes as a hash's (docs/driver-api.md). */
int hash_cshake_begin(struct hash_ctx *c, int alg, int provider, int flags, const void *n, size_t nlen,
    const void *s, size_t slen);
/* KMAC128 / KMAC256 (SP 800-185) on alg's sponge as for cSHAKE, keyed with key[0, keylen)
 * (any length), customization s[0, slen); HASH_F_XOF: KMACXOF. hash_final's outlen is the
 * MAC's length L, which KMAC (not KMACXOF) binds into the MAC. In software the key only
 * lives in the sponge's state; on the engine, its KMAC mode takes the key block from the
 * write-only key words (a key of up to rate - 5 bytes and a one-block prefix; otherwise the
 * cSHAKE mode with the key block written as message data). Final and abort wipe the
 * saved state and the key. */
int hash_kmac_begin(struct hash_ctx *c, int alg, int provider, int flags, const void *key, size_t keylen,
    const void *s, size_t slen);

/* Drop the message; frees the engine if this context holds it. */
void hash_abort(struct hash_ctx *c);

/* One-shot digest (hardware: a single DMA command, or stores, for the whole message). */
int hash_digest(int alg, int provider, int flags, const void *data, size_t len, uint8_t *out, size_t outlen);

/* One-shot HMAC: hash_hmac_begin, the message, hash_final. */
int hash_hmac(int alg, int provider, int flags, const void *key, size_t keylen, const void *data, size_t len,
    uint8_t *out, size_t outlen);

/* Save the engine state of the context that holds it (if any) into that context, so the
 * engine is free. Done automatically when another context needs the engine. */
void hash_release(int engine);

/* Interrupt handler body: call from the platform's interrupt dispatch for an engine. */
void hash_isr(int engine);

/* Clocks the engine's core was busy during the last message (its busy_cycles counter). */
uint32_t hash_hw_busy_cycles(int engine);

#endif
