# SPDX-License-Identifier: MIT
"""The ROM checks a program before it jumps (soc/bootrom.py, firmware/bootrom/bootcheck.c;
docs/integrity.md, "Verified boot"), and the measurement register records what booted
("Measured boot"; the register's core alone: tests/test_measure.py).

The attacker owns everything on the wire and in RAM before the jump: the kernel, its header,
the boot description. On litex_sim and on the ULX3S twin (the board's ROM, SDRAM and L2),
each way of getting a program the device key did not sign run is refused by the ROM with its
line and no jump, and the signed kernel runs. Every refusal here ran the unchecked kernel on
the ROM before this check (LiteX's boot_helper jumps to whatever it is given).
"""

import os
import re
import secrets
import select
import shutil
import signal
import subprocess
import sys
import time

import pytest

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, TOP)

from gateware import devicekey, hashspec as S  # noqa: E402
from gateware.buildstamp import locked  # noqa: E402
from boards.targets import target  # noqa: E402
from scripts import measure, signimage  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from xv6session import outputs, xv6  # noqa: E402

BASE = signimage.MAIN_RAM_BASE
BOOTED = "xv6-rv32 kernel booting"


def signed(key=None, load=BASE, **kw):
    """An attack: the header signed over the (unchanged) kernel with these fields/key."""
    def make(kernel, header):
        return kernel, signimage.sign(kernel, key or devicekey.load(), load, **kw)
    return make


