# SPDX-License-Identifier: MIT
"""Build the simulated SoC and a firmware program, run it, return its console output.

    python -m soc.runfw [--bench quick|full] [--app main|demo|dmacontend|FILE.c] [--timeout S] [--target T]

Targets (boards/targets.py): `sim` (litex_sim with on-chip main RAM, 50 MHz nominal) or a
board twin such as `ulx3s-twin` (the board's SoC and memory path, boards/twin.py). The
firmware prints DONE last; the on-chip sim then stops itself (sim_finish CSR), a twin has no
such CSR (the board has none), so the run is stopped when DONE arrives.

Used by the tests, the benchmark and `make demo`. Each build step prints one line on stderr
(its output: build/logs/, soc/steps.py); the firmware's console goes to stdout (and is
returned by `run_firmware`), followed by a line with the run's wall time.
"""

import argparse
import os
import shutil
import subprocess
import sys
import time

from gateware.buildstamp import locked
from boards import targets
from soc import steps
from soc import sim

FIRMWARE_DIR = os.path.join(sim.TOP, "firmware", "baremetal")




# The programs in firmware/baremetal (--app NAME); any other is a path to a C file.
APPS = ("main", "demo", "dmacontend")


def app_source(app):
    """(name, source) of --app: one of APPS, or your own program as a path to a .c file
    (README, "Your own bare-metal program"; firmware/examples/hello_hash.c)."""
    if app in APPS:
        return app, os.path.join(FIRMWARE_DIR, app + ".c")
    if not app.endswith(".c") or not os.path.isfile(app):
        raise ValueError(f"--app: {app!r} is neither one of {', '.join(APPS)} nor a C file")
    return os.path.basename(app)[:-2], os.path.abspath(app)


def build_firmware(app="main", bench="quick", build_dir=sim.BUILD_DIR):
    name, src = app_source(app)
    out = os.path.join(build_dir, f"firmware-{name}-{bench}")
    cmd = ["make", "-s", "-C", FIRMWARE_DIR, f"SOC_BUILD={build_dir}", f"OUT={out}",
           f"BENCH={bench}", f"APP={name}", f"APP_SRC={src}", f"PYTHON={sys.executable}"]
    soc = os.path.basename(build_dir)
    with locked("firmware"):
        steps.run(f"{soc}: firmware (app {name}, bench {bench})", sim.log(f"{soc}-firmware-{name}-{bench}"), cmd)
    return os.path.join(out, "firmware.bin")


def _built(name):
    """The Target called `name` (boards/targets.py), its SoC built."""
    t = targets.target(name)
    t.build()
    return t


def firmware_elf(target_name, app="main", bench="quick"):
    """The ELF of a firmware built for the target's SoC (both built if needed), for tests
    that look at where its code was placed."""
    image = build_firmware(app, bench, _built(target_name).build_dir)
    return os.path.join(os.path.dirname(image), "firmware.elf")


def prepare(target_name, app, bench, built_for=None):
    """Build the target and the firmware (against `built_for`'s headers, default the
    target's own); return ((argv, cwd) of a run, the image)."""
    t = _built(target_name)
    image = build_firmware(app, bench, (_built(built_for) if built_for else t).build_dir)
    # The firmware's Makefile signs it: boot.json loads its header beside it (soc/bootrom.py).
    return t.run_command(os.path.join(os.path.dirname(image), "boot.json")), image


def run_firmware(app="main", bench="quick", timeout=900, echo=False, target="sim", built_for=None):
    """Run a firmware on the target called `target`, built for `built_for`'s SoC (default:
    the target's). Returns the console output, up to DONE or, on the wrong SoC, the soc-id
    line."""
    (argv, cwd), image = prepare(target, app, bench, built_for)
    ends_itself = targets.target(target).ends_itself
    t0 = time.time()
    proc = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)
    lines = []
    name = os.path.basename(os.path.dirname(image))
    shown = Echo(sim.log(f"{target}-run-{name}")) if echo else None
    try:
        deadline = t0 + timeout
        for raw in proc.stdout:
            line = raw.decode(errors="replace").replace("\r", "")
            lines.append(line)
            if shown:
                shown.write(line)
            if time.time() > deadline:
                raise TimeoutError(f"firmware did not finish within {timeout} s")
            if line.strip() == "DONE" and not ends_itself:
                break
            if line.startswith("soc-id:"):      # the wrong SoC: the firmware idles now
                break
        if ends_itself and not (lines and lines[-1].startswith("soc-id:")):
            proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
        shutil.rmtree(cwd, ignore_errors=True)
        if shown:
            shown.close()
    out = "".join(lines)
    ok = "DONE" in out
    steps.report(f"{target}: ran {name}", "ok" if ok else "no DONE", time.time() - t0,
                 steps.shown(shown.path) if shown and shown.log else "")
    if shown and shown.log and not ok:
        sys.stderr.write(f"---- the last lines of {steps.shown(shown.path)} ----\n{steps.tail(shown.path)}----\n")
    return out


class Echo:
    """The console as `--app demo` shows it: the program's own lines, from the BIOS's
    "Liftoff!" up to DONE (V=1: all of it). The whole console goes to a log."""

    def __init__(self, path):
        self.path = path
        self.all = steps.verbose()
        self.started = self.done = self.shown_any = False
        self.log = None
        if not self.all:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            self.log = open(path, "w")

    def write(self, line):
        if self.log:
            self.log.write(line)
        if self.all or (self.started and not self.done and (line.strip() or self.shown_any)):
            self.shown_any = True
            sys.stdout.write(line)
            sys.stdout.flush()
        self.started = self.started or "Liftoff!" in line
        self.done = self.done or line.strip() == "DONE"

    def close(self):
        if self.log:
            self.log.close()


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--app", default="main", metavar="NAME|FILE.c",
                   help=f"{', '.join(APPS)} (firmware/baremetal), or your own program's C file")
    p.add_argument("--bench", default="quick", choices=["quick", "full"])
    p.add_argument("--timeout", type=int, default=1800)
    p.add_argument("--target", default="sim", help=f"{', '.join(targets.TARGETS)}, or a twin with other "
                   "engines: <board>-twin-<engine>-... (boards/targets.py)")
    args = p.parse_args()
    try:
        app_source(args.app)
    except ValueError as e:
        p.error(str(e))
    out = run_firmware(args.app, args.bench, args.timeout, echo=True, target=args.target)
    return 0 if "DONE" in out else 1


if __name__ == "__main__":
    sys.exit(steps.cli(main))
