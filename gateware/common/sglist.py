# SPDX-License-Identifier: MIT
"""Scatter-gather: walks a descriptor list in main RAM and runs the DMA reader per piece.

A list command (dma_ctrl.list) names `count` descriptors at a word-aligned address; each
descriptor is two words, hashspec.SG_DESC: the byte address of a piece of the message and
its length. The frontend has checked the list itself (1..SG_MAX descriptors, inside the
DMA window, aligned) before `start`. For each descriptor the walker

    FETCH  reads its two words through the DMA reader's own read port (the reader is idle
           then, so the port is the walker's: no second bus master, no arbiter),
    RANGE  registers whether the piece lies outside the DMA window (a 33-bit sum and two
           compares, which must not run on into the frontend's abort and the walker's own
           enables in one clock: that was the ULX3S SoC's critical path at three of five
           placement seeds, docs/fpga.md),
    CHECK  refuses a piece of length 0 (`bad_list`) or outside the DMA window (`bad_range`)
           before any byte of it is read, so a bad descriptor never makes the engine read
           outside main RAM,
    RUN    starts the reader on the piece (`last` only on the list's final piece, if the
           command has `last`) and waits for its `done`.

The frontend turns `bad_list`, `bad_range` and `bus_error` into its error bits and aborts
the message: bytes of earlier pieces are already in the core, so the message cannot go
on. `abort` stops the walk; a request already presented is kept until taken and the
walker stays busy until its answers are back (the read port's rules, gateware/common/dma.py).

Clock budget per descriptor, on top of its bytes: two reads (on-chip RAM: ~4 clocks;
LiteDRAM: its latency, ~10-12), one clock each of RANGE and CHECK, and the reader's start
and drain (~4): about 10-20 clocks per piece, under 0.5% of a 4 KiB page at ~1 byte/clock.
In the SoC, with a core that outruns the memory (SHA3-256), docs/bench.md's `sg4096` and
`sg512` rows differ by ~20 clocks per piece on the twin (core busy), this budget plus a
row change; their larger gap to the one-command row is the driver's, not the walker's
(docs/hash-syscall.md, "Bulk throughput").
"""

from amaranth import Module, Signal
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from .. import hashspec
from .dma import read_port_signature

_ADDR = next(i for i, w in enumerate(hashspec.SG_DESC) if w.name == "addr")
_LEN = next(i for i, w in enumerate(hashspec.SG_DESC) if w.name == "len")
assert hashspec.SG_DESC_WORDS == 2 and {_ADDR, _LEN} == {0, 1}


def outside(addr, length, window):
    """1 when [addr, addr + length) wraps past 4 GiB or leaves window = (base, size)."""
    lo, size = window
    end = addr.as_unsigned() + length.as_unsigned()     # 33 bits: a wrap stays visible
    return (addr < lo) | (end > lo + size)


