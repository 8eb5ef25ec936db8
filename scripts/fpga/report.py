#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""FPGA cost and speed of HashSoC and its engines -> docs/fpga.md, docs/fpga.json, docs/fpga_*.png.

    python scripts/fpga/report.py            (make fpga-report; ~40-60 min on 2 cores, cached)
    python scripts/fpga/report.py --only-render      re-render the docs from docs/fpga.json
    python scripts/fpga/report.py --soc=             only the Arty estimates (~15 min; the rest as recorded)

What it measures (each step cached in build/fpga-report/ by a hash of its inputs):
* ULX3S (ECP5 LFE5U-85F, speed 6): the whole SoC placed and routed by nextpnr-ecp5 with
  no engine, SHA-256 only, Keccak only, both, and both with the basic SHA-256 variant.
  Logic cells (TRELLIS_COMB: LUT4s plus carry halves), flip-flops, DP16KD block RAMs,
  MULT18X18D DSPs and sys_clk Fmax from nextpnr's JSON report.
* Each engine alone (the Verilog from gateware.engines.write_verilog, with its frontend,
  DMA and data window): yosys synth_ecp5 + nextpnr-ecp5 --out-of-context on the 85F.
* Arty A7 (XC7A35T, XC7A100T) estimates: yosys synth_xilinx -family xc7 -flatten LUT/FF/BRAM/DSP
  counts of boards/arty.py's SoC (each configuration with its own BIOS in the ROM) and of the
  engines alone, against both devices' capacities (XC7_DEVICES), and the LUT6 sites the SoC's
  netlist takes once small LUTs share them (lut_sites). No timing: Vivado is not available
  here. Each Arty row records the source digest it was made from (arty_key, xc7_key):
  tests/test_boards.py fails when the tree's differs, or when the SoC with both engines
  passes ARTY_LUT_BUDGET of the 35T's LUTs in LUT sites (or 100% in LUT cells).
Rows not rebuilt (not cached and not asked for with --soc/--arty) are carried over from the
existing docs/fpga.json with the date they were made.
Throughput = block bytes x Fmax / clocks per block (SHA-256: 64 B per 64 clocks folded or
65 basic; Keccak: rate bytes per 24 clocks).
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

from boards.common import FPGA_BIN, sys_clock_net, use_fpga_tools  # noqa: E402
from gateware import hashspec  # noqa: E402
from gateware.buildstamp import is_current, source_digest  # noqa: E402

OUT = os.path.join(TOP, "build", "fpga-report")
DOCS = os.path.join(TOP, "docs")
PY = sys.executable
MAIN_RAM = (0x4000_0000, 0x0200_0000)   # the ULX3S's 32 MiB SDRAM: the engines' DMA window

SOC_CONFIGS = [
    # tag, engines, sha256 variant
    ("both", ("sha256", "keccak"), "folded"),
    ("none", (), "folded"),
    ("sha256", ("sha256",), "folded"),
    ("keccak", ("keccak",), "folded"),
    ("both-basic", ("sha256", "keccak"), "basic"),
    ("every", tuple(e.name for e in hashspec.ENGINES), "folded"),    # every engine of hashspec
]
SOC_ORDER = ["none", "sha256", "keccak", "both", "both-basic", "every"]   # the tables' row order
ARTY_TAGS = ("both", "none", "sha256", "keccak", "every")     # the Arty estimates (no basic SHA-256)
ENGINE_CONFIGS = [
    # tag, engine, variant, clocks per block (hashspec's), block bytes {label: bytes}
    (tag, engine, variant, hashspec.variant(engine, variant).clocks, blocks)
    for tag, engine, variant, blocks in (
        ("sha256-folded", "sha256", "folded", {"SHA-256": hashspec.algorithm("SHA-256").block}),
        ("sha256-basic", "sha256", "basic", {"SHA-256": hashspec.algorithm("SHA-256").block}),
        ("keccak", "keccak", None, {t: hashspec.algorithm(t).block for t in ("SHA3-256", "SHA3-512", "SHAKE128")}),
        ("sha512-folded", "sha512", "folded", {"SHA-512": hashspec.algorithm("SHA-512").block}),
    )
]

# Seed 003, Table I (TSMC 0.18 um standard cells, Design Compiler) and a public anchor.
SEED003 = [
    # architecture, MHz, area um^2, throughput Mbps as printed, clocks per block
    ("Basic", 326.80, 480625, 1287.08, 65),
    ("Proposed (hash update folded into round 64)", 357.14, 529690, 1428.57, 64),
    ("Fused (round functions fused into the CPAs)", 380.23, 562704, 1520.91, 64),
]
SECWORKS = {"name": "secworks/sha256", "clocks": 66, "luts": 2500, "mhz": 108.0, "fpga": "Artix-7"}


def log(msg):
    print(f"[fpga-report] {msg}", file=sys.stderr, flush=True)


ENGINE_SOURCES = ("gateware",)
# What the Arty SoC's Verilog is generated from: boards/arty.py and what it imports within the
# tree, transitively (tests/test_boards.py checks), plus the engines' cores, which
# gateware/engines.py imports when it converts an engine. Not gateware/buildstamp.py (the
# cache's own helper), soc/sim.py and soc/runfw.py (the simulator), boards/twin.py and
# boards/a7phy_model.py (the Arty's twin only).
ARTY_SOURCES = ("boards/__init__.py", "boards/arty.py", "boards/common.py", "boards/prog.py",
                "gateware/__init__.py", "gateware/common", "gateware/sha2", "gateware/sha256", "gateware/keccak",
                "gateware/devicekey.py", "gateware/engines.py", "gateware/hashspec.py",
                "gateware/litedram_dma.py", "gateware/litex_wrapper.py", "gateware/measure.py",
                "gateware/measure_wrapper.py",
                "soc/__init__.py", "soc/bootrom.py", "soc/hashsoc.py", "soc/identity.py", "soc/l2wt.py")
# The same for the ULX3S SoC (tests/test_boards.py checks it too), with the ROM build's
# libc cache. Not soc/runfw.py or soc/sim.py: a change to the simulator's runner does not
# make the board's tables stale.
ULX3S_SOURCES = tuple("boards/ulx3s.py" if f == "boards/arty.py" else f for f in ARTY_SOURCES) + ("soc/libccache.py",)


def source_hash(paths, *extra):
    """Hash of the Python sources under `paths` (dirs or files) and `extra`."""
    return source_digest(paths, *extra)


def cached(d, tag):
    res = os.path.join(d, "result.json")
    if not is_current(os.path.join(d, ".stamp"), tag, res):
        return None
    result = json.load(open(res))
    result["source"] = tag      # the row's record of what it was made from (its cache stamp)
    result.setdefault("date", time.strftime("%Y-%m-%d", time.localtime(os.path.getmtime(res))))
    return result


def store(d, tag, result):
    """Cache `result` (with the date it was made) under the stamp `tag`."""
    os.makedirs(d, exist_ok=True)
    result.setdefault("date", time.strftime("%Y-%m-%d"))
    result["source"] = tag
    json.dump(result, open(os.path.join(d, "result.json"), "w"), indent=1)
    open(os.path.join(d, ".stamp"), "w").write(tag)
    return result


def run(cmd, cwd, logfile):
    t0 = time.time()
    with open(logfile, "w") as f:
        rc = subprocess.call(cmd, cwd=cwd, stdout=f, stderr=subprocess.STDOUT)
    if rc != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed (exit {rc}); see {os.path.relpath(logfile, TOP)}")
    return time.time() - t0


# nextpnr ----------------------------------------------------------------------------------------

def nextpnr_result(report_path, log_path):
    rep = json.load(open(report_path))
    util = {k: v["used"] for k, v in rep.get("utilization", {}).items()}
    avail = {k: v["available"] for k, v in rep.get("utilization", {}).items()}
    fmax = {k: (v["achieved"], v["constraint"]) for k, v in rep.get("fmax", {}).items()}
    return {
        "lut": util.get("TRELLIS_COMB", 0), "lut_avail": avail.get("TRELLIS_COMB", 0),
        "ff": util.get("TRELLIS_FF", 0), "ff_avail": avail.get("TRELLIS_FF", 0),
        "bram": util.get("DP16KD", 0), "bram_avail": avail.get("DP16KD", 0),
        "dsp": util.get("MULT18X18D", 0), "dsp_avail": avail.get("MULT18X18D", 0),
        "lutram": util.get("TRELLIS_RAMW", 0),
        "fmax_all": fmax,
    }


def critical_path(log_path, net=None):
    """Summary of nextpnr's last critical-path report (for `net`, else the first clock)."""
    if not os.path.exists(log_path):
        return None
    text = open(log_path, errors="replace").read()
    heads = [m for m in re.finditer(r"Critical path report for clock '([^']+)'", text)
             if net is None or m.group(1) == net]
    if not heads:
        return None
    start = heads[-1].end()
    m = re.search(r"([\d.]+) ns logic, ([\d.]+) ns routing", text[start:])
    if not m:
        return None
    body = text[start:start + m.start()]
    srcs = re.findall(r"Source (\S+)", body)
    sinks = re.findall(r"Sink (\S+)", body)
    def short(n):
        # yosys's cell names end in _LUT4..., _TRELLIS_FF...; "$glbnet$..." and the like follow
        # a name, but Amaranth's unnamed signals are "$<n>" themselves (keccak_engine.core.$5)
        m = re.match(r"(.*?\.)\$(\d+)_", n)
        base = m.group(1) + "$" + m.group(2) if m else n.split("$")[0]
        return re.sub(r"(_(LUT4|TRELLIS|CCU2C|PFUMX|L6MUX21)\w*)$", "", base)[:70]

    return {"from": short(srcs[0]) if srcs else "?", "to": short(sinks[-1]) if sinks else "?",
            "levels": len(re.findall(r"\blogic\b", body)),
            "logic_ns": float(m.group(1)), "routing_ns": float(m.group(2))}


