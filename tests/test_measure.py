# SPDX-License-Identifier: MIT
"""Unit tests of gateware/measure.py (MeasureCore), the measurement register, against
hashlib: each extend makes value := SHA-256(value || measurement); nothing else changes it.

One simulator, several extends (elaboration is the slow part).
"""

import hashlib
import random

from amaranth.sim import Simulator

from gateware.measure import WORDS, MeasureCore


def words(b):
    """32 bytes as the core's words: word k = bytes 4k..4k+3, little-endian."""
    return [int.from_bytes(b[4 * k:4 * k + 4], "little") for k in range(WORDS)]


def test_extends_match_hashlib_and_nothing_else_writes():
    dut = MeasureCore()
    rng = random.Random(1)
    measurements = [hashlib.sha256(b"kernel").digest(), bytes(32), bytes([0xFF] * 32)] + \
        [rng.randbytes(32) for _ in range(3)]
    seen = {"clocks": []}

    async def read_value(ctx):
        out = b""
        for k in range(WORDS):
            ctx.set(dut.sel, k)
            out += ctx.get(dut.word).to_bytes(4, "little")
        return out

    async def bench(ctx):
        assert ctx.get(dut.count) == 0 and ctx.get(dut.busy) == 0
        assert await read_value(ctx) == bytes(32)
        want = bytes(32)
        for i, meas in enumerate(measurements):
            gap = i % 3                 # idle clocks before each push: 0 (as fast as taken), 1, 2
            ctx.set(dut.start, 1)
            await ctx.tick()
            ctx.set(dut.start, 0)
            n = 1
            # A word pushed while the core feeds the value (want = 0) is dropped.
            ctx.set(dut.data, 0xDEADBEEF)
            ctx.set(dut.push, 1)
            assert ctx.get(dut.want) == 0 and ctx.get(dut.busy) == 1
            await ctx.tick()
            ctx.set(dut.push, 0)
            n += 1
            pushed = 0
            for w in words(meas):
                for _ in range(gap):
                    await ctx.tick()
                    n += 1
                while not ctx.get(dut.want):
                    # A start while busy is ignored; the value reads 0 meanwhile.
                    ctx.set(dut.start, 1)
                    ctx.set(dut.sel, pushed % WORDS)
                    assert ctx.get(dut.word) == 0
                    await ctx.tick()
                    n += 1
                    assert n < 400, "the core never wanted a word"
                ctx.set(dut.start, 0)
                ctx.set(dut.data, w)
                ctx.set(dut.push, 1)
                await ctx.tick()
                n += 1
                ctx.set(dut.push, 0)
                ctx.set(dut.data, rng.getrandbits(32))      # junk after the push: not taken
                pushed += 1
            while ctx.get(dut.busy):
                # Pushes after the 8th word change nothing.
                ctx.set(dut.push, 1)
                await ctx.tick()
                n += 1
                assert n < 400, "extend did not finish"
            ctx.set(dut.push, 0)
            if gap == 0:
                seen["clocks"].append(n)
            want = hashlib.sha256(want + meas).digest()
            assert await read_value(ctx) == want, i
            assert ctx.get(dut.count) == i + 1
            for _ in range(3):
                await ctx.tick()
            assert await read_value(ctx) == want

    sim = Simulator(dut)
    sim.add_clock(1e-6)
    sim.add_testbench(bench)
    sim.run()
    # The docstring's clock budget: 274 clocks after start's with words pushed as fast as the
    # core takes them (the dropped push here falls in one of them).
    assert len(seen["clocks"]) == 2, "the testbench did not run to its end"
    assert seen["clocks"] == [275, 275], seen["clocks"]


def test_no_port_writes_the_value():
    """The value's only way back to 0 is a reset: the core's ports have no write."""
    assert set(MeasureCore.__annotations__) == {"start", "data", "push", "want", "sel", "word", "busy", "count"}
