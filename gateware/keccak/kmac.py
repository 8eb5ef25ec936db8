# SPDX-License-Identifier: MIT
"""KMAC (NIST SP 800-185) around the Keccak core: the key block from the window's key words.

Interface: the hash-engine core contract (docs/engine-interface.md), so the shared frontend
drives it as it drives KeccakCore. Modes: the core's, passed through (cSHAKE128/256 among
them: SHAKE's sponges with cSHAKE's pad byte), and KMAC128/256 (hashspec.SP800_185's
`kmac`), which run the core in the cSHAKE mode of the same rate.

Theory of operation
===================

KMAC(K, X, L, S) = cSHAKE(bytepad(encode_string(K), rate) || X || right_encode(L), L,
"KMAC", S), and cSHAKE absorbs its own prefix bytepad(encode_string("KMAC") ||
encode_string(S), rate) first. So the key block is the sponge's second block, after the
prefix, which software writes (its S is any string, and the engine need not parse it). In
a KMAC mode this wrapper counts the message's beats; after the first block's (rate/4
beats: the prefix must be one block, as it is for S up to rate - 13 bytes), it gives the
core the rate/4 key words as beats of its own, then passes the message on::

    init (KMAC mode)       core.init in the cSHAKE mode                     PREFIX   busy
    rate/4 beats           the prefix block, passed through, counted        PREFIX   busy
    rate/4 key words       bytepad(encode_string(K), rate), as beats          KEY      busy
    the rest               passed through: X, right_encode(L), the end       PASS

Software writes the key block into the key words while no message is open (the frontend
refuses key writes otherwise), formatted: left_encode(rate) || left_encode(8 |K|) || K,
zeros to the rate. So a key of up to rate - 5 bytes (163 for KMAC128, 131 for KMAC256)
fits; the driver hashes a longer key's block as message data in the cSHAKE mode. `busy`
reads 1 from init until the key block is in the core: the frontend then refuses a context
write or another init and flags a context read, so no state without its key can be
exported or imported as a KMAC's. A message that ends inside its first block has no key
block (the core then computes cSHAKE of what it got; the driver never does that).

The key cannot be read: the key words are a memory whose only reader is the beat input
(no context word returns it). What can be exported after the key block is the sponge's
state, derived from the key (as HMAC's inner state is: gateware/sha256/hmac.py); the
driver wipes its saved copy at the message's end. An abort leaves the key words as they
are; the driver writes them before every KMAC init. Importing a KMAC message's saved state:
init in the cSHAKE mode (its key block is already in the state), then the context words.

Clock budget: the core's, plus rate/4 clocks for the key block's beats (42 for KMAC128, 34
for KMAC256) and its permutation (24) when they do not overlap the next block's beats;
the prefix and the message cost what they cost in cSHAKE.
"""

from amaranth import Module, Signal
from amaranth.lib import wiring
from amaranth.lib.memory import Memory

from .. import hashspec
from ..common.core_signature import hash_core_signature, pass_through
from .core import KeccakCore

__all__ = ["KEY_WORDS", "KmacCore", "key_block", "key_block_words"]

KEY_WORDS = hashspec.engine("keccak").key_words     # the longest rate's words: SHAKE128's 42


def _left_encode(x):
    """SP 800-185's left_encode(x): the byte count of x's big-endian bytes, then them."""
    n = max(1, (x.bit_length() + 7) // 8)
    return bytes([n]) + x.to_bytes(n, "big")


def key_block(key, rate):
    """bytepad(encode_string(key), rate): the key words' contents for a KMAC of `rate`."""
    b = _left_encode(rate) + _left_encode(8 * len(key)) + key
    assert len(b) <= rate, "a key this long spans two blocks: the driver hashes it as message data"
    return b.ljust(rate, b"\0")


def key_block_words(key, rate):
    """key_block as the rate/4 words the engine's key words take (first byte in bits 7:0)."""
    b = key_block(key, rate)
    return [int.from_bytes(b[4 * i:4 * i + 4], "little") for i in range(rate // 4)]


class KmacCore(wiring.Component):
    """`core`: the KeccakCore it wraps (a new one by default)."""

    def __init__(self, core=None):
        self.core = core if core is not None else KeccakCore()
        super().__init__(hash_core_signature())

    def elaborate(self, platform):
        m = Module()
        m.submodules.keccak = core = self.core
        kbits = (KEY_WORDS - 1).bit_length()

        # The key words: a KEY_WORDS x 32 memory with an asynchronous read (LUT RAM on ECP5,
        # not 1,344 flip-flops and a 42:1 multiplexer), written through the key region.
        m.submodules.key = key = Memory(shape=32, depth=KEY_WORDS, init=[])
        key_w = key.write_port()
        key_r = key.read_port(domain="comb")
        idx = Signal(kbits)          # beats of the prefix, then key words, given so far
        last_idx = Signal(kbits)     # rate/4 - 1 of this KMAC
        m.d.comb += [
            key_r.addr.eq(idx),
            key_w.addr.eq(self.ctx_addr[:kbits]),
            key_w.data.eq(self.ctx_wdata),
            key_w.en.eq(self.key_we),
        ]

        # A KMAC mode's cSHAKE mode and block words (hashspec.SP800_185).
        kmac = Signal()
        cshake = Signal(4)
        words = Signal(kbits)
        m.d.comb += cshake.eq(self.mode)
        for s in hashspec.SP800_185:
            with m.If(self.mode == s.kmac):
                m.d.comb += [kmac.eq(1), cshake.eq(s.cshake),
                             words.eq(hashspec.algorithm(s.xof).block // 4 - 1)]

        # Default: the core is the caller's, in the cSHAKE mode for a KMAC mode.
        pass_through(m, self, core)
        m.d.comb += [core.mode.eq(cshake), core.key_we.eq(0)]

        def on_init():
            # The frontend inits only an idle core (PASS, at a block boundary).
            with m.If(self.init & kmac):
                m.d.sync += [idx.eq(0), last_idx.eq(words)]
                m.next = "PREFIX"

        taken = self.beats.valid & core.beats.ready
        with m.FSM(name="kmac"):
            with m.State("PASS"):
                on_init()
            with m.State("PREFIX"):
                m.d.comb += self.busy.eq(1)
                with m.If(taken):
                    m.d.sync += idx.eq(idx + 1)
                    with m.If(self.beats.payload.last):
                        m.next = "PASS"         # ended inside the prefix: no key block
                    with m.Elif(idx == last_idx):
                        m.d.sync += idx.eq(0)
                        m.next = "KEY"
            with m.State("KEY"):
                m.d.comb += [self.busy.eq(1), self.beats.ready.eq(0), core.beats.valid.eq(1),
                             core.beats.payload.data.eq(key_r.data), core.beats.payload.nbytes.eq(4), core.beats.payload.last.eq(0)]
                with m.If(core.beats.ready):
                    m.d.sync += idx.eq(idx + 1)
                    with m.If(idx == last_idx):
                        m.next = "PASS"
        return m