def yosys_ecp5_luts(rpt):
    """LUT4 and CCU2C counts from a yosys log's last statistics."""
    text = open(rpt, errors="replace").read()
    def last(cell):
        m = re.findall(r"^\s+(\d+)\s+(?:[\d.]+\s+)?" + cell + r"\s*$", text, re.M) or \
            re.findall(r"^\s+" + cell + r"\s+(\d+)\s*$", text, re.M)
        return int(m[-1]) if m else 0
    return {"yosys_lut4": last("LUT4"), "yosys_ccu2c": last("CCU2C")}


# ULX3S SoC --------------------------------------------------------------------------------------

def built_cpu(gw):
    """The VexRiscv variant (LiteX's name, e.g. "linux+no-dsp") whose Verilog the build's yosys
    script read, or None: what a build was made of, whatever the tree says today."""
    from litex.soc.cores.cpu.vexriscv.core import CPU_VARIANTS
    ys = [f for f in os.listdir(gw) if f.endswith(".ys")]
    m = re.search(r"\b(VexRiscv_\w+)\.v\b", open(os.path.join(gw, ys[0])).read()) if ys else None
    return next((name for name, module in CPU_VARIANTS.items() if m and module == m.group(1)), None)


def ulx3s_result(gw, tag, engines, variant, freq, secs):
    res = nextpnr_result(os.path.join(gw, "nextpnr-report.json"), os.path.join(gw, "nextpnr.log"))
    res.update(yosys_ecp5_luts(os.path.join(gw, "radiona_ulx3s.rpt")))
    from boards.ulx3s import DEFAULT_PNR_MARGIN
    fm = {k: (a, "PASS" if a >= c else "FAIL", c) for k, (a, c) in res["fmax_all"].items()}
    net = sys_clock_net(fm, freq / 1e6 * DEFAULT_PNR_MARGIN)
    res.update({"tag": tag, "engines": list(engines), "variant": variant, "target_mhz": freq / 1e6,
                "constraint_mhz": res["fmax_all"][net][1],
                "fmax_mhz": res["fmax_all"][net][0], "sys_net": net, "seconds": secs,
                "pass": res["fmax_all"][net][0] >= freq / 1e6, "cpu": built_cpu(gw),
                "critical": critical_path(os.path.join(gw, "nextpnr.log"), net)})
    return res


def ulx3s_key(engines, variant, freq, seed):
    from boards.ulx3s import DEFAULT_PNR_MARGIN
    return source_hash(ULX3S_SOURCES, "ulx3s", engines, variant, freq, seed, DEFAULT_PNR_MARGIN)


def earlier_soc_rows(data):
    """The tags of the ULX3S SoC rows not made from the tree's sources at the board's clock
    and the report's seed (their recorded `source` is another ulx3s_key, or none was
    recorded): the table marks them, since a change to the gateware re-places every row
    and only the rows rebuilt since describe the tree."""
    from boards.ulx3s import DEFAULT_SYS_CLK
    config = {tag: (engines, variant) for tag, engines, variant in SOC_CONFIGS}   # (the key's own types)
    return [r["tag"] for r in data["ulx3s_soc"]
            if r.get("source") != ulx3s_key(*config[r["tag"]], DEFAULT_SYS_CLK, data["seed"])]


def ulx3s_soc(tag, engines, variant, freq, seed, bios, build=True):
    d = os.path.join(OUT, f"ulx3s-{tag}")
    key = ulx3s_key(engines, variant, freq, seed)
    res = cached(d, key)
    if res:
        log(f"ULX3S SoC {tag}: cached")
        res.setdefault("cpu", built_cpu(os.path.join(d, "gateware")))   # (results from before it was kept)
        return res
    if not build:
        return None
    log(f"ULX3S SoC {tag}: building (yosys + nextpnr-ecp5 router1: 10-40 min)")
    cmd = [PY, "-m", "boards.ulx3s", "--build", "--output-dir", d, "--sys-clk-freq", str(freq),
           "--seed", str(seed), "--engines", ",".join(engines) or "none", "--sha256-variant", variant]
    if bios:
        cmd += ["--bios", bios]
    os.makedirs(d, exist_ok=True)
    secs = run(cmd, TOP, os.path.join(d, "build.log"))
    return store(d, key, ulx3s_result(os.path.join(d, "gateware"), tag, engines, variant, freq, round(secs)))


def ulx3s_reuse(tag, engines, variant, freq, seed, build_dir):
    """Take an existing `python -m boards.ulx3s --build` output (same configuration) as a result."""
    gw = os.path.join(build_dir, "gateware")
    t = os.path.join(gw, "timing.json")
    if os.path.exists(t):
        tj = json.load(open(t))
        if sorted(tj["engines"]) != sorted(engines) or tj["sha256_variant"] != variant \
                or abs(tj["target_mhz"] - freq / 1e6) > 0.01 or tj["seed"] != seed \
                or "constraint_mhz" not in tj:
            raise SystemExit(f"{build_dir} was built with {tj}, not the '{tag}' configuration at {freq / 1e6:g} MHz")
    log(f"ULX3S SoC {tag}: taken from {os.path.relpath(build_dir, TOP)}")
    res = ulx3s_result(gw, tag, engines, variant, freq, None)
    res["from"] = os.path.relpath(build_dir, TOP)
    return store(os.path.join(OUT, f"ulx3s-{tag}"), ulx3s_key(engines, variant, freq, seed), res)


# Engines alone on ECP5 --------------------------------------------------------------------------

def ecp5_engine(tag, name, variant, freq_mhz, seed, build=True):
    from gateware.engines import write_verilog
    d = os.path.join(OUT, f"ecp5-{tag}")
    key = source_hash(ENGINE_SOURCES, "ecp5-engine", name, variant, freq_mhz, seed)
    res = cached(d, key)
    if res:
        log(f"ECP5 engine {tag}: cached")
        if "critical" not in res:
            res["critical"] = critical_path(os.path.join(d, "nextpnr.log"), "clk")
        return res
    if not build:
        return None
    log(f"ECP5 engine {tag}: yosys synth_ecp5 + nextpnr-ecp5 --out-of-context")
    path, top = write_verilog(name, variant, os.path.join(OUT, "engines"), dma_window=MAIN_RAM)
    res = ecp5_out_of_context(d, tag, path, top, freq_mhz, seed)
    res.update({"tag": tag, "engine": name, "variant": variant})
    return store(d, key, res)


def ecp5_out_of_context(d, tag, verilog, top, freq_mhz, seed):
    """Module `top` of the Verilog file `verilog` alone on the ULX3S's FPGA: yosys synth_ecp5,
    then nextpnr-ecp5 --out-of-context (no I/O buffers: reg-to-reg Fmax) in `d`. Cells,
    Fmax, the critical path and the seconds it took."""
    os.makedirs(d, exist_ok=True)
    src = os.path.relpath(verilog, d)       # relative: YoWASP sees the work tree, not /tmp
    with open(os.path.join(d, "synth.ys"), "w") as f:
        f.write(f"read_verilog {src}\nsynth_ecp5 -top {top}\nstat\nwrite_json {tag}.json\n")
    t = run([os.path.join(FPGA_BIN, "yosys"), "-q", "-l", "yosys.log", "synth.ys"], d, os.path.join(d, "yosys.out"))
    t += run([os.path.join(FPGA_BIN, "nextpnr-ecp5"), "--85k", "--package", "CABGA381", "--speed", "6",
              "--json", f"{tag}.json", "--out-of-context", "--freq", str(freq_mhz), "--seed", str(seed),
              "--timing-allow-fail", "--log", "nextpnr.log", "--report", "nextpnr-report.json"],
             d, os.path.join(d, "nextpnr.out"))
    res = nextpnr_result(os.path.join(d, "nextpnr-report.json"), os.path.join(d, "nextpnr.log"))
    res.update(yosys_ecp5_luts(os.path.join(d, "yosys.log")))
    fm = res["fmax_all"]
    net = "clk" if "clk" in fm else next(iter(fm))
    res.update({"fmax_mhz": fm[net][0], "target_mhz": freq_mhz, "seconds": round(t),
                "critical": critical_path(os.path.join(d, "nextpnr.log"), net)})
    return res


# Arty (Xilinx 7-series) yosys estimates ---------------------------------------------------------

XILINX_CELLS = {
    "lut": r"LUT[1-6]", "ff": r"FD[RSCP]E(_1)?", "bram36": r"RAMB36E1", "bram18": r"RAMB18E1",
    "dsp": r"DSP48E1", "lutram": r"RAM(32|64|128|256)[XM]\w*", "carry": r"CARRY4",
}


def xilinx_stat(logfile, block=None):
    """Cell counts from the last "Printing statistics" block of a yosys log (of the flattened
    top), or from `block`, one module's part of it. lc_est: yosys's own estimate of the LUT
    sites once small LUTs share one (LUT6_2), printed by synth_xilinx's statistics."""
    text = open(logfile, errors="replace").read()
    lcs = re.findall(r"Estimated number of LCs:\s+(\d+)", text if block is None else block)
    if block is None:
        block = text[text.rfind("Printing statistics"):]
    counts = {}
    for line in block.splitlines():
        m = re.match(r"^\s+(\d+)\s+(?:[\d.]+\s+)?\$?(\w+)\s*$", line) or re.match(r"^\s+\$?(\w+)\s+(\d+)\s*$", line)
        if not m:
            continue
        a, b = m.groups()
        cell, n = (b, int(a)) if a.isdigit() else (a, int(b))
        counts[cell] = counts.get(cell, 0) + n
    res = {}
    for k, pat in XILINX_CELLS.items():
        res[k] = sum(n for c, n in counts.items() if re.fullmatch(pat, c))
    res["bram"] = res["bram36"] + res["bram18"] / 2
    res["lc_est"] = int(lcs[-1]) if lcs else None
    return res


