# SPDX-License-Identifier: MIT
"""SHA-256 / SHA-224 core (FIPS 180-4), one round per clock.

Interface: the hash-engine core contract in ``docs/engine-interface.md`` (mode 0 =
SHA-256, mode 1 = SHA-224; ``squeeze`` is ignored).

Theory of operation
===================

Datapath::

    in_data --(mask, 0x80 marker, byte swap)--+
    padding FSM (0x80 word, zeros, length) ---+--> buf[0..15] --(load)--> W[0..15]
                                                   16-word input           16-word message
                                                   shift register          schedule window
                                                                              | W[0]
                                    h + K[round] + W[0] (a clock ahead) --> round --> a..h
                                                                                        |
                                                                 H0..H7 <-- H += a..h --+

* Input buffer: ``buf`` is a 16-word shift register. Every accepted beat (and every
  word the padding logic makes) is shifted in at ``buf[15]``; after 16 pushes ``buf[0]``
  holds word 0 of the block and ``fill`` = 16 ("full", ``in_ready`` = 0).
  Bytes arrive little-endian packed (first byte in bits 7:0); SHA-256 words are
  big-endian, so each word is byte-swapped on the way in.
* Padding is made in hardware from the byte count. The last beat (``in_last``) is
  masked to ``in_nbytes`` bytes and, if it has room, gets the 0x80 marker byte; if it
  is full, the padding FSM pushes a 0x80000000 word. Then zero words follow until the
  buffer is at word 14, where the 64-bit big-endian bit length (``count`` * 8) is
  pushed as words 14 and 15. When the marker lands in word 14 or 15 the zeros simply
  run on through a second block. The block that carries the length is marked "final".
* Message schedule: ``W`` is a 16-word sliding window, no 64-word memory. Round t
  uses W[0] = W_t; each round the window shifts down by one and
  W[15] := sigma1(W[14]) + W[9] + sigma0(W[1]) + W[0] (= W_{t+16}). The last 15 words
  it computes in a block are not used, which keeps the control trivial.
* Compression: a..h are updated once per clock from W[0] and K[round] (K is a 64-entry
  constant ROM). h + K[t] + W[t] is summed one clock ahead into a register (``hkw``), so
  the round itself adds only Sigma1(e) + Ch(e, f, g) to it (and t2 for a, d for e).
* Hash update, ``variant="folded"`` (seed 003): the last round (63) adds H directly to
  the new working variables: H := H + round(a..h) and a..h := the same sum. H enters as
  one more operand of each output's sum, gated by a flip-flop set on round 62, so no
  counter compare or multiplexer follows the round's adds. A block is exactly 64 clocks. ``variant="basic"``: round 63 only updates a..h; an extra clock
  does H := H + a..h (and a..h := the same sum), 65 clocks per block.
  In both variants a..h equal H whenever no block is being compressed (``init`` and
  context writes set both), so a new block never needs a "load a..h from H" clock.
* Double buffering: while block k compresses, block k+1 fills ``buf``. If ``buf`` is
  full when block k ends (round 63 folded, update clock basic), ``buf`` is copied into
  ``W`` on that same clock and the next clock is round 0 of block k+1. If the compressor
  is idle when ``buf`` fills, the copy takes one clock of its own.

Where the clocks go, beats offered on every clock from clock 0, N blocks::

    clocks 0..15      16 beats fill buf (the compressor is idle)
    clock  16         buf -> W (idle start: the only clock not hidden later)
    clocks 17..80     rounds 0..63 of block 0; buf takes block 1 in clocks 17..32,
                      then in_ready = 0 until round 63 frees it
    clock  80         round 63 + folded H update + buf -> W: block 1 starts at 81
    ...
    busy = 0 (and done = 1 if the message ended) on clock 64*N + 17 (folded),
    65*N + 17 (basic). The padding block, if the length does not fit in the last
    data block, is one more block (+64 / +65) whose 16 words are made while the
    previous block compresses.

Status: ``busy`` = a block is compressing or updating, ``buf`` holds words, or the
message has ended (``in_last`` accepted) and its digest is not yet ready. ``done`` is
set on the clock the final block's H update completes, cleared by ``init`` or an
accepted beat. ``in_ready`` = buffer not full and no message end in progress.

Context (registered read, one clock latency; writes only while ``busy`` = 0):
words 0..7 = H0..H7 byte-swapped (memory order = digest order), 8/9 = message byte
count bits 31:0 / 63:32, 10..63 read 0. Writing H words also writes the matching
working variable so that the "a..h = H when idle" rule holds after an import.
"""

