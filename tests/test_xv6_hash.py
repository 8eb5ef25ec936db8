# SPDX-License-Identifier: MIT
"""The hash system calls of the xv6 port (docs/hash-syscall.md).

QEMU (no engines): every algorithm through the hash command on the software
and user-space providers against hashlib/pycryptodome, the *sum tools over a
multi-block file and a pipe, hardware requests failing cleanly, and hashtests
(bad arguments, streams, multi-page buffers).
litex_sim and each board twin (the board's SoC and memory path, boards/twin.py; one boot
each, 5-12 min): all 12 algorithms on hw and auto, sha256sum on hw vs sw, concurrent and
killed streams, hashtests, hashbench.
"""
import hashlib
import os
import re
import shutil
import subprocess
import sys

import pytest

from Crypto.Hash import keccak

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from xv6session import OSPORT, README, make, outputs, xv6  # noqa: E402

import hashref  # noqa: E402
from boards.targets import TARGETS, target as target_of  # noqa: E402
from gateware import hashspec  # noqa: E402

pytestmark = pytest.mark.skipif(
    shutil.which("qemu-system-riscv32") is None or shutil.which("riscv64-unknown-elf-gcc") is None,
    reason="needs qemu-system-riscv32 and riscv64-unknown-elf-gcc")

ALGS = [a.name for a in hashspec.ALGORITHMS]     # hash -a NAME
NAMES = [a.title for a in hashspec.ALGORITHMS]   # as the programs print them
LENGTHS = [0, 5, 55, 56, 64, 65, 112, 128, 136, 137, 168, 169]


def ref(alg, data, outlen=None):
    if alg.startswith("keccak-"):
        return keccak.new(data=data, digest_bits=int(alg[7:])).hexdigest()
    if alg.startswith("shake"):
        n = outlen or (32 if alg == "shake128" else 64)
        return hashlib.new(alg.replace("shake", "shake_"), data).hexdigest(n)
    return hashlib.new(alg.replace("-", "_"), data).hexdigest()


def gen(n):
    return bytes(ord("a") + i % 26 for i in range(n))


def hash_cmd(alg, prov, n):
    return f"hash -a {alg} -p {prov} -n {n}" if n != 5 else f"hash -a {alg} -p {prov} hello"


def msg_of(n):
    return b"hello" if n == 5 else gen(n)


def check_hash_line(out, alg, n, want=None):
    name = NAMES[ALGS.index(alg)]
    m = re.search(r"^(\S+) hash of '(.*)': ([0-9a-f]+)$", out, re.M)
    assert m, out
    assert m.group(1) == name
    assert m.group(2).encode() == msg_of(n)
    assert m.group(3) == (want or ref(alg, msg_of(n))), (alg, n, out)


def check_all_lines(out, n, engines=None):
    """`hash -a all`: one line per algorithm, in hashspec's order. `engines`: with the
    hardware provider, the SoC's engines; the others' algorithms fail with -1."""
    lines = out.strip().splitlines()
    assert len(lines) == len(ALGS), out
    for line, a in zip(lines, hashspec.ALGORITHMS):
        if engines is None or a.engine in engines:
            check_hash_line(line, a.name, n)
        else:
            assert line == f"hash: {a.title} failed (-1)", line


def soc_engines(gen):
    """The engines the SoC has, by LiteX's generated csr.h."""
    csr = open(os.path.join(gen, "csr.h")).read()
    return {e.name for e in hashspec.ENGINES if f"#define CSR_{e.name.upper()}_BASE " in csr}


