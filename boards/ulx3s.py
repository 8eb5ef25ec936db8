# SPDX-License-Identifier: MIT
"""HashSoC on the Radiona ULX3S (Lattice ECP5), with its SDRAM as main RAM.

    python -m boards.ulx3s --build                  # BIOS + bitstream -> build/ulx3s
    python -m boards.ulx3s --no-compile             # Verilog, LPF, scripts, csr.h only
    python -m boards.ulx3s --build --check-timing   # fail unless sys_clk meets its target
    python -m boards.ulx3s [--build] --load         # (build, then) load it into the FPGA's SRAM
    python -m boards.ulx3s [--build] --flash        # ... or write it to the SPI flash
    (--dry-run: print the openFPGALoader command instead; boards/prog.py)

The platform and the clock/reset generator are litex_boards' (radiona_ulx3s); the SoC is
soc.hashsoc.HashSoC. The bitstream is built with yosys, nextpnr-ecp5 and ecppack from
YoWASP through the wrappers in scripts/fpga/bin (put first on PATH here).
Output: build/ulx3s/gateware/radiona_ulx3s.bit, build/ulx3s/software/include/generated/
(csr.h for the xv6 build), build/ulx3s/gateware/nextpnr.log and nextpnr-report.json.
"""

import argparse
import json
import os
import subprocess
import sys

from litex_boards.platforms import radiona_ulx3s
from litex_boards.targets import radiona_ulx3s as ulx3s_target

from litedram import modules as litedram_modules
from litedram.phy import GENSDRPHY, HalfRateGENSDRPHY
from litex.soc.cores.led import LedChaser

from boards import DEFAULT_ENGINES
from gateware import hashspec
from soc.hashsoc import HashSoC
from boards.common import (TOP, DEFAULT_UART_BAUDRATE, soc_kwargs, base_parser, describe, make_builder, parse_nextpnr_fmax,
                           program, sys_clock_net, use_fpga_tools)