def module_stats(logfile):
    """{module: cell counts} from the last statistics of a yosys log with several modules."""
    text = open(logfile, errors="replace").read()
    text = text[text.rfind("Printing statistics"):]
    parts = re.split(r"^=== (.+?) ===$", text, flags=re.M)
    return {name.lstrip("\\"): xilinx_stat(logfile, body)
            for name, body in zip(parts[1::2], parts[2::2]) if name != "design hierarchy"}


NETLIST = "netlist.json"        # synth_xilinx's flattened netlist, beside xilinx.log (lut_sites)
# LUT sites each LUT-as-memory cell takes, as UG474 (7 Series CLB guide, table 2-3) gives
# them: a SLICEM's LUTs are the same LUT6 sites as the logic's.
LUTRAM_SITES = {"RAM32X1S": 1, "RAM64X1S": 1, "RAM32X1D": 2, "RAM64X1D": 2, "RAM128X1S": 2,
                "RAM32M": 4, "RAM64M": 4, "RAM128X1D": 4, "RAM256X1S": 4, "SRL16E": 1, "SRLC32E": 1}


def pair_luts(small):
    """Pairs (i, j) of the small LUTs `small` (each the set of its input nets, LUT1..LUT5) that
    share a LUT6_2 site: two LUTs whose inputs together are at most five distinct nets.

    Vivado's LUT combining only puts together LUTs that share inputs, and so does this: a
    pair must share at least one net. Greedy: the pairs that share the most nets first, then
    the smaller union, then netlist order; a LUT is in one pair at most. Candidates are found
    through each LUT's nets (an index of the LUTs on each net), never by trying all pairs: ~1.5 s
    for the 14k small LUTs of the Arty SoC with both engines."""
    by_net = {}
    for i, nets in enumerate(small):
        for n in nets:
            by_net.setdefault(n, []).append(i)
    cands = []
    for i, a in enumerate(small):
        shared = {}
        for n in a:
            for j in by_net[n]:
                if j > i:
                    shared[j] = shared.get(j, 0) + 1
        for j, s in shared.items():
            union = len(a) + len(small[j]) - s
            if union <= 5:
                cands.append((-s, union, i, j))
    cands.sort()
    taken, pairs = set(), []
    for _, _, i, j in cands:
        if i not in taken and j not in taken:
            taken.update((i, j))
            pairs.append((i, j))
    return pairs


def lut_sites(luts, lutram_sites=0):
    """A packing-aware estimate of the LUT6 sites (Vivado's *Slice LUTs*) a netlist takes.
    `luts`: (k, input nets) for each LUTk cell, constants left out of its nets. Each LUT6 takes
    a site; LUT1..LUT5 share one two by two where pair_luts pairs them, else take one each;
    `lutram_sites`: the sites of the LUTs used as memory (LUTRAM_SITES), added."""
    small = [frozenset(nets) for k, nets in luts if k < 6]
    lut6 = len(luts) - len(small)
    pairs = len(pair_luts(small))
    alone = len(small) - 2 * pairs
    return {"lut6": lut6, "small": len(small), "pairs": pairs, "alone": alone, "lutram": lutram_sites,
            "sites": lut6 + pairs + alone + lutram_sites}


def netlist_luts(netlist):
    """The LUT cells of a flattened yosys JSON netlist (write_json; a dict) as lut_sites takes
    them, in cell-name order, and the sites of its LUTs used as memory. An INV cell counts as a
    LUT1: inverting a net takes one unless Vivado can push the inversion into the load (most of
    the Arty SoC's drive CARRY4 inputs, which cannot take it)."""
    mods = netlist["modules"]
    top = next((m for m in mods.values() if int(str(m.get("attributes", {}).get("top", "0")), 2)), None) \
        or max(mods.values(), key=lambda m: len(m.get("cells", {})))
    luts, lutram = [], 0
    for name in sorted(top["cells"]):
        cell = top["cells"][name]
        t = cell["type"]
        m = re.fullmatch(r"LUT([1-6])", t)
        if m or t == "INV":
            pins = [p for p in cell["connections"] if re.fullmatch(r"I\d?", p)]
            nets = {b for p in pins for b in cell["connections"][p] if isinstance(b, int)}
            luts.append((int(m.group(1)) if m else 1, nets))
        lutram += LUTRAM_SITES.get(t, 0)
    return luts, lutram


def netlist_lut_sites(path):
    """lut_sites of a yosys JSON netlist file: {"lut_sites": sites, "lut_packing": the detail},
    or {} when there is none (a build from before netlists were written)."""
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        luts, lutram = netlist_luts(json.load(f))
    pack = lut_sites(luts, lutram)
    return {"lut_sites": pack["sites"], "lut_packing": pack}


def yosys_xilinx(d, sources, top):
    with open(os.path.join(d, "xilinx.ys"), "w") as f:
        for s in sources:
            f.write(f"read_verilog {s}\n")
        f.write(f"synth_xilinx -family xc7 -flatten -top {top}\nstat\nwrite_json -noscopeinfo {NETLIST}\n")
    t = run([os.path.join(FPGA_BIN, "yosys"), "-q", "-l", "xilinx.log", "xilinx.ys"], d, os.path.join(d, "xilinx.out"))
    res = xilinx_stat(os.path.join(d, "xilinx.log"))
    res.update(netlist_lut_sites(os.path.join(d, NETLIST)))
    res["seconds"] = round(t)
    return res


# Xilinx's 7 Series product table (DS180; Vivado's report_utilization gives the same
# "Available"): 6-input LUTs, flip-flops, 36 Kb block RAMs, DSP48E1 slices. The Arty's SoC is
# the same netlist on both (boards/arty.py's variant only picks the part), so one synthesis
# is reported against each.
XC7_DEVICES = {
    "XC7A35T": {"variant": "a7-35", "lut": 20_800, "ff": 41_600, "bram": 50, "dsp": 90},
    "XC7A100T": {"variant": "a7-100", "lut": 63_400, "ff": 126_800, "bram": 135, "dsp": 240},
}
# tests/test_boards.py fails when the Arty SoC with both engines takes more than this share of
# the 35T's LUTs in LUT sites (lut_sites): an estimate of yosys's mapping, not Vivado's, and a
# fuller device places and routes worse.
ARTY_LUT_BUDGET = 0.85
# An engine alone on xc7 as the Arty's SoC instantiates it: its DMA a stream to the LiteDRAM
# port adapter (gateware/litedram_dma.py, Migen: in the SoC rows only), its window the DDR3.
XC7_ENGINE_DMA = "stream"
ARTY_MAIN_RAM = (0x4000_0000, 0x1000_0000)
# The Arty's Verilog, Vivado project and BIOS as `make arty` writes them, without ever running
# Vivado (even where it is on PATH): argv = output dir, engines (comma list), SHA-256 variant.
ARTY_GENERATE = ("import sys; from boards.arty import build; "
                 "build(engines=tuple(e for e in sys.argv[2].split(',') if e), sha256_variant=sys.argv[3], "
                 "output_dir=sys.argv[1], run_vivado=False, compile_software=True, quiet=True)")


def arty_key(tag):
    """The source digest an Arty SoC row is made from: its cache stamp, recorded in the row as
    "source" (tests/test_boards.py compares it with the tree's). The ROM's BIOS (LiteX's, with
    firmware/bootrom) only sets the ROM's size, a block RAM or two: not part of it."""
    _, engines, variant = next(c for c in SOC_CONFIGS if c[0] == tag)
    return source_hash(ARTY_SOURCES, "arty", engines, variant)


def xc7_key(tag):
    """The same for an engine alone on xc7."""
    _, name, variant, _, _ = next(c for c in ENGINE_CONFIGS if c[0] == tag)
    return source_hash(ENGINE_SOURCES, "xc7-engine", name, variant, XC7_ENGINE_DMA, ARTY_MAIN_RAM)


def arty_soc(tag, build=True):
    _, engines, variant = next(c for c in SOC_CONFIGS if c[0] == tag)
    d = os.path.join(OUT, f"arty-{tag}")
    key = arty_key(tag)
    res = cached(d, key)
    if res:
        log(f"Arty SoC {tag}: cached")
        res.setdefault("lc_est", xilinx_stat(os.path.join(d, "gateware", "xilinx.log"))["lc_est"])
        res.update(netlist_lut_sites(os.path.join(d, "gateware", NETLIST)))   # as lut_sites counts today
        return res
    if not build:
        return None
    log(f"Arty SoC {tag}: LiteX (Verilog and BIOS, no Vivado) + yosys synth_xilinx")
    os.makedirs(d, exist_ok=True)
    t = run([PY, "-c", ARTY_GENERATE, d, ",".join(engines), variant], TOP, os.path.join(d, "litex.log"))
    gw = os.path.join(d, "gateware")
    tcl = open(os.path.join(gw, "digilent_arty.tcl")).read()
    sources = [os.path.relpath(s, gw) for s in re.findall(r"read_verilog \{([^}]+)\}", tcl)]
    res = yosys_xilinx(gw, sources, "digilent_arty")
    soc_h = open(os.path.join(d, "software", "include", "generated", "soc.h")).read()
    l2 = re.search(r"#define CONFIG_L2_SIZE (\d+)", soc_h)
    res.update({"tag": tag, "engines": list(engines), "variant": variant,
                "rom_bytes": os.path.getsize(os.path.join(d, "software", "bios", "bios.bin")),
                "l2_bytes": int(l2.group(1)) if l2 else None, "litex_seconds": round(t)})
    return store(d, key, res)


# Modules kept apart for the logic-depth comparison (arty_depth), with their labels.
DEPTH_MODULES = {"VexRiscv": "VexRiscv (linux)", "sha256_engine": "SHA-256 engine (folded)",
                 "keccak_engine": "Keccak engine", "digilent_arty": "top (the rest of the SoC)"}


def ltp_paths(logfile):
    """{module: (length, [signals on the path])} from the yosys `ltp` reports in a log."""
    out, cur = {}, None
    for line in open(logfile, errors="replace"):
        m = re.match(r"Longest topological path in (\S+) \(length=(-?\d+)\)", line)
        if m:
            cur = m.group(1).lstrip("\\")
            out[cur] = (int(m.group(2)), [])
            continue
        m = re.match(r"\s+\d+: (\S+(?: \[\d+\])?)", line)
        if cur and m:
            out[cur][1].append(m.group(1))
        elif cur and not line.strip():
            cur = None
    return out


