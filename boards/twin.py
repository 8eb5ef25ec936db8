# SPDX-License-Identifier: MIT
"""Board twin: a board's own SoC simulated in Verilator with the board's memory path.

    python -m boards.twin --build-only                      # build (cached) and stop
    python -m boards.twin --images firmware.bin             # direct boot, console on stdio
    python -m boards.twin --bios board --uart tcp:2001      # the board's BIOS, UART on TCP

A claim about the board holds on its twin. The twin is the board target's SoC class
(boards/ulx3s.py `ULX3SHashSoC(twin=True)`, boards/arty.py `ArtyHashSoC(twin=True)`; the
boards are listed in boards/__init__.py) with only what touches pins replaced: the clock
generator by one clock, the UART pins by litex_sim's UART stream at the board's line rate
(UARTLine: the board's 1 Mbaud, receive side), and the memory PHY by LiteDRAM's
SDRAMPHYModel with the *board PHY's own settings*: on the ULX3S GENSDRPHY's (cl=2, read
latency 3, 16-bit, rate 1:1); on the Arty the A7DDRPHY's, behind boards/a7phy_model.py,
which also carries the A7DDRPHY's CSRs and a read path the BIOS must level. Everything
behind them is the board's: LiteDRAM's controller with the board's DRAM timings at its
sys_clk (60 MHz on the ULX3S, 100 MHz on the Arty, also CONFIG_CLOCK_FREQUENCY), the
32 KiB write-through L2, the CSR map and the engines.

Loading programs without rebuilding Verilator. The PHY model keeps one memory per SDRAM
bank, read with $readmemh from `sim_mem*.init` at start-up (ROW_BANK_COL: BankLayout says
where main RAM's bytes lie). Each run gets a directory of its own with those files written
from the images (`write_sdram_init`), and with one of two BIOS images in `sim_rom.init`:
  - `board`: the BIOS built exactly as for the board (memtest, read leveling, serial boot
    with its delays): used for the documented serial-boot path (litex_term --images);
  - `direct`: the same BIOS built with ROM_BOOT_ADDRESS = main RAM, SDRAM_TEST_DISABLE and
    no delays: it initialises the SDRAM controller and jumps to the preloaded image. It
    does not level a PHY's read path (the Arty's): the leveling's test writes would land
    on the image's first bytes; direct runs start with the read path aligned.
The ROM keeps its declared 64 KiB (no auto-resize) so that either BIOS fits.
"""

import argparse
import fcntl
import json
import os
import sys
import tempfile

from migen import Display, If, Module, Record, Signal
from migen.genlib.io import CRG

from litex.build.sim import SimPlatform
from litex.build.sim.config import SimConfig

from boards import TWIN_BOARDS as BOARDS
from scripts import steps

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

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


# Boards that have a twin ------------------------------------------------------------------------

