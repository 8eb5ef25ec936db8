# SPDX-License-Identifier: MIT
"""What a board's twin replaces in the board's SoC: only what touches pins.

The board modules (boards/ulx3s.py, boards/arty.py) build their SoC with these when asked
for the twin (`twin=True`): one clock instead of the board's clock generator, litex_sim's
UART stream paced at the board's line rate instead of the UART pins (UARTLine), no LED
pins, and LiteDRAM's SDRAM PHY model with the board PHY's own settings, its bank memories
laid out as BankLayout says. Everything behind them is the board's. boards/twin.py builds
and runs the twin; it imports the board modules, which import only this, so the two stay
out of each other's way (no import circle).
"""

from migen import Display, If, Module, Record, Signal
from migen.genlib.io import CRG

from litex.build.sim import SimPlatform

# What the twin replaces -------------------------------------------------------------------------

class UARTLine(Module):
    """The board's UART line, receive side: litex_sim hands the SoC a byte whenever one is
    waiting, as fast as every clock; a board's UART delivers one byte per 10 bit times
    (8N1) and loses it when the receive FIFO is full (there is no flow control). This passes
    one byte every `clocks_per_byte` clocks, for exactly one clock, so the software's
    receive path (the BIOS's serial boot, the console) must keep up as it must on the board.
    A lost byte is an overrun: counted in `overruns` and reported on the simulator's stdout.
    Transmit is not paced: the console output is not what this checks, and pacing it would
    only slow the twin's runs (on the board a print waits for the line; see docs/boards.md).

    `pads`: what the SoC's UART PHY (LiteX's RS232PHYModel) connects to, in place of the
    platform's serial pads `line` (sink_* = received by the SoC, source_* = sent)."""

    def __init__(self, line, clocks_per_byte):
        self.pads = pads = Record([(n, len(getattr(line, n))) for n in
                                   ("source_valid", "source_ready", "source_data",
                                    "sink_valid", "sink_ready", "sink_data")])
        self.overruns = Signal(32)
        self.comb += [      # transmit: straight through
            line.source_valid.eq(pads.source_valid),
            line.source_data.eq(pads.source_data),
            pads.source_ready.eq(line.source_ready),
        ]
        wait = Signal(max=clocks_per_byte + 1)
        arrive = Signal()
        self.comb += [
            arrive.eq((wait == 0) & line.sink_valid),
            pads.sink_valid.eq(arrive),
            pads.sink_data.eq(line.sink_data),
            # Ready for the next byte whenever the line is free, whether or not one waits:
            # litex_sim's serial modules read `ready` before they set `valid` (from the last
            # evaluation), so a ready that waited for valid would make the module keep a
            # byte the SoC had already taken, and deliver it twice. A byte that arrives
            # leaves the wire whether the UART takes it or not.
            line.sink_ready.eq(wait == 0),
        ]
        # The clock of the first byte received, for boot-time figures (scripts/serialboot.py):
        # until then the BIOS has been initialising (and testing) the SDRAM.
        clock, first = Signal(32), Signal()
        self.sync += [
            clock.eq(clock + 1),
            If(arrive & ~first, first.eq(1),
                Display("twin: UART first byte received at clock %d", clock)),
            If(arrive, wait.eq(clocks_per_byte - 1)).Elif(wait != 0, wait.eq(wait - 1)),
            If(arrive & ~pads.sink_ready,
                self.overruns.eq(self.overruns + 1),
                Display("twin: UART receive overrun, a byte lost")),
        ]


class _Platform(SimPlatform):
    """A Verilator platform standing in for the board's: one clock and the UART stream,
    the UART seen through the board's line rate (UARTLine)."""

    def __init__(self, uart_clocks_per_byte):
        from soc.sim import SIM_IO
        SimPlatform.__init__(self, "SIM", list(SIM_IO))
        self.uart_line = UARTLine(SimPlatform.request(self, "serial"), uart_clocks_per_byte)

    def request(self, name, *args, **kwargs):
        return self.uart_line.pads if name == "serial" else SimPlatform.request(self, name, *args, **kwargs)


def platform(sys_clk_freq, baudrate):
    """The twin's platform; the SoC must add `platform.uart_line` as a submodule."""
    return _Platform(uart_clocks_per_byte=int(sys_clk_freq * 10 // baudrate))


def crg(platform):
    return CRG(platform.request("sys_clk"))


def replace_pins(soc, sys_clk_freq, soc_kwargs):
    """For a board SoC built as its twin, before HashSoC.__init__: returns the twin's
    platform and gives the SoC its clock (one, `soc.crg`) and its UART line (`soc.uart_line`,
    litex_sim's stream at the board's rate: soc_kwargs' uart_baudrate; uart_name "sim")."""
    platform_ = platform(sys_clk_freq, soc_kwargs["uart_baudrate"])
    soc.crg = crg(platform_)
    soc.uart_line = platform_.uart_line
    soc_kwargs["uart_name"] = "sim"
    return platform_


def led_pads(platform, n):
    """LEDs have no pins in simulation; the LED chaser (and its CSR) stays."""
    return Signal(n)


class BankLayout:
    """Where main RAM's bytes lie in the PHY model's bank memories (LiteDRAM's
    SDRAMPHYModel, ROW_BANK_COL): each bank memory holds words of one DFI beat set
    (`word_bytes` = DFI data width x phases, e.g. 2 bytes on the ULX3S's SDR SDRAM, 16 on the
    Arty's DDR3 at 1:4); consecutive `run_bytes` (one row of one bank: columns x data bytes)
    go to banks 0, 1, ..., nbanks - 1, then the next row."""

    def __init__(self, settings, module):
        g = module.geom_settings
        self.nbanks = 2 ** g.bankbits
        self.word_bytes = settings.dfi_databits * settings.nphases // 8
        self.run_bytes = 2 ** g.colbits * settings.databits // 8
        self.size = 2 ** (g.bankbits + g.rowbits + g.colbits) * settings.databits // 8
        self.depth = self.size // self.nbanks // self.word_bytes     # words per bank memory

    def init_words(self):
        """Build-time contents of the bank memories: one run of zeros per bank, so that
        Migen emits a $readmemh for every bank memory and each run can load its own image
        (32-bit words, as SDRAMPHYModel's `init` takes them)."""
        return [0] * (self.nbanks * self.run_bytes // 4)


def sdram_init_words(board_phy_settings, module):
    return BankLayout(board_phy_settings, module).init_words()


def sdram_phy_model(board_phy_settings, module, sys_clk_freq):
    """LiteDRAM's SDRAM PHY model with the board PHY's settings (not the model's defaults:
    its SDR default read latency is 4 where GENSDRPHY's is cl + 1 = 3)."""
    from litedram.phy.model import SDRAMPHYModel
    return SDRAMPHYModel(module=module, settings=board_phy_settings, clk_freq=sys_clk_freq,
                         init=sdram_init_words(board_phy_settings, module))
