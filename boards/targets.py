# SPDX-License-Identifier: MIT
"""Where HashSoC runs: one Target per place, asked by everything that builds or runs there.

    from boards.targets import target
    t = target("ulx3s-twin")
    t.build()                                  # SoC, BIOS, Verilator model (cached)
    argv, cwd = t.run_command(images)          # a run directory with images in main RAM

The places (`TARGETS`, `BOARD_TARGETS`):
  sim           litex_sim: HashSoC in Verilator with every engine (soc/sim.py)
  <board>-twin  the board's own SoC in Verilator with its memory path (boards/twin.py)
  <board>       the board: a bitstream (boards/<board>.py --build), loaded by --load/--flash
                (boards/prog.py); programs reach it over the serial line (litex_term --images)

From make (and a shell):

    python -m boards.targets                           the targets, one a line
    python -m boards.targets NAME build                build its SoC (a board: its bitstream)
    python -m boards.targets NAME xv6-make-args        os-port's make variables for its SoC
    python -m boards.targets NAME console [IMAGES]     run IMAGES (default: its xv6) on it,
        console on stdio; a twin also --bios board (the board's own BIOS, nothing
        preloaded) and --uart tcp:PORT (for litex_term --images)

No other module takes a target's name apart: soc/runfw.py, scripts/bench.py,
scripts/xv6run.py, scripts/simprofile.py and the tests ask `target(name)` for its board,
label, engines, build directory and how to build and run there. Names, labels and engines
are plain data, importable without LiteX; building or running imports the SoC's module
when asked.
"""

import os
import subprocess
import sys

from boards import DEFAULT_ENGINES, TWIN_BOARDS

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The boards' names as users read them (tables, plot legends, progress lines).
BOARD_LABELS = {"ulx3s": "ULX3S", "arty": "Arty"}


class Target:
    """One place a program runs. `name` is what users type (--target, TARGET=); `label`
    what tables print; `board` the board module's name (None for litex_sim); `engines` the
    hash engines its SoC carries by default; `simulated`: it runs in Verilator;
    `ends_itself`: the run stops when the firmware says so (litex_sim's `sim_finish` CSR,
    which no board has), else the runner stops it at the firmware's DONE."""

    simulated = True

    def __init__(self, name, label, board):
        self.name, self.label, self.board = name, label, board

    @property
    def engines(self):
        return DEFAULT_ENGINES[self.board or "sim"]

    def __repr__(self):
        return f"<Target {self.name}>"

    def soc_class(self):
        """The SoC class built here: soc/sim.py's SimHashSoC, or the board module's
        (boards.TWIN_BOARDS; a twin is built with twin=True)."""
        import importlib
        if self.board is None:
            return importlib.import_module("soc.sim").SimHashSoC
        return getattr(importlib.import_module(f"boards.{self.board}"), TWIN_BOARDS[self.board])

    # What a simulated target gives: its build (gateware, BIOS, Verilator model), the
    # headers software is compiled against, and runs of images in main RAM.

    @property
    def build_dir(self):
        return os.path.join(TOP, "build", self.name)

    @property
    def generated_dir(self):
        """LiteX's generated headers (csr.h, soc.h, mem.h) of this target's SoC."""
        return os.path.join(self.build_dir, "software", "include", "generated")

    def xv6_make_args(self):
        """make's variables that build xv6 (os-port/Makefile) for this target's SoC."""
        board = [f"BOARD={self.board}"] if self.board else []
        return ["PLATFORM=litex", *board, f"LITEX_GENERATED_DIR={self.generated_dir}"]

    @property
    def xv6_build_dir(self):
        """Where os-port/Makefile puts that build (kernel.bin, fs.img, boot.json)."""
        return os.path.join(TOP, "os-port", "build", "litex" + (f"-{self.board}" if self.board else ""))

    def console_command(self, images, python=sys.executable):
        """argv of a console run (stdin/stdout) of the images (.json or .bin), started
        in TOP by `python` (the venv's): what scripts/xv6run.py starts."""
        if not self.simulated:
            raise NotImplementedError(f"{self.name}: programs reach the board over its serial line: "
                                      f"litex_term --images (docs/boards.md)")
        return [python, "-m", "boards.targets", self.name, "console", images]


