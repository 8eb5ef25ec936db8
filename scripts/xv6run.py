#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Boot the xv6 RV32 port, type shell commands, print the console transcript.

    scripts/xv6run.py --platform qemu --cmd 'echo hi' --cmd 'ls | wc'
    scripts/xv6run.py --platform qemu --split --cmd 'echo hi; ls'
    scripts/xv6run.py --platform litex --cmd 'usertests -q' --timeout 3600

Each --cmd is typed as one line (so xv6 shell lists like `a; b` stay one
command); with --split every --cmd is also split on ';' outside of
parentheses and quotes.  A line is typed one character at a time, each
after the console has echoed the one before, so no input waits in a UART
FIFO that the software may not drain in time (on a board twin, as on the
board, a byte that finds the FIFO full is lost).  After each line the
script waits for the next `$ ` prompt.  The transcript is streamed to
stdout as it arrives.

--record FILE writes the session as JSON: the text before the first prompt
and each command's output and wall time, cut at offsets taken while typing (from the
echo of the line's newline to the next prompt), never searched for in the
transcript afterwards, so output that lands between typed characters
cannot make a command's output unfindable.

Exit status: 0 ok, 2 boot timed out, 3 a command timed out, 4 the kernel
panicked, 5 the emulator exited early, 6 typed input was lost (a twin's
UART overran, or a character was never echoed), 1 usage or build error.

Platforms:
  qemu   qemu-system-riscv32 -machine virt with os-port/build/qemu/kernel.elf
         and fs.img loaded at 0x80200000 (RAM disk).
  litex  <repo>/.venv/bin/python -m soc.sim --ram-init os-port/build/litex/boot.json
         run from the repository root (soc/sim.py connects the UART to stdio);
         with --target ulx3s-twin, the board twin (boards/twin.py) with
         os-port/build/litex-ulx3s/boot.json preloaded in its SDRAM.
