/* SPDX-License-Identifier: MIT */
#ifndef XV_BUF_H
#define XV_BUF_H
/* A cached disk block (bio.c says which lock protects which field). */
struct buf {
  int valid; /* has data been read from disk? */
  uint dev;
  uint blockno;
  struct sleeplock lock; /* for data and valid */
  uint refcnt;           /* users + the log's pin; 0: may be recycled */
  struct buf *prev;      /* LRU list */
  struct buf *next;
  uchar data[BSIZE];
};
#endif
