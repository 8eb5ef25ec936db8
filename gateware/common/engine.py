# SPDX-License-Identifier: MIT
"""Hash engine frontend: everything the two accelerators share, around one core.

    CPU stores ──► data window ──┐
                                 ├─► BytePacker ──► core (SHA-256 or Keccak)
    DMA command ─► DMAReader ────┘                   │
    (Wishbone master or                              ▼
     a pipelined read port)
    CPU loads  ◄── context window ◄──────────── context words (digest, state)

The frontend owns the message protocol: `init` opens a message in a mode, data beats
(from the PIO window or from DMA commands) are only accepted while a message is open, the
beat carrying `last` closes it, and `done` says the digest is readable. Every misuse sets
a sticky error bit and raises the error event; misuse that would corrupt the open message
(PIO data while a DMA runs, a bus error during DMA) also aborts the message, so a wrong
digest is never presented as done. Nothing here ever holds the bus indefinitely: a window
write waits at most until the core drains one block.

The data window's layout and the error bits are facts of gateware/hashspec.py (WINDOW,
ERRORS): data at 0x0000 (push 4 message bytes), final at 0x1000 (+4*k: the last k bytes),
context words at 0x2000, HMAC key words at 0x3000 (write-only). Reads elsewhere return 0; writes elsewhere are ignored.
"""

from amaranth import Module, ResetInserter, Signal
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from .dma import BURST_WORDS, FIFO_DEPTH, DMAReader, WishboneReadAdapter, read_port_signature
from .. import hashspec
from .packer import BytePacker
from .sglist import DescriptorWalker, outside

WINDOW_SIZE = hashspec.WINDOW_SIZE
_DATA, _FINAL, _CTX, _KEY = (hashspec.region(n) for n in ("data", "final", "ctx", "key"))
DATA_WORDS = (_DATA.offset >> 2, (_DATA.offset + _DATA.size) >> 2)   # [start, end) word offsets
FINAL_WORD = _FINAL.offset >> 2                                     # + k for k final bytes
FINAL_WORDS = _FINAL.size >> 2                                      # k = 0..FINAL_WORDS-1
CTX_WORD = _CTX.offset >> 2
CTX_WORDS = _CTX.size >> 2
KEY_WORD = _KEY.offset >> 2

# Sticky error bits: their numbers, names and docs are hashspec.ERRORS.
ERROR_NAMES = [b.name for b in hashspec.ERRORS]
ERR_NOT_OPEN = hashspec.error_bit("not_open")
ERR_BUSY = hashspec.error_bit("busy")
ERR_PIO_DURING_DMA = hashspec.error_bit("pio_during_dma")
ERR_DMA_BUS = hashspec.error_bit("dma_bus")
ERR_BAD_RANGE = hashspec.error_bit("bad_range")
ERR_BAD_MODE = hashspec.error_bit("bad_mode")
ERR_SQUEEZE = hashspec.error_bit("squeeze")
ERR_CTX_BUSY = hashspec.error_bit("ctx_busy")
ERR_BAD_LIST = hashspec.error_bit("bad_list")
SG_MAX = hashspec.SG_MAX


_PORTS = {
    # The CSR bank's side (hashspec.REGISTERS, named as there): software's registers come
    # in (commands are one-clock pulses from CSR writes), the engine's status goes out.
    **{name: (In if r.access == "rw" else Out)(width)
       for r in hashspec.REGISTERS for name, width, _ in r.ports()},
    # Event pulses (interrupt sources, hashspec.EVENTS).
    **{f"ev_{e.name}": Out(1) for e in hashspec.EVENTS},
    # Window: Wishbone slave, word address within the 16 KiB window.
    "s_adr": In(12),
    "s_dat_w": In(32),
    "s_dat_r": Out(32),
    "s_we": In(1),
    "s_cyc": In(1),
    "s_stb": In(1),
    "s_ack": Out(1),
}

# DMA read port, one of:
_DMA_PORTS = {
    # Classic Wishbone master, word addressed, one read outstanding (on-chip RAM, the
    # shared LiteX interconnect).
    "wishbone": {
        "m_adr": Out(30),
        "m_dat_r": In(32),
        "m_cyc": Out(1),
        "m_stb": Out(1),
        "m_ack": In(1),
        "m_err": In(1),
    },
    # The DMA reader's own pipelined port (gateware/common/dma.py), for an adapter outside
    # the engine, e.g. a LiteDRAM native port (gateware/litedram_dma.py). In Verilog its
    # members are dma_port__req_valid, ...
    "stream": {
        "dma_port": Out(read_port_signature()),
    },
}


