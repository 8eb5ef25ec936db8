"""Build the simulated SoC and a firmware program, run it, return its console output.

    python -m soc.runfw [--bench quick|full] [--app main|demo] [--timeout S]

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

FIRMWARE_DIR = os.path.join(sim.TOP, "firmware")


def build_firmware(app="main", bench="quick"):
    out = os.path.join(sim.BUILD_DIR, f"firmware-{app}-{bench}")
    cmd = ["make", "-s", "-C", FIRMWARE_DIR, f"SOC_BUILD={sim.BUILD_DIR}", f"OUT={out}",
           f"BENCH={bench}", f"APP={app}"]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return os.path.join(out, "firmware.bin")


def run_firmware(app="main", bench="quick", timeout=900, echo=False):
    sim.build()
    image = build_firmware(app, bench)
    argv, cwd = sim.sim_command(image)
    print(f"[sim] running {os.path.relpath(image, sim.TOP)} in litex_sim", file=sys.stderr, flush=True)
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
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
        shutil.rmtree(cwd, ignore_errors=True)
    print(f"[sim] finished in {time.time() - t0:.0f} s wall", file=sys.stderr, flush=True)
    return "".join(lines)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--app", default="main", choices=["main", "demo"])
    p.add_argument("--bench", default="quick", choices=["quick", "full"])
    p.add_argument("--timeout", type=int, default=1800)
    args = p.parse_args()
    out = run_firmware(args.app, args.bench, args.timeout, echo=True)
    return 0 if "DONE" in out else 1


if __name__ == "__main__":
    sys.exit(main())
