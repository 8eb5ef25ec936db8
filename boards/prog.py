#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Load (SRAM, lost at power-off) or flash (SPI flash, kept) a HashSoC bitstream.

The board scripts do it after (or without) a build, as LiteX's targets do:

    python -m boards.ulx3s [--build] --load|--flash [--dry-run]
    python -m boards.arty  [--build] --load|--flash [--variant a7-35|a7-100]
                           [--prog-tool openfpgaloader|openocd] [--bscan-spi PROXY.bit]

and `make ulx3s-load`, `make arty-flash`, ... run those. This module's own command line
takes a bitstream from anywhere:

    python -m boards.prog ulx3s load|flash [--bitstream F]
    python -m boards.prog arty  load|flash [--variant a7-35|a7-100] [--tool openfpgaloader|openocd]
                                [--bscan-spi PROXY.bit] [--bitstream F]
    --dry-run (or DRY_RUN=1 in the environment): print the exact command line, run nothing.

Tools, all offline: openFPGALoader (both boards; default) and OpenOCD for the Arty with
the configuration shipped in boards/openocd/arty.cfg. OpenOCD flashes the Arty's SPI
flash through a bscan_spi proxy bitstream (see docs/boards.md): build one with
`make arty-bscan-spi` where Vivado is installed, or use openFPGALoader, which carries
its own proxy (spiOverJtag) in the Debian package.

