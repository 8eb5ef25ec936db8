/* SPDX-License-Identifier: MIT */
/* leave a zombie for init to reap */
#include "kernel/types.h"
#include "user/user.h"

int main(void)
{
  if (fork() > 0)
    sleep(5); /* the child exits first and stays a zombie until we do */
  exit(0);
}
