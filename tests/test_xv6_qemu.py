# SPDX-License-Identifier: MIT
"""The xv6 RV32 port under QEMU: build, boot through scripts/xv6run.py,
run shell commands, usertests, the timing programs.  Also checks that the
LiteX platform builds (it can only run in litex_sim, see docs/xv6.md)."""
import json
import os
import re
import shutil
import struct
import subprocess

import pytest

import hotblock
from xv6session import OSPORT, README, host_wc, make, outputs, xv6

pytestmark = pytest.mark.skipif(
    shutil.which("qemu-system-riscv32") is None or shutil.which("riscv64-unknown-elf-gcc") is None,
    reason="needs qemu-system-riscv32 and riscv64-unknown-elf-gcc")


@pytest.fixture(scope="module")
def qemu_build():
    make("PLATFORM=qemu")
    return os.path.join(OSPORT, "build", "qemu")


def test_build_outputs(qemu_build):
    for f in ("kernel.elf", "kernel.bin", "fs.img"):
        assert os.path.getsize(os.path.join(qemu_build, f)) > 0, f
    hdr = open(os.path.join(qemu_build, "kernel.elf"), "rb").read(20)
    assert hdr[:4] == b"\x7fELF" and hdr[4] == 1, "not ELF32"
    assert struct.unpack("<H", hdr[18:20])[0] == 243, "not RISC-V"
    entry = struct.unpack("<I", open(os.path.join(qemu_build, "kernel.elf"), "rb").read(28)[24:28])[0]
    assert entry == 0x80000000
    # the file system image fits the 2 MiB RAM-disk window
    assert os.path.getsize(os.path.join(qemu_build, "fs.img")) <= 2 * 1024 * 1024


