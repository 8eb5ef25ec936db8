/* SPDX-License-Identifier: MIT */
/*
 * sp800185_sw.h - NIST SP 800-185's encodings, from which cSHAKE and KMAC are made on the
 * keccak_sw sponge and on the Keccak engine:
 *
 *   cSHAKE(X, L, N, S) = Keccak[c](bytepad(encode_string(N) || encode_string(S), rate)
 *                                  || X || 00, L)     (SHAKE when N and S are both empty)
 *   KMAC(K, X, L, S)   = cSHAKE(bytepad(encode_string(K), rate) || X || right_encode(L),
 *                               L, "KMAC", S)        (KMACXOF: right_encode(0))
 *
 * with encode_string(S) = left_encode(bit length of S) || S and bytepad(X, w) =
 * left_encode(w) || X || zeros up to a multiple of w bytes. This file only writes those
 * encodings; the pad bytes (cSHAKE's domain bits "00", SHAKE's "1111") and the function
 * name are facts of the algorithms, in hashsoc/hash_spec.h (HASH_CSHAKE_PAD,
 * HASH_KMAC_NAME, from gateware/hashspec.py). The same rules as keccak_sw: freestanding
 * C99, no library calls, no libgcc helper on rv32, all state in the caller's context.
 *
 * Usage (KMAC128 under key, customization s, 32 bytes out):
 *     struct keccak_sw c;
 *     keccak_sw_init(&c, HASH_BLOCK_SHAKE128, HASH_CSHAKE_PAD);
 *     sp800185_sw_prefix(&c, HASH_KMAC_NAME, 4, s, slen);
 *     sp800185_sw_key(&c, key, keylen);
 *     keccak_sw_absorb(&c, msg, len);          // any number of times
 *     sp800185_sw_right_encode(&c, 8 * 32);    // KMACXOF: 0
 *     keccak_sw_squeeze(&c, mac, 32);
 */
#ifndef SP800185_SW_H
#define SP800185_SW_H

#include "keccak_sw.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where the encodings go, in order: the software sponge (the sp800185_sw_* below), or the
 * driver's bytes for the engine's cSHAKE and KMAC modes (firmware/libhash/driver). */
typedef void sp800185_out(void *arg, const void *p, size_t n);

/* bytepad(encode_string(N) || encode_string(S), rate): cSHAKE's first block(s), to out;
 * n or s may be NULL when its length is 0. Returns the byte count (a multiple of rate). */
size_t sp800185_prefix(
    sp800185_out *out, void *arg, size_t rate, const void *n, size_t nlen, const void *s, size_t slen);

/* bytepad(encode_string(K), rate): KMAC's key block(s), after the prefix; as above. */
size_t sp800185_key(sp800185_out *out, void *arg, size_t rate, const void *k, size_t klen);

/* right_encode(x): KMAC's output length in bits (0 for KMACXOF), after the message. */
void sp800185_right_encode(sp800185_out *out, void *arg, uint64_t x);

/* The same, absorbed into the software sponge c (at its rate); sp800185_sw_prefix right
 * after keccak_sw_init. */
void sp800185_sw_prefix(struct keccak_sw *c, const void *n, size_t nlen, const void *s, size_t slen);
void sp800185_sw_key(struct keccak_sw *c, const void *k, size_t klen);
void sp800185_sw_right_encode(struct keccak_sw *c, uint64_t x);

#ifdef __cplusplus
}
#endif

#endif /* SP800185_SW_H */
