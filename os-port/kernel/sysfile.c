/* SPDX-License-Identifier: MIT */
/* File-system system calls: argument checking, then file.c / fs.c. */
#include "types.h"
#include "riscv.h"
#include "param.h"
#include "stat.h"
#include "spinlock.h"
#include "proc.h"
#include "fs.h"
#include "sleeplock.h"
#include "file.h"
#include "fcntl.h"
#include "memlayout.h"
#include "defs.h"
#include "khash.h"

/* fetch argument n as a file descriptor of the current process */
static int argfd(int n, int *pfd, struct file **pf)
{
  int fd;
  argint(n, &fd);
  if (fd < 0 || fd >= NOFILE)
    return -1;
  struct file *f = myproc()->ofile[fd];
  if (f == 0)
    return -1;
  if (pfd)
    *pfd = fd;
  if (pf)
    *pf = f;
  return 0;
}

static int fdalloc(struct file *f)
{
  struct proc *p = myproc();
  for (int fd = 0; fd < NOFILE; fd++) {
    if (p->ofile[fd] == 0) {
      p->ofile[fd] = f;
      return fd;
    }
  }
  return -1;
}

/* a user buffer [p, p+n) must not wrap and must lie below MAXUVA; the
 * pages themselves are checked by copyin/copyout */
static int argbuf(int np, int nn, uintptr *pp, int *pn)
{
  argaddr(np, pp);
  argint(nn, pn);
  if (*pn < 0)
    return -1;
  if (*pp + (uint)*pn < *pp || *pp + (uint)*pn > MAXUVA)
    return -1;
  return 0;
}

uint32 sys_dup(void)
{
  struct file *f;
  int fd;
  if (argfd(0, 0, &f) < 0)
    return -1;
  if ((fd = fdalloc(f)) < 0)
    return -1;
  filedup(f);
  return fd;
}

uint32 sys_read(void)
{
  struct file *f;
  uintptr p;
  int n;
  if (argbuf(1, 2, &p, &n) < 0 || argfd(0, 0, &f) < 0)
    return -1;
  return fileread(f, p, n);
}

uint32 sys_write(void)
{
  struct file *f;
  uintptr p;
  int n;
  if (argbuf(1, 2, &p, &n) < 0 || argfd(0, 0, &f) < 0)
    return -1;
  return filewrite(f, p, n);
}

uint32 sys_close(void)
{
  int fd;
  struct file *f;
  if (argfd(0, &fd, &f) < 0)
    return -1;
  myproc()->ofile[fd] = 0;
  fileclose(f);
  return 0;
}

uint32 sys_fstat(void)
{
  struct file *f;
  uintptr st;
  argaddr(1, &st);
  if (argfd(0, 0, &f) < 0)
    return -1;
  return filestat(f, st);
}

/* create the path new as a link to the same inode as old */
uint32 sys_link(void)
{
  char name[DIRSIZ], new[MAXPATH], old[MAXPATH];
  struct inode *dp, *ip;
  if (argstr(0, old, MAXPATH) < 0 || argstr(1, new, MAXPATH) < 0)
    return -1;
  begin_op();
  if ((ip = namei(old)) == 0) {
    end_op();
    return -1;
  }
  ilock(ip);
  if (ip->type == T_DIR) {
    iunlockput(ip);
    end_op();
    return -1;
  }
  ip->nlink++;
  iupdate(ip);
  iunlock(ip);
  if ((dp = nameiparent(new, name)) == 0)
    goto bad;
  ilock(dp);
  if (dp->dev != ip->dev || dirlink(dp, name, ip->inum) < 0) {
    iunlockput(dp);
    goto bad;
  }
  iunlockput(dp);
  iput(ip);
  end_op();
  return 0;
bad:
  ilock(ip);
  ip->nlink--;
  iupdate(ip);
  iunlockput(ip);
  end_op();
  return -1;
}

