# SPDX-License-Identifier: MIT
"""The Arty twin's DDR3 PHY: LiteDRAM's SDRAMPHYModel behind the A7DDRPHY's own CSRs and a
read path that must be leveled.

On the board, each byte lane's read data pass an IDELAYE2 (32 taps, moved by
`rdly_dq_rst`/`rdly_dq_inc`) and an ISERDES bit slip (8 positions, `rdly_dq_bitslip_rst`/
`rdly_dq_bitslip`), both for the lanes set in `dly_sel`; the data are sampled right only
at one bit slip and inside a window of taps, which differs per lane and per board. The
BIOS's read leveling (LiteX's liblitedram, sdram_read_leveling) scans every bit slip and
tap, and sets each lane to the middle of the widest window it finds.

This model keeps that contract without modelling the primitives:
- its CSRs are the board PHY's, created in the same order with the same names, sizes and
  reset values (mirrored from an A7DDRPHY built on the Arty's pads), so the twin's CSR map
  and generated headers are the board's;
- per lane it keeps a tap count (0-31, wrapping as the IDELAYE2's does) and a bit slip
  (0-7), moved by those CSRs exactly as the A7DDRPHY moves its primitives (`rst` resets
  both);
- a lane's read data reach the controller intact only while its bit slip is the lane's
  good one and its tap count lies inside the lane's window; otherwise the lane's bytes
  arrive inverted, so every test pattern the BIOS reads back fails;
- the windows are data, not logic: one 16-bit word per lane in a memory read from
  `<window memory>.init` when the simulation starts (boards/twin.py writes it per run),
  so a test moves or removes them without rebuilding Verilator.

Window word, per lane (WINDOW_FIELDS): bit 15 set = the lane has a window; bits 12-14 its
good bit slip; bits 5-9 its last good tap; bits 0-4 its first good tap.

The inner SDRAMPHYModel has the board PHY's PhySettings (1:4, cl, read latency 8, ...):
the controller is generated for exactly what the board gets.
"""

import copy

from migen import Cat, If, Memory, Module, Replicate, Signal

from litex.soc.interconnect.csr import CSR, AutoCSR, CSRStorage

WINDOW_FIELDS = {"first": (0, 5), "last": (5, 5), "bitslip": (12, 3), "valid": (15, 1)}
WINDOW_MEMORY = "twin_phy_window"
NTAPS = 32
NBITSLIPS = 8
# Two lanes, two different windows (the board's differ per lane too): what the build's
# window file holds; a run may write others (Twin.prepare_run(..., phy_windows=...)).
DEFAULT_WINDOWS = ((9, 22, 3), (12, 26, 5))
# For the twin's direct boot, whose BIOS does not level (boards/twin.py): every lane good at
# reset (tap 0, bit slip 0) and at every tap.
DIRECT_BOOT_WINDOWS = ((0, NTAPS - 1, 0), (0, NTAPS - 1, 0))


def window_word(window):
    """The memory word for one lane: None (no window) or (first tap, last tap, bit slip)."""
    if window is None:
        return 0
    first, last, bitslip = window
    if not (0 <= first <= last < NTAPS and 0 <= bitslip < NBITSLIPS):
        raise ValueError(f"bad window {window!r}: taps 0..{NTAPS - 1}, bit slips 0..{NBITSLIPS - 1}")
    f = WINDOW_FIELDS
    return (1 << f["valid"][0]) | (bitslip << f["bitslip"][0]) | (last << f["last"][0]) | (first << f["first"][0])


def _mirror_csrs(target, board_phy):
    """Create on `target` the board PHY's CSRs, in its order (LiteX orders a module's CSRs
    by creation), with the same names, sizes, reset values and kinds."""
    for csr in board_phy.get_csrs():
        if isinstance(csr, CSRStorage):
            mine = CSRStorage(csr.size, reset=csr.storage.reset.value, name=csr.name)
        elif type(csr) is CSR:
            mine = CSR(csr.size, name=csr.name)
        else:
            raise TypeError(f"the board PHY's CSR {csr.name} is a {type(csr).__name__}: not modelled")
        setattr(target, "_" + csr.name, mine)


