#ifndef XV_BUF_H
#define XV_BUF_H
struct buf {
  int valid; /* has data been read from disk? */
  uint dev;
  uint blockno;
  struct sleeplock lock;
  uint refcnt;
  struct buf *prev; /* LRU list */
  struct buf *next;
  uchar data[BSIZE];
};
#endif
