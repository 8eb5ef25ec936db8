# SPDX-License-Identifier: MIT
"""The port list every hash core implements: the contract of docs/engine-interface.md.

One definition for both cores and for the frontend that drives them, so the contract
cannot drift between them. Directions are seen from the core.
"""

from amaranth.lib import data, stream, wiring
from amaranth.lib.wiring import Flow, In, Out


# One beat of a message, the payload of every beat stream: the DMA reader's output, the byte
# packer's input and output, and the cores' input (one signature, joined with connect()).
# (name, width, meaning); the Beat table of docs/engine-interface.md is made from this.
BEAT_FIELDS = (
    ("data", 32, "message bytes, **memory order, little-endian packing**: first byte in bits 7:0."),
    ("nbytes", 3, "valid bytes in `data`, counted from bits 7:0. Into a core always 4 unless `last`; with "
                  "`last` it is 0..4 (0: the message ends on the previous beat, e.g. the empty message). "
                  "Into the packer any of 0..4 on any beat."),
    ("last", 1, "this beat ends the message: the core pads (FIPS 180-4 / FIPS 202 / original Keccak, from "
                "`mode`), finishes, and sets `done`."),
)

Beat = data.StructLayout({name: width for name, width, _ in BEAT_FIELDS})


def beat_stream():
    """A stream of beats (amaranth.lib.stream: `payload`, `valid`, `ready`), seen from its
    source."""
    return stream.Signature(Beat)


# (name, direction seen from the core, width, meaning), in the signature's order. The port
# table of docs/engine-interface.md is made from this (`make docs`, scripts/genspec.py).
CORE_PORTS = (
    ("mode", In, 4, "algorithm, sampled on `init` (encodings below). The frontend only passes valid modes."),
    ("init", In, 1, "one-clock pulse: load the IV for `mode`, byte count := 0, `done` := 0. Only pulsed "
                    "while `busy` = 0."),
    ("beats", In, "stream", "the message, in beats (below): a stream of `Beat`s (`beats.payload`) with "
                            "`beats.valid` and `beats.ready`; a beat moves on a clock where both are 1. "
                            "The core applies back-pressure with `ready`: never more than a block of "
                            "buffering is asked of the frontend."),
    ("squeeze", In, 1, "Keccak only (SHA cores ignore it): pulse while `done` = 1 in a SHAKE mode: run one "
                       "more Keccak-f, `done` is 0 until it finishes. The frontend only pulses it in XOF modes "
                       "with `done` = 1."),
    ("busy", Out, 1, "0 means the context is consistent and may be read or written: no partly filled block, "
                     "no compression/permutation running, no padding pending. It is 1 from the first accepted "
                     "beat of a block until that block has been processed, and while padding, finishing or "
                     "squeezing."),
    ("done", Out, 1, "the digest (SHA) / the first rate bytes of output (Keccak) are readable in the context. "
                     "Cleared by `init` and by an accepted beat."),
    ("ctx_addr", In, 6, "context word index."),
    ("ctx_rdata", Out, 32, "context word `ctx_addr`, **registered: valid one clock after `ctx_addr`**."),
    ("ctx_wdata", In, 32, "the word `ctx_we` or `key_we` writes."),
    ("ctx_we", In, 1, "write context word `ctx_addr` := `ctx_wdata` (only while `busy` = 0; the frontend "
                      "guards this)."),
    ("key_we", In, 1, "write key word `ctx_addr` := `ctx_wdata` (the window's key region; only while no "
                      "message is open, the frontend guards this). Cores without keys ignore it; the SHA-2 "
                      "engines' `HmacCore` (gateware/sha256/hmac.py: K0) and the Keccak engine's `KmacCore` "
                      "(gateware/keccak/kmac.py: KMAC's key block) keep the words and never return them."),
)


def hash_core_signature():
    return wiring.Signature({name: flow(beat_stream() if width == "stream" else width)
                             for name, flow, width, _ in CORE_PORTS})


def pass_through(m, outer, inner):
    """The default wiring of a wrapper around a core, both of this signature (HMAC's and
    KMAC's): the wrapper's inputs drive the core's, the core's outputs the wrapper's. The
    wrapper's own assignments, made after this in the same module, take precedence."""
    sig = hash_core_signature()
    for (_, member, o), (_, _, i) in zip(sig.flatten(outer), sig.flatten(inner)):
        if member.flow == Flow.In:
            m.d.comb += i.eq(o)
        else:
            m.d.comb += o.eq(i)
