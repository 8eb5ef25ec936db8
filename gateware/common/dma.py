# SPDX-License-Identifier: MIT
"""DMA reader: fetches (address, length) bytes through a pipelined read port.

Any byte address and any length: words are read aligned and the first one is shifted so
that beats leave in message order (the packer downstream re-cuts them into full words).
A message may be given as several DMA commands (e.g. one per page of a user buffer); only
the command with `last` set ends it. A zero-length command with `last` ends the message
with no more bytes.

Bus-agnostic read port (the bus adapters live outside; `WishboneReadAdapter` below, the
LiteDRAM native-port one in gateware/litedram_dma.py):

    req_valid/req_ready/req_addr   one word address per handshake (stream rules: once
                                   `req_valid` is up it stays up, address unchanged,
                                   until `req_ready`)
    resp_valid/resp_data/resp_err  one answer per accepted request, in request order, at
                                   any latency; there is no ready: the reader only asks
                                   for a word when its response FIFO has room for it

Flow control is a credit counter: `credits` = FIFO depth - (requests in flight + words
waiting in the FIFO). A request needs a credit, a word leaving the FIFO returns one, so
at most DEPTH reads are outstanding and no answer can ever find the FIFO full, whatever
the latency. With a latency of L clocks from request to answer the reader streams one
word per clock as long as L < DEPTH (16 by default: LiteDRAM on the ULX3S answers in ~10).

Clock budget (beats leave one per clock when the packer takes them):
- Wishbone from on-chip RAM (LiteX SRAM: ack one clock after stb, never two in a row):
  one word every 2 clocks, as before this reader was pipelined; the response FIFO adds
  2 clocks of latency to the first beat of a command only.
- LiteDRAM native port: one request per clock when the port takes it; the 16-bit SDR
  SDRAM takes a 32-bit word in 2 commands, so 2 clocks/word = 2 bytes/clock at best.

Sharing: after `pause_words` requests the reader stops asking until every answer is
back, then waits one more clock. On a Wishbone bus (one read outstanding) that is one idle
clock per 64 words, in which the interconnect's arbiter can hand the bus to the CPU, so
the CPU waits at most ~130 clocks. The bus cannot tell the reader whether anyone waits,
so the pause is unconditional there. On a LiteDRAM port the adapter knows (the CPU's L2
port has a command waiting) and yields itself, only then (gateware/litedram_dma.py), so
the engine is built with `pause_words` 0 for that port (HashEngine's `dma_pause_words`).

Errors: an answer with `resp_err` stops the transfer and pulses `bus_error`. `abort`
stops it too. In both cases a request already presented is kept until taken (dropping a
Wishbone cycle halfway would leave the slave in an unknown state) and the reader stays
busy until every outstanding answer has come back and been thrown away, so no stale word
can reach the next command.
"""

from amaranth import Module, Mux, Signal
from amaranth.lib import wiring
from amaranth.lib.fifo import SyncFIFOBuffered
from amaranth.lib.wiring import In, Out

from .core_signature import beat_stream

BURST_WORDS = 64
FIFO_DEPTH = 16


def read_port_signature():
    """The read port (the module docstring gives its rules), seen from the side that
    reads: the reader, the descriptor walker (gateware/common/sglist.py) and the engine's
    port to an outside adapter have it; a bus adapter has it flipped."""
    return wiring.Signature({
        "req_valid": Out(1),
        "req_ready": In(1),
        "req_addr": Out(30),    # word address
        "resp_valid": In(1),
        "resp_data": In(32),
        "resp_err": In(1),
    })


