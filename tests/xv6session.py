# SPDX-License-Identifier: MIT
"""The tests' way to use xv6: build it in os-port (`make`), run a session on QEMU, litex_sim
or a twin through scripts/xv6run.py (`xv6`), and take each command's output (`outputs`).
Shared by every xv6 test module (test_xv6_qemu, test_xv6_hash, test_xv6_integrity,
test_xv6_litex, test_bootrom, test_devicekey), so none imports another."""
import os
import subprocess

from gateware.buildstamp import locked
from scripts import xv6run

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OSPORT = os.path.join(REPO, "os-port")
README = os.path.join(OSPORT, "README")

def make(*args):
    """make in os-port; one at a time across pytest-xdist's workers (gateware/buildstamp.py)."""
    with locked("os-port"):
        r = subprocess.run(["make", "-C", OSPORT, "-j2", *args],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert r.returncode == 0, r.stdout[-4000:]
    return r.stdout


class Transcript(str):
    """The console text of one session, with each command's output as scripts/xv6run.py
    recorded it (`outputs`: command line -> text)."""
    outputs = {}


def xv6(cmds, timeout=60, build_dir=None, extra=(), platform="qemu", boot_timeout=30):
    """Boot, type the command lines, return (exit status, Transcript)."""
    status, out, done = xv6run.session(cmds, platform, timeout, boot_timeout, build_dir, extra)
    t = Transcript(out)
    t.outputs = {c["cmd"]: c["output"] for c in done}
    return status, t


def outputs(transcript, cmds):
    """Map each typed command line to the text it printed before the next prompt, as
    xv6run cut it while typing (not searched for afterwards: output that lands between
    typed characters cannot hide a command). Command lines must be distinct."""
    assert len(set(cmds)) == len(cmds)
    missing = [c for c in cmds if c not in transcript.outputs]
    assert not missing, f"no output recorded for {missing[:3]}: {transcript[-2000:]}"
    return {c: transcript.outputs[c] for c in cmds}


def host_wc(path):
    data = open(path, "rb").read()
    return data.count(b"\n"), len(data.split()), len(data)
