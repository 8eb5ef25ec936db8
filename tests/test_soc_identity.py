# SPDX-License-Identifier: MIT
"""SoC identity (soc/identity.py): software refuses a SoC it was not built for.

- The identity is a function of the SoC's description: CONFIG_SOC_ID in the generated soc.h
  is the hash of the csr.json LiteX writes (minus the platform's name); moving one register
  or resizing one region changes it, renaming the platform does not.
- The simulator and the ULX3S (twin) are different SoCs: the firmware and the kernel built
  for the simulator, run on the twin, print the one mismatch line (what they were built for,
  what they found) and stop before touching anything else. Built for the twin, both run
  there (test_soc_firmware.py, test_xv6_hash.py).
- The CSRs that line needs sit at the same places on both SoCs (HashSoC.csr_map).
"""

import copy
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time

import pytest

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, TOP)

from soc import sim  # noqa: E402
from gateware.buildstamp import locked  # noqa: E402
from soc.identity import description_id  # noqa: E402

# Every test here builds (or reuses) a Verilator simulator: `make test-fast` leaves them out.
pytestmark = pytest.mark.simbuild


MISMATCH = re.compile(r'soc-id: built for "([^"]*)" \(id ([0-9a-f]+)\), but this SoC is "([^"]*)" '
                      r'\(id ([0-9a-f]+)\): stopping')


@pytest.fixture(scope="module")
def sim_desc():
    sim.build()
    return json.load(open(os.path.join(sim.BUILD_DIR, "csr.json")))


@pytest.fixture(scope="module")
def twin():
    from boards.targets import twin_of
    t = twin_of("ulx3s").twin()
    t.build()
    return t


def test_identity_is_the_description_hash(sim_desc):
    text = json.dumps(sim_desc)
    ident = description_id(text)
    assert sim_desc["constants"]["config_soc_id"] == ident
    soc_h = open(os.path.join(sim.BUILD_DIR, "software", "include", "generated", "soc.h")).read()
    assert f"#define CONFIG_SOC_ID {ident}\n" in soc_h

    moved = copy.deepcopy(sim_desc)
    moved["csr_registers"]["sha256_ctrl" if "sha256_ctrl" in moved["csr_registers"]
                           else next(iter(moved["csr_registers"]))]["addr"] += 4
    assert description_id(json.dumps(moved)) != ident
    resized = copy.deepcopy(sim_desc)
    resized["memories"]["main_ram"]["size"] *= 2
    assert description_id(json.dumps(resized)) != ident
    clock = copy.deepcopy(sim_desc)
    clock["constants"]["config_clock_frequency"] += 1
    assert description_id(json.dumps(clock)) != ident
    renamed = copy.deepcopy(sim_desc)
    renamed["constants"]["config_platform_name"] = "ulx3s"
    assert description_id(json.dumps(renamed)) == ident


def test_pinned_csrs_are_where_every_hashsoc_has_them(sim_desc, twin):
    tw = json.load(open(os.path.join(twin.build_dir, "csr.json")))
    assert tw["constants"]["config_soc_id"] != sim_desc["constants"]["config_soc_id"]
    for name in ("cpu", "ctrl", "identifier_mem", "uart", "soc_id"):
        assert tw["csr_bases"][name] == sim_desc["csr_bases"][name], name
    # ... while the engines' registers are not: a kernel built for one would miss on the other
    assert tw["csr_bases"]["sha256"] != sim_desc["csr_bases"]["sha256"]


def _expect_mismatch(line, twin_desc, sim_desc):
    m = MISMATCH.search(line)
    assert m, line
    built, built_id, found, found_id = m.groups()
    assert built == "HashSoC simulation" and int(built_id, 16) == sim_desc["constants"]["config_soc_id"]
    assert found.startswith("HashSoC on ULX3S") and int(found_id, 16) == twin_desc["constants"]["config_soc_id"]


def test_firmware_for_the_simulator_stops_on_the_twin(sim_desc, twin):
    from soc import runfw
    out = runfw.run_firmware(app="demo", target="ulx3s-twin", built_for="sim", timeout=600)
    tw = json.load(open(os.path.join(twin.build_dir, "csr.json")))
    _expect_mismatch(out, tw, sim_desc)
    assert "engines found" not in out and "DONE" not in out


def test_kernel_for_the_simulator_stops_on_the_twin(sim_desc, twin):
    gen = os.path.join(sim.BUILD_DIR, "software", "include", "generated")
    with locked("os-port"):
        r = subprocess.run(["make", "-C", os.path.join(TOP, "os-port"), "-j2", "PLATFORM=litex",
                            f"LITEX_GENERATED_DIR={gen}"], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout[-3000:]
    boot = os.path.join(TOP, "os-port", "build", "litex", "boot.json")
    argv, cwd = twin.prepare_run(sim.load_images(boot, twin.main_ram_base), bios="direct")
    proc = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)
    lines = []
    def read():
        for line in proc.stdout:
            lines.append(line)
    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        deadline = time.time() + 600
        # (also stop at init: a kernel that missed the check boots on)
        while time.time() < deadline and not any(b"soc-id:" in l or b"init:" in l for l in lines):
            time.sleep(1)
        n = len(lines)
        time.sleep(20)          # it stops there: nothing more within ~20 M clocks of the twin
        rest = b"".join(lines[n:])
    finally:
        proc.kill()
        proc.wait()
        shutil.rmtree(cwd, ignore_errors=True)
    text = b"".join(lines).decode(errors="replace")
    assert "Liftoff" in text, text[-2000:]
    _expect_mismatch(text, json.load(open(os.path.join(twin.build_dir, "csr.json"))), sim_desc)
    assert rest.strip() == b"", rest
    assert "xv6-rv32 kernel booting" not in text and "init:" not in text
