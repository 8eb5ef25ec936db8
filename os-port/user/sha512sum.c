/* SPDX-License-Identifier: MIT */
/* sha512sum: see uh_sum() in user/uhash.c and docs/hash-syscall.md */
#include "kernel/types.h"
#include "user/user.h"
#include "hashsoc/hash.h"

int main(int argc, char *argv[])
{
  exit(uh_sum(argc, argv, HASH_SHA512, 0, "sha512sum"));
}