class HashEngine(wiring.Component):
    """The frontend around `core` (a component obeying docs/engine-interface.md).

    `modes`: the mode numbers the core implements; `xof_modes`: those that may squeeze.
    `key_words`: the window's key words the engine decodes (hashspec's Engine.key_words);
    a write to another key word is ignored as a write outside every region is.
    `dma_bus`: "wishbone" (m_* ports: a classic Wishbone master, what the on-chip-RAM
    simulation uses) or "stream" (`dma_port`: the reader's pipelined port, for
    an adapter such as gateware/litedram_dma.py). `dma_depth` reads may be outstanding;
    the reader pauses after `dma_pause_words` (see gateware/common/dma.py; by default 64 on
    Wishbone and 0 on "stream", whose adapter shares the memory on demand).
    `dma_window`: (base, size) of the memory the DMA may read, e.g. main RAM. A command
    outside it is refused before any read: LiteX's interconnect answers an unmapped
    address with a timeout *ack* (not a bus error), so the bus alone cannot be trusted to
    report it, and a DMA must never read device registers on an OS's behalf.
    """

    def __init__(self, core, modes, xof_modes=(), key_words=16, dma_window=(0, 1 << 32), dma_bus="wishbone",
                 dma_depth=FIFO_DEPTH, dma_pause_words=None):
        assert 0 < key_words <= _KEY.size >> 2
        self.core = core
        self.key_words = key_words
        self.dma_window = dma_window
        self.modes = tuple(modes)
        self.xof_modes = tuple(xof_modes)
        self.dma_bus = dma_bus
        self.dma_depth = dma_depth
        if dma_pause_words is None:
            dma_pause_words = BURST_WORDS if dma_bus == "wishbone" else 0
        self.dma_pause_words = dma_pause_words
        super().__init__({**_PORTS, **_DMA_PORTS[dma_bus]})

    def elaborate(self, platform):
        m = Module()
        core = self.core
        kill = Signal()     # abort the message: reset core, packer and DMA
        # The core's reset reaches its ~2,000 flip-flops one clock after `kill`: `kill` comes
        # from bus decoding (a window write during DMA, a CSR command, a bus error) and,
        # fanned out to every reset input, it set the ULX3S SoC's critical path. The core's
        # `done` is masked and `busy` held for that clock, so nothing can see it finish or
        # start anything in between.
        resetting = Signal()
        m.d.sync += resetting.eq(kill)
        m.submodules.core = ResetInserter(resetting)(core)
        m.submodules.packer = packer = BytePacker()
        m.submodules.dma = dma = DMAReader(self.dma_depth, self.dma_pause_words)
        m.submodules.sg = sg = DescriptorWalker(self.dma_window)

        open_ = Signal()
        mode = Signal(4)
        core_done_q = Signal()
        new_err = Signal(len(hashspec.ERRORS))

        dma_running = Signal()
        m.d.comb += dma_running.eq(dma.busy | sg.busy)
        busy = Signal()
        core_done = Signal()
        m.d.comb += [
            core_done.eq(core.done & ~resetting),
            busy.eq(core.busy | resetting | dma_running | ~packer.empty),
            self.st_open.eq(open_),
            self.st_busy.eq(busy),
            self.st_done.eq(core_done & ~open_ & packer.empty),
            self.st_dma_busy.eq(dma_running),
            self.st_mode.eq(mode),
            self.st_xof.eq(_in(mode, self.xof_modes)),
        ]

        # ---- window (Wishbone slave) ----
        # The request is taken into flip-flops (w_*) and decoded a clock later: the CPU's
        # bus command then ends here instead of running on through the decode into the
        # packer and the core, which was the SoC's critical path at 60 MHz (CPU data-cache
        # command -> window decode -> packer). Costs one clock per window access, not per
        # block. Invariant: w_valid holds one request from its capture until the clock its
        # ack is raised (s_ack), and no request is captured while s_ack is high, because the
        # master still holds the acknowledged one then.
        w_valid = Signal()
        w_adr = Signal(12)
        w_dat = Signal(32)
        w_we = Signal()
        with m.If(self.s_cyc & self.s_stb & ~self.s_ack & ~w_valid):
            m.d.sync += [w_valid.eq(1), w_adr.eq(self.s_adr), w_dat.eq(self.s_dat_w), w_we.eq(self.s_we)]
        with m.If(self.s_ack):
            m.d.sync += w_valid.eq(0)
        req = w_valid & ~self.s_ack
        in_data = (w_adr >= DATA_WORDS[0]) & (w_adr < DATA_WORDS[1])
        final_k = Signal(3)
        m.d.comb += final_k.eq(w_adr - FINAL_WORD)
        in_final = (w_adr >= FINAL_WORD) & (w_adr <= FINAL_WORD + FINAL_WORDS - 1)
        in_ctx = (w_adr >= CTX_WORD) & (w_adr < CTX_WORD + CTX_WORDS)
        in_key = (w_adr >= KEY_WORD) & (w_adr < KEY_WORD + self.key_words)
        push = req & w_we & (in_data | in_final)
        push_ok = push & open_ & ~dma_running
        ctx_rd_wait = Signal()

        m.d.sync += self.s_ack.eq(0)
        # Context and key writes reach the core one clock after their ack, from flip-flops:
        # decided combinationally (request, window, `busy`, which comes from the DMA's and
        # the walker's states) they ran on into the core's state and its next-round
        # precompute, the ULX3S SoC's critical path with three engines. The write lands
        # before any later request: w_adr and w_dat hold until the next capture, and none is
        # captured while s_ack is high (invariant above).
        ctx_we = Signal()
        key_we = Signal()
        m.d.sync += [ctx_we.eq(0), key_we.eq(0)]
        m.d.comb += [core.ctx_addr.eq(w_adr[:6]), core.ctx_wdata.eq(w_dat),
                     core.ctx_we.eq(ctx_we), core.key_we.eq(key_we)]

        # Packer input: the DMA while it runs, else the window's data and final words.
        with m.If(dma_running):
            wiring.connect(m, dma.beats, packer.i_beats)
        with m.Else():
            m.d.comb += [
                packer.i_beats.valid.eq(push_ok),
                packer.i_beats.payload.data.eq(w_dat),
                packer.i_beats.payload.nbytes.eq(4),
                packer.i_beats.payload.last.eq(0),
            ]
            with m.If(in_final):
                m.d.comb += [packer.i_beats.payload.nbytes.eq(final_k), packer.i_beats.payload.last.eq(1)]

        with m.If(push):
            with m.If(~open_):
                m.d.comb += new_err[ERR_NOT_OPEN].eq(1)
                m.d.sync += self.s_ack.eq(1)            # dropped; nothing was open
            with m.Elif(dma_running):
                m.d.comb += [new_err[ERR_PIO_DURING_DMA].eq(1), kill.eq(1)]
                m.d.sync += self.s_ack.eq(1)
            with m.Elif(packer.i_beats.ready):
                m.d.sync += self.s_ack.eq(1)            # else wait: the core is draining
        with m.Elif(req & w_we & in_ctx):
            with m.If(busy):
                m.d.comb += new_err[ERR_BUSY].eq(1)
            with m.Else():
                m.d.sync += ctx_we.eq(1)
            m.d.sync += self.s_ack.eq(1)
        with m.Elif(req & w_we & in_key):
            # The key of the next HMAC message: refused while one is open (its outer hash
            # still needs the key it began with) or the core works.
            with m.If(open_ | busy):
                m.d.comb += new_err[ERR_BUSY].eq(1)
            with m.Else():
                m.d.sync += key_we.eq(1)
            m.d.sync += self.s_ack.eq(1)
        with m.Elif(req & ~w_we & in_ctx):
            # The core registers ctx_rdata: wait one clock, then answer with it.
            with m.If(~ctx_rd_wait):
                m.d.sync += ctx_rd_wait.eq(1)
            with m.Else():
                m.d.sync += [ctx_rd_wait.eq(0), self.s_ack.eq(1), self.s_dat_r.eq(core.ctx_rdata)]
                with m.If(busy):
                    m.d.comb += new_err[ERR_CTX_BUSY].eq(1)
        with m.Elif(req):
            m.d.sync += [self.s_ack.eq(1), self.s_dat_r.eq(0)]

        # A beat carrying `last` closes the message.
        pin = packer.i_beats
        with m.If(pin.valid & pin.ready & pin.payload.last):
            m.d.sync += open_.eq(0)

        # ---- packer -> core ----
        wiring.connect(m, packer.o_beats, core.beats)
        m.d.comb += core.mode.eq(self.ctrl_mode)

        # ---- DMA ----
        # The reader takes its commands from the registers, or from the walker during a
        # list; the walker borrows the reader's read port to fetch descriptors (the reader
        # is idle then).
        with m.If(sg.busy):
            m.d.comb += [
                dma.addr.eq(sg.r_addr),
                dma.length.eq(sg.r_length),
                dma.last.eq(sg.r_last),
                dma.start.eq(sg.r_start),
            ]
        with m.Else():
            m.d.comb += [
                dma.addr.eq(self.dma_addr),
                dma.length.eq(self.dma_len),
                dma.last.eq(self.dma_last),
            ]
        m.d.comb += [
            dma.abort.eq(kill),
            sg.abort.eq(kill),
            sg.addr.eq(self.dma_addr),
            sg.count.eq(self.dma_len),
            sg.last.eq(self.dma_last),
            sg.r_done.eq(dma.done),
            self.ev_dma.eq(sg.done | (dma.done & ~sg.busy)),
        ]
        if self.dma_bus == "wishbone":
            m.submodules.dma_wb = wb = WishboneReadAdapter()
            m.d.comb += [
                self.m_adr.eq(wb.wb_adr),
                self.m_cyc.eq(wb.wb_cyc),
                self.m_stb.eq(wb.wb_stb),
                wb.wb_dat_r.eq(self.m_dat_r),
                wb.wb_ack.eq(self.m_ack),
                wb.wb_err.eq(self.m_err),
            ]
            bus = wb.port
        else:
            bus = self.dma_port
        # The walker and the reader take turns on the one port: the walker while it
        # fetches a descriptor (the reader is idle then), the reader otherwise.
        m.d.comb += [
            dma.port.resp_data.eq(bus.resp_data),
            dma.port.resp_err.eq(bus.resp_err),
            sg.port.resp_data.eq(bus.resp_data),
            sg.port.resp_err.eq(bus.resp_err),
        ]
        def take_port(owner):
            m.d.comb += [
                bus.req_valid.eq(owner.port.req_valid),
                bus.req_addr.eq(owner.port.req_addr),
                owner.port.req_ready.eq(bus.req_ready),
                owner.port.resp_valid.eq(bus.resp_valid),
            ]
        with m.If(sg.owns_port):
            take_port(sg)
        with m.Else():
            take_port(dma)
        # A list's own range: SG_DESC_WORDS words per descriptor.
        list_bytes = Signal(32)
        m.d.comb += list_bytes.eq(self.dma_len * (4 * hashspec.SG_DESC_WORDS))
        bad_list = (self.dma_len == 0) | (self.dma_len > SG_MAX) | (self.dma_addr[:2] != 0)
        with m.If(self.dma_start):
            with m.If(~open_):
                m.d.comb += new_err[ERR_NOT_OPEN].eq(1)
            with m.Elif(dma_running):
                m.d.comb += new_err[ERR_BUSY].eq(1)
            with m.Elif(self.dma_list):
                with m.If(bad_list):
                    m.d.comb += new_err[ERR_BAD_LIST].eq(1)
                with m.Elif(outside(self.dma_addr, list_bytes, self.dma_window)):
                    m.d.comb += new_err[ERR_BAD_RANGE].eq(1)
                with m.Else():
                    m.d.comb += sg.start.eq(1)
            with m.Elif(outside(self.dma_addr, self.dma_len, self.dma_window)):
                m.d.comb += new_err[ERR_BAD_RANGE].eq(1)
            with m.Else():
                m.d.comb += dma.start.eq(1)
        with m.If(dma.bus_error | sg.bus_error):
            m.d.comb += [new_err[ERR_DMA_BUS].eq(1), kill.eq(1)]
        # A bad descriptor met mid-list: earlier pieces are in the core, so the message
        # cannot go on.
        with m.If(sg.bad_list):
            m.d.comb += [new_err[ERR_BAD_LIST].eq(1), kill.eq(1)]
        with m.If(sg.bad_range):
            m.d.comb += [new_err[ERR_BAD_RANGE].eq(1), kill.eq(1)]

        # ---- commands ----
        with m.If(self.ctrl_abort):
            m.d.comb += kill.eq(1)
        with m.Elif(self.ctrl_init):
            with m.If(busy):
                m.d.comb += new_err[ERR_BUSY].eq(1)
            with m.Elif(~_in(self.ctrl_mode, self.modes)):
                m.d.comb += new_err[ERR_BAD_MODE].eq(1)
            with m.Else():
                m.d.comb += core.init.eq(1)
                m.d.sync += [open_.eq(1), mode.eq(self.ctrl_mode), self.busy_cycles.eq(0)]
        with m.If(self.ctrl_squeeze):
            with m.If(_in(mode, self.xof_modes) & self.st_done & ~busy):
                m.d.comb += core.squeeze.eq(1)
            with m.Else():
                m.d.comb += new_err[ERR_SQUEEZE].eq(1)
        with m.If(kill):
            m.d.comb += packer.flush.eq(1)
            m.d.sync += open_.eq(0)

        # ---- status, counters, events ----
        with m.If(core.busy & ~self.ctrl_init):
            m.d.sync += self.busy_cycles.eq(self.busy_cycles + 1)
        m.d.sync += core_done_q.eq(core_done)
        m.d.comb += [
            self.ev_done.eq(core_done & ~core_done_q),
            self.ev_error.eq(new_err.any()),
        ]
        with m.If(self.ctrl_err_clear):
            m.d.sync += self.errors.eq(new_err)
        with m.Else():
            m.d.sync += self.errors.eq(self.errors | new_err)
        return m


def _in(value, choices):
    """1 when `value` is one of the constants `choices`."""
    hit = 0
    for c in choices:
        hit = hit | (value == c)
    return hit