DEVICES = ("LFE5U-12F", "LFE5U-25F", "LFE5U-45F", "LFE5U-85F")
DEFAULT_DEVICE = "LFE5U-85F"
# The board's VexRiscv: LiteX's `linux+no-dsp` (VexRiscv_LinuxNoDspFmax.v), the `linux`
# CPU's ISA, MMU, supervisor mode and 4 KiB caches with an iterative multiplier (no
# MULT18X18D) and the pipeline laid out for Fmax. Since 2026-11-30: with `linux`, whatever
# we cut in our gateware, the placer at some seed spread the CPU's own stall path (its data
# cache's stage B -> the divider -> isStuck -> the MMU -> the I-cache banks' clock enable,
# 16 LUT levels, three quarters routing) until it missed 60 MHz (49.7-60.0 MHz over six
# placements; docs/boards.md, "Timing status"). The twin has the same CPU: what holds on
# the board holds on it. The simulator and the Arty keep `linux` (soc/hashsoc.py).
CPU_VARIANT = "linux+no-dsp"
# 60 MHz (litex_boards' own ULX3S default is 50). With the two engines it had then, the SoC routed at
# 61.80 MHz on the 85F (DEFAULT_SEED, what CI builds, whatever the device key) since the
# key became LUT RAM contents; 57.4-64.0 over seeds since the engines register their
# window's bus requests (gateware/common/engine.py); before, 54.9 MHz (docs/boards.md,
# "Timing status").
DEFAULT_SYS_CLK = 60e6
# nextpnr's placement seed for `make ulx3s`/`ulx3s-ci` (ULX3S_SEED= overrides). 2 since
# 2026-11-26: with the 32 KiB L2, seed 1 routed at 57.50 MHz (a path inside VexRiscv,
# three quarters routing) and seed 2 at 63.56; the margin is a matter of placement.
# 1 since 2026-11-27: with the ROM's check of verified boot (a ~43 KiB ROM, 52 DP16KD)
# seed 1 routes at 64.30 MHz and seed 2 placed at 50.1 MHz estimated (docs/boards.md);
# 60.66 MHz since the ROM's driver has SHA-512 in software (2026-11-28, 54 DP16KD).
# 61.64 MHz since the frontend's context writes and the DMA reader's `more` are registered
# (2026-11-29).
# 4 since 2026-11-29, later: of the five seeds of the same sources (docs/fpga.md, "ULX3S
# over five placement seeds") it routes with the most margin (67.70 MHz; seed 1: 61.64)
# and in the least router1 time (714 s against seed 1's 1,209, both built side by side),
# the largest single item of CI's CPU time (issue 31). CI's bitstream is the check that
# the sources still route; whether 60 MHz survives any placement is the five-seed table's.
# The result is the same in every build tree: the device key is data, not logic.
# 61.55 MHz with the placer's timing weight at 30 (DEFAULT_TIMING_WEIGHT, 2026-11-30);
# 65.98 MHz with the measurement register and the streams (684e0e6), where registering
# the descriptor walker's check took it to 51.96 (inside VexRiscv; taken back, 6df9974).
# 1 since 2026-11-30, with the `linux+no-dsp` CPU (CPU_VARIANT): 63.60 MHz and the least
# router1 time of the five (702 s, three builds beside each other); seed 4 routes at 60.78
# MHz, PASS by 1.3%, after 2,090 s of router1 (docs/fpga.md's table).
# 71.07 MHz (956 s of router1) since the Keccak core keeps its busy and round flags in
# flip-flops and the walker registers its window check (8f32c0d), the most margin of the
# seeds that routed. With the SHA-512 engine on the board (2026-12-01): 66.17 MHz after
# 1,442 s of router1, within 0.4% of the best seed (2: 66.40 after 1,732 s).
DEFAULT_SEED = 1
# --pnr-margin asks nextpnr for margin x sys_clk (the 25 MHz input declared faster in the
# LPF). Tried at 1.2: the routed result was identical to 1.0 (48.74 MHz), so off by default.
DEFAULT_PNR_MARGIN = 1.0
# router1's --tmg-ripup: when routing is done, the arcs of paths that miss sys_clk are ripped
# up and routed again, timing first, pass after pass. The placement is the same with or
# without it. Tried 2026-11-30 on two of the five-seed table's placements (the same netlist):
# seed 2 (the Keccak core's round counter -> its state) went from 58.45 to 60.27 MHz in two
# passes, router1 1,419 -> 2,398 s; seed 5 (inside VexRiscv's data cache) did not gain: one
# pass took its worst slack from -0.54 to -0.62 ns and the second was still routing after
# 4,300 s (docs/boards.md, "Timing status"). Off: it does not hold 60 MHz where the CPU
# sets the limit, and it would more than double CI's router time.
DEFAULT_TMG_RIPUP = False
# The HeAP placer's weight of timing against wire length (nextpnr-ecp5's
# --placer-heap-timingweight; nextpnr's own default is 10). The failing paths of the
# five-seed table were three quarters routing: the placer had put their ends far apart.
# Tried 2026-11-30 on that table's netlist at its two worst seeds: at 30, seed 2 went from
# 58.45 to 64.47 MHz and seed 5 (then inside VexRiscv's data cache) from 58.11 to 61.24
# (both PASS; the critical path is the Keccak core's round counter -> `full` at both),
# router1 time about the same (docs/boards.md, "Timing status").
DEFAULT_TIMING_WEIGHT = 30
# The write-through L2 (soc/l2wt.py) in front of the SDRAM. 32 KiB (16 of the 85F's 208
# block RAMs for data): with 8 KiB the kernel's misses during a DMA stream took the SDRAM
# from the engine often enough to cost SHA3-256 in xv6 4% (docs/hash-syscall.md, "Bulk
# throughput"). The docs quote it as "N KiB write-through L2"; tests/test_docs.py checks.
L2_SIZE = 32 * 1024
BUILD_DIR = os.path.join(TOP, "build", "ulx3s")
BUILD_NAME = "radiona_ulx3s"


class _Platform(radiona_ulx3s.Platform):
    """litex_boards' ULX3S platform, optionally over-constrained for nextpnr: the 25 MHz
    input is declared faster than it is, so that the PLL-derived sys_clk constraint that
    nextpnr optimizes for is `pnr_margin` x sys_clk. The board still runs at sys_clk."""
    pnr_margin = 1.0

    def do_finalize(self, fragment):
        radiona_ulx3s.Platform.do_finalize(self, fragment)
        if self.pnr_margin != 1.0:
            # Emitted after the platform's own 25 MHz line: nextpnr keeps the last one.
            self.add_platform_command('FREQUENCY PORT "{clk}" %.3f MHz;' % (25.0 * self.pnr_margin),
                                      clk=self.lookup_request("clk25", loose=True))


