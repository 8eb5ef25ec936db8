# SPDX-License-Identifier: MIT
"""Board targets (boards/), programming commands (boards/prog.py), boards.mk.

Fast tests elaborate both boards with --no-compile and check the load/flash commands
with DRY_RUN=1 (no cable needed). The bitstream build with its timing check is marked
`fpga` (minutes; `make ulx3s-ci` runs the same check, `make test` deselects it). The
Arty's recorded yosys estimates (docs/fpga.json) are checked against the tree's sources
and against the XC7A35T's LUTs.
"""

import json
import os
import re
import subprocess
import sys

import pytest

from boards import DEFAULT_ENGINES, TWIN_BOARDS
from gateware import hashspec

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PY = sys.executable
MAKE = ["make", "--no-print-directory", "-f", "boards/boards.mk", f"PY={PY}"]


def run(cmd, env=None, timeout=600, **kw):
    e = dict(os.environ)
    e.pop("DRY_RUN", None)
    e.update(env or {})
    return subprocess.run(cmd, cwd=TOP, env=e, capture_output=True, text=True, timeout=timeout, **kw)


# Elaboration ------------------------------------------------------------------------------------

def elaborate(out, board, *args):
    """`python -m boards.<board> --no-compile` into `out` (Verilog, scripts, headers)."""
    r = run([PY, "-m", f"boards.{board}", "--no-compile", "--output-dir", str(out), *args])
    assert r.returncode == 0, r.stderr[-3000:]
    return out


@pytest.fixture(scope="module")
def ulx3s_out(tmp_path_factory):
    return elaborate(tmp_path_factory.mktemp("ulx3s"), "ulx3s")


@pytest.fixture(scope="module")
def arty_out(tmp_path_factory):
    return elaborate(tmp_path_factory.mktemp("arty"), "arty")


@pytest.mark.parametrize("board", ["ulx3s", "arty"])
def test_rom_minimum_version_is_a_build_option(tmp_path, board):
    """--boot-min-version (make BOOT_MIN_VERSION=) goes into the ROM's soc.h, which the ROM's
    check compares each image's signed version with (firmware/bootrom/bootcheck.c); the
    default is hashspec's. The ROM's software links the check in (--wrap=boot_helper)."""
    from gateware import hashspec
    for args, want in (((), hashspec.BOOT_MIN_VERSION), (("--boot-min-version", "7"), 7)):
        out = elaborate(tmp_path / str(want), board, *args)
        soc_h = open(os.path.join(out, "software", "include", "generated", "soc.h")).read()
        assert re.search(rf"#define CONFIG_BOOT_MIN_VERSION {want}\n", soc_h), soc_h
        mak = open(os.path.join(out, "software", "include", "generated", "variables.mak")).read()
        assert "-Wl,--wrap=boot_helper" in mak and "LIBBOOTCHECK_DIRECTORY=" in mak, mak


def _check_soc(out, top, ram_base, board):
    v = open(os.path.join(out, "gateware", f"{top}.v")).read()
    # The board's default engines (and no other), the VexRiscv linux CPU with its machine
    # timer, a UART.
    engines = DEFAULT_ENGINES[board]
    for e in hashspec.ENGINES:
        assert (f"{e.name}_engine " in v) == (e.name in engines), e.name
    assert "VexRiscv_Linux" in v or "VexRiscv" in v
    csr = open(os.path.join(out, "software", "include", "generated", "csr.h")).read()
    for block in tuple(e.upper() for e in engines) + ("UART", "TIMER0"):
        assert f"CSR_{block}_BASE" in csr, block
    mem = open(os.path.join(out, "software", "include", "generated", "mem.h")).read()
    assert re.search(rf"#define MAIN_RAM_BASE 0x{ram_base:08x}L?", mem, re.I), mem
    for name in engines:
        assert re.search(rf"#define {name.upper()}_BASE 0x{hashspec.engine(name).window:08x}L?", mem, re.I), (name, mem)
    soc_h = open(os.path.join(out, "software", "include", "generated", "soc.h")).read()
    assert "CONFIG_CPU_VARIANT_LINUX" in soc_h or 'CONFIG_CPU_VARIANT_STR "linux"' in soc_h
    return v


def test_ulx3s_elaborates_with_sdram_and_engines(ulx3s_out):
    v = _check_soc(ulx3s_out, "radiona_ulx3s", 0x40000000, "ulx3s")
    assert "sdram" in v
    gw = os.path.join(ulx3s_out, "gateware")
    script = open(os.path.join(gw, "build_radiona_ulx3s.sh")).read()
    # The 85F by default, relative file names (YoWASP cannot see /tmp), a log we parse.
    assert "--85k" in script and "--package CABGA381" in script
    assert "--log nextpnr.log" in script and "--report nextpnr-report.json" in script
    assert "/tmp" not in script.split("\n", 2)[2]
    lpf = open(os.path.join(gw, "radiona_ulx3s.lpf")).read()
    assert re.findall(r'FREQUENCY PORT "clk25" ([\d.]+) MHz;', lpf) == ["25.0"], lpf
    # The main RAM is the board's SDRAM (a LiteDRAM controller), not integrated RAM.
    regions = open(os.path.join(ulx3s_out, "software", "include", "generated", "sdram_phy.h")).read()
    assert "SDRAM_PHY_GENSDRPHY" in regions or "GENSDRPHY" in regions


