# SPDX-License-Identifier: MIT
"""HashSoC on the Digilent Arty A7 (35T or 100T), with its DDR3 as main RAM.

    python -m boards.arty --build          # BIOS + Vivado project; runs Vivado if on PATH
    python -m boards.arty --no-compile     # Verilog, XDC, Vivado TCL and csr.h only
    python -m boards.arty [--build] --load|--flash [--prog-tool openocd] [--dry-run]
                                           # program the board (boards/prog.py)

The platform and the clock/reset generator are litex_boards' (digilent_arty); the SoC is
soc.hashsoc.HashSoC. Vivado is not installed on the project's machines: without it on
PATH, --build writes the complete project (build/arty/gateware/digilent_arty.tcl and
build_digilent_arty.sh), says so and exits 0; run that script where Vivado is.
"""

import os
import shutil
import sys

from litex_boards.platforms import digilent_arty
from litex_boards.targets import digilent_arty as arty_target

from litedram.modules import MT41K128M16
from litedram.phy import s7ddrphy
from litex.soc.cores.led import LedChaser

from boards import DEFAULT_ENGINES
from gateware import hashspec
from soc.hashsoc import HashSoC
from boards.common import (TOP, DEFAULT_UART_BAUDRATE, soc_kwargs, base_parser, describe, make_builder, program,
                           use_fpga_tools)

VARIANTS = ("a7-35", "a7-100")
DEFAULT_SYS_CLK = 100e6
BUILD_DIR = os.path.join(TOP, "build", "arty")
BUILD_NAME = "digilent_arty"


# The write-through L2 (soc/l2wt.py) in front of the DDR3, as on the ULX3S (boards/ulx3s.py:
# 32 KiB kept the kernel's misses from taking the SDRAM from a DMA stream). The docs quote
# it as "N KiB write-through L2"; tests/test_docs.py checks.
L2_SIZE = 32 * 1024


class ArtyHashSoC(HashSoC):
    """The Arty's SoC. With `twin=True` the same SoC is built for Verilator (boards/twin.py):
    the clock generator, the UART pins and the A7DDRPHY are replaced by simulation models (a
    plain clock, litex_sim's UART stream at the board's line rate, and boards/a7phy_model.py:
    LiteDRAM's SDRAM PHY model behind the A7DDRPHY's own CSRs and settings, with a read path
    the BIOS must level); everything behind them is this same code."""

    def __init__(self, variant="a7-35", sys_clk_freq=DEFAULT_SYS_CLK,
                 engines=DEFAULT_ENGINES["arty"], sha256_variant=hashspec.variant("sha256").name, with_led_chaser=True,
                 toolchain="vivado", dma_native=True, twin=False, **kwargs):
        if variant not in VARIANTS:
            raise ValueError(f"variant must be one of {', '.join(VARIANTS)}, not {variant!r}")
        sys_clk_freq = int(sys_clk_freq)
        kwargs.setdefault("integrated_rom_size", 0x10000)
        kwargs.setdefault("integrated_sram_size", 0x2000)
        kwargs.setdefault("uart_baudrate", DEFAULT_UART_BAUDRATE)
        self.twin = twin
        board_pins = digilent_arty.Platform(variant=variant, toolchain=toolchain)
        if twin:
            from boards import twinpins
            platform = twinpins.replace_pins(self, sys_clk_freq, kwargs)
        else:
            platform = board_pins
            self.crg = arty_target._CRG(platform, sys_clk_freq, with_dram=True)
        HashSoC.__init__(self, platform, sys_clk_freq, ident=f"HashSoC on Arty A7 ({variant})", **kwargs)
        self.fixed_rom_size = twin
        self.uart_baudrate = kwargs["uart_baudrate"]

        # DDR3 (256 MiB MT41K128M16) as main RAM. The 1:4 PHY runs the DRAM at 4 x sys_clk:
        # keep sys_clk >= ~76 MHz (DDR3 DLL-on minimum 303 MHz). dma_native: behind our
        # write-through L2 (L2_SIZE), the engines reading on their own LiteDRAM ports
        # (128 bits wide here); else as litex_boards does it (LiteX's 8 KiB write-back L2,
        # the engines' DMA on the bus).
        # The PHY the board gets; on the twin it is built on the board's pads only to give
        # the model its CSRs and settings.
        module, board_phy = board_dram(board_pins, sys_clk_freq)
        if twin:
            # Its read windows are the build's default; a run sets its own (boards/twin.py).
            from boards.a7phy_model import A7DDRPHYModel
            self.ddrphy = A7DDRPHYModel(board_phy, module, sys_clk_freq,
                                        init=twinpins.sdram_init_words(board_phy.settings, module))
        else:
            self.ddrphy = board_phy
        sdram_args = dict(phy=self.ddrphy, module=module)
        if dma_native:
            self.add_sdram_write_through("sdram", l2_size=L2_SIZE, **sdram_args)
        else:
            self.add_sdram("sdram", l2_cache_size=8192, **sdram_args)
        if with_led_chaser:
            leds = twinpins.led_pads(platform, 4) if twin else platform.request_all("user_led")
            self.leds = LedChaser(pads=leds, sys_clk_freq=sys_clk_freq)

        # Engines last: their DMA window is main RAM, which must exist now.
        self.add_hash_engines(engines, sha256_variant=sha256_variant,
                              dram=self.sdram if dma_native else None)


