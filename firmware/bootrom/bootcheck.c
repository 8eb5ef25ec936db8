/* SPDX-License-Identifier: MIT */
/*
 * The ROM's check of a program before it runs (docs/integrity.md, "Verified boot").
 *
 * Every way LiteX's BIOS starts a program in main RAM (a serial boot, the simulator's and
 * the twins' preloaded RAM, flash, network, SD card) ends in boot(), which calls
 * boot_helper() to jump. The ROM is linked with --wrap=boot_helper (soc/bootrom.py), so that
 * call lands here: we check the signed header at main RAM base + BOOT_HEADER_OFFSET and the
 * image it names, and only then jump, to the header's entry point (not to the address the
 * BIOS was asked for: the header is what was signed). A failed check prints one line naming
 * what failed and stops: no jump. The ROM is part of the bitstream, so this code and the
 * minimum version (CONFIG_BOOT_MIN_VERSION) are as trusted as the gateware; the key never
 * leaves the engine, which computes the MAC. A verified image is then measured (measured
 * boot): its SHA-256 extends the measurement register before the jump.
 *
 * Nothing else runs while we check: one CPU, interrupts off (boot() turned them off), and the
 * engines' DMA only reads. So the words we copied and checked are the words the engine MACs
 * (we feed it our copy, not RAM), and the image the engine read is the image we jump into.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <generated/csr.h>
#include <generated/mem.h>
#include <generated/soc.h>

#include "hashsoc/hash.h"
#include HASH_PLAT /* the bare-metal shim: hash_plat_irq_wait, HASH_PLAT_SPIN_LIMIT */
#include "hashsoc/measure.h"

#define HEADER_ADDR   ((unsigned long)MAIN_RAM_BASE + BOOT_HEADER_OFFSET)
#define RAM_BASE      ((unsigned long)MAIN_RAM_BASE)
#define RAM_SIZE      ((unsigned long)MAIN_RAM_SIZE)
#define HEADER_SIGNED (4 * BOOT_HEADER_WORDS)

void __real_boot_helper(unsigned long r1, unsigned long r2, unsigned long r3, unsigned long addr);
void __wrap_boot_helper(unsigned long r1, unsigned long r2, unsigned long r3, unsigned long addr);

/* The driver's wait for an interrupt (hash_plat_baremetal.h): the ROM never asks for one
 * (no HASH_F_IRQ), but the driver links it. */
void hash_plat_irq_wait(int engine, volatile int *flag)
{
  (void)engine;
  for (uint32_t n = 0; !*flag && n < HASH_PLAT_SPIN_LIMIT; n++)
    ;
}

static void hex(char *out, const uint8_t *p, int n)
{
  static const char digit[] = "0123456789abcdef";
  for (int i = 0; i < n; i++) {
    out[2 * i] = digit[p[i] >> 4];
    out[2 * i + 1] = digit[p[i] & 15];
  }
  out[2 * n] = 0;
}

/* Which key this ROM's engine holds (gateware/devicekey.py has the host's side). */
static void print_fingerprint(void)
{
  static const char label[] = HASH_DEVICE_KEY_FINGERPRINT_LABEL;
  uint8_t mac[32];
  char fp[2 * HASH_DEVICE_KEY_FINGERPRINT_BYTES + 1];
  int r = hash_hmac(HASH_SHA256, HASH_PROV_HW, HASH_F_DEVKEY, 0, 0, label, sizeof label - 1, mac, sizeof mac);
  if (r == (int)sizeof mac) {
    hex(fp, mac, HASH_DEVICE_KEY_FINGERPRINT_BYTES);
    printf("bootrom: device key fingerprint %s\n", fp);
  } else {
    printf("bootrom: no device key fingerprint (HMAC error %d)\n", r);
  }
  memset(mac, 0, sizeof mac);
}

/* Does [a, a+n) lie in [base, base+size)? Without overflow, for any a and n. */
static int inside(uint32_t a, uint32_t n, uint32_t base, uint32_t size)
{
  return a >= base && a - base <= size && n <= size - (a - base);
}

/* The header's checks, cheapest first; NULL when all hold. `why` gets the details. */
static const char *check_header(const uint32_t *w, char *why, int whylen)
{
  uint32_t len = w[BOOT_W_LENGTH], load = w[BOOT_W_LOAD], entry = w[BOOT_W_ENTRY];
  if (w[BOOT_W_MAGIC] != BOOT_MAGIC) {
    snprintf(why, whylen, "no signed image header at 0x%08lx (magic 0x%08lx)", HEADER_ADDR,
        (unsigned long)w[BOOT_W_MAGIC]);
    return "header";
  }
  if (w[BOOT_W_FORMAT] != BOOT_FORMAT) {
    snprintf(
        why, whylen, "header format %lu, this ROM reads %d", (unsigned long)w[BOOT_W_FORMAT], BOOT_FORMAT);
    return "header";
  }
  if (w[BOOT_W_FLAGS] != 0 || w[BOOT_W_RESERVED] != 0) {
    snprintf(why, whylen, "reserved header words are not 0");
    return "header";
  }
  if (len == 0 || !inside(load, len, RAM_BASE, RAM_SIZE)) {
    snprintf(why, whylen, "image 0x%08lx+%lu leaves main RAM 0x%08lx+%lu", (unsigned long)load,
        (unsigned long)len, RAM_BASE, RAM_SIZE);
    return "addresses";
  }
  if (!inside(entry, 4, load, len)) {
    snprintf(why, whylen, "entry 0x%08lx is outside the image 0x%08lx+%lu", (unsigned long)entry,
        (unsigned long)load, (unsigned long)len);
    return "addresses";
  }
  if (!(load + len <= HEADER_ADDR || load >= HEADER_ADDR + BOOT_HEADER_BYTES)) {
    snprintf(why, whylen, "image 0x%08lx+%lu overlaps its header at 0x%08lx", (unsigned long)load,
        (unsigned long)len, HEADER_ADDR);
    return "addresses";
  }
  if (w[BOOT_W_VERSION] < CONFIG_BOOT_MIN_VERSION) {
    snprintf(why, whylen, "image version %lu is older than this ROM's minimum %d",
        (unsigned long)w[BOOT_W_VERSION], CONFIG_BOOT_MIN_VERSION);
    return "version";
  }
  return 0;
}

