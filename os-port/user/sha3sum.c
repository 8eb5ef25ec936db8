/* SPDX-License-Identifier: MIT */
/* sha3sum: see uh_sum() in user/uhash.c and docs/hash-syscall.md */
#include "kernel/types.h"
#include "user/user.h"
#include "hashsoc/hash.h"

int main(int argc, char *argv[])
{
  exit(uh_sum(argc, argv, -1, 0, "sha3sum"));
}
