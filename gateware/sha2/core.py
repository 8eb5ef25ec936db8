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

The widened core (``family="sha2"``): both families on one 64-bit datapath, the mode
choosing: the SHA-256 engine's mode numbers, and the SHA-512 engine's with ``WIDE_512``
set. It is issue 33's other way to the SHA-512 family (one engine instead of two); its
area and Fmax beside the separate cores' are in docs/fpga.md ("SHA-512: its own engine or
a widened SHA-2 engine"), and no engine of the SoC uses it. ``init`` latches the family
(``is512``); the sizes above are the SHA-512 family's (a 32-word ``buf``, 80 K words),
and every choice that differs (rotations, K, rounds, where the length field starts, the
context layout) is a multiplexer on ``is512``. A SHA-256 word lives in the low half of
its 64-bit register: the 32-bit Sigma/sigma functions read only low halves and a sum's
low half does not depend on the high halves, so whatever the high halves hold never
reaches a digest. A 16-word block is the top half of ``buf`` (the last 16 words pushed).
Each family keeps its clock budget (R per block, 16P + 1 to start).

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

__all__ = ["SHA2Core", "FAMILIES", "WIDE_512"]


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


# The widened core (family "sha2"): its modes are the SHA-256 engine's, and the SHA-512
# engine's with this bit set.
WIDE_512 = 4


def bswap32(x):
    return Cat(x[24:32], x[16:24], x[8:16], x[0:8])


def big_sigma(r):
    """FIPS 180-4's Sigma with rotations r (a family's Sigma0 or Sigma1)."""
    return lambda x: x.rotate_right(r[0]) ^ x.rotate_right(r[1]) ^ x.rotate_right(r[2])


def small_sigma(r):
    """FIPS 180-4's sigma: two rotations and a shift, r (a family's sigma0 or sigma1)."""
    return lambda x: x.rotate_right(r[0]) ^ x.rotate_right(r[1]) ^ (x >> r[2])


def Ch(x, y, z): return (x & y) ^ (~x & z)
def Maj(x, y, z): return (x & y) ^ (x & z) ^ (y & z)


