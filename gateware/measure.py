# SPDX-License-Identifier: MIT
"""The measurement register: what booted, recorded by hardware (docs/integrity.md,
"Measured boot").

A 256-bit value, 0 after reset, that software can only *extend*: it writes a 32-byte
measurement (the digest of what it is about to hand control to) and asks for an extend;
the register becomes

    value := SHA-256(value || measurement)

computed by its own SHA-256 core (gateware/sha256/core.py: not the engine, which software
drives). No write sets the value; only a reset clears it. So a value read later names the
whole chain of measurements since reset, in order: whoever ran in between could add to it
but not take anything back. The ROM extends it with the kernel image's digest before the
jump, the kernel with the manifest's; scripts/measure.py computes the expected value from
the build's files.

`MeasureCore` is the wide-interface core (Amaranth); `MeasurementRegister`
(gateware/measure_wrapper.py) its LiteX wrapper with the CSRs. Clock budget of an extend: 1 clock to latch the measurement, 16
beats into the core (the core's input buffer takes one a clock), its two blocks (the
64-byte message, then the padding block: 2 x 64 clocks, folded), 9 clocks to read the
digest back: about 160 clocks, during which `busy` reads 1 and a further `extend` is ignored.
"""

import os

from amaranth import Cat, Module, Signal
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from .sha256.core import SHA256Core

WORDS = 8          # 32-bit words of the value and of a measurement


class MeasureCore(wiring.Component):
    """Ports: `data` (the measurement, word k = bytes 4k..4k+3 little-endian, as the
    engine's digest words), `extend` (a one-clock pulse, taken when not busy), `value`
    (the same packing), `busy`, `count` (extends since reset)."""

    data: In(32 * WORDS)
    extend: In(1)
    value: Out(32 * WORDS)
    busy: Out(1)
    count: Out(32)

    def elaborate(self, platform):
        m = Module()
        m.submodules.sha = sha = SHA256Core(variant="folded")
        msg = Signal(64 * WORDS)        # value || measurement: the message's 16 words
        idx = Signal(range(17))
        m.d.comb += [sha.mode.eq(0), sha.in_nbytes.eq(4), sha.squeeze.eq(0),
                     sha.ctx_we.eq(0), sha.key_we.eq(0), sha.ctx_wdata.eq(0)]
        m.d.comb += sha.in_data.eq(msg.word_select(idx[:4], 32))

        with m.FSM():
            with m.State("IDLE"):
                with m.If(self.extend):
                    m.d.sync += [msg.eq(Cat(self.value, self.data)), idx.eq(0)]
                    m.d.comb += sha.init.eq(1)
                    m.next = "FEED"
            with m.State("FEED"):
                m.d.comb += [self.busy.eq(1), sha.in_valid.eq(1), sha.in_last.eq(idx == 15)]
                with m.If(sha.in_ready):
                    m.d.sync += idx.eq(idx + 1)
                    with m.If(idx == 15):
                        m.next = "HASH"
            with m.State("HASH"):
                m.d.comb += self.busy.eq(1)
                with m.If(sha.done):
                    m.d.sync += idx.eq(0)
                    m.next = "READ"
            with m.State("READ"):
                # The context read has one clock of latency: word idx-1 arrives while
                # idx is asked for.
                m.d.comb += [self.busy.eq(1), sha.ctx_addr.eq(idx)]
                m.d.sync += idx.eq(idx + 1)
                with m.If(idx != 0):
                    m.d.sync += msg.word_select((idx - 1)[:3], 32).eq(sha.ctx_rdata)
                with m.If(idx == WORDS):
                    m.next = "STORE"
            with m.State("STORE"):
                m.d.comb += self.busy.eq(1)
                m.d.sync += [self.value.eq(msg[:32 * WORDS]), self.count.eq(self.count + 1)]
                m.next = "IDLE"
        return m


def write_verilog(out_dir):
    """MeasureCore as Verilog (module `measure_core`) in out_dir, cached like the engines'."""
    from .buildstamp import is_current, source_digest, write_atomic
    from .engines import to_verilog
    top = "measure_core"
    path = os.path.join(out_dir, f"{top}.v")
    stamp = path + ".stamp"
    tag = source_digest(["gateware/measure.py", "gateware/sha256"], top)
    os.makedirs(out_dir, exist_ok=True)
    if is_current(stamp, tag, path):
        return path, top
    text = to_verilog(MeasureCore(), top)
    write_atomic(path, text)
    write_atomic(stamp, tag)
    return path, top
