#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The ULX3S's sys_clk Fmax over nextpnr placement seeds -> docs/fpga.json ("ulx3s_seeds")
and its table in docs/fpga.md (rendered by report.py, which keeps it when it runs).

    python scripts/fpga/seeds.py                    (make ulx3s-seeds: seeds 1-5, 20-60 min each)
    python scripts/fpga/seeds.py --reuse 1=build/ulx3s       take make ulx3s-ci's seed-1 build
    python scripts/fpga/seeds.py --seeds 2 --keep            build seed 2 again, keep the other rows
    python scripts/fpga/seeds.py --engines sha256,keccak --jobs 2    another engine set, its own table

Each seed is the board's default build (`python -m boards.ulx3s --build --seed N`: the
engines, memory path and ROM `make ulx3s` puts on the board) in build/ulx3s-seeds/seed-N.
A seed that misses sys_clk is a result, not an error: the table says which path stopped
it. CI builds one seed (boards.ulx3s.DEFAULT_SEED, `make ulx3s-ci`); this shows whether
the margin survives a placement change, which any change to the gateware or the ROM
makes. The JSON records the commit and a digest of the sources the builds were made from
(the gateware, the SoC, the board script and the ROM's software); the table is of that
commit until this is run again. A build still routing after --timeout minutes is stopped
and its row says how far router1 got.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, TOP)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import report  # noqa: E402
from boards.common import parse_nextpnr_fmax, sys_clock_net  # noqa: E402
from gateware.buildstamp import source_digest  # noqa: E402
from gateware import hashspec  # noqa: E402

OUT = os.path.join(TOP, "build", "ulx3s-seeds")
JSON = os.path.join(TOP, "docs", "fpga.json")
# What a seed's bitstream is made from: the Python of the SoC and its gateware, and the C
# of the ROM (the BIOS links the boot ROM's check and the hash library).
SOURCES = report.ULX3S_SOURCES + ("firmware/bootrom", "firmware/libhash")


def log(msg):
    print(f"[seeds] {msg}", flush=True)


def board_config(engines=None):
    """The ULX3S default build's engines (or `engines`), CPU, sys_clk, nextpnr margin, router
    options and device."""
    from boards import DEFAULT_ENGINES, ulx3s
    return {"engines": list(engines or DEFAULT_ENGINES["ulx3s"]), "variant": hashspec.variant("sha256").name,
            "cpu": ulx3s.CPU_VARIANT,
            "freq": ulx3s.DEFAULT_SYS_CLK,
            "margin": ulx3s.DEFAULT_PNR_MARGIN, "tmg_ripup": ulx3s.DEFAULT_TMG_RIPUP,
            "timing_weight": ulx3s.DEFAULT_TIMING_WEIGHT, "device": ulx3s.DEFAULT_DEVICE}


def section(cfg):
    """fpga.json's section for the table: "ulx3s_seeds" for the board's default build (the
    table CI's build and docs/boards.md answer to), "ulx3s_seeds_<engines>" for another
    engine set (--engines: whether that build holds the clock, e.g. before it becomes the
    default)."""
    from boards import DEFAULT_ENGINES
    if cfg["engines"] == list(DEFAULT_ENGINES["ulx3s"]):
        return report.SEEDS_SECTION
    return option_section(cfg["engines"])


def option_section(engines):
    """The section of an engine set's table made while it was not the default."""
    return f"{report.SEEDS_SECTION}_" + "_".join(engines)


def build_dir(seed, cfg):
    """build/ulx3s-seeds/seed-N, or .../<engines>/seed-N for another engine set."""
    sub = [] if section(cfg) == report.SEEDS_SECTION else ["-".join(cfg["engines"])]
    return os.path.join(OUT, *sub, f"seed-{seed}")


def sources_key(cfg):
    return source_digest(SOURCES, "ulx3s-seeds", cfg["engines"], cfg["variant"], cfg["freq"], cfg["margin"],
                         cfg["tmg_ripup"], cfg["timing_weight"], cfg["cpu"])


