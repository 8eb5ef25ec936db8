#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The board's documented boot path, end to end in its twin: BIOS serial boot of xv6
through litex_term, then shell commands at the xv6 prompt.

    scripts/serialboot.py                       # small RAM disk (CI: a few minutes)
    scripts/serialboot.py --fs full             # the full fs.img (~565 KB; ~10 min here)
    scripts/serialboot.py --cmd 'hash -p hw hello' --cmd 'ls'
    scripts/serialboot.py --preload-fs          # upload the kernel only (make test)

What runs: the twin (boards/twin.py) with the BIOS built exactly as for the board (memtest,
serial boot with its delays) and its UART on litex_sim's serial2tcp module; litex_term
(LiteX's own tool, as on the board) connects with socket://127.0.0.1:PORT, answers the
BIOS's serial-boot request and uploads the kernel and the RAM disk with --images; the BIOS
jumps to the kernel and xv6 starts its shell. litex_term needs a terminal, so it runs on a
pseudo-terminal here.

The twin's UART line runs at the board's rate (boards/twinpins.py, UARTLine: one byte per 10
bit times at the board's 1 Mbaud, a byte the SoC does not take in time is lost and
reported): the BIOS's receive path is checked at the board's rate, and a lost byte fails
the run. Figures (--json): the BIOS's clocks up to the upload and the kernel's clocks up to
init, measured; the upload time computed from the bytes on the wire (10 bits a byte), as
the twin's clocks during the upload also count litex_term's round trips on this host.

--safe: litex_sim's serial2tcp module appends each TCP read (up to 1 KiB) to a 2 KiB ring
with no space check, and litex_term keeps up to 128 frames in flight, so without --safe
frames are lost in the *simulator's* module (CRC errors). With --safe litex_term waits for
each frame's ack. A board's UART has no such ring, and the BIOS's own receive path is
what the upload time depends on there; see docs/boards.md. litex_term reaches the twin
through Relay, so that its console is read the moment the twin answers it (Pty.pump).

--preload-fs: the RAM disk is put in the twin's DRAM at its address before reset (as if an
earlier upload had left it; the BIOS's memtest and leveling stay below it) and litex_term
uploads the signed header and the kernel only. The BIOS's receive loop, litex_term's
--images with more than one image, the ROM's check and the boot run as in the full path,
on 40% of the bytes: the upload is most of a serial boot's simulated clocks (10 bit times a
byte at the board's rate), and `make test` runs it on both twins. The computed reset-to-
prompt figures count the RAM disk's bytes on the wire all the same.

The RAM disk for CI (`--fs small`) is a file system made by the project's mkfs with the
programs the checks use; `--fs full` is the full one (os-port's fs.img). mkfs writes only
the used blocks and the kernel zero-fills the rest. The kernel is the one built for the
board.
"""

import argparse
import json
import os
import pty
import re
import select
import shutil
import socket
import subprocess
import sys
import tempfile
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, TOP)

from boards.common import DEFAULT_UART_BAUDRATE as BAUD  # noqa: E402  the board's, and the twin's line

SMALL_FS_FILES = ["README", "user/_init", "user/_sh", "user/_ls", "user/_hash", "user/_measure"]
# litex_term's serial-boot frame with --safe: length (1), CRC-16 (2), command (1), then a
# 64-byte payload of address (4) and data (60). Without --safe litex_term first calibrates
# and may send up to 251 data bytes a frame; the figures here are for --safe.
FRAME_OVERHEAD = 8
FRAME_DATA = 60
# The file system's full size (os-port/kernel/param.h: FSSIZE blocks of 1 KiB), what the
# RAM disk image was before mkfs wrote only the used blocks.
FSSIZE_BYTES = 2000 * 1024


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def listening(port):
    """Whether something listens on 127.0.0.1:port (read from /proc: a probe connection
    would be taken by serial2tcp as its client)."""
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = open(table).read().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            f = line.split()
            if f[3] == "0A" and int(f[1].rsplit(":", 1)[1], 16) == port:
                return True
    return False


def small_fs(xv6_build, out):
    """A file system with SMALL_FS_FILES only; return its image's size (mkfs writes the used
    blocks only, the kernel zero-fills the rest)."""
    osport = os.path.join(TOP, "os-port")
    files = [os.path.join(xv6_build, f) if f.startswith("user/") else os.path.join(osport, f)
             for f in SMALL_FS_FILES]
    # Its own integrity manifest under the device key (docs/integrity.md): the kernel
    # checks it at boot and refuses to run without one.
    from gateware import devicekey
    where = os.path.dirname(out)
    devicekey.use(where)        # the key the board's bitstream holds, never a new one silently
    # For the kernel's version, which its signed header carries (the kernel refuses the
    # manifest of another version).
    from scripts.signimage import field
    version = field(open(os.path.join(xv6_build, "kernel.hdr"), "rb").read(), "version")
    subprocess.run([sys.executable, os.path.join(osport, "tools", "mkmanifest.py"), "--key",
                    devicekey.path(), "--kernel-version", str(version), "--out", where] + files, check=True)
    files += [os.path.join(where, "manifest"), os.path.join(where, "manifest.mac")]
    subprocess.run([os.path.join(osport, "build", "mkfs"), out] + files, check=True,
                   stdout=subprocess.DEVNULL)
    return os.path.getsize(out)


def wire_bytes(n, payload):
    return -(-n // payload) * (payload + FRAME_OVERHEAD)


# litex_term's upload progress, "|====>    | 42%" and a carriage return, written once per
# turn of its upload loop (the carriage returns are dropped on reading).
PROGRESS = re.compile(r"\|[=> ]*\| *\d+%")
PROGRESS_TAIL = re.compile(r"\|[=> ]*(\| *\d*)?$")
# How often litex_term's console is read while the twin has not answered it.
PACE = 0.05


class Relay:
    """litex_term <-> the twin's serial2tcp, byte for byte, through a port of its own, so
    that Pty knows the moment the twin answers litex_term (see Pty.pump)."""

    def __init__(self, twin_port):
        self.twin = socket.create_connection(("127.0.0.1", twin_port))
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.term = None
        self.early = b""            # what the twin said before litex_term connected
        self.twin.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def sockets(self):
        return [s for s in (self.listener, self.twin, self.term) if s is not None]

    def forward(self, ready):
        """Move what `ready` holds from one side to the other; True when the twin spoke."""
        if self.listener in ready:
            self.term, _ = self.listener.accept()
            self.term.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self.listener.close()
            self.listener = None
            self.term.sendall(self.early)
        answered = False
        for src, dst in ((self.term, self.twin), (self.twin, self.term)):
            if src is not None and src in ready:
                data = src.recv(65536)
                if not data:            # one side closed: so does the other
                    self.close()
                    return answered
                if dst is not None:
                    dst.sendall(data)
                else:
                    self.early += data
                answered = answered or src is self.twin
        return answered

    def close(self):
        for s in self.sockets():
            s.close()
        self.listener = self.twin = self.term = None


class Pty:
    """A child process on a pseudo-terminal, its output collected (litex_term's upload
    progress left out)."""

    def __init__(self, argv, log, relay=None):
        self.master, slave = pty.openpty()
        self.proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, cwd=TOP,
                                     start_new_session=True)
        os.close(slave)
        self.buf = ""
        self.log = log
        self.relay = relay
        self.tail = ""              # a progress line cut by a read, kept until its end comes
        self.last_read = 0.0
        self.last_progress = ""

    def pump(self, timeout):
        """Wait up to `timeout` s for litex_term's output and take it; False at its end.

        litex_term's upload loop polls the port for the twin's ack and prints its progress
        line on each turn, so it spins as fast as its terminal takes the lines. Read at
        once, it would burn a core beside the simulation (and this process another,
        searching its output); read every PACE s, it blocks on a full terminal in between,
        and so only learns of an ack at the next read: ~14 k clocks of the ULX3S twin per
        64-byte frame, 15% of its serial boot. So the terminal is read at once when the
        twin has answered litex_term (the relay sees it), and every PACE s otherwise."""
        end = time.monotonic() + timeout
        while True:
            now = time.monotonic()
            watch = self.relay.sockets() if self.relay else []
            due = self.last_read + PACE
            if now >= due:
                watch = watch + [self.master]
            wait = max(0.0, min(end, due) - now) if now < due else max(0.0, end - now)
            r, _, _ = select.select(watch, [], [], wait)
            answered = self.relay.forward(r) if self.relay and r else False
            if self.master in r or answered:
                return self.read()
            if time.monotonic() >= end:
                return True

    def read(self):
        self.last_read = time.monotonic()
        if not select.select([self.master], [], [], 0)[0]:
            return True
        try:
            data = os.read(self.master, 65536)
        except OSError:
            data = b""
        text = self.tail + data.decode("latin-1").replace("\r", "")
        bars = PROGRESS.findall(text)
        text = PROGRESS.sub("", text)
        cut = PROGRESS_TAIL.search(text)
        self.tail = text[cut.start():] if cut else ""
        text = text[:cut.start()] if cut else text
        self.buf += text
        if self.log:
            if bars and bars[-1] != self.last_progress:      # progress, once per step
                self.last_progress = bars[-1]
                text += bars[-1] + "\r"
            self.log.write(text)
            self.log.flush()
        return bool(data)

    def wait_for(self, pattern, start, timeout):
        deadline = time.monotonic() + timeout
        regex = re.compile(pattern)
        while time.monotonic() < deadline:
            m = regex.search(self.buf, start)
            if m:
                return m
            if not self.pump(0.5) or self.proc.poll() is not None:
                self.pump(0.2)
                return regex.search(self.buf, start)
        return None

    def send(self, text):
        for ch in text.encode():
            os.write(self.master, bytes([ch]))
            time.sleep(0.02)

    def close(self):
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, 15)
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, 9)
        os.close(self.master)
        if self.relay:
            self.relay.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--board", default="ulx3s")
    ap.add_argument("--fs", default="small", choices=["small", "full"])
    ap.add_argument("--cmd", action="append", default=[], help="a command for the xv6 shell")
    ap.add_argument("--timeout", type=float, default=1800, help="seconds until the xv6 prompt")
    ap.add_argument("--preload-fs", action="store_true",
                    help="put the RAM disk in the twin's DRAM; upload the header and kernel only")
    ap.add_argument("--quiet", action="store_true", help="no live transcript")
    ap.add_argument("--json", help="write the figures here")
    args = ap.parse_args()

    from boards.targets import twin_of
    target = twin_of(args.board)
    twin = target.twin()
    twin.build()
    xv6_build = target.xv6_build_dir
    kernel = os.path.join(xv6_build, "kernel.bin")
    if not os.path.exists(kernel):
        sys.exit(f"serialboot: {kernel} missing: run make xv6-{args.board}")
    boot = json.load(open(os.path.join(xv6_build, "boot.json")))
    work = tempfile.mkdtemp(prefix="serialboot-", dir=twin.build_dir)
    fs = os.path.join(work, "fs.img")
    if args.fs == "small":
        fs_size = small_fs(xv6_build, fs)
        manifest = os.path.join(work, "manifest")
    else:
        fs = os.path.join(xv6_build, "fs.img")
        fs_size = os.path.getsize(fs)
        manifest = os.path.join(xv6_build, "manifest")
    # The manifest the kernel measures at boot, kept beside the JSON: what the measurement
    # register must say is computed from it and the kernel (scripts/measure.py).
    kept_manifest = os.path.join(twin.build_dir, "serialboot.manifest")
    shutil.copyfile(manifest, kept_manifest)
    images = os.path.join(work, "boot.json")
    header = os.path.join(xv6_build, "kernel.hdr")
    # The kernel last: litex_term jumps to the address of the last image. Its signed header
    # goes too: the ROM checks the kernel before the jump (soc/bootrom.py).
    uploaded = {} if args.preload_fs else {fs: boot["fs.img"]}
    with open(images, "w") as f:
        json.dump({**uploaded, header: boot["kernel.hdr"], kernel: boot["kernel.bin"]}, f)

    payload = FRAME_DATA
    sizes = {"kernel.bin": os.path.getsize(kernel), "kernel.hdr": os.path.getsize(header), "fs.img": fs_size}
    wire = sum(wire_bytes(n, payload) for name, n in sizes.items() if name != "fs.img" or not args.preload_fs)

    port = free_port()
    preload = [(fs, int(boot["fs.img"], 0))] if args.preload_fs else []     # boot.json: "0x..."
    argv, cwd = twin.prepare_run(preload, bios="board", uart=f"tcp:{port}")
    log = None if args.quiet else sys.stdout
    t0 = time.monotonic()
    sim_log = open(os.path.join(work, "twin.log"), "w+")
    # Line-buffered, so that the twin's own reports (UARTLine's) reach the log before the end.
    sim = subprocess.Popen(["stdbuf", "-oL"] + argv, cwd=cwd, stdin=subprocess.DEVNULL, stdout=sim_log,
                           stderr=subprocess.STDOUT, start_new_session=True)
    term = None
    status = 1
    figures = {"board": args.board, "fs": args.fs, "fs_preloaded": args.preload_fs, "bytes": sizes, "wire_bytes": wire,
               "frame_payload": payload, "manifest": os.path.relpath(kept_manifest, TOP)}
    try:
        for _ in range(600):                    # serial2tcp listens once the model runs
            if listening(port):
                break
            time.sleep(0.1)
        relay = Relay(port)
        term = Pty([os.path.join(os.path.dirname(sys.executable), "litex_term"),
                    f"socket://127.0.0.1:{relay.port}", "--images", images, "--safe"], log, relay)
        if not term.wait_for(r"Booting from serial", 0, args.timeout):
            print("\nserialboot: the BIOS never asked for a serial boot", file=sys.stderr)
            return 2
        t_upload = time.monotonic()
        m = term.wait_for(r"init: booted in (\d+) clocks[\s\S]*?\n\$ ", 0, args.timeout)
        if not m:
            print("\nserialboot: no xv6 prompt", file=sys.stderr)
            return 2
        figures["wall_s_to_prompt"] = round(time.monotonic() - t0, 1)
        figures["wall_s_upload_to_prompt"] = round(time.monotonic() - t_upload, 1)
        figures["reset_to_init_clocks"] = int(m.group(1))
        e = re.search(r"kernel: entered (\d+) ms after reset", term.buf)
        figures["kernel_to_init_clocks"] = int(m.group(1)) - int(e.group(1)) * twin.sys_clk_freq // 1000
        # The ROM's check of the kernel, between the upload's end and the jump (soc/bootrom.py).
        figures["rom_check_clocks"] = int(re.search(r"bootrom: image \S+ version \d+ verified in (\d+) clocks",
                                                    term.buf).group(1))
        for c in args.cmd:
            mark = len(term.buf)
            term.send(c + "\n")
            if not term.wait_for(r"\n\$ ", mark + len(c), 900):
                print(f"\nserialboot: command {c!r} timed out", file=sys.stderr)
                return 3
        status = 0
    finally:
        if term:
            term.close()
            if args.quiet:      # the transcript (Pty.read kept litex_term's progress out of it)
                sys.stdout.write(term.buf)
        if sim.poll() is None:
            os.killpg(sim.pid, 15)
            sim.wait()
        sim_log.seek(0)
        twin_out = sim_log.read()
        sim_log.close()
        shutil.rmtree(cwd, ignore_errors=True)
        shutil.rmtree(work, ignore_errors=True)
    # The twin's UART line (boards/twin.py) loses a byte the SoC does not take in time.
    figures["uart_overruns"] = len(re.findall(r"twin: UART receive overrun", twin_out))
    if figures["uart_overruns"]:
        print(f"\nserialboot: {figures['uart_overruns']} bytes lost to UART overruns", file=sys.stderr)
        status = 4
    first = re.search(r"twin: UART first byte received at clock\s+(\d+)", twin_out)
    if status == 0 and not first:
        print("\nserialboot: the twin did not report its first received byte; its output ends:\n"
              + twin_out[-2000:], file=sys.stderr)
        status = 5
    if status == 0:
        # Reset to prompt on the board, computed: the BIOS up to the upload and the kernel's
        # boot to init are clocks measured here; the upload is the bytes on the wire at
        # 10 bits a byte (the twin's clocks during the upload also hold litex_term's
        # round trips on this host, which a board's USB UART does not have).
        f = twin.sys_clk_freq
        figures["baud"] = BAUD
        figures["bios_clocks"] = int(first.group(1))
        fixed_s = (figures["bios_clocks"] + figures["rom_check_clocks"] + figures["kernel_to_init_clocks"]) / f
        full = os.path.getsize(os.path.join(xv6_build, "fs.img"))
        kernel_wire = wire_bytes(sizes["kernel.bin"], payload) + wire_bytes(sizes["kernel.hdr"], payload)
        uploads = {"uploaded": wire,
                   "full_fs": kernel_wire + wire_bytes(full, payload),
                   "full_fs_untrimmed": kernel_wire + wire_bytes(FSSIZE_BYTES, payload)}
        for name, w in uploads.items():
            d = figures.setdefault(name, {})
            d["wire_bytes"] = w
            d["reset_to_prompt_s"] = round(fixed_s + w * 10 / BAUD, 1)
            for baud in (115200, 1_000_000):
                d[f"reset_to_prompt_s_at_{baud}"] = round(fixed_s + w * 10 / baud, 1)
        figures["full_fs"]["fs_bytes"] = full
        fs_note = f" (fs {sizes['fs.img']} preloaded)" if args.preload_fs else f" + {sizes['fs.img']}"
        print(f"\nserialboot: {sizes['kernel.bin']} + {sizes['kernel.hdr']}{fs_note} bytes uploaded, {wire} on the wire, "
              f"no byte lost at {BAUD} baud; BIOS {figures['bios_clocks']} clocks, kernel to init "
              f"{figures['kernel_to_init_clocks']} clocks at {f / 1e6:g} MHz. Reset to prompt on the board "
              f"(computed) with the full RAM disk: {figures['full_fs']['reset_to_prompt_s']} s "
              f"({figures['full_fs']['reset_to_prompt_s_at_115200']} s at 115200 baud; untrimmed "
              f"{figures['full_fs_untrimmed']['reset_to_prompt_s_at_115200']} s). "
              f"{figures['wall_s_to_prompt']} s of wall time here")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(figures, f, indent=1)
    return status


if __name__ == "__main__":
    sys.exit(main())