def sums_cmds(prov, files):
    """(command, alg, outlen) for every *sum tool"""
    c = []
    for f in files:
        c.append((f"sha256sum -p {prov} {f}", "sha256", None))
        c.append((f"sha224sum -p {prov} {f}", "sha224", None))
        c.append((f"sha512sum -p {prov} {f}", "sha512", None))
        c.append((f"sha384sum -p {prov} {f}", "sha384", None))
        for b in (224, 256, 384, 512):
            c.append((f"sha3sum -p {prov} -a {b} {f}", f"sha3-{b}", None))
            c.append((f"keccaksum -p {prov} -a {b} {f}", f"keccak-{b}", None))
        c.append((f"shakesum -p {prov} -a 128 -l 100 {f}", "shake128", 100))
        c.append((f"shakesum -p {prov} -a 256 {f}", "shake256", 64))
    return c


@pytest.fixture(scope="module")
def qemu_build():
    make("PLATFORM=qemu")
    return os.path.join(OSPORT, "build", "qemu")


def test_qemu_hash_command_all_algorithms(qemu_build):
    cmds = [hash_cmd(a, p, n) for a in ALGS for p in ("sw", "user", "auto") for n in LENGTHS]
    st, t = xv6(cmds, timeout=30)
    assert st == 0, t[-3000:]
    assert "panic" not in t
    out = outputs(t, cmds)
    for a in ALGS:
        for p in ("sw", "user", "auto"):
            for n in LENGTHS:
                check_hash_line(out[hash_cmd(a, p, n)], a, n)
    assert len(cmds) == len(hashspec.ALGORITHMS) * 3 * len(LENGTHS)


def test_qemu_hash_several_algorithms_in_one_process(qemu_build):
    """-a more than once, `-a all`, and a bad name among good ones (usage, nothing hashed)."""
    cmds = ["hash -a all -p sw -n 200", "hash -a shake256 -a sha224 -l 40 -p user hello",
            "hash -a sha256 -a nope hello"]
    st, t = xv6(cmds, timeout=30)
    assert st == 0 and "panic" not in t, t[-3000:]
    out = outputs(t, cmds)
    check_all_lines(out[cmds[0]], 200)
    two = out[cmds[1]].strip().splitlines()
    assert len(two) == 2, out[cmds[1]]
    check_hash_line(two[0], "shake256", 5, ref("shake256", b"hello", 40))
    check_hash_line(two[1], "sha224", 5)
    bad = out[cmds[2]]
    assert bad.startswith("usage: hash") and "hash of" not in bad, bad


def test_qemu_sum_tools_files_and_pipes(qemu_build):
    data = open(README, "rb").read()
    assert len(data) > 168   # multi-block for every algorithm
    cmds = []
    big = open(os.path.join(qemu_build, "hashdata"), "rb").read()
    assert len(big) > 4096    # more than one 4 KiB read of the tools
    for prov in ("sw", "user", "auto"):
        cmds += sums_cmds(prov, ["README"])
    cmds += sums_cmds("sw", ["hashdata"])
    # standard input through a pipe, and by redirection
    cmds += [("cat README | sha256sum", "sha256", None), ("sha256sum < README", "sha256", None),
             ("cat README | sha3sum -a 512 -p user", "sha3-512", None),
             ("cat README | keccaksum", "keccak-256", None),
             ("cat README | shakesum -l 4000", "shake128", 4000),
             ("cat hashdata | sha256sum -p sw", "sha256", None)]
    st, t = xv6([c for c, _, _ in cmds], timeout=30)
    assert st == 0 and "panic" not in t, t[-3000:]
    out = outputs(t, [c for c, _, _ in cmds])
    for c, alg, ol in cmds:
        name = "-" if ("|" in c or "<" in c) else c.split()[-1]
        d = big if "hashdata" in c else data
        assert out[c].strip() == f"{ref(alg, d, ol)}  {name}", (c, out[c])
    # a missing file, and a hardware stream without an engine
    st, t = xv6(["sha256sum nosuchfile", "sha256sum -p hw README"], timeout=30)
    assert "cannot open nosuchfile" in t
    assert "hashing failed" in t   # no engine on QEMU
    assert "panic" not in t


