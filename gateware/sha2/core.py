# SPDX-License-Identifier: MIT
"""The SHA-2 core (FIPS 180-4), one round per clock: SHA-256/224 on 32-bit words, or
SHA-512/384/512-224/512-256 on 64-bit words.

Interface: the hash-engine core contract in ``docs/engine-interface.md``; the mode
numbers are the engine's in gateware/hashspec.py (``squeeze`` is ignored). The family is
a parameter of the elaboration, not a mode: a "sha256" core is exactly the SHA-256
engine's, a "sha512" core the SHA-512 engine's.

Theory of operation
===================

Datapath (w = the word size, 32 or 64; P = w / 32 beat words per message word)::

    beat data --(mask, 0x80 marker, byte swap)+
    padding FSM (0x80 word, zeros, length) ---+--> buf[0..16P-1] --(load)--> W[0..15]
                                                   32-bit input                w-bit message
                                                   shift register              schedule window
                                                                                 | W[0]
                                    h + K[round] + W[0] (a clock ahead) --> round --> a..h
                                                                                        |
                                                                 H0..H7 <-- H += a..h --+

* Input buffer: ``buf`` is a shift register of 16P 32-bit words. Every accepted beat (and
  every word the padding logic makes) is shifted in at the top; after 16P pushes ``buf[0]``
  holds the block's first 32 bits and ``fill`` = 16P ("full", ``beats.ready`` = 0). Message
  word i is ``buf[Pi..Pi+P-1]``, most significant half first (SHA-2 is big-endian).
  Bytes arrive little-endian packed (first byte in bits 7:0), so each beat is
  byte-swapped on the way in.
* Padding is made in hardware from the byte count. The last beat (``last``) is
  masked to ``nbytes`` bytes and, if it has room, gets the 0x80 marker byte; if it
  is full, the padding FSM pushes a 0x80000000 word. Then zero words follow until the
  length field's 2P words remain (64 bits for SHA-256, 128 for SHA-512): the bit length
  (``count`` * 8), most significant word first (states ZEROS, LENGTH_MID, LENGTH_LO).
  When the marker lands in the length field's place the zeros simply run on through a
  second block. The block that carries
  the length is marked "final".
* Message schedule: ``W`` is a 16-word sliding window, no 64/80-word memory. Round t
  uses W[0] = W_t; each round the window shifts down by one and
  W[15] := sigma1(W[14]) + W[9] + sigma0(W[1]) + W[0] (= W_{t+16}). The last 15 words
  it computes in a block are not used, which keeps the control trivial.
* Compression: a..h are updated once per clock from W[0] and K[round] (K is a constant
  ROM of 64 or 80 words). h + K[t] + W[t] is summed one clock ahead into a register
  (``hkw``), so the round itself adds only Sigma1(e) + Ch(e, f, g) to it (and t2 for a,
  d for e).
* Hash update, ``variant="folded"`` (seed 003): the last round adds H directly to the new
  working variables: H := H + round(a..h) and a..h := the same sum. H enters as one more
  operand of each output's sum, gated by a flip-flop set on the round before, so no
  counter compare or multiplexer follows the round's adds. A block is exactly R clocks
  (R = 64 or 80 rounds). ``variant="basic"``: the last round only updates a..h; an extra
  clock does H := H + a..h (and a..h := the same sum), R + 1 clocks per block.
  In both variants a..h equal H whenever no block is being compressed (``init`` and
  context writes set both), so a new block never needs a "load a..h from H" clock.
* Double buffering: while block k compresses, block k+1 fills ``buf`` (16P <= R clocks
  of beats). If ``buf`` is full when block k ends (last round folded, update clock
  basic), ``buf`` is copied into ``W`` on that same clock and the next clock is round 0
  of block k+1. If the compressor is idle when ``buf`` fills, the copy takes one clock of
  its own.

Where the clocks go, beats offered on every clock from clock 0, N blocks::

    clocks 0..16P-1   16P beats fill buf (the compressor is idle)
    clock  16P        buf -> W (idle start: the only clock not hidden later)
    then              rounds 0..R-1 of block 0; buf takes block 1 meanwhile, then
                      beats.ready = 0 until the last round frees it
    ...
    busy = 0 (and done = 1 if the message ended) on clock R*N + 16P + 1 (folded),
    (R+1)*N + 16P + 1 (basic): SHA-256 64*N + 17, SHA-512 80*N + 33 (folded). The
    padding block, if the length does not fit in the last data block, is one more block
    whose words are made while the previous block compresses.

Status: ``busy`` = a block is compressing or updating, ``buf`` holds words, or the
message has ended (``last`` accepted) and its digest is not yet ready. ``done`` is
set on the clock the final block's H update completes, cleared by ``init`` or an
accepted beat. ``beats.ready`` = buffer not full and no message end in progress.

Context (registered read, one clock latency; writes only while ``busy`` = 0): the
8P words of H0..H7, each 64-bit H as its high then its low 32 bits, byte-swapped (memory
order = digest order); then the message byte count bits 31:0 / 63:32; the rest read 0.
Writing an H word also writes the matching working variable so that the "a..h = H when
idle" rule holds after an import.
"""

