# SPDX-License-Identifier: MIT
"""The docs describe the code as it is: the common kinds of drift, one test each.

Read: README.md, docs/*.md, os-port/README, firmware/README.md, firmware/libhash/swhash/README.md,
scripts/fpga/analysis.md. Commands are taken from code spans and code blocks only (prose
says "make them" too). Every failure lists the offending doc:line. Pure Python, no builds:
a script's `--help` is run only when its argparse calls cannot be read from its source.
"""
import functools
import glob
import importlib.util
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

import pytest

from gateware import hashspec  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOCS = ["README.md", *sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "docs", "*.md"))),
        "os-port/README", "firmware/README.md", "firmware/libhash/swhash/README.md", "scripts/fpga/analysis.md"]
# Makefiles by the directory `make -C` names, with the files they include.
MAKEFILES = {".": ["Makefile", "boards/boards.mk"],
             "os-port": ["os-port/Makefile", "firmware/libhash/libhash.mk", "firmware/libhash/swhash/swhash.mk"],
             "firmware/baremetal": ["firmware/baremetal/Makefile", "firmware/libhash/libhash.mk",
                                    "firmware/libhash/swhash/swhash.mk"],
             "firmware/experiments/seed001": ["firmware/experiments/seed001/Makefile", "firmware/libhash/libhash.mk",
                                              "firmware/libhash/swhash/swhash.mk"]}
# Paths the docs may name that only a build makes (besides anything under a build/ folder).
GENERATED = {"firmware.bin", "os-port/build", "keys/device_key"}
# Where a doc's relative links point from, when not from its own folder.
LINK_BASE = {"scripts/fpga/analysis.md": "docs"}         # rendered into docs/fpga.md
SOURCE_EXT = (".py", ".c", ".h", ".S", ".sh", ".mk", "Makefile", "run")


def read(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return f.read()


@functools.lru_cache(maxsize=None)
def code_lines(doc):
    """(line number, text) of every code span and code-block line of a doc; comments after
    ` #` in code blocks dropped."""
    out, block = [], False
    for n, line in enumerate(read(doc).splitlines(), 1):
        if line.lstrip().startswith("```"):
            block = not block
            continue
        if block:
            out.append((n, re.sub(r"\s#\s.*$", "", line)))
        else:
            out += [(n, span) for span in re.findall(r"`([^`]+)`", line)]
    return out


def fail_if(bad, what):
    assert not bad, f"{what}:\n" + "\n".join(f"  {b}" for b in bad)


# ---- make targets and variables -------------------------------------------------------------

@functools.lru_cache(maxsize=None)
def make_db(directory):
    """(targets, variables read) of the makefiles `make -C directory` reads."""
    text = "\n".join(read(p) for p in MAKEFILES[directory])
    assigned = dict(re.findall(r"^([A-Za-z_][\w]*)\s*[?:]?=\s*(\S*)", text, re.M))
    targets = set()
    for m in re.finditer(r"^([^\s#=:][^=:]*?)\s*::?(?!=)", text, re.M):
        for t in m.group(1).split():
            t = re.sub(r"\$\((\w+)\)", lambda v: assigned.get(v.group(1), v.group(0)), t)
            targets.add(t)
    read_vars = set(re.findall(r"\$[({](\w+)[)}]", text)) | set(re.findall(r"^(\w+)\s*\?=", text, re.M))
    return targets, read_vars


@functools.lru_cache(maxsize=None)
def env_reads():
    """Names the code reads from the environment (or as make/shell variables)."""
    names = set()
    for path in subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                               check=True).stdout.split():
        if not path.endswith(SOURCE_EXT) or not os.path.exists(os.path.join(ROOT, path)):
            continue
        text = read(path)
        names |= set(re.findall(r"environ(?:\.get)?[(\[]\s*[\"'](\w+)", text))
        names |= set(re.findall(r"getenv\(\s*\"(\w+)", text))
        names |= set(re.findall(r"\$\{?(\w+)", text)) | set(re.findall(r"\$\((\w+)\)", text))
    return names


