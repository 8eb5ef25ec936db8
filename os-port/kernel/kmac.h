/* SPDX-License-Identifier: MIT */
/* kmac()'s key and customization (user/user.h, kernel/khash.c): one struct, so that
 * the call fits the seven argument registers. */
#ifndef XV_KMAC_H
#define XV_KMAC_H
#define KMAC_XOF        0x1 /* flags: KMACXOF, the output's length not bound in */
#define KMAC_CUSTOM_MAX 128 /* the longest customization string kmac() takes */
struct kmac_key {
  const void *key; /* key[0..keylen), keylen <= 256 (KHASH_HMAC_KEY_MAX) */
  uint keylen;
  const void *custom; /* the customization string S, custom[0..customlen) */
  uint customlen;
  uint flags;
};
#endif
