/* SPDX-License-Identifier: MIT */
/* ELF32 headers */
#ifndef XV_ELF_H
#define XV_ELF_H
#define ELF_MAGIC 0x464C457FU /* "\x7FELF" little endian */
struct elfhdr {
  uint magic;
  uchar elf[12];
  ushort type;
  ushort machine;
  uint version;
  uint32 entry;
  uint32 phoff;
  uint32 shoff;
  uint flags;
  ushort ehsize;
  ushort phentsize;
  ushort phnum;
  ushort shentsize;
  ushort shnum;
  ushort shstrndx;
};
struct proghdr { /* ELF32 program header: note the field order */
  uint32 type;
  uint32 off;
  uint32 vaddr;
  uint32 paddr;
  uint32 filesz;
  uint32 memsz;
  uint32 flags;
  uint32 align;
};
#define ELF_PROG_LOAD       1
#define ELF_PROG_FLAG_EXEC  1
#define ELF_PROG_FLAG_WRITE 2
#define ELF_PROG_FLAG_READ  4
#endif
