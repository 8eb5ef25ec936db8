#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Carry docs/fpga.json's source keys over a change that leaves every netlist as it was.

    python scripts/fpga/rekey.py --from REV     REV: the commit whose sources the keys are of

The FPGA tables record a digest of the sources they were built from (seeds.py's five-seed
table, report.py's Arty rows, sha2_options.py's table), so any edit of the gateware makes
them stale, a refactor too; the five seeds alone take 2-3 hours to build again. This
writes the tree's keys only when it has shown that the edit changed nothing the tools see:

1. the recorded keys are REV's (computed in a temporary worktree of REV);
2. every file that differs between REV and the tree, among the keys' sources, is an
   Amaranth module (AMARANTH: what it makes is Verilog, compared next), not the LiteX SoC,
   a board script, hashspec (it also makes the C headers) or the ROM's C;
3. the Verilog of every module the builds convert (each engine in each variant on both DMA
   buses, the measurement core, the SHA-2 option modules) is byte-identical in both trees.

Otherwise it changes nothing and says which step failed: build the tables again.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
JSON = os.path.join(TOP, "docs", "fpga.json")
# Sources whose only product is Verilog made by Amaranth (gateware/engines.py's to_verilog).
AMARANTH = ("gateware/common/", "gateware/keccak/", "gateware/sha2/", "gateware/sha256/",
            "gateware/measure.py", "gateware/engines.py")

# Run in a tree (cwd): the keys its scripts compute, and a digest of each module's Verilog.
_PROBE = r"""
import hashlib, importlib.util, json, sys
sys.path[:0] = ['.', 'scripts/fpga']
def script(name):
    spec = importlib.util.spec_from_file_location(name, f'scripts/fpga/{name}.py')
    mod = importlib.util.module_from_spec(spec); sys.modules[name] = mod; spec.loader.exec_module(mod)
    return mod
report, seeds = script('report'), script('seeds')
data = json.load(open('docs/fpga.json'))
keys = {'seeds': seeds.sources_key(seeds.board_config()),
        'arty': {r['tag']: report.arty_key(r['tag']) for r in data['arty_soc']},
        'xc7': {r['tag']: report.xc7_key(r['tag']) for r in data['xc7_engines']},
        'depth': report.arty_key('both')}
from gateware import hashspec
from gateware.engines import make_engine, to_verilog
from gateware.measure import MeasureCore
def digest(component):
    return hashlib.sha256(to_verilog(component, 'top').encode()).hexdigest()
verilog = {f'{e.name}-{v.name}-{bus}': digest(make_engine(e.name, v.name, dma_bus=bus, device_key=bytes(32)))
           for e in hashspec.ENGINES for v in hashspec.variants_of(e.name) for bus in ('wishbone', 'stream')}
verilog['measure'] = digest(MeasureCore())
try:
    opts = script('sha2_options')
    keys['sha2'] = opts.table_key()
    verilog.update({f'option-{t}': digest(opts.component(w, f)) for t, w, f in opts.ROWS})
except FileNotFoundError:
    pass
print(json.dumps({'keys': keys, 'verilog': verilog}))
"""


def probe(tree):
    r = subprocess.run([sys.executable, "-c", _PROBE], cwd=tree, capture_output=True, text=True)
    if r.returncode:
        raise SystemExit(f"rekey: probing {tree} failed:\n{r.stderr[-3000:]}")
    return json.loads(r.stdout.strip().splitlines()[-1])


def recorded(data):
    """The keys docs/fpga.json records, in probe()'s shape."""
    keys = {"seeds": data["ulx3s_seeds"]["key"],
            "arty": {r["tag"]: r.get("source") for r in data["arty_soc"]},
            "xc7": {r["tag"]: r.get("source") for r in data["xc7_engines"]},
            "depth": data.get("xc7_depth", {}).get("source")}
    if "sha2_options" in data:
        keys["sha2"] = data["sha2_options"]["key"]
    return keys


def problems(rec, old, new, changed):
    """Why the keys may not be carried over (empty: they may). `rec`: the recorded keys;
    `old`/`new`: probe() of REV and of the tree; `changed`: the key sources that differ."""
    bad = []
    if rec != {k: v for k, v in old["keys"].items() if k in rec}:
        bad.append("the recorded keys are not REV's: the tables were made from other sources")
    others = [f for f in changed if not f.startswith(AMARANTH)]
    if others:
        bad.append(f"files that are not Amaranth modules changed: {', '.join(others)}")
    diff = sorted(k for k in set(old["verilog"]) | set(new["verilog"])
                  if old["verilog"].get(k) != new["verilog"].get(k))
    if diff:
        bad.append(f"the Verilog differs: {', '.join(diff)}")
    return bad


def rekeyed(data, keys):
    """docs/fpga.json's data with the tree's keys."""
    data["ulx3s_seeds"]["key"] = keys["seeds"]
    for r in data["arty_soc"]:
        r["source"] = keys["arty"][r["tag"]]
    for r in data["xc7_engines"]:
        r["source"] = keys["xc7"][r["tag"]]
    if "xc7_depth" in data:
        data["xc7_depth"]["source"] = keys["depth"]
    if "sha2_options" in data:
        data["sha2_options"]["key"] = keys["sha2"]
    return data


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--from", dest="rev", required=True, help="the commit the recorded keys are of")
    args = p.parse_args()
    sys.path.insert(0, os.path.join(TOP, "scripts", "fpga"))
    import report
    import seeds
    sources = sorted(set(seeds.SOURCES) | set(report.ARTY_SOURCES) | set(report.ENGINE_SOURCES))
    changed = subprocess.run(["git", "diff", "--name-only", args.rev, "--", *sources], cwd=TOP,
                             capture_output=True, text=True, check=True).stdout.split()
    with tempfile.TemporaryDirectory(prefix="rekey-") as tmp:
        tree = os.path.join(tmp, "tree")
        subprocess.run(["git", "worktree", "add", "--detach", "-q", tree, args.rev], cwd=TOP, check=True)
        try:
            old = probe(tree)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", tree], cwd=TOP, check=True)
    new = probe(TOP)
    data = json.load(open(JSON))
    bad = problems(recorded(data), old, new, changed)
    if bad:
        print("rekey: the keys stay as they are:\n  " + "\n  ".join(bad))
        return 1
    json.dump(rekeyed(data, new["keys"]), open(JSON, "w"), indent=1)
    print(f"rekey: {len(new['verilog'])} modules' Verilog identical, {len(changed)} Amaranth file(s) changed "
          f"({', '.join(changed) or 'none'}): docs/fpga.json's keys are the tree's")
    return 0


if __name__ == "__main__":
    sys.exit(main())