class DescriptorWalker(wiring.Component):
    # Command (from the frontend, already checked).
    start: In(1)
    addr: In(32)            # byte address of the list, word aligned
    count: In(32)           # descriptors, 1..SG_MAX
    last: In(1)             # the final piece ends the message
    abort: In(1)
    busy: Out(1)
    owns_port: Out(1)       # the read port is the walker's (FETCH, or draining after abort)
    done: Out(1)            # pulse: every piece has been read
    bad_list: Out(1)        # pulse: a descriptor of length 0
    bad_range: Out(1)       # pulse: a descriptor outside the DMA window
    bus_error: Out(1)       # pulse: reading a descriptor got a bus error
    port: Out(read_port_signature())      # used while owns_port
    # The reader's command, and its answer.
    r_start: Out(1)
    r_addr: Out(32)
    r_length: Out(32)
    r_last: Out(1)
    r_done: In(1)

    def __init__(self, dma_window):
        self.dma_window = dma_window
        super().__init__()

    def elaborate(self, platform):
        m = Module()
        ptr = Signal(30)            # word address of the current descriptor
        left = Signal(range(hashspec.SG_MAX + 1))
        is_last = Signal()
        sent = Signal(2)            # descriptor words requested
        got = Signal(2)             # descriptor words answered
        err = Signal()              # an answer was a bus error
        pending = Signal()          # a request is presented and not yet taken
        d_addr = Signal(32)
        d_len = Signal(32)
        out_of_window = Signal()    # RANGE's verdict on (d_addr, d_len), for CHECK

        m.d.comb += [
            self.port.req_addr.eq(ptr + sent),
            self.r_addr.eq(d_addr),
            self.r_length.eq(d_len),
            self.r_last.eq(is_last & (left == 1)),
        ]
        m.d.sync += pending.eq(self.port.req_valid & ~self.port.req_ready)
        accept = self.port.req_valid & self.port.req_ready
        with m.If(accept):
            m.d.sync += sent.eq(sent + 1)
        with m.If(self.port.resp_valid & self.owns_port):
            m.d.sync += got.eq(got + 1)
            with m.If(self.port.resp_err):
                m.d.sync += err.eq(1)
            with m.If(got == _ADDR):
                m.d.sync += d_addr.eq(self.port.resp_data)
            with m.Else():
                m.d.sync += d_len.eq(self.port.resp_data)

        with m.FSM():
            with m.State("IDLE"):
                with m.If(self.start):
                    m.d.sync += [ptr.eq(self.addr[2:]), left.eq(self.count), is_last.eq(self.last),
                                 sent.eq(0), got.eq(0), err.eq(0)]
                    m.next = "FETCH"
            with m.State("FETCH"):
                # req_valid does not look at `abort` (the frontend drives `abort` from bus
                # errors: a false combinational loop through the read port otherwise); a
                # request taken on the abort's clock is counted and drained.
                m.d.comb += [self.busy.eq(1), self.owns_port.eq(1),
                             self.port.req_valid.eq(pending | (sent != 2))]
                with m.If(self.abort):
                    m.next = "DRAIN"
                with m.Elif(got + self.port.resp_valid == 2):
                    m.next = "RANGE"        # the second word is registered on this clock
            with m.State("RANGE"):
                m.d.comb += self.busy.eq(1)
                m.d.sync += out_of_window.eq(outside(d_addr, d_len, self.dma_window))
                with m.If(self.abort):
                    m.next = "IDLE"
                with m.Else():
                    m.next = "CHECK"
            with m.State("CHECK"):
                # The error pulses do not look at `abort`: the frontend drives `abort` from
                # them (a false combinational loop otherwise).
                bad_range = Signal()
                m.d.comb += [
                    self.busy.eq(1),
                    bad_range.eq(out_of_window),
                    self.bus_error.eq(err),
                    self.bad_list.eq(~err & (d_len == 0)),
                    self.bad_range.eq(~err & (d_len != 0) & bad_range),
                ]
                with m.If(self.abort | err | (d_len == 0) | bad_range):
                    m.next = "IDLE"
                with m.Else():
                    m.d.comb += self.r_start.eq(1)
                    m.next = "RUN"
            with m.State("RUN"):
                m.d.comb += self.busy.eq(1)
                with m.If(self.abort):
                    m.next = "IDLE"     # the reader drains its own reads
                with m.Elif(self.r_done):
                    m.d.sync += [left.eq(left - 1), ptr.eq(ptr + 2), sent.eq(0), got.eq(0)]
                    with m.If(left == 1):
                        m.d.comb += self.done.eq(1)
                        m.next = "IDLE"
                    with m.Else():
                        m.next = "FETCH"
            with m.State("DRAIN"):
                # Aborted mid-fetch: keep a presented request until taken, then wait for
                # every answer, so none can reach the reader's next command.
                m.d.comb += [self.busy.eq(1), self.owns_port.eq(1), self.port.req_valid.eq(pending)]
                with m.If(~pending & (got + self.port.resp_valid == sent + accept)):
                    m.next = "IDLE"
        return m