class ULX3SHashSoC(HashSoC):
    """The ULX3S's SoC. With `twin=True` the same SoC is built for Verilator (boards/twin.py):
    the clock generator, the UART pins and the SDRAM PHY are replaced by simulation models
    (a plain clock, litex_sim's UART stream, LiteDRAM's SDRAM PHY model with the settings
    GENSDRPHY uses on the board); everything behind them is this same code: the LiteDRAM
    controller and module timings at sys_clk, the L2, the CSR map, the engines."""

    def __init__(self, device=DEFAULT_DEVICE, revision="2.0", sys_clk_freq=DEFAULT_SYS_CLK,
                 sdram_module="MT48LC16M16", sdram_rate="1:1",
                 engines=DEFAULT_ENGINES["ulx3s"], sha256_variant=hashspec.variant("sha256").name, with_led_chaser=True,
                 pnr_margin=1.0, dma_native=True, twin=False, **kwargs):
        if device not in DEVICES:
            raise ValueError(f"device must be one of {', '.join(DEVICES)}, not {device!r}")
        sys_clk_freq = int(sys_clk_freq)
        kwargs.setdefault("integrated_rom_size", 0x10000)   # the BIOS (~40 KiB)
        kwargs.setdefault("integrated_sram_size", 0x2000)
        kwargs.setdefault("uart_baudrate", DEFAULT_UART_BAUDRATE)
        kwargs.setdefault("cpu_variant", CPU_VARIANT)
        self.twin = twin
        if twin:
            from boards import twinpins
            platform = twinpins.replace_pins(self, sys_clk_freq, kwargs)
        else:
            platform = _Platform(device=device, revision=revision, toolchain="trellis")
            platform.pnr_margin = pnr_margin
            self.crg = ulx3s_target._CRG(platform, sys_clk_freq, sdram_rate=sdram_rate)
        HashSoC.__init__(self, platform, sys_clk_freq, ident=f"HashSoC on ULX3S {device}", **kwargs)
        self.fixed_rom_size = twin
        self.uart_baudrate = kwargs["uart_baudrate"]

        # SDR SDRAM as main RAM (32 MiB on the usual ULX3S). dma_native: behind our
        # write-through L2 (L2_SIZE), the engines reading on their own LiteDRAM ports
        # (pipelined); else as litex_boards does it (LiteX's 8 KiB write-back L2, the
        # engines' DMA on the bus).
        if twin:
            # The PHY the board would get, built on the board's own pads only to take its
            # settings (latencies, widths) for the model.
            board_pads = _Platform(device=device, revision=revision, toolchain="trellis")
            module, board_phy = board_dram(board_pads, sys_clk_freq, sdram_module, sdram_rate)
            self.sdrphy = twinpins.sdram_phy_model(board_phy.settings, module, sys_clk_freq)
        else:
            module, self.sdrphy = board_dram(platform, sys_clk_freq, sdram_module, sdram_rate)
        sdram_args = dict(phy=self.sdrphy, module=module, size=0x40000000)
        if dma_native:
            self.add_sdram_write_through("sdram", l2_size=L2_SIZE, **sdram_args)
        else:
            self.add_sdram("sdram", l2_cache_size=8192, **sdram_args)
        if with_led_chaser:
            leds = twinpins.led_pads(platform, 8) if twin else platform.request_all("user_led")
            self.leds = LedChaser(pads=leds, sys_clk_freq=sys_clk_freq)

        # Engines last: their DMA window is main RAM, which must exist now.
        self.add_hash_engines(engines, sha256_variant=sha256_variant,
                              dram=self.sdram if dma_native else None)


def board_dram(platform, sys_clk_freq=DEFAULT_SYS_CLK, sdram_module="MT48LC16M16", sdram_rate="1:1"):
    """The board's SDRAM: (LiteDRAM module, PHY on the platform's pads). The twin builds
    the PHY too, never into its SoC: for its settings (boards/twin.py)."""
    phy_cls = HalfRateGENSDRPHY if sdram_rate == "1:2" else GENSDRPHY
    module = getattr(litedram_modules, sdram_module)(int(sys_clk_freq), sdram_rate)
    return module, phy_cls(platform.request("sdram"), int(sys_clk_freq))


def board_platform():
    """The board's platform, as the twin takes the board PHY's settings from it."""
    return _Platform(device=DEFAULT_DEVICE, toolchain="trellis")