/* is the directory dp empty except for "." and ".."? */
static int isdirempty(struct inode *dp)
{
  struct dirent de;
  for (uint off = 2 * sizeof(de); off < dp->size; off += sizeof(de)) {
    if (readi(dp, 0, (uintptr)&de, off, sizeof(de)) != sizeof(de))
      return 0; /* a block bmap() refused (fs.c): not known to be empty */
    if (de.inum != 0)
      return 0;
  }
  return 1;
}

uint32 sys_unlink(void)
{
  struct inode *ip, *dp;
  struct dirent de;
  char name[DIRSIZ], path[MAXPATH];
  uint off;
  if (argstr(0, path, MAXPATH) < 0)
    return -1;
  begin_op();
  if ((dp = nameiparent(path, name)) == 0) {
    end_op();
    return -1;
  }
  ilock(dp);
  if (namecmp(name, ".") == 0 || namecmp(name, "..") == 0)
    goto bad;
  if ((ip = dirlookup(dp, name, &off)) == 0)
    goto bad;
  ilock(ip);
  if (ip->nlink < 1)
    panic("unlink: nlink < 1");
  if (ip->type == T_DIR && !isdirempty(ip)) {
    iunlockput(ip);
    goto bad;
  }
  memset(&de, 0, sizeof(de));
  if (writei(dp, 0, (uintptr)&de, off, sizeof(de)) != sizeof(de))
    panic("unlink: writei");
  if (ip->type == T_DIR) {
    dp->nlink--; /* the child's ".." */
    iupdate(dp);
  }
  iunlockput(dp);
  ip->nlink--;
  iupdate(ip);
  iunlockput(ip);
  end_op();
  return 0;
bad:
  iunlockput(dp);
  end_op();
  return -1;
}

/* create an inode of the given type at path; returns it locked */
static struct inode *create(char *path, short type, short major, short minor)
{
  struct inode *ip, *dp;
  char name[DIRSIZ];
  if ((dp = nameiparent(path, name)) == 0)
    return 0;
  ilock(dp);
  if ((ip = dirlookup(dp, name, 0)) != 0) {
    iunlockput(dp);
    ilock(ip);
    if (type == T_FILE && (ip->type == T_FILE || ip->type == T_DEVICE))
      return ip;
    iunlockput(ip);
    return 0;
  }
  if ((ip = ialloc(dp->dev, type)) == 0) {
    iunlockput(dp);
    return 0;
  }
  ilock(ip);
  ip->major = major;
  ip->minor = minor;
  ip->nlink = 1;
  iupdate(ip);
  if (type == T_DIR) {
    if (dirlink(ip, ".", ip->inum) < 0 || dirlink(ip, "..", dp->inum) < 0)
      goto fail;
  }
  if (dirlink(dp, name, ip->inum) < 0)
    goto fail;
  if (type == T_DIR) {
    dp->nlink++; /* for the child's ".." */
    iupdate(dp);
  }
  iunlockput(dp);
  return ip;
fail:
  ip->nlink = 0; /* iput frees it */
  iupdate(ip);
  iunlockput(ip);
  iunlockput(dp);
  return 0;
}

uint32 sys_open(void)
{
  char path[MAXPATH];
  int fd, omode;
  struct file *f;
  struct inode *ip;
  argint(1, &omode);
  if (argstr(0, path, MAXPATH) < 0)
    return -1;
  begin_op();
  if (omode & O_CREATE) {
    ip = create(path, T_FILE, 0, 0);
    if (ip == 0) {
      end_op();
      return -1;
    }
  } else {
    if ((ip = namei(path)) == 0) {
      end_op();
      return -1;
    }
    ilock(ip);
    if (ip->type == T_DIR && omode != O_RDONLY) {
      iunlockput(ip);
      end_op();
      return -1;
    }
  }
  if (ip->type == T_DEVICE && (ip->major < 0 || ip->major >= NDEV)) {
    iunlockput(ip);
    end_op();
    return -1;
  }
  if ((f = filealloc()) == 0 || (fd = fdalloc(f)) < 0) {
    if (f)
      fileclose(f);
    iunlockput(ip);
    end_op();
    return -1;
  }
  if (ip->type == T_DEVICE) {
    f->type = FD_DEVICE;
    f->major = ip->major;
  } else {
    f->type = FD_INODE;
    f->off = 0;
  }
  f->ip = ip;
  f->readable = !(omode & O_WRONLY);
  f->writable = (omode & O_WRONLY) || (omode & O_RDWR);
  if ((omode & O_TRUNC) && ip->type == T_FILE)
    itrunc(ip);
  iunlock(ip);
  end_op();
  return fd;
}

