# SPDX-License-Identifier: MIT
"""README's `make demo` samples are recorded runs (scripts/readme_demo.py): a new run on
litex_sim gives the firmware's block exactly (simulated clocks are exact) and the xv6
session's within the script's tolerance for its timing table. When this fails, the README
shows another SoC, driver or kernel than the tree's: `python scripts/readme_demo.py --write`."""

import importlib.util
import os

import pytest

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

pytestmark = pytest.mark.simbuild


def readme_demo():
    spec = importlib.util.spec_from_file_location("readme_demo", os.path.join(TOP, "scripts", "readme_demo.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("part", ["firmware", "xv6"])
def test_readme_demo_block_is_a_run(part):
    rd = readme_demo()
    recorded = rd.blocks(open(rd.README).read())[part][2]
    new = rd.firmware_block() if part == "firmware" else rd.xv6_block()
    bad = rd.differences(part, recorded, new)
    assert not bad, "\n".join(bad[:10]) + "\n(python scripts/readme_demo.py --write)"


def test_differences_catches_a_changed_figure():
    """The comparison itself: a digest or a firmware clock that changed is a difference; an
    xv6 timing figure that moved a little is not, one that moved far is."""
    rd = readme_demo()
    fw = "  software     8755 clocks  same digest\n"
    assert rd.differences("firmware", fw, fw) == []
    assert rd.differences("firmware", fw, fw.replace("8755", "8756"))
    row = "  user space (sw)             23456       7818    1563.73\n"
    assert rd.differences("xv6", row, row.replace("23456", "24000")) == []
    assert rd.differences("xv6", row, row.replace("23456", "43456"))
    line = "SHA-256 hash of 'hello': 2cf24dba\n"
    assert rd.differences("xv6", line, line.replace("2cf2", "2cf3"))
    assert rd.differences("xv6", "init: booted in 4776134 clocks\n", "init: booted in 4776056 clocks\n") == []
    assert rd.differences("xv6", "init: booted in 4776134 clocks\n", "init: booted in 4786056 clocks\n")
