# SPDX-License-Identifier: MIT
"""One style per language: C as .clang-format says, Python as ruff.toml says.

`make format` applies the C style; a file that drifts from it fails here with the
formatter's own diagnostics.
"""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.dirname(sys.executable)


def tracked(*patterns):
    """Files git tracks (all of them with no pattern), that exist in the work tree."""
    out = subprocess.run(["git", "ls-files", *patterns], cwd=ROOT, capture_output=True, text=True, check=True)
    return [p for p in out.stdout.split() if os.path.exists(os.path.join(ROOT, p))]


def test_c_sources_follow_clang_format():
    files = tracked("*.c", "*.h")
    assert len(files) > 50
    r = subprocess.run([os.path.join(BIN, "clang-format"), "--dry-run", "-Werror", *files],
                       cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, "run `make format`:\n" + r.stderr[-3000:]


def test_c_sources_have_no_tabs():
    """.clang-format says UseTab: Never, but clang-format leaves the text of a comment
    alone, so a tab-indented comment line passes it and shows at another width in
    every editor."""
    files = tracked("*.c", "*.h", "*.S")
    bad = [f"{p}:{n}" for p in files
           for n, line in enumerate(open(os.path.join(ROOT, p), errors="replace"), 1) if "\t" in line]
    assert not bad, "tabs (indent with spaces, as .clang-format says):\n" + "\n".join(bad[:20])


def test_python_passes_ruff():
    r = subprocess.run([os.path.join(BIN, "ruff"), "check", "."], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout[-3000:]


SPDX = "SPDX-License-Identifier: MIT"
SOURCE_SUFFIXES = (".c", ".h", ".S", ".ld", ".py", ".mk", ".sh", ".tbl", ".toml", ".ini")


def test_every_source_file_names_its_license():
    """LICENSE is MIT (with xv6's notice for the port's design); each source file says so."""
    files = [p for p in tracked() if p.endswith(SOURCE_SUFFIXES) or os.path.basename(p) == "Makefile"]
    assert len(files) > 150
    missing = [p for p in files if SPDX not in open(os.path.join(ROOT, p), errors="replace").read(400)]
    assert not missing, f"no '{SPDX}' line near the top: {missing}"