class SimTarget(Target):
    """litex_sim (soc/sim.py). The simulation ends when the firmware writes `sim_finish`.

    `SimTarget(measure=False)` is the same SoC without the measurement register (the
    boards' --no-measure), in build/sim-no-measure, its xv6 in os-port/build/litex-no-
    measure: not one of TARGETS (no benchmark or user runs there), only the place where
    the ROM's and the kernel's no-register branches are run (tests/test_bootrom.py)."""

    ends_itself = True
    _xv6_b = "build/litex-no-measure"      # os-port/Makefile's B for the no-register SoC

    def __init__(self, measure=True):
        super().__init__("sim" if measure else "sim-no-measure",
                         "litex_sim" if measure else "litex_sim without the measurement register", None)
        self.measure = measure

    @property
    def build_dir(self):
        from soc.sim import build_dir_of
        return build_dir_of(self.measure)

    def xv6_make_args(self):
        return super().xv6_make_args() + ([] if self.measure else [f"B={self._xv6_b}"])

    @property
    def xv6_build_dir(self):
        return super().xv6_build_dir if self.measure else os.path.join(TOP, "os-port", self._xv6_b)

    def build(self, force=False):
        from soc import sim
        return sim.build(self.engines, force=force, with_measure=self.measure)

    def run_command(self, images, bios="direct", uart="console"):
        """(argv, cwd) of a run of `images` in a run directory of its own: a .json {file:
        address}, a .bin at the RAM base with its header beside it, or [(file, address)].
        The ROM is the simulator's BIOS, which boots main RAM, and the UART is the console:
        `bios` and `uart` have no choice here."""
        from soc import sim
        if (bios, uart) != ("direct", "console"):
            raise ValueError("litex_sim has one BIOS, which boots the images in main RAM, and its console")
        return sim.sim_command(images, build_dir=self.build_dir)


class TwinTarget(Target):
    """A board's twin (boards/twin.py). It runs until stopped: a firmware's DONE ends it.

    `TwinTarget(board, engines)` is the twin of the board built with other engines than its
    default (the board scripts' --engines, FPGA_ENGINES), named `<board>-twin-<engine>-...`
    (e.g. ulx3s-twin-sha256-keccak-sha512), in build/<that name>: not one of TARGETS, the
    place where an engine the board leaves out by default runs on the board's memory path
    (`target()` knows the name; scripts/bench.py's --with-engines)."""

    ends_itself = False

    def __init__(self, board, engines=None):
        label = f"{BOARD_LABELS[board]} twin"
        if engines is None or tuple(engines) == tuple(DEFAULT_ENGINES[board]):
            super().__init__(f"{board}-twin", label, board)
            self._engines = None
        else:
            unknown = [e for e in engines if e not in DEFAULT_ENGINES["sim"]]
            if unknown or not engines:
                raise ValueError(f"engines are some of {', '.join(DEFAULT_ENGINES['sim'])}, not {list(engines)}")
            super().__init__(f"{board}-twin-{'-'.join(engines)}", f"{label} with {', '.join(engines)}", board)
            self._engines = tuple(engines)
        self._twin = None

    @property
    def engines(self):
        return self._engines or super().engines

    def twin(self):
        """boards/twin.py's Twin of the board (its build, bank layout and run directories)."""
        if self._twin is None:
            from boards.twin import Twin
            self._twin = Twin(self)
        return self._twin

    def build(self, force=False):
        return self.twin().build(force=force)

    def run_command(self, images, bios="direct", uart="console"):
        """(argv, cwd) of a run of `images` (as SimTarget's; None: nothing preloaded) with
        this BIOS, `direct` (jumps to main RAM) or `board` (the board's own: memtest,
        leveling, serial boot), and this UART: `console` (stdio) or `tcp:PORT`."""
        from soc.sim import load_images
        t = self.twin()
        if isinstance(images, str):
            images = load_images(images, t.main_ram_base)
        return t.prepare_run(images or [], bios=bios, uart=uart)


