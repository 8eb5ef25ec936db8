# SPDX-License-Identifier: MIT
"""The measurement register: what booted, recorded by hardware (docs/integrity.md,
"Measured boot").

A 256-bit value, 0 after reset, that software can only *extend*: it gives a 32-byte
measurement (the digest of what it is about to hand control to), and the register becomes

    value := SHA-256(value || measurement)

computed by its own SHA-256 core (gateware/sha256/core.py: not the engine, which software
drives). No write sets the value; only a reset clears it. So a value read later names the
whole chain of measurements since reset, in order: whoever ran in between could add to it
but not take anything back. The ROM extends it with the kernel image's digest before the
jump, the kernel with the manifest's; scripts/measure.py computes the expected value from
the build's files.

Small on purpose (the boards' LUTs are scarce): nothing holds the 64-byte message. On
`start` the core is opened and fed the value's 8 words from the value register itself;
then software hands over the measurement a word at a time (`push` with `data`, while `want`
says a word is taken), each going straight into the core; the 8th ends the message. The
digest is read back into the value word by word. One word of the value is readable at a
time (`sel` -> `word`), and `word` reads 0 while an extend runs, so no half-written value
is ever seen. A `push` when `want` is 0, or a `start` while busy, is ignored.

`MeasureCore` is the wide-interface core (Amaranth); `MeasurementRegister`
(gateware/measure_wrapper.py) its LiteX wrapper with the CSRs. Clock budget of an extend,
with the words pushed as fast as the core takes them: 8 clocks to feed the value, 8 beats
of the measurement, the two blocks (the 64-byte message, then the padding block: 2 x 64
clocks, folded), 9 clocks to read the digest back: about 160 clocks from `start`, during
which `busy` reads 1. Software's pushes through the CSR bus add their own clocks.
"""

import os

from amaranth import Module, Mux, Signal
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from .sha256.core import SHA256Core

WORDS = 8          # 32-bit words of the value and of a measurement


class MeasureCore(wiring.Component):
    """Ports: `start` (a one-clock pulse: begin an extend; ignored while busy), `data` and
    `push` (a measurement word, word k = bytes 4k..4k+3 little-endian as the engine's digest
    words; taken when `want` is 1), `want`, `busy`, `sel` -> `word` (value word sel, the same
    packing; 0 while busy), `count` (extends since reset)."""

    start: In(1)
    data: In(32)
    push: In(1)
    want: Out(1)
    sel: In(3)
    word: Out(32)
    busy: Out(1)
    count: Out(32)

    def elaborate(self, platform):
        m = Module()
        m.submodules.sha = sha = SHA256Core(variant="folded")
        value = Signal(32 * WORDS)
        idx = Signal(range(WORDS + 1))
        m.d.comb += [sha.mode.eq(0), sha.beats.payload.nbytes.eq(4), sha.squeeze.eq(0),
                     sha.ctx_we.eq(0), sha.key_we.eq(0), sha.ctx_wdata.eq(0)]
        # No half-written value is ever seen: 0 while an extend runs.
        m.d.comb += self.word.eq(Mux(self.busy, 0, value.word_select(self.sel, 32)))

        with m.FSM():
            with m.State("IDLE"):
                with m.If(self.start):
                    m.d.sync += idx.eq(0)
                    m.d.comb += sha.init.eq(1)
                    m.next = "VALUE"
            with m.State("VALUE"):
                # The value's words first: the message is value || measurement.
                m.d.comb += [self.busy.eq(1), sha.beats.valid.eq(1),
                             sha.beats.payload.data.eq(value.word_select(idx[:3], 32))]
                with m.If(sha.beats.ready):
                    m.d.sync += idx.eq(idx + 1)
                    with m.If(idx == WORDS - 1):
                        m.d.sync += idx.eq(0)
                        m.next = "MEASUREMENT"
            with m.State("MEASUREMENT"):
                # Software's words go straight into the core: `want` is the core's
                # beats.ready, so a word pushed when it is 0 is dropped, never half taken.
                m.d.comb += [self.busy.eq(1), self.want.eq(sha.beats.ready),
                             sha.beats.valid.eq(self.push), sha.beats.payload.data.eq(self.data),
                             sha.beats.payload.last.eq(idx == WORDS - 1)]
                with m.If(self.push & sha.beats.ready):
                    m.d.sync += idx.eq(idx + 1)
                    with m.If(idx == WORDS - 1):
                        m.next = "HASH"
            with m.State("HASH"):
                m.d.comb += self.busy.eq(1)
                with m.If(sha.done):
                    m.d.sync += idx.eq(0)
                    m.next = "READ"
            with m.State("READ"):
                # The context read has one clock of latency: word idx-1 arrives while idx
                # is asked for. The value's words are overwritten only now, after the core
                # has taken them.
                m.d.comb += [self.busy.eq(1), sha.ctx_addr.eq(idx)]
                m.d.sync += idx.eq(idx + 1)
                with m.If(idx != 0):
                    m.d.sync += value.word_select((idx - 1)[:3], 32).eq(sha.ctx_rdata)
                with m.If(idx == WORDS):
                    m.d.sync += self.count.eq(self.count + 1)
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