uint32 sys_mkdir(void)
{
  char path[MAXPATH];
  struct inode *ip;
  begin_op();
  if (argstr(0, path, MAXPATH) < 0 || (ip = create(path, T_DIR, 0, 0)) == 0) {
    end_op();
    return -1;
  }
  iunlockput(ip);
  end_op();
  return 0;
}

uint32 sys_mknod(void)
{
  struct inode *ip;
  char path[MAXPATH];
  int major, minor;
  begin_op();
  argint(1, &major);
  argint(2, &minor);
  if (argstr(0, path, MAXPATH) < 0 || (ip = create(path, T_DEVICE, major, minor)) == 0) {
    end_op();
    return -1;
  }
  iunlockput(ip);
  end_op();
  return 0;
}

uint32 sys_chdir(void)
{
  char path[MAXPATH];
  struct inode *ip;
  struct proc *p = myproc();
  begin_op();
  if (argstr(0, path, MAXPATH) < 0 || (ip = namei(path)) == 0) {
    end_op();
    return -1;
  }
  ilock(ip);
  if (ip->type != T_DIR) {
    iunlockput(ip);
    end_op();
    return -1;
  }
  iunlock(ip);
  iput(p->cwd);
  end_op();
  p->cwd = ip;
  return 0;
}

uint32 sys_exec(void)
{
  char path[MAXPATH], *argv[MAXARG];
  uintptr uargv, uarg;
  int i, ret = -1;
  argaddr(1, &uargv);
  if (argstr(0, path, MAXPATH) < 0)
    return -1;
  memset(argv, 0, sizeof(argv));
  for (i = 0;; i++) {
    if (i >= MAXARG)
      goto out;
    if (fetchaddr(uargv + sizeof(uintptr) * i, &uarg) < 0)
      goto out;
    if (uarg == 0) {
      argv[i] = 0;
      break;
    }
    if ((argv[i] = kalloc()) == 0)
      goto out;
    if (fetchstr(uarg, argv[i], PGSIZE) < 0)
      goto out;
  }
  ret = exec(path, argv);
out:
  for (i = 0; i < MAXARG && argv[i] != 0; i++)
    kfree(argv[i]);
  return ret;
}

uint32 sys_pipe(void)
{
  uintptr fdarray;
  struct file *rf, *wf;
  int fd0, fd1;
  struct proc *p = myproc();
  argaddr(0, &fdarray);
  if (pipealloc(&rf, &wf) < 0)
    return -1;
  fd0 = -1;
  if ((fd0 = fdalloc(rf)) < 0 || (fd1 = fdalloc(wf)) < 0) {
    if (fd0 >= 0)
      p->ofile[fd0] = 0;
    fileclose(rf);
    fileclose(wf);
    return -1;
  }
  if (copyout(p->pagetable, fdarray, &fd0, sizeof(fd0)) < 0 ||
      copyout(p->pagetable, fdarray + sizeof(fd0), &fd1, sizeof(fd1)) < 0) {
    p->ofile[fd0] = 0;
    p->ofile[fd1] = 0;
    fileclose(rf);
    fileclose(wf);
    return -1;
  }
  return 0;
}

/* hashopen(alg, provider): a hash context as a file descriptor (hashfile.c) */
uint32 sys_hashopen(void)
{
  int alg, prov, fd;
  struct file *f;
  argint(0, &alg);
  argint(1, &prov);
  if ((f = filealloc()) == 0)
    return -1;
  if (khash_open(alg, prov, f) < 0) {
    fileclose(f); /* still FD_NONE: just drops the reference */
    return -1;
  }
  if ((fd = fdalloc(f)) < 0) {
    fileclose(f); /* aborts the new context */
    return -1;
  }
  return fd;
}
