# SPDX-License-Identifier: MIT
"""HMAC-SHA-256 / HMAC-SHA-224 (RFC 2104, FIPS 198-1) around the SHA-256 core.

Interface: the same hash-engine core contract as SHA256Core (docs/engine-interface.md),
so the shared frontend drives it unchanged. Modes: the SHA-256 core's (passed through),
and the HMAC modes of gateware/hashspec.py (HMAC_ALGORITHMS x HMAC_KEYS): mode bit 0 picks
SHA-224, bit 1 HMAC, bit 2 the device key instead of the key words.

Theory of operation
===================

HMAC(K, m) = H((K0 ^ opad) || H((K0 ^ ipad) || m)), K0 = the key padded with zeros to the
64-byte block. One SHA-256 core does both hashes, one after the other; this wrapper only
sequences its inputs::

    init (HMAC mode)   core.init; 16 beats of K0 ^ ipad             IPAD     busy
    message beats      passed through, exported / imported as usual MSG      idle between blocks
    the last beat      wait for the inner digest                    INNER    busy
                       read it from the core's context (8 words)    CAPTURE  busy
                       core.init; 16 beats of K0 ^ opad             OPAD     busy
                       the inner digest's 8 (SHA-224: 7) words,     DIGEST   busy
                       the last one ending the outer message
    done               the MAC is in context words 0..7             PASS

The keys: K0 is either the 16 key words software wrote (``key_we``: the window's key
region, write-only) or the device key, a constant of this gateware (keys/device_key,
gateware/devicekey.py) held as the initial contents of the key memory's other half, so
that the netlist's structure does not depend on it. Neither can be read: the context port
returns the core's words (H, the byte count) and 0 for every other address, and the key
only ever enters the core as message beats, which no port returns. What can be exported is the inner hash's state
after K0 ^ ipad and message blocks (it is key-equivalent for that message's inner hash,
so an OS keeps exported HMAC contexts where software cannot read them; docs/integrity.md).
An abort leaves the key words as they are (a memory, not flip-flops): software writes
K0 before every init in a key-words mode.

Clock budget, folded core, beats on every clock (tests/test_hmac_core.py counts it):
the inner hash is SHA256Core's with one block more, K0 ^ ipad, whose 16 beats come
before the message's (+16 + 64); the outer hash after the inner ``done`` costs 9
(capture) + 1 (init) + 16 (OPAD's beats) + 1 (buffer copy) + 128 (two blocks: the digest
and its padding are made while the OPAD block compresses) = 155. An empty message: 301
clocks from ``init`` to ``done``; 64 KiB: 1,025 blocks + 17 + 16 + 155.

Import (lazy context switching): ``init`` in the HMAC mode (which runs IPAD and needs the
same key words), wait for ``busy`` = 0, then write the context words as for a hash.
"""

from amaranth import *
from amaranth.lib import wiring
from amaranth.lib.memory import Memory

from .. import hashspec
from ..common.core_signature import hash_core_signature

__all__ = ["HmacCore"]

_MODE_HMAC = 1 << 1                 # mode bits: hashspec.HMAC_KEYS
_MODE_DEVICE = 1 << 2
assert {k.mode_bits for k in hashspec.HMAC_KEYS} == {_MODE_HMAC, _MODE_HMAC | _MODE_DEVICE}
assert {hashspec.algorithm(a).mode for a in hashspec.HMAC_ALGORITHMS} == {0, 1}   # bit 0: SHA-224

KEY_WORDS = hashspec.region("key").size // 4
IPAD = hashspec.HMAC_IPAD * 0x01010101
OPAD = hashspec.HMAC_OPAD * 0x01010101


def key_words(key):
    """K0 as the 16 words the core takes as beats (first byte in bits 7:0)."""
    assert len(key) <= 4 * KEY_WORDS, "a key longer than the block is hashed first (the driver's job)"
    k0 = key.ljust(4 * KEY_WORDS, b"\0")
    return [int.from_bytes(k0[4 * i:4 * i + 4], "little") for i in range(KEY_WORDS)]


