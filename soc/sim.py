# SPDX-License-Identifier: MIT
"""litex_sim target for HashSoC: build the Verilator simulator once, run any RAM image.

    python -m soc.sim --build-only              # build (cached) and stop
    python -m soc.sim --ram-init image.json     # run: UART on stdin/stdout

The ROM runs a program only with its signed header (soc/bootrom.py): image.json lists the
header (scripts/signimage.py writes both), or image.bin has image.hdr beside it.

The simulator is built with a main RAM whose contents come from `sim_main_ram.init`, read
when the simulation starts, so a new program (firmware, xv6) runs without rebuilding
Verilator: `run()` rewrites that file from the images and starts obj_dir/Vsim. The BIOS
jumps to the start of main RAM after boot. Firmware ends the simulation by writing the
`sim_finish` CSR.

Timebase: the simulated sys_clk is nominally 50 MHz (SYS_CLK_FREQ), a board's clock (the
ULX3S runs at 60, the Arty at 100), so that the timer, xv6's 100 Hz tick and anything in
seconds mean on the simulator about what they mean on a board. Every figure the project
reports from simulation is in clocks, which do not depend on that choice.
"""

import argparse
import fcntl
import json
import os
import shutil
import signal
import struct
import subprocess
import sys

from litex.build.generic_platform import Pins, Subsignal
from litex.build.sim import SimPlatform
from litex.build.sim.config import SimConfig
from soc.bootrom import Builder
from litex.build.sim.platform import SimFinish, SimMarker

from migen.genlib.io import CRG

from gateware import hashspec
from gateware.buildstamp import source_digest
from soc import steps
from boards import DEFAULT_ENGINES
from soc.hashsoc import HashSoC

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD_DIR = os.path.join(TOP, "build", "sim")
GATEWARE_DIR = os.path.join(BUILD_DIR, "gateware")
SYS_CLK_FREQ = int(50e6)
MAIN_RAM_BASE = 0x4000_0000
MAIN_RAM_SIZE = 32 * 1024 * 1024

# The simulated pins: one clock and litex_sim's UART stream (the board twin uses them too).
SIM_IO = [
    ("sys_clk", 0, Pins(1)),
    ("sys_rst", 0, Pins(1)),
    ("serial", 0,
        Subsignal("source_valid", Pins(1)),
        Subsignal("source_ready", Pins(1)),
        Subsignal("source_data", Pins(8)),
        Subsignal("sink_valid", Pins(1)),
        Subsignal("sink_ready", Pins(1)),
        Subsignal("sink_data", Pins(8)),
    ),
]


class SimHashSoC(HashSoC):
    def __init__(self, engines=DEFAULT_ENGINES["sim"], sha256_variant=hashspec.variant("sha256").name,
                 with_measure=True):
        platform = SimPlatform("SIM", list(SIM_IO))
        self.crg = CRG(platform.request("sys_clk"))
        HashSoC.__init__(self, platform, SYS_CLK_FREQ,
            ident="HashSoC simulation",
            with_measure=with_measure,
            uart_name="sim",
            integrated_rom_size=0x10000,
            integrated_sram_size=0x2000,
            # A one-word init makes LiteX emit $readmemh("sim_main_ram.init"), which run()
            # rewrites; it also tells the BIOS not to memtest (and so clobber) main RAM.
            integrated_main_ram_size=MAIN_RAM_SIZE,
            integrated_main_ram_init=[0],
        )
        self.add_constant("ROM_BOOT_ADDRESS", MAIN_RAM_BASE)
        self.add_config("BIOS_NO_DELAYS")
        # The BIOS's sim_debug.c needs the marker CSR whenever the finish CSR exists.
        self.sim_marker = SimMarker()
        self.sim_finish = SimFinish()
        self.add_hash_engines(engines, sha256_variant=sha256_variant)


# What the simulator and its ROM are made from (a board twin adds boards/).
SOURCES = ("gateware", "soc", "firmware/bootrom", "firmware/libhash")


def source_tag(extra, subdirs=SOURCES):
    """A hash of `extra` and every source under `subdirs`: a build is reused while equal."""
    return source_digest(subdirs, extra)


def use_venv_python():
    """LiteX's software Makefiles call plain `python3`: it must be this venv's."""
    os.environ["PATH"] = os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")


def log(name):
    """build/logs/NAME.log: where a build step's output goes (soc/steps.py)."""
    return steps.log_path(name)


def bios_step(builder, label, log_path):
    """Make the software part of `builder.build()` (picolibc, libbase, ..., the BIOS) a step
    of its own, inside the step that runs the whole build (the SoC and its Verilog)."""
    generate = getattr(builder, "_generate_rom_software", None)
    if generate is None:        # another LiteX: the BIOS stays in the outer step's log
        return

    def software(*args, **kwargs):
        return steps.run(label, log_path, lambda: generate(*args, **kwargs))
    builder._generate_rom_software = software