def make_commands():
    """(doc:line, directory, [targets], [VAR names]) of every `make ...` in the docs."""
    for doc in DOCS:
        for n, text in code_lines(doc):
            for m in re.finditer(r"(?:^|[\s;(&|])make(\s.*)$", text):
                args = re.sub(r"\[([A-Z][A-Z0-9_]*)=[^\]]*\]", r"\1=x", m.group(1))   # [APP=main|demo]
                lexer = shlex.shlex(args, posix=True, punctuation_chars=";&|()")
                lexer.whitespace_split = True
                try:
                    words = list(lexer)
                except ValueError:
                    words = m.group(1).split()
                directory, targets, names, i = ".", [], [], 0
                while i < len(words):
                    w = words[i].strip("[]")
                    if w == "-C" and i + 1 < len(words):
                        directory = os.path.normpath(words[i + 1])
                        i += 2
                        continue
                    if re.fullmatch(r"[A-Z][A-Z0-9_]*=.*", w):
                        names.append(w.split("=")[0])
                    elif re.fullmatch(r"[a-z0-9][\w.-]*", w):
                        targets.append(w)
                    elif not w.startswith("-"):
                        break                       # the end of the command: ;, |, prose
                    i += 1
                yield f"{doc}:{n}", directory, targets, names


def test_make_targets_exist():
    bad = []
    for where, directory, targets, _ in make_commands():
        if directory not in MAKEFILES:
            bad.append(f"{where}: make -C {directory}: no Makefile there that this test knows")
            continue
        known = make_db(directory)[0]
        bad += [f"{where}: make {'-C ' + directory + ' ' if directory != '.' else ''}{t}: no such target"
                for t in targets if t not in known]
    fail_if(bad, "make targets the docs name but no Makefile defines")


def test_make_variables_are_read():
    bad = []
    for where, directory, _, names in make_commands():
        if directory not in MAKEFILES:
            continue
        known = make_db(directory)[1] | env_reads()
        bad += [f"{where}: {v}=...: no Makefile or script reads {v}" for v in names if v not in known]
    fail_if(bad, "make variables the docs set but nothing reads")


# ---- script options --------------------------------------------------------------------------

@functools.lru_cache(maxsize=None)
def script_options(path):
    opts = set()
    for call in re.findall(r"add_argument\((.*?)\)\s*$", read(path), re.M | re.S):
        opts |= set(re.findall(r"[\"'](--[\w-]+)[\"']", call))
    return opts