from amaranth import *
from amaranth.lib import wiring

from .. import hashspec
from ..common.core_signature import hash_core_signature

__all__ = ["SHA256Core", "K", "IV_SHA256", "IV_SHA224", "MODE_SHA256", "MODE_SHA224"]

MODE_SHA256 = hashspec.algorithm("SHA256").mode     # gateware/hashspec.py
MODE_SHA224 = hashspec.algorithm("SHA224").mode

# FIPS 180-4, 4.2.2: first 32 bits of the fractional parts of the cube roots of the
# first 64 primes.
K = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]

# FIPS 180-4, 5.3.3 and 5.3.2: initial hash values.
IV_SHA256 = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
             0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]
IV_SHA224 = [0xc1059ed8, 0x367cd507, 0x3070dd17, 0xf70e5939,
             0xffc00b31, 0x68581511, 0x64f98fa7, 0xbefa4fa4]


def add32(*terms):
    """Sum modulo 2**32."""
    return sum(terms[1:], terms[0])[:32]


def bswap32(x):
    return Cat(x[24:32], x[16:24], x[8:16], x[0:8])


# FIPS 180-4, 4.1.2
def Sigma0(x): return x.rotate_right(2) ^ x.rotate_right(13) ^ x.rotate_right(22)
def Sigma1(x): return x.rotate_right(6) ^ x.rotate_right(11) ^ x.rotate_right(25)
def sigma0(x): return x.rotate_right(7) ^ x.rotate_right(18) ^ (x >> 3)
def sigma1(x): return x.rotate_right(17) ^ x.rotate_right(19) ^ (x >> 10)
def Ch(x, y, z): return (x & y) ^ (~x & z)
def Maj(x, y, z): return (x & y) ^ (x & z) ^ (y & z)