def build(seed, timeout_min, cfg):
    d = build_dir(seed, cfg)
    os.makedirs(d, exist_ok=True)
    log(f"seed {seed}: building in {os.path.relpath(d, TOP)} (yosys + nextpnr-ecp5 router1: 15-40 min, "
        f"stopped after {timeout_min} min)")
    t0 = time.time()
    with open(os.path.join(d, "build.log"), "w") as f:
        proc = subprocess.Popen([sys.executable, "-m", "boards.ulx3s", "--build", "--check-timing", "--seed",
                                 str(seed), "--engines", ",".join(cfg["engines"]) or "none", "--output-dir", d], cwd=TOP, stdout=f, stderr=subprocess.STDOUT,
                                start_new_session=True)
        try:
            rc = proc.wait(timeout=timeout_min * 60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, 9)      # nextpnr runs in a child of the build: the whole group
            proc.wait()
            log(f"seed {seed}: stopped after {timeout_min} min")
            return d, round(time.time() - t0)
    secs = round(time.time() - t0)
    # --check-timing exits 1 when the seed misses sys_clk: a result; any other failure is not
    if rc not in (0, 1) or not os.path.exists(os.path.join(d, "gateware", "nextpnr-report.json")):
        raise SystemExit(f"seed {seed}: the build failed (exit {rc}); see {os.path.relpath(d, TOP)}/build.log")
    log(f"seed {seed}: done in {secs} s")
    return d, secs


def unrouted(gw, cfg):
    """What nextpnr's log says of a build stopped before routing finished: the Fmax it
    estimated after placement (its only timing report: the sys_clk net's, as the finished
    builds' are picked), and how far router1 got."""
    text = open(os.path.join(gw, "nextpnr.log"), errors="replace").read()
    fmax = parse_nextpnr_fmax(text)
    net = sys_clock_net(fmax, cfg["freq"] / 1e6 * cfg["margin"])
    prog = re.findall(r"^Info:\s+(\d+) \|.*\|\s+(\d+)\|\s+([\d.]+)\s+([\d.]+)\|$", text, re.M)
    total = re.search(r"Routing (\d+) arcs", text)
    it, left, batch, secs = prog[-1] if prog else ("0", "0", "0", "0")
    # Arcs left at each 10 minutes of router1: whether it was converging when stopped
    trend, mark = [], 600
    for _, n, _, t in prog:
        if float(t) >= mark:
            trend.append([mark, int(n)])
            mark += 600
    return {"placed_estimate_mhz": fmax[net][0] if net else None, "router_iterations": int(it),
            "arcs_left": int(left), "arcs": int(total.group(1)) if total else None,
            "router_seconds": round(float(secs)), "last_1000_iterations_s": float(batch),
            "arcs_left_every_600_s": trend}


def row(seed, d, secs, cfg):
    gw = os.path.join(d, "gateware")
    if not os.path.exists(os.path.join(gw, "nextpnr-report.json")):     # stopped while routing
        return {"seed": seed, "fmax_mhz": None, "pass": False, "seconds": secs, "stopped": unrouted(gw, cfg)}
    t = json.load(open(os.path.join(gw, "timing.json")))
    # (builds from before the option had nextpnr's own placer weight, 10)
    if t["seed"] != seed or sorted(t["engines"]) != sorted(cfg["engines"]) or \
            t.get("tmg_ripup", False) != cfg["tmg_ripup"] or t.get("timing_weight", 10) != cfg["timing_weight"]:
        raise SystemExit(f"{d} is a build of seed {t['seed']} with {t['engines']}, tmg_ripup "
                         f"{t.get('tmg_ripup', False)}, timing weight {t.get('timing_weight', 10)}, not seed {seed} "
                         f"with {cfg['engines']}, {cfg['tmg_ripup']}, {cfg['timing_weight']}")
    r = report.ulx3s_result(gw, f"seed-{seed}", cfg["engines"], cfg["variant"], cfg["freq"], secs)
    if r["cpu"] != cfg["cpu"]:
        raise SystemExit(f"{d} is a build with VexRiscv {r['cpu']}, not the board's {cfg['cpu']}")
    return {"seed": seed, "fmax_mhz": r["fmax_mhz"], "pass": r["pass"], "lut": r["lut"], "ff": r["ff"],
            "bram": r["bram"], "critical": r["critical"], "seconds": secs, "router_seconds": router_seconds(gw)}


def router_seconds(gw):
    """router1's own time from nextpnr's log (wall seconds: the largest part of a build, and
    what a seed costs CI when it is boards.ulx3s.DEFAULT_SEED)."""
    m = re.search(r"^Info: Router1 time ([\d.]+)s", open(os.path.join(gw, "nextpnr.log"), errors="replace").read(),
                  re.M)
    return round(float(m.group(1))) if m else None


