# SPDX-License-Identifier: MIT
# amaranth: UnusedElaboratable=no
"""Unit tests of the widened SHA-2 core (gateware/sha2/core.py, family "sha2": SHA-256/224
and the SHA-512 family on one 64-bit datapath, the mode choosing): issue 33's other option
for the SHA-512 family, measured against the separate engine in docs/fpga.md and not an
engine of the SoC. Every mode against hashlib and a sample of NIST CAVP, the families
interleaved (a SHA-256 message after a SHA-512 one leaves 64-bit values in the registers'
high halves), the clock budget of each family and the context port across families.
"""

import hashlib
import random

import pytest
from gateware import hashspec
from gateware.sha2.constants import IV
from gateware.sha2.core import SHA2Core, WIDE_512
from coredriver import CoreDriver, check_digests, simulate
from vectors import load_rsp, msg_bytes
import test_sha256_core
import test_sha512_core

MODES = [(a.mode | (WIDE_512 if e == "sha512" else 0), a) for e in ("sha256", "sha512")
         for a in hashspec.algorithms_of(e)]
ALGS = {a.key: (mode, a) for mode, a in MODES}
MODE = {key: mode for key, (mode, _) in ALGS.items()}
BY_MODE = {mode: a for mode, a in MODES}


class WideDriver(CoreDriver):
    """tests/coredriver.py's driver with the widened core's mode numbers."""

    def __init__(self, dut, ctx, engine, **kw):
        super().__init__(dut, ctx, "sha256", **kw)
        self.digest_bytes = {mode: a.digest for mode, a in dut.modes}


def run_sim(bench, variant="folded", **driver_args):
    simulate(SHA2Core("sha2", variant), bench, "sha2", driver=WideDriver, **driver_args)


def expected(mode, data):
    return hashlib.new(BY_MODE[mode].hashlib, data).digest()


def check_messages(messages, variant="folded", **driver_args):
    """messages: (mode, bytes, expected digest or None for hashlib)."""
    check_digests(SHA2Core("sha2", variant), "sha2", messages, expected, driver=WideDriver, **driver_args)


def test_modes_are_both_engines():
    """The widened core's modes: the SHA-256 engine's as they are, the SHA-512 engine's with
    WIDE_512 set; both families' variants, with their clocks per block."""
    assert SHA2Core("sha2").modes == MODES and len(set(MODE.values())) == 6
    for v in ("folded", "basic"):
        assert SHA2Core("sha2", v).clocks_per_block == {e: hashspec.variant(e, v).clocks for e in ("sha256", "sha512")}
    with pytest.raises(ValueError):
        SHA2Core("sha2", "fast")


def test_cavp_short_sample():
    """Every 8th ShortMsg vector of each of the six algorithms, the families alternating."""
    per_alg = []
    for key, (mode, _) in ALGS.items():
        entries = load_rsp(f"hashes/SHA2/{key}ShortMsg.rsp")[::8]
        per_alg.append([(mode, msg_bytes(e), bytes.fromhex(e["MD"])) for e in entries])
    messages = [m for group in zip(*per_alg) for m in group]
    assert len(messages) == 6 * 9
    check_messages(messages)


@pytest.mark.parametrize("variant", ["folded", "basic"])
def test_interleaved_lengths_around_both_blocks(variant):
    """Lengths at both families' block and length-field edges, a random mode each, with
    beat gaps: a message of one family right after the other's."""
    rng = random.Random(2)
    lengths = [0, 1, 55, 56, 63, 64, 65, 111, 112, 119, 120, 127, 128, 129, 191, 240, 256, 300] \
        + [rng.randrange(301) for _ in range(12)]
    modes = sorted(MODE.values())
    check_messages([(modes[i % len(modes)], rng.randbytes(n), None) for i, n in enumerate(lengths)],
                   variant, seed=4, gap=0.3)


