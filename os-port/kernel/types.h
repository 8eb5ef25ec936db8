/* SPDX-License-Identifier: MIT */
/* Basic fixed-width types for the RV32 port.  Everything that holds an
 * address is a uintptr (32 bits here); uint64 is only used for values
 * that really are 64-bit (the time counter, 64-bit divisions). */
#ifndef XV_TYPES_H
#define XV_TYPES_H
typedef unsigned int uint;
typedef unsigned short ushort;
typedef unsigned char uchar;
typedef unsigned char uint8;
typedef unsigned short uint16;
typedef unsigned int uint32;
typedef int int32;
typedef unsigned long long uint64;
typedef long long int64;
typedef uint32 uintptr;
typedef uint32 pte_t;        /* Sv32 page-table entry */
typedef uint32 *pagetable_t; /* 1024 PTEs in one page */
#endif
