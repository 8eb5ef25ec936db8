# SPDX-License-Identifier: MIT
"""LiteX wrapper (Migen) for a hash engine: CSRs, data window, DMA master, interrupt.

The DMA reads either as a Wishbone master on the SoC bus (simulation, on-chip RAM) or on
its own LiteDRAM native port (boards: `dram_port`), see gateware/litedram_dma.py.

Thin on purpose: all behaviour lives in the Amaranth engine (gateware/common/engine.py
plus a core), which this module instantiates from generated Verilog. Both engines get the
same register layout, so one driver serves both (docs/registers.md).
"""

import os

from amaranth.lib.wiring import Out
from migen import ClockSignal, Instance, ResetSignal, Signal

from litex.gen import LiteXModule
from litex.soc.interconnect import wishbone
from litex.soc.interconnect.csr import CSRField, CSRStatus, CSRStorage
from litex.soc.interconnect.csr_eventmanager import EventManager, EventSourcePulse

from . import hashspec
from .common.dma import read_port_signature
from .common.engine import ERROR_NAMES, WINDOW_SIZE
from .engines import ENGINE_VERSION, SPECS, variant_code, write_verilog
from .litedram_dma import LiteDRAMDMAPort



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

        # Registers: the order here is the order in the CSR bank, the same for both engines.
        self._id = CSRStatus(32, reset=spec.ident, description="Engine ID, four ASCII characters.")
        self._version = CSRStatus(fields=[
            CSRField("minor", size=8, reset=ENGINE_VERSION[1], description="Minor version."),
            CSRField("major", size=8, reset=ENGINE_VERSION[0], description="Major version."),
            CSRField("variant", size=8, reset=variant_code(name, variant),
                     description="Core variant (SHA-256: 0 basic, 65 clocks/block; 1 folded, 64)."),
            CSRField("modes", size=8, reset=len(spec.modes), description="Number of modes."),
        ], description="Version and capabilities.")
        self._ctrl = CSRStorage(fields=[
            CSRField("init", size=1, pulse=True, description="Open a new message in ``mode``."),
            CSRField("abort", size=1, pulse=True, description="Drop the open message, stop DMA, reset the core."),
            CSRField("squeeze", size=1, pulse=True, description="XOF modes: permute for the next output block."),
            CSRField("err_clear", size=1, pulse=True, description="Clear the sticky ``errors`` bits."),
            CSRField("mode", size=4, offset=8, description="Algorithm used by ``init`` (docs/registers.md)."),
        ], description="Commands. Write ``init`` together with ``mode`` to start a message.")
        self._status = CSRStatus(fields=[
            CSRField("open", size=1, description="A message is open: data is accepted."),
            CSRField("busy", size=1, description="Data held or being processed (context not readable)."),
            CSRField("done", size=1, description="The digest / output block is readable in the context window."),
            CSRField("dma_busy", size=1, description="A DMA command is running."),
            CSRField("error", size=1, description="Some bit of ``errors`` is set."),
            CSRField("xof", size=1, description="The current mode may squeeze."),
            CSRField("mode", size=4, offset=8, description="Mode of the current message."),
        ], description="Engine status.")
        self._errors = CSRStatus(fields=[
            CSRField(b.name, size=1, description=b.doc) for b in hashspec.ERRORS
        ], description="Sticky error bits; cleared by ``ctrl.err_clear``.")
        self._dma_addr = CSRStorage(32, description="DMA: byte address of the data (any alignment); "
                                                    "with ``dma_ctrl.list``, of the descriptor list (word aligned).")
        self._dma_len = CSRStorage(32, description="DMA: length in bytes; with ``dma_ctrl.list``, the number of "
                                                   f"descriptors (1 to {hashspec.SG_MAX}).")
        self._dma_ctrl = CSRStorage(fields=[
            CSRField("start", size=1, pulse=True, description="Start reading ``dma_len`` bytes at ``dma_addr``."),
            CSRField("last", size=1, offset=1, description="These bytes end the message."),
            CSRField("list", size=1, offset=2, description="Scatter-gather: ``dma_addr`` and ``dma_len`` name a "
                     "list of descriptors in main RAM (address, length), read by the engine as one command."),
        ], description="DMA command.")
        if dram_port is not None:
            # A DMA command's fence: the CPU's writes before it reach the SDRAM first.
            self.comb += self.dma_port.fence.eq(self._dma_ctrl.fields.start)
        self._busy_cycles = CSRStatus(32, description="Clocks the core has been busy since ``init``.")

        self.ev = EventManager()
        # In hashspec.EVENTS's order (bit i of ev_status/pending/enable; tests/test_spec.py
        # checks it). Plain assignments: migen names the sources' signals after them.
        ev_doc = {e.name: e.doc for e in hashspec.EVENTS}
        self.ev.done = EventSourcePulse(description=ev_doc["done"])
        self.ev.dma = EventSourcePulse(description=ev_doc["dma"])
        self.ev.error = EventSourcePulse(description=ev_doc["error"])
        self.ev.finalize()

        errors = Signal(len(hashspec.ERRORS))
        st = self._status.fields
        self.comb += st.error.eq(errors != 0)
        # A CSRStatus with fields is driven through its fields, not .status.
        for i, n in enumerate(ERROR_NAMES):
            self.comb += getattr(self._errors.fields, n).eq(errors[i])
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
            i_ctrl_init=self._ctrl.fields.init,
            i_ctrl_mode=self._ctrl.fields.mode,
            i_ctrl_abort=self._ctrl.fields.abort,
            i_ctrl_squeeze=self._ctrl.fields.squeeze,
            i_ctrl_err_clear=self._ctrl.fields.err_clear,
            i_dma_start=self._dma_ctrl.fields.start,
            i_dma_last=self._dma_ctrl.fields.last,
            i_dma_list=self._dma_ctrl.fields.list,
            i_dma_addr=self._dma_addr.storage,
            i_dma_len=self._dma_len.storage,
            o_st_open=st.open, o_st_busy=st.busy, o_st_done=st.done,
            o_st_dma_busy=st.dma_busy, o_st_xof=st.xof, o_st_mode=st.mode,
            o_errors=errors,
            o_busy_cycles=self._busy_cycles.status,
            o_ev_done=self.ev.done.trigger,
            o_ev_dma=self.ev.dma.trigger,
            o_ev_error=self.ev.error.trigger,
            i_s_adr=win.adr[:12], i_s_dat_w=win.dat_w, o_s_dat_r=win.dat_r,
            i_s_we=win.we, i_s_cyc=win.cyc, i_s_stb=win.stb, o_s_ack=win.ack,
            **dma_ios,
        )
