# SPDX-License-Identifier: MIT
"""Keccak core: SHA3-224/256/384/512, SHAKE128/256, cSHAKE128/256 and original Keccak-224/256/384/512.

Implements the core side of ``docs/engine-interface.md`` (ports, context words, modes).

Theory of operation
===================

Datapath
--------
``state`` is the 1600-bit Keccak state. Lane ``i = x + 5*y`` sits in bits ``64*i .. 64*i+63``,
so FIPS 202's byte string ``S`` maps onto it little-endian: state byte ``j`` is bits
``8*j .. 8*j+7``. An input beat (32 bits, first message byte in bits 7:0) is therefore simply
word ``k`` of the block, bits ``32*k .. 32*k+31``, with no byte swapping anywhere, and the
context word ``k`` (0..49) is the same slice of the state.

``KeccakRound`` is one combinational round ``iota(chi(pi(rho(theta(a)))))``. The state register
goes through it once per clock, so one Keccak-f[1600] takes 24 clocks. The round constant
comes from a 24-entry table indexed by the round counter ``rnd``.

Input never goes into the state directly. Beats are written into ``buf``, a one-block buffer
(up to 42 words, the SHAKE128 rate), at word index ``wcnt``. When the block is complete
(``full``) and no permutation is running, the *absorb* clock XORs the block (plus the final
``0x80`` bit if it is the padded last block) into the state **and** applies round 0 in the same
clock; rounds 1..23 follow. The buffer is emptied in that absorb clock and may already take the
first word of the next block in that very clock, so the next block fills while the current one
is permuted (double buffering).

Padding is done in hardware from the byte position: the ``last`` beat is masked to its
``nbytes`` valid bytes and the mode's pad byte (0x06 SHA3, 0x1F SHAKE, 0x04 cSHAKE, 0x01 Keccak) is put
right after them; if the beat had 4 valid bytes the pad byte goes into the next word
(``pad_pending``, one extra clock). Since ``buf`` is all zeros after each absorb, the zero
fill is free; the ``0x80`` in the last rate byte is OR-ed in at absorb time (``final``).

Control state
-------------
Two independent halves that talk through ``full``:

* input side: ``wcnt`` (words in the buffer), ``full`` (a complete block waits),
  ``pad_pending`` (pad byte still to be written), ``final`` (the buffered block is the padded
  last one);
* permutation side: ``rnd`` (0 = idle, otherwise the next round 1..23 to run), ``fin`` (the
  running permutation ends the message or is a squeeze, so ``done`` is set when it ends).

``busy = partial | full | pad_pending | running``, where ``partial`` (``wcnt != 0``) and
``running`` (``rnd != 0``) are flip-flops of their own, set with the counters' next values, so
neither compare sits on a path: ``running`` decides every clock whether the state takes a
round and the buffer (fan-out to all 1,600 state and 1,344 buffer bits), and ``busy`` gates
the context writes into the state and the 64-bit byte count. Routed with the compares, those
were the ULX3S SoC's critical paths at several placement seeds (docs/fpga.md, "ULX3S over five
placement seeds": ``rnd`` -> the state's input, ``wcnt`` -> the byte count's clock enable).
``beats.ready`` is 1 when the buffer has room
(not full, or being absorbed in this very clock) and no padding or final permutation is under
way. A beat accepted after ``done`` clears ``done`` and is absorbed into the current state (the
frontend always pulses ``init`` first; the core does not care). ``squeeze`` while ``done`` runs
one permutation without absorbing; the core does not check the mode.

Where the clocks go
-------------------
With ``W`` words per block (rate/4: 36, 34, 26, 18, 42) and beats offered on every clock:

* a block's last beat is written into ``buf`` in clock ``t``; if no permutation is running,
  clock ``t+1`` absorbs and runs round 0, and round 23 runs in clock ``t+24``. So the state
  holds the permuted block 24 clocks after the clock of the last beat, and for the last block
  ``done`` = 1 from then on. **24 clocks per permutation**;
* the next block's beats are accepted from the absorb clock on, so blocks stream at
  **max(24, W) clocks per block**: W clocks for SHA3-224/256/384, SHAKE and Keccak-224/256/384
  (W >= 26), 24 clocks for SHA3-512/Keccak-512 (W = 18: a full buffer waits up to 6 clocks
  for the running permutation, ``beats.ready`` = 0 meanwhile);
* a message of ``n`` beats (the last beat carrying 0..3 bytes) that fits into one block:
  ``n + 24`` clocks from the first beat to ``done``; a last beat with 4 bytes costs one more
  clock (the pad word), and a message whose last beat exactly fills a block needs one more
  block (the pad-only block, 1 + 24 clocks);
* ``squeeze``: 24 clocks; ``done`` is 0 in between.

Context port: ``ctx_rdata`` is registered (word ``ctx_addr`` of the previous clock). Words
0..49 are the lanes, 50/51 the absorbed byte count; writes are honoured only while
``busy`` = 0, i.e. at a block boundary, which is all that resuming a message needs (the
buffer is empty then and ``init`` has set the mode).
"""

