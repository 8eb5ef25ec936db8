# SPDX-License-Identifier: MIT
"""SoC level: build the SoC, boot the bare-metal firmware, check what it prints.

Run on each target: `sim` (litex_sim, on-chip main RAM) and each board twin (boards/twin.py:
`ulx3s-twin`, the ULX3S's own SoC with its SDRAM, LiteDRAM controller and L2; `arty-twin`,
the Arty's with its DDR3 behind the A7DDRPHY's model). Every digest the firmware
prints (software, PIO, DMA at four alignments, interrupt-driven, two contexts interleaved
on one engine, DMA of bytes the CPU has just stored) must equal the outside reference;
every error-path check must hold; the self-test must report no failure.
"""

import hashlib
import hmac
import os
import re

import pytest

import hotblock
from boards.targets import TARGETS, target as target_of  # sim and every board twin
from gateware import devicekey, hashspec
from hashref import cshake, kmac, message, reference, pattern, xorshift_bytes
from soc import runfw
from soc.runfw import run_firmware
from vectors import load_rsp




# Limits for the benchmark, per target: the clocks of a 64 KiB DMA digest (driver
# included) per byte. On-chip RAM keeps the SHA-256 engine near its 64 clocks per block;
# on the ULX3S's SDRAM (16-bit SDR, peak 2 bytes/clock) the engines' own LiteDRAM ports
# must keep SHA-256 at >= 0.95 bytes/clock and SHA3-256 at >= 1.5 (docs/boards.md); on the
# Arty's DDR3 (128-bit port, memory no longer the limit) issue 31's 0.97 and 3.5. SHA-512
# (80 clocks per 128 bytes: 1.6 bytes/clock) within 5% of its engine where the memory
# keeps up, checked where the SoC has the engine. Not timing assertions: the clocks are
# simulated and exact.
DMA_64K_LIMIT = {
    "sim": {"SHA-256": 1.10, "SHA3-256": 0.60, "SHA-512": 0.66},
    "ulx3s-twin": {"SHA-256": 1 / 0.95, "SHA3-256": 1 / 1.5, "SHA-512": 1 / 1.5},
    "arty-twin": {"SHA-256": 1 / 0.97, "SHA3-256": 1 / 3.5, "SHA-512": 0.66},
}


# Every test here builds (or reuses) a Verilator simulator: `make test-fast` leaves them out.
pytestmark = pytest.mark.simbuild


@pytest.fixture(scope="module", params=TARGETS)
def target(request):
    return request.param


@pytest.fixture(scope="module")
def console(target):
    return run_firmware("main", "quick", timeout=1500, target=target)


def records(console, tag):
    return [l.split() for l in console.splitlines() if l.startswith(tag + " ")]


def engines_found(console):
    """The engines the firmware's probe reported ("engines: sha256=1 keccak=1 sha512=0")."""
    m = re.search(r"^engines:((?: \w+=[01])+)\r?$", console, re.M)     # (the UART says \r\n)
    assert m, "no engines line"
    found = dict(kv.split("=") for kv in m.group(1).split())
    assert set(found) == {e.name for e in hashspec.ENGINES}, found
    return {name for name, v in found.items() if v == "1"}


def test_boots_and_finds_its_engines(console, target):
    assert engines_found(console) == set(target_of(target).engines)
    assert "DONE" in console


def test_selftest_reports_no_failure(console):
    m = re.search(r"SELFTEST (\d+) passed, (\d+) failed", console)
    assert m, "no SELFTEST line"
    assert int(m.group(2)) == 0
    assert int(m.group(1)) > 500


def test_every_digest_equals_reference(console):
    seen = set()
    rows = records(console, "T")
    assert rows
    for _, alg, path, name, n, off, outlen, digest in rows:
        want = reference(alg, message(name, int(n)), int(outlen)).hex()
        assert digest == want, (alg, path, name, n, off)
        seen.add((alg, path))
    engines = engines_found(console)
    for a in hashspec.ALGORITHMS:
        for path in ("sw", "pio", "dma", "irq") if a.engine in engines else ("sw",):
            assert (a.title, path) in seen, (a.title, path)
        if a.engine not in engines:     # no hardware row for an engine the SoC lacks
            assert not {p for al, p in seen if al == a.title} - {"sw"}, a.title
    for alg in ("SHA-256", "SHA3-256", "SHAKE128"):     # scatter-gather (hash_update_segs)
        for path in ("sg", "sgsw", "sgnw", "sgip", "sgipbuf"):   # sgip*: hash_update_list_nowait
            assert (alg, path) in seen, (alg, path)
    many = [r for r in rows if r[2] == "sg" and int(r[5]) > hashspec.SG_MAX]
    assert many, "no scattered message of more pieces than one descriptor list holds"


def test_interleaved_contexts_on_one_engine(console):
    rows = records(console, "I")
    paths = {r[2] for r in rows}
    assert paths == {"sw", "pio", "dma", "irq"}
    for _, alg, path, _, n, _, digest in rows:
        outlen = 32 if alg.startswith("SHAKE") else 0
        assert digest == reference(alg, pattern(int(n)), outlen).hex(), (alg, path)


