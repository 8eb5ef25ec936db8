# SPDX-License-Identifier: MIT
"""Reference digests from outside the project: hashlib, and pycryptodome for the
original (pre-FIPS) Keccak, which hashlib does not have. Names as the driver prints them."""

import hashlib

from Crypto.Hash import keccak as _keccak

from gateware import hashspec


def reference(alg, msg, outlen):
    """alg: a name of gateware/hashspec.py (title, command-line name or C key)."""
    a = hashspec.algorithm(alg)
    if a.hashlib:
        h = hashlib.new(a.hashlib, msg)
        return h.digest(outlen) if a.xof else h.digest()
    return _keccak.new(digest_bits=8 * a.digest, data=msg).digest()


def pattern(n):
    """The firmware's test message: byte i is (i * 131 + 7) & 0xff."""
    return bytes((i * 131 + 7) & 0xFF for i in range(n))


def message(name, n):
    return {"hello": b"hello", "empty": b"", "mouna": b"Mouna_Noura_ATSIP_2020"}.get(name) or pattern(n)


def xorshift_bytes(seed, n):
    """The firmware's coherence stream (firmware/baremetal/main.c fill_xorshift): xorshift32
    from `seed`, the low byte of each state after the step."""
    x, out = seed & 0xFFFFFFFF, bytearray(n)
    for i in range(n):
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        out[i] = x & 0xFF
    return bytes(out)