class DMAReader(wiring.Component):
    start: In(1)
    addr: In(32)
    length: In(32)
    last: In(1)
    abort: In(1)
    busy: Out(1)
    done: Out(1)          # pulse: the command's bytes have all left
    bus_error: Out(1)     # pulse
    port: Out(read_port_signature())
    beats: Out(beat_stream())   # the message's bytes, in order, to the packer

    def __init__(self, depth=FIFO_DEPTH, pause_words=BURST_WORDS):
        assert depth >= 2
        self.depth = depth
        self.pause_words = pause_words
        super().__init__()

    def elaborate(self, platform):
        m = Module()
        depth = self.depth

        # The FIFO's registered output also cuts the path from the bus's read data (a block
        # RAM, then the interconnect's multiplexer) to the byte shifter below: that path set
        # the ULX3S SoC's Fmax when the shifter loaded straight from the bus (docs/fpga.md).
        m.submodules.fifo = fifo = SyncFIFOBuffered(width=32, depth=depth)

        running = Signal()
        aborting = Signal()         # stop asking; throw answers away until none is left
        is_last = Signal()          # this command ends the message
        # Request side.
        words_left = Signal(31)     # words not yet requested
        # `words_left != 0`, kept in a register: computed from words_left it was a chain of
        # six LUTs at the head of the engines' longest path (req_valid -> the bus's strobe
        # -> its answer -> the burst counter; nextpnr, SHA-512 engine alone: 57.0 MHz).
        more = Signal()
        credits = Signal(range(depth + 1), init=depth)
        in_flight = Signal(range(depth + 1))
        burst = Signal(range(max(self.pause_words, 2)))
        quiesce = Signal()          # the pause: wait for every answer
        pending = Signal()          # a request is presented and not yet taken
        # Beat side.
        remaining = Signal(32)      # bytes not yet sent as beats
        offset = Signal(2)          # byte offset into the next word (first word only)
        beat_valid = Signal()
        beat_data = Signal(32)
        beat_nbytes = Signal(3)
        beat_last = Signal()

        m.d.comb += [
            self.beats.valid.eq(beat_valid),
            self.beats.payload.data.eq(beat_data),
            self.beats.payload.nbytes.eq(beat_nbytes),
            self.beats.payload.last.eq(beat_last),
            self.busy.eq(running | beat_valid),
        ]
        drained = ~beat_valid | self.beats.ready

        # ---- requests ----
        # req_valid comes from registers only (no path from req_ready back to it), and once
        # up it stays up until taken: `pending` holds it through an abort or an error.
        accept = Signal()
        m.d.comb += [
            self.port.req_valid.eq(pending | (running & ~aborting & ~quiesce &
                                              more & (credits != 0))),
            accept.eq(self.port.req_valid & self.port.req_ready),
        ]
        m.d.sync += pending.eq(self.port.req_valid & ~self.port.req_ready)
        with m.If(accept):
            m.d.sync += [
                self.port.req_addr.eq(self.port.req_addr + 1),
                words_left.eq(words_left - 1),
                more.eq(words_left != 1),
                burst.eq(burst + 1),
            ]
            if self.pause_words:
                with m.If(burst == self.pause_words - 1):
                    m.d.sync += [quiesce.eq(1), burst.eq(0)]
        with m.If(quiesce & (in_flight == 0)):
            m.d.sync += quiesce.eq(0)       # req_valid is still low on this clock

        # ---- answers ----
        # Error answers carry no data; they only stop the transfer.
        m.d.comb += [
            fifo.w_data.eq(self.port.resp_data),
            fifo.w_en.eq(self.port.resp_valid & ~self.port.resp_err & ~aborting),
        ]
        pop = Signal()
        m.d.comb += [
            fifo.r_en.eq(aborting | drained),
            pop.eq(fifo.r_en & fifo.r_rdy),
        ]
        # An error answer (not stored) returns its credit at once; a stored one on pop.
        dropped = self.port.resp_valid & (self.port.resp_err | aborting)
        m.d.sync += [
            in_flight.eq(in_flight + accept - self.port.resp_valid),
            credits.eq(credits - accept + pop + dropped),
        ]
        # Outside the command chain below: inside it, it would depend on `abort`, and the
        # frontend drives `abort` from `bus_error` (a false combinational loop).
        m.d.comb += self.bus_error.eq(running & self.port.resp_valid & self.port.resp_err & ~aborting)

        # ---- beats ----
        take = Signal(3)    # message bytes in the word leaving the FIFO
        m.d.comb += take.eq(Mux(remaining < (4 - offset), remaining, 4 - offset))
        with m.If(beat_valid & self.beats.ready):
            m.d.sync += beat_valid.eq(0)
        with m.If(pop & ~aborting):
            m.d.sync += [
                beat_valid.eq(1),
                beat_data.eq(fifo.r_data >> (offset * 8)),
                beat_nbytes.eq(take),
                beat_last.eq(is_last & (remaining == take)),
                remaining.eq(remaining - take),
                offset.eq(0),
            ]

        # ---- commands ----
        nwords = Signal(34)     # aligned words covering [addr, addr + length)
        m.d.comb += nwords.eq(Mux(self.length == 0, 0, (self.addr[:2] + self.length + 3) >> 2))
        with m.If(self.start & ~running):
            m.d.sync += [
                running.eq(1),
                aborting.eq(0),
                is_last.eq(self.last),
                self.port.req_addr.eq(self.addr[2:]),
                words_left.eq(nwords),
                more.eq(nwords != 0),
                offset.eq(self.addr[:2]),
                remaining.eq(self.length),
                burst.eq(0),
                quiesce.eq(0),
            ]
            # A zero-length command that ends the message still owes one empty last beat.
            with m.If((self.length == 0) & self.last):
                m.d.sync += [beat_valid.eq(1), beat_nbytes.eq(0), beat_last.eq(1)]
        with m.Elif(running):
            with m.If(self.bus_error | self.abort):
                m.d.sync += [aborting.eq(1), beat_valid.eq(0)]
            with m.If(aborting | self.bus_error | self.abort):
                # Done throwing away once nothing is presented, in flight, or stored.
                with m.If(aborting & ~self.port.req_valid & (credits == depth)):
                    m.d.sync += [running.eq(0), beat_valid.eq(0)]
            with m.Elif((remaining == 0) & drained):
                m.d.sync += running.eq(0)
                m.d.comb += self.done.eq(1)
        return m


class WishboneReadAdapter(wiring.Component):
    """The reader's port on a classic Wishbone bus: `stb` is the request, `ack` takes it and
    carries its answer on the same clock, so exactly one read is ever outstanding.

    Pure wiring, no clock: the reader's `req_valid` already obeys the classic rule (held
    until ack/err), and its FIFO registers the read data.
    """
    port: In(read_port_signature())
    wb_adr: Out(30)
    wb_dat_r: In(32)
    wb_cyc: Out(1)
    wb_stb: Out(1)
    wb_ack: In(1)
    wb_err: In(1)

    def elaborate(self, platform):
        m = Module()
        # Slaves answer only our own strobe, but the guard costs nothing and keeps a stray
        # ack from counting as an answer.
        answer = self.wb_stb & (self.wb_ack | self.wb_err)
        m.d.comb += [
            self.wb_adr.eq(self.port.req_addr),
            self.wb_stb.eq(self.port.req_valid),
            self.wb_cyc.eq(self.port.req_valid),
            self.port.req_ready.eq(answer),
            self.port.resp_valid.eq(answer),
            self.port.resp_data.eq(self.wb_dat_r),
            self.port.resp_err.eq(self.wb_err),
        ]
        return m