def arty_depth(build=True):
    """Logic depth inside VexRiscv, each engine and the rest of the Arty SoC with both engines:
    synth_xilinx with those modules kept apart, then yosys `ltp` over the logic cells (with and
    without CARRY4) of each. Uses arty_soc('both')'s Verilog."""
    d = os.path.join(OUT, "arty-both")
    key = arty_key("both")
    dd = os.path.join(OUT, "arty-depth")
    res = cached(dd, key)
    if res:
        log("Arty logic depth: cached")
        return res
    if not build or not is_current(os.path.join(d, ".stamp"), key, os.path.join(d, "gateware", "digilent_arty.tcl")):
        return None
    log("Arty logic depth: yosys synth_xilinx (modules kept) + ltp")
    gw = os.path.join(d, "gateware")
    tcl = open(os.path.join(gw, "digilent_arty.tcl")).read()
    sources = [os.path.relpath(s, gw) for s in re.findall(r"read_verilog \{([^}]+)\}", tcl)]
    with open(os.path.join(gw, "depth.ys"), "w") as f:
        for s in sources:
            f.write(f"read_verilog {s}\n")
        f.write("hierarchy -top digilent_arty\n")
        f.write(f"setattr -mod -set keep_hierarchy 1 {' '.join(m for m in DEPTH_MODULES if m != 'digilent_arty')}\n")
        f.write("synth_xilinx -family xc7 -flatten -top digilent_arty\n")
        f.write("stat -tech xilinx\n")
        f.write("ltp t:LUT* t:MUXF* t:CARRY4 w:*\n")      # w:*: ltp's nodes are the selected wires
        f.write("ltp t:LUT* t:MUXF* w:*\n")
    t = run([os.path.join(FPGA_BIN, "yosys"), "-q", "-l", "depth.log", "depth.ys"], gw, os.path.join(gw, "depth.out"))
    return store(dd, key, dict(depth_result(gw, dd), seconds=round(t)))


def depth_result(gw, dd):
    """arty_depth's figures from its yosys log (gw/depth.log); the ltp reports go to dd."""
    text = open(os.path.join(gw, "depth.log"), errors="replace").read()
    cut = text.rfind("Executing LTP pass")             # the second ltp: LUT and MUXF cells only
    os.makedirs(dd, exist_ok=True)
    with open(os.path.join(dd, "ltp-cells.txt"), "w") as f:
        f.write(text[text.rfind("Executing LTP pass", 0, cut):cut])
    with open(os.path.join(dd, "ltp-luts.txt"), "w") as f:
        f.write(text[cut:])
    cells, luts = ltp_paths(os.path.join(dd, "ltp-cells.txt")), ltp_paths(os.path.join(dd, "ltp-luts.txt"))

    stats = module_stats(os.path.join(gw, "depth.log"))
    mods = []
    for m, label in DEPTH_MODULES.items():
        n, path = luts.get(m, (None, []))
        nc, cpath = cells.get(m, (None, []))
        st = stats.get(m, {})
        # Where each path starts (a register or one of the module's inputs); its end is an
        # unnamed wire (a LUT output into a flip-flop).
        mods.append({"module": m, "label": label, "cells": nc, "luts": n,
                     "from": path[0].lstrip("\\")[:60] if path else "?",
                     "cells_from": cpath[0].lstrip("\\")[:60] if cpath else "?",
                     **{k: st.get(k) for k in ("lut", "ff", "carry", "bram")}})
    return {"modules": mods}


def arty_engine(tag, build=True):
    from gateware.engines import write_verilog
    _, name, variant, _, _ = next(c for c in ENGINE_CONFIGS if c[0] == tag)
    d = os.path.join(OUT, f"xc7-{tag}")
    key = xc7_key(tag)
    res = cached(d, key)
    if res:
        log(f"xc7 engine {tag}: cached")
        res.setdefault("lc_est", xilinx_stat(os.path.join(d, "xilinx.log"))["lc_est"])
        res.update(netlist_lut_sites(os.path.join(d, NETLIST)))
        return res
    if not build:
        return None
    log(f"xc7 engine {tag}: yosys synth_xilinx")
    os.makedirs(d, exist_ok=True)
    path, top = write_verilog(name, variant, os.path.join(OUT, "engines"), dma_window=ARTY_MAIN_RAM,
                              dma_bus=XC7_ENGINE_DMA)
    res = yosys_xilinx(d, [os.path.relpath(path, d)], top)
    res.update({"tag": tag, "engine": name, "variant": variant})
    return store(d, key, res)


# Rendering --------------------------------------------------------------------------------------

def mbps(block_bytes, mhz, clocks):
    """Throughput in Mbit/s (and MB/s) of block_bytes per `clocks` at mhz."""
    return block_bytes * 8 * mhz / clocks


FIGURE = re.compile(r"\{\{(\w+):([\w.+-]+)(?::([\w./]+))?(?::([^}]*))?\}\}")


def figure(data, section, tag, field=None, spec=None):
    """One figure of fpga.json, as the analysis quotes it: {{soc:both:fmax_mhz}} (a ULX3S SoC
    row), {{engine:keccak:lut}} (an ECP5 engine alone), {{seeds:3:fmax_mhz}} (a row of the
    five-seed table), {{before:3:fmax_mhz}} (that seed in the table it replaced), {{seeds:passing}} ("4 of 5"), {{seeds:range}} (the routed seeds' Fmax),
    {{before:passing}} and {{before:range}} (the same of the table it replaced),
    {{depth:VexRiscv:luts}} (the Arty netlist's LUT levels in a module), {{sha2:sha2-engine:lut}}
    (a row of the SHA-512 options, scripts/fpga/sha2_options.py), {{arty:both:lut}} (an
    Arty row), {{xc7:keccak:lut}} (an engine alone on xc7) and {{arty:both:lut_sites/XC7A35T}}
    (a share of a device, "72.5%");
    a dotted field reaches inside (critical.logic_ns), and a fourth part is a format spec."""
    if section in ("seeds", "before") and field is None:
        rows = data["ulx3s_seeds"]["rows"] if section == "seeds" else data["ulx3s_seeds"]["before"]["rows"]
        if tag == "passing":
            return f"{sum(r['pass'] for r in rows)} of {len(rows)}"
        if tag == "range":
            f = [r["fmax_mhz"] for r in rows if r["fmax_mhz"] is not None]
            return f"{min(f):.2f}-{max(f):.2f}"
        raise KeyError(f"{{{{{section}:{tag}}}}}")
    rows, key = {"soc": (data["ulx3s_soc"], "tag"), "engine": (data["ecp5_engines"], "tag"),
                 "seeds": (data.get("ulx3s_seeds", {}).get("rows", []), "seed"),
                 "before": (data.get("ulx3s_seeds", {}).get("before", {}).get("rows", []), "seed"),
                 "depth": (data.get("xc7_depth", {}).get("modules", []), "module"),
                 "arty": (data.get("arty_soc", []), "tag"), "xc7": (data.get("xc7_engines", []), "tag"),
                 "sha2": (data.get("sha2_options", {}).get("rows", []), "tag")}[section]
    row = next((r for r in rows if str(r[key]) == tag), None)
    if row is None or field is None:
        raise KeyError(f"fpga.json has no {section} row {tag!r}, or no field asked")
    if "/" in field:        # {{arty:both:lut_sites/XC7A35T}}: a share of a device, "72.5%"
        field, device = field.split("/")
        capacity = XC7_DEVICES[device][{"lut_sites": "lut", "lc_est": "lut"}.get(field, field)]
        return format(row[field] / capacity, spec or ".1%")
    v = row
    for part in field.split("."):
        v = v[part]
    if spec is None:
        spec = ".1f" if field.endswith("_mhz") and section not in ("seeds", "before") else ".2f" if isinstance(v, float) else \
            "," if isinstance(v, int) and not isinstance(v, bool) else ""
    return format(v, spec)


def fill(text, data):
    """The analysis (or a note) with its {{...}} figures read from fpga.json (figure()): prose
    that quotes a build cannot drift from it."""
    return FIGURE.sub(lambda m: figure(data, *m.groups()), text)


