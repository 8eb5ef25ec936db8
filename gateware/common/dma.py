"""DMA reader: fetches (address, length) bytes from the system bus as a Wishbone master.

Any byte address and any length: words are read aligned and the first one is shifted so
that beats leave in message order (the packer downstream re-cuts them into full words).
A message may be given as several DMA commands (e.g. one per page of a user buffer); only
the command with `last` set ends it. A zero-length command with `last` ends the message
with no more bytes.

Bus use: classic Wishbone, one read outstanding, `stb` held from one read to the next while
the beat register drains, so a read every 2 clocks from on-chip RAM. After 64 words the
master lets go of the bus for one clock, so the CPU (cache refills, status polls) waits at
most ~130 clocks for it; with 16-word bursts the CPU's status polls cost the DMA ~15%.

Errors: a bus error stops the transfer and pulses `bus_error`. `abort` stops it too, after
the read that is on the bus has ended (dropping a cycle halfway would leave the slave in an
unknown state).
"""

from amaranth import Module, Mux, Signal
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

BURST_WORDS = 64


class DMAReader(wiring.Component):
    start: In(1)
    addr: In(32)
    length: In(32)
    last: In(1)
    abort: In(1)
    busy: Out(1)
    done: Out(1)          # pulse: the command's bytes have all left
    bus_error: Out(1)     # pulse
    # Wishbone master, word addressed, read only.
    wb_adr: Out(30)
    wb_dat_r: In(32)
    wb_cyc: Out(1)
    wb_stb: Out(1)
    wb_ack: In(1)
    wb_err: In(1)
    # Beats out.
    o_valid: Out(1)
    o_ready: In(1)
    o_data: Out(32)
    o_nbytes: Out(3)
    o_last: Out(1)

    def elaborate(self, platform):
        m = Module()

        running = Signal()
        remaining = Signal(32)      # bytes not yet read
        offset = Signal(2)          # byte offset into the next word (first word only)
        is_last = Signal()          # this command ends the message
        aborting = Signal()
        burst = Signal(range(BURST_WORDS))
        pause = Signal()

        beat_valid = Signal()
        beat_data = Signal(32)
        beat_nbytes = Signal(3)
        beat_last = Signal()

        m.d.comb += [
            self.o_valid.eq(beat_valid),
            self.o_data.eq(beat_data),
            self.o_nbytes.eq(beat_nbytes),
            self.o_last.eq(beat_last),
            self.busy.eq(running | beat_valid),
        ]
        drained = ~beat_valid | self.o_ready
        m.d.sync += pause.eq(0)
        with m.If(beat_valid & self.o_ready):
            m.d.sync += beat_valid.eq(0)

        # Classic Wishbone: once stb rises it stays up until ack/err. It rises only when the
        # beat register is free (or leaves this clock), so the answer always has a place.
        pending = Signal()
        m.d.sync += pending.eq(self.wb_stb & ~self.wb_ack & ~self.wb_err)
        m.d.comb += [
            self.wb_stb.eq(running & (remaining != 0) & ~pause & (drained | pending)),
            self.wb_cyc.eq(self.wb_stb),
        ]

        # Outside the command chain below: inside it, it would depend on `abort`, and the
        # frontend drives `abort` from `bus_error` (a false combinational loop).
        m.d.comb += self.bus_error.eq(running & self.wb_stb & self.wb_err & ~aborting)

        take = Signal(3)    # message bytes in the word being read
        m.d.comb += take.eq(Mux(remaining < (4 - offset), remaining, 4 - offset))

        # Datapath: loaded on every acknowledged read. Slaves acknowledge only our own
        # strobe, so `wb_ack` alone says "a word arrived": no abort or flow-control logic
        # sits between it and these ~100 flip-flops. On the ULX3S the L2 cache's ack comes
        # late in the clock (tag compare after a block-RAM read), and this path set sys_clk's
        # Fmax while the ack also went through the abort and stb logic (docs/fpga.md).
        # A word read while aborting lands here too, but never becomes a beat.
        with m.If(self.start & ~running):
            m.d.sync += [
                self.wb_adr.eq(self.addr[2:]),
                offset.eq(self.addr[:2]),
                remaining.eq(self.length),
                burst.eq(0),
            ]
            # A zero-length command that ends the message still owes one empty last beat.
            m.d.sync += [beat_nbytes.eq(0), beat_last.eq(1)]
        with m.Elif(self.wb_ack):
            m.d.sync += [
                beat_data.eq(self.wb_dat_r >> (offset * 8)),
                beat_nbytes.eq(take),
                beat_last.eq(is_last & (remaining == take)),
                remaining.eq(remaining - take),
                offset.eq(0),
                self.wb_adr.eq(self.wb_adr + 1),
                burst.eq(burst + 1),
            ]

        # Control.
        with m.If(self.start & ~running):
            m.d.sync += [running.eq(1), is_last.eq(self.last), aborting.eq(0)]
            with m.If((self.length == 0) & self.last):
                m.d.sync += beat_valid.eq(1)
        with m.Elif(running):
            with m.If(self.wb_stb & self.wb_err):
                m.d.sync += [running.eq(0), beat_valid.eq(0)]
            with m.Elif(self.wb_ack):
                with m.If(aborting | self.abort):
                    m.d.sync += [running.eq(0), beat_valid.eq(0)]
                with m.Else():
                    m.d.sync += beat_valid.eq(1)
                    with m.If(burst == BURST_WORDS - 1):
                        m.d.sync += pause.eq(1)
            with m.Elif(self.abort):
                with m.If(self.wb_stb):
                    m.d.sync += aborting.eq(1)      # end the read on the bus first
                with m.Else():
                    m.d.sync += [running.eq(0), beat_valid.eq(0)]
            with m.Elif((remaining == 0) & drained):
                m.d.sync += running.eq(0)
                m.d.comb += self.done.eq(1)
        return m
