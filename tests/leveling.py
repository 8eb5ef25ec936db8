# SPDX-License-Identifier: MIT
"""The board BIOS's read leveling as its console reports it (LiteX's liblitedram: one
"best:" line per byte lane), checked against the Arty twin's read windows
(boards/a7phy_model.py): test_twin_leveling moves the windows, test_twin's serial boot runs
the build's."""

import re

BEST = re.compile(r"best: m(\d+), b(\d+) delays: (?:(\d+)\+-(\d+)|-)")


def chosen(console):
    """{lane: (bit slip, middle tap or None)} from the BIOS's "best:" lines."""
    return {int(m.group(1)): (int(m.group(2)), None if m.group(3) is None else int(m.group(3)))
            for m in BEST.finditer(console)}


def check_found(console, windows):
    picks = chosen(console)
    assert sorted(picks) == list(range(len(windows))), console[-3000:]
    for lane, (first, last, bitslip) in enumerate(windows):
        slip, tap = picks[lane]
        assert slip == bitslip, (lane, picks)
        assert tap is not None and first <= tap <= last, (lane, picks, windows)
