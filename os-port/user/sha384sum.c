/* SPDX-License-Identifier: MIT */
/* sha384sum: see uh_sum() in user/uhash.c and docs/hash-syscall.md */
#include "kernel/types.h"
#include "user/user.h"
#include "hashsoc/hash.h"

int main(int argc, char *argv[])
{
  exit(uh_sum(argc, argv, HASH_SHA384, 0, "sha384sum"));
}