def test_qemu_sum_check_is_coreutils(qemu_build, tmp_path):
    """sha256sum -c and its options (--quiet, --status, --strict, -w, --ignore-missing) print
    what the host's GNU sha256sum prints for the same check files and exit as it does: a
    malformed line alone is a warning, a missing listed file a failure, a file with no
    well-formed line an error. (Only its "No such file or directory" is "cannot open" here:
    xv6 has no errno.)"""
    data = open(README, "rb").read()
    good = f"{hashlib.sha256(data).hexdigest()}  README\n"
    files = {"a": good, "b": "not a checksum line\n", "c": good + "not a checksum line\n",
             "e": good + "0" * 64 + " *README\n", "f": f"{'2c' * 32} *nosuch\n",
             "g": good + f"{'2c' * 32} *nosuch\n"}
    make_files = ["sha256sum README > a", "echo not a checksum line > b", "cat a b > c",
                  f"echo {'0' * 64} *README > d", "cat a d > e", f"echo {'2c' * 32} *nosuch > f", "cat a f > g"]
    cases = [("", "c"), ("--strict", "c"), ("-w --quiet", "c"), ("--status", "e"), ("--quiet", "e"),
             ("", "g"), ("--ignore-missing", "g"), ("--ignore-missing", "f"), ("", "b"), ("--status", "g"),
             ("", "a"), ("--quiet", "a")]
    checks = {f"sha256sum -c {o} {f} && echo status 0 || echo status 1".replace("  ", " "): (o, f)
              for o, f in cases}
    st, t = xv6(make_files + ["cat c e g"] + list(checks), timeout=30)
    assert st == 0 and "panic" not in t, t[-3000:]
    out = outputs(t, ["cat c e g"] + list(checks))
    assert out["cat c e g"] == files["c"] + files["e"] + files["g"]     # the same check files
    (tmp_path / "README").write_bytes(data)
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    for cmd, (opts, f) in checks.items():
        host = subprocess.run(["sha256sum", "-c", *opts.split(), f], cwd=tmp_path, capture_output=True, text=True)
        want = host.stdout + host.stderr.replace("nosuch: No such file or directory", "nosuch: cannot open")
        got = out[cmd]
        assert got.endswith(f"status {host.returncode}\n"), (cmd, got, host.returncode)
        got = got[:got.rindex("status ")]
        assert sorted(got.splitlines()) == sorted(want.splitlines()), (cmd, got, want)


def pattern(start, n):
    """hashtests' long messages: byte i is (i * 7 + (i >> 8)) & 0xff."""
    return bytes((i * 7 + (i >> 8)) & 0xFF for i in range(start, start + n))


def check_scattered(out, want):
    """hashtests' scattered-pages digests ("sg ALG OFF LEN HEX") against hashlib: the
    message at offset OFF of the buffer is bytes OFF.. of the pattern."""
    rows = re.findall(r"^sg (\S+) (\d+) (\d+) ([0-9a-f]+)$", out, re.M)
    assert len(rows) == want, out[-2000:]
    for name, off, n, digest in rows:
        msg = pattern(int(off), int(n))
        assert digest == ref(hashspec.algorithm(name).name, msg), (name, off, n)


def check_big(out, provs, engines=None):
    """hashtests' multi-page digests ("big ALG PROV hash|stream LEN HEX"): every algorithm
    (with `engines`, those of the SoC's engines), hash() on each provider in provs and a
    stream on each but auto, against hashlib and pycryptodome (SHAKE: 100 bytes)."""
    rows = re.findall(r"^big (\S+) (\S+) (hash|stream) (\d+) ([0-9a-f]+)$", out, re.M)
    algs = [a.title for a in hashspec.ALGORITHMS if engines is None or a.engine in engines]
    want = {(a, p, k) for a in algs for p in provs for k in ("hash", "stream") if (p, k) != ("auto", "stream")}
    assert {(a, p, k) for a, p, k, _, _ in rows} == want and len(rows) == len(want), out[-3000:]
    for name, prov, kind, n, digest in rows:
        alg = hashspec.algorithm(name)
        assert digest == ref(alg.name, pattern(0, int(n)), 100 if alg.xof else None), (name, prov, kind)


