"""Reference digests from outside the project: hashlib, and pycryptodome for the
original (pre-FIPS) Keccak, which hashlib does not have. Names as the driver prints them."""

import hashlib

from Crypto.Hash import keccak as _keccak


def reference(alg, msg, outlen):
    fixed = {"SHA-256": hashlib.sha256, "SHA-224": hashlib.sha224,
             "SHA3-224": hashlib.sha3_224, "SHA3-256": hashlib.sha3_256,
             "SHA3-384": hashlib.sha3_384, "SHA3-512": hashlib.sha3_512}
    if alg in fixed:
        return fixed[alg](msg).digest()
    if alg == "SHAKE128":
        return hashlib.shake_128(msg).digest(outlen)
    if alg == "SHAKE256":
        return hashlib.shake_256(msg).digest(outlen)
    if alg.startswith("Keccak-"):
        return _keccak.new(digest_bits=int(alg[7:]), data=msg).digest()
    raise KeyError(alg)


def pattern(n):
    """The firmware's test message: byte i is (i * 131 + 7) & 0xff."""
    return bytes((i * 131 + 7) & 0xFF for i in range(n))


def message(name, n):
    return {"hello": b"hello", "empty": b"", "mouna": b"Mouna_Noura_ATSIP_2020"}.get(name) or pattern(n)


def xorshift_bytes(seed, n):
    """The firmware's coherence stream (firmware/app/main.c fill_xorshift): xorshift32
    from `seed`, the low byte of each state after the step."""
    x, out = seed & 0xFFFFFFFF, bytearray(n)
    for i in range(n):
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        out[i] = x & 0xFF
    return bytes(out)