@pytest.mark.parametrize("family", ["sha256", "sha512"])
def test_cycles_per_block(family):
    """Each family keeps its own clock budget in the widened core: R clocks per block
    (64 or 80) plus the buffer's fill and copy (16 + 1 or 32 + 1), as the separate cores."""
    mode = MODE["SHA256" if family == "sha256" else "SHA512"]
    rounds, words = (64, 16) if family == "sha256" else (80, 32)
    block = 4 * words
    results = {}

    async def bench(h):
        await h.hash(MODE["SHA384"] if family == "sha256" else MODE["SHA224"], b"other family first")
        for n in (1, 3):
            data = random.Random(n).randbytes(block * n)
            await h.init(mode)
            t0 = h.clock
            await h.stream(data)
            await h.wait_idle(want_done=True)
            results[n] = h.clock - t0
            assert await h.digest(mode) == expected(mode, data)

    run_sim(bench)
    assert results == {n: rounds * (n + 1) + words + 1 for n in results}


def le_words(words, nbits):
    """Big-endian words as the context's 32-bit words (memory order = digest order)."""
    raw = b"".join(x.to_bytes(nbits // 8, "big") for x in words)
    return [int.from_bytes(raw[4 * i:4 * i + 4], "little") for i in range(len(raw) // 4)]


def test_context_export_import_across_families():
    """After init: the mode's IV then the byte count, then zeros, in its own family's
    layout (8 or 16 H words). A message exported after its first block, a message of the
    other family in between, the context imported after init and the message finished."""
    rng = random.Random(7)

    async def bench(h):
        for key, mode in MODE.items():
            nbits = 64 if mode & WIDE_512 else 32
            await h.init(mode)
            n = 8 * nbits // 32
            assert await h.read_ctx(range(n + 4)) == le_words(IV[key], nbits) + [0, 0, 0, 0], key
        for key, mode in MODE.items():
            block = 128 if mode & WIDE_512 else 64
            n = 2 * block // 8                      # H words, then the byte count's two
            other = MODE["SHA224"] if mode & WIDE_512 else MODE["SHA512_256"]
            head, tail = rng.randbytes(block), rng.randbytes(rng.randrange(1, 150))
            await h.init(mode)
            await h.stream(head, last=False)
            await h.wait_idle(want_done=False)
            saved = await h.read_ctx(range(n // 2 + 2))
            assert saved[-2:] == [block, 0], key
            filler = rng.randbytes(140)
            assert await h.hash(other, filler) == expected(other, filler)
            await h.init(mode)
            await h.write_ctx(saved)
            assert await h.read_ctx(range(n // 2 + 2)) == saved, key
            await h.stream(tail)
            await h.wait_idle(want_done=True)
            assert await h.digest(mode) == expected(mode, head + tail), key

    run_sim(bench)


@pytest.mark.parametrize("key", ["SHA256", "SHA512"])
def test_byte_count_beyond_2_to_29(key):
    """An imported byte count whose bit length needs more than 32 bits, so the length
    field's upper words are not zero (each family's layout of them), against the Python
    models of tests/test_sha256_core.py and tests/test_sha512_core.py."""
    mode = MODE[key]
    block, nwords = (64, 8) if key == "SHA256" else (128, 16)
    rng = random.Random(key)
    head, tail = rng.randbytes(block), rng.randbytes(70)
    big = (0x7 << 32) | 0x40                        # bit length 0x38_0000_0200
    got = []

    async def bench(h):
        await h.hash(MODE["SHA384"] if key == "SHA256" else MODE["SHA224"], b"x" * 200)
        await h.init(mode)
        await h.stream(head, last=False)
        await h.wait_idle(want_done=False)
        saved = await h.read_ctx(range(nwords))
        await h.init(mode)
        await h.write_ctx(saved + [big & 0xFFFFFFFF, big >> 32])
        await h.stream(tail)
        await h.wait_idle(want_done=True)
        got.append((saved, await h.digest(mode)))

    run_sim(bench)
    saved, digest = got[0]
    raw = b"".join(w.to_bytes(4, "little") for w in saved)
    if key == "SHA256":
        H = [int.from_bytes(raw[4 * i:4 * i + 4], "big") for i in range(8)]
        want = test_sha256_core.ref_finish(H, big + len(tail), tail)
    else:
        H = [int.from_bytes(raw[8 * i:8 * i + 8], "big") for i in range(8)]
        want = test_sha512_core.ref_finish(H, big + len(tail), tail, 64)
    assert digest == want
