#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Issue 33's two ways to the SHA-512 family on the ULX3S's FPGA: its own engine beside the
SHA-256 one (what the SoC has), or one widened SHA-2 engine (gateware/sha2/core.py, family
"sha2") -> docs/fpga.json ("sha2_options") and its table in docs/fpga.md (rendered by
report.py, which keeps it when it runs).

    python scripts/fpga/sha2_options.py          (make fpga-sha2-options; ~10 min on 2 cores)

Each row is one module alone on the LFE5U-85F, out of context (report.py's
ecp5_out_of_context: synth_ecp5 + nextpnr-ecp5, asked for 100 MHz as the engines alone
are) at placement seeds 1-3, since one seed's Fmax moves by several MHz: the SHA-256, SHA-512 and widened cores, and each inside the engine frontend
(registers, data window, descriptor walker, DMA) without HMAC. The widened core has no HMAC
wrapper (gateware/sha256/hmac.py takes one family's block size), so the engines are compared
without theirs; report.py's rows of the shipped engines, HMAC included, give the wrapper's
cost. The JSON records a digest of the gateware the rows were made from (SOURCES);
tests/test_boards.py fails when it is not the tree's.
"""

import argparse
import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, TOP)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import report  # noqa: E402
from gateware import hashspec  # noqa: E402

JSON = os.path.join(TOP, "docs", "fpga.json")
# What the rows are made from: the cores, the frontend and the converter; not the Keccak
# engine's gateware nor the SoC.
SOURCES = ("gateware/__init__.py", "gateware/common", "gateware/sha2", "gateware/hashspec.py",
           "gateware/engines.py")
ROWS = [
    # tag, what: the core alone or inside the frontend, SHA2Core's family
    ("sha256-core", "core", "sha256"),
    ("sha512-core", "core", "sha512"),
    ("sha2-core", "core", "sha2"),
    ("sha256-engine", "engine", "sha256"),
    ("sha512-engine", "engine", "sha512"),
    ("sha2-engine", "engine", "sha2"),
]
SEEDS = (1, 2, 3)
FREQ_MHZ = 100.0


def log(msg):
    print(f"[sha2-options] {msg}", flush=True)


def table_key():
    return report.source_hash(SOURCES, "sha2-options", ROWS, SEEDS, FREQ_MHZ)


def component(what, family):
    """The core, or the engine frontend around it with the core's modes and no HMAC."""
    from gateware.common.engine import HashEngine
    from gateware.sha2.core import SHA2Core
    core = SHA2Core(family)
    if what == "core":
        return core
    key_words = hashspec.engine("sha256" if family == "sha256" else "sha512").key_words
    return HashEngine(core, modes=[mode for mode, _ in core.modes], key_words=key_words,
                      dma_window=report.MAIN_RAM)


def build(row, seed):
    """One module at one placement seed (cached in build/fpga-report/sha2-TAG-seedN)."""
    tag, what, family = row
    d = os.path.join(report.OUT, f"sha2-{tag}-seed{seed}")
    key = report.source_hash(SOURCES, "sha2-option", row, seed, FREQ_MHZ)
    res = report.cached(d, key)
    if res:
        log(f"{tag} seed {seed}: cached")
        return res
    from gateware.engines import to_verilog
    log(f"{tag} seed {seed}: yosys synth_ecp5 + nextpnr-ecp5 --out-of-context (1-3 min)")
    os.makedirs(d, exist_ok=True)
    top = tag.replace("-", "_")
    path = os.path.join(d, f"{top}.v")
    with open(path, "w") as f:
        f.write(to_verilog(component(what, family), top))
    res = report.ecp5_out_of_context(d, tag, path, top, FREQ_MHZ, seed)
    res.pop("fmax_all")
    log(f"{tag} seed {seed}: {res['lut']:,} LUT, {res['ff']:,} FF, {res['fmax_mhz']:.2f} MHz ({res['seconds']} s)")
    return report.store(d, key, res)


def row_result(row, builds):
    """A table row from its builds at SEEDS: the cells of the first (synthesis does not
    depend on the seed), the Fmax of each, the lowest and its critical path."""
    from gateware.sha2.core import FAMILIES
    tag, what, family = row
    worst = min(builds, key=lambda b: b["fmax_mhz"])
    names = ("sha256", "sha512") if family == "sha2" else (family,)
    return {"tag": tag, "what": what, "family": family,
            "clocks_per_block": {n: FAMILIES[n].rounds for n in names},
            **{k: builds[0][k] for k in ("lut", "ff", "bram", "dsp")},
            "fmax_by_seed": {str(s): b["fmax_mhz"] for s, b in zip(SEEDS, builds)},
            "fmax_mhz": worst["fmax_mhz"], "critical": worst["critical"],
            "seconds": sum(b["seconds"] for b in builds)}


def separate(what, rows):
    """The separate option's row: the SHA-256 and SHA-512 modules' cells added, and at each
    seed the slower one's Fmax (the two would sit side by side in one design)."""
    a, b = (next(r for r in rows if r["tag"] == f"{f}-{what}") for f in ("sha256", "sha512"))
    each = {s: min(a["fmax_by_seed"][s], b["fmax_by_seed"][s]) for s in a["fmax_by_seed"]}
    return {"tag": f"separate-{what}", "what": what, "family": "sha256+sha512", "sum_of": [a["tag"], b["tag"]],
            "clocks_per_block": {**a["clocks_per_block"], **b["clocks_per_block"]},
            **{k: a[k] + b[k] for k in ("lut", "ff", "bram", "dsp")},
            "fmax_by_seed": each, "fmax_mhz": min(each.values()), "critical": None}


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="builds at once (one core each)")
    args = p.parse_args()
    report.use_fpga_tools()
    jobs = [(row, seed) for row in ROWS for seed in SEEDS]
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        builds = list(pool.map(lambda job: build(*job), jobs))
    rows = [row_result(row, builds[i * len(SEEDS):(i + 1) * len(SEEDS)]) for i, row in enumerate(ROWS)]
    rows += [separate(what, rows) for what in ("core", "engine")]
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=TOP, capture_output=True,
                            text=True).stdout.strip()
    data = json.load(open(JSON))
    data["sha2_options"] = {"date": time.strftime("%Y-%m-%d"), "commit": commit, "key": table_key(),
                            "seeds": list(SEEDS), "target_mhz": FREQ_MHZ, "rows": rows}
    json.dump(data, open(JSON, "w"), indent=1)
    report.write_md(data)
    log("wrote docs/fpga.json (sha2_options) and docs/fpga.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