Exit status: 0 done (or dry run), 1 the tool failed (no cable, no board, ...),
2 nothing to program (bitstream or proxy missing), 127 tool not installed.
"""

import argparse
import os
import shlex
import shutil
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OPENOCD_CFG = os.path.join(TOP, "boards", "openocd", "arty.cfg")

BOARDS = {
    # board: the build's gateware directory (the board script's default --output-dir) and
    # the bitstream's name in it (.bit to load or flash, .bin for OpenOCD's flash)
    "ulx3s": {"dir": "build/ulx3s/gateware", "name": "radiona_ulx3s"},
    "arty":  {"dir": "build/arty/gateware", "name": "digilent_arty"},
}
ARTY_PARTS = {"a7-35": "xc7a35t", "a7-100": "xc7a100t"}
ARTY_OFL_BOARDS = {"a7-35": "arty_a7_35t", "a7-100": "arty_a7_100t"}


def rel(path):
    """Path as shown and passed to the tool: relative to the repository when inside it."""
    path = os.path.abspath(path)
    r = os.path.relpath(path, TOP)
    return path if r.startswith("..") else r


def default_proxy(variant):
    return os.path.join(TOP, "build", "arty", "bscan_spi", f"bscan_spi_{ARTY_PARTS[variant]}.bit")


def command(board, action, tool="openfpgaloader", variant="a7-35", bitstream=None, bscan_spi=None,
            gateware_dir=None):
    """Return (argv, [(role, file) the command needs]) for one programming action; the
    bitstream is `bitstream`, else the build's in `gateware_dir` (default: BOARDS')."""
    b = dict(BOARDS[board])
    if gateware_dir:
        b["dir"] = gateware_dir
    ofl = os.environ.get("OPENFPGALOADER", "openFPGALoader")
    ocd = os.environ.get("OPENOCD", "openocd")
    if board == "ulx3s":
        if tool != "openfpgaloader":
            raise ValueError("the ULX3S is programmed with openFPGALoader (its FT231X is a bit-banged JTAG cable)")
        bit = rel(bitstream or os.path.join(TOP, b["dir"], b["name"] + ".bit"))
        argv = [ofl, "-b", "ulx3s"] + (["-f"] if action == "flash" else []) + [bit]
        return argv, [("bitstream", bit)]
    # Arty
    if tool == "openfpgaloader":
        bit = rel(bitstream or os.path.join(TOP, b["dir"], b["name"] + ".bit"))
        argv = [ofl, "-b", ARTY_OFL_BOARDS[variant]] + (["-f", "--verify"] if action == "flash" else []) + [bit]
        return argv, [("bitstream", bit)]
    if tool != "openocd":
        raise ValueError(f"unknown tool {tool!r}")
    cfg = rel(OPENOCD_CFG)
    if action == "load":
        bit = rel(bitstream or os.path.join(TOP, b["dir"], b["name"] + ".bit"))
        return [ocd, "-f", cfg, "-c", f"init; pld load 0 {{{bit}}}; exit"], [("bitstream", bit)]
    # OpenOCD writes the raw flash image (Vivado's write_cfgmem .bin), through the proxy.
    image = rel(bitstream or os.path.join(TOP, b["dir"], b["name"] + ".bin"))
    proxy = rel(bscan_spi or default_proxy(variant))
    script = (f"init; jtagspi_init 0 {{{proxy}}}; jtagspi_program {{{image}}} 0x0; "
              f"xc7_program xc7.tap; exit")
    return [ocd, "-f", cfg, "-c", script], [("proxy", proxy), ("image", image)]


HINTS = {
    "openfpgaloader": "is the board plugged in (USB), powered, and readable without root "
                      "(udev rule: /lib/udev/rules.d/99-openfpgaloader.rules, then re-plug)?",
    "openocd": "is the Arty plugged in (USB, the PROG/UART port), powered, and readable without "
               "root (a udev rule for 0403:6010)?",
}


def program(board, action, tool=None, variant="a7-35", bitstream=None, bscan_spi=None, dry_run=False,
            gateware_dir=None):
    """Load or flash `board`; return the exit status (module docstring). Messages on stderr
    start with [<board>-<action>]; a dry run prints the command line on stdout."""
    tool = (tool or os.environ.get("PROG_TOOL") or "openfpgaloader").lower()
    tag = f"[{board}-{action}]"
    try:
        cmd, needs = command(board, action, tool, variant, bitstream, bscan_spi, gateware_dir)
    except ValueError as e:
        print(f"{tag} {e}", file=sys.stderr)
        return 2
    line = shlex.join(cmd)
    if dry_run:
        print(line, flush=True)
        for _, f in needs:
            if not os.path.exists(os.path.join(TOP, f)):
                print(f"{tag} note: {f} does not exist yet", file=sys.stderr)
        return 0

    for role, f in needs:
        if not os.path.exists(os.path.join(TOP, f)):
            if role == "proxy":
                print(f"{tag} OpenOCD needs a bscan_spi proxy bitstream to reach the SPI flash, and {f}\n"
                      f"{tag} does not exist. No package registry ships one; build it where Vivado is\n"
                      f"{tag} installed with `make arty-bscan-spi` (from Debian openocd's xilinx_bscan_spi.py),\n"
                      f"{tag} pass BSCAN_SPI=path/to/bscan_spi_{ARTY_PARTS[variant]}.bit, or flash with\n"
                      f"{tag} openFPGALoader instead: make arty-flash (ARTY_PROG=openfpgaloader, the default).",
                      file=sys.stderr)
            elif role == "image":
                print(f"{tag} {f} does not exist: Vivado writes this flash image (write_cfgmem) when it\n"
                      f"{tag} builds the bitstream; run `make arty` with Vivado on PATH first.", file=sys.stderr)
            else:
                print(f"{tag} {f} does not exist: build it first (make {board}).", file=sys.stderr)
            print(f"{tag} would have run: {line}", file=sys.stderr)
            return 2
    exe = cmd[0]
    if shutil.which(exe) is None:
        print(f"{tag} {exe} is not installed (Debian: apt-get install "
              f"{'openocd' if tool == 'openocd' else 'openfpgaloader'}); would have run: {line}",
              file=sys.stderr)
        return 127
    print(f"{tag} running: {line}", file=sys.stderr, flush=True)
    try:
        rc = subprocess.call(cmd, cwd=TOP)
    except KeyboardInterrupt:
        print(f"\n{tag} interrupted", file=sys.stderr)
        return 130
    if rc != 0:
        what = "write the SPI flash" if action == "flash" else "load the FPGA (SRAM)"
        print(f"{tag} FAILED (exit {rc}): tried to {what} of the {board} with\n"
              f"{tag}   {line}\n"
              f"{tag} If the tool says it found no device/cable: {HINTS[tool]}", file=sys.stderr)
        return 1
    print(f"{tag} done", file=sys.stderr)
    return 0


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("board", choices=sorted(BOARDS))
    p.add_argument("action", choices=["load", "flash"])
    add_options(p, board=None)
    p.add_argument("--bitstream", default=None, help="file to program instead of the build's")
    args = p.parse_args(argv)
    return program(args.board, args.action, args.tool, args.variant, args.bitstream, args.bscan_spi,
                   args.dry_run)


def add_options(p, board):
    """The programming options, on this module's command line (board None) and on a board
    script's (boards/common.py's base_parser): --dry-run, and the Arty's tool, variant and
    flash proxy."""
    if board in (None, "arty"):
        p.add_argument("--prog-tool" if board else "--tool", dest="tool", default=None,
                       choices=["openfpgaloader", "openocd"],
                       help="programming tool (default openfpgaloader; env PROG_TOOL)")
        p.add_argument("--bscan-spi", default=os.environ.get("BSCAN_SPI") or None,
                       help="OpenOCD flash proxy bitstream (default build/arty/bscan_spi/bscan_spi_<part>.bit)")
    if board is None:
        p.add_argument("--variant", default=os.environ.get("ARTY_VARIANT", "a7-35"), choices=sorted(ARTY_PARTS),
                       help="Arty board variant (default a7-35)")
    p.add_argument("--dry-run", action="store_true",
                   default=os.environ.get("DRY_RUN", "") not in ("", "0"),
                   help="print the programming command line only (also DRY_RUN=1)")


def program_after_build(board, args, gateware_dir):
    """A board script's --load/--flash (after its build, if --build was given): the
    bitstream in its --output-dir. Returns the exit status; 0 when neither was asked for."""
    action = "flash" if args.flash else "load" if args.load else None
    if action is None:
        return 0
    return program(board, action, getattr(args, "tool", None), getattr(args, "variant", "a7-35"), None,
                   getattr(args, "bscan_spi", None), args.dry_run, gateware_dir)


if __name__ == "__main__":
    sys.exit(main())
