# SPDX-License-Identifier: MIT
"""The board twin (boards/twin.py): it is the board's SoC, and the board's boot path works.

- The twin's generated description (csr.json: CSR map, memory regions, constants such as
  CONFIG_CLOCK_FREQUENCY, L2_SIZE and the SDRAM PHY's latencies) equals the ULX3S board
  build's, but for the platform's name; so does every generated header software is built
  against. A twin that drifted from the board (another PHY setting, another CSR order,
  another clock) fails here.
- The SDRAM bank files round-trip: what write_sdram_init puts in the bank files, read back
  with the ROW_BANK_COL mapping, is the image.
- The documented serial boot (BIOS built as for the board, litex_term --images over TCP)
  reaches the xv6 prompt and runs a hash on the engine (~3-5 min); on the Arty the BIOS
  first levels the read path, and its picks must lie in the build's windows.
The firmware self-test and xv6's hash commands run on the twin in test_soc_firmware.py and
test_xv6_hash.py (parametrized over boards.TARGETS).
"""

import json
import os
import re
import subprocess
import sys

import pytest

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, TOP)

from boards import targets  # noqa: E402
from boards.targets import TARGETS  # noqa: E402
from boards.twin import write_sdram_init  # noqa: E402
from gateware.buildstamp import locked  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from docquotes import arty_console_block, check_quotes, serialboot_quotes, ulx3s_console_soc_lines  # noqa: E402
from leveling import check_found  # noqa: E402
from boards.a7phy_model import DEFAULT_WINDOWS  # noqa: E402
from scripts import measure  # noqa: E402


# What each board's twin must say about itself: the clock, the L2, main RAM, and the PHY
# the LiteDRAM controller was generated for (the board PHY's, read from sdram_phy.h).
BOARD_FACTS = {
    "ulx3s": {"platform": "ulx3s", "clock": 60_000_000, "main_ram": 32 << 20, "reset_to_prompt_s": 30,
              "phy": ("SDRAM_PHY_GENSDRPHY", "SDRAM_PHY_DATABITS 16", "SDRAM_PHY_PHASES 1", "SDRAM_PHY_CL 2")},
    "arty": {"platform": "digilent_arty", "clock": 100_000_000, "main_ram": 256 << 20, "reset_to_prompt_s": 15,
             "phy": ("SDRAM_PHY_A7DDRPHY", "SDRAM_PHY_DATABITS 16", "SDRAM_PHY_PHASES 4", "SDRAM_PHY_CL 7",
                     "SDRAM_PHY_CWL 5", "SDRAM_PHY_READ_LEVELING_CAPABLE", "SDRAM_PHY_DELAYS 32",
                     "SDRAM_PHY_BITSLIPS 8")},
}
# The A7DDRPHY's CSRs on the Arty's pads, in order (the design brief; the twin's model
# mirrors them from the board PHY, and this list checks that it did).
A7DDRPHY_CSRS = ("rst", "dly_sel", "half_sys8x_taps", "wlevel_en", "wlevel_strobe", "rdly_dq_rst",
                 "rdly_dq_inc", "rdly_dq_bitslip_rst", "rdly_dq_bitslip", "wdly_dq_bitslip_rst",
                 "wdly_dq_bitslip", "rdphase", "wrphase")


# The twins' targets (boards/targets.py): conftest.py groups each one's tests by the name.
@pytest.fixture(scope="module", params=[name for name, t in TARGETS.items() if t.board in BOARD_FACTS])
def target(request):
    return request.param


@pytest.fixture(scope="module")
def twin(target):
    t = targets.target(target)
    t.build()
    return t.twin()