def check_concurrent(out, nproc):
    """hashtests -c N: child i's digest ("cs I ALG LEN HEX") of its message, byte k of
    which is k * (i + 3) + i."""
    rows = re.findall(r"^cs (\d+) (\S+) (\d+) ([0-9a-f]+)$", out, re.M)
    assert sorted(int(r[0]) for r in rows) == list(range(nproc)), out[-3000:]
    for i, name, n, digest in rows:
        i, alg = int(i), hashspec.algorithm(name)
        msg = bytes((k * (i + 3) + i) & 0xFF for k in range(int(n)))
        assert digest == ref(alg.name, msg, 64 if alg.xof else None), (i, name)


def test_qemu_hardware_fails_cleanly_and_bad_inputs(qemu_build):
    # one process for every algorithm: each call fails on its own line, the next still runs
    cmds = ["hash -a all -p hw hello", "hashtests"]
    st, t = xv6(cmds, timeout=60)
    assert st == 0 and "panic" not in t, t[-3000:]
    out = outputs(t, cmds)
    assert out["hash -a all -p hw hello"].strip().splitlines() == [f"hash: {name} failed (-1)" for name in NAMES]
    h = out["hashtests"]
    assert "engines absent" in h
    assert "FAIL" not in h, h
    check_scattered(h, 20)
    check_big(h, ("sw", "auto"))
    m = re.search(r"hashtests: (\d+) passed, 0 failed", h)
    assert m and int(m.group(1)) >= 110, h
    for what in ("buffer at 0x80000000", "buffer at 0x40000000", "buffer at the SHA-256 window", "buffer at the SHA-512 window",
                 "buffer at 0xF0000000", "length that wraps", "SHA-256 outlen 31",
                 "unknown algorithm HASH_ALG_COUNT", "NULL buffer", "no engine: hash() hw = -1",
                 "SHA3-512 13522 bytes sw", "SHAKE128 stream sw",
                 # bad input loses nothing; a killed process leaves the kernel at once
                 "a refused stream read loses nothing", "SHAKE stream: a 0-byte read finishes nothing",
                 "kill inside khashbench: gone within 5 ticks", "kill inside an 8 MiB hash(): gone within 5 ticks",
                 "kmac sw = the driver in user space", "kmac hw: no engine", "kmac customization too long",
                 "kmac key at 0x80000000", "kmacxof differs"):
        assert "PASS: " + what in h, what


