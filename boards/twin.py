# SPDX-License-Identifier: MIT
"""Board twin: a board's own SoC simulated in Verilator with the board's memory path.

Built and run through its target (boards/targets.py):

    python -m boards.targets ulx3s-twin build                       # build (cached) and stop
    python -m boards.targets ulx3s-twin console firmware.bin        # direct boot, console on stdio
    python -m boards.targets ulx3s-twin console --bios board --uart tcp:2001   # the board's BIOS

A claim about the board holds on its twin. The twin is the board target's SoC class
(boards/ulx3s.py `ULX3SHashSoC(twin=True)`, boards/arty.py `ArtyHashSoC(twin=True)`; the
boards are listed in boards/__init__.py) with only what touches pins replaced
(boards/twinpins.py): the clock generator by one clock, the UART pins by litex_sim's UART
stream at the board's line rate (UARTLine: the board's 1 Mbaud, receive side), and the
memory PHY by LiteDRAM's
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

import json
import os
import tempfile

from litex.build.sim.config import SimConfig

from boards import DEFAULT_ENGINES, TWIN_BOARDS as BOARDS
from boards.twinpins import BankLayout
from soc import steps

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

class Twin:
    """Build and run one board's twin. Attributes: name, build_dir, gateware_dir,
    generated_dir (the headers software for the board is built against), sys_clk_freq,
    main_ram_base, main_ram_size, layout (BankLayout)."""

    def __init__(self, target):
        """`target`: the twin's Target (boards/targets.py, `twin_of(board).twin()` makes
        this), which names it and its directories."""
        import importlib
        board = target.board
        if board not in BOARDS:
            raise ValueError(f"no twin for board {board!r} (known: {', '.join(BOARDS)})")
        mod = importlib.import_module(f"boards.{board}")
        self.board = board
        self.name = target.name
        self.build_dir = target.build_dir
        self.gateware_dir = os.path.join(self.build_dir, "gateware")
        self.generated_dir = target.generated_dir
        self.direct_dir = os.path.join(self.build_dir, "direct-bios")
        self.sys_clk_freq = int(mod.DEFAULT_SYS_CLK)
        module, phy = mod.board_dram(mod.board_platform(), self.sys_clk_freq)
        self.layout = BankLayout(phy.settings, module)
        self.main_ram_base = 0x4000_0000
        self.main_ram_size = self.layout.size
        self._soc_cls = target.soc_class()
        self.engines = tuple(target.engines)

    # -- build ------------------------------------------------------------------------------------

    def _soc(self):
        return self._soc_cls(twin=True, sys_clk_freq=self.sys_clk_freq, engines=self.engines)

    def build(self, force=False):
        """Gateware + Verilator model + both BIOS images, into build/<board>-twin (cached)."""
        from soc import sim
        from soc.bootrom import Builder
        name = self.name
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

        def make():
            steps.run(f"{name}: SoC and its Verilog (LiteX)", sim.log(f"{name}-gateware"), board)
            steps.run(f"{name}: direct-boot BIOS", sim.log(f"{name}-direct-bios"), direct)
            sim.verilate(self.gateware_dir, f"{name}: Verilator model", sim.log(f"{name}-verilator"))
        other = () if self.engines == tuple(DEFAULT_ENGINES[self.board]) else (self.engines,)
        tag = sim.source_tag(("twin", self.board) + other, sim.SOURCES + ("boards",))
        return sim.build_cached(self.build_dir, tag, make, force)

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
        write_sdram_init(images, self.main_ram_base, self.layout,
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


def write_sdram_init(images, base, layout, bank_paths):
    """Write the PHY model's bank files from images [(file, address)] in main RAM at
    `base`, as `layout` (BankLayout) places main RAM's bytes: byte offset o lies in bank
    (o // run_bytes) % nbanks, at word (o // (run_bytes * nbanks)) * words per run +
    (o % run_bytes) // word_bytes of that bank's file; a word is written as one
    little-endian hex number."""
    import numpy as np
    from soc.sim import ram_bytes
    row_bytes = layout.nbanks * layout.run_bytes
    mem = ram_bytes(images, base, layout.size, row_bytes) or bytearray(row_bytes)
    runs = np.frombuffer(bytes(mem), dtype=np.uint8).reshape(-1, layout.nbanks, layout.run_bytes)
    digits = 2 * layout.word_bytes
    for bank, path in enumerate(bank_paths):
        # Bytes of each word reversed: the hex number's most significant digits come first.
        words = runs[:, bank, :].reshape(-1, layout.word_bytes)[:, ::-1]
        hexes = words.tobytes().hex()
        with open(path, "w") as f:
            f.write("\n".join(hexes[i:i + digits] for i in range(0, len(hexes), digits)))
            f.write("\n")