class BoardTarget(Target):
    """The board itself: `build` makes the bitstream (boards/<board>.py --build), `load`
    and `flash` program it (boards/prog.py); programs go over the serial line with the
    BIOS's serial boot (litex_term --images, docs/boards.md)."""

    simulated = False
    ends_itself = False

    def __init__(self, board):
        super().__init__(board, BOARD_LABELS[board], board)

    @property
    def build_dir(self):
        return os.path.join(TOP, "build", self.board)

    def _board_script(self, *args):
        return subprocess.call([sys.executable, "-m", f"boards.{self.board}", *args], cwd=TOP)

    def build(self, force=False):
        if self._board_script("--build"):
            raise RuntimeError(f"{self.board}: the bitstream build failed")
        return self.build_dir

    def load(self):
        """Program the FPGA's configuration memory (lost at power-off)."""
        return self._board_script("--load")

    def flash(self):
        """Program the board's configuration flash."""
        return self._board_script("--flash")

    def run_command(self, images, bios="board", uart="console"):
        raise NotImplementedError(f"{self.name}: programs reach the board over its serial line: "
                                  f"litex_term --images (docs/boards.md)")


TARGETS = {t.name: t for t in [SimTarget()] + [TwinTarget(b) for b in TWIN_BOARDS]}
BOARD_TARGETS = {b: BoardTarget(b) for b in TWIN_BOARDS}


def twin_of(board):
    """The twin's Target of a board with one (boards.TWIN_BOARDS)."""
    return TARGETS[f"{board}-twin"]


def target(name):
    """The Target called `name` ("sim", "<board>-twin", "<board>-twin-<engine>-..." or
    "<board>"), or ValueError."""
    t = TARGETS.get(name) or BOARD_TARGETS.get(name)
    for board in TWIN_BOARDS:
        if t is None and name.startswith(f"{board}-twin-"):
            t = TwinTarget(board, name[len(f"{board}-twin-"):].split("-"))
    if t is None:
        raise ValueError(f"no target {name!r} (targets: {', '.join([*TARGETS, *BOARD_TARGETS])})")
    return t


def main(argv=None):
    import argparse
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("name", nargs="?", help="a target (none: list them)")
    p.add_argument("action", nargs="?", choices=["build", "xv6-make-args", "console"])
    p.add_argument("images", nargs="?", help="console: a .json {file: address} or a .bin "
                   "(default: the xv6 built for the target, its boot.json)")
    p.add_argument("--rebuild", action="store_true", help="build: even when up to date")
    p.add_argument("--bios", default="direct", choices=["direct", "board"],
                   help="console on a twin: the BIOS that boots the preloaded images (direct), or the "
                        "board's own (memtest, leveling, serial boot; no images preloaded)")
    p.add_argument("--uart", default="console", help="console on a twin: stdio, or tcp:PORT for litex_term")
    args = p.parse_args(argv)
    if args.name is None:
        print("\n".join(f"{t.name:12} {t.label}" for t in [*TARGETS.values(), *BOARD_TARGETS.values()]))
        return 0
    try:
        t = target(args.name)
    except ValueError as e:
        p.error(str(e))
    if args.action == "build":
        t.build(force=args.rebuild)
    elif args.action == "xv6-make-args":
        print(" ".join(t.xv6_make_args()))
    elif args.action == "console":
        if not t.simulated:
            p.error(f"{t.name}: programs reach the board over its serial line: litex_term --images "
                    f"(docs/boards.md)")
        if (args.bios, args.uart) != ("direct", "console") and t.board is None:
            p.error("--bios and --uart are the twins': litex_sim has one BIOS and its console")
        images = None if args.bios == "board" else \
            args.images or os.path.relpath(os.path.join(t.xv6_build_dir, "boot.json"), TOP)
        t.build()
        from soc.sim import run_console
        return run_console(*t.run_command(images, bios=args.bios, uart=args.uart))
    else:
        p.error("what to do: build, xv6-make-args or console")
    return 0


if __name__ == "__main__":
    sys.exit(main())