def test_ram_disk_image_holds_only_the_used_blocks(qemu_build):
    """mkfs cuts the image after the last used block and records that in the superblock
    (nimage); the kernel zero-fills the rest. The image must end with a block in use."""
    img = open(os.path.join(qemu_build, "fs.img"), "rb").read()
    magic, size, nblocks, ninodes, nlog, logstart, inodestart, bmapstart, nimage = \
        struct.unpack("<9I", img[1024:1024 + 36])
    assert magic == 0x10203040 and size == 2000
    assert len(img) == nimage * 1024 < size * 1024 // 2
    assert any(img[-1024:]), "the image ends with an empty block"
    # every block the bitmap marks used is in the file, none after it
    bitmap = img[bmapstart * 1024:(bmapstart + 1) * 1024]
    used = [b for b in range(size) if bitmap[b // 8] >> (b % 8) & 1]
    assert used == list(range(nimage))


def test_boot_reports_ram_and_tick(qemu_build):
    rc, t = xv6(["echo hi"])
    assert rc == 0, t
    assert "memory: 131072 KiB RAM at 0x80000000" in t      # -m 128M (kernel/plat_qemu.h)
    assert "(qemu, Sv32, 100 Hz ticks, 10000000 Hz timebase)" in t
    assert re.search(r"ramdisk: (\d+) of 2000 blocks loaded", t)


def test_shell_commands(qemu_build):
    lines, words, chars = host_wc(README)
    xv6_lines = [ln for ln in open(README).read().splitlines() if "xv6" in ln]
    cmds = [
        "echo hello world",
        "ls",
        "cat README | wc",
        "grep xv6 README",
        "cat < README | grep xv6 | wc",
        "echo abc > t1",
        "cat t1",
        "echo more >> t1",
        "wc t1",
        "(echo a; echo b) | wc",
        "echo one; echo two",
        "mkdir dd",
        "echo x > dd/f",
        "ls dd",
        "ln README r2",
        "wc r2",
        "rm t1",
        "cat t1 README",
        "echo   spaced    args  ",
        "nonexistent",
    ]
    rc, t = xv6(cmds)
    assert rc == 0, t
    assert "panic" not in t
    out = outputs(t, cmds)
    assert out["echo hello world"] == "hello world\n"
    names = [ln.split()[0] for ln in out["ls"].splitlines() if ln.strip()]
    for n in ("README", "cat", "sh", "usertests", "timetest", "sysbench", "console", "."):
        assert n in names, (n, out["ls"])
    assert out["cat README | wc"].split() == [str(lines), str(words), str(chars)]
    assert out["grep xv6 README"].splitlines() == xv6_lines
    assert out["cat < README | grep xv6 | wc"].split()[0] == str(len(xv6_lines))
    assert out["echo abc > t1"] == ""
    assert out["cat t1"] == "abc\n"
    assert out["wc t1"].split() == ["2", "2", "9", "t1"]
    assert out["(echo a; echo b) | wc"].split() == ["2", "2", "4"]
    assert out["echo one; echo two"] == "one\ntwo\n"
    dd = [ln.split()[0] for ln in out["ls dd"].splitlines()]
    assert sorted(dd) == [".", "..", "f"]
    assert out["wc r2"].split() == [str(lines), str(words), str(chars), "r2"]
    assert out["cat t1 README"] == "cat: cannot open t1\n"
    assert out["echo   spaced    args  "] == "spaced args\n"
    assert "exec nonexistent failed" in out["nonexistent"]


def test_shell_and_or_follow_exit_status(qemu_build):
    """a && b runs b only if a exited 0, a || b only if it did not; a pipeline's status is
    its last command's, a list's its last one's, a command that fails to exec exits 1.
    `cat` of a missing file exits 1 (xv6's cat), `echo` 0."""
    cmds = {
        "echo a && echo b": "a\nb\n",
        "cat nosuch && echo no": "cat: cannot open nosuch\n",
        "cat nosuch || echo yes": "cat: cannot open nosuch\nyes\n",
        "echo a || echo no": "a\n",
        "nosuchprog || echo exec-failed": "exec nosuchprog failed\nexec-failed\n",
        "echo x | cat nosuch || echo pipe-failed": "cat: cannot open nosuch\npipe-failed\n",
        "cat nosuch | echo y && echo pipe-ok": "cat: cannot open nosuch\ny\npipe-ok\n",
        "(echo p; cat nosuch) || echo list-failed": "p\ncat: cannot open nosuch\nlist-failed\n",
        "cat nosuch || echo m && echo n": "cat: cannot open nosuch\nm\nn\n",
    }
    check_console(cmds)


def check_console(cmds):
    """Run the commands in one boot; each must print what `cmds` says, a pipeline's lines
    before the last in either order (its two sides print concurrently)."""
    rc, t = xv6(list(cmds))
    assert rc == 0 and "panic" not in t, t[-3000:]
    out = outputs(t, list(cmds))
    for c, want in cmds.items():
        if "|" in c.split("||")[0]:
            got, want = out[c].splitlines(), want.splitlines()
            assert sorted(got[:-1]) == sorted(want[:-1]) and got[-1:] == want[-1:], (c, out[c])
        else:
            assert out[c] == want, (c, out[c])


def test_grep_exit_status_is_posix(qemu_build):
    """grep exits 0 when it selected a line, 1 when it selected none, 2 on an error (a file
    it cannot open is reported and skipped, the others still read; no pattern): what
    `grep ... && ...` and `|| ...` rely on."""
    lines = "".join(ln + "\n" for ln in open(README).read().splitlines() if "xv6" in ln)
    assert lines
    cmds = {
        "grep xv6 README && echo found": lines + "found\n",
        "grep nosuchword README || echo none": "none\n",
        "grep nosuchword README && echo wrong": "",
        "grep xv6 nosuch README || echo error": "grep: cannot open nosuch\n" + lines + "error\n",
        "grep xv6 nosuch README && echo wrong": "grep: cannot open nosuch\n" + lines,
        "grep || echo usage": "usage: grep pattern [file ...]\nusage\n",
        "echo abc | grep b && echo piped": "abc\npiped\n",
        "echo abc | grep z || echo nomatch": "nomatch\n",
    }
    check_console(cmds)


def test_usertests_full(qemu_build):
    rc, t = xv6(["usertests"], timeout=180)
    assert rc == 0, t[-3000:]
    assert "panic" not in t
    assert "ALL TESTS PASSED" in t, t[-3000:]
    names = re.findall(r"^test (\w+): ", t, re.M)
    assert len(names) >= 19 and len(set(names)) == len(names)
    assert not re.search(r"^test \w+: .*FAILED", t, re.M)
    # the whole suite gives back every page it used
    m = re.search(r"free pages: (\d+) before, (\d+) after", t)
    assert m and int(m.group(2)) >= int(m.group(1)), t[-500:]


def test_usertests_quick_and_programs(qemu_build):
    cmds = ["usertests -q", "forktest", "stressfs", "ls", "grind 300", "zombie", "uptime"]
    rc, t = xv6(cmds, timeout=120)
    assert rc == 0, t[-3000:]
    assert "panic" not in t
    out = outputs(t, cmds)
    assert "ALL TESTS PASSED" in out["usertests -q"]
    assert "(quick)" in out["usertests -q"]
    assert "fork test OK" in out["forktest"]
    # five processes print "write i" and "read" concurrently: characters of
    # different writes may interleave on the console, so count letters
    assert "stressfs starting" in out["stressfs"]
    assert out["stressfs"].count("d") == 5 and out["stressfs"].count("w") == 5, out["stressfs"]
    assert not re.search(r"stressfs\d", out["ls"])     # every process removed its file
    assert "grind: OK" in out["grind 300"]
    assert re.search(r"up \d+ ticks", out["uptime"])


def parse_timetest(text):
    assert "timetest: timebase 10000000 Hz, tick 100 Hz" in text, text
    m = re.search(r"timetest: (\d+) reads, (\d+) went backwards", text)
    assert m, text
    s = re.search(r"sleep\((\d+)\) took (\d+) ticks, (\d+) clocks, expected (\d+)", text)
    assert s, text
    return int(m.group(2)), [int(x) for x in s.groups()]


def test_timetest(qemu_build):
    rc, t = xv6(["timetest", "timetest 20"])
    assert rc == 0, t
    for chunk in t.split("$ timetest")[1:]:
        backwards, (nticks, took, clocks, expected) = parse_timetest(chunk)
        assert backwards == 0
        assert "monotonic OK" in chunk
        assert expected == nticks * 10_000_000 // 100      # QEMU virt: 10 MHz
        assert 0.85 * expected <= clocks <= 1.4 * expected, chunk
        assert nticks <= took <= nticks + 2
        assert "timetest: OK" in chunk


SYSBENCH = re.compile(r"sysbench: (.+?): (\d+)\.(\d+) clocks \((\d+) ns\) per op")


# QEMU's clock at 1 ns per instruction: sysbench's figures then count instructions, the
# same on every run and under any host load (by wall time they follow the host).
ICOUNT = ("--qemu-arg=-icount", "--qemu-arg=shift=0")


def run_sysbench(build_dir=None, n=20000):
    rc, t = xv6([f"sysbench {n}"], build_dir=build_dir, timeout=120, extra=ICOUNT)
    assert rc == 0, t
    res = {name: int(a) + int(b) / 100 for name, a, b, _ in SYSBENCH.findall(t)}
    assert set(res) >= {"empty loop", "time read (csrr time)", "null syscall (getpid)",
                        "rdtime64 (timeh,time,timeh)"}, t
    return res, t


def test_sysbench(qemu_build):
    res, t = run_sysbench()
    print(t)
    read, sysc = res["time read (csrr time)"], res["null syscall (getpid)"]
    assert 0 < read < sysc, res
    # an emulated read is a trap to machine mode and back: it costs far
    # more than the loop around it
    assert read > 10 * res["empty loop"], res


def test_time_emulation_is_the_path_taken(qemu_build):
    """The default build traps `csrr time` into machine mode; NATIVE_TIME=1
    lets QEMU read it directly.  The emulated read must be clearly slower,
    and both must agree on the rate (timetest).

    Measured with `-icount shift=0` (ICOUNT): by wall time, a loaded CI machine
    once gave 3.6 against 6.3 clocks. A native read is one instruction of the
    loop; an emulated one is the trap, the machine-mode handler and mret, ~140
    instructions (1.41 clocks of the 10 MHz timebase, against 0.07)."""
    make("PLATFORM=qemu", "NATIVE_TIME=1")
    native_dir = os.path.join(OSPORT, "build", "qemu-native")
    key = "time read (csrr time)"
    native = run_sysbench(native_dir)[0][key]
    emulated = run_sysbench()[0][key]
    print("native", native, "emulated", emulated)
    assert emulated > 10 * native, (native, emulated)
    rc, t = xv6(["timetest 20"], build_dir=native_dir)
    assert rc == 0 and "timetest: OK" in t, t


def test_runner_reports_a_hung_command(qemu_build):
    # `cat` with no arguments waits for console input forever
    rc, t = xv6(["echo first", "cat"], timeout=3)
    assert rc == 3, t
    assert "first" in t


def test_litex_build_needs_the_socs_headers(tmp_path):
    """No fallback to another SoC's headers: without them the build stops and says how."""
    for args, how in ((["BOARD=nosuchboard"], "make twin-build BOARD=nosuchboard"),
                      ([f"LITEX_GENERATED_DIR={tmp_path}"], "make sim-build")):
        r = subprocess.run(["make", "-C", OSPORT, "PLATFORM=litex", *args],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        assert r.returncode != 0
        assert "xv6 for LiteX is built against its SoC's generated headers" in r.stdout, r.stdout
        assert how in r.stdout, r.stdout


@pytest.mark.simbuild
def test_hashs_per_chunk_code_is_one_block():
    """kernel.ld places the functions a long hash() runs per chunk side by side, and the
    short path's hash_digest after them, by their section names (-ffunction-sections;
    GCC puts a `hot` function in .text.hot.NAME). A name there that is no longer a function of its
    own (renamed, or inlined into its caller) matches nothing and links silently: in the
    LiteX kernel (QEMU's has no engine, and its compiler inlines differently) each must
    be a function symbol between _hot_start and _hot_end."""
    from soc import sim
    sim.build()
    make("PLATFORM=litex")
    ld = open(os.path.join(OSPORT, "kernel", "kernel.ld")).read()
    names = hotblock.names(ld)
    assert "khash_update_user" in names and "update_segs" in names and "hash_digest" in names, names
    missing, _ = hotblock.outside(ld, os.path.join(OSPORT, "build", "litex", "kernel.elf"))
    assert not missing, f"kernel.ld names these, but they are not functions in [_hot_start, _hot_end): {missing}"


@pytest.mark.simbuild
def test_litex_platform_builds():
    from soc import sim
    sim.build()
    make("PLATFORM=litex")
    b = os.path.join(OSPORT, "build", "litex")
    for f in ("kernel.elf", "kernel.bin", "kernel.hdr", "fs.img", "boot.json"):
        assert os.path.getsize(os.path.join(b, f)) > 0, f
    boot = json.load(open(os.path.join(b, "boot.json")))
    # the signed header at main RAM base + BOOT_HEADER_OFFSET (soc/bootrom.py)
    assert boot == {"kernel.bin": "0x40000000", "fs.img": "0x40200000", "kernel.hdr": "0x401ff000"}
    # LiteX jumps to the address of the last entry
    assert list(boot)[-1] == "kernel.bin"
    entry = struct.unpack("<I", open(os.path.join(b, "kernel.elf"), "rb").read(28)[24:28])[0]
    assert entry == 0x40000000
    # kernel.bin must not reach into the RAM disk
    assert os.path.getsize(os.path.join(b, "kernel.bin")) <= 0x200000
    assert os.path.getsize(os.path.join(b, "fs.img")) <= 0x200000