def render(data):
    soc = data["ulx3s_soc"]
    eng = data["ecp5_engines"]
    arty = data.get("arty_soc", [])
    xeng = data.get("xc7_engines", [])
    freq = data["target_mhz"]
    L = []
    L.append("# FPGA cost and speed\n")
    L.append(f"Made by `make fpga-report` (scripts/fpga/report.py) on {data['date']}; raw figures in "
             "[fpga.json](fpga.json). Tools: yosys {yosys} and nextpnr-ecp5 {nextpnr} (YoWASP), "
             "litex 2024.12, litex-boards 2023.12.\n".format(**data["tools"]))
    ulx3s_date = min((r.get("date", data["date"]) for r in soc + eng), default=data["date"])
    if ulx3s_date != data["date"]:
        dates = {what: min((r.get("date", data["date"]) for r in rows), default=data["date"])
                 for what, rows in (("ULX3S SoC", soc), ("ECP5 engine", eng))}
        old = [f"the {what} rows are from {d}" for what, d in dates.items() if d != data["date"]]
        L.append(f"This run ({data['date']}) rebuilt only some rows; {' and '.join(old)}, each row of "
                 "fpga.json has its date.\n")
    if ulx3s_date < "2026-11-23":
        L.append("The ULX3S SoC rows below were built with the memory path and the engine frontend of "
                 "that date (LiteX's write-back L2, the engines' DMA as Wishbone masters, the window "
                 "decoded combinationally) at a 50 MHz target. Since 2026-11-23 the ULX3S uses our "
                 "write-through L2, a LiteDRAM port per engine and a registered window, and runs at "
                 "60 MHz. Routed, both engines, seed 1, before -> after: 54.91 MHz (50 MHz target; "
                 "59.47 MHz at a 60 MHz target), 23,225 LUT, 9,815 FF -> **62.17 MHz**, 22,940 LUT, "
                 "9,908 FF (table, critical paths and seed spread: [boards.md](boards.md), "
                 "\"Timing status\"), until this report is rebuilt.\n")
    L.append("ECP5 figures are after place and route on the ULX3S's LFE5U-85F-6BG381C (nextpnr "
             f"seed {data['seed']}); *LUT* is nextpnr's TRELLIS_COMB count (LUT4s plus the two halves "
             "of each CCU2C carry cell, out of 83,640), *BRAM* DP16KD (18 kbit, of 208), *DSP* "
             "MULT18X18D (of 156). Fmax is nextpnr's estimate for sys_clk after routing; one seed, "
             "expect a few MHz of seed-to-seed spread.\n")
    # Rows from before the CPU was recorded were all built with VexRiscv `linux`. When rows of
    # two CPUs stand together (some rebuilt), the heading names the CPU of most and each
    # other row says its own.
    cpus = [r.get("cpu") or "linux" for r in soc]
    cpu = max(set(cpus), key=cpus.count) if cpus else "linux"
    L.append(f"## ULX3S SoC (VexRiscv {cpu}, SDRAM, UART, timer; sys_clk {freq:g} MHz)\n")
    cons = sorted({r.get("constraint_mhz") for r in soc if r.get("constraint_mhz")})
    if cons:
        L.append(f"nextpnr's sys_clk constraint: {', '.join(f'{c:.1f}' for c in cons)} MHz. *meets* compares "
                 f"the routed Fmax with the {freq:g} MHz the board runs at.\n")
    L.append(f"| engines | LUT | FF | BRAM | DSP | Fmax sys_clk (MHz) | meets {freq:g} MHz | yosys LUT4 + CCU2C |")
    L.append("|---|---:|---:|---:|---:|---:|---|---:|")
    names = {"none": "none", "sha256": "SHA-256 (folded)", "keccak": "Keccak",
             "both": "SHA-256 (folded) + Keccak", "both-basic": "SHA-256 (basic) + Keccak",
             "every": "SHA-256 (folded) + Keccak + SHA-512"}
    base = next((r for r in soc if r["tag"] == "none"), None)
    earlier = earlier_soc_rows(data)
    for r, c in zip(soc, cpus):
        other = f" (VexRiscv `{c}`)" if c != cpu else ""
        other += " *" if r["tag"] in earlier else ""
        L.append(f"| {names[r['tag']]}{other} | {r['lut']:,} | {r['ff']:,} | {r['bram']} | {r['dsp']} | "
                 f"{r['fmax_mhz']:.1f} | {'yes' if r['pass'] else '**no**'} | "
                 f"{r['yosys_lut4']:,} + {r['yosys_ccu2c']:,} |")
    L.append("")
    if earlier:
        L.append(f"\\* Made from earlier sources than the tree's ({', '.join(sorted({r['date'] for r in soc if r['tag'] in earlier}))}): "
                 "a change to the gateware, the SoC or the board script since re-places the SoC, so the "
                 "row is of that netlist. `make fpga-report FPGA_REPORT_ARGS=--soc=TAG` remakes a row.\n")
    if base:
        L.append("")
        L.append("Cost of each engine inside the SoC (difference from the SoC without engines): " + "; ".join(
            f"{names[r['tag']]}: +{r['lut'] - base['lut']:,} LUT, +{r['ff'] - base['ff']:,} FF"
            for r in soc if r["tag"] != "none") + ".\n")
    for name in sorted(k for k in data if k.startswith(SEEDS_SECTION)):    # the default's first
        L.append(render_seeds(data[name]))
    L.append("## Each engine alone on ECP5 (LFE5U-85F, out of context)\n")
    L.append("The engine as the SoC instantiates it (core + frontend: registers, data window, DMA "
             "master), synthesized with `synth_ecp5` and placed and routed with `nextpnr-ecp5 "
             "--out-of-context` (no I/O buffers; reg-to-reg Fmax).\n")
    L.append("| engine | LUT | FF | BRAM | DSP | Fmax (MHz) | clocks/block | block | throughput at Fmax | at SoC sys_clk |")
    L.append("|---|---:|---:|---:|---:|---:|---:|---|---:|---:|")
    for r in eng:
        spec = next(c for c in ENGINE_CONFIGS if c[0] == r["tag"])
        clocks, blocks = spec[3], spec[4]
        for i, (label, nb) in enumerate(blocks.items()):
            t_f = mbps(nb, r["fmax_mhz"], clocks)
            t_s = mbps(nb, min(freq, r["fmax_mhz"]), clocks)
            head = (f"| {r['tag']} | {r['lut']:,} | {r['ff']:,} | {r['bram']} | {r['dsp']} | {r['fmax_mhz']:.1f} | {clocks} "
                    if i == 0 else "| | | | | | | ")
            L.append(head + f"| {label} {nb} B | {t_f:,.0f} Mbit/s ({t_f / 8:,.1f} MB/s) | {t_s:,.0f} Mbit/s |")
    L.append("")
    if data.get("sha2_options"):
        L.append(render_sha2_options(data["sha2_options"], eng))
    L.append("## Beside seed 003 and a public anchor\n")
    L.append("| design | technology | clocks/block | Fmax (MHz) | area | throughput (Mbit/s) |")
    L.append("|---|---|---:|---:|---|---:|")
    for name, mhz, area, tp, clk in SEED003:
        L.append(f"| seed 003 Table I: {name} | TSMC 0.18 um ASIC | {clk} | {mhz:.2f} | {area:,} um^2 | "
                 f"{tp:,.2f} as printed ({mbps(64, mhz, clk):,.0f} by 512 bit x f / clocks) |")
    s = SECWORKS
    L.append(f"| {s['name']} (its README) | {s['fpga']} | {s['clocks']} | {s['mhz']:.0f} | ~{s['luts']:,} LUT6 | "
             f"{mbps(64, s['mhz'], s['clocks']):,.0f} |")
    for r in eng:
        if r["engine"] != "sha256":
            continue
        xr = next((x for x in xeng if x["tag"] == r["tag"]), None)
        xl = f"; Artix-7 est. {xr['lut']:,} LUT6" if xr else ""
        clocks = hashspec.variant("sha256", r["variant"]).clocks
        L.append(f"| HashSoC sha256 engine, {r['variant']} | ECP5-85F speed 6 | {clocks} | {r['fmax_mhz']:.1f} | "
                 f"{r['lut']:,} LUT4{xl} | {mbps(64, r['fmax_mhz'], clocks):,.0f} |")
    L.append("")
    L.append("Seed 003's printed throughputs are exactly half of 512 bit x Fmax / clocks per block "
             "(326.80 MHz x 512 / 65 = 2,574 Mbit/s, printed 1,287.08), for all three rows; we compute ours "
             "by that formula, without the factor of 2. Its figures are for an ASIC library and are not "
             "comparable to FPGA Fmax in absolute terms; the ratios are (folded/basic: +9.3% Fmax, "
             "+10.2% area there).\n")
    # SHA-256 variants
    fv = {r["variant"]: r for r in eng if r["engine"] == "sha256"}
    sv = {r["variant"]: r for r in soc if r["tag"] in ("both", "both-basic")}
    if "folded" in fv and "basic" in fv:
        f, b = fv["folded"], fv["basic"]
        cf, cb = (hashspec.variant("sha256", v).clocks for v in ("folded", "basic"))
        tf, tb = mbps(64, f["fmax_mhz"], cf), mbps(64, b["fmax_mhz"], cb)
        L.append("## SHA-256 variants (seed 003's first technique on ECP5)\n")
        L.append("| variant | clocks/block | LUT | FF | Fmax alone (MHz) | throughput at Fmax (Mbit/s) | "
                 "SoC sys_clk Fmax with it (MHz) | throughput at the SoC's clock (Mbit/s) |")
        L.append("|---|---:|---:|---:|---:|---:|---:|---:|")
        for name, r, clk, t in (("basic", b, cb, tb), ("folded", f, cf, tf)):
            s_ = sv.get(name)
            L.append(f"| {name} | {clk} | {r['lut']:,} | {r['ff']:,} | {r['fmax_mhz']:.1f} | {t:,.0f} | "
                     f"{s_['fmax_mhz']:.1f} | {mbps(64, min(freq, r['fmax_mhz']), clk):,.0f} |" if s_ else
                     f"| {name} | {clk} | {r['lut']:,} | {r['ff']:,} | {r['fmax_mhz']:.1f} | {t:,.0f} | - | "
                     f"{mbps(64, min(freq, r['fmax_mhz']), clk):,.0f} |")
        L.append("")
        L.append(data.get("variant_note", ""))
        L.append("")
    # Critical paths
    rows = [(f"SoC, {names[r['tag']]}", r) for r in soc] + [(f"engine {r['tag']} alone", r) for r in eng]
    rows = [(n, r) for n, r in rows if r.get("critical")]
    if rows:
        L.append("## Critical paths (nextpnr, after routing)\n")
        L.append("| design | Fmax (MHz) | from | to | cells on path | logic + routing (ns) |")
        L.append("|---|---:|---|---|---:|---|")
        for n, r in rows:
            c = r["critical"]
            L.append(f"| {n} | {r['fmax_mhz']:.1f} | `{c['from']}` | `{c['to']}` | {c['levels']} | "
                     f"{c['logic_ns']:.2f} + {c['routing_ns']:.2f} |")
        L.append("")
    if data.get("analysis"):
        L.append("## What the figures say\n")
        L.extend(fill(a, data) for a in data["analysis"])
        L.append("")
    if arty or xeng:
        L.extend(render_arty(data, names))
    if data.get("notes"):
        L.append("## Notes\n")
        L.extend(f"- {fill(n, data)}" for n in data["notes"])
        L.append("")
    L.append("![resources and Fmax](fpga_soc.png)\n")
    L.append("![engine throughput](fpga_engines.png)\n")
    return "\n".join(L)