@pytest.mark.parametrize("device,arch", [("LFE5U-25F", "--25k"), ("LFE5U-45F", "--45k")])
def test_ulx3s_device_is_selectable(tmp_path, device, arch):
    # (also: --pnr-margin over-constrains clk25 for nextpnr; the last FREQUENCY line wins)
    elaborate(tmp_path, "ulx3s", "--device", device, "--engines", "none", "--pnr-margin", "1.2")
    script = open(tmp_path / "gateware" / "build_radiona_ulx3s.sh").read()
    assert arch in script
    lpf = open(tmp_path / "gateware" / "radiona_ulx3s.lpf").read()
    assert re.findall(r'FREQUENCY PORT "clk25" ([\d.]+) MHz;', lpf) == ["25.0", "30.000"], lpf


def test_arty_elaborates_with_ddr3_and_engines(arty_out):
    v = _check_soc(arty_out, "digilent_arty", 0x40000000, "arty")
    assert "OSERDESE2" in v and "IDELAYE2" in v     # the A7 DDR3 PHY
    tcl = open(os.path.join(arty_out, "gateware", "digilent_arty.tcl")).read()
    assert "xc7a35ticsg324-1L" in tcl
    assert "write_cfgmem" in tcl                    # the .bin for SPI flash
    # The project's memory path, as on the ULX3S: our write-through L2, and each engine's
    # DMA on its own 128-bit LiteDRAM port (its lane queue), not a Wishbone master.
    from boards.arty import L2_SIZE
    soc_h = open(os.path.join(arty_out, "software", "include", "generated", "soc.h")).read()
    assert f"#define CONFIG_L2_SIZE {L2_SIZE}\n" in soc_h
    assert "hashaccelerator0_syncfifo" in v and "hashaccelerator1_syncfifo" in v
    assert "sha256_dma" not in v and "keccak_dma" not in v


def test_arty_100t(tmp_path):
    elaborate(tmp_path, "arty", "--variant", "a7-100", "--engines", "sha256")
    assert "xc7a100tcsg324-1" in open(tmp_path / "gateware" / "digilent_arty.tcl").read()
    v = open(tmp_path / "gateware" / "digilent_arty.v").read()
    assert "sha256_engine " in v and "keccak_engine " not in v


def test_arty_build_without_vivado_writes_project_and_exits_0(tmp_path):
    # PATH without vivado (there is none here anyway); no BIOS compile to stay fast.
    r = run([PY, "-m", "boards.arty", "--build", "--no-compile-software", "--engines", "none",
             "--output-dir", str(tmp_path)])
    assert r.returncode == 0, r.stderr[-3000:]
    assert "Vivado is not on PATH" in r.stderr
    assert (tmp_path / "gateware" / "digilent_arty.tcl").exists()
    assert "Traceback" not in r.stderr


# Programming commands ---------------------------------------------------------------------------

DRY = [
    ("ulx3s-load", [], "openFPGALoader -b ulx3s build/ulx3s/gateware/radiona_ulx3s.bit"),
    ("ulx3s-flash", [], "openFPGALoader -b ulx3s -f build/ulx3s/gateware/radiona_ulx3s.bit"),
    ("arty-load", [], "openFPGALoader -b arty_a7_35t build/arty/gateware/digilent_arty.bit"),
    ("arty-flash", [], "openFPGALoader -b arty_a7_35t -f --verify build/arty/gateware/digilent_arty.bit"),
    ("arty-load", ["ARTY_VARIANT=a7-100"], "openFPGALoader -b arty_a7_100t build/arty/gateware/digilent_arty.bit"),
    ("arty-load", ["ARTY_PROG=openocd"],
     "openocd -f boards/openocd/arty.cfg -c 'init; pld load 0 {build/arty/gateware/digilent_arty.bit}; exit'"),
    ("arty-flash", ["ARTY_PROG=openocd"],
     "openocd -f boards/openocd/arty.cfg -c 'init; jtagspi_init 0 {build/arty/bscan_spi/bscan_spi_xc7a35t.bit}; "
     "jtagspi_program {build/arty/gateware/digilent_arty.bin} 0x0; xc7_program xc7.tap; exit'"),
    ("arty-flash", ["ARTY_PROG=openocd", "ARTY_VARIANT=a7-100", "BSCAN_SPI=proxy/bscan.bit"],
     "openocd -f boards/openocd/arty.cfg -c 'init; jtagspi_init 0 {proxy/bscan.bit}; "
     "jtagspi_program {build/arty/gateware/digilent_arty.bin} 0x0; xc7_program xc7.tap; exit'"),
]


@pytest.mark.parametrize("target,extra,expected", DRY, ids=[f"{t}-{'-'.join(e) or 'default'}" for t, e, _ in DRY])
def test_dry_run_prints_the_exact_command(target, extra, expected):
    r = run(MAKE + ["-s", target, "DRY_RUN=1"] + extra)
    assert r.returncode == 0, r.stderr
    lines = [l for l in r.stdout.splitlines() if l.strip()]
    assert lines[-1] == expected, r.stdout


def test_dry_run_from_environment():
    r = run([PY, "-m", "boards.prog", "ulx3s", "flash"], env={"DRY_RUN": "1"})
    assert r.returncode == 0 and r.stdout.strip() == "openFPGALoader -b ulx3s -f build/ulx3s/gateware/radiona_ulx3s.bit"