class Twin:
    """Build and run one board's twin. Attributes: name, build_dir, gateware_dir,
    generated_dir (the headers software for the board is built against), sys_clk_freq,
    main_ram_base, main_ram_size, layout (BankLayout)."""

    def __init__(self, board="ulx3s"):
        import importlib
        if board not in BOARDS:
            raise ValueError(f"no twin for board {board!r} (known: {', '.join(BOARDS)})")
        mod = importlib.import_module(f"boards.{board}")
        self.board = board
        self.name = f"{board}-twin"
        self.build_dir = os.path.join(TOP, "build", self.name)
        self.gateware_dir = os.path.join(self.build_dir, "gateware")
        self.generated_dir = os.path.join(self.build_dir, "software", "include", "generated")
        self.direct_dir = os.path.join(self.build_dir, "direct-bios")
        self.sys_clk_freq = int(mod.DEFAULT_SYS_CLK)
        module, phy = mod.board_dram(mod.board_platform(), self.sys_clk_freq)
        self.layout = BankLayout(phy.settings, module)
        self.main_ram_base = 0x4000_0000
        self.main_ram_size = self.layout.size
        self._soc_cls = getattr(mod, BOARDS[board])

    # -- build ------------------------------------------------------------------------------------

    def _soc(self):
        return self._soc_cls(twin=True, sys_clk_freq=self.sys_clk_freq)

    def build(self, force=False):
        """Gateware + Verilator model + both BIOS images, into build/<board>-twin (cached)."""
        from soc import sim
        os.makedirs(self.build_dir, exist_ok=True)
        with open(os.path.join(self.build_dir, ".build.lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            tag = sim.source_tag(("twin", self.board), sim.SOURCES + ("boards",))
            stamp = os.path.join(self.build_dir, ".built")
            vsim = os.path.join(self.gateware_dir, "obj_dir", "Vsim")
            if not force and os.path.exists(vsim) and os.path.exists(stamp) and open(stamp).read() == tag:
                return self.build_dir
            sim.use_venv_python()
            from soc.bootrom import Builder
            name = f"{self.board}-twin"
            cfg = SimConfig()
            cfg.add_clocker("sys_clk", freq_hz=self.sys_clk_freq)
            cfg.add_module("serial2console", "serial")

            def board():
                print(f"the {self.board} twin, into {os.path.relpath(self.build_dir, TOP)}")
                builder = Builder(self._soc(), output_dir=self.build_dir, compile_gateware=True,
                                  compile_software=True, csr_json=os.path.join(self.build_dir, "csr.json"))
                sim.bios_step(builder, f"{name}: board BIOS (picolibc, libbase, bios)", sim.log(f"{name}-bios"))
                builder.build(sim_config=cfg, run=False, interactive=False, jobs=2, opt_level="O3")

            def direct():
                # The direct-boot BIOS: the same SoC, three constants more, software only.
                soc = self._soc()
                soc.add_constant("ROM_BOOT_ADDRESS", self.main_ram_base)
                soc.add_constant("SDRAM_TEST_DISABLE")
                soc.add_config("BIOS_NO_DELAYS")
                # No read leveling either: its test patterns go to the first burst of row
                # 0, bank 0, i.e. main RAM's first 16 bytes, over the preloaded image (on
                # a board nothing is there before the BIOS). Direct runs start with every
                # lane's read path aligned instead (DIRECT_BOOT_WINDOWS); the board BIOS
                # levels, in the serial boot and tests/test_twin_leveling.py.
                soc.sdram.controller.settings.phy.read_leveling = False
                Builder(soc, output_dir=self.direct_dir, compile_gateware=False,
                        compile_software=True).build(sim_config=cfg, run=False, interactive=False)

            steps.run(f"{name}: SoC and its Verilog (LiteX)", sim.log(f"{name}-gateware"), board)
            steps.run(f"{name}: direct-boot BIOS", sim.log(f"{name}-direct-bios"), direct)
            sim.verilate(self.gateware_dir, f"{name}: Verilator model", sim.log(f"{name}-verilator"))
            with open(stamp, "w") as f:
                f.write(tag)
            return self.build_dir

    def bios_image(self, which):
        d = {"board": self.build_dir, "direct": self.direct_dir}[which]
        return os.path.join(d, "software", "bios", "bios.bin")

    # -- run --------------------------------------------------------------------------------------

    def sdram_files(self):
        """The bank init files of the PHY model, in bank order, found in the Verilog: the
        memories of the layout's depth and word width (the others are the ROM, SRAM...)."""
        import re
        text = open(os.path.join(self.gateware_dir, "sim.v")).read()
        depth = {m.group(2): (int(m.group(1)), int(m.group(3)) + 1)
                 for m in re.finditer(r"^reg \[(\d+):0\] (\w+)\[0:(\d+)\];", text, re.M)}
        want = (self.layout.word_bytes * 8 - 1, self.layout.depth)
        names = [f for f, mem in re.findall(r'\$readmemh\("([^"]+)", (\w+)\);', text) if depth.get(mem) == want]
        if len(names) != self.layout.nbanks:
            raise RuntimeError(f"expected {self.layout.nbanks} SDRAM bank memories in sim.v, found {names}")
        return names

    def phy_window_file(self):
        """The init file of the PHY model's read windows (boards/a7phy_model.py), or None
        for a PHY without leveling."""
        import re
        from boards.a7phy_model import WINDOW_MEMORY
        text = open(os.path.join(self.gateware_dir, "sim.v")).read()
        m = re.search(r'\$readmemh\("([^"]+)", (%s\w*)\);' % WINDOW_MEMORY, text)
        return m.group(1) if m else None

    def prepare_run(self, images=(), bios="direct", uart="console", run_dir=None, phy_windows=None):
        """A run directory with these images in SDRAM, this BIOS in the ROM and this UART
        (`console`: stdin/stdout; `tcp:PORT`: litex_sim's serial2tcp). `phy_windows`: per
        byte lane, the read window of a PHY that must be leveled (boards/a7phy_model.py:
        (first tap, last tap, bit slip) or None for no window; default: the build's).
        Returns (argv, cwd)."""
        from soc import sim
        run_dir = run_dir or tempfile.mkdtemp(prefix="run-", dir=self.build_dir)
        banks = self.sdram_files()
        own = {"sim_rom.init", "sim_config.js"} | set(banks)
        window_file = self.phy_window_file()
        if phy_windows is None and bios == "direct" and window_file is not None:
            from boards.a7phy_model import DIRECT_BOOT_WINDOWS
            phy_windows = DIRECT_BOOT_WINDOWS
        if phy_windows is not None:
            if window_file is None:
                raise ValueError(f"the {self.name}'s PHY has no read windows to set")
            own.add(window_file)
        sim.link_run_dir(self.gateware_dir, run_dir, skip=own)
        if phy_windows is not None:
            from boards.a7phy_model import window_word
            with open(os.path.join(run_dir, window_file), "w") as f:
                f.write("".join(f"{window_word(w):04x}\n" for w in phy_windows))
        sim.write_word_file(self.bios_image(bios), os.path.join(run_dir, "sim_rom.init"))
        write_sdram_init([(f, a - self.main_ram_base) for f, a in images], self.layout,
                         [os.path.join(run_dir, n) for n in banks])
        with open(os.path.join(self.gateware_dir, "sim_config.js")) as f:
            cfg = json.load(f)
        for entry in cfg:
            if entry.get("module") in ("serial2console", "serial2tcp"):
                if uart == "console":
                    entry["module"] = "serial2console"
                    entry.pop("args", None)
                else:
                    port = int(uart.split(":", 1)[1])
                    entry["module"] = "serial2tcp"
                    entry["args"] = {"port": port}
        with open(os.path.join(run_dir, "sim_config.js"), "w") as f:
            json.dump(cfg, f, indent=1)
        return [os.path.join(self.gateware_dir, "obj_dir", "Vsim")], run_dir


def write_sdram_init(blobs, layout, bank_paths):
    """Write the PHY model's bank files from (file, offset in main RAM) pairs, as
    `layout` (BankLayout) places main RAM's bytes: byte offset o lies in bank
    (o // run_bytes) % nbanks, at word (o // (run_bytes * nbanks)) * words per run +
    (o % run_bytes) // word_bytes of that bank's file; a word is written as one
    little-endian hex number."""
    import numpy as np
    end = 0
    data = []
    for fname, off in blobs:
        b = open(fname, "rb").read()
        if off < 0 or off + len(b) > layout.size:
            raise ValueError(f"{fname} at offset {off:#x} does not fit in main RAM")
        data.append((off, b))
        end = max(end, off + len(b))
    row_bytes = layout.nbanks * layout.run_bytes
    end = max(row_bytes, -(-end // row_bytes) * row_bytes)
    mem = bytearray(end)
    for off, b in data:
        mem[off:off + len(b)] = b
    runs = np.frombuffer(bytes(mem), dtype=np.uint8).reshape(-1, layout.nbanks, layout.run_bytes)
    digits = 2 * layout.word_bytes
    for bank, path in enumerate(bank_paths):
        # Bytes of each word reversed: the hex number's most significant digits come first.
        words = runs[:, bank, :].reshape(-1, layout.word_bytes)[:, ::-1]
        hexes = words.tobytes().hex()
        with open(path, "w") as f:
            f.write("\n".join(hexes[i:i + digits] for i in range(0, len(hexes), digits)))
            f.write("\n")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--board", default="ulx3s", choices=sorted(BOARDS))
    p.add_argument("--build-only", action="store_true")
    p.add_argument("--rebuild", action="store_true")
    p.add_argument("--images", help="preload main RAM: .bin at its base, or .json {file: address}")
    p.add_argument("--bios", default=None, choices=["board", "direct"],
                   help="ROM contents (default: direct with --images, else board)")
    p.add_argument("--uart", default="console", help="console (stdio) or tcp:PORT (for litex_term)")
    args = p.parse_args()
    t = Twin(args.board)
    t.build(force=args.rebuild)
    if args.build_only:
        return 0
    from soc.sim import load_images, run_console
    images = load_images(args.images, t.main_ram_base) if args.images else []
    bios = args.bios or ("direct" if images else "board")
    return run_console(*t.prepare_run(images, bios=bios, uart=args.uart))


if __name__ == "__main__":
    sys.exit(steps.cli(main))
