# SPDX-License-Identifier: MIT
# amaranth: UnusedElaboratable=no
"""Unit tests of gateware/sha256/hmac.py (HmacCore around SHA256Core) against Python's
hmac module and RFC 4231.

One simulator per test, many messages each. The device key is a test key given to the
core here (the SoC's comes from keys/device_key). The frontend's side of HMAC (the key
region, its errors) is tested in test_engine_frontend.py, the driver's in
test_soc_firmware.py.
"""

import hashlib
import hmac
import random

import pytest

from gateware import hashspec
from gateware.sha256.core import SHA256Core
from gateware.sha256.hmac import HmacCore, key_words
from coredriver import CoreDriver, simulate
from vectors import load_rsp

DEVICE_KEY = bytes(range(0xA0, 0xA0 + hashspec.DEVICE_KEY_BYTES))
WORDS = {"sha256": 8, "sha224": 7}


def mode(alg, source):
    return hashspec.hmac_mode(alg.upper(), source)


def k0(alg, key):
    """RFC 2104: a key longer than the block is hashed first (the driver's job)."""
    return hashlib.new(alg, key).digest() if len(key) > 64 else key


class HmacDriver(CoreDriver):
    async def write_key(self, key):
        await self.write_words(self.dut.key_we, key_words(key))

    async def mac(self, alg, source, msg):
        await self.init(mode(alg, source))
        await self.stream(msg)
        await self.wait_idle(want_done=True, limit=100_000)
        words = await self.read_ctx(range(WORDS[alg]))
        return b"".join(w.to_bytes(4, "little") for w in words)


def run(bench, variant="folded", **kw):
    simulate(HmacCore(SHA256Core(variant), DEVICE_KEY), bench, "sha256", HmacDriver, **kw)


@pytest.mark.parametrize("variant", ["folded", "basic"])
def test_rfc4231_and_python(variant):
    """RFC 4231's cases, then random keys and messages around the block boundaries, with
    both key sources and plain hashes between them (the wrapper passes those through)."""
    rng = random.Random(f"hmac-core-{variant}")
    cases = []
    for alg in ("sha256", "sha224"):
        for r in load_rsp(f"HMAC/rfc-4231-{alg}.txt"):
            cases.append((alg, "window", bytes.fromhex(r["Key"]), bytes.fromhex(r["Msg"]), r["MD"].lower()))
    assert len(cases) == 12
    for i in range(24 if variant == "folded" else 6):
        alg = rng.choice(["sha256", "sha224"])
        msg = rng.randbytes(rng.choice([0, 1, 3, 55, 56, 63, 64, 65, 128, rng.randrange(300)]))
        if i % 3 == 2:
            cases.append((alg, "device", None, msg, hmac.new(DEVICE_KEY, msg, alg).hexdigest()))
        else:
            key = rng.randbytes(rng.choice([0, 1, 32, 63, 64, 65, 100]))
            cases.append((alg, "window", key, msg, hmac.new(key, msg, alg).hexdigest()))
        if i % 4 == 0:
            cases.append((alg, "hash", None, msg, hashlib.new(alg, msg).hexdigest()))
    bad = []

    async def bench(h):
        for alg, source, key, msg, want in cases:
            if source == "hash":
                got = await h.hash(hashspec.algorithm(alg.upper()).mode, msg)
                got = got[:4 * WORDS[alg]]
            else:
                if key is not None:
                    await h.write_key(k0(alg, key))
                got = await h.mac(alg, source, msg)
            if got.hex() != want:
                bad.append(f"{alg} {source} key {None if key is None else len(key)} msg {len(msg)}")

    run(bench, variant, gap=0.2)
    assert not bad, bad


def test_export_import_between_blocks():
    """An HMAC message is exported after two blocks, the core hashes something else under
    another key, and the message is imported (key words, init in its mode, context words)
    and finished: the MAC is unchanged. Also: the context port never returns the key."""
    rng = random.Random("hmac-export")
    key, other = rng.randbytes(40), rng.randbytes(64)
    head, tail = rng.randbytes(128), rng.randbytes(77)
    out = {}

    async def bench(h):
        ctx, dut = h.ctx, h.dut
        await h.write_key(key)
        await h.init(mode("sha256", "window"))
        await h.stream(head, last=False)
        await h.wait_idle(want_done=False)
        saved = await h.read_ctx(range(10))
        out["count"] = saved[8]
        out["key_reads"] = await h.read_ctx(range(10, 64))
        await h.write_key(other)
        out["other"] = await h.mac("sha256", "window", b"in between")
        await h.write_key(key)
        await h.init(mode("sha256", "window"))
        await h.wait_idle(want_done=False)       # the IPAD block
        await h.write_ctx(saved)
        await h.stream(tail)
        await h.wait_idle(want_done=True)
        out["mac"] = b"".join(w.to_bytes(4, "little") for w in await h.read_ctx(range(8)))
        assert ctx.get(dut.busy) == 0

    run(bench)
    assert out["count"] == 64 + len(head)           # the inner hash counts K0 ^ ipad
    assert set(out["key_reads"]) == {0}
    assert out["other"] == hmac.new(other, b"in between", "sha256").digest()
    assert out["mac"] == hmac.new(key, head + tail, "sha256").digest()


def test_clock_budget():
    """An empty message, beats on every clock: the docstring's budget, exactly."""
    clocks = {}

    async def bench(h):
        await h.write_key(b"k")
        for source in ("window", "device"):
            h.clock = 0
            await h.init(mode("sha256", source))
            await h.stream(b"")
            await h.wait_idle(want_done=True)
            clocks[source] = h.clock

    run(bench)
    assert clocks["window"] == clocks["device"] == HMAC_EMPTY_CLOCKS, clocks


# The docstring's budget for an empty message: init 1, IPAD's 16 beats, the buffer copy
# 1, the IPAD block 64 and the padding block 64 (made while IPAD compresses); then the
# outer hash: capture 9, init 1, OPAD's 16 beats, copy 1, two blocks 128.
HMAC_EMPTY_CLOCKS = 1 + 16 + 1 + 64 + 64 + (9 + 1 + 16 + 1 + 2 * 64)
