/* SPDX-License-Identifier: MIT */
/* grind [rounds]: random file-system and process system calls from a
 * few concurrent processes, to shake out races and leaks. */
#include "kernel/types.h"
#include "kernel/fcntl.h"
#include "user/user.h"

static uint32 seed;
static uint32 rnd(void)
{
  seed = seed * 1103515245 + 12345;
  return seed >> 8;
}

static void worker(int id, int rounds)
{
  char name[4] = { 'g', 'a' + id, '0', 0 };
  char data[100];
  int fd = -1;
  seed = 7 + id * 31;
  for (int i = 0; i < rounds; i++) {
    name[2] = '0' + rnd() % 4;
    switch (rnd() % 10) {
    case 0:
      if (fd >= 0)
        close(fd);
      fd = open(name, O_CREATE | O_RDWR);
      break;
    case 1:
      if (fd >= 0)
        write(fd, data, rnd() % sizeof(data));
      break;
    case 2:
      if (fd >= 0)
        read(fd, data, sizeof(data));
      break;
    case 3:
      unlink(name);
      break;
    case 4:
      mkdir(name);
      break;
    case 5: {
      int p[2];
      if (pipe(p) == 0) {
        write(p[1], "x", 1);
        read(p[0], data, 1);
        close(p[0]);
        close(p[1]);
      }
      break;
    }
    case 6: {
      int pid = fork();
      if (pid == 0)
        exit(0);
      if (pid > 0)
        wait(0);
      break;
    }
    case 7: {
      char *m = sbrk(4096);
      if (m != (char *)-1) {
        m[0] = 1;
        sbrk(-4096);
      }
      break;
    }
    case 8:
      link(name, "gz");
      unlink("gz");
      break;
    case 9:
      if (fd >= 0) {
        close(fd);
        fd = -1;
      }
      break;
    }
  }
  if (fd >= 0)
    close(fd);
  for (int k = 0; k < 4; k++) {
    name[2] = '0' + k;
    unlink(name);
  }
  exit(0);
}

int main(int argc, char *argv[])
{
  int rounds = argc > 1 ? atoi(argv[1]) : 2000;
  for (int id = 0; id < 4; id++)
    if (fork() == 0)
      worker(id, rounds);
  int bad = 0;
  for (int id = 0; id < 4; id++) {
    int st;
    if (wait(&st) < 0 || st != 0)
      bad++;
  }
  printf(bad ? "grind: FAILED\n" : "grind: OK\n");
  exit(bad != 0);
}
