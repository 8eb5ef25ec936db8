# SPDX-License-Identifier: MIT
"""The SHA-2 constants (FIPS 180-4, 4.2 and 5.3), derived as the standard defines them.

Nothing here is typed in from the standard's tables: K and the initial hash values are the
fractional parts of cube and square roots of primes, computed exactly with integers, and
the SHA-512/t initial values come from the standard's IV generation function (5.3.6),
which runs SHA-512 itself (a plain Python model below). The tests check every digest
against hashlib and the NIST CAVP vectors, so a wrong derivation cannot go unnoticed.

Relations the standard states and the derivation shows: SHA-256's K and IV are the first
32 bits of SHA-512's K and IV; SHA-224's IV is the last 32 bits of SHA-384's.
"""

from math import isqrt

__all__ = ["K512", "K256", "IV", "sha512_compress"]

MASK64 = (1 << 64) - 1


def _primes(n):
    found = []
    candidate = 2
    while len(found) < n:
        if all(candidate % p for p in found if p * p <= candidate):
            found.append(candidate)
        candidate += 1
    return found


def _icbrt(x):
    """floor(x ** (1/3)) for an integer x >= 0, exactly."""
    r = 1 << ((x.bit_length() + 2) // 3)      # >= the root
    while True:
        s = (2 * r + x // (r * r)) // 3         # Newton, decreasing from above
        if s >= r:
            break
        r = s
    while r * r * r > x:
        r -= 1
    return r


def _frac_bits(root, p, bits):
    """The first `bits` bits of the fractional part of p's square (root=2) or cube (3) root."""
    scaled = (isqrt if root == 2 else _icbrt)(p << (root * bits))
    return scaled & ((1 << bits) - 1)


_P = _primes(80)
K512 = [_frac_bits(3, p, 64) for p in _P]                # 4.2.3
K256 = [k >> 32 for k in K512[:64]]                     # 4.2.2: the first 64, 32 bits each
_IV512 = [_frac_bits(2, p, 64) for p in _P[:8]]         # 5.3.5
_IV384 = [_frac_bits(2, p, 64) for p in _P[8:16]]       # 5.3.4


def _rotr(x, n):
    return ((x >> n) | (x << (64 - n))) & MASK64


def sha512_compress(h, block):
    """FIPS 180-4 6.4.2 on one 128-byte block: the new H (a list of 8 ints)."""
    w = [int.from_bytes(block[8 * i:8 * i + 8], "big") for i in range(16)]
    for t in range(16, 80):
        s0 = _rotr(w[t - 15], 1) ^ _rotr(w[t - 15], 8) ^ (w[t - 15] >> 7)
        s1 = _rotr(w[t - 2], 19) ^ _rotr(w[t - 2], 61) ^ (w[t - 2] >> 6)
        w.append((w[t - 16] + s0 + w[t - 7] + s1) & MASK64)
    a, b, c, d, e, f, g, hh = h
    for t in range(80):
        t1 = hh + (_rotr(e, 14) ^ _rotr(e, 18) ^ _rotr(e, 41)) + ((e & f) ^ (~e & g)) + K512[t] + w[t]
        t2 = (_rotr(a, 28) ^ _rotr(a, 34) ^ _rotr(a, 39)) + ((a & b) ^ (a & c) ^ (b & c))
        a, b, c, d, e, f, g, hh = (t1 + t2) & MASK64, a, b, c, (d + t1) & MASK64, e, f, g
    return [(x + y) & MASK64 for x, y in zip(h, (a, b, c, d, e, f, g, hh))]


def _sha512_t_iv(t):
    """5.3.6: H = SHA-512 of "SHA-512/t" from the IV XOR 0xa5a5..., one padded block."""
    msg = f"SHA-512/{t}".encode()
    block = msg + b"\x80" + bytes(128 - 16 - len(msg) - 1) + (8 * len(msg)).to_bytes(16, "big")
    return sha512_compress([x ^ 0xa5a5a5a5a5a5a5a5 for x in _IV512], block)


# The initial hash values by algorithm key (gateware/hashspec.py's ALGORITHMS).
IV = {
    "SHA256": [x >> 32 for x in _IV512],
    "SHA224": [x & 0xFFFFFFFF for x in _IV384],
    "SHA512": _IV512,
    "SHA384": _IV384,
    "SHA512_224": _sha512_t_iv(224),
    "SHA512_256": _sha512_t_iv(256),
}