# Verilator's own make variable for the code that runs once (constructors, trace set-up:
# half of the model's C++): -O0 instead of LiteX's -O3 takes 78 -> 58 s of CPU off each
# model's compile (the Arty twin, here), and its run was as fast (177.5 s against 182.6 s
# to the BIOS's memtest, the two side by side: the same within noise). Given as a command-
# line variable through MAKEFLAGS, which reaches the make that LiteX's Makefile starts in
# obj_dir (an environment variable would not override verilated.mk's `OPT_SLOW =`).
VERILATOR_MAKEFLAGS = "OPT_SLOW=-O0"


def verilate(gateware_dir, label, log_path):
    """LiteX compiles the Verilator model only when it also runs it: compile it here."""
    env = dict(os.environ, MAKEFLAGS=f"{os.environ.get('MAKEFLAGS', '')} {VERILATOR_MAKEFLAGS}".strip())
    steps.run(label, log_path, ["bash", "build_sim.sh"], cwd=gateware_dir, env=env)


def link_run_dir(gateware_dir, run_dir, skip=()):
    """Fill a run directory with links to the built files, except those the run writes."""
    os.makedirs(run_dir, exist_ok=True)
    for name in os.listdir(gateware_dir):
        if name not in skip and not name.startswith("run-"):
            dst = os.path.join(run_dir, name)
            if not os.path.exists(dst):
                os.symlink(os.path.join(gateware_dir, name), dst)


def write_word_file(bin_path, path):
    """A binary as $readmemh words: one little-endian 32-bit word per line."""
    data = open(bin_path, "rb").read()
    data += bytes(-len(data) % 4)
    words = struct.unpack(f"<{len(data) // 4}I", data)
    with open(path, "w") as f:
        f.write("\n".join(f"{w:08x}" for w in words) + "\n")


def is_built(build_dir, tag):
    """Is the simulator in build_dir built, from the sources and options `tag` names?"""
    stamp = os.path.join(build_dir, ".built")
    vsim = os.path.join(build_dir, "gateware", "obj_dir", "Vsim")
    return os.path.exists(vsim) and os.path.exists(stamp) and open(stamp).read() == tag


