"""Build the simulated SoC and a firmware program, run it, return its console output.

    python -m soc.runfw [--bench quick|full] [--app main|demo] [--timeout S] [--target T]

Targets: `sim` (litex_sim with on-chip main RAM, 50 MHz nominal) or a board twin such as
`ulx3s-twin` (the board's SoC and memory path, boards/twin.py). The firmware prints DONE
last; the on-chip sim then stops itself (sim_finish CSR), a twin has no such CSR (the board
has none), so the run is stopped when DONE arrives.

Used by the tests, the benchmark and `make demo`. Progress goes to stderr; the firmware's
console goes to stdout (and is returned by `run_firmware`).
"""

import argparse
import os
import shutil
import subprocess
import sys
import time

from soc import sim

FIRMWARE_DIR = os.path.join(sim.TOP, "firmware", "baremetal")


TARGETS = ("sim", "ulx3s-twin")


def build_firmware(app="main", bench="quick", build_dir=sim.BUILD_DIR):
    out = os.path.join(build_dir, f"firmware-{app}-{bench}")
    cmd = ["make", "-s", "-C", FIRMWARE_DIR, f"SOC_BUILD={build_dir}", f"OUT={out}",
           f"BENCH={bench}", f"APP={app}"]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return os.path.join(out, "firmware.bin")


def _soc(target):
    """(build directory of the target's SoC, its Twin or None), built."""
    if target == "sim":
        sim.build()
        return sim.BUILD_DIR, None
    from boards.twin import Twin
    twin = Twin(target.removesuffix("-twin"))
    twin.build()
    return twin.build_dir, twin


def prepare(target, app, bench, built_for=None):
    """Build the target and the firmware (against `built_for`'s headers, default the
    target's own); return ((argv, cwd) of a run, the image)."""
    build_dir, twin = _soc(target)
    image = build_firmware(app, bench, _soc(built_for)[0] if built_for else build_dir)
    if twin is None:
        return sim.sim_command(image), image
    return twin.prepare_run([(image, twin.main_ram_base)], bios="direct"), image


def run_firmware(app="main", bench="quick", timeout=900, echo=False, target="sim", built_for=None):
    """Run a firmware on `target`, built for `built_for`'s SoC (default: the target's).
    Returns the console output, up to DONE or, on the wrong SoC, the soc-id line."""
    (argv, cwd), image = prepare(target, app, bench, built_for)
    print(f"[{target}] running {os.path.relpath(image, sim.TOP)}", file=sys.stderr, flush=True)
    t0 = time.time()
    proc = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)
    lines = []
    try:
        deadline = t0 + timeout
        for raw in proc.stdout:
            line = raw.decode(errors="replace").replace("\r", "")
            lines.append(line)
            if echo:
                sys.stdout.write(line)
                sys.stdout.flush()
            if time.time() > deadline:
                raise TimeoutError(f"firmware did not finish within {timeout} s")
            if line.strip() == "DONE" and target != "sim":
                break
            if line.startswith("soc-id:"):      # the wrong SoC: the firmware idles now
                break
        if target == "sim" and not (lines and lines[-1].startswith("soc-id:")):
            proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
        shutil.rmtree(cwd, ignore_errors=True)
    print(f"[{target}] finished in {time.time() - t0:.0f} s wall", file=sys.stderr, flush=True)
    return "".join(lines)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--app", default="main", choices=["main", "demo"])
    p.add_argument("--bench", default="quick", choices=["quick", "full"])
    p.add_argument("--timeout", type=int, default=1800)
    p.add_argument("--target", default="sim", choices=TARGETS)
    args = p.parse_args()
    out = run_firmware(args.app, args.bench, args.timeout, echo=True, target=args.target)
    return 0 if "DONE" in out else 1


if __name__ == "__main__":
    sys.exit(main())