def flip_byte(kernel, header):
    k = bytearray(kernel)
    k[len(k) // 2] ^= 0x01
    return bytes(k), header


# name: (what the attacker does to (kernel.bin, kernel.hdr), the ROM's refusal: the word in
# "bootrom: REFUSED (<word>)")
ATTACKS = {
    "one-byte-changed": (flip_byte, "MAC"),
    "truncated": (lambda k, h: (k[:len(k) - 4096], h), "MAC"),
    "header-at-rom": (signed(load=0x0000_0000), "addresses"),
    "header-at-csr": (signed(load=0xF000_0000), "addresses"),
    "entry-outside-image": (signed(entry=BASE + 0x100000), "addresses"),     # past any kernel
    "image-over-header": (signed(load=signimage.header_address() - 0x100), "addresses"),
    "another-key": (signed(key=secrets.token_bytes(S.DEVICE_KEY_BYTES)), "MAC"),
    "older-version": (signed(version=S.BOOT_MIN_VERSION - 1), "version"),
    "other-format": (signed(fmt=S.BOOT_FORMAT + 1), "header"),
    "no-header": (lambda k, h: (k, None), "header"),
}
# The list, run on the twin too (each twin run costs ~1 min of the suite).
TWIN_ATTACKS = ("one-byte-changed", "truncated", "header-at-rom", "header-at-csr", "another-key",
                "older-version")


def make_xv6(t):
    """xv6 built for the target `t` (boards/targets.py); its build directory."""
    with locked("os-port"):
        r = subprocess.run(["make", "-C", os.path.join(TOP, "os-port"), "-j2", *t.xv6_make_args()],
                           capture_output=True, text=True)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    return t.xv6_build_dir


def images(build, tmp_path, attack=None):
    """The boot description of the kernel (changed by `attack`), its header and fs.img."""
    kernel = open(os.path.join(build, "kernel.bin"), "rb").read()
    header = open(os.path.join(build, "kernel.hdr"), "rb").read()
    if attack:
        kernel, header = attack(kernel, header)
    k, h = tmp_path / "kernel.bin", tmp_path / "kernel.hdr"
    k.write_bytes(kernel)
    extra = [(os.path.join(build, "fs.img"), BASE + 0x200000)]
    if header is None:
        return [*extra, (str(k), BASE)]
    h.write_bytes(header)
    return [*extra, (str(h), signimage.header_address()), (str(k), BASE)]


def run_until(argv, cwd, pattern, timeout, typed=None):
    """Run a prepared simulation until `pattern` shows (or it ends); its output so far.
    `typed`: a command line typed once at the shell's first prompt."""
    proc = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.PIPE if typed else subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    out, end = b"", time.monotonic() + timeout
    try:
        while time.monotonic() < end and not re.search(pattern, out.decode(errors="replace")):
            if typed and out.endswith(b"$ "):
                proc.stdin.write(typed.encode() + b"\n")
                proc.stdin.flush()
                typed = None
            r, _, _ = select.select([proc.stdout], [], [], 1)
            if r:
                chunk = os.read(proc.stdout.fileno(), 4096)
                if not chunk:
                    break
                out += chunk
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
        proc.wait()
        shutil.rmtree(cwd, ignore_errors=True)
    return out.decode(errors="replace")


class Platform:
    """A target (boards/targets.py) with xv6 built for it. `measured`: its SoC has the
    measurement register (its generated csr.h says so)."""

    def __init__(self, name):
        self.name = name
        self.target = target(name)
        self.target.build()
        self.build = make_xv6(self.target)
        self.twin = self.target.board is not None        # the board's SDRAM model: slower
        self.measured = "CSR_MEASURE_BASE" in open(os.path.join(self.target.generated_dir, "csr.h")).read()

    def run(self, imgs, pattern, tmp_path):
        return run_until(*self.target.run_command(imgs), pattern, 600 if self.twin else 300)


PLATFORMS = ("sim", "ulx3s-twin")
pytestmark = pytest.mark.simbuild


@pytest.fixture(scope="module", params=list(PLATFORMS))
def platform(request):
    return Platform(request.param)


REFUSED = r"bootrom: boot stopped"
DOC = os.path.join(TOP, "docs", "integrity.md")


def doc():
    return " ".join(open(DOC).read().split())


def doc_refusals():
    """docs/integrity.md's recorded refusals: {attack: line with the length as +N}."""
    text = open(DOC).read()
    block = text.split("<!-- bootrom-refusals:", 1)[1].split("```", 2)[1]
    return dict(ln.split(None, 1) for ln in block.strip().splitlines())


def test_signed_kernel_runs(platform, tmp_path):
    out = platform.run(images(platform.build, tmp_path), BOOTED, tmp_path)
    n = os.path.getsize(os.path.join(platform.build, "kernel.bin"))
    assert re.search(rf"bootrom: device key fingerprint {devicekey.fingerprint()}\n", out), out[-2000:]
    m = re.search(rf"bootrom: image 0x40000000\+{n} version {S.BOOT_IMAGE_VERSION} verified in (\d+) clocks, "
                  r"entry 0x40000000\n", out)
    assert m, out[-2000:]
    assert BOOTED in out and "REFUSED" not in out
    # docs/integrity.md quotes this run's figures ("Cost", and litex_sim's lines)
    clocks = int(m.group(1))
    if not platform.twin:
        assert m.group(0).strip() in doc(), f"docs/integrity.md: the sample should read {m.group(0).strip()!r}"
        assert f"the {n:,}-byte kernel takes {clocks:,} clocks on litex_sim" in doc(), (n, clocks)
        bios = os.path.getsize(os.path.join(platform.target.build_dir, "software", "bios", "bios.bin"))
        assert f"to {bios:,} bytes (litex_sim" in doc(), bios
    else:
        # (the twin's clocks move a little with where the SDRAM's refreshes fall: within 1%)
        m = re.search(r"and ([\d,]+) clocks on the ULX3S twin \(([\d.]+) ms at 60 MHz; its kernel is ([\d,]+) bytes\)",
                      doc())
        assert m, "docs/integrity.md: no twin figure"
        quoted = int(m.group(1).replace(",", ""))
        assert abs(quoted - clocks) <= 0.01 * clocks and float(m.group(2)) == round(quoted / 60e3, 2), (quoted, clocks)
        assert int(m.group(3).replace(",", "")) == n, (m.group(3), n)


@pytest.mark.parametrize("attack", list(ATTACKS))
def test_rom_refuses(platform, attack, tmp_path):
    if platform.twin and attack not in TWIN_ATTACKS:
        pytest.skip("on litex_sim only (the twin runs the issue's list)")
    change, word = ATTACKS[attack]
    out = platform.run(images(platform.build, tmp_path, change), REFUSED + "|" + BOOTED, tmp_path)
    lines = [ln for ln in out.splitlines() if ln.startswith("bootrom: REFUSED")]
    assert len(lines) == 1 and lines[0].startswith(f"bootrom: REFUSED ({word}): "), out[-2000:]
    assert lines[0].endswith("; no jump") and BOOTED not in out, out[-2000:]
    # docs/integrity.md's recorded line for this attack is this run's
    assert doc_refusals()[attack] == re.sub(r"\+\d+", "+N", lines[0], count=1), lines[0]


def test_measurement_is_the_hosts(platform):
    """Measured boot: the ROM extends the register with the kernel's SHA-256, the kernel with
    the manifest's; `measure` in xv6 prints what scripts/measure.py computes from the build's
    files, and so do the ROM's and the kernel's boot lines at each step. On every target:
    the simulator's SoC and the board's (its twin) have the register."""
    assert platform.measured, f"{platform.name}: its csr.h has no measurement register"
    st, t = xv6(["measure"], platform="litex", timeout=600, boot_timeout=600 if platform.twin else 300,
                extra=("--target", platform.name))
    assert st == 0, t[-3000:]
    kernel = open(os.path.join(platform.build, "kernel.bin"), "rb").read()
    manifest = open(os.path.join(platform.build, "manifest"), "rb").read()
    import hashlib
    after_rom, _ = measure.expected(kernel)
    value, n = measure.expected(kernel, manifest)
    assert f"bootrom: image sha256 {hashlib.sha256(kernel).hexdigest()}\n" in t, t[:3000]
    assert f"bootrom: measurement {after_rom.hex()} (1 extend)\n" in t, t[:3000]
    assert f"measure: manifest sha256 {hashlib.sha256(manifest).hexdigest()}\n" in t, t[:4000]
    assert outputs(t, ["measure"])["measure"].strip() == f"measurement {value.hex()} ({n} extends)"


def test_without_the_register_the_rom_says_so_and_boots(tmp_path):
    """A SoC built without the measurement register (--no-measure: soc/hashsoc.py's
    with_measure=False) still verifies and boots its kernel; the ROM says it measured
    nothing, and `measure` in xv6 says there is no register. On litex_sim only: the branch
    is the ROM's and the kernel's, the same on every target."""
    from boards.targets import SimTarget
    t = SimTarget(measure=False)
    t.build()
    assert "CSR_MEASURE_BASE" not in open(os.path.join(t.generated_dir, "csr.h")).read()
    build = make_xv6(t)
    out = run_until(*t.run_command(images(build, tmp_path)), r"measure: no measurement register.*\n|REFUSED",
                    300, typed="measure")
    assert "bootrom: no measurement register: nothing measured\n" in out, out[-3000:]
    n = os.path.getsize(os.path.join(build, "kernel.bin"))
    assert re.search(rf"bootrom: image 0x40000000\+{n} version \d+ verified in \d+ clocks", out), out[-3000:]
    assert "bootrom: measurement" not in out and "measure: manifest" not in out, out[-3000:]
    assert BOOTED in out and "measure: no measurement register on this platform" in out, out[-3000:]
