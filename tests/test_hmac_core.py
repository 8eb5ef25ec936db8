# SPDX-License-Identifier: MIT
# amaranth: UnusedElaboratable=no
"""Unit tests of gateware/sha256/hmac.py (HmacCore around a SHA-2 core: SHA256Core for
HMAC-SHA-256/224, SHA2Core("sha512") for HMAC-SHA-512/384/512-224/512-256) against Python's
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
from gateware.sha2.core import SHA2Core
from gateware.sha256.core import SHA256Core
from gateware.sha256.hmac import HmacCore, key_words
from coredriver import CoreDriver, simulate
from vectors import load_rsp

DEVICE_KEY = bytes(range(0xA0, 0xA0 + hashspec.DEVICE_KEY_BYTES))
# The hashes of each family by their hashlib names (hashspec's algorithm keys upper-cased).
FAMILY = {"sha256": ("sha256", "sha224"), "sha512": ("sha512", "sha384", "sha512_224", "sha512_256")}


def algorithm(alg):
    return hashspec.algorithm(alg.upper())


def k0(alg, key):
    """RFC 2104: a key longer than the block is hashed first (the driver's job)."""
    return hashlib.new(alg, key).digest() if len(key) > hashlib.new(alg).block_size else key


class HmacDriver(CoreDriver):
    async def write_key(self, key):
        await self.write_words(self.dut.key_we, key_words(key, self.dut.block_words))

    def mode(self, alg, source):
        return algorithm(alg).mode | self.dut.mode_bits(source)

    async def mac(self, alg, source, msg):
        await self.init(self.mode(alg, source))
        await self.stream(msg)
        await self.wait_idle(want_done=True, limit=100_000)
        words = await self.read_ctx(range(algorithm(alg).digest // 4))
        return b"".join(w.to_bytes(4, "little") for w in words)


def run(bench, variant="folded", family="sha256", **kw):
    core = SHA256Core(variant) if family == "sha256" else SHA2Core(family, variant)
    simulate(HmacCore(core, DEVICE_KEY), bench, family, HmacDriver, **kw)


def test_modes_are_hashspecs():
    """Each SHA-2 engine's HMAC modes and key words are the one description's
    (hashspec.hmac_mode, Engine.key_words)."""
    cores = {"sha256": HmacCore(SHA256Core("folded"), DEVICE_KEY), "sha512": HmacCore(SHA2Core("sha512"), DEVICE_KEY)}
    for alg in hashspec.HMAC_ALGORITHMS:
        a = hashspec.algorithm(alg)
        for k in hashspec.HMAC_KEYS:
            assert hashspec.hmac_mode(alg, k.name) == a.mode | cores[a.engine].mode_bits(k.name)
    assert (cores["sha512"].mode_bits("window"), cores["sha512"].mode_bits("device")) == (0x4, 0xC)
    assert (cores["sha256"].mode_bits("window"), cores["sha256"].mode_bits("device")) == (0x2, 0x6)
    assert [c.block_words for c in cores.values()] == [hashspec.engine(e).key_words for e in cores] == [16, 32]


@pytest.mark.parametrize("family,variant", [("sha256", "folded"), ("sha256", "basic"),
                                            ("sha512", "folded"), ("sha512", "basic")])
def test_rfc4231_and_python(family, variant):
    """RFC 4231's cases, then random keys (0-300 bytes: longer than the block ones hashed
    first) and messages around the block boundaries, with both key sources and plain hashes
    between them (the wrapper passes those through)."""
    rng = random.Random(f"hmac-core-{family}-{variant}")
    algs = FAMILY[family]
    block = hashlib.new(algs[0]).block_size
    cases = []
    for alg in algs[:2]:            # RFC 4231 has SHA-224/256/384/512
        for r in load_rsp(f"HMAC/rfc-4231-{alg}.txt"):
            cases.append((alg, "window", bytes.fromhex(r["Key"]), bytes.fromhex(r["Msg"]), r["MD"].lower()))
    assert len(cases) == 12
    for i in range(24 if variant == "folded" else 6):
        alg = rng.choice(algs)
        msg = rng.randbytes(rng.choice([0, 1, 3, block - 9, block - 8, block - 1, block, block + 1, 2 * block,
                                        rng.randrange(300)]))
        if i % 3 == 2:
            cases.append((alg, "device", None, msg, hmac.new(DEVICE_KEY, msg, alg).hexdigest()))
        else:
            key = rng.randbytes(rng.choice([0, 1, 32, block - 1, block, block + 1, 100, 300]))
            cases.append((alg, "window", key, msg, hmac.new(key, msg, alg).hexdigest()))
        if i % 4 == 0:
            cases.append((alg, "hash", None, msg, hashlib.new(alg, msg).hexdigest()))
    bad = []

    async def bench(h):
        for alg, source, key, msg, want in cases:
            if source == "hash":
                got = await h.hash(algorithm(alg).mode, msg)
            else:
                if key is not None:
                    await h.write_key(k0(alg, key))
                got = await h.mac(alg, source, msg)
            if got.hex() != want:
                bad.append(f"{alg} {source} key {None if key is None else len(key)} msg {len(msg)}")

    run(bench, variant, family, gap=0.2)
    assert not bad, bad


@pytest.mark.parametrize("family", ["sha256", "sha512"])
def test_export_import_between_blocks(family):
    """An HMAC message is exported after two blocks, the core hashes something else under
    another key, and the message is imported (key words, init in its mode, context words)
    and finished: the MAC is unchanged. Also: the context port never returns the key."""
    rng = random.Random(f"hmac-export-{family}")
    alg = FAMILY[family][0]
    block, nctx = hashlib.new(alg).block_size, hashspec.engine(family).ctx_words
    key, other = rng.randbytes(40), rng.randbytes(block)
    head, tail = rng.randbytes(2 * block), rng.randbytes(77)
    out = {}

    async def bench(h):
        ctx, dut = h.ctx, h.dut
        await h.write_key(key)
        await h.init(h.mode(alg, "window"))
        await h.stream(head, last=False)
        await h.wait_idle(want_done=False)
        saved = await h.read_ctx(range(nctx))
        out["count"] = saved[nctx - 2]
        out["key_reads"] = await h.read_ctx(range(nctx, 64))
        await h.write_key(other)
        out["other"] = await h.mac(alg, "window", b"in between")
        await h.write_key(key)
        await h.init(h.mode(alg, "window"))
        await h.wait_idle(want_done=False)       # the IPAD block
        await h.write_ctx(saved)
        await h.stream(tail)
        await h.wait_idle(want_done=True)
        out["mac"] = await h.read_bytes(algorithm(alg).digest)
        assert ctx.get(dut.busy) == 0

    run(bench, family=family)
    assert out["count"] == block + len(head)        # the inner hash counts K0 ^ ipad
    assert set(out["key_reads"]) == {0}
    assert out["other"] == hmac.new(other, b"in between", alg).digest()
    assert out["mac"] == hmac.new(key, head + tail, alg).digest()


@pytest.mark.parametrize("family", ["sha256", "sha512"])
def test_clock_budget(family):
    """An empty message, beats on every clock: the docstring's budget, exactly."""
    clocks = {}

    async def bench(h):
        await h.write_key(b"k")
        for source in ("window", "device"):
            h.clock = 0
            await h.init(h.mode(FAMILY[family][0], source))
            await h.stream(b"")
            await h.wait_idle(want_done=True)
            clocks[source] = h.clock

    run(bench, family=family)
    assert clocks["window"] == clocks["device"] == HMAC_EMPTY_CLOCKS[family], clocks


def empty_message_clocks(B, R, D):
    """The docstring's budget for an empty message (B beats a block, R clocks a block, D
    inner digest words captured): init 1, IPAD's B beats, the buffer copy 1, the IPAD
    block and the padding block (made while IPAD compresses); then the outer hash: capture
    D + 1, init 1, OPAD's B beats, copy 1, two blocks."""
    return 1 + B + 1 + 2 * R + (D + 1 + 1 + B + 1 + 2 * R)


HMAC_EMPTY_CLOCKS = {"sha256": empty_message_clocks(16, 64, 8), "sha512": empty_message_clocks(32, 80, 16)}
assert HMAC_EMPTY_CLOCKS == {"sha256": 301, "sha512": 405}
