# SPDX-License-Identifier: MIT
"""The engines' cores in plain Python, with their state open: SHA-2 compression and
Keccak-f[1600], each with the context-word layout of docs/engine-interface.md.

hashlib cannot be used here: a context export must show the state after the blocks
absorbed so far, and an import must set it. The constants are the gateware's own
(gateware/sha2/constants.py and core.py, gateware/keccak/core.py: derived there as the
standards define them); the tests check every output against hashlib and pycryptodome,
never against this module.
"""

from gateware.keccak.core import RHO_OFFSETS, ROUND_CONSTANTS
from gateware.sha2.constants import IV
from gateware.sha2.core import FAMILIES

M32 = 0xFFFFFFFF
M64 = (1 << 64) - 1


def bswap32(x):
    return int.from_bytes(x.to_bytes(4, "little"), "big")


class Sha2:
    """One SHA-2 message: H, the byte count, compression of whole blocks, padding.

    Context words (engine-interface.md): H0..H7, each 32-bit part of a word byte-swapped,
    the high part first (memory order = digest order), then the byte count low, high."""

    def __init__(self, family, alg_key):
        self.fam = FAMILIES[family]
        self.w = self.fam.word
        self.mask = (1 << self.w) - 1
        self.block = 16 * self.w // 8
        self.parts = self.fam.parts
        self.h = list(IV[alg_key])
        self.count = 0

    def compress(self, block):
        """FIPS 180-4 6.2.2 / 6.4.2 on one block. (Rotations written out: with the
        Keccak permutation, this is most of the host tests' time.)"""
        assert len(block) == self.block
        f, mask, ww, nb = self.fam, self.mask, self.w, self.w // 8
        w = [int.from_bytes(block[i:i + nb], "big") for i in range(0, self.block, nb)]
        (p, q, s), (u, v, t) = f.sigma0, f.sigma1
        for i in range(16, f.rounds):
            a, b = w[i - 15], w[i - 2]
            s0 = (a >> p | a << (ww - p)) ^ (a >> q | a << (ww - q)) ^ (a >> s)
            s1 = (b >> u | b << (ww - u)) ^ (b >> v | b << (ww - v)) ^ (b >> t)
            w.append((w[i - 16] + s0 + w[i - 7] + s1) & mask)
        (p, q, r), (u, v, x) = f.Sigma0, f.Sigma1
        a, b, c, d, e, ff, g, h = self.h
        for k, wt in zip(f.K, w):
            S1 = ((e >> u | e << (ww - u)) ^ (e >> v | e << (ww - v)) ^ (e >> x | e << (ww - x))) & mask
            t1 = h + S1 + ((e & ff) ^ (~e & g)) + k + wt
            S0 = ((a >> p | a << (ww - p)) ^ (a >> q | a << (ww - q)) ^ (a >> r | a << (ww - r))) & mask
            t2 = S0 + ((a & b) ^ (a & c) ^ (b & c))
            a, b, c, d, e, ff, g, h = (t1 + t2) & mask, a, b, c, (d + t1) & mask, e, ff, g
        self.h = [(y + z) & mask for y, z in zip(self.h, (a, b, c, d, e, ff, g, h))]
        self.count += self.block

    def finish(self, tail):
        """Pad the last < block bytes (FIPS 180-4 5.1) and compress: H is the digest."""
        bits = 8 * (self.count + len(tail))
        lenbytes = 2 * self.w // 8
        m = tail + b"\x80"
        m += bytes(-(len(m) + lenbytes) % self.block) + bits.to_bytes(lenbytes, "big")
        for i in range(0, len(m), self.block):
            self.compress(m[i:i + self.block])
        self.count = bits // 8

    def digest(self):
        return b"".join(x.to_bytes(self.w // 8, "big") for x in self.h)

    def words(self):
        out = []
        for x in self.h:
            for p in reversed(range(self.parts)):
                out.append(bswap32(x >> (32 * p) & M32))
        return out + [self.count & M32, self.count >> 32 & M32]

    def set_word(self, i, v):
        n = 8 * self.parts
        if i < n:
            k, p = divmod(i, self.parts)
            shift = 32 * (self.parts - 1 - p)
            self.h[k] = (self.h[k] & ~(M32 << shift)) | bswap32(v) << shift
        elif i == n:
            self.count = (self.count & ~M32) | v
        elif i == n + 1:
            self.count = (self.count & M32) | v << 32


# rho and pi as one move per lane: lane x + 5y goes, rotated left by r, to lane
# y + 5 (2x + 3y); (src, dst, r, 64 - r) for the loop below.
_RHO_PI = [(x + 5 * y, y + 5 * ((2 * x + 3 * y) % 5), RHO_OFFSETS[x][y] % 64, 64 - RHO_OFFSETS[x][y] % 64)
           for x in range(5) for y in range(5)]


def keccak_f(a):
    """Keccak-f[1600] on 25 lanes (lane x + 5y), in place. (Rotations written out: this
    loop is most of the host tests' time.)"""
    b = [0] * 25
    for rc in ROUND_CONSTANTS:
        c0 = a[0] ^ a[5] ^ a[10] ^ a[15] ^ a[20]
        c1 = a[1] ^ a[6] ^ a[11] ^ a[16] ^ a[21]
        c2 = a[2] ^ a[7] ^ a[12] ^ a[17] ^ a[22]
        c3 = a[3] ^ a[8] ^ a[13] ^ a[18] ^ a[23]
        c4 = a[4] ^ a[9] ^ a[14] ^ a[19] ^ a[24]
        d = (c4 ^ ((c1 << 1 | c1 >> 63) & M64), c0 ^ ((c2 << 1 | c2 >> 63) & M64),
             c1 ^ ((c3 << 1 | c3 >> 63) & M64), c2 ^ ((c4 << 1 | c4 >> 63) & M64),
             c3 ^ ((c0 << 1 | c0 >> 63) & M64))
        for src, dst, r, rr in _RHO_PI:
            v = a[src] ^ d[src % 5]
            b[dst] = (v << r | v >> rr) & M64
        for y in range(0, 25, 5):
            b0, b1, b2, b3, b4 = b[y:y + 5]
            a[y] = b0 ^ (~b1 & b2)
            a[y + 1] = b1 ^ (~b2 & b3)
            a[y + 2] = b2 ^ (~b3 & b4)
            a[y + 3] = b3 ^ (~b4 & b0)
            a[y + 4] = b4 ^ (~b0 & b1)
        a[0] ^= rc


class Sponge:
    """One Keccak message: the 25 lanes, the byte count, absorbing whole rate blocks,
    padding with the mode's pad byte (0x80 OR-ed into the rate's last byte), squeezing.

    Context words (engine-interface.md): lane i at words 2i (bits 31:0), 2i + 1, then the
    byte count low, high."""

    def __init__(self, rate, pad):
        self.block = rate
        self.pad = pad
        self.lanes = [0] * 25
        self.count = 0

    def compress(self, block):
        assert len(block) == self.block
        for i in range(self.block // 8):
            self.lanes[i] ^= int.from_bytes(block[8 * i:8 * i + 8], "little")
        keccak_f(self.lanes)
        self.count += self.block

    def finish(self, tail):
        m = bytearray(tail + bytes(self.block - len(tail)))
        m[len(tail)] ^= self.pad
        m[-1] ^= 0x80
        self.compress(bytes(m))
        self.count += len(tail) - self.block

    def squeeze(self):
        keccak_f(self.lanes)

    def words(self):
        out = []
        for x in self.lanes:
            out += [x & M32, x >> 32]
        return out + [self.count & M32, self.count >> 32 & M32]

    def set_word(self, i, v):
        if i < 50:
            k, hi = divmod(i, 2)
            self.lanes[k] = (self.lanes[k] & ~(M32 << 32 * hi)) | v << 32 * hi
        elif i == 50:
            self.count = (self.count & ~M32) | v
        elif i == 51:
            self.count = (self.count & M32) | v << 32
