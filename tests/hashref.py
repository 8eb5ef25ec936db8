# SPDX-License-Identifier: MIT
"""Reference digests from outside the project: hashlib, and pycryptodome for the
original (pre-FIPS) Keccak, which hashlib does not have, and for cSHAKE and KMAC (SP 800-185).
Names as the driver prints them."""

import hashlib

from Crypto.Hash import KMAC128, KMAC256, cSHAKE128, cSHAKE256
from Crypto.Hash import keccak as _keccak

from gateware import hashspec


def reference(alg, msg, outlen):
    """alg: a name of gateware/hashspec.py (title, command-line name or C key)."""
    a = hashspec.algorithm(alg)
    if a.hashlib:
        h = hashlib.new(a.hashlib, msg)
        return h.digest(outlen) if a.xof else h.digest()
    return _keccak.new(digest_bits=8 * a.digest, data=msg).digest()


def cshake(alg, n, s, msg, outlen):
    """cSHAKE on the sponge of `alg` (SHAKE128 or SHAKE256, any name): pycryptodome's, whose
    `_new` takes a function name N (its `new` does not)."""
    m = cSHAKE128 if hashspec.algorithm(alg).block == 168 else cSHAKE256
    return m._new(msg, s, n).read(outlen)


def kmac(alg, key, s, msg, outlen, xof=False):
    """KMAC or KMACXOF on the sponge of `alg`. pycryptodome's KMAC128/256 where they take the
    arguments (a key of the security strength or more, 8 bytes out or more, not XOF); else
    its cSHAKE over its own SP 800-185 encoders (SP 800-185 allows any key and output
    length, and pycryptodome has no KMACXOF)."""
    a = hashspec.algorithm(alg)
    strength = 16 if a.block == 168 else 32
    if not xof and len(key) >= strength and outlen >= 8:
        return (KMAC128 if a.block == 168 else KMAC256).new(key=key, data=msg, mac_len=outlen, custom=s).digest()
    enc = cSHAKE128        # (the encoders live in this module)
    data = enc._bytepad(enc._encode_str(key), a.block) + msg + enc._right_encode(0 if xof else 8 * outlen)
    return cshake(alg, hashspec.KMAC_NAME.encode(), s, data, outlen)


def pattern(n):
    """The firmware's test message: byte i is (i * 131 + 7) & 0xff."""
    return bytes((i * 131 + 7) & 0xFF for i in range(n))


def message(name, n):
    return {"hello": b"hello", "empty": b"", "mouna": b"Mouna_Noura_ATSIP_2020"}.get(name) or pattern(n)


def xorshift_bytes(seed, n):
    """The firmware's coherence stream (firmware/baremetal/t_memory.c fill_xorshift): xorshift32
    from `seed`, the low byte of each state after the step."""
    x, out = seed & 0xFFFFFFFF, bytearray(n)
    for i in range(n):
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        out[i] = x & 0xFF
    return bytes(out)