def merge(old, rows, made):
    """The rows built now (each stamped with `made`: commit and date) and, of `old`'s table,
    the rows of the other seeds, each keeping when and from which commit it was made (the
    caller has checked that `old` is of the same sources: its key)."""
    new = [dict(r, **made) for r in rows]
    seeds = {r["seed"] for r in new}
    kept = [{"commit": old["commit"], "date": old["date"], **r} for r in old["rows"] if r["seed"] not in seeds]
    return sorted(kept + new, key=lambda r: r["seed"])


def before(old, key):
    """What the table said before this run, for its "before" column (issue 33 asks for the
    Fmax over five seeds before and after a change): `old` itself when it was made from
    other sources or options than `key` (another engine set too, when the board's default
    changes), else the "before" it carried."""
    if not old.get("rows") or old.get("key") == key:
        return old.get("before")
    return {"commit": old["commit"], "date": old["date"], "cpu": old.get("cpu"), "engines": old.get("engines"),
            "rows": [{"seed": r["seed"], "fmax_mhz": r["fmax_mhz"], "pass": r["pass"]} for r in old["rows"]]}


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seeds", default="1,2,3,4,5", help="comma list (default 1,2,3,4,5)")
    p.add_argument("--reuse", action="append", default=[], metavar="SEED=DIR",
                   help="take an existing `python -m boards.ulx3s --build --seed SEED` output")
    p.add_argument("--jobs", type=int, default=1, help="builds at once (each one core, ~1 GB; default 1)")
    p.add_argument("--keep", action="store_true",
                   help="keep docs/fpga.json's rows of the seeds not built now (refused unless that table "
                        "was made from the tree's sources and options: the same key)")
    p.add_argument("--engines", help="another engine set than the board's default (comma list, e.g. "
                                      "sha256,keccak): its own table, fpga.json's ulx3s_seeds_<engines>")
    p.add_argument("--timeout", type=int, default=60, metavar="MIN",
                   help="stop a seed's build after MIN minutes and count it as not routed (default 60: "
                        "CI's whole run must finish in 90)")
    args = p.parse_args()
    report.use_fpga_tools()
    cfg = board_config(args.engines and [e for e in args.engines.split(",") if e])
    name = section(cfg)
    seeds = [int(s) for s in args.seeds.split(",") if s]
    reuse = {int(k): os.path.abspath(v) for k, v in (r.split("=", 1) for r in args.reuse)}
    old = json.load(open(JSON)).get(name, {"rows": []})
    if args.keep and old.get("key") != sources_key(cfg):
        raise SystemExit("--keep: docs/fpga.json's table was made from other sources or options than the "
                         "tree's; its rows cannot stand beside new ones (build all five seeds)")

    def one(seed):
        if seed in reuse:
            log(f"seed {seed}: taken from {os.path.relpath(reuse[seed], TOP)}")
            return row(seed, reuse[seed], None, cfg)
        return row(seed, *build(seed, args.timeout, cfg), cfg)
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        rows = list(pool.map(one, seeds))
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=TOP, capture_output=True,
                            text=True).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain", "--", *SOURCES], cwd=TOP, capture_output=True,
                           text=True).stdout.strip()
    commit += "+changes" if dirty else ""
    made = {"commit": commit, "date": time.strftime("%Y-%m-%d")}
    rows = merge(old if args.keep else {"rows": []}, rows, made)
    from boards.ulx3s import DEFAULT_SEED
    seeds_data = {**made, "key": sources_key(cfg), "default": name == report.SEEDS_SECTION, "target_mhz": cfg["freq"] / 1e6, "device": cfg["device"],
                  "engines": cfg["engines"], "variant": cfg["variant"], "cpu": cfg["cpu"], "tmg_ripup": cfg["tmg_ripup"],
                  "timing_weight": cfg["timing_weight"], "ci_seed": DEFAULT_SEED, "rows": rows}
    if before(old, seeds_data["key"]):
        seeds_data["before"] = before(old, seeds_data["key"])
    data = json.load(open(JSON))
    data[name] = seeds_data
    if name == report.SEEDS_SECTION:
        # the table this set had while it was an option is now the default's, made anew
        data.pop(option_section(cfg["engines"]), None)
    json.dump(data, open(JSON, "w"), indent=1)
    report.write_md(data)
    log(f"wrote docs/fpga.json's {name} and docs/fpga.md")
    print(report.render_seeds(seeds_data))
    return 0


if __name__ == "__main__":
    sys.exit(main())
