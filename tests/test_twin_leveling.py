# SPDX-License-Identifier: MIT
"""The Arty twin's read leveling (boards/a7phy_model.py): the board's BIOS must find each
byte lane's window of IDELAY taps and its bit slip, as on the board.

The PHY model passes a lane's read data intact only at one bit slip and inside a window of
taps, per lane; the windows are read from a file when the twin starts, so each run here
sets its own without rebuilding Verilator:
- the windows moved (two configurations: the build's, in test_twin.py's serial boot of
  the Arty twin, and another here): the BIOS picks each lane's bit slip, centres its taps
  inside the window, and the memtest passes;
- no window at all: the BIOS reports, lane by lane and bit slip by bit slip, that it found
  no working tap ("delays: -"), and goes on to its memtest with the read path unaligned
  (which then fails: "Memtest KO", ~2 min later; the run stops at the memtest's start).
The moved-window run is the board's BIOS up to the end of its memtest ("Memtest OK", ~2.5
min here): what follows (memspeed, serial boot) does not depend on the windows, and the
serial boot in test_twin.py runs it.
"""

import re
import subprocess
import time

import pytest

from boards.a7phy_model import DEFAULT_WINDOWS
from boards.targets import twin_of
from docquotes import marked_block
from leveling import check_found, chosen

pytestmark = pytest.mark.simbuild

# Another lane placement than the build's: lane 0 low and narrow, lane 1 up to the last tap.
MOVED = ((3, 10, 6), (20, 31, 1))


@pytest.fixture(scope="module")
def twin():
    t = twin_of("arty").twin()
    t.build()
    return t


def board_bios(twin, windows, timeout=900, until=("Memtest OK", "Memtest KO", "Memory initialization failed")):
    """The console of the board's BIOS with these read windows, up to a line with one of
    `until` (default: the memtest's verdict, or the BIOS's report that the memory failed)."""
    argv, cwd = twin.prepare_run([], bios="board", phy_windows=windows)
    proc = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)
    out, deadline = [], time.time() + timeout
    try:
        for raw in proc.stdout:
            line = raw.decode(errors="replace")
            out.append(line)
            if any(u in line for u in until):
                break
            if time.time() > deadline:
                raise TimeoutError(f"the BIOS printed none of {until} in {timeout} s")
    finally:
        proc.kill()
        proc.wait()
    return "".join(out).replace("\r", "\n")


def test_bios_levels_a_moved_window_and_memtest_passes(twin):
    assert MOVED != DEFAULT_WINDOWS
    console = board_bios(twin, MOVED)
    check_found(console, MOVED)
    assert "Memtest OK" in console, console[-3000:]
    lines = {line.rstrip() for line in console.splitlines()}
    # the BIOS lines docs/boards.md quotes from this run
    stale = [line for line in marked_block("docs/boards.md", "arty-leveling") if line.rstrip() not in lines]
    assert not stale, f"docs/boards.md quotes BIOS lines this run did not print: {stale}"


def test_bios_reports_no_window(twin):
    console = board_bios(twin, (None, None), until=("Memtest at",))
    picks = chosen(console)
    assert sorted(picks) == [0, 1] and all(tap is None for _, tap in picks.values()), console[-3000:]
    scans = re.findall(r"m(\d), b(\d\d): \|([01]+)\| delays: (\S+)", console)
    assert len(scans) == 2 * 8 and all(set(s) == {"0"} and d == "-" for _, _, s, d in scans), scans