class A7DDRPHYModel(Module, AutoCSR):
    """`board_phy`: an A7DDRPHY built on the board's pads (never part of the SoC: its CSRs
    and settings are copied); `module`: the DRAM module at the board's rate; `init`: the
    bank memories' build-time contents (see boards/twin.py)."""

    def __init__(self, board_phy, module, sys_clk_freq, init, windows=DEFAULT_WINDOWS):
        from litedram.phy.dfi import Interface
        from litedram.phy.model import SDRAMPHYModel

        _mirror_csrs(self, board_phy)
        strobes = board_phy.settings.strobes
        if len(windows) != strobes:
            raise ValueError(f"{strobes} lanes need {strobes} windows")
        # The board PHY's settings, with its rdphase/wrphase now driven by our CSRs.
        self.settings = copy.copy(board_phy.settings)
        self.settings.rdphase = self._rdphase.storage
        self.settings.wrphase = self._wrphase.storage

        self.submodules.model = model = SDRAMPHYModel(module=module, settings=self.settings,
                                                      clk_freq=sys_clk_freq, init=init)
        s = self.settings
        self.dfi = dfi = Interface(len(model.dfi.p0.address), len(model.dfi.p0.bank), s.nranks,
                                   s.dfi_databits, s.nphases)

        # Per lane: tap count and bit slip, moved as the A7DDRPHY moves its IDELAYE2 and
        # bit slip (both reset by `rst`; the CSR strobes act on the lanes in dly_sel).
        sel, rst = self._dly_sel.storage, self._rst.storage
        self.taps = [Signal(5, name=f"taps{i}") for i in range(strobes)]
        self.bitslips = [Signal(3, name=f"bitslip{i}") for i in range(strobes)]
        for i in range(strobes):
            self.sync += [
                If(rst | (sel[i] & self._rdly_dq_rst.re), self.taps[i].eq(0))
                .Elif(sel[i] & self._rdly_dq_inc.re, self.taps[i].eq(self.taps[i] + 1)),
                If(rst | (sel[i] & self._rdly_dq_bitslip_rst.re), self.bitslips[i].eq(0))
                .Elif(sel[i] & self._rdly_dq_bitslip.re, self.bitslips[i].eq(self.bitslips[i] + 1)),
            ]

        # The windows, read from a file when the simulation starts.
        mem = Memory(16, strobes, init=[window_word(w) for w in windows], name=WINDOW_MEMORY)
        ports = [mem.get_port(async_read=True) for _ in range(strobes)]
        self.specials += [mem] + ports
        self.aligned = Signal(strobes)
        for i, port in enumerate(ports):
            word = port.dat_r
            field = {k: word[o:o + n] for k, (o, n) in WINDOW_FIELDS.items()}
            self.comb += [
                port.adr.eq(i),
                self.aligned[i].eq(field["valid"] & (self.bitslips[i] == field["bitslip"])
                                   & (self.taps[i] >= field["first"]) & (self.taps[i] <= field["last"])),
            ]

        # Commands and write data straight through; read data per lane, inverted unless the
        # lane is aligned. A DFI phase word is [rising edge | falling edge], databits each;
        # lane i is byte i of both halves.
        flip = Cat(*[Replicate(~self.aligned[i], 8) for half in range(2) for i in range(strobes)])
        assert len(flip) == s.dfi_databits
        # rddata_valid on every phase, as the A7DDRPHY drives it: the model sets phase 0's
        # only, which the controller reads, but the BIOS's software reads (DFII, one
        # capture register per phase) need each phase's.
        for outer, inner in zip(dfi.phases, model.dfi.phases):
            self.comb += [
                outer.connect(inner, omit={"rddata", "rddata_valid"}),
                outer.rddata.eq(inner.rddata ^ flip),
                outer.rddata_valid.eq(model.dfi.p0.rddata_valid),
            ]