Standard library only.
"""
import argparse
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import threading
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO)
from boards.targets import TARGETS, target  # noqa: E402
PROMPT_AT_START = re.compile(r"(?:^|\n)\$ ")
PROMPT = re.compile(r"\n\$ ")
PANIC = re.compile(r"\bm?panic: ")


# The board twin's own reports on the simulator's stdout (boards/twinpins.py, UARTLine: the first
# byte received, an overrun): printed by Verilator on the stdio stream that litex_sim's console
# module flushes after every character, so each arrives whole in one read, wherever the
# console's text is. They are not part of the transcript; an overrun means a typed byte is lost.
TWIN_REPORT = re.compile(r"twin: UART [^\n]*\n")
OVERRUN = "twin: UART receive overrun"
STATUS = {"timeout": 3, "panic": 4, "eof": 5, "lost": 6}


def split_top_level(line):
    """Split on ';' that are not inside parentheses or quotes."""
    parts, depth, quote, cur = [], 0, None, []
    for ch in line:
        if quote:
            if ch == quote:
                quote = None
        elif ch in "\"'":
            quote = ch
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        elif ch == ";" and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
            continue
        cur.append(ch)
    parts.append("".join(cur).strip())
    return [p for p in parts if p]


class Console:
    """The emulator as a child process, its output collected by a thread."""

    def __init__(self, argv, cwd, echo=True):
        self.proc = subprocess.Popen(
            argv, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, start_new_session=True)
        self.buf = ""
        self.reports = []       # the twin's own lines, taken out of buf
        self.cr = False         # a chunk ended in '\r': its '\n' may start the next
        self.lock = threading.Condition()
        self.echo = echo
        self.eof = False
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        fd = self.proc.stdout.fileno()
        while True:
            try:
                data = os.read(fd, 4096)
            except OSError:
                data = b""
            if not data:
                with self.lock:
                    self.eof = True
                    self.lock.notify_all()
                return
            text = ("\r" if self.cr else "") + data.decode("latin-1")
            self.cr = text.endswith("\r")
            text = text[:-1] if self.cr else text
            text = text.replace("\r\n", "\n")
            if self.echo:
                sys.stdout.write(text)
                sys.stdout.flush()
            with self.lock:
                self.reports += TWIN_REPORT.findall(text)
                self.buf += TWIN_REPORT.sub("", text)
                self.lock.notify_all()

    def wait_for(self, pattern, start, timeout):
        """Wait until pattern matches self.buf[start:]; returns
        'ok', 'timeout', 'panic', 'lost' (a twin's UART lost a typed byte) or 'eof'."""
        deadline = time.monotonic() + timeout
        with self.lock:
            while True:
                tail = self.buf[start:]
                if pattern.search(tail):
                    return "ok"
                if PANIC.search(tail):
                    # give the panic message a moment to complete
                    self.lock.wait(0.3)
                    return "panic"
                if self.lost():
                    return "lost"
                if self.eof:
                    return "eof"
                left = deadline - time.monotonic()
                if left <= 0:
                    return "timeout"
                self.lock.wait(min(left, 0.5))

    def send(self, text):
        self.proc.stdin.write(text.encode("latin-1"))
        self.proc.stdin.flush()

    def lost(self):
        return sum(r.startswith(OVERRUN) for r in self.reports)

    def type_line(self, line, timeout, paced=True):
        """Type line and a newline: paced, each character once the one before is echoed;
        else all at once (QEMU's UART holds input until the guest reads it). Returns ('ok',
        offset just past the newline's echo) or (failure, None). Nothing else runs while
        the shell reads a line, so the echo is the next text (another process's output
        could come first: the echo is looked for, not assumed)."""
        for ch in (line + "\n" if paced else [line + "\n"]):
            mark = len(self.buf)
            self.send(ch)
            ch = ch[-1]
            r = self.wait_for(re.compile(re.escape(ch)), mark, timeout)
            if r != "ok":
                return r, None
        with self.lock:
            return "ok", self.buf.index("\n", mark) + 1

    def close(self):
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self.reader.join(2)


def qemu_ram_mb():
    """QEMU's RAM in MiB, as the kernel was built for it (os-port/kernel/plat_qemu.h)."""
    text = open(os.path.join(REPO, "os-port", "kernel", "plat_qemu.h")).read()
    return int(re.search(r"^#define QEMU_RAM_MB\s+(\d+)", text, re.M).group(1))


def emulator_argv(args):
    t = target(args.target)
    build = os.path.abspath(args.build_dir) if args.build_dir else \
        os.path.join(REPO, "os-port", "build", "qemu") if args.platform == "qemu" else t.xv6_build_dir
    if args.platform == "qemu":
        kernel = os.path.join(build, "kernel.elf")
        fsimg = os.path.join(build, "fs.img")
        for f in (kernel, fsimg):
            if not os.path.exists(f):
                sys.exit(f"xv6run: {f} missing: run make -C os-port PLATFORM=qemu")
        return [args.qemu, "-machine", "virt", "-bios", "none", "-m", f"{qemu_ram_mb()}M", "-smp", "1",
                "-display", "none", "-monitor", "none", "-serial", "stdio",
                "-kernel", kernel,
                "-device", f"loader,file={fsimg},addr=0x80200000", *args.qemu_arg], REPO
    if args.sim_cmd:
        # a simulator prepared by other means (its RAM image already in place)
        return shlex.split(args.sim_cmd), os.path.abspath(args.sim_cwd or REPO)
    boot = os.path.relpath(os.path.join(build, "boot.json"), REPO)
    if not os.path.exists(os.path.join(REPO, boot)):
        sys.exit(f"xv6run: {boot} missing: run make -C os-port {' '.join(t.xv6_make_args())}")
    return t.console_command(boot, python=os.path.join(REPO, ".venv", "bin", "python")) + args.sim_arg, REPO


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--platform", choices=["qemu", "litex"], default="qemu")
    ap.add_argument("--cmd", action="append", default=[],
                    help="a shell command line (repeatable)")
    ap.add_argument("--split", action="store_true",
                    help="also split each --cmd on top-level ';'")
    ap.add_argument("--timeout", type=float, default=None,
                    help="seconds per command (default 60 qemu, 1800 litex)")
    ap.add_argument("--boot-timeout", type=float, default=None,
                    help="seconds until the first prompt (default 30 qemu, 900 litex)")
    ap.add_argument("--echo-timeout", type=float, default=None,
                    help="seconds to wait for each typed character's echo (default 10 qemu, 120 litex)")
    ap.add_argument("--build", action="store_true", help="run make -C os-port first")
    ap.add_argument("--build-dir", default=None, help="default os-port/build/PLATFORM")
    ap.add_argument("--target", default="sim", choices=TARGETS,
                    help="litex: the on-chip-RAM simulator (sim) or a board twin")
    ap.add_argument("--qemu", default="qemu-system-riscv32")
    ap.add_argument("--qemu-arg", action="append", default=[],
                    help="qemu: one more argument for QEMU (repeat for more), e.g. -icount")
    ap.add_argument("--sim-arg", action="append", default=[],
                    help="extra argument for soc.sim (litex)")
    ap.add_argument("--sim-cmd", default=None,
                    help="litex: run this command instead of soc.sim (no --ram-init added)")
    ap.add_argument("--sim-cwd", default=None, help="litex: working directory for --sim-cmd")
    ap.add_argument("--record", default=None, metavar="FILE",
                    help="write the session as JSON (boot text, each command's output)")
    ap.add_argument("--quiet", action="store_true",
                    help="print the transcript only at the end")
    ap.add_argument("--from-kernel", action="store_true",
                    help="with --quiet: leave out what the simulator and the BIOS print before "
                         "the kernel starts (up to LiteX's 'Liftoff!')")
    args = ap.parse_args()

    litex = args.platform == "litex"
    timeout = args.timeout if args.timeout is not None else (1800 if litex else 60)
    boot_timeout = args.boot_timeout if args.boot_timeout is not None else (900 if litex else 30)
    echo_timeout = args.echo_timeout if args.echo_timeout is not None else (120 if litex else 10)

    cmds = []
    for c in args.cmd:
        cmds.extend(split_top_level(c) if args.split else [c])

    if args.build:
        r = subprocess.run(["make", "-C", os.path.join(REPO, "os-port"),
                            f"PLATFORM={args.platform}", "-j2"])
        if r.returncode != 0:
            return 1

    argv, cwd = emulator_argv(args)
    con = Console(argv, cwd, echo=not args.quiet)
    status, boot, done = 0, "", []
    try:
        r = con.wait_for(PROMPT_AT_START, 0, boot_timeout)
        if r != "ok":
            status = {**STATUS, "timeout": 2}[r]
            sys.stderr.write(f"\nxv6run: boot failed ({r})\n")
        else:
            boot = con.buf[:PROMPT_AT_START.search(con.buf).end()]
            for c in cmds:
                t0 = time.monotonic()
                r, start = con.type_line(c, echo_timeout, paced=litex)
                if r == "ok":
                    r = con.wait_for(PROMPT, start - 1, timeout)
                if r != "ok":
                    status = STATUS[r]
                    sys.stderr.write(f"\nxv6run: command {c!r} failed ({r}"
                                     + (f": {con.lost()} typed bytes overran the UART" if con.lost() else "")
                                     + ")\n")
                    break
                with con.lock:      # up to the prompt's newline (the prompt follows the output)
                    end = PROMPT.search(con.buf, start - 1).start() + 1
                    done.append({"cmd": c, "output": con.buf[start:max(start, end)],
                                 "seconds": round(time.monotonic() - t0, 1)})   # wall, this host
    finally:
        con.close()
    if args.record:
        with open(args.record, "w") as f:
            json.dump({"status": status, "boot": boot, "commands": done, "twin_reports": con.reports}, f, indent=1)
    if args.quiet:
        out = con.buf
        if args.from_kernel and "Liftoff!" in out:
            out = out[out.find("\n", out.index("Liftoff!")) + 1:].lstrip("\r\n")
        sys.stdout.write(out)
    sys.stdout.write("\n")
    sys.stdout.flush()
    return status


def session(cmds, platform="qemu", timeout=60, boot_timeout=30, build_dir=None, extra=()):
    """This script as a child process, quiet, on `cmds` (a --cmd each) with --record: the
    one way the tests, scripts/readme_demo.py and scripts/bench.py run a session. Returns (exit status, the
    transcript, the recorded commands: [{"cmd", "output", ...}], empty if none were)."""
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        record = os.path.join(tmp, "session.json")
        argv = [sys.executable, os.path.abspath(__file__), "--platform", platform, "--quiet", "--record", record,
                "--timeout", str(timeout), "--boot-timeout", str(boot_timeout)]
        if build_dir:
            argv += ["--build-dir", build_dir]
        for c in cmds:
            argv += ["--cmd", c]
        argv += list(extra)
        r = subprocess.run(argv, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           timeout=timeout * len(cmds) + boot_timeout + 60)
        done = json.load(open(record))["commands"] if os.path.exists(record) else []
    return r.returncode, r.stdout, done


if __name__ == "__main__":
    sys.exit(main())
