# SPDX-License-Identifier: MIT
"""Where the simulators' wall time goes: a profile of the Verilator models (issue 13, item 4).

    python scripts/simprofile.py [--seconds 30] [--only-render]

For each target (litex_sim, the ULX3S twin) it runs the quick firmware twice:
1. plainly, to the end: simulated clocks per wall-clock second, from the firmware's
   CLOCKS line (the time CSR around its self-test and benchmark) over the run's wall time;
2. under `perf record` for --seconds: where the model spends them.

Verilator names each generated function after the module it evaluates: Vsim_VexRiscv_* is
the CPU. The SoC's own module (Vsim_sim_*) holds the LiteX logic and, inlined, both
engines; each of its functions is split between SHA-256 engine, Keccak engine and the
rest of the SoC in proportion to the signals it names (sha256_engine*, keccak_engine*,
anything else). Everything outside the model (litex_sim's clocker and console modules,
libc, Verilator's scheduler) is "harness".

Needs `perf` (Debian package linux-perf); not part of `make test`, a benchmark like
`make bench`. Writes docs/simprofile.json, docs/simprofile.md and docs/simprofile.png.
"""

import argparse
import collections
import datetime
import glob
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if TOP not in sys.path:
    sys.path.insert(0, TOP)

from boards import targets  # noqa: E402
from soc import runfw  # noqa: E402

DOCS = os.path.join(TOP, "docs")
# The targets profiled (boards/targets.py) and their labels.
TARGETS = {name: targets.target(name).label for name in ("sim", "ulx3s-twin")}
PARTS = [("cpu", "VexRiscv (`linux` variant)"), ("sha256", "SHA-256 engine (core + frontend)"),
         ("keccak", "Keccak engine (core + frontend)"), ("soc", "rest of the SoC (LiteX)"),
         ("harness", "harness (litex_sim modules, libc, Verilator scheduler)")]


def log(msg):
    print(f"[simprofile] {msg}", file=sys.stderr, flush=True)


def clocks_of(out):
    m = re.search(r"^CLOCKS selftest (\d+) bench (\d+)", out, re.M)
    if not m:
        raise SystemExit("no CLOCKS line in the firmware's output")
    return int(m.group(1)) + int(m.group(2))


def speed(target):
    """(simulated clocks, wall seconds) of one quick firmware run, soc.runfw's own, up to
    the firmware's DONE. Built first, so the wall time is the run's (and the model's start)."""
    (_, cwd), _ = runfw.prepare(target, "main", "quick")
    shutil.rmtree(cwd, ignore_errors=True)
    t0 = time.time()
    out = runfw.run_firmware("main", "quick", timeout=3600, target=target)
    return clocks_of(out), time.time() - t0


