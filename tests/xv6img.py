# SPDX-License-Identifier: MIT
"""An xv6 file-system image (os-port/kernel/fs.h's format) read and edited on the host,
as an attacker who owns the image before boot would edit it: the tests of the integrity
manifest (tests/test_xv6_integrity.py) use it to build images whose metadata lie.

    img = Image(open("fs.img", "rb").read())
    img.files()                     {name: bytes} of the root directory's regular files
    img.blocks(inum)                the data blocks of an inode, in file order
    img.set_inode(inum, size=..., addrs=[...])
    img.set_used(b, False)          a block's bit in the free bitmap
    bytes(img)                      the edited image
"""
import struct

BSIZE = 1024
NDIRECT = 12
NINDIRECT = BSIZE // 4
DINODE = 64                     # bytes of a struct dinode
T_DIR, T_FILE = 1, 2


class Image:
    def __init__(self, data):
        self.data = bytearray(data)
        (self.magic, self.size, self.nblocks, self.ninodes, self.nlog, self.logstart,
         self.inodestart, self.bmapstart, self.nimage) = struct.unpack_from("<9I", self.data, BSIZE)
        assert self.magic == 0x10203040, "not an xv6 file system"

    def __bytes__(self):
        return bytes(self.data)

    def block(self, b):
        return bytes(self.data[b * BSIZE:(b + 1) * BSIZE])

    # ---- inodes ----

    def _ioff(self, inum):
        return self.inodestart * BSIZE + inum * DINODE

    def inode(self, inum):
        """{type, nlink, size, addrs} of a dinode (addrs: NDIRECT + 1 words)."""
        off = self._ioff(inum)
        typ, _, _, nlink, size = struct.unpack_from("<4hI", self.data, off)
        addrs = list(struct.unpack_from(f"<{NDIRECT + 1}I", self.data, off + 12))
        return {"type": typ, "nlink": nlink, "size": size, "addrs": addrs}

    def set_inode(self, inum, size=None, addrs=None):
        off = self._ioff(inum)
        if size is not None:
            struct.pack_into("<I", self.data, off + 8, size)
        if addrs is not None:
            assert len(addrs) == NDIRECT + 1
            struct.pack_into(f"<{NDIRECT + 1}I", self.data, off + 12, *addrs)

    def blocks(self, inum):
        """The data blocks of an inode, in file order (its indirect block not included)."""
        ino = self.inode(inum)
        blocks = ino["addrs"][:NDIRECT]
        if ino["addrs"][NDIRECT]:
            blocks += struct.unpack_from(f"<{NINDIRECT}I", self.data, ino["addrs"][NDIRECT] * BSIZE)
        n = (ino["size"] + BSIZE - 1) // BSIZE
        return list(blocks[:n])

    def read(self, inum):
        data = b"".join(self.block(b) for b in self.blocks(inum))
        return data[:self.inode(inum)["size"]]

    # ---- the root directory ----

    def entries(self):
        """{name: inum} of the root directory, '.' and '..' left out."""
        root = self.read(1)
        out = {}
        for i in range(0, len(root), 16):
            inum, name = struct.unpack_from("<H14s", root, i)
            name = name.rstrip(b"\0").decode()
            if inum and name not in (".", ".."):
                out[name] = inum
        return out

    def inum(self, name):
        return self.entries()[name]

    def files(self):
        """{name: bytes} of the root directory's regular files, in directory order."""
        return {n: self.read(i) for n, i in self.entries().items() if self.inode(i)["type"] == T_FILE}

    # ---- the free bitmap ----

    def _bit(self, b):
        """the byte of block b's bit in the bitmap, and the bit"""
        bpb = BSIZE * 8
        return (self.bmapstart + b // bpb) * BSIZE + b % bpb // 8, b % 8

    def used(self, b):
        byte, bit = self._bit(b)
        return bool(self.data[byte] >> bit & 1)

    def set_used(self, b, used):
        byte, bit = self._bit(b)
        if used:
            self.data[byte] |= 1 << bit
        else:
            self.data[byte] &= ~(1 << bit) & 0xFF