def test_error_paths(console):
    rows = records(console, "E")
    names = {r[1] for r in rows}
    for must in ("bad_alg", "null_data", "short_out", "update_after_final", "dma_outside_ram",
                 "dma_outside_ram_errors", "usable_after_error", "usable_after_abort",
                 "sha256_hello_dma", "sha3_512_mouna_dma", "short_unaligned_out_bytes",
                 "short_sha224_bytes", "short_path_saves_open_context",
                 "sg_good_list", "sg_limit_list", "sg_zero_descriptors", "sg_over_limit",
                 "sg_unaligned_list", "sg_list_wraps", "sg_list_outside_ram",
                 "sg_zero_length_descriptor", "sg_descriptor_outside_ram", "sg_descriptor_wraps",
                 "sg_driver_piece_outside_ram", "sg_driver_errors", "sg_usable_after",
                 "sg_nowait_bad_piece_next_call", "sg_nowait_errors", "sg_nowait_usable_after",
                 "sg_in_place_bad_piece_next_call", "sg_in_place_errors", "sg_in_place_usable_after",
                 "sgip_SHA-256_0_lists_in_place", "sgip_SHA3-256_2_lists_in_place",
                 "sgipbuf_SHAKE128_1_lists_in_place",
                 "hmac_bad_alg", "hmac_null_key", "hmac_devkey_and_key", "hmac_devkey_sw_nodev",
                 "hmac_short_out", "hmac_key_reads_zero", "hmac_abort_wipes_key",
                 "hmac_final_wipes_saved_state", "hmac_abort_wipes_saved_state",
                 "hmac_error_wipes_saved_state",
                 "kmac_bad_alg", "kmac_null_key", "kmac_hw_null_key", "cshake_bad_alg", "cshake_null_s",
                 "kmac_abort_wipes_state", "kmac_hw_abort_wipes_saved_state", "kmac_hw_final_wipes_saved_state",
                 "kmac_key_reads_zero",
                 "ram_every_mib_cpu", "ram_every_mib_dma", "ram_every_mib_words",
                 "cut_aligned", "cut_short", "cut_partial", "cut_to_boundary", "cut_before_boundary"):
        assert must in names
    bad = [r for r in rows if r[-1] != "ok"]
    assert not bad, bad


def test_hmac_rows(console):
    """Every HMAC the driver computed (hmac_rows() in firmware/baremetal/t_keyed.c) equals
    Python's hmac: keys around the block, every path, streamed with another context
    taking the engine between pieces, and the device key (keys/device_key, which the
    simulator's engine was built with)."""
    rows = records(console, "H")
    engines = engines_found(console)
    seen = set()
    for _, alg, path, keylen, n, mac in rows:
        name = hashspec.algorithm(alg).hashlib
        key = devicekey.load() if keylen == "-1" else pattern(64 + int(keylen))[64:]
        assert mac == hmac.new(key, pattern(int(n)), name).hexdigest(), (alg, path, keylen, n)
        seen.add((alg, path))
    for alg in hashspec.HMAC_ALGORITHMS:
        a = hashspec.algorithm(alg)
        hw = ("pio", "dma", "irq", "stream", "streampio", "dev", "devpio", "devstream")
        for path in ("sw",) + (hw if a.engine in engines else ()):
            assert (a.title, path) in seen, (a.title, path)
    assert ("SHA-256", "afterabort") in seen


def test_hmac_rfc4231(console):
    """RFC 4231's cases (cryptography_vectors' files, compiled into the firmware by
    scripts/genhmackat.py) on every path and streamed: the MACs are the files'."""
    rows = records(console, "R")
    engines = engines_found(console)
    seen = set()
    for alg in hashspec.HMAC_ALGORITHMS:
        a = hashspec.algorithm(alg)
        want = [r["MD"].lower() for r in load_rsp(f"HMAC/rfc-4231-{a.hashlib}.txt")]
        for _, title, case, path, mac in (r for r in rows if r[1] == a.title):
            assert mac == want[int(case)], (title, case, path)
            seen.add((title, int(case), path))
        for case in range(len(want)):
            for path in ("sw", "pio", "dma", "irq", "stream") if a.engine in engines else ("sw",):
                assert (a.title, case, path) in seen, (a.title, case, path)


def test_cshake_and_kmac_rows(console):
    """cSHAKE, KMAC and KMACXOF on both sponges (sp800185_rows(): messages in pieces; in
    software and, where the SoC has the Keccak engine, on it, also with another context
    taking the engine between pieces) equal pycryptodome's; the keyed state is wiped by
    abort and final (E rows)."""
    rows = records(console, "K")
    seen = set()
    for _, kind, alg, prov, nlen, slen, keylen, n, outlen, got in rows:
        nlen, slen, keylen, n, outlen = map(int, (nlen, slen, keylen, n, outlen))
        fn, s = (b"fn" * 64)[:nlen], (b"HashSoC" * 40)[:slen]
        key, msg = pattern(64 + keylen)[64:], pattern(n)
        want = cshake(alg, fn, s, msg, outlen) if kind == "C" else kmac(alg, key, s, msg, outlen, kind == "X")
        assert got == want.hex(), (kind, alg, prov, nlen, slen, keylen, n, outlen)
        seen.add((kind, alg, prov))
    provs = ("sw", "hw", "switch") if "keccak" in engines_found(console) else ("sw",)
    assert seen == {(k, hashspec.algorithm(a).title, p)
                    for k in "CKX" for a in hashspec.SP800_185_ALGORITHMS for p in provs}