def timing_summary(gateware_dir, target_mhz=None):
    """(sys clock net, achieved MHz, PASS/FAIL, target MHz) from the build's nextpnr.log."""
    log = os.path.join(gateware_dir, "nextpnr.log")
    if not os.path.exists(log):
        return None
    fmax = parse_nextpnr_fmax(open(log, errors="replace").read())
    net = sys_clock_net(fmax, target_mhz)
    if net is None:
        return None
    return (net,) + fmax[net]


def build(device=DEFAULT_DEVICE, sys_clk_freq=DEFAULT_SYS_CLK, engines=DEFAULT_ENGINES["ulx3s"],
          sha256_variant=hashspec.variant("sha256").name, output_dir=BUILD_DIR, compile_gateware=True,
          compile_software=True, seed=DEFAULT_SEED, revision="2.0", sdram_module="MT48LC16M16",
          quiet=False, router="router1", pnr_margin=DEFAULT_PNR_MARGIN, tmg_ripup=DEFAULT_TMG_RIPUP,
          timing_weight=DEFAULT_TIMING_WEIGHT, **soc_kwargs):
    """Build (or only write, compile_gateware=False) the ULX3S SoC; return (soc, builder)."""
    use_fpga_tools()
    soc = ULX3SHashSoC(device=device, revision=revision, sys_clk_freq=sys_clk_freq,
                       sdram_module=sdram_module, engines=engines, sha256_variant=sha256_variant,
                       pnr_margin=pnr_margin, **soc_kwargs)
    # nextpnr writes its log and a JSON report (Fmax, utilisation) next to the bitstream.
    soc.platform.toolchain._pnr_opts += f" --log nextpnr.log --report nextpnr-report.json --router {router}"
    if tmg_ripup:
        soc.platform.toolchain._pnr_opts += " --tmg-ripup"
    if timing_weight is not None:
        soc.platform.toolchain._pnr_opts += f" --placer-heap-timingweight {timing_weight}"
    if not quiet:
        print(f"[ulx3s] HashSoC on ULX3S {device}\n" + describe(soc, output_dir, engines, sha256_variant),
              file=sys.stderr, flush=True)
    builder = make_builder(soc, output_dir, compile_gateware, compile_software)
    # LiteX writes the Verilog, the yosys script and the build script; we run the script
    # ourselves after making the script's source paths relative (see relative_sources).
    builder.build(build_name=BUILD_NAME, run=False, seed=seed)
    if compile_gateware:
        gw = builder.gateware_dir
        relative_sources(os.path.join(gw, BUILD_NAME + ".ys"), gw)
        subprocess.run(["bash", f"build_{BUILD_NAME}.sh"], cwd=gw, check=True)
    return soc, builder


def relative_sources(ys_path, base):
    """Rewrite the absolute `read_verilog` paths LiteX puts in the yosys script relative to
    `base`, the directory the script runs in. YoWASP's tools see the host's /tmp as a
    private empty directory, so a work tree under /tmp (a CI clone, say) would lose every
    source; relative paths work anywhere, because YoWASP maps the parent directories of
    the working directory."""
    with open(ys_path) as f:
        lines = f.readlines()
    out = []
    for line in lines:
        words = line.split()
        if len(words) >= 2 and words[0].startswith("read_") and os.path.isabs(words[-1]):
            line = line.replace(words[-1], os.path.relpath(words[-1], base))
        out.append(line)
    with open(ys_path, "w") as f:
        f.writelines(out)


