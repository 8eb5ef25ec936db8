# SPDX-License-Identifier: MIT
# amaranth: UnusedElaboratable=no
"""Unit tests of the SHA-2 core on 64-bit words (gateware/sha2/core.py, family "sha512"):
SHA-512, SHA-384, SHA-512/224 and SHA-512/256 against hashlib and NIST CAVP (short,
long and Monte Carlo messages), the context port, export/import across 2**32 bytes, and
the clock budget (80 clocks per 128-byte block folded, 81 basic).

The driver is tests/coredriver.py, as for every core: the core contract is the same.
"""

import hashlib
import random

import pytest
from gateware import hashspec
from gateware.sha2.constants import IV, sha512_compress
from gateware.sha2.core import SHA2Core
from coredriver import check_digests, simulate
from vectors import load_rsp, msg_bytes

VARIANTS = [v.name for v in hashspec.variants_of("sha512")]
ALGS = {a.key: a for a in hashspec.algorithms_of("sha512")}
MODE = {key: a.mode for key, a in ALGS.items()}
BY_MODE = {a.mode: a for a in ALGS.values()}
CAVP = {"SHA512": "SHA512", "SHA384": "SHA384", "SHA512_224": "SHA512_224", "SHA512_256": "SHA512_256"}
CTX_WORDS = hashspec.engine("sha512").ctx_words          # 16 H words, then the byte count
# From the first beat to busy = 0, on top of clocks_per_block * blocks: 32 beats fill the
# buffer, 1 clock copies it to the schedule window.
STARTUP_CLOCKS = 33


def expected(mode, data):
    return hashlib.new(BY_MODE[mode].hashlib, data).digest()


def run_sim(variant, bench, **driver_args):
    """Run bench(driver) in one simulation of the 64-bit core (tests/coredriver.py)."""
    simulate(SHA2Core("sha512", variant), bench, "sha512", **driver_args)


def check_messages(variant, messages, **driver_args):
    """messages: list of (mode, bytes, expected digest or None for hashlib)."""
    check_digests(SHA2Core("sha512", variant), "sha512", messages, expected, **driver_args)


def test_modes_are_the_engines():
    """The core's IV table covers exactly the sha512 engine's algorithms."""
    assert set(ALGS) == set(CAVP) and set(ALGS) <= set(IV)
    assert sorted(MODE.values()) == list(range(4))


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("key", list(CAVP))
def test_cavp_short(variant, key):
    """Every ShortMsg vector (0..1024 bits, 129 messages) of each algorithm."""
    entries = load_rsp(f"hashes/SHA2/{CAVP[key]}ShortMsg.rsp")
    assert len(entries) == 129
    check_messages(variant, [(MODE[key], msg_bytes(e), bytes.fromhex(e["MD"])) for e in entries])


@pytest.mark.parametrize("key", list(CAVP))
def test_cavp_long_sample(key):
    """The first LongMsg vectors (over 100 blocks in all) with random beat gaps."""
    entries = load_rsp(f"hashes/SHA2/{CAVP[key]}LongMsg.rsp")[:3]
    check_messages("folded", [(MODE[key], msg_bytes(e), bytes.fromhex(e["MD"])) for e in entries],
                   seed=key, gap=0.2)


@pytest.mark.parametrize("key", list(CAVP))
def test_cavp_monte_carlo_first_checkpoint(key):
    """FIPS 180-4's Monte Carlo procedure (SHAVS 6.4) to its first checkpoint: 1,000
    chained digests, each message the previous three digests, all computed by the core."""
    entries = load_rsp(f"hashes/SHA2/{CAVP[key]}Monte.rsp")
    seed = bytes.fromhex(entries[0]["Seed"])
    checkpoint = bytes.fromhex(next(e for e in entries if e.get("COUNT") == "0")["MD"])
    got = []

    async def bench(h):
        md = [seed, seed, seed]
        for _ in range(1000):
            md = md[1:] + [await h.hash(MODE[key], b"".join(md))]
        got.append(md[-1])

    run_sim("folded", bench)
    assert got == [checkpoint]


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_lengths_around_blocks(variant):
    """Lengths at the 128-byte block's and the 16-byte length field's edges, random modes,
    back to back with init between messages."""
    rng = random.Random(512)
    lengths = [0, 1, 4, 107, 108, 111, 112, 113, 127, 128, 129, 239, 240, 255, 256, 257, 400] \
        + [rng.randrange(401) for _ in range(10)]
    check_messages(variant, [(rng.choice(list(MODE.values())), rng.randbytes(n), None) for n in lengths])


def test_backpressure_gaps():
    rng = random.Random(98)
    lengths = [0, 8, 112, 128, 200, 300] + [rng.randrange(301) for _ in range(6)]
    check_messages("folded", [(rng.choice(list(MODE.values())), rng.randbytes(n), None) for n in lengths],
                   seed=6, gap=0.5)