from dataclasses import dataclass

from amaranth import *
from amaranth.lib import wiring

from .. import hashspec
from ..common.core_signature import hash_core_signature
from .constants import IV, K256, K512

__all__ = ["SHA2Core", "FAMILIES"]


@dataclass(frozen=True)
class Family:
    word: int           # bits
    K: tuple            # one constant per round
    Sigma0: tuple       # FIPS 180-4 4.1.2 / 4.1.3: rotations (and for sigma, a shift)
    Sigma1: tuple
    sigma0: tuple
    sigma1: tuple
    engine: str         # gateware/hashspec.py: the engine whose modes these are

    @property
    def rounds(self):
        return len(self.K)

    @property
    def parts(self):
        """32-bit beat words per message word."""
        return self.word // 32

    @property
    def algorithms(self):
        return hashspec.algorithms_of(self.engine)


FAMILIES = {
    "sha256": Family(32, tuple(K256), (2, 13, 22), (6, 11, 25), (7, 18, 3), (17, 19, 10), "sha256"),
    "sha512": Family(64, tuple(K512), (28, 34, 39), (14, 18, 41), (1, 8, 7), (19, 61, 6), "sha512"),
}


def bswap32(x):
    return Cat(x[24:32], x[16:24], x[8:16], x[0:8])


def _big_sigma(r):
    return lambda x: x.rotate_right(r[0]) ^ x.rotate_right(r[1]) ^ x.rotate_right(r[2])


def _small_sigma(r):
    return lambda x: x.rotate_right(r[0]) ^ x.rotate_right(r[1]) ^ (x >> r[2])


def Ch(x, y, z): return (x & y) ^ (~x & z)
def Maj(x, y, z): return (x & y) ^ (x & z) ^ (y & z)


