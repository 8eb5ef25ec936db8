# SPDX-License-Identifier: MIT
"""LiteX wrapper (Migen) for the measurement register (gateware/measure.py): its CSRs.

Thin on purpose, as the engines' (gateware/litex_wrapper.py): the behaviour is the Amaranth
core's, instantiated from generated Verilog.
"""

import os

from migen import Cat, ClockSignal, Instance, ResetSignal, Signal

from litex.gen import LiteXModule
from litex.soc.interconnect.csr import CSRField, CSRStatus, CSRStorage

from .measure import WORDS, write_verilog


class MeasurementRegister(LiteXModule):
    """The measurement register on the CSR bus (docs/integrity.md, "Measured boot").
    data0..7: the measurement to extend with; ctrl.extend; status (busy, count);
    value0..7: the value. Words pack bytes 4k..4k+3 little-endian, as the engines' digests."""

    def __init__(self, platform, gen_dir=None):
        gen_dir = gen_dir or os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                          "build", "engines")
        path, top = write_verilog(gen_dir)
        platform.add_source(path)
        # Registers: the order here is the order in the CSR bank.
        data = []
        for k in range(WORDS):
            csr = CSRStorage(32, name=f"data{k}", description=f"Measurement bytes {4 * k}..{4 * k + 3} (little-endian).")
            setattr(self, f"_data{k}", csr)
            data.append(csr.storage)
        self._ctrl = CSRStorage(fields=[
            CSRField("extend", size=1, pulse=True,
                     description="Write 1: value := SHA-256(value || data0..7). Ignored while busy."),
        ])
        self._status = CSRStatus(fields=[
            CSRField("busy", size=1, description="An extend is in progress (about 160 clocks)."),
            CSRField("count", offset=8, size=24, description="Extends since reset."),
        ])
        value, count = Signal(32 * WORDS), Signal(32)
        for k in range(WORDS):
            csr = CSRStatus(32, name=f"value{k}",
                            description=f"Value bytes {4 * k}..{4 * k + 3}; 0 after reset, changed only by an extend.")
            setattr(self, f"_value{k}", csr)
            self.comb += csr.status.eq(value[32 * k:32 * (k + 1)])
        self.comb += self._status.fields.count.eq(count)
        self.specials += Instance(top,
            i_clk=ClockSignal("sys"), i_rst=ResetSignal("sys"),
            i_data=Cat(*data), i_extend=self._ctrl.fields.extend,
            o_value=value, o_busy=self._status.fields.busy, o_count=count)