@pytest.fixture(scope="module")
def board_out(target, tmp_path_factory):
    board = targets.target(target).board
    out = tmp_path_factory.mktemp(f"{board}-board")
    r = subprocess.run([sys.executable, "-m", f"boards.{board}", "--no-compile", "--output-dir", str(out)],
                       cwd=TOP, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    return out


@pytest.mark.simbuild
def test_twin_description_is_the_boards(twin, board_out):
    board = json.load(open(os.path.join(board_out, "csr.json")))
    twin_ = json.load(open(os.path.join(twin.build_dir, "csr.json")))
    assert board["constants"].pop("config_platform_name") == BOARD_FACTS[twin.board]["platform"]
    assert twin_["constants"].pop("config_platform_name") == "sim"
    for section in ("csr_bases", "csr_registers", "constants", "memories"):
        assert twin_[section] == board[section], section
    c = twin_["constants"]
    mod = __import__(f"boards.{twin.board}", fromlist=["DEFAULT_SYS_CLK", "L2_SIZE"])
    facts = BOARD_FACTS[twin.board]
    assert c["config_clock_frequency"] == mod.DEFAULT_SYS_CLK == facts["clock"]
    assert c["config_l2_size"] == mod.L2_SIZE
    assert twin_["memories"]["main_ram"]["size"] == facts["main_ram"] == twin.main_ram_size
    phy = open(os.path.join(twin.generated_dir, "sdram_phy.h")).read()
    for line in facts["phy"]:
        assert f"#define {line}\n" in phy, line
    if twin.board == "arty":
        regs = [n.removeprefix("ddrphy_") for n in twin_["csr_registers"] if n.startswith("ddrphy_")]
        assert tuple(regs) == A7DDRPHY_CSRS, regs


@pytest.mark.simbuild
def test_twin_headers_are_the_boards(twin, board_out):
    bgen = os.path.join(board_out, "software", "include", "generated")

    def text(d, h):     # without LiteX's "generated on <date> by <commit>" banner line
        t = open(os.path.join(d, h)).read()
        t = re.sub(r'#define CONFIG_PLATFORM_NAME "\w+"\n', "", t)
        t = re.sub(r'return "(ulx3s|digilent_arty|sim)";', "", t)      # config_platform_name()
        return re.sub(r".*[Gg]enerated by LiteX.*\n", "", t)

    for h in ("csr.h", "mem.h", "sdram_phy.h", "soc.h"):
        assert text(twin.generated_dir, h) == text(bgen, h), h


@pytest.mark.parametrize("board", sorted(BOARD_FACTS))
def test_sdram_bank_files_round_trip(board, tmp_path):
    """What write_sdram_init puts in the bank files, read back with LiteDRAM's ROW_BANK_COL
    mapping as the PHY model addresses its banks (bank memory word = the controller's
    native word: 2 bytes on the ULX3S, 16 on the Arty), is the image."""
    import random
    from litedram.phy.model import SDRAMPHYModel  # noqa: F401  (the model the layout describes)
    layout = targets.twin_of(board).twin().layout
    geom = {"ulx3s": (4, 9, 2, 1), "arty": (8, 10, 2, 4)}[board]   # banks, colbits, bytes/beat, phases
    nbanks, colbits, beat, phases = geom
    xdr = 1 if phases == 1 else 2
    word = beat * xdr * phases                  # bytes per native word = per bank memory word
    words_per_row = (1 << colbits) // (xdr * phases)
    assert (layout.nbanks, layout.word_bytes, layout.run_bytes) == (nbanks, word, words_per_row * word)
    rnd = random.Random(5)
    a = bytes(rnd.randrange(256) for _ in range(8000))
    b = bytes(rnd.randrange(256) for _ in range(3001))
    (tmp_path / "a").write_bytes(a)
    (tmp_path / "b").write_bytes(b)
    banks = [tmp_path / f"bank{i}" for i in range(nbanks)]
    write_sdram_init([(str(tmp_path / "a"), 0x100), (str(tmp_path / "b"), 0x2102)], 0x100, layout, banks)
    lines = [[int(x, 16) for x in open(p).read().split()] for p in banks]
    mem = bytearray()
    for w in range(len(lines[0]) * nbanks):     # native word w: column, then bank, then row
        col, bank, row = w % words_per_row, (w // words_per_row) % nbanks, w // (words_per_row * nbanks)
        mem += lines[bank][row * words_per_row + col].to_bytes(word, "little")
    assert mem[:len(a)] == a
    assert mem[0x2002:0x2002 + len(b)] == b
    assert not any(mem[len(a):0x2002])


@pytest.mark.simbuild
def test_serial_boot_through_litex_term_to_the_xv6_prompt(twin, tmp_path):
    board, gen = twin.board, twin.generated_dir
    with locked("os-port"):
        r = subprocess.run(["make", "-C", os.path.join(TOP, "os-port"), "-j2", "PLATFORM=litex", f"BOARD={board}",
                            f"LITEX_GENERATED_DIR={gen}"], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout[-3000:]
    fig = os.path.join(twin.build_dir, "serialboot.json")     # kept: docs/boards.md quotes it
    r = subprocess.run([sys.executable, os.path.join(TOP, "scripts", "serialboot.py"), "--quiet", "--board", board,
                        "--json", str(fig), "--timeout", "1800", "--preload-fs", "--cmd", "hash -p hw hello", "--cmd", "ls", "--cmd", "measure"],
                       capture_output=True, text=True, timeout=2400)
    assert r.returncode == 0, (r.stdout[-3000:], r.stderr[-3000:])
    out = r.stdout
    # The board's BIOS (on the Arty the read leveling first, then on both the memtest and
    # the serial boot), litex_term's upload, xv6.
    if board == "arty":
        # the build's read windows (the leveling test moves them): each lane's pick inside
        check_found(out.replace("\r", "\n"), DEFAULT_WINDOWS)
        assert "Memtest OK" in out, out[:5000]
    assert "Memtest OK" in out or "Memtest at" in out, out[:3000]
    assert "Booting from serial" in out and "[LITEX-TERM] Upload complete" in out
    # The ROM checked the uploaded kernel against its uploaded header before the jump.
    assert re.search(r"bootrom: image 0x40000000\+\d+ version \d+ verified in \d+ clocks", out), out[-3000:]
    assert "SHA-256 hash of 'hello': 2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824" in out
    assert re.search(r"^hash\s+2 \d+ \d+$", out, re.M), out[-2000:]
    f = json.load(open(fig))
    # Measured boot on the board's SoC: the ROM's extend (the kernel), the kernel's (the RAM
    # disk's manifest) and `measure` give what scripts/measure.py computes from those files.
    kernel = open(os.path.join(targets.twin_of(board).xv6_build_dir, "kernel.bin"), "rb").read()
    manifest = open(os.path.join(TOP, f["manifest"]), "rb").read()
    value, n = measure.expected(kernel, manifest)
    assert f"bootrom: measurement {measure.expected(kernel)[0].hex()} (1 extend)" in out, out[-5000:]
    assert f"measurement {value.hex()} ({n} extends)" in out, out[-2000:]
    # On the wire: the header and the kernel (the RAM disk was preloaded), framed.
    assert f["fs_preloaded"] and f["bytes"]["kernel.bin"] > 30000
    assert f["wire_bytes"] > f["bytes"]["kernel.bin"] + f["bytes"]["kernel.hdr"]
    # The BIOS kept up with the board's line rate (the twin's UART line drops late bytes).
    assert f["uart_overruns"] == 0 and f["baud"] == 1_000_000
    # Reset to prompt on the board with the full RAM disk, computed from the clocks measured
    # here and the bytes on the wire at the board's rate, within the board's budget (its
    # issue's: 30 s on the ULX3S, 15 s on the Arty).
    assert 0 < f["bios_clocks"] and 0 < f["kernel_to_init_clocks"] < f["bios_clocks"]
    assert f["full_fs"]["reset_to_prompt_s"] <= BOARD_FACTS[board]["reset_to_prompt_s"], f
    # The docs quote these figures: checked here, right after the run that wrote them (in
    # `make test`, test_docs.py may run before this test and skip its copy of the check).
    bad = check_quotes(serialboot_quotes(f))
    assert not bad, "serial boot figures in the docs that differ from " + fig + ":\n" + "\n".join(bad)
    # The walks quote this console (docs/boards.md): the Arty's whole, the ULX3S's SoC lines.
    plain = re.sub(r"\x1b\[[0-9;]*m", "", out.replace("\r", "\n"))     # the BIOS's bold
    lines = {line.rstrip() for line in plain.splitlines()}
    quoted = arty_console_block() if board == "arty" else ulx3s_console_soc_lines()
    stale = [line for line in quoted if line.rstrip() not in lines]
    assert not stale, f"docs/boards.md's {board} console quotes lines this run did not print: {stale}"


def test_rom_does_not_depend_on_our_commit(board_out):
    """The BIOS prints LITEX_GIT_SHA1; LiteX would take it from *our* repository (its package
    lives in our venv), so every commit would change the ROM and the ULX3S's placement.
    soc/hashsoc.py makes it the installed LiteX's version."""
    from importlib.metadata import version
    git_h = open(os.path.join(board_out, "software", "include", "generated", "git.h")).read()
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=TOP, capture_output=True,
                          text=True).stdout.strip()
    assert f'#define LITEX_GIT_SHA1 "{version("litex")}"' in git_h, git_h
    assert not head or head not in git_h


def test_uart_line_paces_and_loses_what_is_not_taken():
    """boards/twinpins.py's UARTLine: one byte per `clocks_per_byte` clocks however fast the
    simulator offers them; a byte the UART does not take in its clock is lost and counted."""
    from migen import Record, run_simulation
    from boards.twinpins import UARTLine

    line = Record([("source_valid", 1), ("source_ready", 1), ("source_data", 8),
                   ("sink_valid", 1), ("sink_ready", 1), ("sink_data", 8)])
    dut = UARTLine(line, clocks_per_byte=10)
    got, lost = [], []

    def bench():
        yield line.sink_valid.eq(1)             # the simulator always has a byte to give
        for cycle in range(200):
            yield line.sink_data.eq(cycle & 0xFF)
            full = 100 <= cycle < 130           # the UART's FIFO is full for 30 clocks
            yield dut.pads.sink_ready.eq(0 if full else 1)
            yield
            if (yield dut.pads.sink_valid):
                (lost if full else got).append(cycle)
        lost.append((yield dut.overruns))

    run_simulation(dut, bench())
    gaps = {b - a for a, b in zip(got, got[1:])}
    assert gaps <= {10, 40} and 10 in gaps, gaps     # 40: across the three lost bytes
    assert lost[:-1] and len(lost[:-1]) == 3 and lost[-1] == 3, lost
