# SPDX-License-Identifier: MIT
"""gateware/buildstamp.py: what makes a cached product (engine Verilog, the simulator, the
Arty estimates in docs/fpga.json) stale, and what does not."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from gateware.buildstamp import source_digest  # noqa: E402

CODE = 'def f(x):\n    """Doc."""\n    return max(x, 1)\n'


def digest_of(tmp_path, name, text):
    (tmp_path / name).write_text(text)
    return source_digest([str(tmp_path / name)])


def test_comments_and_layout_do_not_count(tmp_path):
    was = digest_of(tmp_path, "m.py", CODE)
    assert digest_of(tmp_path, "m.py", "# why\n" + CODE.replace("1)", "1)  # note")) == was
    assert digest_of(tmp_path, "m.py", CODE.replace("max(x, 1)", "max(x,\n               1)").replace(":\n", ":\n\n")) == was


def test_code_and_docstrings_count(tmp_path):
    was = digest_of(tmp_path, "m.py", CODE)
    assert digest_of(tmp_path, "m.py", CODE.replace("max(x, 1)", "max(x, 2)")) != was
    assert digest_of(tmp_path, "m.py", CODE.replace("Doc.", "Docs.")) != was


def test_c_counts_byte_for_byte(tmp_path):
    was = digest_of(tmp_path, "m.c", "int f(void) { return 1; }\n")
    assert digest_of(tmp_path, "m.c", "int f(void) { return 1; } /* c */\n") != was


def test_a_file_python_cannot_parse_still_counts(tmp_path):
    was = digest_of(tmp_path, "m.py", "def f(:\n")
    assert digest_of(tmp_path, "m.py", "def f(:  # x\n") != was

