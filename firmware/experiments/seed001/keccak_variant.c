/* SPDX-License-Identifier: MIT */
/*
 * keccak_variant.c - one more copy of firmware/libhash/swhash/keccak_sw.c with every public
 * symbol renamed by a suffix, so that one program can link the same source compiled at
 * several optimisation levels (seed 001, Table III: -O0, -O1, -O2, -Os).
 *
 *   riscv64-unknown-elf-gcc <swhash flags without -O> -O1 -DKV_SUFFIX=_O1 -c keccak_variant.c
 *
 * gives keccak_sw_init_O1, keccak_sw_absorb_O1, keccak_sw_squeeze_O1, keccak_sw_f1600_O1,
 * keccak_sw_to_lanes_O1 and keccak_sw_from_lanes_O1. Everything else in keccak_sw.c is
 * static (tables, inline helpers), so the copies do not collide. The source itself is
 * included unchanged: this file adds no code.
 */
#ifndef KV_SUFFIX
#error "compile with -DKV_SUFFIX=_O2 (or _O0, _O1, _Os)"
#endif

#define KV_CAT_(a, b) a##b
#define KV_CAT(a, b)  KV_CAT_(a, b)

#define keccak_sw_init       KV_CAT(keccak_sw_init, KV_SUFFIX)
#define keccak_sw_absorb     KV_CAT(keccak_sw_absorb, KV_SUFFIX)
#define keccak_sw_squeeze    KV_CAT(keccak_sw_squeeze, KV_SUFFIX)
#define keccak_sw_f1600      KV_CAT(keccak_sw_f1600, KV_SUFFIX)
#define keccak_sw_to_lanes   KV_CAT(keccak_sw_to_lanes, KV_SUFFIX)
#define keccak_sw_from_lanes KV_CAT(keccak_sw_from_lanes, KV_SUFFIX)

#include "../../libhash/swhash/keccak_sw.c"
