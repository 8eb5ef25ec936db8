/* SPDX-License-Identifier: MIT */
#ifndef XV_SLEEPLOCK_H
#define XV_SLEEPLOCK_H
struct sleeplock {
  uint locked;
  struct spinlock lk;
  char *name;
  int pid;
};
#endif
