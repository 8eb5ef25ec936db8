# SPDX-License-Identifier: MIT
"""HMAC (RFC 2104, FIPS 198-1) around a SHA-2 core: HMAC-SHA-256/224 around SHA256Core (the
SHA-256 engine's), HMAC-SHA-512/384 (and /512-224, /512-256) around SHA2Core("sha512").

Interface: the same hash-engine core contract as the SHA-2 core (docs/engine-interface.md),
so the shared frontend drives it unchanged. Modes: the core's (passed through), and the
HMAC modes: above the hash's mode field (1 bit for SHA-256/224, 2 for the SHA-512 family:
`sub_bits`, hashspec.hmac_shift) one bit for HMAC and one for the device key instead of the
key words: gateware/hashspec.py's HMAC_ALGORITHMS x HMAC_KEYS (SHA-256 engine: bit 1 HMAC,
bit 2 the device key; SHA-512 engine: bits 2 and 3).

Theory of operation
===================

HMAC(K, m) = H((K0 ^ opad) || H((K0 ^ ipad) || m)), K0 = the key padded with zeros to the
block (64 bytes for SHA-256/224, 128 for the SHA-512 family: B words of 32 bits, 16 or
32). One SHA-2 core does both hashes, one after the other; this wrapper only sequences its
inputs::

    init (HMAC mode)   core.init; B beats of K0 ^ ipad              IPAD     busy
    message beats      passed through, exported / imported as usual MSG      idle between blocks
    the last beat      wait for the inner digest                    INNER    busy
                       read it from the core's context (D words:    CAPTURE  busy
                       8 or 16)
                       core.init; B beats of K0 ^ opad              OPAD     busy
                       the inner digest's words (SHA-224: 7,         DIGEST   busy
                       SHA-384: 12, ...), the last one ending the outer message
    done               the MAC is in the first context words        PASS

The keys: K0 is either the B key words software wrote (``key_we``: the window's key
region, write-only) or the device key, a constant of this gateware (keys/device_key,
gateware/devicekey.py) held as the initial contents of the key memory's other half, so
that the netlist's structure does not depend on it. Neither can be read: the context port
returns the core's words (H, the byte count) and 0 for every other address, and the key
only ever enters the core as message beats, which no port returns. What can be exported is the inner hash's state
after K0 ^ ipad and message blocks (it is key-equivalent for that message's inner hash,
so an OS keeps exported HMAC contexts where software cannot read them; docs/integrity.md).
An abort leaves the key words as they are (a memory, not flip-flops): software writes
K0 before every init in a key-words mode.

Clock budget, folded core, beats on every clock (tests/test_hmac_core.py counts it),
R = the core's clocks per block (64 for SHA-256, 80 for SHA-512): the inner hash is the
core's with one block more, K0 ^ ipad, whose B beats come before the message's (+B + R);
the outer hash after the inner ``done`` costs D + 1 (capture) + 1 (init) + B (OPAD's beats)
+ 1 (buffer copy) + 2R (two blocks: the digest and its padding are made while the OPAD
block compresses). SHA-256: 9 + 1 + 16 + 1 + 128 = 155, an empty message 301 clocks from
``init`` to ``done``, 64 KiB 1,025 blocks + 17 + 16 + 155. SHA-512: 17 + 1 + 32 + 1 + 160
= 211, an empty message 1 + 32 + 1 + 2 x 80 + 211 = 405.

Import (lazy context switching): ``init`` in the HMAC mode (which runs IPAD and needs the
same key words), wait for ``busy`` = 0, then write the context words as for a hash.
"""

from amaranth import *
from amaranth.lib import wiring
from amaranth.lib.memory import Memory

from .. import hashspec
from ..common.core_signature import hash_core_signature, pass_through

__all__ = ["HmacCore"]

KEY_WORDS = hashspec.engine("sha256").key_words       # the SHA-256 family's block, in words
IPAD = hashspec.HMAC_IPAD * 0x01010101
OPAD = hashspec.HMAC_OPAD * 0x01010101