def test_dma_reads_what_the_cpu_just_stored(console):
    rows = records(console, "C")
    seen = set()
    for _, alg, n, off, seed, digest in rows:
        data = xorshift_bytes(int(seed), int(n))
        assert digest == reference(alg, data, 0).hex(), (alg, n, off)
        seen.add((alg, int(n), int(off)))
    assert len(seen) == 2 * 22 * 4, len(seen)


def test_latency_rows(console):
    """The latency rows (docs/bench.md) are there for every path and size; their values are
    figures for the docs, not checked against time here."""
    rows = {r[1]: int(r[2]) for r in records(console, "L")}
    for alg in ("SHA-256", "SHA3-256"):
        for path in ("sw", "pio", "dma", "auto"):
            for n in (0, 5, 55):
                assert rows.get(f"digest_{alg}_{path}_{n}", 0) > 0, (alg, path, n)
            assert rows.get(f"cold_{alg}_{path}_5", 0) > 0, (alg, path)
    for what in ("timer", "csr_read", "csr_write", "window_read", "window_write", "window_data_write"):
        assert what in rows


def test_one_shot_code_is_one_block(target):
    """linker.ld places a one-shot digest's code (the short path and the benchmark's loop,
    then a DMA command's path) side by side, within one span of the instruction cache, so
    that no two of them share a set. Each name it lists must be a function in that block of
    the firmware this target ran."""
    ld = open(os.path.join(runfw.FIRMWARE_DIR, "linker.ld")).read()
    names = hotblock.names(ld)
    assert {"digest_ctx", "drv_acquire", "drv_finish"} <= set(names), names
    missing, size = hotblock.outside(ld, runfw.firmware_elf(target), also=("hash_digest", "lat_digest"))
    assert not missing, f"linker.ld names these, but they are not functions in [_hot_start, _hot_end): {missing}"
    assert size <= 4096, f"the block is {size} bytes, more than VexRiscv's 4 KiB instruction cache"


def test_benchmark_rows_are_sane(console, target):
    rows = {(r[1], r[2], int(r[3])): int(r[4]) for r in records(console, "B") if r[1] != "timer"}
    engines = engines_found(console)
    for alg, limit in DMA_64K_LIMIT[target].items():
        if hashspec.algorithm(alg).engine in engines:
            assert rows[(alg, "dma", 65536)] < limit * 65536, (alg, rows[(alg, "dma", 65536)])


def test_dmacontend_digests_agree(target):
    """firmware/baremetal/dmacontend.c (the measurement docs/hash-syscall.md quotes): 64 KiB
    as lists of 4096/2048/512-byte pieces in three orders, and with the CPU reading or
    storing elsewhere in RAM while the engine reads (on the twin, stores the DMA does not
    wait for: gateware/litedram_dma.py's fence), gives the one-command digest every time,
    and that equals the software's."""
    out = run_firmware("dmacontend", "quick", timeout=900, target=target)
    rows = [l.split() for l in out.splitlines() if l.startswith("X ")]
    assert len(rows) == 2 * 9, out[-2000:]
    assert all(r[-1] == "ok" for r in rows), [r for r in rows if r[-1] != "ok"]
    assert {r[5] for r in rows} == {"cpu=0", "cpu=1", "cpu=2"}


def test_your_own_program(target):
    """firmware/examples/hello_hash.c (README, "Your own bare-metal program"), built from
    outside firmware/baremetal as a user's program is (`make fw APP=FILE.c`: soc.runfw
    --app FILE.c) and run: every digest it prints equals hashlib's, on the engine where
    the target has one."""
    src = os.path.join(os.path.dirname(runfw.FIRMWARE_DIR), "examples", "hello_hash.c")
    out = run_firmware(src, "quick", timeout=900, target=target).replace("\r", "")
    rows = re.findall(r"^(\S+) +(sw|hw) ([0-9a-f]+) +\d+ clocks$", out, re.M)
    want = {"SHA-256": hashlib.sha256(b"hello").digest(), "SHA3-256": hashlib.sha3_256(b"hello").digest(),
            "HMAC-SHA-256": hmac.new(b"key", b"hello", "sha256").digest()}
    assert {(alg, prov) for alg, prov, _ in rows} == {("SHA-256", "sw"), ("SHA-256", "hw"), ("SHA3-256", "hw"),
                                                     ("HMAC-SHA-256", "hw")}, out[-1500:]
    for alg, prov, got in rows:
        assert got == want[alg].hex(), (alg, prov)
