# SPDX-License-Identifier: MIT
"""The measurement register: what booted, recorded by hardware (docs/integrity.md,
"Measured boot").

A 256-bit value, 0 after reset, that software can only *extend*: it gives a 32-byte
measurement (the digest of what it is about to hand control to), and the register becomes

    value := SHA-256(value || measurement)

computed by a SHA-256 of its own (below: not the engine, which software drives). No write sets the value; only a reset clears it. So a value read later names the
whole chain of measurements since reset, in order: whoever ran in between could add to it
but not take anything back. The ROM extends it with the kernel image's digest before the
jump, the kernel with the manifest's; scripts/measure.py computes the expected value from
the build's files.

Small on purpose (the boards' LUTs are scarce), so it has a SHA-256 of its own that does
only this: one message of exactly 64 bytes (value || measurement), whose second block, the
padding, is a constant. Nothing holds the message: the value's 8 words are the first block's
words 0-7, taken from the value register round by round, and software hands the measurement
over a word at a time (`push` with `data`, while `want` says a word is taken), each taken as
word 8-15 of the block in its round; the 8th ends the message. The value register is also
the chaining value: block 1 starts from the IV, and its result IV + state goes into the value
(the old value was used up in rounds 0-7) and into the working state at once; block 2 (the
padding's words, constants) adds onto it, and what stands in the value then is the digest.
A round takes two clocks, so that no clock carries more than one multi-operand add (in one
clock, schedule and round in series ran at 53 MHz in the ULX3S SoC): T1 first, then a, e
and the next message word. Each feed-forward is word-serial: the state and the value rotate
by a word a clock through one 32-bit adder. So the datapath is one round, the message
schedule's 16-word window, the working state and the value: no block buffer, no context
port, no modes. Alone on ECP5
(`yosys synth_ecp5`) it is 1,674 LUT4 + 99 CCU2C and 1,068 FF, where the register built
around the engines' SHA-256 core (gateware/sha256/core.py) was 2,489 + 230 and 1,976.
One word of the value is readable at a time (`sel` -> `word`), and `word` reads 0 while an
extend runs, so no half-written value is ever seen. A `push` when `want` is 0, or a `start`
while busy, is ignored.

`MeasureCore` is the wide-interface core (Amaranth); `MeasurementRegister`
(gateware/measure_wrapper.py) its LiteX wrapper with the CSRs. Clock budget of an extend,
with the words pushed as fast as the core takes them: a clock to put the block's first word
in the schedule's window, 64 rounds of 2 clocks (rounds 7-14 of block 1 each take a pushed
word), 8 clocks of feed-forward; twice: 274 clocks after the one of `start`, during which
`busy` reads 1 (tests/test_measure.py counts them). Software's pushes through the CSR bus add their
own clocks.
"""

import os

from amaranth import Array, Const, Module, Mux, Signal
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from .sha2.constants import IV, K256
from .sha2.core import FAMILIES, Ch, Maj, big_sigma, bswap32, small_sigma

WORDS = 8          # 32-bit words of the value and of a measurement


# The second block of every extend: the padding of a 64-byte message (FIPS 180-4 5.1.1:
# the 0x80 byte, zeros, the bit length 512), as SHA-256 words.
PAD_BLOCK = [0x80000000] + [0] * 14 + [8 * 64]


