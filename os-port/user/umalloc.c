/* SPDX-License-Identifier: MIT */
/* First-fit allocator over sbrk(), with a circular free list sorted by
 * address (in the style of K&R's). */
#include "kernel/types.h"
#include "user/user.h"

typedef union header {
  struct {
    union header *next;
    uint size; /* in units of sizeof(Header), including the header */
  } s;
  uint64 align;
} Header;

static Header base;
static Header *freep;

void free(void *ap)
{
  if (ap == 0)
    return;
  Header *bp = (Header *)ap - 1, *p;
  for (p = freep; !(bp > p && bp < p->s.next); p = p->s.next)
    if (p >= p->s.next && (bp > p || bp < p->s.next))
      break; /* at either end of the arena */
  if (bp + bp->s.size == p->s.next) {
    bp->s.size += p->s.next->s.size;
    bp->s.next = p->s.next->s.next;
  } else {
    bp->s.next = p->s.next;
  }
  if (p + p->s.size == bp) {
    p->s.size += bp->s.size;
    p->s.next = bp->s.next;
  } else {
    p->s.next = bp;
  }
  freep = p;
}

static Header *morecore(uint nu)
{
  if (nu < 4096)
    nu = 4096;
  if (nu > 0x7fffffff / sizeof(Header))
    return 0;
  char *p = sbrk(nu * sizeof(Header));
  if (p == (char *)-1)
    return 0;
  Header *hp = (Header *)p;
  hp->s.size = nu;
  free((void *)(hp + 1));
  return freep;
}

void *malloc(uint nbytes)
{
  Header *p, *prevp;
  uint nunits = (nbytes + sizeof(Header) - 1) / sizeof(Header) + 1;
  if ((prevp = freep) == 0) {
    base.s.next = freep = prevp = &base;
    base.s.size = 0;
  }
  for (p = prevp->s.next;; prevp = p, p = p->s.next) {
    if (p->s.size >= nunits) {
      if (p->s.size == nunits) {
        prevp->s.next = p->s.next;
      } else {
        p->s.size -= nunits;
        p += p->s.size;
        p->s.size = nunits;
      }
      freep = prevp;
      return (void *)(p + 1);
    }
    if (p == freep)
      if ((p = morecore(nunits)) == 0)
        return 0;
  }
}