/* The MAC of the header's words (our copy) and the image, on the engine under the device
 * key; compared in full whatever the first difference (no early exit). */
static const char *check_mac(const uint32_t *w, const uint8_t *mac, char *why, int whylen)
{
  struct hash_ctx c;
  uint8_t want[32];
  int r = hash_hmac_begin(&c, HASH_SHA256, HASH_PROV_HW, HASH_F_DEVKEY, 0, 0);
  if (r == 0)
    r = hash_update(&c, w, HEADER_SIGNED);
  if (r == 0)
    r = hash_update(&c, (const void *)(uintptr_t)w[BOOT_W_LOAD], w[BOOT_W_LENGTH]);
  if (r == 0)
    r = hash_final(&c, want, sizeof want);
  else
    hash_abort(&c);
  if (r != (int)sizeof want) {
    snprintf(why, whylen, "the engine failed (error %d)", r);
    return "MAC";
  }
  uint8_t diff = 0;
  for (int i = 0; i < BOOT_MAC_BYTES; i++)
    diff |= want[i] ^ mac[i];
  memset(want, 0, sizeof want);
  if (diff) {
    snprintf(why, whylen, "the image or its header was changed, or signed with another key");
    return "MAC";
  }
  return 0;
}

/* Measured boot: extend the measurement register with the image's SHA-256 (on the engine),
 * so that what runs next is on record before it runs. */
static const char *measure_image(const uint32_t *w, char *why, int whylen)
{
#ifndef CSR_MEASURE_BASE
  (void)w, (void)why, (void)whylen;
  printf("bootrom: no measurement register: nothing measured\n");
  return 0;
#endif
  uint8_t d[32], v[MEASURE_BYTES];
  char hx[2 * MEASURE_BYTES + 1];
  int r = hash_digest(
      HASH_SHA256, HASH_PROV_HW, 0, (const void *)(uintptr_t)w[BOOT_W_LOAD], w[BOOT_W_LENGTH], d, sizeof d);
  if (r != (int)sizeof d) {
    snprintf(why, whylen, "the engine failed to hash the image (error %d)", r);
    return "measure";
  }
  if (measure_extend(d) < 0 || (r = measure_read(v)) < 0) {
    snprintf(why, whylen, "the measurement register did not take the extend");
    return "measure";
  }
  hex(hx, d, sizeof d);
  printf("bootrom: image sha256 %s\n", hx);
  hex(hx, v, sizeof v);
  printf("bootrom: measurement %s (%d extend%s)\n", hx, r, r == 1 ? "" : "s");
  return 0;
}

static uint32_t now_low(void)
{
  timer0_uptime_latch_write(1);
  return (uint32_t)timer0_uptime_cycles_read();
}

void __wrap_boot_helper(unsigned long r1, unsigned long r2, unsigned long r3, unsigned long addr)
{
  uint32_t w[BOOT_HEADER_WORDS];
  uint8_t mac[BOOT_MAC_BYTES];
  char why[120];
  const char *failed;

  if (!(hash_probe() & (1 << HASH_ENGINE_SHA256))) {
    /* No engine, no device key: this SoC has nothing to root a check in. */
    printf("bootrom: no SHA-256 engine, so no device key: booting 0x%08lx UNCHECKED\n", addr);
    __real_boot_helper(r1, r2, r3, addr);
  }
  print_fingerprint();
  uint32_t t0 = now_low();
  memcpy(w, (const void *)HEADER_ADDR, sizeof w);
  memcpy(mac, (const uint8_t *)HEADER_ADDR + HEADER_SIGNED, sizeof mac);
  failed = check_header(w, why, sizeof why);
  if (!failed)
    failed = check_mac(w, mac, why, sizeof why);
  uint32_t t1 = now_low();
  if (!failed) {
    printf("bootrom: image 0x%08lx+%lu version %lu verified in %lu clocks, entry 0x%08lx\n",
        (unsigned long)w[BOOT_W_LOAD], (unsigned long)w[BOOT_W_LENGTH], (unsigned long)w[BOOT_W_VERSION],
        (unsigned long)(t1 - t0), (unsigned long)w[BOOT_W_ENTRY]);
    failed = measure_image(w, why, sizeof why);
  }
  if (failed) {
    printf("bootrom: REFUSED (%s): %s; no jump\n", failed, why);
    printf("bootrom: boot stopped; reset to try again\n");
#ifdef CSR_SIM_FINISH_BASE
    sim_finish_finish_write(1); /* litex_sim: nothing more will happen, end the run */
#endif
    for (;;)
      ;
  }
  __real_boot_helper(r1, r2, r3, w[BOOT_W_ENTRY]);
}