def build_cached(build_dir, tag, make, force=False):
    """The one way a simulator is built (litex_sim here, the board twins in boards/twin.py):
    `make()` builds it into build_dir unless it is built from `tag` already. One build at a
    time per directory: tests, benchmarks and users may ask for it at once, and the others
    wait on the lock and then find it built. The tag is written last, so a build that
    failed or was stopped is made again."""
    os.makedirs(build_dir, exist_ok=True)
    with open(os.path.join(build_dir, ".build.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if force or not is_built(build_dir, tag):
            use_venv_python()
            make()
            with open(os.path.join(build_dir, ".built"), "w") as f:
                f.write(tag)
    return build_dir


def build_dir_of(with_measure=True):
    """build/sim; a SoC without the measurement register (`--no-measure`, the ROM's and
    the kernel's no-register branches) is built beside it, in build/sim-no-measure."""
    return BUILD_DIR if with_measure else BUILD_DIR + "-no-measure"


def _tag(engines, sha256_variant, with_measure):
    return source_tag((tuple(engines), sha256_variant) + (() if with_measure else ("no-measure",)))


def built(engines=DEFAULT_ENGINES["sim"], sha256_variant=hashspec.variant("sha256").name, with_measure=True):
    """Is build/sim (or build/sim-no-measure) up to date for these engines and sources?"""
    return is_built(build_dir_of(with_measure), _tag(engines, sha256_variant, with_measure))


def build(engines=DEFAULT_ENGINES["sim"], sha256_variant=hashspec.variant("sha256").name, force=False,
          with_measure=True):
    """Build BIOS + gateware + Verilator model into build_dir_of(with_measure) (skipped
    when up to date)."""
    build_dir = build_dir_of(with_measure)
    name = os.path.basename(build_dir)

    def make():
        sim_config = SimConfig()
        sim_config.add_clocker("sys_clk", freq_hz=SYS_CLK_FREQ)
        sim_config.add_module("serial2console", "serial")

        def soc_and_verilog():
            print(f"HashSoC for litex_sim, engines: {', '.join(engines) or 'none'}"
                  f"{'' if with_measure else ', no measurement register'}, into {build_dir}")
            soc = SimHashSoC(engines=tuple(engines), sha256_variant=sha256_variant, with_measure=with_measure)
            builder = Builder(soc, output_dir=build_dir, compile_gateware=True, compile_software=True)
            bios_step(builder, f"{name}: BIOS (picolibc, libbase, bios)", log(f"{name}-bios"))
            builder.build(sim_config=sim_config, run=False, interactive=False, jobs=2, opt_level="O3")

        steps.run(f"{name}: SoC and its Verilog (LiteX)", log(f"{name}-gateware"), soc_and_verilog)
        verilate(os.path.join(build_dir, "gateware"), f"{name}: Verilator model (gateware/obj_dir/Vsim)",
                 log(f"{name}-verilator"))
    return build_cached(build_dir, _tag(engines, sha256_variant, with_measure), make, force)


def load_images(spec, base=MAIN_RAM_BASE):
    """Images for main RAM: a .json {file: address}, or a .bin loaded at the RAM base with
    its signed header (<name>.hdr beside it, scripts/signimage.py) if there is one: without
    it the ROM refuses to run the program."""
    if spec.endswith(".json"):
        d = os.path.dirname(os.path.abspath(spec))
        with open(spec) as f:
            items = json.load(f).items()
        return [(os.path.join(d, k), int(v, 0)) for k, v in items]
    header = os.path.splitext(spec)[0] + ".hdr"
    signed = [(header, base + hashspec.BOOT_HEADER_OFFSET)] if os.path.exists(header) else []
    return signed + [(spec, base)]


def ram_bytes(images, base, size, round_to=4):
    """Main RAM's contents from images [(file, address)]: the bytes from `base` up to the
    end of the last image, rounded up to `round_to`; zero between images. An image outside
    [base, base + size) is a ValueError naming it. The sim and the twins' bank files
    (boards/twin.py) are both written from this."""
    end = 0
    blobs = []
    for fname, addr in images:
        data = open(fname, "rb").read()
        off = addr - base
        if off < 0 or off + len(data) > size:
            raise ValueError(f"{fname} at {addr:#x} does not fit in main RAM")
        blobs.append((off, data))
        end = max(end, off + len(data))
    mem = bytearray(-(-end // round_to) * round_to)
    for off, data in blobs:
        mem[off:off + len(data)] = data
    return mem


def write_ram_init(images, path=None):
    """Write sim_main_ram.init: one little-endian 32-bit word per line, from the RAM base."""
    path = path or os.path.join(GATEWARE_DIR, "sim_main_ram.init")
    mem = ram_bytes(images, MAIN_RAM_BASE, MAIN_RAM_SIZE)
    words = struct.unpack(f"<{len(mem) // 4}I", mem)
    with open(path, "w") as f:
        f.write("\n".join(f"{w:08x}" for w in words) + "\n")


def sim_command(ram_init, run_dir=None, build_dir=BUILD_DIR):
    """Prepare a run directory with this RAM image (load_images' spec, or [(file, address)]);
    return (argv, cwd) that run the simulator.

    Each run gets its own directory (links to the built files, its own
    sim_main_ram.init), so simulations of different programs can run at the same time.
    """
    import tempfile
    gateware_dir = os.path.join(build_dir, "gateware")
    run_dir = run_dir or tempfile.mkdtemp(prefix="run-", dir=build_dir)
    link_run_dir(gateware_dir, run_dir, skip={"sim_main_ram.init"})
    images = load_images(ram_init) if isinstance(ram_init, str) else ram_init
    write_ram_init(images, os.path.join(run_dir, "sim_main_ram.init"))
    return [os.path.join(gateware_dir, "obj_dir", "Vsim")], run_dir


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--ram-init", help="program for main RAM: .bin or .json {file: address}")
    p.add_argument("--build-only", action="store_true")
    p.add_argument("--rebuild", action="store_true")
    p.add_argument("--engines", default=",".join(DEFAULT_ENGINES["sim"]))
    p.add_argument("--sha256-variant", default=hashspec.variant("sha256").name,
                   choices=[v.name for v in hashspec.variants_of("sha256")])
    p.add_argument("--no-measure", dest="measure", action="store_false",
                   help="without the measurement register, in build/sim-no-measure (as the boards' --no-measure)")
    args = p.parse_args()
    engines = tuple(e for e in args.engines.split(",") if e)
    build_dir = build_dir_of(args.measure)
    if args.build_only and not args.rebuild and built(engines, args.sha256_variant, args.measure):
        steps.report("sim: SoC, BIOS, Verilator model", "up to date", where=steps.shown(build_dir))
        return 0
    build(engines, args.sha256_variant, force=args.rebuild, with_measure=args.measure)
    if args.build_only:
        return 0
    if not args.ram_init:
        p.error("--ram-init is required to run")
    return run_console(*sim_command(args.ram_init, build_dir=build_dir))


def run_console(argv, cwd):
    """Run a prepared simulation on this terminal; remove its run directory afterwards,
    also when stopped by SIGTERM (xv6run ends a session that way)."""
    sys.stdout.flush()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        return subprocess.call(argv, cwd=cwd)
    finally:
        shutil.rmtree(cwd, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(steps.cli(main))
