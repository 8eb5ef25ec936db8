/* SPDX-License-Identifier: MIT */
/*
 * What the self-test's and the benchmark's files share (the firmware's default program,
 * APP=main): the message buffer, the paths, the row printers and the groups. main.c says
 * what the rows mean.
 */
#ifndef FWTEST_H
#define FWTEST_H

#include <stdio.h>
#include <string.h>

#include <generated/csr.h>
#include <generated/mem.h>
#include <generated/soc.h>
#include <system.h>

#include "hashsoc/hash.h"
#include "hashsoc/hash_regs.h" /* HBIT: the refusal checks write registers directly */
#include "board.h"

/* The "pat" message (pattern()), at least 64 KiB, and scratch for outputs. */
#define MAXLEN 65536
extern uint8_t msgbuf[MAXLEN + 8];
extern uint8_t out[512], ref[512];
/* Pieces of a scattered message (t_lists.c, bench.c's "sg" rows). */
#define N_SEGS 1500
extern struct hash_seg segs[N_SEGS];
/* The self-test's tally (check(), and the groups that compare digests themselves). */
extern int passed, failed;

/* Paths: software; the engine fed by CPU stores, by DMA (whatever the length), by DMA
 * with an interrupt wait; "auto" = the driver's choice (short messages by its short path,
 * others by DMA): the self-test covers the first four, the latency rows all five. */
extern const char *const path_name[5];
extern const int path_prov[5], path_flags[5];

void pattern(uint8_t *p, size_t n);
void hex(const uint8_t *p, int n);
void check(const char *what, int got, int want);
int have_engine(int alg);
void t_row(int alg, const char *path, const char *msg, size_t len, int off, size_t outlen, int r);

/* The groups, in the order main.c runs them. */
void known_answers(void); /* t_digest.c */
void digests(void);
void interleaved_contexts(void);
void error_paths(void); /* t_errors.c */
void hmac_rows(void);   /* t_keyed.c */
void sp800185_rows(void);
void scattered(void); /* t_lists.c */
void in_place_lists(void);
void sg_refusals(void);
void coherence(void); /* t_memory.c */
void every_mib(void);
void bench(void); /* bench.c */

#endif
