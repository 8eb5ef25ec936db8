# SPDX-License-Identifier: MIT
# amaranth: UnusedElaboratable=no
"""Unit tests of gateware/sha256/core.py (SHA256Core) against hashlib and NIST CAVP.

Every test builds one simulator and feeds many messages through it (elaboration is
the slow part). All tests run for both variants: "folded" (64 clk/block) and "basic"
(65 clk/block).
"""

import hashlib
import random
import struct

import pytest

from gateware import hashspec
from gateware.sha256.core import SHA256Core, IV_SHA224, K
from coredriver import check_digests, simulate
from vectors import load_rsp, msg_bytes

VARIANTS = [v.name for v in hashspec.variants_of("sha256")]
SHA256, SHA224 = 0, 1
HASHLIB = {SHA256: hashlib.sha256, SHA224: hashlib.sha224}

# Clocks from the first beat (clock 0) to the clock where busy reads 0, on top of
# clocks_per_block * blocks: 16 beats fill the buffer, 1 clock copies it to the
# message-schedule window (only when the compressor was idle, i.e. once per burst).
STARTUP_CLOCKS = 17


def run_sim(variant, bench, **driver_args):
    """Run bench(driver) in one simulation of SHA256Core(variant) (tests/coredriver.py)."""
    simulate(SHA256Core(variant), bench, "sha256", **driver_args)


def check_messages(variant, messages, **driver_args):
    """messages: list of (mode, bytes, expected digest or None for hashlib)."""
    check_digests(SHA256Core(variant), "sha256", messages, lambda mode, data: HASHLIB[mode](data).digest(),
                  **driver_args)


# ---- pure-Python reference with an arbitrary start state and length ---------------

def _rotr(x, n):
    return ((x >> n) | (x << (32 - n))) & 0xFFFFFFFF


def ref_compress(H, block):
    w = list(struct.unpack(">16I", block))
    for t in range(16, 64):
        s0 = _rotr(w[t - 15], 7) ^ _rotr(w[t - 15], 18) ^ (w[t - 15] >> 3)
        s1 = _rotr(w[t - 2], 17) ^ _rotr(w[t - 2], 19) ^ (w[t - 2] >> 10)
        w.append((w[t - 16] + s0 + w[t - 7] + s1) & 0xFFFFFFFF)
    a, b, c, d, e, f, g, hh = H
    for t in range(64):
        t1 = (hh + (_rotr(e, 6) ^ _rotr(e, 11) ^ _rotr(e, 25)) + ((e & f) ^ (~e & g))
              + K[t] + w[t]) & 0xFFFFFFFF
        t2 = ((_rotr(a, 2) ^ _rotr(a, 13) ^ _rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) \
            & 0xFFFFFFFF
        a, b, c, d, e, f, g, hh = (t1 + t2) & 0xFFFFFFFF, a, b, c, (d + t1) & 0xFFFFFFFF, e, f, g
    return [(x + y) & 0xFFFFFFFF for x, y in zip(H, [a, b, c, d, e, f, g, hh])]


def ref_finish(H, total_bytes, tail):
    """Hash tail from state H, padding as if total_bytes bytes were hashed in all."""
    padded = tail + b"\x80" + b"\x00" * ((55 - len(tail)) % 64) \
        + ((total_bytes * 8) % 2**64).to_bytes(8, "big")
    for i in range(0, len(padded), 64):
        H = ref_compress(H, padded[i:i + 64])
    return b"".join(x.to_bytes(4, "big") for x in H)


def ctx_words_to_H(words):
    return [int.from_bytes(w.to_bytes(4, "little"), "big") for w in words[:8]]


# ---- tests ---------------------------------------------------------------------------

@pytest.mark.parametrize("variant", VARIANTS)
def test_known_answers(variant):
    hello = bytes.fromhex("2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824")
    empty = bytes.fromhex("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    check_messages(variant, [
        (SHA256, b"hello", hello),
        (SHA256, b"", empty),
        (SHA224, b"", None),
        (SHA256, b"abc", None),
        (SHA224, b"abc", None),
    ])


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("mode,path", [(SHA256, "hashes/SHA2/SHA256ShortMsg.rsp"),
                                       (SHA224, "hashes/SHA2/SHA224ShortMsg.rsp")])
def test_cavp_short(variant, mode, path):
    entries = load_rsp(path)
    assert len(entries) == 65
    check_messages(variant, [(mode, msg_bytes(e), bytes.fromhex(e["MD"])) for e in entries])


@pytest.mark.parametrize("variant", VARIANTS)
def test_cavp_long_sample(variant):
    entries = load_rsp("hashes/SHA2/SHA256LongMsg.rsp")[:5]      # 163..559 bytes
    check_messages(variant, [(SHA256, msg_bytes(e), bytes.fromhex(e["MD"])) for e in entries])


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_lengths_back_to_back(variant):
    """Random lengths 0..300, random mode per message, init between messages."""
    rng = random.Random(1234)
    lengths = [0, 1, 3, 4, 55, 56, 63, 64, 65, 119, 120, 128, 300] \
        + [rng.randrange(301) for _ in range(27)]
    check_messages(variant, [(rng.randrange(2), rng.randbytes(n), None) for n in lengths])


@pytest.mark.parametrize("variant", VARIANTS)
def test_backpressure_gaps(variant):
    """beats.valid randomly dropped (with junk on the data lines) gives the same digests."""
    rng = random.Random(99)
    lengths = [0, 4, 56, 64, 100, 129, 192] + [rng.randrange(301) for _ in range(8)]
    check_messages(variant, [(rng.randrange(2), rng.randbytes(n), None) for n in lengths],
                   seed=5, gap=0.4)