def test_qemu_hmac_kmac(qemu_build):
    """hmac -a kmac128|kmac256 (KMACXOF, a customization, any length) through the kmac
    system call and in user space equals pycryptodome's (tests/hashref.py); -p hw fails
    cleanly (QEMU has no engine); KMAC's options without KMAC, and a name that is neither,
    get an error."""
    cmds = ["hmac -a kmac128 -k secret README", "hmac -a kmac256 -s app -k secret README hashdata",
            "hmac -p user -a kmac256 -s app -k secret hashdata", "hmac -a kmac128 -x -l 100 -k k README",
            "hmac -a kmac128 -p user -x -l 100 -k k README", "hmac -a kmac128 -l 3 -k secret README",
            "hmac -a kmac128 -p hw -k secret README", "hmac -a kmac512 -k secret README", "hmac -x -k secret README"]
    st, t = xv6(cmds, timeout=60)
    assert st == 0 and "panic" not in t, t[-3000:]
    out = outputs(t, cmds)
    readme = open(README, "rb").read()
    hashdata = open(os.path.join(qemu_build, "hashdata"), "rb").read()

    def line(alg, key, s, data, name, n, xof=False):
        return f"{hashref.kmac(alg, key, s, data, n, xof).hex()}  {name}"
    assert out["hmac -a kmac128 -k secret README"].splitlines() == [line("shake128", b"secret", b"", readme, "README", 32)]
    assert out["hmac -a kmac256 -s app -k secret README hashdata"].splitlines() == [
        line("shake256", b"secret", b"app", readme, "README", 64),
        line("shake256", b"secret", b"app", hashdata, "hashdata", 64)]
    assert out["hmac -p user -a kmac256 -s app -k secret hashdata"].splitlines() == [
        line("shake256", b"secret", b"app", hashdata, "hashdata", 64)]
    for c in ("hmac -a kmac128 -x -l 100 -k k README", "hmac -a kmac128 -p user -x -l 100 -k k README"):
        assert out[c].splitlines() == [line("shake128", b"k", b"", readme, "README", 100, xof=True)], c
    assert out["hmac -a kmac128 -l 3 -k secret README"].splitlines() == [
        line("shake128", b"secret", b"", readme, "README", 3)]
    assert "failed (-1)" in out["hmac -a kmac128 -p hw -k secret README"]
    assert "usage: hmac" in out["hmac -a kmac512 -k secret README"]
    assert "are KMAC's" in out["hmac -x -k secret README"]


def test_qemu_hashbench_and_boot_clocks(qemu_build):
    st, t = xv6(["hashbench -n 5", "hashbench -a sha3-512 -n 3 -S"], timeout=120)
    assert st == 0 and "panic" not in t, t[-3000:]
    assert re.search(r"init: booted in \d+ clocks", t)
    for env in ("user space (sw)", "system call (sw)", "kernel space (sw)"):
        assert re.search(re.escape(env) + r"\s+\d+\s+\d+\s+\d+\.\d\d", t), env
    assert re.search(r"system call \(hw\)\s+n/a", t)
    for size in (5, 64, 1024, 16384):
        assert f"x {size} bytes" in t
    assert "SHA3-512, 3 x 5 bytes" in t


def test_qemu_boot_hashbench_flag(tmp_path):
    """BOOT_HASHBENCH=1 prints seed 000's Listing 9 measurement at boot."""
    make("PLATFORM=qemu", "BOOT_HASHBENCH=1")
    try:
        st, t = xv6(["echo x"], timeout=60, boot_timeout=120)
        assert st == 0, t[-2000:]
        assert re.search(r"Time in kernel space\(startup\): \d+ \(1000 x SHA-256 'hello', software\)", t)
    finally:
        make("PLATFORM=qemu")


def build_litex(target):
    """Build the SoC and xv6 for it; return (build dir of xv6, xv6run arguments, the SoC's
    generated headers)."""
    t = target_of(target)
    t.build()
    make(*t.xv6_make_args())
    return t.xv6_build_dir, ("--target", target), t.generated_dir


def header_int(gen, header, name):
    m = re.search(rf"^#define {name} (0x[0-9a-fA-F]+|\d+)L?\b", open(os.path.join(gen, header)).read(), re.M)
    assert m, (header, name)
    return int(m.group(1), 0)