def pct(n, cap):
    return f"{100 * n / cap:.0f}%"


def lc_sides(arty):
    """How many SoC rows have yosys's LC estimate above their packed LUT sites, and how many below,
    when there are both."""
    rows = [r for r in arty if r.get("lut_sites") and r.get("lc_est")]
    above = [r for r in rows if r["lc_est"] > r["lut_sites"]]
    below = [r for r in rows if r["lc_est"] < r["lut_sites"]]
    if not (above and below):
        return ""
    return f" (above the packed figure in {len(above)} of the SoC rows here, below it in {len(below)})"


def made_apart(data, rows):
    """The seeds whose builds are older than the table (seeds.py --keep: the same sources, by
    the key), e.g. " (seeds 1, 3: commit a2828f1 on 2026-11-30)"."""
    by = {}
    for r in rows:
        when = (r.get("commit", data["commit"]), r.get("date", data["date"]))
        if when != (data["commit"], data["date"]):
            by.setdefault(when, []).append(str(r["seed"]))
    if not by:
        return ""
    parts = [f"seed{'s' if len(s) > 1 else ''} {', '.join(s)}: commit {c} on {d}" for (c, d), s in sorted(by.items())]
    return f" ({'; '.join(parts)}, of the same sources)"


def render_seeds(data):
    """The table of the ULX3S over placement seeds (scripts/fpga/seeds.py: fpga.json's ulx3s_seeds)."""
    rows = sorted(data["rows"], key=lambda r: r["seed"])
    want = data["target_mhz"]
    routed = [r for r in rows if r["fmax_mhz"] is not None]
    default = data.get("default", True)
    L = [f"## ULX3S {'' if default else 'with ' + ', '.join(data['engines']) + ' '}over five placement seeds "
         f"({want:g} MHz)\n",
         f"sys_clk Fmax after routing at each nextpnr seed, the ULX3S's "
         f"{'default build' if default else 'build with another engine set than its default'} "
         f"({', '.join(data['engines'])}; VexRiscv `{data.get('cpu', 'linux')}`; {data['device']}; placer timing weight "
         f"{data.get('timing_weight', 10)}; router1"
         f"{' with --tmg-ripup' if data.get('tmg_ripup') else ''}), made by `make ulx3s-seeds"
         f"{'' if default else ' SEEDS_ARGS=--engines=' + ','.join(data['engines'])}` "
         f"(scripts/fpga/seeds.py) from commit {data['commit']} on {data['date']}{made_apart(data, rows)}. "
         + (f"CI builds seed {data['ci_seed']}. " if default else "") + "Any change to the gateware or the ROM places the SoC anew, so the "
         "table is of that commit until it is made again. *router1* is nextpnr's routing time "
         "(wall seconds, two builds at a time on this 2-core VM).", "",
         f"| seed | Fmax | at {want:g} MHz | LUT | FF | critical path (from -> to) | logic / routing | router1 |"
         + (f" before ({data['before']['commit']}) |" if data.get("before") else ""),
         "|---:|---:|---|---:|---:|---|---:|---:|" + ("---:|" if data.get("before") else "")]
    was = {r["seed"]: r for r in data.get("before", {}).get("rows", [])}

    def then(seed):
        """The seed's Fmax in the table this one replaced."""
        if not data.get("before"):
            return ""
        r = was.get(seed)
        if not r or r["fmax_mhz"] is None:
            return " not routed |" if r else " - |"
        return f" {r['fmax_mhz']:.2f} MHz{'' if r['pass'] else ' (FAIL)'} |"
    for r in rows:
        if r["fmax_mhz"] is None:
            s = r["stopped"]
            L.append(f"| {r['seed']} | - | **not routed**: stopped after {s['router_seconds']:,} s of router1, "
                     f"{s['arcs_left']:,} of {s['arcs']:,} arcs left after {s['router_iterations']:,} iterations "
                     f"(the last 1,000 took {s['last_1000_iterations_s']:.0f} s"
                     + (f"; arcs left after each 10 min: "
                        f"{', '.join(format(n, ',') for _, n in s['arcs_left_every_600_s'])}"
                        if s.get("arcs_left_every_600_s") else "") + "); "
                     f"{s['placed_estimate_mhz']:.2f} MHz estimated after placement | | | | | "
                     f"> {s['router_seconds']:,} s |" + then(r["seed"]))
            continue
        c = r["critical"] or {}
        L.append(f"| {r['seed']} | {r['fmax_mhz']:.2f} MHz | {'PASS' if r['pass'] else '**FAIL**'} "
                 f"({(r['fmax_mhz'] / want - 1):+.1%}) | {r['lut']:,} | {r['ff']:,} | "
                 f"`{c.get('from', '?')}` -> `{c.get('to', '?')}` | "
                 f"{c.get('logic_ns', 0):.2f} / {c.get('routing_ns', 0):.2f} ns | "
                 f"{'-' if r.get('router_seconds') is None else format(r['router_seconds'], ',') + ' s'} |"
                 + then(r["seed"]))
    ok = [r for r in rows if r["pass"]]
    L += ["", f"**{len(ok)} of {len(rows)} seeds** meet {want:g} MHz"]
    if routed:
        lo, hi = min(r["fmax_mhz"] for r in routed), max(r["fmax_mhz"] for r in routed)
        L[-1] += f"; the routed ones span {lo:.2f}-{hi:.2f} MHz"
    L[-1] += "."
    if data.get("before"):
        b = data["before"]
        ok = [r for r in b["rows"] if r["pass"]]
        other = b.get("engines") and b["engines"] != data["engines"]
        L[-1] += (f" Before, the table of commit {b['commit']} ({b['date']}, VexRiscv `{b.get('cpu') or 'linux'}`"
                  + (f", engines {', '.join(b['engines'])}" if other else "") + f"): {len(ok)} of {len(b['rows'])}.")
    return "\n".join(L) + "\n"


def render_sha2_options(data, eng):
    """Issue 33's two ways to the SHA-512 family (scripts/fpga/sha2_options.py: fpga.json's
    sha2_options) beside the shipped engines' rows (`eng`, HMAC included)."""
    rows = {r["tag"]: r for r in data["rows"]}
    seeds = data["seeds"]
    shipped = {r["engine"]: r for r in eng if r.get("variant") == "folded"}
    L = ["## SHA-512: its own engine or a widened SHA-2 engine (issue 33)\n",
         "The SoC's SHA-512 family is an engine of its own beside the SHA-256 engine. The other "
         "way is one widened SHA-2 engine, SHA-256/224 and the SHA-512 family on one 64-bit "
         "datapath (gateware/sha2/core.py, family `sha2`; tests/test_sha2_wide.py). Each row is "
         f"one module alone on the LFE5U-85F, out of context ({data['target_mhz']:g} MHz asked), at "
         f"placement seeds {', '.join(map(str, seeds))}: Fmax is the lowest of them, each seed's "
         "after it. Made by `make fpga-sha2-options` "
         f"(scripts/fpga/sha2_options.py) from commit {data['commit']} on {data['date']}. "
         "The engines are the frontend (registers, data window, descriptor walker, DMA) around "
         "the core, without HMAC: the widened core has no HMAC wrapper yet. *Both* is the sum "
         "of the two separate modules' cells, at each seed the slower one's Fmax. Clocks per "
         "block are the same either way (tests/test_sha2_wide.py).\n",
         f"| module | SHA-256 / SHA-224 | SHA-512 family | LUT | FF | Fmax (MHz), seeds {'/'.join(map(str, seeds))} "
         "| critical path at the lowest (from -> to) |",
         "|---|---|---|---:|---:|---|---|"]

    def line(name, r, c256, c512):
        c = r.get("critical") or {}
        path = f"`{c['from']}` -> `{c['to']}`" if c else ""
        each = " / ".join(f"{r['fmax_by_seed'][str(s)]:.1f}" for s in seeds)
        L.append(f"| {name} | {c256} | {c512} | {r['lut']:,} | {r['ff']:,} | **{r['fmax_mhz']:.1f}** ({each}) | "
                 f"{path} |")

    for what in ("core", "engine"):
        a, b, both, wide = (rows.get(f"{f}-{what}") for f in ("sha256", "sha512", "separate", "sha2"))
        if not (a and b and both and wide):
            continue
        line(f"SHA-256 {what}", a, "64 clk/block", "-")
        line(f"SHA-512 {what}", b, "-", "80 clk/block")
        line(f"both {what}s (separate)", both, "64", "80")
        line(f"**widened {what}**", wide, "64", "80")
    a, b, wide = (rows.get(f"{f}-engine") for f in ("sha256", "sha512", "sha2"))
    if a and b and wide and "sha256" in shipped and "sha512" in shipped:
        h256 = shipped["sha256"]["lut"] - a["lut"]
        h512 = shipped["sha512"]["lut"] - b["lut"]
        sep = shipped["sha256"]["lut"] + shipped["sha512"]["lut"]
        L += ["", f"With HMAC: the shipped engines (\"Each engine alone\" above) are the engines here plus "
              f"their HMAC wrappers, +{h256:,} LUT (SHA-256) and +{h512:,} LUT (SHA-512); the two shipped "
              f"engines take {sep:,} LUT. A widened engine with HMAC would carry one wrapper of the "
              f"SHA-512 family's block: about {wide['lut'] + h512:,} LUT (the widened engine here plus the "
              "SHA-512 wrapper's cost; an estimate, not a build)."]
    return "\n".join(L) + "\n"


