# SPDX-License-Identifier: MIT
"""LiteX wrapper (Migen) for a hash engine: CSRs, data window, DMA master, interrupt.

The DMA reads either as a Wishbone master on the SoC bus (simulation, on-chip RAM) or on
its own LiteDRAM native port (boards: `dram_port`), see gateware/litedram_dma.py.

Thin on purpose: all behaviour lives in the Amaranth engine (gateware/common/engine.py
plus a core), which this module instantiates from generated Verilog. Every engine gets the
same register layout, hashspec.REGISTERS, so one driver serves all (docs/registers.md).
"""

import os

from amaranth.lib.wiring import Out
from migen import ClockSignal, Instance, ResetSignal, Signal
from migen.fhdl import tracer

from litex.gen import LiteXModule
from litex.soc.interconnect import wishbone
from litex.soc.interconnect.csr import CSRField, CSRStatus, CSRStorage
from litex.soc.interconnect.csr_eventmanager import EventManager, EventSourcePulse

from . import hashspec
from .common.dma import read_port_signature
from .common.engine import WINDOW_SIZE
from .engines import ENGINE_VERSION, SPECS, variant_code, write_verilog
from .litedram_dma import LiteDRAMDMAPort


def _csr(reg, value):
    """The CSR of hashspec Register `reg`; `value`: its reset value, or its fields' by name.
    (No local variable holds the CSR: migen would name its signals after it, below.)"""
    cls = CSRStorage if reg.access == "rw" else CSRStatus
    if not reg.fields:
        return _name_signals(cls(reg.width, reset=value, name=reg.name, description=reg.doc), reg.name)
    return _name_signals(cls(fields=[CSRField(f.name, size=f.width, offset=f.offset, pulse=f.pulse,
                                              reset=value.get(f.name, 0) if value else 0, description=f.doc)
                                     for f in reg.fields], name=reg.name, description=reg.doc), reg.name)


def _name_signals(csr, name):
    """Name the CSR's signals as `self._<name> = CSRStorage(...)` would have.

    Migen names a signal after the variables its makers were assigned to, which it reads
    from the call stack when the signal is made (its `backtrace`): `self._ctrl =
    CSRStorage(...)` gives ctrl_storage, ctrl_re and so on. A CSR made here, from the
    description, was assigned to no variable, so this adds the step that assignment would
    have added, numbered from the tracer's own counter as it would have been. The Verilog's
    names, and with them the netlist nextpnr places, stay those of the CSRs this module
    wrote out by hand before hashspec described them (tests/test_spec.py checks a name)."""
    step = tracer.remove_underscore(name)
    maker = type(csr).__name__.lower()
    for sig in (v for v in vars(csr).values() if isinstance(v, Signal)):
        at = next(i for i, (n, _) in enumerate(sig.backtrace) if n == maker)
        sig.backtrace.insert(at, (step, tracer.name_to_idx[step]))
        tracer.name_to_idx[step] += 1
    return csr