# SHA-256's functions, the SHA-2 core's (gateware/sha2/core.py).
_SHA256 = FAMILIES["sha256"]
Sigma0, Sigma1 = big_sigma(_SHA256.Sigma0), big_sigma(_SHA256.Sigma1)
sigma0, sigma1 = small_sigma(_SHA256.sigma0), small_sigma(_SHA256.sigma1)


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
        # The value as SHA-256 words (H0..H7, big-endian); the ports see each byte-swapped.
        value = [Signal(32, name=f"value{i}") for i in range(WORDS)]
        # The working state a..h; it holds the IV whenever no extend runs (from reset, and
        # put back by the last feed-forward), so an extend starts with no load.
        s = [Signal(32, name=f"s{i}", init=iv) for i, iv in enumerate(IV["SHA256"])]
        w = [Signal(32, name=f"w{i}") for i in range(16)]           # W[t-16] .. W[t-1]
        t = Signal(6)               # round
        k = Signal(3)               # feed-forward step: word 7 - k
        second = Signal()           # block 2: the padding
        # One read multiplexer for both: software's `sel` while idle, the message word of the
        # first block while busy (when `word` reads 0 anyway).
        rd = Signal(32)
        tn = Signal(6)              # the round whose message word is asked for (below)
        m.d.comb += [rd.eq(Array(value)[Mux(self.busy, tn[:3], self.sel)]),
                     self.word.eq(Mux(self.busy, 0, bswap32(rd)))]

        # One round (FIPS 180-4 6.2.2) in two clocks, so no clock carries more than one
        # multi-operand add: A registers T1 (with W[t], registered a round earlier), B makes
        # a and e from it and shifts W[t+1] into the window (the message's word, or the
        # schedule's from the window). w15 is W[t] during round t.
        a, b, c, d, e, f, g, h = s
        msg = Signal(32)
        with m.If(second):
            m.d.comb += msg.eq(Array(Const(x, 32) for x in PAD_BLOCK)[tn[:4]])
        with m.Elif(tn < WORDS):
            m.d.comb += msg.eq(rd)
        with m.Else():
            m.d.comb += msg.eq(bswap32(self.data))
        sched = Signal(32)
        m.d.comb += sched.eq(sigma1(w[14]) + w[9] + sigma0(w[1]) + w[0])
        t1 = Signal(32)
        t2 = Signal(32)
        m.d.comb += t2.eq(Sigma0(a) + Maj(a, b, c))
        # Words 8-15 of block 1 are software's: round t waits in B for word t+1.
        waits = ~second & (tn >= WORDS) & (tn < 16)

        # Both the rounds and the feed-forward move the state the same way (b := a, ...,
        # h := g), so only a and e choose their input: the state is a shift register.
        shift = Signal()
        with m.If(shift):
            m.d.sync += [x.eq(y) for x, y in zip(s[1:], s[:-1]) if x is not e]

        def window_in(word):
            m.d.sync += [x.eq(y) for x, y in zip(w, w[1:])] + [w[15].eq(word)]

        with m.FSM():
            with m.State("IDLE"):
                with m.If(self.start):
                    m.d.sync += [t.eq(0), second.eq(0)]
                    m.next = "PRIME"
            with m.State("PRIME"):
                # W[0] of the block into the window.
                m.d.comb += [self.busy.eq(1), tn.eq(0)]
                window_in(msg)
                m.next = "A"
            with m.State("A"):
                m.d.comb += self.busy.eq(1)
                m.d.sync += t1.eq(h + Sigma1(e) + Ch(e, f, g) + Array(Const(x, 32) for x in K256)[t] + w[15])
                m.next = "B"
            with m.State("B"):
                m.d.comb += [self.busy.eq(1), tn.eq(t + 1), self.want.eq(waits)]
                with m.If(~waits | self.push):
                    m.d.comb += shift.eq(1)
                    m.d.sync += [a.eq(t1 + t2), e.eq(d + t1), t.eq(t + 1)]
                    window_in(Mux(tn < 16, msg, sched))
                    with m.If(t == 63):
                        m.d.sync += k.eq(0)
                        m.next = "FEED"
                    with m.Else():
                        m.next = "A"
            with m.State("FEED"):
                # value[i] := H[i] + state[i], a word a clock from h to a: the state and the
                # value turn by one word a clock, so h and value[7] are the pair added and the
                # sum enters at a and at value[0]; after 8 clocks both are back in order.
                # Block 1's H is the IV (the value's old words were used up in rounds 0-7);
                # its sum also starts block 2's state. Block 2's sum is the new value, and
                # the state gets the IV back for the next extend.
                m.d.comb += [self.busy.eq(1), shift.eq(1)]
                iv = Array(Const(x, 32) for x in reversed(IV["SHA256"]))[k]
                total = Signal(32)
                m.d.comb += total.eq(Mux(second, value[-1], iv) + h)
                m.d.sync += [x.eq(y) for x, y in zip(value[1:], value[:-1])] + [value[0].eq(total)]
                m.d.sync += [a.eq(Mux(second, iv, total)), e.eq(d), k.eq(k + 1)]
                with m.If(k == WORDS - 1):
                    m.d.sync += [second.eq(~second), t.eq(0)]
                    with m.If(second):
                        m.d.sync += self.count.eq(self.count + 1)
                        m.next = "IDLE"
                    with m.Else():
                        m.next = "PRIME"
        return m


def write_verilog(out_dir):
    """MeasureCore as Verilog (module `measure_core`) in out_dir, cached like the engines'."""
    from .buildstamp import is_current, source_digest, write_atomic
    from .engines import to_verilog
    top = "measure_core"
    path = os.path.join(out_dir, f"{top}.v")
    stamp = path + ".stamp"
    tag = source_digest(["gateware/measure.py", "gateware/sha2/constants.py", "gateware/sha2/core.py"], top)
    os.makedirs(out_dir, exist_ok=True)
    if is_current(stamp, tag, path):
        return path, top
    text = to_verilog(MeasureCore(), top)
    write_atomic(path, text)
    write_atomic(stamp, tag)
    return path, top