from amaranth import Array, Cat, Const, Module, Mux, Signal
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from .. import hashspec
from ..common.core_signature import hash_core_signature

__all__ = ["MODES", "PERMUTATION_CLOCKS", "ROUND_CONSTANTS", "RHO_OFFSETS", "RATE_MAX", "KeccakRound", "KeccakCore"]


# --- Constants of Keccak-f[1600], derived as in FIPS 202 -----------------------------------------

def _rc_bit(t):
    """FIPS 202 Algorithm 5: rc(t), the output of the LFSR x^8 + x^6 + x^5 + x^4 + 1."""
    r = 1                                   # R = 10000000 (R[0] is bit 0)
    for _ in range(t % 255):
        r <<= 1                             # R = 0 || R
        if r & 0x100:                       # R[0,4,5,6] ^= R[8]; R = Trunc8(R)
            r ^= 0x171
    return r & 1


def _round_constant(ir):
    """FIPS 202 Algorithm 6: bit 2^j - 1 of RC is rc(j + 7*ir)."""
    return sum(_rc_bit(j + 7 * ir) << ((1 << j) - 1) for j in range(7))


def _rho_offsets():
    """FIPS 202 Algorithm 2: offsets[x][y] for rho, walking (x, y) -> (y, 2x + 3y)."""
    offsets = [[0] * 5 for _ in range(5)]
    x, y = 1, 0
    for t in range(24):
        offsets[x][y] = ((t + 1) * (t + 2) // 2) % 64
        x, y = y, (2 * x + 3 * y) % 5
    return offsets


PERMUTATION_CLOCKS = 24      # one round per clock: the clock budget above, and the docs' tables
ROUND_CONSTANTS = [_round_constant(ir) for ir in range(PERMUTATION_CLOCKS)]
RHO_OFFSETS = _rho_offsets()

# mode: (name, rate in bytes, pad byte), from the one description (gateware/hashspec.py):
# a Keccak-family mode added there is built into this core's mode table with no edit here.
# cSHAKE's modes (SP 800-185) are SHAKE's sponges with cSHAKE's pad byte; KMAC's are the
# wrapper's (gateware/keccak/kmac.py), which runs this core in the cSHAKE mode.
MODES = {a.mode: (a.title, a.block, a.pad) for a in hashspec.algorithms_of("keccak")}
MODES.update({s.cshake: ("c" + s.xof, hashspec.algorithm(s.xof).block, hashspec.CSHAKE_PAD)
              for s in hashspec.SP800_185})
RATE_MAX = max(rate for _, rate, _ in MODES.values())   # 168 bytes = 42 words


# --- One round -----------------------------------------------------------------------------------

def _lanes(v):
    """The 25 64-bit lanes of a 1600-bit value, indexed [x][y]."""
    return [[v[64 * (x + 5 * y):64 * (x + 5 * y + 1)] for y in range(5)] for x in range(5)]


def _cat_lanes(lanes):
    """Inverse of _lanes: lane (x, y) at bits 64*(x + 5*y)."""
    return Cat(*(lanes[x][y] for y in range(5) for x in range(5)))


class KeccakRound(wiring.Component):
    """Combinational Keccak-f[1600] round: ``y = iota(chi(pi(rho(theta(a)))), rc)``.

    Kept as its own module so each step has a named wire (``c``, ``d``, ``t``, ``b``) in
    waveforms and so that the simulator re-evaluates it only when ``a`` or ``rc`` changes.
    """
    a:  In(1600)
    rc: In(64)
    y:  Out(1600)

    def elaborate(self, platform):
        m = Module()

        # theta: c[x] = parity of column x; d[x] = c[x-1] ^ rotl(c[x+1], 1); t = a ^ d[x]
        a = _lanes(self.a)
        c = Signal(320)
        m.d.comb += c.eq(Cat(*(a[x][0] ^ a[x][1] ^ a[x][2] ^ a[x][3] ^ a[x][4]
                               for x in range(5))))
        cl = [c[64 * x:64 * (x + 1)] for x in range(5)]
        d = Signal(320)
        m.d.comb += d.eq(Cat(*(cl[(x - 1) % 5] ^ cl[(x + 1) % 5].rotate_left(1)
                               for x in range(5))))
        t = Signal(1600)
        m.d.comb += t.eq(self.a ^ d.replicate(5))     # d[x] into every row y

        # rho and pi: b[y][2x + 3y] = rotl(t[x][y], r[x][y])
        tl = _lanes(t)
        bl = [[None] * 5 for _ in range(5)]
        for x in range(5):
            for y in range(5):
                bl[y][(2 * x + 3 * y) % 5] = tl[x][y].rotate_left(RHO_OFFSETS[x][y])
        b = Signal(1600)
        m.d.comb += b.eq(_cat_lanes(bl))

        # chi: y[x][y] = b[x][y] ^ (~b[x+1][y] & b[x+2][y]); iota: lane (0, 0) ^= rc
        bl = _lanes(b)
        b1 = _cat_lanes([[bl[(x + 1) % 5][y] for y in range(5)] for x in range(5)])
        b2 = _cat_lanes([[bl[(x + 2) % 5][y] for y in range(5)] for x in range(5)])
        m.d.comb += self.y.eq(b ^ (~b1 & b2) ^ self.rc)
        return m


# --- The core ------------------------------------------------------------------------------------

class KeccakCore(wiring.Component):
    """Keccak engine core; ports and context words as in docs/engine-interface.md."""
    def __init__(self):
        super().__init__(hash_core_signature())

    def elaborate(self, platform):
        m = Module()
        m.submodules.round = rnd_f = KeccakRound()

        # --- registers ---
        mode  = Signal(4)                    # mode sampled on init
        state = Signal(1600)                 # the Keccak state, lane i at bits 64i..64i+63
        count = Signal(64)                   # message bytes absorbed (informational)
        buf   = Signal(8 * RATE_MAX)         # next block, zero above the written words
        wcnt  = Signal(range(RATE_MAX // 4)) # words in buf
        partial     = Signal()               # wcnt != 0, kept as a flip-flop (see busy above)
        full        = Signal()               # buf holds a complete block
        final       = Signal()               # ... and it is the padded last block
        pad_pending = Signal()               # last beat had 4 bytes: pad byte goes in next word
        rnd   = Signal(range(24))            # 0: idle (or round 0 now), else next round to run
        running     = Signal()               # rnd != 0, kept as a flip-flop (see busy above)
        fin   = Signal()                     # running permutation sets done when it ends
        done  = Signal()

        # --- the mode table: rate in words, pad byte, position of the final 0x80 bit ---
        rate_w  = Signal(range(RATE_MAX // 4 + 1))
        pad     = Signal(8)
        end_bit = Signal(8 * RATE_MAX)
        with m.Switch(mode):
            for code, (_, rate, pad_byte) in MODES.items():
                with m.Case(code):
                    m.d.comb += [rate_w.eq(rate // 4), pad.eq(pad_byte),
                                 end_bit[8 * rate - 1].eq(1)]

        # --- permutation side ---
        absorb    = full & ~running               # XOR buf into the state + round 0, this clock
        squeezing = self.squeeze & done           # one more permutation, nothing absorbed
        step      = absorb | squeezing | running  # the state goes through one round
        block     = Signal(1600)                  # XOR-ed into the state (0 unless absorb)
        m.d.comb += [
            block.eq(Mux(absorb, buf | Mux(final, end_bit, 0), 0)),
            rnd_f.a.eq(state ^ block),
            rnd_f.rc.eq(Array(Const(rc, 64) for rc in ROUND_CONSTANTS)[rnd]),
        ]

        # --- input side ---
        room   = ~full | absorb                  # buf can take a word this clock
        busy   = partial | full | pad_pending | running
        takes  = room & ~pad_pending & ~final & ~fin
        accept = self.beats.valid & takes
        write_pad = pad_pending & room           # the delayed pad word, on its own clock
        m.d.comb += [self.beats.ready.eq(takes), self.busy.eq(busy), self.done.eq(done)]

        # last beat with n < 4 bytes (nbytes is 0..4): keep n bytes, the pad byte after them
        last_word = Signal(32)
        with m.Switch(self.beats.payload.nbytes):
            for n in range(4):
                with m.Case(n):
                    m.d.comb += last_word.eq(self.beats.payload.data[:8 * n] | (pad << (8 * n)))
        closes = (accept & self.beats.payload.last & (self.beats.payload.nbytes < 4)) | write_pad
        wdata  = Mux(write_pad, pad, Mux(closes, last_word, self.beats.payload.data))

        # --- registered context read ---
        with m.Switch(self.ctx_addr):
            for k in range(50):
                with m.Case(k):
                    m.d.sync += self.ctx_rdata.eq(state[32 * k:32 * (k + 1)])
            with m.Case(50):
                m.d.sync += self.ctx_rdata.eq(count[:32])
            with m.Case(51):
                m.d.sync += self.ctx_rdata.eq(count[32:])
            with m.Default():
                m.d.sync += self.ctx_rdata.eq(0)

        with m.If(self.init):
            m.d.sync += [
                mode.eq(self.mode), state.eq(0), count.eq(0), buf.eq(0), wcnt.eq(0), partial.eq(0),
                full.eq(0), final.eq(0), pad_pending.eq(0), rnd.eq(0), running.eq(0), fin.eq(0),
                done.eq(0),
            ]
        with m.Else():
            # permutation side
            with m.If(step):
                m.d.sync += [state.eq(rnd_f.y), rnd.eq(Mux(rnd == 23, 0, rnd + 1)), running.eq(rnd != 23)]
                with m.If(absorb):
                    m.d.sync += [full.eq(0), final.eq(0), fin.eq(final), buf.eq(0)]
                with m.If(squeezing):
                    m.d.sync += [fin.eq(1), done.eq(0)]
                with m.If(rnd == 23):
                    m.d.sync += [done.eq(fin), fin.eq(0)]
            with m.Elif(self.ctx_we & ~busy):
                with m.Switch(self.ctx_addr):
                    for k in range(50):
                        with m.Case(k):
                            m.d.sync += state[32 * k:32 * (k + 1)].eq(self.ctx_wdata)
                    with m.Case(50):
                        m.d.sync += count[:32].eq(self.ctx_wdata)
                    with m.Case(51):
                        m.d.sync += count[32:].eq(self.ctx_wdata)

            # input side (after the absorb above, so a word written now wins over buf.eq(0))
            with m.If(accept | write_pad):
                m.d.sync += buf.word_select(wcnt, 32).eq(wdata)
                with m.If(closes | (wcnt == rate_w - 1)):
                    m.d.sync += [full.eq(1), wcnt.eq(0), partial.eq(0)]
                with m.Else():
                    m.d.sync += [wcnt.eq(wcnt + 1), partial.eq(1)]
                with m.If(closes):
                    m.d.sync += [final.eq(1), pad_pending.eq(0)]
            with m.If(accept):
                m.d.sync += [count.eq(count + self.beats.payload.nbytes), done.eq(0)]
                with m.If(self.beats.payload.last & (self.beats.payload.nbytes == 4)):
                    m.d.sync += pad_pending.eq(1)

        return m