def record(target, seconds, data):
    """perf record the same run for `seconds`; return the model's directory."""
    (argv, cwd), _ = runfw.prepare(target, "main", "quick")
    try:
        subprocess.run(["timeout", "-s", "INT", str(seconds), "perf", "record", "-F", "999",
                        "-o", data, *argv], cwd=cwd, stdin=subprocess.DEVNULL,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    finally:
        shutil.rmtree(cwd, ignore_errors=True)
    return os.path.dirname(os.path.realpath(argv[0]))


def samples(data):
    """{symbol: percent of samples} from a perf data file."""
    rep = subprocess.run(["perf", "report", "-i", data, "--no-children", "--sort", "symbol",
                          "-g", "none", "--stdio"], capture_output=True, text=True, check=True).stdout
    out = collections.Counter()
    for line in rep.splitlines():
        m = re.match(r"\s*([\d.]+)%\s+\[[.k]\]\s+(\S+)", line)
        if m:
            out[m.group(2)] += float(m.group(1))
    return out


def attribute(share, obj_dir):
    """Split the samples into PARTS (module docstring)."""
    src = "".join(open(f).read() for f in glob.glob(os.path.join(obj_dir, "Vsim_sim__*.cpp"))
                  if "Slow" not in f)
    parts = collections.Counter()
    for sym, pct in share.items():
        if sym.startswith("Vsim_VexRiscv"):
            parts["cpu"] += pct
            continue
        if not sym.startswith("Vsim_sim_"):
            parts["harness"] += pct
            continue
        body = re.search(r"^(?:VL_INLINE_OPT )?void " + re.escape(sym) + r"\(.*?^}", src, re.S | re.M)
        names = re.findall(r"vlSelf->(?:__V[a-z]+_+)?(?:__PVT__)?(\w+)", body.group(0)) if body else []
        kinds = collections.Counter("sha256" if n.startswith("sha256_engine") else
                                    "keccak" if n.startswith("keccak_engine") else "soc" for n in names)
        total = sum(kinds.values())
        for k, v in (kinds.items() if total else [("soc", 1)]):
            parts[k] += pct * v / (total or 1)
    whole = sum(parts.values())
    return {k: round(100 * parts[k] / whole, 1) for k, _ in PARTS}


def measure(target, seconds):
    clocks, wall = speed(target)
    log(f"{target}: {clocks} clocks in {wall:.1f} s = {clocks / wall / 1e6:.2f} M clocks/s")
    with tempfile.TemporaryDirectory() as d:
        data = os.path.join(d, "perf.data")
        obj_dir = record(target, seconds, data)
        parts = attribute(samples(data), obj_dir)
    log(f"{target}: " + ", ".join(f"{k} {v}%" for k, v in parts.items()))
    return {"clocks": clocks, "wall_seconds": round(wall, 1),
            "mclocks_per_second": round(clocks / wall / 1e6, 2), "parts": parts}


def write_md(r, path):
    L = []
    A = L.append
    A("# Simulation speed: where the Verilator models spend their time\n")
    A(f"Written by `scripts/simprofile.py` on {r['date']} (commit {r['commit']}) on {r['machine']}. "
      "Raw data: `docs/simprofile.json`. Workload: the quick firmware (`python -m soc.runfw`), "
      "its self-test and benchmark; speed is its simulated clocks (the time CSR) over the run's "
      "wall time, one process alone on the machine.\n")
    A("| | " + " | ".join(TARGETS[t] for t in r["targets"]) + " |")
    A("|---|" + "---:|" * len(r["targets"]))
    A("| simulated clocks per second | " + " | ".join(
        f"{r['targets'][t]['mclocks_per_second']:.2f} M" for t in r["targets"]) + " |")
    A("| clocks simulated / wall seconds | " + " | ".join(
        f"{r['targets'][t]['clocks']:,} / {r['targets'][t]['wall_seconds']}" for t in r["targets"]) + " |")
    for key, label in PARTS:
        A(f"| {label} | " + " | ".join(f"{r['targets'][t]['parts'][key]}%" for t in r["targets"]) + " |")
    A("")
    A("![where the time goes](simprofile.png)\n")
    A(r["analysis"].strip() + "\n")
    with open(path, "w") as f:
        f.write("\n".join(L))


def plot(r, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7, 2.6))
    names = [TARGETS[t] for t in r["targets"]]
    left = [0.0] * len(names)
    for key, label in PARTS:
        vals = [r["targets"][t]["parts"][key] for t in r["targets"]]
        ax.barh(names, vals, left=left, label=label.split(" (")[0])
        left = [a + b for a, b in zip(left, vals)]
    ax.set_xlabel("% of the model's wall time")
    ax.set_xlim(0, 100)
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.35), ncol=3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


ANALYSIS = os.path.join(TOP, "scripts", "simprofile-analysis.md")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seconds", type=int, default=30)
    p.add_argument("--only-render", action="store_true", help="re-render docs from docs/simprofile.json")
    args = p.parse_args()
    path = os.path.join(DOCS, "simprofile.json")
    if args.only_render:
        r = json.load(open(path))
    else:
        if shutil.which("perf") is None:
            raise SystemExit("perf not found (Debian package linux-perf)")
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=TOP, capture_output=True,
                                text=True).stdout.strip()
        cpu = re.search(r"model name\s*:\s*(.*)", open("/proc/cpuinfo").read())
        r = {"date": datetime.date.today().isoformat(), "commit": commit,
             "machine": f"{os.cpu_count()}-core {cpu.group(1) if cpu else platform.machine()}",
             "targets": {t: measure(t, args.seconds) for t in TARGETS}}
    r["analysis"] = open(ANALYSIS).read()
    with open(path, "w") as f:
        json.dump({k: v for k, v in r.items() if k != "analysis"}, f, indent=1)
        f.write("\n")
    write_md(r, os.path.join(DOCS, "simprofile.md"))
    plot(r, os.path.join(DOCS, "simprofile.png"))
    log("wrote docs/simprofile.md, docs/simprofile.json, docs/simprofile.png")


if __name__ == "__main__":
    sys.exit(main())