@pytest.mark.parametrize("board,args,expected", [
    ("ulx3s", ["--load"], "openFPGALoader -b ulx3s {gw}/radiona_ulx3s.bit"),
    ("ulx3s", ["--flash"], "openFPGALoader -b ulx3s -f {gw}/radiona_ulx3s.bit"),
    ("arty", ["--load", "--variant", "a7-100"], "openFPGALoader -b arty_a7_100t {gw}/digilent_arty.bit"),
    ("arty", ["--flash", "--prog-tool", "openocd", "--bscan-spi", "p.bit"],
     "openocd -f boards/openocd/arty.cfg -c 'init; jtagspi_init 0 {{p.bit}}; "
     "jtagspi_program {{{gw}/digilent_arty.bin}} 0x0; xc7_program xc7.tap; exit'"),
])
def test_board_script_loads_and_flashes_its_build(tmp_path, board, args, expected):
    """`python -m boards.<board> --load|--flash` as LiteX's targets take them: the bitstream
    of --output-dir, without building anything when --build is not given."""
    out = tmp_path / "out"
    r = run([PY, "-m", f"boards.{board}", "--output-dir", str(out), "--dry-run", *args], timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == expected.format(gw=out / "gateware"), r.stdout
    assert not out.exists(), "--load/--flash without --build must not write the build directory"
    assert "does not exist yet" in r.stderr
    r = run([PY, "-m", f"boards.{board}", "--output-dir", str(out), *args], timeout=120)
    assert r.returncode == 2 and "does not exist" in r.stderr and "would have run:" in r.stderr, r.stderr
    assert "Traceback" not in r.stderr
    r = run([PY, "-m", f"boards.{board}", "--load", "--flash"], timeout=120)
    assert r.returncode == 2 and "not allowed with" in r.stderr, r.stderr


def _stub(tmp_path, name, text, rc):
    p = tmp_path / name
    p.write_text(f"#!/bin/sh\necho '{text}' >&2\nexit {rc}\n")
    p.chmod(0o755)
    return str(p)


@pytest.mark.parametrize("board,action", [("ulx3s", "load"), ("ulx3s", "flash"), ("arty", "load"), ("arty", "flash")])
def test_no_cable_gives_a_clear_message(tmp_path, board, action):
    bit = tmp_path / "x.bit"
    bit.write_bytes(b"\0" * 16)
    tool = _stub(tmp_path, "openFPGALoader", "unable to open ftdi device: -3 (device not found)", 1)
    r = run([PY, "-m", "boards.prog", board, action, "--bitstream", str(bit)], env={"OPENFPGALOADER": tool})
    assert r.returncode == 1
    assert "Traceback" not in r.stderr
    assert f"[{board}-{action}] FAILED" in r.stderr
    assert ("SPI flash" if action == "flash" else "SRAM") in r.stderr
    assert str(bit) in r.stderr                      # says what it tried


def _ftdi_present():
    for d in ("/sys/bus/usb/devices",):
        if os.path.isdir(d):
            for e in os.listdir(d):
                try:
                    if open(os.path.join(d, e, "idVendor")).read().strip() == "0403":
                        return True
                except OSError:
                    pass
    return False


@pytest.mark.skipif(_ftdi_present(), reason="an FTDI cable is connected: would really program it")
@pytest.mark.parametrize("tool", ["openfpgaloader", "openocd"])
def test_real_tools_without_cable(tmp_path, tool):
    bit = tmp_path / "x.bit"
    bit.write_bytes(b"\0" * 16)
    r = run([PY, "-m", "boards.prog", "arty", "load", "--tool", tool, "--bitstream", str(bit)], timeout=120)
    assert r.returncode == 1, r.stderr
    assert "Traceback" not in r.stderr and "[arty-load] FAILED" in r.stderr


def test_openocd_flash_without_proxy_explains(tmp_path):
    img = tmp_path / "x.bin"
    img.write_bytes(b"\0" * 16)
    r = run([PY, "-m", "boards.prog", "arty", "flash", "--tool", "openocd", "--bitstream", str(img),
             "--bscan-spi", str(tmp_path / "missing_proxy.bit")])
    assert r.returncode == 2
    assert "bscan_spi proxy" in r.stderr and "openFPGALoader" in r.stderr
    assert "would have run: openocd" in r.stderr and "Traceback" not in r.stderr


def test_missing_bitstream_says_build_first(tmp_path):
    r = run([PY, "-m", "boards.prog", "ulx3s", "load", "--bitstream", str(tmp_path / "none.bit")])
    assert r.returncode == 2 and "build it first" in r.stderr and "Traceback" not in r.stderr


def test_openocd_config_parses():
    r = run(["openocd", "-f", "boards/openocd/arty.cfg", "-c", "shutdown"], timeout=60)
    assert r.returncode == 0, r.stderr


def test_bscan_spi_proxy_project_for_the_arty(tmp_path):
    from boards import arty_bscan_spi
    if not os.path.exists(arty_bscan_spi.GENERATOR):
        pytest.skip("Debian openocd's xilinx_bscan_spi.py is not installed")
    bit, ran = arty_bscan_spi.build("a7-35", out_dir=str(tmp_path), run=False)
    assert not ran and bit.endswith("bscan_spi_xc7a35t.bit")
    xdc = (tmp_path / "bscan_spi_xc7a35t.xdc").read_text()
    for pin in ("L13", "K17", "K18", "L14", "M14"):     # the Arty's flash pins
        assert f"LOC {pin}" in xdc
    assert "-part xc7a35t-csg324-1" in (tmp_path / "bscan_spi_xc7a35t_route.tcl").read_text()


# Timing check -----------------------------------------------------------------------------------

NEXTPNR_LOG = """
Info: Max frequency for clock '$glbnet$VexRiscv.IBusCachedPlugin_cache.clk': 38.10 MHz (FAIL at 50.00 MHz)
Info: Max frequency for clock '$glbnet$clk25$TRELLIS_IO_IN': 380.08 MHz (PASS at 25.00 MHz)
Info: Routing..
Info: Max frequency for clock '$glbnet$VexRiscv.IBusCachedPlugin_cache.clk': {sys} MHz ({verdict} at 50.00 MHz)
Info: Max frequency for clock '$glbnet$build_clkout1': 210.00 MHz (PASS at 50.00 MHz)
Info: Max frequency for clock '$glbnet$clk25$TRELLIS_IO_IN': 380.08 MHz (PASS at 25.00 MHz)
"""


@pytest.mark.parametrize("sys_mhz,verdict,ok", [("52.37", "PASS", True), ("47.90", "FAIL", False)])
def test_timing_check_reads_the_last_report(tmp_path, sys_mhz, verdict, ok):
    from boards.ulx3s import timing_summary
    (tmp_path / "nextpnr.log").write_text(NEXTPNR_LOG.format(sys=sys_mhz, verdict=verdict))
    net, mhz, v, target = timing_summary(str(tmp_path), 50.0)
    assert net == "$glbnet$VexRiscv.IBusCachedPlugin_cache.clk" and mhz == float(sys_mhz) and target == 50.0
    assert (v == "PASS") is ok


@pytest.mark.parametrize("sys_mhz,rc", [("63.21", 0), ("59.47", 1)])
def test_ci_timing_check_is_against_60_mhz(tmp_path, sys_mhz, rc):
    """`make ulx3s-ci`'s check (--check-timing, here --check-only on a log): the ULX3S runs at
    60 MHz, so a routed sys_clk Fmax of 59.47 MHz (the SoC before the engines registered
    their window requests) fails it."""
    gw = tmp_path / "gateware"
    gw.mkdir()
    (gw / "nextpnr.log").write_text(NEXTPNR_LOG.replace("50.00 MHz", "60.00 MHz").format(
        sys=sys_mhz, verdict="PASS" if rc == 0 else "FAIL"))
    r = run([PY, "-m", "boards.ulx3s", "--check-only", "--output-dir", str(tmp_path)])
    assert r.returncode == rc, r.stderr
    assert "runs at 60.00 MHz" in r.stderr


@pytest.mark.fpga
def test_ulx3s_bitstream_meets_timing():
    """The real thing: `make ulx3s-ci` (BIOS, yosys, nextpnr-ecp5, ecppack; ~10 min)."""
    r = run(MAKE + ["ulx3s-ci"], timeout=3600)
    assert r.returncode == 0, (r.stdout[-2000:], r.stderr[-4000:])
    gw = os.path.join(TOP, "build", "ulx3s", "gateware")
    assert os.path.getsize(os.path.join(gw, "radiona_ulx3s.bit")) > 100_000
    t = json.load(open(os.path.join(gw, "timing.json")))
    assert t["pass"] and t["fmax_mhz"] >= t["target_mhz"]
    assert sorted(t["engines"]) == sorted(DEFAULT_ENGINES["ulx3s"])


def test_yosys_script_sources_become_relative(tmp_path):
    """YoWASP hides the host's /tmp, so the yosys script must not name sources by absolute
    path (a CI clone under /tmp lost them all): they are rewritten relative to the script."""
    from boards.ulx3s import relative_sources
    gw = tmp_path / "build" / "ulx3s" / "gateware"
    eng = tmp_path / "build" / "engines"
    gw.mkdir(parents=True)
    eng.mkdir(parents=True)
    (eng / "e.v").write_text("module e; endmodule\n")
    (gw / "top.v").write_text("module top; endmodule\n")
    ys = gw / "top.ys"
    ys.write_text(f"verilog_defaults -push\nread_verilog {eng / 'e.v'}\nread_verilog {gw / 'top.v'}\n"
                  "synth_ecp5 -top top\nwrite_json top.json\n")
    relative_sources(str(ys), str(gw))
    lines = ys.read_text().splitlines()
    reads = [ln.split()[-1] for ln in lines if ln.startswith("read_verilog")]
    assert reads == ["../../engines/e.v", "top.v"]
    assert all((gw / r).is_file() for r in reads)
    assert "synth_ecp5 -top top" in lines and "write_json top.json" in lines


# The Arty's yosys estimates (docs/fpga.json, scripts/fpga/report.py) --------------------------

def fpga_report():
    """scripts/fpga/report.py as a module, and docs/fpga.json."""
    import importlib.util
    path = os.path.join(TOP, "scripts", "fpga", "report.py")
    spec = importlib.util.spec_from_file_location("fpga_report", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    with open(os.path.join(TOP, "docs", "fpga.json")) as f:
        return mod, json.load(f)


def arty_default_row(data):
    """docs/fpga.json's Arty row for the engines the Arty carries by default (boards/__init__.py)."""
    want = set(DEFAULT_ENGINES["arty"])
    row = next((r for r in data["arty_soc"] if set(r["engines"]) == want), None)
    assert row, f"docs/fpga.json has no Arty row with the default engines {sorted(want)} (make fpga-report " \
        "FPGA_REPORT_ARGS=--soc=)"
    return row


def test_arty_soc_fits_the_35t():
    """The Arty SoC with its default engines fits the XC7A35T. Its LUT6 sites as report.lut_sites
    estimates them from the netlist (small LUTs paired into LUT6_2 sites where they share
    inputs and their inputs fit; LUTs used as memory) stay within ARTY_LUT_BUDGET of the
    35T's LUTs: Vivado's packing is not known here, and a fuller device places and routes
    worse (timing is not checked here). yosys's LUT cells, unpaired, fit the device at all;
    so do its block RAMs and DSPs."""
    report, data = fpga_report()
    row = arty_default_row(data)
    assert row.get("lut_sites"), "the Arty row with the default engines has no lut_sites: make fpga-report " \
        "FPGA_REPORT_ARGS=--soc="
    dev = report.XC7_DEVICES["XC7A35T"]
    where = "docs/fpga.md, 'Arty A7'"
    assert row["lut_sites"] <= report.ARTY_LUT_BUDGET * dev["lut"], (
        f"the Arty SoC with its default engines takes an estimated {row['lut_sites']:,} LUT sites, "
        f"{row['lut_sites'] / dev['lut']:.1%} of the XC7A35T's {dev['lut']:,} (limit {report.ARTY_LUT_BUDGET:.0%}): {where}")
    assert row["lut"] <= dev["lut"], (
        f"the Arty SoC with its default engines has {row['lut']:,} LUT cells, more than the XC7A35T's {dev['lut']:,} "
        f"LUTs ({row['lut'] / dev['lut']:.1%}): {where}")
    for k in ("bram", "dsp"):
        assert row[k] <= dev[k], f"the Arty SoC with its default engines has {row[k]:g} {k.upper()}, the XC7A35T {dev[k]}"


def test_arty_default_leaves_out_only_what_does_not_fit():
    """The Arty's default engines leave an engine out only because the SoC with every engine
    does not fit the 35T's budget (the same estimate as above): if it fits, the default
    should carry it."""
    report, data = fpga_report()
    every = next((r for r in data["arty_soc"] if r["tag"] == "every"), None)
    assert every and every.get("lut_sites"), "docs/fpga.json has no Arty row with every engine"
    assert set(every["engines"]) == {e.name for e in hashspec.ENGINES}, every["engines"]
    if set(DEFAULT_ENGINES["arty"]) != set(every["engines"]):
        budget = report.ARTY_LUT_BUDGET * report.XC7_DEVICES["XC7A35T"]["lut"]
        assert every["lut_sites"] > budget, (
            f"every engine fits the 35T ({every['lut_sites']:,} LUT sites, budget {budget:,.0f}): "
            "boards.DEFAULT_ENGINES['arty'] should have them all")


def test_lut_sites_pairs_small_luts_that_fit_one_site():
    """report.lut_sites on toy netlists: two LUT1..LUT5 share a site when their inputs together
    are at most five nets and they share one at least (Vivado's LUT combining), the pairs
    sharing the most nets first; a LUT6 takes a site of its own."""
    report, _ = fpga_report()

    def sites(*luts, lutram=0):
        return report.lut_sites(list(luts), lutram)["sites"]
    assert sites((3, {1, 2, 3}), (3, {3, 4, 5})) == 1            # 5 nets, 1 shared: one LUT6_2
    assert sites((3, {1, 2, 3}), (4, {3, 4, 5, 6})) == 2         # 6 nets: two sites
    assert sites((5, {1, 2, 3, 4, 5}), (2, {1, 6})) == 2
    assert sites((5, {1, 2, 3, 4, 5}), (2, {1, 5})) == 1         # the LUT2's nets among the LUT5's
    assert sites((2, {1, 2}), (2, {3, 4})) == 2                  # 4 nets, none shared: not combined
    assert sites((6, {1, 2, 3, 4, 5, 6}), (2, {1, 2})) == 2      # a LUT6 is never paired
    assert sites((1, {1}), lutram=4) == 5                        # a RAM32M is four LUT sites
    # The pair sharing 4 nets first, then the one sharing net 9: 2 sites. In netlist order
    # (a with b, 5 nets) c and d would share nothing: 3.
    a, b, c, d = (2, {1, 9}), (4, {1, 2, 3, 4}), (4, {1, 2, 3, 4}), (2, {8, 9})
    assert report.pair_luts([n for _, n in (a, b, c, d)]) == [(1, 2), (0, 3)]
    assert sites(a, b, c, d) == 2
    assert report.lut_sites([a, b, c, d])["alone"] == 0


def test_lut_sites_of_a_yosys_netlist():
    """report.netlist_luts reads the LUT cells of a write_json netlist: constants are no nets,
    an INV is a LUT1, a RAM32M four LUT sites, other cells none."""
    report, _ = fpga_report()

    def cell(t, **pins):
        return {"type": t, "connections": {p: [b] for p, b in pins.items()}}
    top = {"attributes": {"top": "00000000000000000000000000000001"}, "cells": {
        "a": cell("LUT4", I0=2, I1="1", I2=3, I3=6, O=10),   # nets 2, 3, 6 and a constant
        "b": cell("LUT3", I0=3, I1=4, I2=5, O=11),           # with a: 5 nets, one LUT6_2
        "c": cell("INV", I=10, O=12),
        "f": cell("FDRE", C=1, CE="1", R="0", D=12, Q=13),
        "m": cell("RAM32M", WCLK=1, WE=13, DIA=11, DOA=14),
    }}
    luts, lutram = report.netlist_luts({"modules": {"lib": {"cells": {}}, "top": top}})
    assert luts == [(4, {2, 3, 6}), (3, {3, 4, 5}), (1, {10})] and lutram == 4
    assert report.lut_sites(luts, lutram) == {"lut6": 0, "small": 3, "pairs": 1, "alone": 1, "lutram": 4,
                                              "sites": 6}


def tree_modules_imported_by(code):
    """The files of the tree (not .venv's; not gateware/buildstamp.py, the Verilog cache's
    own helper) that Python code `code` imports, run in a fresh interpreter at TOP."""
    code += ("; import os, sys; print('\\n'.join('module ' + os.path.relpath(m.__file__) "
             "for m in list(sys.modules.values()) if getattr(m, '__file__', None) and "
             "os.path.abspath(m.__file__).startswith(os.getcwd() + os.sep)))")
    r = run([PY, "-c", code])
    assert r.returncode == 0, r.stderr[-3000:]
    used = {line.split(" ", 1)[1] for line in r.stdout.splitlines() if line.startswith("module ")}
    return {f for f in used if not f.startswith(".venv")} - {"gateware/buildstamp.py"}


@pytest.mark.parametrize("board", ["arty", "ulx3s"])
def test_board_sources_are_what_its_verilog_is_made_from(board):
    """report.ARTY_SOURCES and ULX3S_SOURCES (the digests the Arty rows and the five-seed
    table record) hold every module of the tree that making the board's SoC imports, the
    engines' cores with them (gateware/engines.py converts them when its cached Verilog is
    stale); gateware/buildstamp.py is that cache."""
    report, _ = fpga_report()
    cls = TWIN_BOARDS[board]
    used = tree_modules_imported_by(
        f"from boards.{board} import {cls}; from gateware.engines import make_core; "
        f"{cls}(); [make_core(e, device_key=bytes(32)) for e in ('sha256', 'keccak', 'sha512')]")
    sources = report.ARTY_SOURCES if board == "arty" else report.ULX3S_SOURCES
    assert {f"boards/{board}.py", "soc/hashsoc.py", "gateware/keccak/core.py", "gateware/sha256/hmac.py"} <= used, used
    covered = {f for f in used for s in sources if f == s or f.startswith(s + "/")}
    assert used == covered, f"imported but not in the {board}'s sources: {sorted(used - covered)}"


def test_arty_figures_are_the_trees():
    """Each Arty row of docs/fpga.json (SoC configurations, engines alone, logic depth) records
    the digest of the sources it was made from (report.py's cache stamp); the tree's must be
    the same, or the figures describe another SoC."""
    report, data = fpga_report()
    rows = [(f"SoC {r['tag']}", r, report.arty_key(r["tag"])) for r in data["arty_soc"]]
    rows += [(f"engine {r['tag']}", r, report.xc7_key(r["tag"])) for r in data["xc7_engines"]]
    if "xc7_depth" in data:
        rows.append(("logic depth", data["xc7_depth"], report.arty_key("both")))
    assert {r["tag"] for r in data["arty_soc"]} >= {"none", "sha256", "keccak", "both"}, data["arty_soc"]
    stale = [f"{name} (made {r.get('date', '?')} from {r.get('source', 'unrecorded sources')}, the tree's are {key})"
             for name, r, key in rows if r.get("source") != key]
    assert not stale, ("docs/fpga.json's Arty estimates are not the tree's: " + "; ".join(stale) +
                       ". Remake them with `make fpga-report FPGA_REPORT_ARGS=--soc=` (LiteX and yosys, ~15 min; the "
                       "ULX3S rows are kept), then commit docs/fpga.json and docs/fpga.md.")


def fpga_script(name):
    """scripts/fpga/<name>.py as a module."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(f"fpga_{name}", os.path.join(TOP, "scripts", "fpga", f"{name}.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def fpga_seeds():
    """scripts/fpga/seeds.py (the five-seed table of `make ulx3s-seeds`)."""
    return fpga_script("seeds")


def test_sha2_options_are_the_trees():
    """docs/fpga.json's sha2_options (issue 33: the SHA-512 family as its own engine or one
    widened SHA-2 engine) has every row sha2_options.py builds, made from the tree's
    gateware (its key); and its SOURCES hold every module of the tree that making the rows'
    modules imports."""
    opts = fpga_script("sha2_options")
    _, data = fpga_report()
    table = data.get("sha2_options", {})
    tags = [t for t, _, _ in opts.ROWS] + ["separate-core", "separate-engine"]
    assert sorted(r["tag"] for r in table.get("rows", [])) == sorted(tags), table
    assert table.get("key") == opts.table_key(), (
        f"docs/fpga.json's sha2_options was made from other gateware (commit {table.get('commit')}) "
        "than the tree's: make fpga-sha2-options (~10 min), then commit docs/fpga.json and docs/fpga.md")
    used = tree_modules_imported_by(
        "import sys; sys.path.insert(0, 'scripts/fpga'); import sha2_options as o; "
        "from gateware.engines import to_verilog; [to_verilog(o.component(w, f), 'top') for _, w, f in o.ROWS]")
    used = {f for f in used if f.startswith("gateware/")}
    assert {"gateware/sha2/core.py", "gateware/common/engine.py"} <= used, used
    covered = {f for f in used for s in opts.SOURCES if f == s or f.startswith(s + "/")}
    assert used == covered, f"imported but not in sha2_options.SOURCES: {sorted(used - covered)}"


def test_seed_table_rebuilt_in_part_keeps_the_other_seeds():
    """seeds.py --keep: the seeds built now replace theirs, the other rows stay, each with
    the commit and date it was made."""
    seeds = fpga_seeds()
    old = {"commit": "aaa", "date": "2026-11-30",
           "rows": [{"seed": s, "fmax_mhz": 60.0 + s} for s in (1, 2, 3)]}
    rows = seeds.merge(old, [{"seed": 2, "fmax_mhz": 70.0}], {"commit": "bbb", "date": "2026-12-01"})
    assert rows == [{"commit": "aaa", "date": "2026-11-30", "seed": 1, "fmax_mhz": 61.0},
                    {"seed": 2, "fmax_mhz": 70.0, "commit": "bbb", "date": "2026-12-01"},
                    {"commit": "aaa", "date": "2026-11-30", "seed": 3, "fmax_mhz": 63.0}]
    assert [r["seed"] for r in seeds.merge({"rows": []}, rows[::-1], {"commit": "c", "date": "d"})] == [1, 2, 3]


def test_seed_table_made_anew_keeps_the_one_it_replaces_as_before():
    """seeds.py: a table made from other sources than the recorded one keeps that one's
    Fmax per seed as "before" (issue 33's before and after); made again from the same
    sources (--keep, or the same key), it carries the "before" it had; the render shows it,
    with the engines when the default's set changed in between."""
    seeds = fpga_seeds()
    report, _ = fpga_report()
    old = {"commit": "aaa", "date": "2026-11-30", "key": "k1", "cpu": "linux+no-dsp", "engines": ["sha256"],
           "rows": [{"seed": 1, "fmax_mhz": 63.6, "pass": True, "lut": 1},
                    {"seed": 2, "fmax_mhz": 57.97, "pass": False, "lut": 1}]}
    b = seeds.before(old, "k2")
    assert b == {"commit": "aaa", "date": "2026-11-30", "cpu": "linux+no-dsp", "engines": ["sha256"],
                 "rows": [{"seed": 1, "fmax_mhz": 63.6, "pass": True}, {"seed": 2, "fmax_mhz": 57.97, "pass": False}]}
    assert seeds.before(dict(old, before=b), "k1") == b
    assert seeds.before({"rows": []}, "k2") is None
    table = {"commit": "bbb", "date": "2026-12-01", "target_mhz": 60.0, "engines": ["sha256"], "device": "d",
             "ci_seed": 1, "before": b,
             "rows": [{"seed": s, "fmax_mhz": 61.0, "pass": True, "lut": 1, "ff": 1, "critical": {}} for s in (1, 2)]}
    md = report.render_seeds(table)
    assert "| 57.97 MHz (FAIL) |" in md and "| 63.60 MHz |" in md and "before (aaa)" in md, md
    assert "Before, the table of commit aaa (2026-11-30, VexRiscv `linux+no-dsp`): 1 of 2." in md, md
    # a default that gained an engine: the before column was another engine set, and says so
    md = report.render_seeds(dict(table, engines=["sha256", "sha512"]))
    assert "(2026-11-30, VexRiscv `linux+no-dsp`, engines sha256): 1 of 2." in md, md


def test_a_build_names_the_cpu_it_was_made_of(tmp_path):
    """report.built_cpu: the LiteX variant whose VexRiscv Verilog the build's yosys script
    read (what seeds.py refuses a reused build by, and the SoC rows record)."""
    report, _ = fpga_report()
    assert report.built_cpu(str(tmp_path)) is None
    (tmp_path / "top.ys").write_text("read_verilog x/VexRiscv_LinuxNoDspFmax.v\nread_verilog top.v\n")
    assert report.built_cpu(str(tmp_path)) == "linux+no-dsp"
    (tmp_path / "top.ys").write_text("read_verilog x/VexRiscv_Linux.v\n")
    assert report.built_cpu(str(tmp_path)) == "linux"


def test_a_seed_stopped_while_routing_says_how_router1_went(tmp_path):
    """seeds.py's row of a build stopped while routing: placement's estimate, how many arcs
    were left of how many, and the arcs left after each 10 minutes of router1."""
    seeds = fpga_seeds()
    log = ["Info: Max frequency for clock '$glbnet$VexRiscv.IBusCachedPlugin_cache.clk': 44.94 MHz "
           "(FAIL at 60.00 MHz)", "Info: Routing 1000 arcs."]
    for i, (left, t) in enumerate([(900, 300.0), (700, 650.5), (650, 1100.0), (500, 1300.0), (400, 1900.0)]):
        log.append(f"Info: {1000 * (i + 1):10d} |      104        895 |  104   895 |{left:10d}|"
                   f"{12.5:11.2f}{t:11.2f}|")
    (tmp_path / "nextpnr.log").write_text("\n".join(log) + "\n")
    s = seeds.unrouted(str(tmp_path), seeds.board_config())
    assert s == {"placed_estimate_mhz": 44.94, "router_iterations": 5000, "arcs_left": 400, "arcs": 1000,
                 "router_seconds": 1900, "last_1000_iterations_s": 12.5,
                 "arcs_left_every_600_s": [[600, 700], [1200, 500], [1800, 400]]}


def test_rekey_carries_keys_only_over_an_unchanged_netlist():
    """scripts/fpga/rekey.py's rule: the keys move to the tree's only when the recorded ones
    are REV's, nothing but Amaranth modules changed, and every module's Verilog is the same."""
    rekey = fpga_script("rekey")
    keys = {"seeds": "a", "arty": {"both": "b"}, "xc7": {"keccak": "c"}, "depth": "b"}
    old = {"keys": keys, "verilog": {"sha256-folded-stream": "1", "measure": "2"}}
    new = {"keys": {**keys, "seeds": "z"}, "verilog": dict(old["verilog"])}
    assert rekey.problems(keys, old, new, ["gateware/measure.py", "gateware/sha2/core.py"]) == []
    assert "not REV's" in rekey.problems({**keys, "seeds": "x"}, old, new, [])[0]
    assert "soc/hashsoc.py" in rekey.problems(keys, old, new, ["gateware/sha2/core.py", "soc/hashsoc.py"])[0]
    assert "hashspec" in rekey.problems(keys, old, new, ["gateware/hashspec.py"])[0]
    changed = {"keys": keys, "verilog": {**old["verilog"], "measure": "3"}}
    assert rekey.problems(keys, old, changed, ["gateware/measure.py"]) == ["the Verilog differs: measure"]
    gone = {"keys": keys, "verilog": {"measure": "2"}}
    assert rekey.problems(keys, old, gone, []) == ["the Verilog differs: sha256-folded-stream"]
    data = {"ulx3s_seeds": {"key": "a"}, "arty_soc": [{"tag": "both", "source": "b"}],
            "xc7_engines": [{"tag": "keccak", "source": "c"}], "xc7_depth": {"source": "b"}}
    assert rekey.recorded(data) == keys
    assert rekey.recorded(rekey.rekeyed(data, new["keys"])) == new["keys"]


def test_fpga_report_keeps_what_the_other_scripts_write():
    """report.py rewrites docs/fpga.json after builds that take an hour; the sections the
    other scripts in scripts/fpga/ write into it (`data["name"] = ...`) must be among those
    it reads back at that moment (report.kept()), or a run beside seeds.py loses the
    five-seed table."""
    import glob
    import re
    report, _ = fpga_report()
    written = set()
    for path in glob.glob(os.path.join(TOP, "scripts", "fpga", "*.py")):
        if not path.endswith("report.py"):
            written |= set(re.findall(r'\bdata\["(\w+)"\] = ', open(path).read()))
    assert written, "no script writes a section of docs/fpga.json?"
    assert all(report.kept(name) for name in written), sorted(n for n in written if not report.kept(n))
    # seeds.py's tables of other engine sets are named by seeds.section(), not written literally
    seeds = fpga_seeds()
    assert report.kept(seeds.section(seeds.board_config(["sha256", "keccak", "sha512"])))
    assert not report.kept("ulx3s_soc")


def test_seed_tables_of_another_engine_set_stand_apart():
    """seeds.py --engines: the board's default engine set is fpga.json's ulx3s_seeds (what CI
    and docs/boards.md answer to), another set its own section and build folder, and
    fpga.md gets a table per section, headed by its engines, the default's first."""
    seeds = fpga_seeds()
    report, data = fpga_report()
    default, two = seeds.board_config(), seeds.board_config(["sha256", "keccak"])
    assert seeds.section(default) == "ulx3s_seeds" and seeds.build_dir(2, default).endswith("ulx3s-seeds/seed-2")
    assert seeds.section(two) == "ulx3s_seeds_sha256_keccak" == seeds.option_section(two["engines"])
    assert seeds.build_dir(2, two).endswith("ulx3s-seeds/sha256-keccak/seed-2")
    assert seeds.sources_key(default) != seeds.sources_key(two)
    table = {"commit": "bbb", "date": "2026-12-02", "target_mhz": 60.0, "engines": two["engines"], "device": "d",
             "ci_seed": 1, "default": False,
             "rows": [{"seed": 1, "fmax_mhz": 61.0, "pass": True, "lut": 1, "ff": 1, "critical": {}}]}
    md = report.render(dict(data, ulx3s_seeds_sha256_keccak=table))
    first, other = md.index("## ULX3S over five placement seeds"), md.index(
        "## ULX3S with sha256, keccak over five placement seeds")
    assert first < other and "SEEDS_ARGS=--engines=sha256,keccak" in md[other:], md[other:other + 800]
    assert "CI builds seed" not in md[other:other + 800]


def test_soc_rows_from_earlier_sources_are_marked():
    """report.earlier_soc_rows: a ULX3S SoC row whose recorded source digest is not the
    tree's (or that has none) is marked in fpga.md's table; one made from the tree is not."""
    report, _ = fpga_report()
    from boards.ulx3s import DEFAULT_SYS_CLK
    now = report.ulx3s_key(("sha256",), "folded", DEFAULT_SYS_CLK, 1)
    data = {"seed": 1, "ulx3s_soc": [{"tag": "sha256", "engines": ["sha256"], "variant": "folded", "source": now},
                                     {"tag": "both", "engines": ["sha256", "keccak"], "variant": "folded",
                                      "source": now},
                                     {"tag": "keccak", "engines": ["keccak"], "variant": "folded",
                                      "source": report.ulx3s_key(("keccak",), "folded", DEFAULT_SYS_CLK, 1)},
                                     {"tag": "none", "engines": [], "variant": "folded"}]}
    assert report.earlier_soc_rows(data) == ["both", "none"]
