# SPDX-License-Identifier: MIT
"""Unit tests of gateware/measure.py (MeasureCore), the measurement register, against
hashlib: each extend makes value := SHA-256(value || measurement); nothing else changes it.

One simulator, several extends (elaboration is the slow part).
"""

import hashlib
import random

from amaranth.sim import Simulator

from gateware.measure import WORDS, MeasureCore


def pack(b):
    """32 bytes as the core's 256-bit port: word k = bytes 4k..4k+3, little-endian."""
    return int.from_bytes(b, "little")


def unpack(v):
    return v.to_bytes(4 * WORDS, "little")


def test_extends_match_hashlib_and_nothing_else_writes():
    dut = MeasureCore()
    rng = random.Random(1)
    measurements = [hashlib.sha256(b"kernel").digest(), bytes(32), bytes([0xFF] * 32)] + \
        [rng.randbytes(32) for _ in range(3)]
    seen = {}

    async def bench(ctx):
        assert ctx.get(dut.value) == 0 and ctx.get(dut.count) == 0 and ctx.get(dut.busy) == 0
        want = bytes(32)
        clocks = []
        for i, meas in enumerate(measurements):
            ctx.set(dut.data, pack(meas))
            ctx.set(dut.extend, 1)
            await ctx.tick()
            ctx.set(dut.extend, 0)
            # A new measurement written during the extend is not the one taken.
            ctx.set(dut.data, pack(rng.randbytes(32)))
            n = 0
            while ctx.get(dut.busy):
                # An extend asked for while busy is ignored.
                ctx.set(dut.extend, n == 5)
                await ctx.tick()
                n += 1
                assert n < 400, "extend did not finish"
            ctx.set(dut.extend, 0)
            clocks.append(n + 1)
            want = hashlib.sha256(want + meas).digest()
            assert unpack(ctx.get(dut.value)) == want, i
            assert ctx.get(dut.count) == i + 1
            # Idle, the value holds whatever is on `data`.
            for _ in range(3):
                await ctx.tick()
            assert unpack(ctx.get(dut.value)) == want
        seen["clocks"] = clocks

    sim = Simulator(dut)
    sim.add_clock(1e-6)
    sim.add_testbench(bench)
    sim.run()
    # The docstring's clock budget: about 160 clocks an extend.
    assert len(seen["clocks"]) == len(measurements), "the testbench did not run to its end"
    assert all(140 <= c <= 180 for c in seen["clocks"]), seen["clocks"]


def test_no_port_writes_the_value():
    """The value's only way back to 0 is a reset: the core's ports have no write."""
    assert set(MeasureCore.__annotations__) == {"data", "extend", "value", "busy", "count"}
