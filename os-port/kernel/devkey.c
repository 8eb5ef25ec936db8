/* SPDX-License-Identifier: MIT */
/*
 * The device key's fingerprint, printed once at boot (docs/integrity.md,
 * "The device key's life"): which key this board holds, so that a board
 * that rejects an image ("manifest rejected ... boot stopped") says whose
 * key it expects. The fingerprint is the first 8 bytes of the device key's
 * HMAC-SHA-256 of a fixed label, computed where the key is: on the engine
 * (what the hardware holds, not a constant of the build), in software with
 * the public stand-in on QEMU. The host prints the same 16 hex digits for
 * a key file: python3 -m gateware.devicekey --fingerprint.
 *
 * The label starts with no hex digit and has no newline, so its MAC is
 * never that of a manifest (whose lines start with 64 hex digits); and
 * only 8 of the MAC's 32 bytes are printed. The MAC is wiped before we
 * return.
 */
#include "types.h"
#include "param.h"
#include "riscv.h"
#include "spinlock.h"
#include "defs.h"
#include "khash.h"
#include "hashsoc/hash.h"
#include "hash_plat_kernel.h" /* HASH_PLAT_SW_DEVICE_KEY: QEMU's stand-in */

/* gateware/hashspec.py's DEVICE_KEY_FINGERPRINT_LABEL, as the host's */
static const char label[] = HASH_DEVICE_KEY_FINGERPRINT_LABEL;

#ifdef HASH_PLAT_SW_DEVICE_KEY
#define SWNOTE "public QEMU stand-in, INSECURE"
#else
#define SWNOTE 0 /* software has no device key here */
#endif

void devkey_print_fingerprint(void)
{
  static const char hexdigit[] = "0123456789abcdef";
  uint8_t mac[32];
  char fp[2 * HASH_DEVICE_KEY_FINGERPRINT_BYTES + 1];
  int hw = khash_engine_present(HASH_SHA256);
  const char *note = hw ? "engine" : SWNOTE;

  if (note == 0) {
    printf("devicekey: none (no SHA-256 engine)\n");
    return;
  }
  int r = hash_hmac(HASH_SHA256, hw ? HASH_PROV_HW : HASH_PROV_SW, HASH_F_DEVKEY, 0, 0, label,
      sizeof label - 1, mac, sizeof mac);
  if (r != (int)sizeof mac) {
    printf("devicekey: no fingerprint: the HMAC failed (%d, %s)\n", r, note);
  } else {
    for (int i = 0; i < HASH_DEVICE_KEY_FINGERPRINT_BYTES; i++) {
      fp[2 * i] = hexdigit[mac[i] >> 4];
      fp[2 * i + 1] = hexdigit[mac[i] & 15];
    }
    fp[2 * HASH_DEVICE_KEY_FINGERPRINT_BYTES] = 0;
    printf("devicekey: fingerprint %s (%s)\n", fp, note);
  }
  memset(mac, 0, sizeof mac);
}
