/* SPDX-License-Identifier: MIT */
#include "kernel/types.h"
#include "kernel/stat.h"
#include "kernel/fs.h"
#include "kernel/fcntl.h"
#include "user/user.h"

/* the last path element, padded to DIRSIZ */
static char *fmtname(char *path)
{
  static char buf[DIRSIZ + 1];
  char *p;
  for (p = path + strlen(path); p >= path && *p != '/'; p--)
    ;
  p++;
  int n = strlen(p);
  if (n >= DIRSIZ)
    return p;
  memmove(buf, p, n);
  memset(buf + n, ' ', DIRSIZ - n);
  buf[DIRSIZ] = 0;
  return buf;
}

static void ls(char *path)
{
  char buf[512], *p;
  struct dirent de;
  struct stat st;
  int fd = open(path, O_RDONLY);
  if (fd < 0) {
    fprintf(2, "ls: cannot open %s\n", path);
    return;
  }
  if (fstat(fd, &st) < 0) {
    fprintf(2, "ls: cannot stat %s\n", path);
    close(fd);
    return;
  }
  switch (st.type) {
  case T_DEVICE:
  case T_FILE:
    printf("%s %d %d %d\n", fmtname(path), st.type, st.ino, st.size);
    break;
  case T_DIR:
    if (strlen(path) + 1 + DIRSIZ + 1 > sizeof(buf)) {
      printf("ls: path too long\n");
      break;
    }
    strcpy(buf, path);
    p = buf + strlen(buf);
    *p++ = '/';
    while (read(fd, &de, sizeof(de)) == sizeof(de)) {
      if (de.inum == 0)
        continue;
      memmove(p, de.name, DIRSIZ);
      p[DIRSIZ] = 0;
      if (stat(buf, &st) < 0) {
        printf("ls: cannot stat %s\n", buf);
        continue;
      }
      printf("%s %d %d %d\n", fmtname(buf), st.type, st.ino, st.size);
    }
    break;
  }
  close(fd);
}

int main(int argc, char *argv[])
{
  if (argc < 2) {
    ls(".");
    exit(0);
  }
  for (int i = 1; i < argc; i++)
    ls(argv[i]);
  exit(0);
}