def le_words(words64):
    """64-bit big-endian words as the context's 32-bit words (memory order = digest order)."""
    raw = b"".join(x.to_bytes(8, "big") for x in words64)
    return [int.from_bytes(raw[4 * i:4 * i + 4], "little") for i in range(len(raw) // 4)]


def ref_finish(H, total_bytes, tail, n):
    """Hash tail from state H as if total_bytes bytes were hashed in all; n digest bytes."""
    padded = tail + b"\x80" + b"\x00" * ((111 - len(tail)) % 128) + (total_bytes * 8).to_bytes(16, "big")
    for i in range(0, len(padded), 128):
        H = sha512_compress(H, padded[i:i + 128])
    return b"".join(x.to_bytes(8, "big") for x in H)[:n]


@pytest.mark.parametrize("variant", VARIANTS)
def test_context_port_export_import(variant):
    """IVs in the context after init; 18 words then zeros; export after one block, another
    mode in between, import, finish; a byte count beyond 2**32 (and bits entering the
    128-bit length field's second word) against the Python model."""
    rng = random.Random(11)

    async def bench(h):
        ctx, dut = h.ctx, h.dut
        for key, mode in MODE.items():
            await h.init(mode)
            assert (ctx.get(dut.busy), ctx.get(dut.done), ctx.get(dut.beats.ready)) == (0, 0, 1)
            assert await h.read_ctx(range(CTX_WORDS)) == le_words(IV[key]) + [0, 0]
        assert set(await h.read_ctx(range(CTX_WORDS, 64))) == {0}
        for key, mode in MODE.items():
            other = MODE["SHA384"] if key != "SHA384" else MODE["SHA512"]
            head, tail = rng.randbytes(256), rng.randbytes(rng.randrange(1, 200))
            await h.init(mode)
            await h.stream(head, last=False)
            await h.wait_idle(want_done=False)
            saved = await h.read_ctx(range(CTX_WORDS))
            assert saved[16:] == [256, 0]
            filler = rng.randbytes(99)
            assert await h.hash(other, filler) == expected(other, filler)
            await h.init(mode)
            await h.write_ctx(saved)
            assert await h.read_ctx(range(CTX_WORDS)) == saved
            await h.stream(tail)
            await h.wait_idle(want_done=True)
            assert await h.digest(mode) == expected(mode, head + tail)
            assert await h.read_ctx([16, 17]) == [256 + len(tail), 0]

        # 2**61 bytes and more: bit 64 of the bit length is set (the 128-bit field's
        # second word), which SHA-256's 64-bit field could not hold.
        head, tail = rng.randbytes(128), rng.randbytes(50)
        await h.init(MODE["SHA512"])
        await h.stream(head, last=False)
        await h.wait_idle(want_done=False)
        saved = await h.read_ctx(range(CTX_WORDS))
        H = [int.from_bytes(b"".join(w.to_bytes(4, "little") for w in saved[2 * i:2 * i + 2]), "big")
             for i in range(8)]
        assert ref_finish(H, 128 + len(tail), tail, 64) == hashlib.sha512(head + tail).digest()
        big = (0x3 << 61) | (5 << 32) | 0x80
        await h.init(MODE["SHA512"])
        await h.write_ctx(saved[:16] + [big & 0xFFFFFFFF, big >> 32])
        await h.stream(tail)
        await h.wait_idle(want_done=True)
        assert await h.digest(MODE["SHA512"]) == ref_finish(H, big + len(tail), tail, 64)
        assert await h.read_ctx([16, 17]) == [(big + 50) & 0xFFFFFFFF, big >> 32]
    run_sim(variant, bench)


@pytest.mark.parametrize("variant", VARIANTS)
def test_cycles_per_block(variant):
    """With a beat offered on every clock, N blocks cost exactly cpb*N + 33 clocks
    (the issue's target: at most 82 clocks per 128-byte block)."""
    cpb = hashspec.variant("sha512", variant).clocks
    results = {}

    async def bench(h):
        assert h.dut.clocks_per_block == cpb
        for nblocks in (1, 2, 5):
            data = random.Random(nblocks).randbytes(128 * nblocks)
            await h.init(MODE["SHA512"])
            t0 = h.clock
            await h.stream(data, last=False)
            await h.wait_idle(want_done=False)
            results[("open", nblocks)] = h.clock - t0
            await h.init(MODE["SHA512"])
            t0 = h.clock
            await h.stream(data)
            await h.wait_idle(want_done=True)
            results[("last", nblocks)] = h.clock - t0
            assert await h.digest(MODE["SHA512"]) == hashlib.sha512(data).digest()
        await h.init(MODE["SHA384"])
        t0 = h.clock
        await h.stream(b"q" * 111)                  # the padding fits in the only block
        await h.wait_idle(want_done=True)
        results[("last111", 1)] = h.clock - t0

    run_sim(variant, bench)
    assert results == {(kind, n): cpb * (n + (kind == "last")) + STARTUP_CLOCKS for kind, n in results}


def test_bad_family():
    with pytest.raises(ValueError):
        SHA2Core("sha1024")
