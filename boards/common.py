# SPDX-License-Identifier: MIT
"""What the board targets share: paths, tool PATH, command-line options, the build step.

The SoC itself is soc.hashsoc.HashSoC (the one SoC class); a board target only adds the
board's platform, clock/reset generator (both imported from litex_boards) and its
external RAM, then calls HashSoC.add_hash_engines().
"""

import argparse
import os
import re
import sys

from boards import DEFAULT_ENGINES, prog
from gateware import hashspec

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FPGA_BIN = os.path.join(TOP, "scripts", "fpga", "bin")
ENGINE_NAMES = tuple(e.name for e in hashspec.ENGINES)
# Both boards' UARTs run at 1 Mbaud: their USB UART chips (ULX3S: FT231X, up to 3 Mbaud;
# Arty: FT2232H, up to 12 Mbaud) and the BIOS's receive path keep up (checked on the ULX3S
# twin, whose UART line is paced at this rate: boards/twin.py), and xv6's serial boot takes
# seconds instead of minutes (docs/boards.md). litex_term needs `--speed 1000000`.
DEFAULT_UART_BAUDRATE = 1_000_000


def use_fpga_tools():
    """Put the YoWASP wrappers (yosys, nextpnr-ecp5, ecppack) and this venv's python
    first on PATH: LiteX's build scripts call the tools by name, and its software
    Makefiles call plain `python3`."""
    path = os.environ.get("PATH", "").split(os.pathsep)
    for d in (os.path.dirname(sys.executable), FPGA_BIN):
        if d in path:
            path.remove(d)
        path.insert(0, d)
    os.environ["PATH"] = os.pathsep.join(path)


def parse_engines(text):
    engines = tuple(e for e in (text or "").replace(" ", "").split(",") if e and e != "none")
    for e in engines:
        if e not in ENGINE_NAMES:
            raise argparse.ArgumentTypeError(f"unknown engine {e!r} (known: {', '.join(ENGINE_NAMES)}, none)")
    return engines


def base_parser(description, default_out, board):
    p = argparse.ArgumentParser(description=description,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--build", action="store_true",
                   help="build: BIOS, gateware and (with the toolchain) the bitstream")
    p.add_argument("--no-compile", action="store_true",
                   help="write the Verilog, constraints, build scripts and csr.h only; compile nothing")
    p.add_argument("--no-compile-software", action="store_true", help="do not build the BIOS")
    p.add_argument("--engines", type=parse_engines, default=DEFAULT_ENGINES[board],
                   help=f"comma-separated hash engines ({', '.join(ENGINE_NAMES)}), or 'none' "
                        f"(default: {','.join(DEFAULT_ENGINES[board])})")
    sha256 = hashspec.variants_of("sha256")
    p.add_argument("--sha256-variant", default=sha256[0].name, choices=[v.name for v in sha256],
                   help="SHA-256 core: " + " or ".join(f"{v.name} ({v.clocks} clocks/block)" for v in sha256)
                        + f"; default {sha256[0].name}")
    p.add_argument("--uart-baudrate", type=float, default=DEFAULT_UART_BAUDRATE,
                   help=f"UART baud rate (default {DEFAULT_UART_BAUDRATE}: litex_term --speed must match)")
    p.add_argument("--bios", default=None, metavar="BIN",
                   help="ROM contents: this BIOS image instead of compiling one (its size sets the ROM size)")
    p.add_argument("--boot-min-version", type=int, default=hashspec.BOOT_MIN_VERSION,
                   help="the oldest image version the ROM runs (anti-rollback, docs/integrity.md; "
                        f"default {hashspec.BOOT_MIN_VERSION})")
    p.add_argument("--measure", action=argparse.BooleanOptionalAction, default=True,
                   help="the measurement register (measured boot, docs/integrity.md): --no-measure "
                        "leaves it and its ~2,500 LUTs out; the ROM and `measure` then say there is none")
    p.add_argument("--output-dir", default=default_out, help=f"build directory (default: {os.path.relpath(default_out, TOP)})")
    # As LiteX's targets: program the board after the build, or without one (boards/prog.py).
    act = p.add_mutually_exclusive_group()
    act.add_argument("--load", action="store_true",
                     help="load the bitstream (the one --build just made, else the last in --output-dir) "
                          "into the FPGA's SRAM: lost at power-off")
    act.add_argument("--flash", action="store_true",
                     help="write it to the board's SPI flash: the FPGA configures itself from it at power-on")
    prog.add_options(p, board)
    return p


def program(board, args):
    """After main()'s build: --load/--flash the bitstream in --output-dir; the exit status."""
    return prog.program_after_build(board, args, os.path.join(os.path.abspath(args.output_dir), "gateware"))


def soc_kwargs(args):
    """HashSoC keyword arguments from the common options."""
    kw = {"uart_baudrate": int(args.uart_baudrate), "boot_min_version": args.boot_min_version,
          "with_measure": args.measure}
    if args.bios:
        kw["integrated_rom_init"] = os.path.abspath(args.bios)
    return kw


def make_builder(soc, output_dir, compile_gateware, compile_software):
    from soc.bootrom import Builder
    return Builder(soc, output_dir=output_dir, compile_gateware=compile_gateware,
                   compile_software=compile_software,
                   csr_json=os.path.join(output_dir, "csr.json"),
                   csr_csv=os.path.join(output_dir, "csr.csv"))


def describe(soc, output_dir, engines, variant):
    ram = soc.bus.regions.get("main_ram")
    lines = [
        f"  sys_clk   {soc.sys_clk_freq / 1e6:g} MHz",
        f"  engines   {', '.join(engines) or 'none'}" + (f" (sha256 {variant})" if "sha256" in engines else ""),
        f"  main RAM  {ram.origin:#010x}, {ram.size // (1 << 20)} MiB region" if ram else "  main RAM  none",
        f"  UART      {getattr(soc, 'uart_baudrate', None) or '?'} baud",
        f"  output    {os.path.relpath(output_dir, TOP)}",
    ]
    return "\n".join(lines)


# nextpnr log ------------------------------------------------------------------------------------

_FMAX_RE = re.compile(r"Max frequency for clock\s+'([^']+)':\s*([0-9.]+) MHz \((PASS|FAIL) at ([0-9.]+) MHz\)")


def parse_nextpnr_fmax(log_text):
    """{clock net: (achieved MHz, 'PASS'|'FAIL', target MHz)} from the LAST timing report
    in a nextpnr log (nextpnr prints one after placement and one after routing)."""
    result = {}
    for m in _FMAX_RE.finditer(log_text):
        result[m.group(1)] = (float(m.group(2)), m.group(3), float(m.group(4)))
    return result


def sys_clock_net(fmax, target_mhz=None):
    """The sys_clk net among nextpnr's clock names. nextpnr names a clock after one of the
    net's aliases (e.g. '$glbnet$VexRiscv.IBusCachedPlugin_cache.clk'), so pick by target
    frequency: the nets constrained at sys_clk (the sys_ps SDRAM clock has the same
    frequency), and of those the slowest one: the check is then conservative. Without a
    target: the slowest net that is not an input pin."""
    nets = [n for n in fmax if "TRELLIS_IO" not in n and "$IO" not in n]
    if target_mhz is not None:
        near = [n for n in nets if abs(fmax[n][2] - target_mhz) < 0.01 * target_mhz]
        nets = near or nets
    if not nets:
        return None
    return min(nets, key=lambda n: fmax[n][0])
