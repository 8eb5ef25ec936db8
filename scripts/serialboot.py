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

The twin's UART line runs at the board's rate (boards/twin.py, UARTLine: one byte per 10
bit times at the board's 1 Mbaud, a byte the SoC does not take in time is lost and
reported): the BIOS's receive path is checked at the board's rate, and a lost byte fails
the run. Figures (--json): the BIOS's clocks up to the upload and the kernel's clocks up to
init, measured; the upload time computed from the bytes on the wire (10 bits a byte), as
the twin's clocks during the upload also count litex_term's round trips on this host.

--safe: litex_sim's serial2tcp module appends each TCP read (up to 1 KiB) to a 2 KiB ring
with no space check, and litex_term keeps up to 128 frames in flight, so without --safe
frames are lost in the *simulator's* module (CRC errors). With --safe litex_term waits for
each frame's ack. A board's UART has no such ring, and the BIOS's own receive path is
what the upload time depends on there; see docs/boards.md.

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
import socket
import subprocess
import sys
import tempfile
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, TOP)

from boards.common import DEFAULT_UART_BAUDRATE as BAUD  # noqa: E402  the board's, and the twin's line

SMALL_FS_FILES = ["README", "user/_init", "user/_sh", "user/_ls", "user/_hash"]
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


class Pty:
    """A child process on a pseudo-terminal, its output collected."""

    def __init__(self, argv, log):
        self.master, slave = pty.openpty()
        self.proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, cwd=TOP,
                                     start_new_session=True)
        os.close(slave)
        self.buf = ""
        self.log = log

    def pump(self, timeout):
        r, _, _ = select.select([self.master], [], [], timeout)
        if r:
            try:
                data = os.read(self.master, 65536)
            except OSError:
                data = b""
            text = data.decode("latin-1").replace("\r", "")
            self.buf += text
            if self.log:
                self.log.write(text)
                self.log.flush()
            return bool(data)
        return True

    def wait_for(self, pattern, start, timeout):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            m = re.compile(pattern).search(self.buf, start)
            if m:
                return m
            if not self.pump(0.5) or self.proc.poll() is not None:
                self.pump(0.2)
                return re.compile(pattern).search(self.buf, start)
            # litex_term's upload progress comes a few bytes at a time: without a pause each
            # chunk meant another search of the whole buffer, half a core taken from the
            # simulation for the whole boot (3 min of CPU in a 328 s ULX3S serial boot).
            time.sleep(0.05)
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

    from boards.twin import Twin
    twin = Twin(args.board)
    twin.build()
    xv6_build = os.path.join(TOP, "os-port", "build", f"litex-{args.board}")
    kernel = os.path.join(xv6_build, "kernel.bin")
    if not os.path.exists(kernel):
        sys.exit(f"serialboot: {kernel} missing: run make xv6-{args.board}")
    boot = json.load(open(os.path.join(xv6_build, "boot.json")))
    work = tempfile.mkdtemp(prefix="serialboot-", dir=twin.build_dir)
    fs = os.path.join(work, "fs.img")
    if args.fs == "small":
        fs_size = small_fs(xv6_build, fs)
    else:
        fs = os.path.join(xv6_build, "fs.img")
        fs_size = os.path.getsize(fs)
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
               "frame_payload": payload}
    try:
        for _ in range(600):                    # serial2tcp listens once the model runs
            if listening(port):
                break
            time.sleep(0.1)
        term = Pty([os.path.join(os.path.dirname(sys.executable), "litex_term"),
                    f"socket://127.0.0.1:{port}", "--images", images, "--safe"], log)
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
            if args.quiet:      # the transcript, without litex_term's progress bars
                sys.stdout.write(re.sub(r"\|[=> ]*\| *\d+%", "", term.buf))
        if sim.poll() is None:
            os.killpg(sim.pid, 15)
            sim.wait()
        sim_log.seek(0)
        twin_out = sim_log.read()
        sim_log.close()
        import shutil
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
