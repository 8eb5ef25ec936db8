# SPDX-License-Identifier: MIT
"""Seed 001 firmware: SHA3-512 of the paper's message by keccak_sw.c at -O0/-O1/-O2/-Os
(four renamed copies in one image), the driver's software provider and the Keccak engine
(DMA, PIO), in litex_sim; and the instruction-count build on QEMU.

Checks digests and that every row is printed; no timing assertions (scripts/seed001.py
reports the figures). One simulation run of the default build: about 1 M clocks after the
BIOS, a few seconds.
"""

import hashlib
import importlib.util
import os
import shutil
import subprocess

import pytest

from boards import DEFAULT_ENGINES
from gateware import hashspec
from soc import sim

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_spec = importlib.util.spec_from_file_location("seed001_script", os.path.join(ROOT, "scripts", "seed001.py"))
seed001 = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(seed001)


def test_reference_digest_is_sha3_512_of_the_message():
    assert seed001.MESSAGE == b"Mouna_Noura_ATSIP_2020" and len(seed001.MESSAGE) == 22
    assert hashlib.sha3_512(seed001.MESSAGE).hexdigest() == seed001.EXPECTED


@pytest.fixture(scope="module")
def firmware():
    sim.build()
    return seed001.build_firmware(0)


@pytest.fixture(scope="module")
def result(firmware):
    return seed001.parse_sim(seed001.run_sim(firmware["bin"], timeout=600))


@pytest.mark.simbuild
def test_firmware_finishes_with_its_engines(result):
    assert result["done"]
    assert result["pad"] == 0
    want = sum(1 << i for i, e in enumerate(hashspec.ENGINES) if e.name in DEFAULT_ENGINES["sim"])
    assert result["engines"] == want, f"the default simulator has the engines {DEFAULT_ENGINES['sim']}"
    assert result["timer"] is not None


@pytest.mark.simbuild
@pytest.mark.parametrize("row", seed001.ROWS)
def test_row_present_with_correct_digest(result, row):
    x = result["rows"].get(row)
    assert x is not None, f"no ROW line for {row}"
    assert x["digest"] == seed001.EXPECTED, row
    assert x["ok"], f"{row}: a later call returned a wrong digest or length"
    assert x["cold"] > 0 and x["warm"] > 0 and len(x["warm_runs"]) == 5


@pytest.mark.simbuild
def test_engine_rows_report_core_busy(result):
    for row in ("hw-dma", "hw-pio"):
        assert result["rows"][row].get("core_busy", 0) > 0, row


@pytest.mark.simbuild
def test_variants_are_renamed_copies_without_external_calls(firmware):
    """Each variant object defines exactly the six suffixed public symbols and needs nothing."""
    publics = ["init", "absorb", "squeeze", "f1600", "to_lanes", "from_lanes"]
    for level in seed001.LEVELS:
        obj = os.path.join(firmware["dir"], f"keccak_{level}.o")
        nm = subprocess.run([f"{seed001.TRIPLE}-nm", obj], check=True, capture_output=True, text=True).stdout
        defined = sorted(l.split()[2] for l in nm.splitlines() if len(l.split()) == 3 and l.split()[1] == "T")
        assert defined == sorted(f"keccak_sw_{p}_{level}" for p in publics), (level, defined)
        undef = subprocess.run([f"{seed001.TRIPLE}-nm", "-u", obj], check=True, capture_output=True, text=True).stdout
        assert undef.strip() == "", (level, undef)


@pytest.mark.simbuild
@pytest.mark.skipif(shutil.which(seed001.QEMU) is None, reason="qemu-system-riscv32 not installed")
def test_qemu_instruction_counts(firmware):
    console, _ = seed001.run_qemu(firmware["qemu"])
    q = seed001.parse_qemu(console)
    assert q["done"], console
    assert q["calibration"] is not None and q["calibration"][0] == q["calibration"][1], q["calibration"]
    for row in seed001.SW_ROWS:
        x = q["rows"].get(row)
        assert x is not None, row
        assert x["ok"] and x["digest"] == seed001.EXPECTED, row
        assert len(set(x["instructions"])) == 1 and x["instructions"][0] > 0, x
