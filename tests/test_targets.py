# SPDX-License-Identifier: MIT
"""boards/targets.py: one Target per place HashSoC runs, and nobody else taking a target's
name apart. Host only: nothing is built."""

import ast
import os
import re
import subprocess
import sys

import pytest

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, TOP)

from boards import DEFAULT_ENGINES, TWIN_BOARDS  # noqa: E402
from boards import targets  # noqa: E402


def test_every_place_has_one_target():
    assert list(targets.TARGETS) == ["sim", *(f"{b}-twin" for b in TWIN_BOARDS)]
    assert list(targets.BOARD_TARGETS) == list(TWIN_BOARDS)
    for name, t in {**targets.TARGETS, **targets.BOARD_TARGETS}.items():
        assert targets.target(name) is t and t.name == name
        assert t.engines == DEFAULT_ENGINES[t.board or "sim"]
    with pytest.raises(ValueError, match="no target 'sim-twin'"):
        targets.target("sim-twin")


def test_a_twin_with_other_engines():
    """A board's twin built with other engines than the board's default (what bench.py's
    --with-engines runs): its own name, label and build directory, found by target(); the
    default engines name the plain twin, and an unknown engine is refused."""
    for board in TWIN_BOARDS:
        # every engine, or where that is the board's default, one of them
        every = DEFAULT_ENGINES["sim"] if DEFAULT_ENGINES[board] != DEFAULT_ENGINES["sim"] else ("sha256",)
        t = targets.target(f"{board}-twin-{'-'.join(every)}")
        assert (t.name, t.board, t.engines) == (f"{board}-twin-{'-'.join(every)}", board, every)
        assert t.build_dir == os.path.join(TOP, "build", t.name) and t.label.endswith(", ".join(every))
        assert t.name not in targets.TARGETS and not t.ends_itself
        assert targets.TwinTarget(board, DEFAULT_ENGINES[board]).name == f"{board}-twin"
        assert t.twin().engines == every and targets.twin_of(board).twin().engines == DEFAULT_ENGINES[board]
    with pytest.raises(ValueError, match="not \\['sha1'\\]"):
        targets.target("ulx3s-twin-sha1")


def test_the_soc_each_builds():
    assert targets.target("sim").soc_class().__name__ == "SimHashSoC"
    assert targets.target("ulx3s-twin").soc_class() is targets.target("ulx3s").soc_class()
    assert targets.target("arty").soc_class().__name__ == TWIN_BOARDS["arty"]


def test_what_xv6_is_built_with():
    sim, twin, board = targets.target("sim"), targets.twin_of("arty"), targets.target("arty")
    assert sim.xv6_make_args() == ["PLATFORM=litex", f"LITEX_GENERATED_DIR={TOP}/build/sim/software/include/generated"]
    assert twin.xv6_make_args() == ["PLATFORM=litex", "BOARD=arty",
                                    f"LITEX_GENERATED_DIR={TOP}/build/arty-twin/software/include/generated"]
    # the board is built against its bitstream build's headers, into the twin's xv6 directory
    assert board.generated_dir == f"{TOP}/build/arty/software/include/generated"
    assert sim.xv6_build_dir.endswith("os-port/build/litex") and twin.xv6_build_dir == board.xv6_build_dir
    assert sim.console_command("b.json", python="py") == ["py", "-m", "boards.targets", "sim", "console", "b.json"]
    assert twin.console_command("b.json", python="py") == ["py", "-m", "boards.targets", "arty-twin", "console",
                                                           "b.json"]
    with pytest.raises(NotImplementedError, match="litex_term"):
        board.console_command("b.json")


def test_the_command_line_make_asks():
    py = sys.executable
    r = subprocess.run([py, "-m", "boards.targets"], cwd=TOP, capture_output=True, text=True, check=True)
    assert [ln.split()[0] for ln in r.stdout.splitlines()] == [*targets.TARGETS, *targets.BOARD_TARGETS]
    r = subprocess.run([py, "-m", "boards.targets", "ulx3s-twin", "xv6-make-args"], cwd=TOP, capture_output=True,
                       text=True, check=True)
    assert r.stdout.split() == targets.target("ulx3s-twin").xv6_make_args()
    r = subprocess.run([py, "-m", "boards.targets", "ulx3s", "console"], cwd=TOP, capture_output=True, text=True)
    assert r.returncode == 2 and "litex_term" in r.stderr
    r = subprocess.run([py, "-m", "boards.targets", "sim", "console", "--uart", "tcp:2001"], cwd=TOP,
                       capture_output=True, text=True)
    assert r.returncode == 2 and "the twins'" in r.stderr


def python_sources(*dirs):
    out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard",
                          *(f"{d}/*.py" for d in dirs)], cwd=TOP, capture_output=True, text=True, check=True)
    return [p for p in out.stdout.split() if os.path.exists(os.path.join(TOP, p))]


# A target's name taken apart or put together: "-twin" cut off or added, or "sim" compared.
TAKES_APART = re.compile(r"""(removesuffix|endswith|removeprefix)\(["']-twin["']\)|\}-twin["']"""
                         r"""|(target|name)\b\s*[!=]= ["']sim["']""")


def test_no_other_module_takes_a_target_name_apart():
    bad = [f"{p}:{i}: {ln.strip()}" for p in python_sources("soc", "boards", "scripts", "tests")
           if p not in ("boards/targets.py", "tests/test_targets.py")
           for i, ln in enumerate(open(os.path.join(TOP, p)), 1) if TAKES_APART.search(ln)]
    assert not bad, "ask boards/targets.py's target(name) instead:\n" + "\n".join(bad)


def imports(path):
    """The project modules a Python file imports (at any depth in it), as dotted names."""
    tree = ast.parse(open(os.path.join(TOP, path)).read())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names |= {node.module} | {f"{node.module}.{a.name}" for a in node.names}
    return {n for n in names if n.split(".")[0] in ("boards", "soc", "scripts", "gateware")}


def test_soc_and_boards_do_not_import_scripts():
    """Build tooling soc/ and boards/ use lives beside them, not in scripts/ (the tools
    that use soc/ and boards/)."""
    bad = {p: sorted(n for n in imports(p) if n.startswith("scripts")) for p in python_sources("soc", "boards")}
    assert not {p: n for p, n in bad.items() if n}


def test_no_import_circle_in_boards():
    mods = {p[:-3].replace("/", "."): p for p in python_sources("boards")}
    graph = {m: {n for n in imports(p) if n in mods and n != m} for m, p in mods.items()}
    graph["boards.twin"] |= {f"boards.{b}" for b in TWIN_BOARDS}    # importlib, by name

    def reach(m, seen):
        for n in graph[m] - seen:
            seen.add(n)
            reach(n, seen)
        return seen
    circles = sorted(m for m in graph if m in reach(m, set()))
    assert not circles, {m: sorted(graph[m]) for m in circles}
