# SPDX-License-Identifier: MIT
"""Unit tests of gateware/keccak/kmac.py (KmacCore: KMAC's key block from the key words)
and of the Keccak core's cSHAKE modes, against pycryptodome's cSHAKE128/256 and
KMAC128/256 (tests/hashref.py) for random keys, customizations, messages and lengths.

The prefix and right_encode(L) are message bytes here as the driver writes them, made by
pycryptodome's own SP 800-185 encoders; the key block is gateware/keccak/kmac.py's
key_block, checked against those encoders too.
"""

import random

from Crypto.Hash import cSHAKE128 as _enc

from gateware import hashspec
from gateware.keccak.core import MODES
from gateware.keccak.kmac import KEY_WORDS, KmacCore, key_block, key_block_words
from coredriver import CoreDriver, KeccakDriver, simulate
from hashref import cshake, kmac

SP = {s.xof: s for s in hashspec.SP800_185}


def rate(alg):
    return hashspec.algorithm(alg).block


def prefix(n, s, r):
    """cSHAKE's first bytes: bytepad(encode_string(N) || encode_string(S), rate)."""
    return _enc._bytepad(_enc._encode_str(n) + _enc._encode_str(s), r)


def run_sim(bench, **kw):
    simulate(KmacCore(), bench, "keccak", driver=KmacDriver, **kw)


class KmacDriver(KeccakDriver):
    """KeccakDriver for the cSHAKE and KMAC modes: a KMAC init leaves the core busy until
    its key block is in."""

    async def init(self, mode):
        await CoreDriver.init(self, mode)       # (KeccakDriver's would want busy = 0)
        kmac_mode = mode in (s.kmac for s in hashspec.SP800_185)
        assert self.ctx.get(self.dut.busy) == int(kmac_mode), "a KMAC is busy until its key block is in"

    async def write_key(self, key, r):
        await self.write_words(self.dut.key_we, key_block_words(key, r))

    async def kmac(self, alg, key, s, msg, outlen, xof=False):
        r = rate(alg)
        await self.write_key(key, r)
        await self.init(SP[alg].kmac)
        data = prefix(hashspec.KMAC_NAME.encode(), s, r) + msg + _enc._right_encode(0 if xof else 8 * outlen)
        await self.stream(data)
        await self.wait_idle(want_done=True)
        return await self.output(SP[alg].cshake, outlen)


def test_key_block_is_sp800_185s():
    """key_block is bytepad(encode_string(K), rate) by pycryptodome's encoders, up to the
    longest key that fits one block; the key words hold up to SHAKE128's rate."""
    for alg in SP:
        r = rate(alg)
        for n in (0, 1, 31, 32, 100, r - 5):
            key = bytes(range(n))
            assert key_block(key, r) == _enc._bytepad(_enc._encode_str(key), r)
        assert len(key_block_words(bytes(r - 5), r)) == r // 4 <= KEY_WORDS
    assert MODES[SP["SHAKE128"].cshake][1:] == (168, hashspec.CSHAKE_PAD)


def test_cshake_modes():
    """cSHAKE128/256 in the core's cSHAKE modes (through the wrapper), random N, S,
    messages and output lengths, with idle clocks between beats."""
    rng = random.Random(1)

    async def bench(d):
        for i in range(24):
            alg = list(SP)[i % 2]
            r = rate(alg)
            n, s = rng.randbytes(rng.randrange(12)), rng.randbytes(rng.randrange(2 * r))
            msg, outlen = rng.randbytes(rng.randrange(3 * r)), rng.randrange(1, 2 * r + 40)
            await d.init(SP[alg].cshake)
            await d.stream(prefix(n, s, r) + msg)
            await d.wait_idle(want_done=True)
            got = await d.output(SP[alg].cshake, outlen)
            assert got == cshake(alg, n, s, msg, outlen), f"cSHAKE {alg} case {i}"

    run_sim(bench, gap=0.2, seed=5)


def test_kmac_random():
    """KMAC128/256 and KMACXOF with the key from the key words: keys of 0 to rate - 5 bytes,
    customizations that keep the prefix one block, messages across block boundaries."""
    rng = random.Random(2)

    async def bench(d):
        for i in range(30):
            alg = list(SP)[i % 2]
            r = rate(alg)
            key = rng.randbytes(rng.choice([0, 1, 16, 32, 64, rng.randrange(r - 4)]))
            s = rng.randbytes(rng.randrange(r - 13))
            msg = rng.randbytes(rng.choice([0, 3, r - 1, r, rng.randrange(4 * r)]))
            outlen, xof = rng.randrange(1, 3 * r), rng.random() < 0.3
            got = await d.kmac(alg, key, s, msg, outlen, xof)
            assert got == kmac(alg, key, s, msg, outlen, xof), f"KMAC {alg} case {i}"

    run_sim(bench, gap=0.1, seed=6)


def test_kmac_costs_what_its_key_block_costs_as_data():
    """The key words stand in for the key block as message data: a KMAC in its mode and
    the same bytes as cSHAKE with the key block streamed take the same clocks from init to
    done and give the same output; and the core is busy from init to the key block's end."""
    async def bench(d):
        for alg in SP:
            r = rate(alg)
            key, s, msg = bytes(range(32)), b"My Tagged Application", bytes(200)
            tail = msg + _enc._right_encode(8 * 64)
            pre = prefix(hashspec.KMAC_NAME.encode(), s, r)

            await d.write_key(key, r)
            t0 = d.clock
            await d.init(SP[alg].kmac)
            await d.stream(pre, last=False)
            assert d.ctx.get(d.dut.busy) == 1
            await d.stream(tail)
            await d.wait(d.dut.done, 1)
            keyed = d.clock - t0
            a = await d.output(SP[alg].cshake, 64)

            t0 = d.clock
            await d.init(SP[alg].cshake)
            await d.stream(pre + key_block(key, r) + tail)
            await d.wait(d.dut.done, 1)
            assert d.clock - t0 == keyed
            assert a == await d.output(SP[alg].cshake, 64) == kmac(alg, key, s, msg, 64)

    run_sim(bench)


def test_kmac_export_import():
    """A KMAC's state exported after its key block (as the driver's lazy switch does) and
    imported in the cSHAKE mode goes on to the right MAC, with another KMAC of another key
    in between; the key words do not show in any context word."""
    rng = random.Random(4)

    async def bench(d):
        ctx, dut = d.ctx, d.dut
        for alg in SP:
            r = rate(alg)
            key, s = rng.randbytes(40), rng.randbytes(20)
            head, rest = rng.randbytes(2 * r), rng.randbytes(r + 9)
            await d.write_key(key, r)
            await d.init(SP[alg].kmac)
            await d.stream(prefix(hashspec.KMAC_NAME.encode(), s, r) + head, last=False)
            await d.wait(dut.busy, 0)
            saved = await d.read_ctx(range(64))
            words = set(key_block_words(key, r)) - {0}
            assert not words & set(saved), "a key word reads back"

            other = rng.randbytes(50)
            assert await d.kmac(alg, b"another key", b"", other, 32) == kmac(alg, b"another key", b"", other, 32)

            await d.init(SP[alg].cshake)
            await d.write_ctx(saved[:52])
            await d.stream(rest + _enc._right_encode(8 * 48))
            await d.wait(dut.done, 1)
            assert await d.output(SP[alg].cshake, 48) == kmac(alg, key, s, head + rest, 48)
        ctx.set(dut.beats.valid, 0)

    run_sim(bench)