class SHA256Core(wiring.Component):
    """SHA-256/SHA-224 core; ``variant`` is ``"folded"`` (64 clk/block) or ``"basic"`` (65)."""

    VARIANTS = ("folded", "basic")

    def __init__(self, variant="folded"):
        if variant not in self.VARIANTS:
            raise ValueError(f"variant must be one of {self.VARIANTS}, not {variant!r}")
        self.variant = variant
        self.clocks_per_block = 64 if variant == "folded" else 65
        super().__init__(hash_core_signature())     # squeeze is ignored: no XOF modes

    def elaborate(self, platform):
        m = Module()
        folded = self.variant == "folded"

        # ---- state ------------------------------------------------------------------
        H = [Signal(32, name=f"H{i}", init=IV_SHA256[i]) for i in range(8)]
        v = [Signal(32, name=n, init=IV_SHA256[i]) for i, n in enumerate("abcdefgh")]
        W = [Signal(32, name=f"W{i}") for i in range(16)]
        buf = [Signal(32, name=f"buf{i}") for i in range(16)]
        fill = Signal(range(17))        # words in buf
        buf_final = Signal()            # buf holds the block with the length words
        count = Signal(64)              # message bytes accepted
        running = Signal()              # rounds in progress
        rnd = Signal(6)                 # round number of the current clock
        updating = Signal()             # basic variant: the H update clock
        run_final = Signal()            # the block being compressed is the last one
        done = Signal()

        # ---- control signals ----------------------------------------------------------
        beat = Signal()                 # an input beat is accepted this clock
        push = Signal()                 # shift push_word into buf this clock
        push_word = Signal(32)
        buf_full = Signal()
        ending = Signal()               # last clock of a block (H gets updated)
        last = Signal()                 # registered: this clock is round 63
        start = Signal()                # buf -> W, round 0 next clock
        msg_open = Signal()             # padding FSM accepts message beats

        m.d.comb += [
            buf_full.eq(fill == 16),
            self.in_ready.eq(msg_open & ~buf_full),
            beat.eq(self.in_valid & self.in_ready),
            ending.eq(last if folded else updating),
            start.eq(buf_full & (ending | ~(running | updating))),
            self.busy.eq(running | updating | (fill != 0) | ~msg_open),
            self.done.eq(done),
        ]

        # ---- input word: keep in_nbytes bytes, add the 0x80 marker after the last one -
        n = self.in_nbytes
        in_bytes = []
        for j in range(4):
            data_byte = self.in_data[8 * j:8 * j + 8]
            marker = Mux((n == j) & self.in_last, 0x80, 0x00)
            in_bytes.append(Mux(n > j, data_byte, marker))
        beat_word = Cat(*reversed(in_bytes))        # first byte -> bits 31:24

        bit_len = Cat(C(0, 3), count)[:64]          # FIPS 180-4 length field, in bits

        # ---- padding FSM: message beats, then the padding words -----------------------
        with m.FSM(name="pad") as pad_fsm:
            with m.State("MESSAGE"):
                m.d.comb += [push.eq(beat), push_word.eq(beat_word)]
                with m.If(beat & self.in_last):
                    with m.If(n == 4):
                        m.next = "MARKER"       # no room for 0x80 in the last beat
                    with m.Else():
                        m.next = "ZEROS"
            with m.State("MARKER"):
                m.d.comb += [push.eq(~buf_full), push_word.eq(0x80000000)]
                with m.If(~buf_full):
                    m.next = "ZEROS"
            with m.State("ZEROS"):
                m.d.comb += [push.eq(~buf_full),
                             push_word.eq(Mux(fill == 14, bit_len[32:64], 0))]
                with m.If(~buf_full & (fill == 14)):
                    m.next = "LENGTH_LO"
            with m.State("LENGTH_LO"):
                m.d.comb += [push.eq(1), push_word.eq(bit_len[0:32])]   # fill == 15 here
                m.d.sync += buf_final.eq(1)
                m.next = "FINISH"
            with m.State("FINISH"):                 # wait for the final block's H update
                with m.If(ending & run_final):
                    m.next = "MESSAGE"
        m.d.comb += msg_open.eq(pad_fsm.ongoing("MESSAGE"))

        # ---- input buffer -----------------------------------------------------------
        with m.If(push):                            # never on a clock with buf_full
            m.d.sync += [buf[i].eq(buf[i + 1]) for i in range(15)]
            m.d.sync += [buf[15].eq(push_word), fill.eq(fill + 1)]
        with m.If(beat):
            m.d.sync += count.eq(count + n)

        # ---- round function and message schedule ------------------------------------
        # The round's longest path is the chain of 32-bit adds into a and e (CCU2C carry
        # chains on ECP5). Two things keep it short:
        # * hkw = h + K[t] + W[t] is summed one clock ahead from the values h, W[0] and
        #   the round number take next clock (h of round t+1 is g of round t), so round t
        #   adds only Sigma1(e) + Ch(e,f,g) to a register, and no ROM lookup is on the path.
        # * Folded: H is added to round 63's outputs as one more operand, gated by `last`,
        #   a flip-flop set on round 62, instead of a round-counter compare and a mux after
        #   the sum. H_i + x for the shifted words (b, c, d, f, g, h) costs one add each.
        a, b, c, d, e, f, g, h = v
        hkw = Signal(32)
        t1 = Signal(32)
        t2 = Signal(32)
        w_next = Signal(32)
        m.d.comb += [
            t1.eq(add32(hkw, Sigma1(e), Ch(e, f, g))),
            t2.eq(add32(Sigma0(a), Maj(a, b, c))),
            w_next.eq(add32(sigma1(W[14]), W[9], sigma0(W[1]), W[0])),
        ]
        if folded:
            # H_i where round 63 adds it, 0 in rounds 0..62.
            hadd = [Mux(last, H[i], 0) for i in range(8)]
            v_round = [add32(t1, add32(t2, hadd[0])), add32(a, hadd[1]), add32(b, hadd[2]),
                       add32(c, hadd[3]), add32(t1, add32(d, hadd[4])), add32(e, hadd[5]),
                       add32(f, hadd[6]), add32(g, hadd[7])]
            H_sum = v_round                     # round 63's outputs are H + round(a..h)
        else:
            v_round = [add32(t1, t2), a, b, c, add32(d, t1), e, f, g]
            # Basic: the update clock after round 63 adds H to a..h.
            H_sum = [add32(H[i], v[i]) for i in range(8)]

        # ---- working variables and hash words ---------------------------------------
        v_next = [Signal(32, name=f"{n}_next") for n in "abcdefgh"]
        m.d.comb += [v_next[i].eq(v[i]) for i in range(8)]
        with m.If(self.init):
            for i in range(8):
                iv = Mux(self.mode == MODE_SHA224, IV_SHA224[i], IV_SHA256[i])
                m.d.sync += H[i].eq(iv)
                m.d.comb += v_next[i].eq(iv)
        with m.Elif(self.ctx_we & (self.ctx_addr < 8)):
            with m.Switch(self.ctx_addr):
                for i in range(8):
                    with m.Case(i):
                        m.d.sync += H[i].eq(bswap32(self.ctx_wdata))
                        m.d.comb += v_next[i].eq(bswap32(self.ctx_wdata))
        with m.Elif(ending):
            m.d.sync += [H[i].eq(H_sum[i]) for i in range(8)]
            m.d.comb += [v_next[i].eq(H_sum[i]) for i in range(8)]
        with m.Elif(running):
            m.d.comb += [v_next[i].eq(v_round[i]) for i in range(8)]
        m.d.sync += [v[i].eq(v_next[i]) for i in range(8)]

        with m.If(start):
            m.d.sync += [W[i].eq(buf[i]) for i in range(16)]
        with m.Elif(running):
            m.d.sync += [W[i].eq(W[i + 1]) for i in range(15)]
            m.d.sync += W[15].eq(w_next)

        # hkw for the next clock's round: round 0 after `start`, else round rnd + 1. On
        # other clocks the value is unused (no round runs next), so it need not be exact.
        k_next = Array(Const(x, 32) for x in K)[Mux(start, 0, rnd + 1)]
        m.d.sync += hkw.eq(add32(v_next[7], Mux(start, buf[0], W[1]), k_next))

        # ---- block sequencing ---------------------------------------------------------
        m.d.sync += last.eq(running & (rnd == 62))
        with m.If(running):
            m.d.sync += rnd.eq(rnd + 1)
            with m.If(rnd == 63):
                m.d.sync += running.eq(0)
                if not folded:
                    m.d.sync += updating.eq(1)
        if not folded:
            with m.If(updating):
                m.d.sync += updating.eq(0)
        with m.If(start):                           # overrides the "running := 0" above
            m.d.sync += [running.eq(1), rnd.eq(0), fill.eq(0),
                         run_final.eq(buf_final), buf_final.eq(0)]

        # ---- done ---------------------------------------------------------------------
        with m.If(self.init | beat):
            m.d.sync += done.eq(0)
        with m.Elif(ending & run_final):
            m.d.sync += done.eq(1)

        # ---- context port ---------------------------------------------------------------
        with m.If(self.init):
            m.d.sync += count.eq(0)
        with m.Elif(self.ctx_we & (self.ctx_addr == 8)):
            m.d.sync += count[0:32].eq(self.ctx_wdata)
        with m.Elif(self.ctx_we & (self.ctx_addr == 9)):
            m.d.sync += count[32:64].eq(self.ctx_wdata)

        with m.Switch(self.ctx_addr):
            for i in range(8):
                with m.Case(i):
                    m.d.sync += self.ctx_rdata.eq(bswap32(H[i]))
            with m.Case(8):
                m.d.sync += self.ctx_rdata.eq(count[0:32])
            with m.Case(9):
                m.d.sync += self.ctx_rdata.eq(count[32:64])
            with m.Default():
                m.d.sync += self.ctx_rdata.eq(0)

        return m