@functools.lru_cache(maxsize=None)
def help_options(argv):
    r = subprocess.run([sys.executable, *argv, "--help"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    return set(re.findall(r"--[\w-]+", r.stdout))


def test_script_options_exist():
    bad = []
    for doc in DOCS:
        for n, text in code_lines(doc):
            for m in re.finditer(r"(?:(?<![\w/])(scripts/[\w/]+\.py)|-m\s+((?:soc|boards|scripts)\.[\w.]+))"
                                 r"([^;|&#]*)", text):
                if m.group(1):
                    path, argv = m.group(1), (m.group(1),)
                else:
                    path, argv = m.group(2).replace(".", "/") + ".py", ("-m", m.group(2))
                if not os.path.exists(os.path.join(ROOT, path)):
                    bad.append(f"{doc}:{n}: {path} does not exist")
                    continue
                for opt in re.findall(r"(?<![\w-])--[a-z][\w-]*", m.group(3)):
                    if opt not in script_options(path) and opt not in help_options(argv):
                        bad.append(f"{doc}:{n}: {' '.join(argv)} has no option {opt}")
    fail_if(bad, "script options the docs name but the script does not take")


# ---- paths -----------------------------------------------------------------------------------

TOP_ENTRIES = None


def repo_paths(doc, line):
    """Candidate repository paths in a line: code spans, link targets and bare paths that start
    at a top-level entry of the tree."""
    global TOP_ENTRIES
    if TOP_ENTRIES is None:
        TOP_ENTRIES = {e for e in os.listdir(ROOT) if not e.startswith(".") or e == ".ci"} - {".venv"}
    for link in re.findall(r"\]\(([^)\s]+)\)", line):       # links: relative to the doc
        if not link.startswith(("http", "#", "mailto:")):
            base = LINK_BASE.get(doc, os.path.dirname(doc))
            yield os.path.normpath(os.path.join(base, link.split("#")[0]))
    cands = re.findall(r"`([^`\s]+)`", line)
    cands += re.findall(r"(?<![\w./`-])((?:docs|tests|scripts|soc|boards|gateware|firmware|os-port)/[\w./*-]*[\w*])",
                        line)
    for c in cands:
        c = c.split("::")[0].split("#")[0].rstrip(".,:;)")
        if "/" in c and c.split("/")[0] in TOP_ENTRIES:
            yield c


def test_repository_paths_exist():
    bad = []
    for doc in DOCS:
        for n, line in enumerate(read(doc).splitlines(), 1):
            for p in repo_paths(doc, line):
                parts = p.split("/")
                if "build" in parts or p in GENERATED or any(s in p for s in ("...", "<", "{", "$")):
                    continue
                if not glob.glob(os.path.join(ROOT, p)):
                    bad.append(f"{doc}:{n}: {p}")
            for path, func in re.findall(r"(tests/\w+\.py)::(\w+)", line):
                if os.path.exists(os.path.join(ROOT, path)) and f"def {func}(" not in read(path):
                    bad.append(f"{doc}:{n}: {path} has no {func}")
    fail_if(bad, "paths the docs name that are not in the tree")


# ---- environment variables -------------------------------------------------------------------

def test_environment_variables_are_read():
    bad = []
    for doc in DOCS:
        for n, line in enumerate(read(doc).splitlines(), 1):
            names = set(re.findall(r"\b((?:HASHSOC|XV6)_[A-Z0-9_]+)", line))
            # VAR=value before a command, or "VAR=1 in the environment"
            names |= set(re.findall(r"(?:^|[`\s])([A-Z][A-Z0-9_]{2,})=\S+\s+(?:\.venv/bin/)?"
                                    r"(?:python|pytest|scripts/|make\b|\.ci/|in the environment)", line))
            bad += [f"{doc}:{n}: {v}" for v in sorted(names) if v not in env_reads()]
    fail_if(bad, "environment variables the docs name that no code reads")


# ---- figures: generated docs equal their JSON, quoted figures equal the JSON ---------------------

def load_script(path):
    spec = importlib.util.spec_from_file_location("docs_check_" + os.path.basename(path)[:-3], os.path.join(ROOT, path))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def first_difference(doc, want, have):
    w, h = want.splitlines(), have.splitlines()
    for i, (a, b) in enumerate(zip(w, h), 1):
        if a != b:
            return f"{doc}:{i}: has {b!r}, the JSON gives {a!r}"
    return f"{doc}: {len(h)} lines, the JSON gives {len(w)}"


def test_generated_docs_match_their_json():
    """docs/fpga.md, docs/seed001.md, docs/simprofile.md and docs/bench.md's tables are what their scripts render
    from docs/*.json (re-render: scripts/fpga/report.py --only-render; the others rerun)."""
    bad = []
    report = load_script("scripts/fpga/report.py")
    data = json.loads(read("docs/fpga.json"))
    data["analysis"] = [read("scripts/fpga/analysis.md").strip()]          # as report.py's main()
    order = {t: i for i, t in enumerate(report.SOC_ORDER)}
    data["ulx3s_soc"].sort(key=lambda r: order[r["tag"]])
    data["arty_soc"].sort(key=lambda r: order[r["tag"]])
    want = report.render(data)
    if want != read("docs/fpga.md"):
        bad.append(first_difference("docs/fpga.md", want, read("docs/fpga.md"))
                   + " (python scripts/fpga/report.py --only-render)")

    seed = load_script("scripts/seed001.py")
    with tempfile.TemporaryDirectory() as d:
        seed.write_md(json.loads(read("docs/seed001.json")), os.path.join(d, "seed001.md"))
        with open(os.path.join(d, "seed001.md")) as f:
            want = f.read()
    if want != read("docs/seed001.md"):
        bad.append(first_difference("docs/seed001.md", want, read("docs/seed001.md")))

    prof = load_script("scripts/simprofile.py")
    data = json.loads(read("docs/simprofile.json"))
    data["analysis"] = read("scripts/simprofile-analysis.md")              # as its main()
    with tempfile.TemporaryDirectory() as d:
        prof.write_md(data, os.path.join(d, "simprofile.md"))
        with open(os.path.join(d, "simprofile.md")) as f:
            want = f.read()
    if want != read("docs/simprofile.md"):
        bad.append(first_difference("docs/simprofile.md", want, read("docs/simprofile.md"))
                   + " (python scripts/simprofile.py --only-render)")

    bench = load_script("scripts/bench.py")
    want, md = bench.render(json.loads(read("docs/bench.json"))), read("docs/bench.md")
    if want != md:
        bad.append(first_difference("docs/bench.md", want, md) + " (python scripts/bench.py --only-render)")
    fail_if(bad, "generated docs that differ from what their JSON renders to")


def bench_rows(target="sim"):
    rows = json.loads(read("docs/bench.json"))["targets"][target]["rows"]
    return {(r["alg"], r["path"], r["bytes"]): r["clocks"] for r in rows}


KECCAK_MODES = [a.title for a in hashspec.algorithms_of("keccak")]     # by mode number


def bench_quotes():
    """(doc, text) pairs: each text, with its figures from docs/bench.json, must be in the doc."""
    r, f = bench_rows(), json.loads(read("docs/bench.json"))["targets"]["sim"]["figures"]
    big = 65536
    dma = [r[(a, "dma", big)] for a in KECCAK_MODES]
    pio = [r[(a, "pio", big)] for a in KECCAK_MODES + ["SHA-256", "SHA-224"]]
    s256, s3 = r[("SHA-256", "dma", big)], r[("SHA3-256", "dma", big)]
    return [
        ("docs/sha256.md", f"| core busy / blocks, 64 KiB by DMA | {f['sha256_core_clocks_per_block']:.2f} clocks per block |"),
        ("docs/sha256.md", f"| DMA, 64 KiB | {s256:,} clocks = {s256 / big:.3f} clk/byte = "
                           f"{f['sha256_dma_vs_engine_rate']:.1%} of the engine bound"),
        ("docs/sha256.md", f"| PIO, 64 KiB | {r[('SHA-256', 'pio', big)]:,} clocks = {r[('SHA-256', 'pio', big)] / big:.2f} clk/byte"),
        ("docs/sha256.md", f"| one-shot DMA digest, 5 bytes | {r[('SHA-256', 'dma', 5)]:,} clocks (SHA-224: {r[('SHA-224', 'dma', 5)]:,}) |"),
        ("docs/sha256.md", f"| one-shot PIO digest, 5 bytes | {r[('SHA-256', 'pio', 5)]:,} clocks |"),
        ("docs/sha256.md", f"64 KiB | {f['sha256_sw_clocks_per_byte']:.1f} clk/byte |"),
        ("docs/sha256.md", f"| DMA speed-up over software, 64 KiB | {f['sha256_dma_speedup_64k']:.0f}x |"),
        ("docs/sha256.md", f"| HMAC-SHA-256, 64 bytes (`hash_hmac()`, DMA) | {r[('HMAC-SHA-256', 'dma', 64)]:,} "
                           f"clocks; software {r[('HMAC-SHA-256', 'sw', 64)]:,} |"),
        ("docs/sha256.md", f"| HMAC-SHA-256, 64 KiB | {r[('HMAC-SHA-256', 'dma', big)]:,} clocks; software "
                           f"{r[('HMAC-SHA-256', 'sw', big)]:,} ({f['hmac_sha256_65536_speedup']:.0f}x) |"),
        ("docs/integrity.md", f"64 bytes take {r[('HMAC-SHA-256', 'dma', 64)]:,} clocks on the engine against "
                              f"{r[('HMAC-SHA-256', 'sw', 64)]:,}\nin software ({f['hmac_sha256_64_speedup']:.1f}x"),
        ("docs/integrity.md", f"64 KiB take {r[('HMAC-SHA-256', 'dma', big)]:,} against "
                              f"{r[('HMAC-SHA-256', 'sw', big)]:,} ({f['hmac_sha256_65536_speedup']:.0f}x"),
        ("docs/keccak.md", f"| SHA3-256 by DMA, 64 KiB | {s3:,} clocks = {big / s3:.3f} B/clk = "
                           f"{f['sha3_256_dma_fraction_of_bound']:.1%} of the 2 B/clk bus bound"),
        ("docs/keccak.md", f"| any Keccak mode by DMA, 64 KiB | {min(dma):,}-{max(dma):,} clocks"),
        ("docs/keccak.md", f"| any mode by PIO, 64 KiB | {min(pio):,}-{max(pio):,} clocks = "
                           f"{min(pio) / big:.2f}-{max(pio) / big:.2f} clk/byte"),
        ("docs/keccak.md", f"| one-shot DMA digest, 5 bytes | {r[('SHA3-256', 'dma', 5)]:,} clocks SHA3-256, "
                           f"{r[('SHA3-512', 'dma', 5)]:,} SHA3-512 |"),
        ("docs/keccak.md", f"| software SHA3-256 / SHA3-512 (-O2), 64 KiB | {f['sha3_256_sw_clocks_per_byte']:.1f} / "
                           f"{f['sha3_512_sw_clocks_per_byte']:.1f} clk/byte |"),
        ("docs/keccak.md", f"SHA3-256 {r[('SHA3-256', 'sw', big)] / s3:.0f}x, "
                           f"SHA3-512 {r[('SHA3-512', 'sw', big)] / r[('SHA3-512', 'dma', big)]:.0f}x"),
        ("docs/keccak.md", f"SHA3-512 of 55 bytes takes {r[('SHA3-512', 'dma', 55)]:,}\nclocks by DMA and "
                           f"{r[('SHA3-512', 'sw', 55)]:,} in software"),
        ("docs/keccak.md", f"The {r[('SHA3-512', 'dma', 5)]:,} vs {r[('SHA3-256', 'dma', 5)]:,} clocks of SHA3-512"),
    ]


def twin_quotes():
    """(doc, text) pairs from the twin's figures in docs/bench.json: its benchmark rows and
    the DMA-against-the-CPU rows (firmware/baremetal/dmacontend.c)."""
    targets = json.loads(read("docs/bench.json"))["targets"]
    bench = load_script("scripts/bench.py")
    big = 65536

    def busy(target, path):
        return next(r["core_busy"] for r in targets[target]["rows"]
                    if (r["alg"], r["path"], r["bytes"]) == ("SHA3-256", path, big))
    c = {(r["alg"], bench.contention_key(r)): r["clocks"] for r in targets["ulx3s-twin"]["contention"]}
    t = [busy("ulx3s-twin", p) for p in ("dma", "sg4096", "sg512")]
    s = [busy("sim", p) for p in ("dma", "sg4096")]
    tr = bench_rows("ulx3s-twin")
    dma = tr[("SHA3-256", "dma", big)]
    f = {target: targets[target]["figures"] for target in targets}
    bulk = [f"| SHA-256, clocks/byte | {f['sim']['sha256_bulk_clocks_per_byte']:.3f} | "
            f"{f['ulx3s-twin']['sha256_bulk_clocks_per_byte']:.3f} |",
            f"| SHA-256, of the bare-metal DMA rate | **{f['sim']['sha256_bulk_vs_dma']:.1%}** | "
            f"**{f['ulx3s-twin']['sha256_bulk_vs_dma']:.1%}** |",
            f"| SHA3-256, clocks/byte | {f['sim']['sha3_256_bulk_clocks_per_byte']:.3f} | "
            f"{f['ulx3s-twin']['sha3_256_bulk_clocks_per_byte']:.3f} |",
            f"| SHA3-256, of the bare-metal DMA rate | {f['sim']['sha3_256_bulk_vs_dma']:.1%} | "
            f"{f['ulx3s-twin']['sha3_256_bulk_vs_dma']:.1%} |",
            f"97% is not met for SHA3-256 ({f['sim']['sha3_256_bulk_vs_dma']:.1%} / "
            f"{f['ulx3s-twin']['sha3_256_bulk_vs_dma']:.1%})",
            f"(1 clock/byte): {f['sim']['sha256_bulk_vs_dma']:.1%} / {f['ulx3s-twin']['sha256_bulk_vs_dma']:.1%}.",
            # the targets' table at the top of the performance part
            f"SHA3-256 ≤ 400 clocks | {f['sim']['sha256_short_55']} / {f['sim']['sha3_256_short_55']} | "
            f"{f['ulx3s-twin']['sha256_short_55']} / {f['ulx3s-twin']['sha3_256_short_55']} | met",
            f"DMA rate, SHA-256 | {f['sim']['sha256_bulk_vs_dma']:.1%} | {f['ulx3s-twin']['sha256_bulk_vs_dma']:.1%} | met",
            f"| the same, SHA3-256 | {f['sim']['sha3_256_bulk_vs_dma']:.1%} | "
            f"{f['ulx3s-twin']['sha3_256_bulk_vs_dma']:.1%} | not met |"]
    return [("docs/hash-syscall.md", b) for b in bulk] + [
        ("docs/hash-syscall.md", f"takes SHA3-256 {c[('SHA3-256', 'sg4096 reverse, CPU stores')]:,} clocks against "
                                 f"{c[('SHA3-256', 'sg4096 reverse')]:,} without them, SHA-256 "
                                 f"{c[('SHA-256', 'sg4096 reverse, CPU stores')]:,} against {c[('SHA-256', 'sg4096 reverse')]:,}."),
        ("docs/hash-syscall.md", f"(`dma` row {dma:,})"),
        ("docs/driver-api.md", f"bytes: {f['sim']['sha3_256_short_55']:,} clocks (SHA3-256) and "
                               f"{f['sim']['sha256_short_55']:,} (SHA-256) on litex_sim, "
                               f"{f['ulx3s-twin']['sha3_256_short_55']:,} and {f['ulx3s-twin']['sha256_short_55']:,} on the twin,"),
        ("docs/integrity.md", f"ULX3S twin {tr[('HMAC-SHA-256', 'dma', 64)]:,} / {tr[('HMAC-SHA-256', 'sw', 64)]:,})"),
        ("docs/integrity.md", f"twin {tr[('HMAC-SHA-256', 'dma', big)]:,} / {tr[('HMAC-SHA-256', 'sw', big)]:,})"),
        ("docs/hash-syscall.md", f"raised the twin's to {big / dma:.3f};"),
        ("docs/hash-syscall.md", f"the twin's xv6 went 0.682 -> "
                                 f"{f['ulx3s-twin']['sha3_256_bulk_clocks_per_byte']:.3f} clocks/byte, 85.0% -> "
                                 f"{f['ulx3s-twin']['sha3_256_bulk_vs_dma']:.1%} of it."),
        ("docs/hash-syscall.md", f"`sg4096` row's core busy is {t[1]:,} against {t[0]:,} for `dma`, ~{(t[1] - t[0]) / 16:.0f} "
                                 f"clocks per 4 KiB piece with the final block fed by stores; {t[2]:,} for 128 pieces of "
                                 f"512 bytes, ~{(t[2] - t[0]) / 128:.0f} clocks per piece"),
        ("docs/hash-syscall.md", f"(core busy {s[1]:,} for `sg4096` against {s[0]:,})"),
    ] + arty_quotes(targets, bench)


def arty_quotes(targets, bench):
    """The Arty twin's figures docs/boards.md gives from docs/bench.json (bench: scripts/bench.py)."""
    f = targets["arty-twin"]["figures"]
    c = {(r["alg"], bench.contention_key(r)): r["clocks"] for r in targets["arty-twin"]["contention"]}
    per_piece = (c[("SHA3-256", "sg4096 reverse")] - c[("SHA3-256", "dma")]) / 16
    return [("docs/boards.md", f"SHA-256 takes {f['sha256_dma_clocks_per_byte']:.3f} clocks per byte (the engine's bound is "
                               f"1.0) and SHA3-256 {f['sha3_256_dma_bytes_per_clock']:.2f} bytes per clock"),
            ("docs/boards.md", f"takes ~{per_piece:.0f} clocks more per 4 KiB piece than one command")]


def serialboot_quotes(j):
    """(doc, text) pairs from a twin's serial boot figures (build/<board>-twin/serialboot.json)."""
    if j["board"] == "arty":
        return arty_serialboot_quotes(j)
    k, fs = j["bytes"]["kernel.bin"], j["full_fs"]
    # Kernel entry to init moves by ~25k clocks between runs (where the timer's first tick
    # falls after the upload): one decimal, and a figure the doc gives within 1% of this
    # run's passes (8,874,342 and 8,849,270 clocks round to 8.9 and 8.8).
    # Only the figure in the quoted sentence counts, not an older one elsewhere in the doc.
    def near(clocks, context):
        """The doc's figure after `context` if within 1% of `clocks`, else `clocks` itself."""
        for x in re.findall(context + r" ([\d,]+) clocks", " ".join(read("docs/boards.md").split())):
            if abs(int(x.replace(",", "")) - clocks) <= 0.01 * clocks:
                return x
        return f"{clocks:,}"

    def m(clocks, context):
        return near_millions(clocks, r"(?<![\d.])(\d+\.\d) M " + context) + " M"
    return [
        ("docs/boards.md", f"kernel {k:,} B + header {j['bytes']['kernel.hdr']} B = {j['wire_bytes']:,} B on the wire "
                           f"(the RAM disk, {j['bytes']['fs.img']:,} B, preloaded)" if j.get("fs_preloaded") else
                           f"kernel {k:,} B + header {j['bytes']['kernel.hdr']} B + fs {j['bytes']['fs.img']:,} B = "
                           f"{j['wire_bytes']:,} B on the wire"),
        # (its clocks move a little with where the SDRAM's refreshes fall after the upload)
        ("docs/boards.md", f"the ROM's check of the kernel {near(j['rom_check_clocks'], 'the ROM.s check of the kernel')} "
                           "clocks"),
        # (not the clocks from reset or the wall time: the upload's share depends on the host)
        ("docs/boards.md", f"{m(j['kernel_to_init_clocks'], 'clocks from kernel entry to init')} clocks from "
                           "kernel entry to init"),
        ("docs/boards.md", f"| {k:,} + {fs['fs_bytes']:,} B | {fs['wire_bytes']:,} B | "
                           f"{fs['reset_to_prompt_s_at_115200']} s | **{fs['reset_to_prompt_s_at_1000000']} s** |"),
        ("docs/boards.md", f"| {k:,} + 2,048,000 B | {j['full_fs_untrimmed']['wire_bytes']:,} B | "
                           f"{j['full_fs_untrimmed']['reset_to_prompt_s_at_115200']} s"),
        ("docs/boards.md", f"{j['bios_clocks'] / 1e6:.2f} M clocks = {j['bios_clocks'] / 60e6:.2f} s"),
        ("docs/boards.md", f"{m(j['kernel_to_init_clocks'], 'clocks = ')}\nclocks = "
                           f"{j['kernel_to_init_clocks'] / 60e6:.2f} s"),
        ("docs/boards.md", f"kernel.bin to 0x40000000 ({k} bytes)"),
        ("docs/boards.md", f"fs.img to 0x40200000 ({fs['fs_bytes']} bytes)"),
        ("README.md", f"reaches the xv6 prompt in about {fs['reset_to_prompt_s']:.0f} s"),
    ]


def near_millions(clocks, pattern):
    """Kernel entry to init moves by ~1% between runs (where the timer's first tick falls):
    the figure in docs/boards.md that `pattern` (one group, in millions, one decimal) finds
    stands while it is within 1% of `clocks` beyond its own rounding (0.05 M: a run of
    8,389,795 clocks keeps a doc's 8.3 M, written from a run of 8,342,971); else this
    run's, rounded the same way."""
    for x in re.findall(pattern, " ".join(read("docs/boards.md").split())):
        if abs(float(x) * 1e6 - clocks) <= 0.01 * clocks + 0.05e6:
            return x
    return f"{clocks / 1e6:.1f}"


def arty_serialboot_quotes(j):
    """The Arty's serial boot figures in docs/boards.md: one table row (its own section)."""
    from boards.arty import DEFAULT_SYS_CLK
    k, fs, b = j["bytes"]["kernel.bin"], j["full_fs"], j["bios_clocks"]
    init = near_millions(j["kernel_to_init_clocks"], r"\| Arty A7 [^|]*\| [\d.]+ M \| (\d+\.\d) M \|")
    return [("docs/boards.md",
             f"| Arty A7 at {DEFAULT_SYS_CLK / 1e6:g} MHz | {b / 1e6:.2f} M | {init} M | {k:,} + {fs['fs_bytes']:,} B | "
             f"{fs['wire_bytes']:,} B | {fs['reset_to_prompt_s_at_115200']} s | **{fs['reset_to_prompt_s_at_1000000']} s** |")]


def arty_console_block():
    """The Arty console docs/boards.md quotes (between its arty-console marks), as lines."""
    import textwrap
    m = re.search(r"<!-- arty-console -->\n *```\n(.*?) *```\n *<!-- /arty-console -->", read("docs/boards.md"), re.S)
    assert m, "docs/boards.md lost its arty-console block"
    return textwrap.dedent(m.group(1)).splitlines()


def check_quotes(quotes):
    bad = []
    for doc, text in quotes:
        body = read(doc)
        if text in body or " ".join(text.split()) in " ".join(body.split()):
            continue
        bad.append(f"{doc}:{nearest_line(body, text)}: the JSON says {text!r}")
    return bad


def nearest_line(body, text):
    """The number of the doc line that shares the most words with text (where it drifted)."""
    words = set(re.findall(r"[A-Za-z][\w-]+", text))
    lines = body.splitlines()
    score = [len(words & set(re.findall(r"[A-Za-z][\w-]+", line))) for line in lines]
    return score.index(max(score)) + 1


def test_quoted_bench_figures_match_bench_json():
    fail_if(check_quotes(bench_quotes()), "figures typed into the docs that differ from docs/bench.json")


def test_quoted_twin_figures_match_bench_json():
    fail_if(check_quotes(twin_quotes()), "twin figures typed into the docs that differ from docs/bench.json")


@pytest.mark.parametrize("board", ["ulx3s", "arty"])
def test_quoted_serial_boot_figures_match_the_twins_json(board):
    path = os.path.join(ROOT, "build", f"{board}-twin", "serialboot.json")
    if not os.path.exists(path):
        pytest.skip(f"no build/{board}-twin/serialboot.json yet (make twin-serial-boot BOARD={board} "
                    "or tests/test_twin.py writes it)")
    with open(path) as f:
        fail_if(check_quotes(serialboot_quotes(json.load(f))),
                f"serial boot figures in the docs that differ from build/{board}-twin/serialboot.json")


def test_quoted_l2_size_is_the_boards():
    """Every "N KiB write-through L2" (and the BIOS banner's "L2: N.0KiB") in the docs and
    sources is the ULX3S's L2_SIZE: the Arty's L2 is LiteX's own, never called so."""
    from boards.ulx3s import L2_SIZE
    files = list(DOCS)
    for d in ("boards", "soc", "scripts", "gateware"):
        files += sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, d, "*.py")))
    bad, seen = [], 0
    for path in files:
        for n, line in enumerate(read(path).splitlines(), 1):
            for m in re.finditer(r"(\d+) KiB write-through L2|L2:\s+(\d+)\.0KiB", line):
                seen += 1
                if int(m.group(1) or m.group(2)) * 1024 != L2_SIZE:
                    bad.append(f"{path}:{n}: {m.group(0)}")
    assert seen >= 5, seen
    fail_if(bad, f"L2 sizes other than boards/ulx3s.py's L2_SIZE ({L2_SIZE // 1024} KiB)")
