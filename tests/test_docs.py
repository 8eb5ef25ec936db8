# SPDX-License-Identifier: MIT
"""The docs describe the code as it is: the common kinds of drift, one test each.

Read: README.md, docs/*.md, os-port/README, firmware/README.md, firmware/libhash/swhash/README.md,
scripts/fpga/analysis.md. Commands are taken from code spans and code blocks only (prose
says "make them" too). Every failure lists the offending doc:line. Pure Python, no builds:
a script's `--help` is run only when its argparse calls cannot be read from its source.
"""
import functools
import glob
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

import pytest


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from docquotes import (ROOT, bench_quotes, check_quotes, fix_quotes, load_script, read, sha512_quotes,  # noqa: E402
                       serialboot_quotes, twin_quotes)
sys.path.insert(0, ROOT)
from boards import TWIN_BOARDS  # noqa: E402
from boards.targets import twin_of  # noqa: E402

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

def first_difference(doc, want, have):
    w, h = want.splitlines(), have.splitlines()
    for i, (a, b) in enumerate(zip(w, h), 1):
        if a != b:
            return f"{doc}:{i}: has {b!r}, the JSON gives {a!r}"
    return f"{doc}: {len(h)} lines, the JSON gives {len(w)}"


def test_bench_keeps_an_every_engine_run_only_while_it_fills_a_cell():
    """bench.py: a twin's run with every engine (--with-engines) fills the cells its own
    row lacks; once the board carries the engine and its own run has those figures, the
    every-engine run is dropped (its † would name a run the row no longer needs)."""
    bench = load_script("scripts/bench.py")
    every = {"ulx3s-twin": {"figures": {"sha512_dma_bytes_per_clock": 1.5}}}
    lacks = {"targets": {"ulx3s-twin": {"figures": {"sha256_dma_clocks_per_byte": 1.0}}}, "with_every_engine": every}
    assert bench.with_every_engine(lacks) == every
    has = {"targets": {"ulx3s-twin": {"figures": {"sha512_dma_bytes_per_clock": 1.6}}}, "with_every_engine": every}
    assert bench.with_every_engine(has) == {}


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

    # docs/fpga.md's table of the ULX3S over five placement seeds (issue 33; rendered above)
    seeds = json.loads(read("docs/fpga.json")).get("ulx3s_seeds", {"rows": []})
    if sorted(r["seed"] for r in seeds["rows"]) != [1, 2, 3, 4, 5]:
        bad.append(f"docs/fpga.json's ulx3s_seeds: seeds {[r['seed'] for r in seeds['rows']]}, not 1-5 "
                   "(make ulx3s-seeds)")
    from boards.ulx3s import DEFAULT_SEED
    if seeds.get("ci_seed") != DEFAULT_SEED:
        bad.append(f"docs/fpga.json's ulx3s_seeds says CI builds seed {seeds.get('ci_seed')}; boards/ulx3s.py's "
                   f"DEFAULT_SEED is {DEFAULT_SEED} (make ulx3s-seeds, or seeds.py --reuse)")
    # The table is of the sources it was built from: the gateware, the SoC, the board script,
    # the ROM's software and the board's build options (CPU, engines, nextpnr's options).
    seeds_py = load_script("scripts/fpga/seeds.py")
    if seeds.get("key") != seeds_py.sources_key(seeds_py.board_config()):
        bad.append("docs/fpga.json's ulx3s_seeds was made from other sources or build options than the "
                   "tree's (make ulx3s-seeds; after a change that keeps every netlist, "
                   "scripts/fpga/rekey.py --from <the table's commit>)")
    fail_if(bad, "generated docs that differ from what their JSON renders to")


def test_the_placer_trial_is_quoted_from_fpga_json():
    """docs/boards.md's entry on the placer's timing weight quotes fpga.json's
    ulx3s_placer_trial (a dated record, kept by report.py): each seed from its figure at
    weight 10 (the five-seed table of that day) to its figure at weight 30, and the build of
    CI's seed of that day."""
    data = json.loads(read("docs/fpga.json"))
    text = " ".join(read("docs/boards.md").split())
    bad = []
    for r in data["ulx3s_placer_trial"]["rows"]:
        quote = f"seed {r['seed']} from {r['fmax_mhz_before']:.2f} to {r['fmax_mhz']:.2f} MHz"
        if quote not in text:
            bad.append(f"docs/boards.md should read {quote!r}")
    ci = data["ulx3s_placer_trial"]["ci_build"]
    quote = f"routes at **{ci['fmax_mhz']:.2f} MHz** (PASS; {ci['fmax_mhz_before']:.2f} at weight 10"
    if quote not in text:
        bad.append(f"docs/boards.md should read {quote!r}")
    fail_if(bad, "the placer trial's figures")


