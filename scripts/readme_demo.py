#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""README's `make demo` samples, recorded from a run on litex_sim.

    python scripts/readme_demo.py            # run both parts; say where README differs
    python scripts/readme_demo.py --write    # run them and rewrite README's two blocks

README shows what `make demo` prints in two fenced blocks, each after a marker line
(`<!-- recorded: scripts/readme_demo.py firmware -->`, `... xv6 -->`): the firmware's table
(firmware/baremetal/demo.c) and the xv6 session (the Makefile's DEMO_CMDS). Both are
recorded here from a run, never typed. The firmware's clocks are simulated and exact, so
its block must equal a new run's (tests/test_readme_demo.py); xv6's timing table moves
with where the timer's tick falls while the command is typed, so that block's numbers are
compared within a tolerance (NUMBER_TOLERANCE; the boot's clocks BOOT_TOLERANCE) and every
other line exactly.
"""

import argparse
import os
import re
import shlex
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, TOP)

README = os.path.join(TOP, "README.md")
MARK = "<!-- recorded: scripts/readme_demo.py {} -->"
PARTS = ("firmware", "xv6")
NUMBER_TOLERANCE = 0.25     # xv6's hashbench figures: a new run within 25% of the recorded one
BOOT_TOLERANCE = 0.001      # xv6's "init: booted in N clocks": within 0.1%


def demo_cmds():
    """The xv6 command lines of `make demo`: the Makefile's DEMO_CMDS, its one copy."""
    text = open(os.path.join(TOP, "Makefile")).read()
    m = re.search(r"^DEMO_CMDS := ((?:.*\\\n)*.*)$", text, re.M)
    return [c for flag, c in zip(*[iter(shlex.split(m.group(1).replace("\\\n", " ")))] * 2) if flag == "--cmd"]


def firmware_block():
    """The demo firmware's lines on litex_sim, from its title to the last before DONE."""
    from soc.runfw import run_firmware
    out = run_firmware("demo", "quick", timeout=900, target="sim").replace("\r", "")
    lines = out[out.index("HashSoC demo"):].splitlines()
    return "\n".join(lines[:lines.index("DONE")]).rstrip() + "\n"


def xv6_block():
    """The xv6 session of `make demo`: the boot's last line, then each command and its output."""
    from scripts import xv6run
    status, out, done = xv6run.session(demo_cmds(), "litex", timeout=600, boot_timeout=600)
    if status != 0:
        raise SystemExit(f"readme_demo: xv6 session failed:\n{out[-3000:]}")
    booted = re.search(r"^init: booted in \d+ clocks$", out.replace("\r", ""), re.M)
    lines = [booted.group(0)]
    for c in done:
        lines.append(f"$ {c['cmd']}")
        lines += [l.rstrip() for l in c["output"].replace("\r", "").strip("\n").splitlines()]
    return "\n".join(lines) + "\n"


def blocks(text):
    """{part: (start, end, body)} of README's recorded blocks (offsets of the body)."""
    out = {}
    for part in PARTS:
        m = re.search(re.escape(MARK.format(part)) + r"\n```\n(.*?)```\n", text, re.S)
        if not m:
            raise SystemExit(f"readme_demo: README has no block after {MARK.format(part)}")
        out[part] = (m.start(1), m.end(1), m.group(1))
    return out


def numbers(line):
    return [float(x) for x in re.findall(r"\d+(?:\.\d+)?", line)]


def differences(part, recorded, new):
    """Lines where README's block and a new run disagree (xv6: numbers within the tolerance)."""
    a, b = recorded.splitlines(), new.splitlines()
    if len(a) != len(b):
        return [f"{part}: README has {len(a)} lines, the run {len(b)}"]
    bad = []
    for x, y in zip(a, b):
        if x == y:
            continue
        shape = re.sub(r"\d+(?:\.\d+)?", "#", x) == re.sub(r"\d+(?:\.\d+)?", "#", y)
        # Only the timing table's rows may move, and the boot's clocks by up to BOOT_TOLERANCE
        # (they depend on the tree's device key: 4,776,134 here, 4,776,056 in a fresh
        # clone); digests, names and commands may not.
        tolerance = BOOT_TOLERANCE if x.startswith("init:") else NUMBER_TOLERANCE
        near = all(abs(p - q) <= tolerance * max(abs(q), 1) for p, q in zip(numbers(x), numbers(y)))
        if part == "xv6" and shape and near and not x.startswith("$") and "hash of" not in x:
            continue
        bad.append(f"{part}: README has {x!r}, the run {y!r}")
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--write", action="store_true", help="rewrite README's blocks with this run's")
    ap.add_argument("--part", choices=PARTS, action="append", help="only this part (repeatable)")
    args = ap.parse_args()
    parts = args.part or list(PARTS)
    new = {p: (firmware_block() if p == "firmware" else xv6_block()) for p in parts}
    text = open(README).read()
    if args.write:
        for part in sorted(parts, key=lambda p: -blocks(text)[p][0]):     # from the end: offsets hold
            start, end, _ = blocks(text)[part]
            text = text[:start] + new[part] + text[end:]
        open(README, "w").write(text)
        print(f"readme_demo: wrote {', '.join(parts)} into README.md")
        return 0
    bad = [d for p in parts for d in differences(p, blocks(text)[p][2], new[p])]
    print("\n".join(bad) or "readme_demo: README's blocks are this run's")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
