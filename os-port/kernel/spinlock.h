/* SPDX-License-Identifier: MIT */
#ifndef XV_SPINLOCK_H
#define XV_SPINLOCK_H
struct spinlock {
  uint locked;
  char *name;
  struct cpu *cpu;
};
#endif