def test_the_five_seed_table_is_quoted_where_it_stands():
    """docs/boards.md's "Where it stands" quotes fpga.json's five-seed table (issue 33): how
    many seeds meet the clock and each seed's Fmax after routing."""
    seeds = json.loads(read("docs/fpga.json"))["ulx3s_seeds"]
    rows = sorted(seeds["rows"], key=lambda r: r["seed"])
    figs = [f"{r['fmax_mhz']:.2f}" if r["fmax_mhz"] is not None else "not routed" for r in rows]
    quote = (f"**{sum(r['pass'] for r in rows)} of {len(rows)}** seeds meet {seeds['target_mhz']:g} MHz "
             f"({', '.join(figs[:-1])} and {figs[-1]} MHz at seeds 1-{len(rows)})")
    assert quote in " ".join(read("docs/boards.md").split()), f"docs/boards.md should read {quote!r}"


def test_the_fpga_analysis_reads_its_builds_figures_from_fpga_json():
    """scripts/fpga/analysis.md quotes the builds of docs/fpga.json through {{...}} figures
    (report.py's fill()), not typed: none of the ULX3S SoC rows' or the five-seed table's Fmax
    appears in it as a typed "N MHz" (a typed copy goes stale when the builds are remade),
    and every {{...}} names a figure fpga.json has."""
    report = load_script("scripts/fpga/report.py")
    data = json.loads(read("docs/fpga.json"))
    text = read("scripts/fpga/analysis.md")
    for m in report.FIGURE.finditer(text):
        report.figure(data, *m.groups())            # a KeyError names what is missing
    typed = " ".join(report.FIGURE.sub("", text).split())
    figs = {f"{r['fmax_mhz']:.1f} MHz" for r in data["ulx3s_soc"]}
    figs |= {f"{r['fmax_mhz']:.2f} MHz" for r in data["ulx3s_seeds"]["rows"] if r["fmax_mhz"] is not None}
    bad = sorted(f for f in figs if re.search(rf"(?<![\d.]){re.escape(f)}", typed))
    fail_if(bad, "Fmax figures of fpga.json's builds typed into scripts/fpga/analysis.md (write {{soc:TAG:fmax_mhz}})")


def test_quoted_bench_figures_match_bench_json():
    fail_if(check_quotes(bench_quotes() + sha512_quotes()), "figures typed into the docs that differ from docs/bench.json")


def test_the_quote_fixer_puts_back_what_drifted(tmp_path):
    """tests/docquotes.py --fix: a doc whose quoted figures drifted (here: changed on purpose
    in a copy) gets the JSON's figures back, and nothing else in it changes."""
    quotes = [q for q in bench_quotes() if q[0] == "docs/keccak.md"]
    good = open(os.path.join(ROOT, "docs/keccak.md"), encoding="utf-8").read()
    drifted = good
    for _, text in quotes[:3]:
        figure = re.search(r"\d[\d,]*\d", text).group()
        drifted = drifted.replace(text, text.replace(figure, str(int(figure.replace(",", "")) + 7), 1))
    assert drifted != good
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs/keccak.md").write_text(drifted, encoding="utf-8")
    assert fix_quotes(quotes, root=tmp_path) == []
    assert (tmp_path / "docs/keccak.md").read_text(encoding="utf-8") == good


def test_quoted_twin_figures_match_bench_json():
    fail_if(check_quotes(twin_quotes()), "twin figures typed into the docs that differ from docs/bench.json")


@pytest.mark.parametrize("board", sorted(TWIN_BOARDS))
def test_quoted_serial_boot_figures_match_the_twins_json(board):
    path = os.path.join(twin_of(board).build_dir, "serialboot.json")
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
