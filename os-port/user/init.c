/* SPDX-License-Identifier: MIT */
/* init: the first user program.  Sets up the console as fd 0/1/2 and
 * keeps a shell running; also reaps orphaned processes. */
#include "kernel/types.h"
#include "kernel/stat.h"
#define CONSOLE 1 /* major device number of the console (kernel/file.h) */
#include "kernel/fcntl.h"
#include "user/user.h"

static char *argv[] = { "sh", 0 };

int main(void)
{
  uint64 t0 = rdtime64(); /* time since reset: the boot, up to here */
  if (open("console", O_RDWR) < 0) {
    mknod("console", CONSOLE, 0);
    open("console", O_RDWR);
  }
  dup(0); /* stdout */
  dup(0); /* stderr */
  printf("init: booted in %llu clocks\n", t0);
  for (;;) {
    printf("init: starting sh\n");
    int pid = fork();
    if (pid < 0) {
      printf("init: fork failed\n");
      exit(1);
    }
    if (pid == 0) {
      exec("sh", argv);
      printf("init: exec sh failed\n");
      exit(1);
    }
    for (;;) {
      int w = wait(0);
      if (w == pid)
        break; /* the shell exited: start another */
      if (w < 0) {
        printf("init: wait returned an error\n");
        exit(1);
      }
      /* a parentless process exited: nothing to do */
    }
  }
}