class SHA2Core(wiring.Component):
    """`family`: "sha256" or "sha512"; `variant`: "folded" (R clk/block) or "basic" (R + 1)."""

    def __init__(self, family="sha256", variant="folded"):
        if family not in FAMILIES:
            raise ValueError(f"family must be one of {tuple(FAMILIES)}, not {family!r}")
        hashspec.variant(family, variant)       # ValueError: not one of the family's variants
        self.family = FAMILIES[family]
        self.variant = variant
        self.clocks_per_block = self.family.rounds + (0 if variant == "folded" else 1)
        super().__init__(hash_core_signature())     # squeeze is ignored: no XOF modes

    def elaborate(self, platform):
        m = Module()
        fam = self.family
        folded = self.variant == "folded"
        w, R, P = fam.word, fam.rounds, fam.parts
        N = 16 * P                      # 32-bit words in a block
        L = 2 * P                       # 32-bit words of the length field
        Sigma0, Sigma1 = _big_sigma(fam.Sigma0), _big_sigma(fam.Sigma1)
        sigma0, sigma1 = _small_sigma(fam.sigma0), _small_sigma(fam.sigma1)

        def ctx_part(x, i):
            """The 32 bits of context word i (< 8P) in x = H or a..h[i // P]."""
            if P == 1:
                return x
            lo_bit = 32 * (P - 1 - i % P)          # the high half first
            return x[lo_bit:lo_bit + 32]

        def add(*terms):
            """Sum modulo 2**w."""
            return sum(terms[1:], terms[0])[:w]

        algs = fam.algorithms
        iv0 = IV[algs[0].key]

        # ---- state ------------------------------------------------------------------
        H = [Signal(w, name=f"H{i}", init=iv0[i]) for i in range(8)]
        v = [Signal(w, name=n, init=iv0[i]) for i, n in enumerate("abcdefgh")]
        W = [Signal(w, name=f"W{i}") for i in range(16)]
        buf = [Signal(32, name=f"buf{i}") for i in range(N)]
        fill = Signal(range(N + 1))     # words in buf
        buf_final = Signal()            # buf holds the block with the length words
        count = Signal(64)              # message bytes accepted
        running = Signal()              # rounds in progress
        rnd = Signal(range(R))          # round number of the current clock
        updating = Signal()             # basic variant: the H update clock
        run_final = Signal()            # the block being compressed is the last one
        done = Signal()

        # ---- control signals ----------------------------------------------------------
        beat = Signal()                 # an input beat is accepted this clock
        push = Signal()                 # shift push_word into buf this clock
        push_word = Signal(32)
        buf_full = Signal()
        ending = Signal()               # last clock of a block (H gets updated)
        last = Signal()                 # registered: this clock is the last round
        start = Signal()                # buf -> W, round 0 next clock
        msg_open = Signal()             # padding FSM accepts message beats

        m.d.comb += [
            buf_full.eq(fill == N),
            self.beats.ready.eq(msg_open & ~buf_full),
            beat.eq(self.beats.valid & self.beats.ready),
            ending.eq(last if folded else updating),
            start.eq(buf_full & (ending | ~(running | updating))),
            self.busy.eq(running | updating | (fill != 0) | ~msg_open),
            self.done.eq(done),
        ]

        # ---- input word: keep nbytes bytes, add the 0x80 marker after the last one -
        n = self.beats.payload.nbytes
        in_bytes = []
        for j in range(4):
            data_byte = self.beats.payload.data[8 * j:8 * j + 8]
            marker = Mux((n == j) & self.beats.payload.last, 0x80, 0x00)
            in_bytes.append(Mux(n > j, data_byte, marker))
        beat_word = Cat(*reversed(in_bytes))        # first byte -> bits 31:24

        # The length field in bits, 32L wide; its words most significant first.
        bit_len = Cat(C(0, 3), count, *([C(0, 32 * L - 67)] if 32 * L > 67 else []))[:32 * L]
        len_words = [bit_len[32 * (L - 1 - k):32 * (L - k)] for k in range(L)]
        # LENGTH_MID's words (SHA-512: the field's second and third), by fill.
        mid_word = len_words[1]
        for k in range(2, L - 1):
            mid_word = Mux(fill == N - L + k, len_words[k], mid_word)

        # ---- padding FSM: message beats, then the padding words -----------------------
        with m.FSM(name="pad") as pad_fsm:
            with m.State("MESSAGE"):
                m.d.comb += [push.eq(beat), push_word.eq(beat_word)]
                with m.If(beat & self.beats.payload.last):
                    with m.If(n == 4):
                        m.next = "MARKER"       # no room for 0x80 in the last beat
                    with m.Else():
                        m.next = "ZEROS"
            with m.State("MARKER"):
                m.d.comb += [push.eq(~buf_full), push_word.eq(0x80000000)]
                with m.If(~buf_full):
                    m.next = "ZEROS"
            with m.State("ZEROS"):
                # Zeros until the length field's place; there its first word. A marker
                # that landed inside that place lets the zeros run on into the next block.
                m.d.comb += [push.eq(~buf_full), push_word.eq(Mux(fill == N - L, len_words[0], 0))]
                with m.If(~buf_full & (fill == N - L)):
                    m.next = "LENGTH_LO" if L == 2 else "LENGTH_MID"
            if L > 2:
                with m.State("LENGTH_MID"):         # fill = N-L+1 .. N-2: never full
                    m.d.comb += [push.eq(1), push_word.eq(mid_word)]
                    with m.If(fill == N - 2):
                        m.next = "LENGTH_LO"
            with m.State("LENGTH_LO"):
                m.d.comb += [push.eq(1), push_word.eq(len_words[L - 1])]   # fill == N-1 here
                m.d.sync += buf_final.eq(1)
                m.next = "FINISH"
            with m.State("FINISH"):                 # wait for the final block's H update
                with m.If(ending & run_final):
                    m.next = "MESSAGE"
        m.d.comb += msg_open.eq(pad_fsm.ongoing("MESSAGE"))

        # ---- input buffer -----------------------------------------------------------
        with m.If(push):                            # never on a clock with buf_full
            m.d.sync += [buf[i].eq(buf[i + 1]) for i in range(N - 1)]
            m.d.sync += [buf[N - 1].eq(push_word), fill.eq(fill + 1)]
        with m.If(beat):
            m.d.sync += count.eq(count + n)

        def buf_word(i):
            """Message word i of the block in buf (most significant half first)."""
            return buf[i] if P == 1 else Cat(*reversed(buf[P * i:P * i + P]))

        # ---- round function and message schedule ------------------------------------
        # The round's longest path is the chain of w-bit adds into a and e (CCU2C carry
        # chains on ECP5). Two things keep it short:
        # * hkw = h + K[t] + W[t] is summed one clock ahead from the values h, W[0] and
        #   the round number take next clock (h of round t+1 is g of round t), so round t
        #   adds only Sigma1(e) + Ch(e,f,g) to a register, and no ROM lookup is on the path.
        # * Folded: H is added to the last round's outputs as one more operand, gated by
        #   `last`, a flip-flop set on the round before, instead of a round-counter compare
        #   and a mux after the sum. H_i + x for the shifted words (b, c, d, f, g, h) costs
        #   one add each.
        a, b, c, d, e, f, g, h = v
        hkw = Signal(w)
        t1 = Signal(w)
        t2 = Signal(w)
        w_next = Signal(w)
        m.d.comb += [
            t1.eq(add(hkw, Sigma1(e), Ch(e, f, g))),
            t2.eq(add(Sigma0(a), Maj(a, b, c))),
            w_next.eq(add(sigma1(W[14]), W[9], sigma0(W[1]), W[0])),
        ]
        if folded:
            # H_i where the last round adds it, 0 in the rounds before.
            hadd = [Mux(last, H[i], 0) for i in range(8)]
            v_round = [add(t1, add(t2, hadd[0])), add(a, hadd[1]), add(b, hadd[2]),
                       add(c, hadd[3]), add(t1, add(d, hadd[4])), add(e, hadd[5]),
                       add(f, hadd[6]), add(g, hadd[7])]
            H_sum = v_round                     # the last round's outputs are H + round(a..h)
        else:
            v_round = [add(t1, t2), a, b, c, add(d, t1), e, f, g]
            # Basic: the update clock after the last round adds H to a..h.
            H_sum = [add(H[i], v[i]) for i in range(8)]

        # ---- working variables and hash words ---------------------------------------
        v_next = [Signal(w, name=f"{n}_next") for n in "abcdefgh"]
        m.d.comb += [v_next[i].eq(v[i]) for i in range(8)]
        with m.If(self.init):
            for i in range(8):
                iv = iv0[i]
                for alg in algs[1:]:
                    iv = Mux(self.mode == alg.mode, IV[alg.key][i], iv)
                m.d.sync += H[i].eq(iv)
                m.d.comb += v_next[i].eq(iv)
        with m.Elif(self.ctx_we & (self.ctx_addr < 8 * P)):
            with m.Switch(self.ctx_addr):
                for i in range(8 * P):
                    with m.Case(i):
                        m.d.sync += ctx_part(H[i // P], i).eq(bswap32(self.ctx_wdata))
                        m.d.comb += ctx_part(v_next[i // P], i).eq(bswap32(self.ctx_wdata))
        with m.Elif(ending):
            m.d.sync += [H[i].eq(H_sum[i]) for i in range(8)]
            m.d.comb += [v_next[i].eq(H_sum[i]) for i in range(8)]
        with m.Elif(running):
            m.d.comb += [v_next[i].eq(v_round[i]) for i in range(8)]
        m.d.sync += [v[i].eq(v_next[i]) for i in range(8)]

        with m.If(start):
            m.d.sync += [W[i].eq(buf_word(i)) for i in range(16)]
        with m.Elif(running):
            m.d.sync += [W[i].eq(W[i + 1]) for i in range(15)]
            m.d.sync += W[15].eq(w_next)

        # hkw for the next clock's round: round 0 after `start`, else round rnd + 1. On
        # other clocks the value is unused (no round runs next), so it need not be exact.
        k_next = Array(Const(x, w) for x in fam.K)[Mux(start, 0, rnd + 1)]
        m.d.sync += hkw.eq(add(v_next[7], Mux(start, buf_word(0), W[1]), k_next))

        # ---- block sequencing ---------------------------------------------------------
        m.d.sync += last.eq(running & (rnd == R - 2))
        with m.If(running):
            m.d.sync += rnd.eq(rnd + 1)
            with m.If(rnd == R - 1):
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
        count_word = 8 * P                          # the byte count's first word
        with m.If(self.init):
            m.d.sync += count.eq(0)
        with m.Elif(self.ctx_we & (self.ctx_addr == count_word)):
            m.d.sync += count[0:32].eq(self.ctx_wdata)
        with m.Elif(self.ctx_we & (self.ctx_addr == count_word + 1)):
            m.d.sync += count[32:64].eq(self.ctx_wdata)

        with m.Switch(self.ctx_addr):
            for i in range(8 * P):
                with m.Case(i):
                    m.d.sync += self.ctx_rdata.eq(bswap32(ctx_part(H[i // P], i)))
            with m.Case(count_word):
                m.d.sync += self.ctx_rdata.eq(count[0:32])
            with m.Case(count_word + 1):
                m.d.sync += self.ctx_rdata.eq(count[32:64])
            with m.Default():
                m.d.sync += self.ctx_rdata.eq(0)

        return m