class SHA2Core(wiring.Component):
    """`family`: "sha256", "sha512", or "sha2" for the widened core (both families, the mode
    choosing); `variant`: "folded" (R clk/block) or "basic" (R + 1)."""

    def __init__(self, family="sha256", variant="folded"):
        names = ("sha256", "sha512") if family == "sha2" else (family,)
        if family != "sha2" and family not in FAMILIES:
            raise ValueError(f"family must be one of {tuple(FAMILIES) + ('sha2',)}, not {family!r}")
        for name in names:
            hashspec.variant(name, variant)     # ValueError: not one of the family's variants
        self.families = tuple(FAMILIES[name] for name in names)     # narrowest first
        self.family = self.families[0] if len(names) == 1 else None
        self.variant = variant
        # (mode, algorithm), the first one's IV the reset value
        self.modes = [(a.mode | (WIDE_512 if len(names) > 1 and f.word == 64 else 0), a)
                      for f in self.families for a in f.algorithms]
        extra = 0 if variant == "folded" else 1
        if self.family:
            self.clocks_per_block = self.family.rounds + extra
        else:
            self.clocks_per_block = {f.engine: f.rounds + extra for f in self.families}
        super().__init__(hash_core_signature())     # squeeze is ignored: no XOF modes

    def elaborate(self, platform):
        m = Module()
        fams = self.families
        wide = len(fams) > 1
        fam = fams[-1]                  # the widest family: the datapath's sizes
        folded = self.variant == "folded"
        w, R, P = fam.word, fam.rounds, fam.parts
        N = 16 * P                      # 32-bit words in a block
        L = 2 * P                       # 32-bit words of the length field
        # Widened: the message's family, set by init (mode bit WIDE_512). A 32-bit word lives
        # in the low half of its 64-bit register: the SHA-256 functions read only the low
        # halves, and a sum's low half does not depend on the high halves, so whatever the
        # high halves hold (carries, an earlier SHA-512 message) never reaches a digest.
        is512 = Signal(name="is512") if wide else None

        def per(fn):
            """fn(family) of the message's family (a constant choice but in the widened core)."""
            return Mux(is512, fn(fams[1]), fn(fams[0])) if wide else fn(fam)

        def per_stmt(fn):
            """The statements fn(family) adds, for the message's family."""
            if not wide:
                return fn(fam)
            with m.If(is512):
                fn(fams[1])
            with m.Else():
                fn(fams[0])

        def sigma(which, make):
            return lambda x: per(lambda f: make(getattr(f, which))(x if f.word == w else x[:f.word]))
        Sigma0, Sigma1 = sigma("Sigma0", big_sigma), sigma("Sigma1", big_sigma)
        sigma0, sigma1 = sigma("sigma0", small_sigma), sigma("sigma1", small_sigma)

        def ctx_part(x, i, f):
            """The 32 bits of family f's context word i (< 8 parts) in x = H or a..h[i // parts]."""
            if f.parts == 1:
                return x if f.word == w else x[:32]
            lo_bit = 32 * (f.parts - 1 - i % f.parts)      # the high half first
            return x[lo_bit:lo_bit + 32]

        def add(*terms):
            """Sum modulo 2**w."""
            return sum(terms[1:], terms[0])[:w]

        modes = self.modes
        iv0 = IV[modes[0][1].key]

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
            buf_full.eq(fill == per(lambda f: 16 * f.parts)),
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

        def length_words(f):
            """Family f's length field in bits, 2 x parts words, most significant first."""
            n = 2 * f.parts
            bit_len = Cat(C(0, 3), count, *([C(0, 32 * n - 67)] if 32 * n > 67 else []))[:32 * n]
            return [bit_len[32 * (n - 1 - k):32 * (n - k)] for k in range(n)]
        len_words = {f.engine: length_words(f) for f in fams}
        # LENGTH_MID's words (SHA-512: the field's second and third), by fill.
        mid_word = len_words[fam.engine][1]
        for k in range(2, L - 1):
            mid_word = Mux(fill == N - L + k, len_words[fam.engine][k], mid_word)
        len_at = per(lambda f: 14 * f.parts)        # fill where the length field starts

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
                m.d.comb += [push.eq(~buf_full),
                             push_word.eq(Mux(fill == len_at, per(lambda f: len_words[f.engine][0]), 0))]
                with m.If(~buf_full & (fill == len_at)):
                    if wide:
                        with m.If(is512):
                            m.next = "LENGTH_MID"
                        with m.Else():
                            m.next = "LENGTH_LO"
                    else:
                        m.next = "LENGTH_LO" if L == 2 else "LENGTH_MID"
            if L > 2:
                with m.State("LENGTH_MID"):         # fill = N-L+1 .. N-2: never full
                    m.d.comb += [push.eq(1), push_word.eq(mid_word)]
                    with m.If(fill == N - 2):
                        m.next = "LENGTH_LO"
            with m.State("LENGTH_LO"):
                m.d.comb += [push.eq(1), push_word.eq(per(lambda f: len_words[f.engine][-1]))]  # last word
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
            """Message word i of the block in buf (most significant half first). A narrower
            family's block is the last 16 words pushed: the top of buf."""
            return per(lambda f: buf[N - 16 + i] if f.parts == 1 else Cat(*reversed(buf[P * i:P * i + P])))

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
        def write_h(f):
            with m.Switch(self.ctx_addr):
                for i in range(8 * f.parts):
                    with m.Case(i):
                        m.d.sync += ctx_part(H[i // f.parts], i, f).eq(bswap32(self.ctx_wdata))
                        m.d.comb += ctx_part(v_next[i // f.parts], i, f).eq(bswap32(self.ctx_wdata))

        with m.If(self.init):
            for i in range(8):
                iv = iv0[i]
                for mode, alg in modes[1:]:
                    iv = Mux(self.mode == mode, IV[alg.key][i], iv)
                m.d.sync += H[i].eq(iv)
                m.d.comb += v_next[i].eq(iv)
            if wide:
                m.d.sync += is512.eq(self.mode[WIDE_512.bit_length() - 1])
        with m.Elif(self.ctx_we & (self.ctx_addr < per(lambda f: 8 * f.parts))):
            per_stmt(write_h)
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
        k_next = per(lambda f: Array(Const(x, f.word) for x in f.K)[Mux(start, 0, rnd + 1)])
        m.d.sync += hkw.eq(add(v_next[7], Mux(start, buf_word(0), W[1]), k_next))

        # ---- block sequencing ---------------------------------------------------------
        m.d.sync += last.eq(running & (rnd == per(lambda f: f.rounds - 2)))
        with m.If(running):
            m.d.sync += rnd.eq(rnd + 1)
            with m.If(rnd == per(lambda f: f.rounds - 1)):
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
        count_word = per(lambda f: 8 * f.parts)     # the byte count's first word
        with m.If(self.init):
            m.d.sync += count.eq(0)
        with m.Elif(self.ctx_we & (self.ctx_addr == count_word)):
            m.d.sync += count[0:32].eq(self.ctx_wdata)
        with m.Elif(self.ctx_we & (self.ctx_addr == count_word + 1)):
            m.d.sync += count[32:64].eq(self.ctx_wdata)

        def read_ctx(f):
            with m.Switch(self.ctx_addr):
                for i in range(8 * f.parts):
                    with m.Case(i):
                        m.d.sync += self.ctx_rdata.eq(bswap32(ctx_part(H[i // f.parts], i, f)))
                with m.Case(8 * f.parts):
                    m.d.sync += self.ctx_rdata.eq(count[0:32])
                with m.Case(8 * f.parts + 1):
                    m.d.sync += self.ctx_rdata.eq(count[32:64])
                with m.Default():
                    m.d.sync += self.ctx_rdata.eq(0)
        per_stmt(read_ctx)

        return m
