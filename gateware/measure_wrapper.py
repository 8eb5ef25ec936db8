# SPDX-License-Identifier: MIT
"""LiteX wrapper (Migen) for the measurement register (gateware/measure.py): its CSRs.

Thin on purpose, as the engines' (gateware/litex_wrapper.py): the behaviour is the Amaranth
core's, instantiated from generated Verilog.
"""

import os

from migen import ClockSignal, Instance, ResetSignal, Signal

from litex.gen import LiteXModule
from litex.soc.interconnect.csr import CSRField, CSRStatus, CSRStorage

from .measure import write_verilog


class MeasurementRegister(LiteXModule):
    """The measurement register on the CSR bus (docs/integrity.md, "Measured boot").
    ctrl.start, then each measurement word written to `data` once status.want is 1 (the 8th
    ends the extend); status (busy, want, count); sel -> value: the value's word sel. Words
    pack bytes 4k..4k+3 little-endian, as the engines' digests (firmware/libhash/include/
    hashsoc/measure.h drives it)."""

    def __init__(self, platform, gen_dir=None):
        gen_dir = gen_dir or os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                          "build", "engines")
        path, top = write_verilog(gen_dir)
        platform.add_source(path)
        # Registers: the order here is the order in the CSR bank.
        self._ctrl = CSRStorage(fields=[
            CSRField("start", size=1, pulse=True,
                     description="Write 1: begin an extend, value := SHA-256(value || the 8 words written "
                                 "to ``data`` next). Ignored while busy."),
        ])
        self._data = CSRStorage(32, description="A measurement word (bytes 4k..4k+3, little-endian, k = 0..7 "
                                                "in order): each write gives the extend one word. Write only "
                                                "while ``status.want`` is 1; otherwise the word is dropped.")
        self._status = CSRStatus(fields=[
            CSRField("busy", size=1, description="An extend is in progress (from ``ctrl.start`` to the new value)."),
            CSRField("want", size=1, description="The extend takes a word written to ``data`` now."),
            CSRField("count", offset=8, size=24, description="Extends since reset."),
        ])
        self._sel = CSRStorage(3, description="Which word of the value ``value`` shows.")
        self._value = CSRStatus(32, description="Value bytes 4*sel..4*sel+3 (little-endian); 0 after reset, "
                                                "changed only by an extend; reads 0 while busy.")
        count = Signal(32)
        self.comb += self._status.fields.count.eq(count)
        self.specials += Instance(top,
            i_clk=ClockSignal("sys"), i_rst=ResetSignal("sys"),
            i_start=self._ctrl.fields.start, i_data=self._data.storage, i_push=self._data.re,
            o_want=self._status.fields.want, i_sel=self._sel.storage, o_word=self._value.status,
            o_busy=self._status.fields.busy, o_count=count)
