# SPDX-License-Identifier: MIT
"""scripts/xv6run.py, the one harness of every xv6 session (QEMU, litex_sim, both twins),
against a scripted console that misbehaves as a loaded run can:

- another process's output lands between the characters of a typed line (once seen in a
  fresh-clone CI run on the ULX3S twin: every command ran, yet the transcript no longer held
  one typed line whole, and a parser searching for it failed with "substring not found");
- a twin's UART loses a typed byte (an overrun, reported on the simulator's stdout), which
  must fail the session at once rather than run a different command.
"""
import json
import os
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
XV6RUN = os.path.join(REPO, "scripts", "xv6run.py")

# The console: xv6's shell as far as the harness can see it. "bg" starts a "background
# process" that prints in the middle of the next typed line; a line with "lose" in it loses
# its next byte as a twin's UART does (the twin's report, no echo).
CONSOLE = r'''
import os, sys
def out(s):
    os.write(1, s.encode())
out("kernel boot\r\nthe twin's first report follows\r\n$ ")
line, bg, lose, first = "", False, False, True
while True:
    c = os.read(0, 1).decode()
    if not c:
        break
    if lose:
        out("twin: UART receive overrun, a byte lost\n")
        lose = False
        continue
    if c == "\n" or c == "\r":
        out("\r\n")
        if line == "bg":
            out("started\r\n")
            bg = True
        elif line.startswith("echo "):
            out(line[5:] + "\r\n")
        out("$ ")
        line = ""
        continue
    out(c)
    if first:
        out("twin: UART first byte received at clock 12345\n")
        first = False
    line += c
    if bg and len(line) == 3:
        out("BACKGROUND\r\n")
        bg = False
    if "lose" in line:
        lose = True
'''


def session(tmp_path, cmds):
    script = tmp_path / "console.py"
    script.write_text(CONSOLE)
    record = tmp_path / "session.json"
    argv = [sys.executable, XV6RUN, "--platform", "litex", "--quiet", "--record", str(record),
            "--sim-cmd", f"{sys.executable} {script}", "--timeout", "20", "--boot-timeout", "20",
            "--echo-timeout", "20"]
    for c in cmds:
        argv += ["--cmd", c]
    r = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=120)
    return r.returncode, r.stdout, json.loads(record.read_text())


def test_output_between_typed_characters_hides_no_command(tmp_path):
    cmds = ["bg", "echo one", "echo two"]
    st, t, rec = session(tmp_path, cmds)
    assert st == 0, t
    assert "$ echo one\n" not in t and "$ ech" in t      # the line really was split
    assert [c["cmd"] for c in rec["commands"]] == cmds
    out = {c["cmd"]: c["output"] for c in rec["commands"]}
    assert out == {"bg": "started\n", "echo one": "one\n", "echo two": "two\n"}
    # the twin's own report is not console text
    assert "twin:" not in t and rec["twin_reports"] == ["twin: UART first byte received at clock 12345\n"]
    assert rec["boot"].endswith("$ ") and "kernel boot" in rec["boot"]


def test_a_lost_typed_byte_fails_the_session(tmp_path):
    st, t, rec = session(tmp_path, ["echo lose this", "echo never"])
    assert st == 6, t
    assert "overran the UART" in t
    assert rec["commands"] == []