def main(argv=None):
    p = base_parser(__doc__, BUILD_DIR, "ulx3s")
    p.add_argument("--device", default=DEFAULT_DEVICE, choices=DEVICES,
                   help=f"ECP5 on the board (default {DEFAULT_DEVICE})")
    p.add_argument("--revision", default="2.0", choices=["2.0", "1.7"], help="board revision")
    p.add_argument("--sys-clk-freq", type=float, default=DEFAULT_SYS_CLK,
                   help=f"system clock in Hz (default {DEFAULT_SYS_CLK:g})")
    p.add_argument("--sdram-module", default="MT48LC16M16",
                   help="SDRAM chip: MT48LC16M16 (32 MiB), AS4C32M16 (64 MiB) or AS4C16M16")
    p.add_argument("--seed", type=int, default=DEFAULT_SEED,
                   help=f"nextpnr placement seed (default {DEFAULT_SEED})")
    p.add_argument("--router", default="router1", choices=["router1", "router2"],
                   help="nextpnr router (default router1: router2 did not converge on this design)")
    p.add_argument("--tmg-ripup", action=argparse.BooleanOptionalAction, default=DEFAULT_TMG_RIPUP,
                   help="router1 routes the arcs of failing paths again, timing first (default: "
                        f"{'on' if DEFAULT_TMG_RIPUP else 'off'}; docs/boards.md, \"Timing status\")")
    p.add_argument("--timing-weight", type=int, default=DEFAULT_TIMING_WEIGHT,
                   help="nextpnr's placer: weight of timing against wire length (default "
                        f"{DEFAULT_TIMING_WEIGHT}; nextpnr's own is 10; docs/boards.md, \"Timing status\")")
    p.add_argument("--pnr-margin", type=float, default=DEFAULT_PNR_MARGIN,
                   help=f"ask nextpnr for this factor x sys_clk (default {DEFAULT_PNR_MARGIN}); "
                        "the timing check is against sys_clk itself")
    p.add_argument("--wishbone-dma", action="store_true",
                   help="the earlier memory path: LiteX's write-back L2, the engines' DMA as Wishbone "
                        "masters through it (default: our write-through L2 and LiteDRAM ports)")
    p.add_argument("--check-timing", action="store_true",
                   help="after the build, exit 1 unless nextpnr met sys_clk's target")
    p.add_argument("--check-only", action="store_true",
                   help="no build: check the timing of the existing build in --output-dir")
    args = p.parse_args(argv)

    if args.check_only:
        return check_timing(os.path.join(os.path.abspath(args.output_dir), "gateware"), args, True)
    if (args.load or args.flash) and not args.build:
        return program("ulx3s", args)       # the bitstream already built in --output-dir
    compile_gateware = args.build and not args.no_compile
    compile_software = compile_gateware and not args.no_compile_software
    try:
        soc, builder = build(args.device, args.sys_clk_freq, args.engines, args.sha256_variant,
                             os.path.abspath(args.output_dir), compile_gateware, compile_software,
                             args.seed, args.revision, args.sdram_module, router=args.router,
                             pnr_margin=args.pnr_margin, tmg_ripup=args.tmg_ripup,
                             timing_weight=args.timing_weight, dma_native=not args.wishbone_dma, **soc_kwargs(args))
    except (OSError, subprocess.CalledProcessError) as e:
        print(f"[ulx3s] build failed: {e}", file=sys.stderr)
        return 1
    gw = os.path.join(os.path.abspath(args.output_dir), "gateware")
    if not compile_gateware:
        print(f"[ulx3s] wrote {os.path.relpath(gw, TOP)} (no bitstream: --build not given or --no-compile)",
              file=sys.stderr)
        return 0
    rc = check_timing(gw, args, args.check_timing)
    return rc or program("ulx3s", args)


def check_timing(gw, args, strict):
    """Report sys_clk's Fmax from gw/nextpnr.log, write gw/timing.json; with strict, return 1
    unless sys_clk's Fmax after routing is at least --sys-clk-freq."""
    want = args.sys_clk_freq / 1e6
    t = timing_summary(gw, want * args.pnr_margin)
    if t is None:
        print(f"[ulx3s] could not find sys_clk's Fmax in {os.path.relpath(gw, TOP)}/nextpnr.log", file=sys.stderr)
        return 1 if strict else 0
    net, mhz, verdict, constraint = t
    ok = mhz >= want
    print(f"[ulx3s] timing: sys_clk ({net}) reaches {mhz:.2f} MHz after routing; runs at {want:.2f} MHz "
          f"(nextpnr was asked for {constraint:.2f}): {'PASS' if ok else 'FAIL'}", file=sys.stderr)
    with open(os.path.join(gw, "timing.json"), "w") as f:
        json.dump({"net": net, "fmax_mhz": mhz, "target_mhz": want, "constraint_mhz": constraint,
                   "pass": ok, "device": args.device, "engines": list(args.engines),
                   "sha256_variant": args.sha256_variant, "seed": args.seed,
                   "tmg_ripup": args.tmg_ripup, "timing_weight": args.timing_weight}, f, indent=1)
    if strict and not ok:
        print(f"[ulx3s] TIMING FAILED: sys_clk misses {want:.2f} MHz by {want - mhz:.2f} MHz", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