@pytest.mark.parametrize("variant", VARIANTS)
def test_status_and_context_port(variant):
    """busy/done semantics, registered context read, words 10..63 read 0."""
    async def bench(h):
        ctx, dut = h.ctx, h.dut
        await h.init(SHA224)
        assert (ctx.get(dut.busy), ctx.get(dut.done), ctx.get(dut.beats.ready)) == (0, 0, 1)
        assert await h.read_ctx(range(10)) == \
            [int.from_bytes(x.to_bytes(4, "big"), "little") for x in IV_SHA224] + [0, 0]
        # ctx_rdata is registered: changing ctx_addr does not change it before the clock
        ctx.set(dut.ctx_addr, 0)
        assert ctx.get(dut.ctx_rdata) == 0
        await h.tick()
        assert ctx.get(dut.ctx_rdata) != 0
        # busy from the first accepted beat of a block
        await h.stream(b"abcd", last=False)
        assert ctx.get(dut.busy) == 1
        await h.stream(b"efg")
        await h.wait_idle(want_done=True)
        for _ in range(20):                             # done holds while nothing happens
            await h.tick()
            assert ctx.get(dut.done) == 1 and ctx.get(dut.busy) == 0
        assert await h.digest(SHA224) == hashlib.sha224(b"abcdefg").digest()
        assert (await h.read_ctx([8, 9])) == [7, 0]
        assert set(await h.read_ctx(range(10, 64))) == {0}
        await h.init(SHA256)                            # init clears done
        assert ctx.get(dut.done) == 0
        await h.stream(b"x")
        await h.wait_idle(want_done=True)
        await h.stream(b"abcd", last=False)             # an accepted beat clears done
        assert ctx.get(dut.done) == 0
    run_sim(variant, bench)


@pytest.mark.parametrize("variant", VARIANTS)
def test_export_import_resume(variant):
    """Export after 2 blocks, hash something else in the other mode, import, continue."""
    rng = random.Random(7)

    async def bench(h):
        for mode in (SHA256, SHA224):
            other = SHA224 if mode == SHA256 else SHA256
            head, tail = rng.randbytes(128), rng.randbytes(rng.randrange(1, 150))
            await h.init(mode)
            await h.stream(head, last=False)
            await h.wait_idle(want_done=False)          # block boundary: busy = 0
            saved = await h.read_ctx(range(10))
            assert saved[8:] == [128, 0]
            filler = rng.randbytes(77)
            assert await h.hash(other, filler) == HASHLIB[other](filler).digest()
            await h.init(mode)
            await h.write_ctx(saved)
            assert await h.read_ctx(range(10)) == saved
            await h.stream(tail)
            await h.wait_idle(want_done=True)
            assert await h.digest(mode) == HASHLIB[mode](head + tail).digest()

        # Import a byte count beyond 2**32 (bits 31:29 of word 8 move into the high
        # length word): checked against the Python reference model.
        head, tail = rng.randbytes(64), rng.randbytes(70)
        await h.init(SHA256)
        await h.stream(head, last=False)
        await h.wait_idle(want_done=False)
        saved = await h.read_ctx(range(10))
        H = ctx_words_to_H(saved)
        assert ref_finish(H, 64 + len(tail), tail) == hashlib.sha256(head + tail).digest()
        big = (5 << 32) | 0xE0000040
        await h.init(SHA256)
        await h.write_ctx(saved[:8] + [big & 0xFFFFFFFF, big >> 32])
        await h.stream(tail)
        await h.wait_idle(want_done=True)
        assert await h.digest(SHA256) == ref_finish(H, big + len(tail), tail)
        assert await h.read_ctx([8, 9]) == [(big + 70) & 0xFFFFFFFF, 5]
    run_sim(variant, bench)


@pytest.mark.parametrize("variant", VARIANTS)
def test_cycles_per_block(variant):
    """With a beat offered on every clock, N blocks cost exactly cpb*N + 17 clocks, cpb
    being hashspec's figure for the variant (docs and the version register quote it)."""
    cpb = hashspec.variant("sha256", variant).clocks
    results = {}

    async def bench(h):
        assert h.dut.clocks_per_block == cpb
        for nblocks in (1, 2, 3, 6):
            data = random.Random(nblocks).randbytes(64 * nblocks)
            # no `last`: ends at a block boundary, busy drops after the last block
            await h.init(SHA256)
            t0 = h.clock
            await h.stream(data, last=False)
            await h.wait_idle(want_done=False)
            results[("open", nblocks)] = h.clock - t0
            # with `last` on the final data beat: one more block for the padding
            await h.init(SHA256)
            t0 = h.clock
            await h.stream(data)
            await h.wait_idle(want_done=True)
            results[("last", nblocks)] = h.clock - t0
            assert await h.digest(SHA256) == hashlib.sha256(data).digest()
        # a message whose padding fits in its only block
        await h.init(SHA256)
        t0 = h.clock
        await h.stream(b"q" * 55)
        await h.wait_idle(want_done=True)
        results[("last55", 1)] = h.clock - t0

    run_sim(variant, bench)
    expected = {}
    for kind, n in results:
        blocks = n + 1 if kind == "last" else n
        expected[(kind, n)] = cpb * blocks + STARTUP_CLOCKS
    assert results == expected


@pytest.mark.parametrize("variant", VARIANTS)
def test_verilog_conversion(variant):
    from amaranth.back import verilog
    text = verilog.convert(SHA256Core(variant), name="sha256_core")
    assert "module sha256_core" in text
    for port in ("beats__payload", "beats__ready", "ctx_rdata", "busy", "done"):
        assert port in text


def test_bad_variant():
    # (the first-line linter option silences the warning about the half-built object)
    with pytest.raises(ValueError):
        SHA256Core("unrolled")