class HmacCore(wiring.Component):
    """`core`: a SHA256Core; `device_key`: the device key's bytes (at most 64)."""

    def __init__(self, core, device_key):
        self.core = core
        self.device_words = key_words(device_key)
        super().__init__(hash_core_signature())

    def elaborate(self, platform):
        m = Module()
        m.submodules.sha = core = self.core

        # The key words and the device key: one 32 x 32 memory with an asynchronous read (LUT
        # RAM on ECP5, not 512 flip-flops and a 16:1 multiplexer: the ULX3S SoC's timing
        # margin is thin). Words 0-15 are software's key (written through the window's key
        # region), 16-31 the device key, in the memory's initial contents and never written.
        # The device key is random per build tree (gateware/devicekey.py): as constants in
        # logic, its bits shaped the netlist (yosys folds a constant multiplexer into LUTs
        # whose inputs depend on the key), so each key placed and routed differently and the
        # same sources met 60 MHz on one build tree and not on another. As a memory's
        # contents it only sets the LUT RAM's initial values. Not cleared by abort (the
        # frontend's reset does not reach memories); the driver writes K0 before every
        # init in a key-words mode.
        m.submodules.key = key = Memory(shape=32, depth=2 * KEY_WORDS,
                                        init=[0] * KEY_WORDS + self.device_words)
        key_w = key.write_port()
        key_r = key.read_port(domain="comb")
        use_device = Signal()       # this message's K0 is the device key
        is224 = Signal()
        idx = Signal(5)             # beat or capture counter of the current phase
        inner = Array(Signal(32, name=f"inner{i}") for i in range(8))   # the inner digest
        k0 = Signal(32)
        m.d.comb += [
            key_r.addr.eq(Cat(idx[:4], use_device)),
            k0.eq(key_r.data),
            key_w.addr.eq(self.ctx_addr[:4]),       # software's half only
            key_w.data.eq(self.ctx_wdata),
            key_w.en.eq(self.key_we),
        ]

        # Default: the core is the caller's (the PASS and MSG phases).
        reinit = Signal()           # this wrapper's own init of the outer hash
        m.d.comb += [
            core.mode.eq(Mux(reinit, is224, self.mode[0])),
            core.init.eq(self.init | reinit),
            core.squeeze.eq(self.squeeze),
            core.in_valid.eq(self.in_valid),
            core.in_data.eq(self.in_data),
            core.in_nbytes.eq(self.in_nbytes),
            core.in_last.eq(self.in_last),
            self.in_ready.eq(core.in_ready),
            core.ctx_addr.eq(self.ctx_addr),
            core.ctx_wdata.eq(self.ctx_wdata),
            core.ctx_we.eq(self.ctx_we),
            core.key_we.eq(0),
            self.ctx_rdata.eq(core.ctx_rdata),
            self.busy.eq(core.busy),
            self.done.eq(core.done),
        ]

        def inject(word, last=0):
            """Give the core `word` as a beat this clock; the caller's beats wait."""
            m.d.comb += [core.in_valid.eq(1), core.in_data.eq(word), core.in_nbytes.eq(4),
                         core.in_last.eq(last), self.in_ready.eq(0)]

        def internal():
            """A phase the caller must not see into: busy, no digest, no beats."""
            m.d.comb += [self.busy.eq(1), self.done.eq(0), self.in_ready.eq(0)]

        def on_init():
            # The frontend only inits an idle core (PASS, or MSG at a block boundary).
            with m.If(self.init & self.mode[1]):
                m.d.sync += [use_device.eq(self.mode[2]), is224.eq(self.mode[0]), idx.eq(0)]
                m.next = "IPAD"
            with m.Elif(self.init):
                m.next = "PASS"

        with m.FSM(name="hmac"):
            with m.State("PASS"):       # a hash, or an HMAC whose MAC is ready
                on_init()
            with m.State("IPAD"):
                internal()
                inject(k0 ^ IPAD)
                with m.If(core.in_ready):
                    m.d.sync += idx.eq(idx + 1)
                    with m.If(idx == KEY_WORDS - 1):
                        m.next = "MSG"
            with m.State("MSG"):
                m.d.comb += self.done.eq(0)
                on_init()
                with m.If(self.in_valid & core.in_ready & self.in_last):
                    m.next = "INNER"
            with m.State("INNER"):
                internal()
                with m.If(core.done):
                    m.d.sync += idx.eq(0)
                    m.next = "CAPTURE"
            with m.State("CAPTURE"):
                # Context reads are registered: word i arrives the clock after its address.
                internal()
                m.d.comb += core.ctx_addr.eq(idx[:3])
                m.d.sync += idx.eq(idx + 1)
                with m.If(idx != 0):
                    m.d.sync += [inner[i].eq(inner[i + 1]) for i in range(7)]
                    m.d.sync += inner[7].eq(core.ctx_rdata)
                with m.If(idx == 8):
                    m.d.sync += idx.eq(0)
                    m.d.comb += reinit.eq(1)
                    m.next = "OPAD"
            with m.State("OPAD"):
                internal()
                inject(k0 ^ OPAD)
                with m.If(core.in_ready):
                    m.d.sync += idx.eq(idx + 1)
                    with m.If(idx == KEY_WORDS - 1):
                        m.d.sync += idx.eq(0)
                        m.next = "DIGEST"
            with m.State("DIGEST"):
                internal()
                final = idx == Mux(is224, 6, 7)
                inject(inner[0], last=final)
                with m.If(core.in_ready):
                    m.d.sync += idx.eq(idx + 1)
                    m.d.sync += [inner[i].eq(inner[i + 1]) for i in range(7)]
                    with m.If(final):
                        m.next = "PASS"     # busy until the outer digest is done
        return m
