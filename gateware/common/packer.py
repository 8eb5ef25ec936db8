# SPDX-License-Identifier: MIT
"""Byte packer: beats of 0..4 bytes at any alignment in, the cores' beats out.

The cores take 32-bit little-endian words of 4 bytes each, with only the last beat of a
message allowed to be short (see docs/engine-interface.md). Software, however, may hand
the engine a message in pieces of any length (PIO writes, DMA chunks from unaligned
addresses, several DMA chunks per message), so the frontend runs every beat through this
packer, which keeps up to 7 bytes and re-cuts them into full words.

Throughput: one beat in and one word out per clock (input is accepted in the same clock
that a word leaves), so the packer never limits the DMA.
"""

from amaranth import Module, Mux, Signal
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from .core_signature import beat_stream


class BytePacker(wiring.Component):
    i_beats: In(beat_stream())     # 0..4 valid bytes a beat, counted from bits 7:0
    o_beats: Out(beat_stream())    # 4 bytes a beat, or 0..4 on the last
    flush: In(1)         # drop everything held (abort)
    empty: Out(1)        # nothing held: no bytes, no pending end of message

    def elaborate(self, platform):
        m = Module()
        i, o = self.i_beats, self.o_beats

        acc = Signal(56)            # up to 7 held bytes, first byte in bits 7:0
        cnt = Signal(range(8))      # how many bytes acc holds
        last = Signal()             # the end of the message has been received

        full = cnt >= 4
        m.d.comb += [
            o.payload.data.eq(acc[:32]),
            o.valid.eq(full | last),
            o.payload.nbytes.eq(Mux(full, 4, cnt)),
            o.payload.last.eq(last & (cnt <= 4)),
            self.empty.eq((cnt == 0) & ~last),
        ]

        # State after this clock's output beat, so a word can leave and a beat can enter in
        # the same clock.
        emit = o.valid & o.ready
        cnt_after = Signal.like(cnt)
        acc_after = Signal.like(acc)
        last_after = Signal()
        m.d.comb += [
            cnt_after.eq(Mux(emit, Mux(o.payload.last, 0, cnt - 4), cnt)),
            acc_after.eq(Mux(emit, acc >> 32, acc)),
            last_after.eq(last & ~(emit & o.payload.last)),
            # After the last byte of a message nothing more is taken until it has left.
            i.ready.eq(~last_after & (cnt_after < 4)),
        ]

        # Clear the bytes beyond the beat's nbytes: the cores pad from a zeroed tail.
        mask = Signal(32)
        with m.Switch(i.payload.nbytes):
            for n in range(5):
                with m.Case(n):
                    m.d.comb += mask.eq((1 << (8 * n)) - 1)
        data = i.payload.data & mask

        with m.If(self.flush):
            m.d.sync += [cnt.eq(0), acc.eq(0), last.eq(0)]
        with m.Elif(i.valid & i.ready):
            m.d.sync += [
                acc.eq(acc_after | (data << (cnt_after * 8))),
                cnt.eq(cnt_after + i.payload.nbytes),
                last.eq(i.payload.last),
            ]
        with m.Else():
            m.d.sync += [acc.eq(acc_after), cnt.eq(cnt_after), last.eq(last_after)]
        return m
