/* SPDX-License-Identifier: MIT */
/* several processes write and read files at the same time */
#include "kernel/types.h"
#include "kernel/stat.h"
#include "kernel/fcntl.h"
#include "user/user.h"

int main(void)
{
  int fd, i;
  char path[] = "stressfs0";
  char data[512];
  printf("stressfs starting\n");
  memset(data, 'a', sizeof(data));
  for (i = 0; i < 4; i++)
    if (fork() > 0)
      break;
  printf("write %d\n", i);
  path[8] += i;
  fd = open(path, O_CREATE | O_RDWR);
  for (int k = 0; k < 20; k++)
    write(fd, data, sizeof(data));
  close(fd);
  printf("read\n");
  fd = open(path, O_RDONLY);
  for (int k = 0; k < 20; k++)
    read(fd, data, sizeof(data));
  close(fd);
  unlink(path);
  wait(0);
  exit(0);
}