def render_arty(data, names):
    """The Arty section: each row's counts and their share of the 35T's and the 100T's."""
    arty = data.get("arty_soc", [])
    xeng = data.get("xc7_engines", [])
    a35, a100 = XC7_DEVICES["XC7A35T"], XC7_DEVICES["XC7A100T"]
    dates = sorted({r["date"] for r in arty + xeng if r.get("date")})
    L = ["## Arty A7 (XC7A35T and XC7A100T): yosys estimates (no Vivado here)\n"]
    soc = ""
    if arty:
        r = next((r for r in arty if r["tag"] == "both"), arty[0])
        l2 = f"{r['l2_bytes'] // 1024} KiB write-through L2, " if r.get("l2_bytes") else ""
        rom = (f"; its ROM holds the configuration's own BIOS, block RAM sized to it ({r['rom_bytes']:,} bytes "
               f"with {names[r['tag']]})") if r.get("rom_bytes") else ""
        soc = (f"The SoC is boards/arty.py's as `make arty` generates it ({l2}a 128-bit LiteDRAM port per "
               f"engine, DDR3 PHY, 1 Mbaud UART){rom}. ")
    L.append(f"`yosys synth_xilinx -family xc7 -flatten` cell counts, made {' and '.join(dates) or '?'}. {soc}"
             "The 35T and the 100T Arty get the same netlist (boards/arty.py's variant only picks the part), so "
             "one synthesis is given against both devices' capacities: each cell says *count (% of XC7A35T / % of "
             "XC7A100T)*. *LUT cells* = LUT1..LUT6 cells, FF = FD*E, BRAM = RAMB36E1 + RAMB18E1/2, DSP = DSP48E1.\n")
    no_netlist = (" The engines alone were made before report.py kept the netlist: no packed figure (-) until "
                  "they are remade." if any(not r.get("lut_sites") for r in xeng) else "")
    L.append("A device's LUTs (Vivado's *Slice LUTs*) are LUT6 sites, and a site holds two functions (LUT6_2: O5 "
             "and O6) when their inputs together are at most five nets, so LUT cells overstate what a design takes. "
             "*LUT sites (packed est.)* counts sites from the netlist (report.py's `lut_sites`): each LUT6 takes one; "
             "two LUT1..LUT5 share one when they share at least one input net (the rule Vivado's LUT combining "
             "follows: it only combines LUTs with shared inputs) and their inputs together are at most five nets "
             "(constants left out), paired greedily, the pairs that share the most nets first; the rest take one "
             "each; an INV cell counts as a LUT1 (most drive carry-chain inputs), a LUTRAM cell as the sites it "
             f"fills (a RAM32M four).{no_netlist} *yosys LC est.* is `stat -tech xilinx`'s figure: each LUT3..LUT6 "
             "a site, the LUT1s and LUT2s put beside them or two to a site, by size alone, without looking at "
             "inputs, and never two LUT3..LUT5s together; it leaves INV and LUTRAM cells out, and is no bound "
             f"either way{lc_sides(arty)}. All three count yosys's mapping: Vivado synthesizes the Verilog "
             "itself.\n")
    both = next((r for r in arty if r["tag"] == "both"), None)
    figures = ""
    if both and both.get("lut_sites") and both.get("lc_est"):
        figures = (f"With both engines: {both['lut']:,} LUT cells ({both['lut'] / a35['lut']:.1%} of the XC7A35T's "
                   f"{a35['lut']:,}), {both['lut_sites']:,} packed LUT sites ({both['lut_sites'] / a35['lut']:.1%}), "
                   f"{both['lc_est']:,} by yosys's estimate ({both['lc_est'] / a35['lut']:.1%}). ")
    L.append(f"{figures}`make test` (tests/test_boards.py) checks the SoC with both engines' packed sites against "
             f"{ARTY_LUT_BUDGET:.0%} of the 35T's LUTs: they are what the device's LUTs count, and the margin is for "
             "what the estimate cannot see (Vivado's own mapping, and a fuller device places and routes worse, "
             "above all at 100 MHz). It also checks that its LUT cells, unpaired, fit the 35T at all (100%), a "
             "check that leans on no packing model, and that its block RAMs and DSPs do; and it fails when these "
             "rows were made from other sources than the tree's: `make fpga-report FPGA_REPORT_ARGS=--soc=` "
             "remakes them (~2.5 min a configuration, 3 min the logic depth; the ULX3S rows above are kept). No "
             "timing estimate is possible without Vivado.\n")
    L.append("| design | LUT cells | LUT sites (packed est.) | yosys LC est. | FF | BRAM (36k) | DSP | LUTRAM cells | "
             "CARRY4 |")
    L.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    L.append(f"| *capacity: XC7A35T / XC7A100T* | {a35['lut']:,} / {a100['lut']:,} | | | {a35['ff']:,} / "
             f"{a100['ff']:,} | {a35['bram']} / {a100['bram']} | {a35['dsp']} / {a100['dsp']} | | |")

    def share(n, dev):
        return f"{n:,} ({pct(n, a35[dev])} / {pct(n, a100[dev])})" if n else "-"

    def row(label, r):
        return (f"| {label} | {share(r['lut'], 'lut')} | {share(r.get('lut_sites'), 'lut')} | "
                f"{share(r.get('lc_est'), 'lut')} | {share(r['ff'], 'ff')} | "
                f"{r['bram']:g} ({pct(r['bram'], a35['bram'])} / {pct(r['bram'], a100['bram'])}) | "
                f"{r['dsp']} ({pct(r['dsp'], a35['dsp'])} / {pct(r['dsp'], a100['dsp'])}) | {r['lutram']} | {r['carry']} |")
    for r in arty:
        L.append(row(f"SoC, {names[r['tag']]}", r))
    for r in xeng:
        L.append(row(f"engine {r['tag']} alone", r))
    L.append("")
    base = next((r for r in arty if r["tag"] == "none"), None)
    if base and len(arty) > 1:
        L.append("Cost of each engine inside the Arty SoC (difference from the SoC without engines): " + "; ".join(
            f"{names[r['tag']]}: +{r['lut'] - base['lut']:,} LUT cells"
            + (f" (+{r['lut_sites'] - base['lut_sites']:,} sites)" if r.get("lut_sites") and base.get("lut_sites") else "")
            + f", +{r['ff'] - base['ff']:,} FF, "
            f"{r['bram'] - base['bram']:+g} BRAM" for r in arty if r["tag"] != "none") + ". "
                 "The engines alone are each engine as the Arty's SoC instantiates it (core and frontend, its DMA "
                 "a stream to the LiteDRAM port); the port's 128-bit adapter and FIFO are in the SoC rows only.\n")
    depth = data.get("xc7_depth")
    if depth:
        L.append("### Logic depth in the Arty SoC (yosys `ltp`)\n")
        L.append(f"The SoC with both engines synthesized with VexRiscv and each engine kept as its own module "
                 f"(made {depth['date']}; LUT and FF are then each module's own). For each, yosys `ltp` gives "
                 "the longest chain of logic cells between registers, over LUT and MUXF7/8 cells (*LUT levels*: "
                 "a carry chain ends a path) and over LUT, MUXF and CARRY4 cells (*with carry*: a 32-bit add is 8 "
                 "CARRY4s in a row, each much faster than a LUT and its route). Block RAMs, DSPs and flip-flops "
                 "end a path; so does a module's boundary, so a path that runs CPU -> bus -> engine window is "
                 "counted in pieces. *top* is all the rest: bus, L2, LiteDRAM, DDR3 PHY, the engines' CSRs and "
                 "LiteDRAM ports, the measurement register (its core too: yosys flattens it). A count of "
                 "levels, not a delay: no routing, no fan-out.\n")
        L.append("| module | LUT | FF | LUT levels | from | with carry | from |")
        L.append("|---|---:|---:|---:|---|---:|---|")
        for m in depth["modules"]:
            L.append(f"| {m['label']} | {m['lut']:,} | {m['ff']:,} | {m['luts']} | `{m['from']}` | {m['cells']} | "
                     f"`{m['cells_from']}` |")
        L.append("")
    return L


def plot(data):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    soc = data["ulx3s_soc"]
    fig, ax1 = plt.subplots(figsize=(8, 4.2))
    labels = [r["tag"] for r in soc]
    ax1.bar(labels, [r["lut"] for r in soc], color="#4477aa", label="LUT (TRELLIS_COMB)")
    ax1.bar(labels, [r["ff"] for r in soc], color="#aaccee", width=0.4, label="FF")
    ax1.set_ylabel("cells (LFE5U-85F)")
    ax2 = ax1.twinx()
    ax2.plot(labels, [r["fmax_mhz"] for r in soc], "o-", color="#cc3311", label="sys_clk Fmax")
    ax2.axhline(data["target_mhz"], color="#cc3311", ls=":", lw=1)
    ax2.set_ylabel("Fmax (MHz)")
    ax2.set_ylim(0, max(r["fmax_mhz"] for r in soc) * 1.3)
    h1, l1 = ax1.get_legend_handles_labels()
    h2, l2 = ax2.get_legend_handles_labels()
    ax1.legend(h1 + h2, l1 + l2, loc="upper left", fontsize=8)
    ax1.set_title(f"HashSoC on ULX3S (ECP5-85F): cost and Fmax by engines (target {data['target_mhz']:g} MHz)")
    fig.tight_layout()
    fig.savefig(os.path.join(DOCS, "fpga_soc.png"), dpi=110)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(8, 4.2))
    bars, vals, colors = [], [], []
    for r in data["ecp5_engines"]:
        spec = next(c for c in ENGINE_CONFIGS if c[0] == r["tag"])
        label, nb = next(iter(spec[4].items()))
        bars.append(f"{r['tag']}\n({label})")
        vals.append(mbps(nb, r["fmax_mhz"], spec[3]))
        colors.append("#228833")
    s = SECWORKS
    bars.append("secworks sha256\n(Artix-7, README)")
    vals.append(mbps(64, s["mhz"], s["clocks"]))
    colors.append("#bbbbbb")
    ax.bar(bars, vals, color=colors)
    for i, v in enumerate(vals):
        ax.text(i, v, f"{v:,.0f}", ha="center", va="bottom", fontsize=8)
    ax.set_ylabel("Mbit/s at Fmax")
    ax.set_title("Engine throughput alone (ECP5-85F, nextpnr Fmax) = block bytes x Fmax / clocks")
    fig.tight_layout()
    fig.savefig(os.path.join(DOCS, "fpga_engines.png"), dpi=110)
    plt.close(fig)