class HashAccelerator(LiteXModule):
    WINDOW_SIZE = WINDOW_SIZE

    def __init__(self, platform, name, variant=None, dma_window=(0, 1 << 32), gen_dir=None,
                 dram_port=None):
        """`dram_port`: None for a Wishbone DMA master (`self.dma`, to add to the SoC's bus),
        or a LiteDRAM native port (`crossbar.get_port(mode="both")`, controller width) that
        the DMA reads on, pipelined, around the bus and its L2 (gateware/litedram_dma.py).
        The port's SDRAM must start at `dma_window[0]`."""
        spec = SPECS[name]
        gen_dir = gen_dir or os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                          "build", "engines")
        dma_bus = "wishbone" if dram_port is None else "stream"
        path, top = write_verilog(name, variant, gen_dir, dma_window, dma_bus)
        platform.add_source(path)

        self.window = wishbone.Interface(data_width=32, address_width=32, addressing="word")
        if dram_port is None:
            self.dma = wishbone.Interface(data_width=32, address_width=32, addressing="word")
        else:
            self.dma = None
            self.dma_port = LiteDRAMDMAPort(dram_port, base_address=dma_window[0])

        # Registers: hashspec.REGISTERS, in its order (the CSR bank's), the same for every
        # engine. The version register's fields hold this engine's values.
        values = {"id": spec.ident,
                  "version": {"minor": ENGINE_VERSION[1], "major": ENGINE_VERSION[0],
                              "variant": variant_code(name, variant), "modes": len(spec.modes)}}
        for reg in hashspec.REGISTERS:
            setattr(self, f"_{reg.name}", _csr(reg, values.get(reg.name, 0)))
        if dram_port is not None:
            # A DMA command's fence: the CPU's writes before it reach the SDRAM first.
            self.comb += self.dma_port.fence.eq(self._dma_ctrl.fields.start)

        self.ev = EventManager()
        # In hashspec.EVENTS's order (bit i of ev_status/pending/enable; tests/test_spec.py
        # checks it). Plain assignments: migen names the sources' signals after them.
        ev_doc = {e.name: e.doc for e in hashspec.EVENTS}
        self.ev.done = EventSourcePulse(description=ev_doc["done"])
        self.ev.dma = EventSourcePulse(description=ev_doc["dma"])
        self.ev.error = EventSourcePulse(description=ev_doc["error"])
        self.ev.finalize()

        # The engine's ports on the CSR side, named as hashspec.REGISTERS says. A register
        # without fields is one port on its storage/status; `errors` (a status register with
        # fields but one port) drives its fields from the port's bits.
        errors = Signal(self._errors.size)
        st = self._status.fields
        self.comb += st.error.eq(errors != 0)
        # A CSRStatus with fields is driven through its fields, not .status.
        for f in hashspec.register("errors").fields:
            self.comb += getattr(self._errors.fields, f.name).eq(errors[f.offset])
        csr_ios = {}
        for reg in hashspec.REGISTERS:
            csr = getattr(self, f"_{reg.name}")
            for port, _, field in reg.ports():
                io = "i" if reg.access == "rw" else "o"
                if field is not None:
                    sig = getattr(csr.fields, field.name)
                elif reg.fields:    # a status register's fields on one port: only `errors`
                    assert reg.name == "errors", reg.name
                    sig = errors
                else:
                    sig = csr.storage if reg.access == "rw" else csr.status
                csr_ios[f"{io}_{port}"] = sig
        win, dma = self.window, self.dma
        if dma is not None:
            self.comb += [dma.we.eq(0), dma.sel.eq(0xF), dma.dat_w.eq(0), dma.cti.eq(0), dma.bte.eq(0)]
            dma_ios = dict(o_m_adr=dma.adr[:30], i_m_dat_r=dma.dat_r,
                           o_m_cyc=dma.cyc, o_m_stb=dma.stb, i_m_ack=dma.ack, i_m_err=dma.err)
        else:
            p = self.dma_port
            # The engine's `dma_port` (gateware/common/dma.py, read_port_signature), as
            # Amaranth names a member of an interface in Verilog.
            dma_ios = {f"{'o' if member.flow == Out else 'i'}_dma_port__{n}": getattr(p, n)
                       for n, member in read_port_signature().members.items()}
        self.specials += Instance(top,
            i_clk=ClockSignal("sys"), i_rst=ResetSignal("sys"),
            **csr_ios,
            **{f"o_ev_{e.name}": getattr(self.ev, e.name).trigger for e in hashspec.EVENTS},
            i_s_adr=win.adr[:12], i_s_dat_w=win.dat_w, o_s_dat_r=win.dat_r,
            i_s_we=win.we, i_s_cyc=win.cyc, i_s_stb=win.stb, o_s_ack=win.ack,
            **dma_ios,
        )
