/* SPDX-License-Identifier: MIT */
#include "kernel/types.h"
#include "user/user.h"

int main(int argc, char *argv[])
{
  if (argc < 2) {
    fprintf(2, "usage: mkdir files...\n");
    exit(1);
  }
  for (int i = 1; i < argc; i++) {
    if (mkdir(argv[i]) < 0) {
      fprintf(2, "mkdir: %s failed to create\n", argv[i]);
      exit(1);
    }
  }
  exit(0);
}
