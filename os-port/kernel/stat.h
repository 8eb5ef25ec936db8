/* SPDX-License-Identifier: MIT */
#ifndef XV_STAT_H
#define XV_STAT_H
#define T_DIR    1
#define T_FILE   2
#define T_DEVICE 3
struct stat {
  int dev;
  uint ino;
  short type;
  short nlink;
  uint size; /* 32-bit: files are far below 4 GiB */
};
#endif