@pytest.mark.simbuild
@pytest.mark.parametrize("target", TARGETS)
def test_litex_hash_hardware(target):
    """One boot: every algorithm on the engines, files and pipes, four concurrent
    streams, killed streams, bad input, hashbench (~5 min)."""
    build, extra, gen = build_litex(target)
    # `-a all`: every algorithm from one process (a command costs 0.5-0.8 M clocks of
    # fork, exec and exit: 22 fewer commands save ~3 min of simulation over the three targets)
    cmds = ["timetest 3", "hash -a all -p hw hello", "hash -a all -p auto -n 200"]
    cmds += ["sha256sum -p hw hashdata", "sha256sum -p sw hashdata", "cat hashdata | sha3sum -p hw",
             "hmac -a kmac256 -p hw -s app -k secret hashdata",
             "hashtests -c 4", "hashtests -k", "hashtests", "hashbench -n 3 -S",
             "hash -p hw hello"]
    # Wall-clock limits: the twin simulates LiteDRAM and the SDRAM too, and hashtests
    # runs ~100 M clocks there; the limits only catch a hang.
    twin = target_of(target).board is not None     # simulates the board's SDRAM too: slower
    st, t = xv6(cmds, timeout=2400 if twin else 1200, platform="litex",
                boot_timeout=300 if twin else 120, extra=extra)
    assert st == 0 and "panic" not in t, t[-4000:]
    out = outputs(t, cmds)
    # RAM and timebase from the SoC's own headers; the tick is 100 Hz everywhere, so 3
    # ticks of sleep are 3 x timebase/100 clocks of the time CSR (timetest lines up with a
    # tick edge first: 99.9% of 10 ticks on the Arty twin, 99.7% of 2 on litex_sim).
    ram, base = header_int(gen, "mem.h", "MAIN_RAM_SIZE"), header_int(gen, "soc.h", "CONFIG_CLOCK_FREQUENCY")
    assert f"memory: {ram // 1024} KiB RAM at 0x40000000" in t, t[:3000]
    assert f"(litex, Sv32, 100 Hz ticks, {base} Hz timebase)" in t
    m = re.search(r"sleep\(3\) took (\d+) ticks, (\d+) clocks, expected (\d+)", out["timetest 3"])
    assert m, out["timetest 3"]
    took, clocks, expected = map(int, m.groups())
    assert expected == 3 * base // 100 and 3 <= took <= 4
    assert 0.9 * expected <= clocks <= 1.2 * expected, out["timetest 3"]
    engines = soc_engines(gen)
    assert {"sha256", "keccak"} <= engines
    check_all_lines(out["hash -a all -p hw hello"], 5, engines)
    check_all_lines(out["hash -a all -p auto -n 200"], 200)
    data = open(os.path.join(build, "hashdata"), "rb").read()
    assert len(data) > 4096
    assert out["sha256sum -p hw hashdata"].strip() == f"{ref('sha256', data)}  hashdata"
    assert out["sha256sum -p sw hashdata"].strip() == f"{ref('sha256', data)}  hashdata"
    assert out["cat hashdata | sha3sum -p hw"].strip() == f"{ref('sha3-256', data)}  -"
    # KMAC on the engine (its KMAC mode, the key block from the key words), in chunks
    assert out["hmac -a kmac256 -p hw -s app -k secret hashdata"].strip() == (
        f"{hashref.kmac('shake256', b'secret', b'app', data, 64).hex()}  hashdata")
    c4 = out["hashtests -c 4"]
    assert c4.count("PASS: concurrent stream") == 4 and "FAIL" not in c4, c4
    check_concurrent(c4, 4)
    k = out["hashtests -k"]
    assert k.count("PASS: after a killed") == 4 and "FAIL" not in k, k
    h = out["hashtests"]
    assert "engines present" in h and "FAIL" not in h, h
    assert "PASS: SHA3-512 13522 bytes hw" in h and "PASS: Keccak-256 stream hw" in h
    assert "PASS: kmac hw = sw" in h, h
    check_scattered(h, 20)
    check_big(h, ("hw", "auto"), engines)
    # on the engine: khashbench and an 8 MiB DMA hash() stop within a tick of a kill
    assert "PASS: kill inside khashbench" in h and "PASS: kill inside an 8 MiB hash()" in h, h
    # a second process gets the engine between the chunks of another's long hash()
    assert "PASS: engine shared" in h, h
    assert re.search(r"system call \(hw\)\s+\d+\s+\d+", out["hashbench -n 3 -S"])
    assert re.search(r"null system call\s+\d+\s+\d+", out["hashbench -n 3 -S"])
    check_hash_line(out["hash -p hw hello"], "sha256", 5)