def key_words(key, nwords=KEY_WORDS):
    """K0 as the `nwords` words (the hash's block: 16 for SHA-256/224, 32 for the SHA-512
    family) the core takes as beats, first byte in bits 7:0."""
    assert len(key) <= 4 * nwords, "a key longer than the block is hashed first (the driver's job)"
    k0 = key.ljust(4 * nwords, b"\0")
    return [int.from_bytes(k0[4 * i:4 * i + 4], "little") for i in range(nwords)]


def _by_mode(sel, values):
    """values[sel]: a constant per hash mode (Mux for two, as the SHA-256 engine has)."""
    if len(values) == 2:
        return Mux(sel, values[1], values[0])
    return Array(Const(v, 5) for v in values)[sel]


class HmacCore(wiring.Component):
    """`core`: a SHA2Core of either family (SHA256Core, or SHA2Core("sha512")); `device_key`:
    the device key's bytes (at most the block). The mode field: the hash's modes in the low
    bits (`sub_bits`: 1 for SHA-256/224, 2 for SHA-512/384/512-224/512-256), then the HMAC
    bit, then the device-key bit; `mode_bits` gives the two for a key source."""

    def __init__(self, core, device_key):
        self.core = core
        fam = core.family
        self.block_words = 16 * fam.parts                   # 32-bit beats per block: 16 or 32
        algs = fam.algorithms
        self.sub_bits = max(a.mode for a in algs).bit_length()
        self.digest_words = [next(a.digest for a in algs if a.mode == i) // 4 for i in range(1 << self.sub_bits)]
        self.capture_words = max(self.digest_words)         # the inner digest's words, at most
        assert self.block_words <= 32 and 2 + self.sub_bits <= 4
        self.device_words = key_words(device_key, self.block_words)
        # The mode field and the key words are the one description's (gateware/hashspec.py).
        assert self.sub_bits == hashspec.hmac_shift(fam.engine)
        assert self.block_words == hashspec.engine(fam.engine).key_words
        super().__init__(hash_core_signature())

    def mode_bits(self, key_source):
        """The bits OR-ed into a hash's mode for HMAC with `key_source` ("window", "device")."""
        return next(k for k in hashspec.HMAC_KEYS if k.name == key_source).bits << self.sub_bits

    def elaborate(self, platform):
        m = Module()
        m.submodules.sha = core = self.core
        nkey, ncap, sub_bits = self.block_words, self.capture_words, self.sub_bits
        kbits, cbits = (nkey - 1).bit_length(), (ncap - 1).bit_length()

        # The key words and the device key: one (2 x block) x 32 memory with an asynchronous
        # read (LUT RAM on ECP5, not 512 flip-flops and a 16:1 multiplexer: the ULX3S SoC's
        # timing margin is thin). The first half is software's key (written through the
        # window's key region), the second the device key, in the memory's initial contents
        # and never written.
        # The device key is random per build tree (gateware/devicekey.py): as constants in
        # logic, its bits shaped the netlist (yosys folds a constant multiplexer into LUTs
        # whose inputs depend on the key), so each key placed and routed differently and the
        # same sources met 60 MHz on one build tree and not on another. As a memory's
        # contents it only sets the LUT RAM's initial values. Not cleared by abort (the
        # frontend's reset does not reach memories); the driver writes K0 before every
        # init in a key-words mode.
        m.submodules.key = key = Memory(shape=32, depth=2 * nkey,
                                        init=[0] * nkey + self.device_words)
        key_w = key.write_port()
        key_r = key.read_port(domain="comb")
        use_device = Signal()       # this message's K0 is the device key
        # the hash's mode of this message (named as before the SHA-512 family was added, so
        # that the SHA-256 engine's Verilog, and with it the ULX3S's placement, stayed the same)
        sub = Signal(sub_bits, name="is224" if sub_bits == 1 else "sub")
        idx = Signal(5)             # beat or capture counter of the current phase
        inner = Array(Signal(32, name=f"inner{i}") for i in range(ncap))   # the inner digest
        k0 = Signal(32)
        m.d.comb += [
            key_r.addr.eq(Cat(idx[:kbits], use_device)),
            k0.eq(key_r.data),
            key_w.addr.eq(self.ctx_addr[:kbits]),   # software's half only
            key_w.data.eq(self.ctx_wdata),
            key_w.en.eq(self.key_we),
        ]

        # Default: the core is the caller's (the PASS and MSG phases).
        reinit = Signal()           # this wrapper's own init of the outer hash
        pass_through(m, self, core)
        m.d.comb += [
            core.mode.eq(Mux(reinit, sub, self.mode[:sub_bits])),
            core.init.eq(self.init | reinit),
            core.key_we.eq(0),
        ]

        def inject(word, last=0):
            """Give the core `word` as a beat this clock; the caller's beats wait."""
            m.d.comb += [core.beats.valid.eq(1), core.beats.payload.data.eq(word), core.beats.payload.nbytes.eq(4),
                         core.beats.payload.last.eq(last), self.beats.ready.eq(0)]

        def internal():
            """A phase the caller must not see into: busy, no digest, no beats."""
            m.d.comb += [self.busy.eq(1), self.done.eq(0), self.beats.ready.eq(0)]

        def on_init():
            # The frontend only inits an idle core (PASS, or MSG at a block boundary).
            with m.If(self.init & self.mode[sub_bits]):
                m.d.sync += [use_device.eq(self.mode[sub_bits + 1]), sub.eq(self.mode[:sub_bits]), idx.eq(0)]
                m.next = "IPAD"
            with m.Elif(self.init):
                m.next = "PASS"

        with m.FSM(name="hmac"):
            with m.State("PASS"):       # a hash, or an HMAC whose MAC is ready
                on_init()
            with m.State("IPAD"):
                internal()
                inject(k0 ^ IPAD)
                with m.If(core.beats.ready):
                    m.d.sync += idx.eq(idx + 1)
                    with m.If(idx == nkey - 1):
                        m.next = "MSG"
            with m.State("MSG"):
                m.d.comb += self.done.eq(0)
                on_init()
                with m.If(self.beats.valid & core.beats.ready & self.beats.payload.last):
                    m.next = "INNER"
            with m.State("INNER"):
                internal()
                with m.If(core.done):
                    m.d.sync += idx.eq(0)
                    m.next = "CAPTURE"
            with m.State("CAPTURE"):
                # Context reads are registered: word i arrives the clock after its address.
                internal()
                m.d.comb += core.ctx_addr.eq(idx[:cbits])
                m.d.sync += idx.eq(idx + 1)
                with m.If(idx != 0):
                    m.d.sync += [inner[i].eq(inner[i + 1]) for i in range(ncap - 1)]
                    m.d.sync += inner[ncap - 1].eq(core.ctx_rdata)
                with m.If(idx == ncap):
                    m.d.sync += idx.eq(0)
                    m.d.comb += reinit.eq(1)
                    m.next = "OPAD"
            with m.State("OPAD"):
                internal()
                inject(k0 ^ OPAD)
                with m.If(core.beats.ready):
                    m.d.sync += idx.eq(idx + 1)
                    with m.If(idx == nkey - 1):
                        m.d.sync += idx.eq(0)
                        m.next = "DIGEST"
            with m.State("DIGEST"):
                # The inner digest's words (fewer than captured for SHA-224, SHA-384, ...),
                # the last one ending the outer message.
                internal()
                final = idx == _by_mode(sub, [n - 1 for n in self.digest_words])
                inject(inner[0], last=final)
                with m.If(core.beats.ready):
                    m.d.sync += idx.eq(idx + 1)
                    m.d.sync += [inner[i].eq(inner[i + 1]) for i in range(ncap - 1)]
                    with m.If(final):
                        m.next = "PASS"     # busy until the outer digest is done
        return m