def tool_versions():
    def first(cmd):
        try:
            out = subprocess.run(cmd, capture_output=True, text=True, timeout=300).stdout + ""
            return out.strip().splitlines()[0] if out.strip() else "?"
        except Exception:
            return "?"
    y = first([os.path.join(FPGA_BIN, "yosys"), "-V"])
    m = re.search(r"Yosys (\S+)", y)
    n = subprocess.run([os.path.join(FPGA_BIN, "nextpnr-ecp5"), "--version"], capture_output=True, text=True).stderr
    mn = re.search(r"nextpnr-(\S+)\)", n)
    return {"yosys": m.group(1) if m else y, "nextpnr": mn.group(1) if mn else "?"}


def variant_note(data):
    eng = {r["tag"]: r for r in data["ecp5_engines"]}
    soc = {r["tag"]: r for r in data["ulx3s_soc"]}
    f, b = eng.get("sha256-folded"), eng.get("sha256-basic")
    if not (f and b):
        return ""
    tf, tb = mbps(64, f["fmax_mhz"], 64), mbps(64, b["fmax_mhz"], 65)
    freq = data["target_mhz"]
    lim = min(f["fmax_mhz"], b["fmax_mhz"])
    txt = (f"Alone, the folded core reaches {f['fmax_mhz']:.1f} MHz against {b['fmax_mhz']:.1f} MHz for the basic one "
           f"({(f['fmax_mhz'] / b['fmax_mhz'] - 1) * 100:+.1f}%), i.e. {tf:,.0f} vs {tb:,.0f} Mbit/s "
           f"({(tf / tb - 1) * 100:+.1f}%), for {f['lut'] - b['lut']:+,} LUT. ")
    if lim > freq:
        txt += (f"Both are faster than the SoC's {freq:g} MHz sys_clk, which the CPU and its buses limit; "
                f"inside the SoC the engine runs at sys_clk, where folding is a pure 65/64 = +1.6% "
                f"throughput gain (one clock per block).")
    sf, sb = soc.get("both"), soc.get("both-basic")
    if sf and sb:
        txt += (f" The SoC's sys_clk Fmax is {sf['fmax_mhz']:.1f} MHz with the folded core and "
                f"{sb['fmax_mhz']:.1f} MHz with the basic one (same seed).")
    return txt


def tags(text, all_tags):
    if text in (None, "all"):
        return list(all_tags)
    return [t for t in text.split(",") if t and t != "none-of-them"]


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sys-clk-freq", type=float, default=None, help="ULX3S sys_clk target (default: boards.ulx3s)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--engine-freq", type=float, default=100.0, help="nextpnr target (MHz) for engines alone")
    soc_tags = [c[0] for c in SOC_CONFIGS]
    p.add_argument("--soc", default="all", help=f"ULX3S SoC configurations to build when not cached "
                   f"(comma list of {','.join(soc_tags)}, and 'engines' for the engines alone on ECP5; "
                   f"'' for none); cached ones are always reported, the others kept from docs/fpga.json")
    p.add_argument("--arty", default="all", help="the same for the Arty yosys estimates (SoC configs but "
                   "both-basic, and 'engines'; the logic depth comes with 'both')")
    p.add_argument("--reuse", action="append", default=[], metavar="TAG=DIR",
                   help="take an existing boards.ulx3s build (e.g. both=build/ulx3s from make ulx3s-ci)")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                   help="ULX3S SoC builds run at once (default: one per CPU; each takes one core and ~1 GB)")
    p.add_argument("--only-render", action="store_true", help="re-render docs from docs/fpga.json")
    p.add_argument("--note", action="append", default=[], help="extra note for the report")
    p.add_argument("--analysis", default=os.path.join(TOP, "scripts", "fpga", "analysis.md"),
                   help="hand-written analysis (markdown) included in docs/fpga.md")
    args = p.parse_args()
    os.makedirs(DOCS, exist_ok=True)
    jpath = os.path.join(DOCS, "fpga.json")
    replot = False
    if args.only_render:
        data = json.load(open(jpath))
    else:
        use_fpga_tools()
        from boards.ulx3s import DEFAULT_SYS_CLK
        freq = args.sys_clk_freq or DEFAULT_SYS_CLK
        data = {"date": time.strftime("%Y-%m-%d"), "target_mhz": freq / 1e6, "seed": args.seed,
                "tools": tool_versions(), "ulx3s_soc": [], "ecp5_engines": [], "arty_soc": [],
                "xc7_engines": [], "notes": args.note}
        old = json.load(open(jpath)) if os.path.exists(jpath) else {}
        data["notes"] = args.note or old.get("notes", [])
        carried = []

        def keep(section, tag, result):
            """`result`, or when it was neither cached nor built, the row docs/fpga.json has."""
            if result:
                return result
            row = next((r for r in old.get(section, []) if r["tag"] == tag), None)
            if row:
                row = dict(row, date=row.get("date", old.get("date")))
                carried.append(section)
                log(f"{section} {tag}: not rebuilt, kept from docs/fpga.json ({row['date']})")
            return row

        want_soc = tags(args.soc, soc_tags + ["engines"])
        for tag, name, variant, _, _ in ENGINE_CONFIGS:
            data["ecp5_engines"].append(keep("ecp5_engines", tag, ecp5_engine(
                tag, name, variant, args.engine_freq, args.seed, build="engines" in want_soc)))
        reuse = dict(r.split("=", 1) for r in args.reuse)
        bios = find_bios()

        def soc_result(config):
            tag, engines, variant = config
            if tag in reuse:
                return ulx3s_reuse(tag, engines, variant, freq, args.seed, os.path.abspath(reuse[tag]))
            return keep("ulx3s_soc", tag, ulx3s_soc(tag, engines, variant, freq, args.seed, bios,
                                                    build=tag in want_soc))
        # Each SoC build is one single-threaded yosys/nextpnr process: --jobs of them at once.
        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            data["ulx3s_soc"] = [r for r in pool.map(soc_result, SOC_CONFIGS) if r]
        data["ecp5_engines"] = [r for r in data["ecp5_engines"] if r]
        # The ULX3S rows' own target and seed, when they are the recorded ones.
        ulx3s_rows = data["ulx3s_soc"] + data["ecp5_engines"]
        if ulx3s_rows and "ulx3s_soc" in carried and {r.get("target_mhz") for r in data["ulx3s_soc"]} \
                == {old.get("target_mhz")}:
            data["target_mhz"], data["seed"] = old["target_mhz"], old.get("seed", args.seed)
        want_arty = tags(args.arty, list(ARTY_TAGS) + ["engines"])
        for tag, _, _, _, _ in ENGINE_CONFIGS:
            r = keep("xc7_engines", tag, arty_engine(tag, build="engines" in want_arty))
            if r:
                data["xc7_engines"].append(r)
        for tag in ARTY_TAGS:
            r = keep("arty_soc", tag, arty_soc(tag, build=tag in want_arty))
            if r:
                data["arty_soc"].append(r)
        # The logic depth comes with the 'both' row (from its Verilog).
        data["xc7_depth"] = arty_depth(build="both" in want_arty) or old.get("xc7_depth")
        if data["xc7_depth"] is None:
            del data["xc7_depth"]
        replot = len([r for r in ulx3s_rows if r]) > carried.count("ulx3s_soc") + carried.count("ecp5_engines")
        data["variant_note"] = variant_note(data)
        # The other scripts' sections, read now, not at the start: seeds.py or sha2_options.py
        # may have written theirs while these builds ran (an hour or more).
        now = json.load(open(jpath)) if os.path.exists(jpath) else {}
        data.update({k: v for k, v in now.items() if v and kept(k)})
        json.dump(data, open(jpath, "w"), indent=1)
    if os.path.exists(args.analysis):
        data["analysis"] = [open(args.analysis).read().strip()]
        json.dump(data, open(jpath, "w"), indent=1)
    write_md(data)
    if data["ulx3s_soc"] and (args.only_render or replot):
        plot(data)
    log("wrote docs/fpga.md, docs/fpga.json" + (", docs/fpga_soc.png, docs/fpga_engines.png"
                                                 if data["ulx3s_soc"] and (args.only_render or replot) else ""))
    return 0


# fpga.json's sections other scripts write, which this one keeps: scripts/fpga/seeds.py's
# five-seed tables (SEEDS_SECTION, and SEEDS_SECTION_<engines> for another engine set), the
# record of a nextpnr option tried (docs/boards.md), and scripts/fpga/sha2_options.py's table.
SEEDS_SECTION = "ulx3s_seeds"
OTHER_SECTIONS = ("ulx3s_placer_trial", "sha2_options")


def kept(name):
    """Whether fpga.json's section `name` is another script's, which this one keeps."""
    return name in OTHER_SECTIONS or name.startswith(SEEDS_SECTION)


def write_md(data):
    """docs/fpga.md from fpga.json's data (its rows in the tables' order)."""
    order = {t: i for i, t in enumerate(SOC_ORDER)}
    data["ulx3s_soc"].sort(key=lambda r: order[r["tag"]])
    data["arty_soc"].sort(key=lambda r: order[r["tag"]])
    with open(os.path.join(DOCS, "fpga.md"), "w") as f:
        f.write(render(data))


def find_bios():
    """A compiled ULX3S BIOS to put in the ROM of the other ULX3S builds (saves a picolibc
    build each). The Arty builds compile their own (arty_soc)."""
    for d in [os.path.join(TOP, "build", "ulx3s")] + sorted(
            os.path.join(OUT, x) for x in (os.listdir(OUT) if os.path.isdir(OUT) else [])
            if x.startswith("ulx3s-")):
        b = os.path.join(d, "software", "bios", "bios.bin")
        if os.path.exists(b):
            return b
    return None


if __name__ == "__main__":
    sys.exit(main())
