# SPDX-License-Identifier: MIT
"""xv6 on the HashSoC SoC in litex_sim: one boot, the shell commands of a first session,
the time CSR from user space, and the quick usertests.

The kernel is built against the simulator's generated csr.h/soc.h (make -C os-port
PLATFORM=litex), loaded with its RAM disk through the RAM image, and driven through
scripts/xv6run.py exactly as `make run` does.
"""

import os
import re
import subprocess
import sys

import pytest

from soc import sim
from gateware.buildstamp import locked

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from xv6session import outputs, xv6  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
README = os.path.join(REPO, "os-port", "README")
CMDS = [
    "ls",
    "echo hello from xv6",
    "cat README | wc",
    "grep xv6 README | wc",
    "mkdir d1",
    "echo inside > d1/f",
    "cat d1/f",
    "ls d1",
    "echo one two three | grep two",
    "wc < README",
    "timetest 3",
    "sysbench 100",
    "usertests -q",
]


# Every test here builds (or reuses) a Verilator simulator: `make test-fast` leaves them out.
pytestmark = pytest.mark.simbuild


@pytest.fixture(scope="module")
def session():
    sim.build()
    with locked("os-port"):
        r = subprocess.run(["make", "-C", os.path.join(REPO, "os-port"), "-j2", "PLATFORM=litex",
                            f"LITEX_GENERATED_DIR={os.path.join(sim.BUILD_DIR, 'software', 'include', 'generated')}"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert r.returncode == 0, r.stdout[-3000:]
    return xv6(CMDS, timeout=900, platform="litex", boot_timeout=600)


def out(transcript, cmd):
    return outputs(transcript, [cmd])[cmd]


def host_wc(data):
    lines = data.count(b"\n")
    return f"{lines} {len(data.split())} {len(data)}"


def test_boots_and_every_command_returns(session):
    rc, t = session
    assert rc == 0, t[-3000:]
    assert "panic" not in t


def test_shell_commands(session):
    _, t = session
    readme = open(README, "rb").read()
    assert "README" in out(t, "ls") and "usertests" in out(t, "ls")
    assert out(t, "echo hello from xv6").strip() == "hello from xv6"
    assert out(t, "cat README | wc").split() == host_wc(readme).split()
    grep_lines = [l for l in readme.split(b"\n") if b"xv6" in l]
    got = out(t, "grep xv6 README | wc").split()
    assert int(got[0]) == len(grep_lines)
    assert out(t, "cat d1/f").strip() == "inside"
    assert "f" in out(t, "ls d1").split()
    assert out(t, "echo one two three | grep two").strip() == "one two three"
    assert out(t, "wc < README").split()[:3] == host_wc(readme).split()


def test_time_csr_from_user_space(session):
    _, t = session
    o = out(t, "timetest 3")      # 3 ticks, not the default 50: 23 M clocks less to simulate
    assert "timetest: OK" in o, o


def test_usertests_quick(session):
    _, t = session
    assert "ALL TESTS PASSED" in out(t, "usertests -q")


def test_sysbench_prints_figures(session):
    _, t = session
    o = out(t, "sysbench 100")
    assert re.search(r"\d", o), o