def board_dram(platform, sys_clk_freq=DEFAULT_SYS_CLK):
    """The board's DDR3: (LiteDRAM module, A7DDRPHY on the platform's pads). The twin builds
    the PHY too, never into its SoC: for its CSRs and settings (boards/a7phy_model.py)."""
    sys_clk_freq = int(sys_clk_freq)
    phy = s7ddrphy.A7DDRPHY(platform.request("ddram"), memtype="DDR3", nphases=4, sys_clk_freq=sys_clk_freq)
    return MT41K128M16(sys_clk_freq, "1:4"), phy


def board_platform(variant="a7-35"):
    """The board's platform, as the twin takes the board PHY from it."""
    return digilent_arty.Platform(variant=variant, toolchain="vivado")


def build(variant="a7-35", sys_clk_freq=DEFAULT_SYS_CLK, engines=DEFAULT_ENGINES["arty"],
          sha256_variant=hashspec.variant("sha256").name, output_dir=BUILD_DIR, run_vivado=None, compile_software=True,
          quiet=False, **soc_kwargs):
    """Write the Vivado project (and run Vivado if run_vivado, default: if on PATH).
    Returns (soc, builder, ran_vivado)."""
    use_fpga_tools()
    if run_vivado is None:
        run_vivado = shutil.which("vivado") is not None
    soc = ArtyHashSoC(variant=variant, sys_clk_freq=sys_clk_freq, engines=engines,
                      sha256_variant=sha256_variant, **soc_kwargs)
    if not quiet:
        print(f"[arty] HashSoC on Arty A7 ({variant})\n" + describe(soc, output_dir, engines, sha256_variant),
              file=sys.stderr, flush=True)
    builder = make_builder(soc, output_dir, run_vivado, compile_software)
    builder.build(build_name=BUILD_NAME, run=run_vivado)
    return soc, builder, run_vivado


def main(argv=None):
    p = base_parser(__doc__, BUILD_DIR, "arty")
    p.add_argument("--variant", default="a7-35", choices=VARIANTS, help="board: a7-35 (default) or a7-100")
    p.add_argument("--sys-clk-freq", type=float, default=DEFAULT_SYS_CLK,
                   help=f"system clock in Hz (default {DEFAULT_SYS_CLK:g})")
    args = p.parse_args(argv)
    if (args.load or args.flash) and not args.build:
        return program("arty", args)        # the bitstream Vivado built in --output-dir

    have_vivado = shutil.which("vivado") is not None
    run_vivado = args.build and not args.no_compile and have_vivado
    compile_software = args.build and not args.no_compile and not args.no_compile_software
    out = os.path.abspath(args.output_dir)
    try:
        soc, builder, ran = build(args.variant, args.sys_clk_freq, args.engines, args.sha256_variant,
                                  out, run_vivado, compile_software, **soc_kwargs(args))
    except OSError as e:
        print(f"[arty] build failed: {e}", file=sys.stderr)
        return 1
    gw = os.path.relpath(os.path.join(out, "gateware"), TOP)
    if ran:
        print(f"[arty] bitstream: {gw}/{BUILD_NAME}.bit (SRAM), {gw}/{BUILD_NAME}.bin (SPI flash)", file=sys.stderr)
    elif args.build and not args.no_compile:
        print(f"[arty] Vivado is not on PATH: wrote the project and stopped before synthesis.\n"
              f"[arty]   project: {gw}/{BUILD_NAME}.tcl (+ .xdc, .v); BIOS: "
              f"{os.path.relpath(out, TOP)}/software/bios/bios.bin\n"
              f"[arty]   to finish: put Vivado on PATH and run `make arty` again (or: cd {gw} && bash build_{BUILD_NAME}.sh);\n"
              f"[arty]   the TCL names sources by absolute path in this checkout.\n",
              file=sys.stderr)
    else:
        print(f"[arty] wrote {gw} (no bitstream: --build not given or --no-compile)", file=sys.stderr)
    return program("arty", args)        # --load/--flash; without a bitstream it says so (exit 2)


if __name__ == "__main__":
    sys.exit(main())
