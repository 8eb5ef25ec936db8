# SPDX-License-Identifier: MIT
"""The xv6 image's integrity manifest (docs/integrity.md): the boot check, exec
enforcement, sha256sum -c, the hmac/hmacverify/verify system calls and commands.

QEMU: the boot line (with the INSECURE stand-in key), sha256sum -c, hmac against
Python's hmac, images with a tampered program, manifest and manifest.mac (copies of
fs.img rebuilt with build/mkfs), a program written at run time, and the log and off modes.
litex_sim (one boot): a clean enforce boot on the engine, every program runs, hmac on
the engine, the device key's verify-only check, one program refused after a write.
"""
import hashlib
import hmac
import os
import re
import shutil
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from xv6session import OSPORT, README, host_wc, make, outputs, xv6  # noqa: E402
from xv6img import Image  # noqa: E402

from gateware import devicekey, hashspec  # noqa: E402

sys.path.insert(0, os.path.join(OSPORT, "tools"))
from mkmanifest import manifest_mac  # noqa: E402

KERNEL_VERSION = hashspec.BOOT_IMAGE_VERSION     # the Makefile's default

pytestmark = pytest.mark.skipif(
    shutil.which("qemu-system-riscv32") is None or shutil.which("riscv64-unknown-elf-gcc") is None,
    reason="needs qemu-system-riscv32 and riscv64-unknown-elf-gcc")

QEMU_KEY = bytes.fromhex(open(os.path.join(OSPORT, "tools", "qemu-device-key.hex")).read().strip())
BOOT_LINE = re.compile(r"integrity: (\w+): (\d+) files checked, (\d+) failed, (\d+) clocks \(([^)]*)\)")
INSECURE = "software, device key: public QEMU stand-in, INSECURE"


# ---- the file system image, read and rebuilt on the host ----

def image_files(img):
    """{name: bytes} of the root directory's regular files, in directory order."""
    return Image(img).files()


def rebuild(tmp_path, build, change, kernel_from=None, edit=None):
    """A copy of build's kernel and of its fs.img with change(files dict) applied,
    made by build/mkfs in the same file order, then edit(Image) applied to the image
    itself (its metadata, as an attacker would); returns the directory for xv6run."""
    files = image_files(open(os.path.join(build, "fs.img"), "rb").read())
    change(files)
    src = tmp_path / "files"
    src.mkdir()
    for name, data in files.items():
        (src / name).write_bytes(data)
    r = subprocess.run([os.path.join(OSPORT, "build", "mkfs"), str(tmp_path / "fs.img")] +
                       [str(src / n) for n in files], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    if edit:
        img = Image((tmp_path / "fs.img").read_bytes())
        edit(img)
        (tmp_path / "fs.img").write_bytes(bytes(img))
    for f in ("kernel.elf", "kernel.bin", "kernel.hdr", "boot.json"):  # litex_sim's: signed kernel
        if os.path.exists(os.path.join(kernel_from or build, f)):
            shutil.copy(os.path.join(kernel_from or build, f), tmp_path / f)
    return str(tmp_path)


def flip_last_byte(files, name):
    """The last byte of a stripped program is in its section headers, which exec does
    not read: the program still runs, only its digest differs."""
    data = bytearray(files[name])
    data[-1] ^= 1
    files[name] = bytes(data)


def manifest_of(build):
    lines = open(os.path.join(build, "manifest")).read().splitlines()
    return {ln[66:]: ln[:64] for ln in lines}


@pytest.fixture(scope="module")
def qemu_build():
    make("PLATFORM=qemu")
    return os.path.join(OSPORT, "build", "qemu")


@pytest.fixture(scope="module")
def qemu_log_build():
    make("PLATFORM=qemu", "INTEGRITY=log")
    return os.path.join(OSPORT, "build", "qemu-log")


@pytest.fixture(scope="module")
def qemu_off_build():
    make("PLATFORM=qemu", "INTEGRITY=off")
    return os.path.join(OSPORT, "build", "qemu-off")


def boot_line(t, mode, failed=0):
    m = BOOT_LINE.search(t)
    assert m, t[:3000]
    assert m.group(1) == mode and int(m.group(3)) == failed, m.group(0)
    return m


# ---- QEMU ----

def test_image_holds_the_manifest_and_its_mac(qemu_build):
    """Every file of the image but the manifest's two is listed with its SHA-256, and
    manifest.mac is the stand-in key's HMAC of manifest's bytes (the key file the
    kernel's stand-in is built from)."""
    files = image_files(open(os.path.join(qemu_build, "fs.img"), "rb").read())
    listed = manifest_of(qemu_build)
    assert set(listed) == set(files) - {"manifest", "manifest.mac"}
    for name in ("cat", "ls", "sh", "init", "hmac", "verify", "README", "hashdata"):
        assert name in listed
    for name, digest in listed.items():
        assert hashlib.sha256(files[name]).hexdigest() == digest, name
    assert files["manifest.mac"].decode() == manifest_mac(QEMU_KEY, files["manifest"], KERNEL_VERSION) + "\n"
    # the MAC covers the version's line and the manifest, nothing else: Python's hmac
    v = f"kernel-version {KERNEL_VERSION}"
    assert files["manifest.mac"].decode() == \
        hmac.new(QEMU_KEY, (v + "\n").encode() + files["manifest"], "sha256").hexdigest() + f"  {v}\n"
    gen = open(os.path.join(qemu_build, "k", "qemukey.c")).read()
    assert ", ".join(f"0x{b:02x}" for b in QEMU_KEY[:8]) in gen


def test_clean_boot_sums_and_hmac(qemu_build):
    listed = manifest_of(qemu_build)
    readme = open(README, "rb").read()
    hashdata = open(os.path.join(qemu_build, "hashdata"), "rb").read()
    devmac = hmac.new(QEMU_KEY, readme, "sha256").hexdigest()
    bad = devmac[:-1] + ("0" if devmac[-1] != "0" else "1")
    devmac512 = hmac.new(QEMU_KEY, readme, "sha512").hexdigest()
    key130 = "k" * 130      # longer than SHA-384's 128-byte block: hashed first
    cmds = ["ls", "echo hello", "sha256sum -c manifest", "sha256sum -p user -c manifest",
            "hmac -k secret README hashdata", "hmac -p sw -a sha224 -k secret README",
            "hmac -p sw -a sha512 -k secret README", f"hmac -p user -a sha384 -k {key130} hashdata",
            f"hmac -a sha512 -d -c {devmac512} README", "hmac -a sha3-256 -k secret README",
            "hmac -p user -k secret README", "hmac -k 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdefXYZ hashdata",
            f"hmac -d -c {devmac} README", f"hmac -d -c {bad} README", "hmac -d README",
            "hmac -p hw -k secret README", "verify", "measure"]
    st, t = xv6(cmds)
    assert st == 0 and "panic" not in t, t
    m = boot_line(t, "enforce")
    assert int(m.group(2)) == len(listed) and m.group(5) == INSECURE
    out = outputs(t, cmds)
    # QEMU has no measurement register (measured boot: tests/test_bootrom.py on LiteX)
    assert out["measure"].strip() == "measure: no measurement register on this platform"
    assert "README" in out["ls"] and out["echo hello"] == "hello\n"
    for c in ("sha256sum -c manifest", "sha256sum -p user -c manifest"):
        assert out[c].splitlines() == [f"{n}: OK" for n in listed], out[c]
    k = b"secret"
    assert out["hmac -k secret README hashdata"].splitlines() == [
        f"{hmac.new(k, readme, 'sha256').hexdigest()}  README",
        f"{hmac.new(k, hashdata, 'sha256').hexdigest()}  hashdata"]
    assert out["hmac -p sw -a sha224 -k secret README"].strip() == \
        f"{hmac.new(k, readme, 'sha224').hexdigest()}  README"
    assert out["hmac -p user -k secret README"].strip() == f"{hmac.new(k, readme, 'sha256').hexdigest()}  README"
    assert out["hmac -p sw -a sha512 -k secret README"].strip() == \
        f"{hmac.new(k, readme, 'sha512').hexdigest()}  README"
    assert out[f"hmac -p user -a sha384 -k {key130} hashdata"].strip() == \
        f"{hmac.new(key130.encode(), hashdata, 'sha384').hexdigest()}  hashdata"
    assert out[f"hmac -a sha512 -d -c {devmac512} README"].strip() == "README: OK"
    hmac_names = " ".join(hashspec.algorithm(a).name for a in hashspec.HMAC_ALGORITHMS)
    assert f"ALG (default sha256): {hmac_names}" in out["hmac -a sha3-256 -k secret README"]
    long_key = b"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdefXYZ"    # > one block
    assert out[f"hmac -k {long_key.decode()} hashdata"].strip() == \
        f"{hmac.new(long_key, hashdata, 'sha256').hexdigest()}  hashdata"
    assert out[f"hmac -d -c {devmac} README"].strip() == "README: OK"
    assert out[f"hmac -d -c {bad} README"].strip() == "README: FAILED"
    assert "never given out" in out["hmac -d README"]
    assert "failed (-1)" in out["hmac -p hw -k secret README"]          # no engine on QEMU
    assert re.search(rf"integrity: verify: {len(listed)} files checked, 0 failed", out["verify"]), out["verify"]


def test_tampered_program_is_refused(qemu_build, tmp_path):
    d = rebuild(tmp_path, qemu_build, lambda f: flip_last_byte(f, "cat"))
    cmds = ["cat README", "wc README", "sha256sum -c manifest", "verify", "echo still here"]
    st, t = xv6(cmds, build_dir=d)
    assert st == 0 and "panic" not in t, t
    boot_line(t, "enforce", failed=1)
    assert "integrity: cat: digest differs from the manifest" in t
    out = outputs(t, cmds)
    assert "exec cat: refused: digest differs from the manifest" in out["cat README"]
    assert "xv6" not in out["cat README"]                  # README's text: it did not run
    assert out["wc README"].split()[:3] == [str(v) for v in (open(README, "rb").read().count(b"\n"),
                                                             len(open(README, "rb").read().split()),
                                                             len(open(README, "rb").read()))]
    assert "cat: FAILED" in out["sha256sum -c manifest"] and "README: OK" in out["sha256sum -c manifest"]
    assert "integrity: cat: digest differs" in out["verify"] and ", 1 failed," in out["verify"]
    assert out["echo still here"] == "still here\n"


def test_tampered_program_runs_in_log_mode(qemu_log_build, tmp_path):
    d = rebuild(tmp_path, qemu_log_build, lambda f: flip_last_byte(f, "cat"))
    cmds = ["cat README"]
    st, t = xv6(cmds, build_dir=d)
    assert st == 0 and "panic" not in t, t
    boot_line(t, "log", failed=1)
    out = outputs(t, cmds)["cat README"]
    assert "exec cat: digest differs from the manifest (integrity: log, running it)" in out
    assert open(README).read() in out


def test_off_mode_checks_nothing(qemu_off_build, tmp_path):
    """INTEGRITY=off: no check at boot, a tampered program runs without a word; verify
    still works on request."""
    d = rebuild(tmp_path, qemu_off_build, lambda f: flip_last_byte(f, "cat"))
    cmds = ["cat README", "verify"]
    st, t = xv6(cmds, build_dir=d)
    assert st == 0 and "panic" not in t, t
    assert "integrity: off: nothing checked" in t and not BOOT_LINE.search(t.split("$ ")[0])
    out = outputs(t, cmds)
    assert out["cat README"] == open(README).read()
    assert "integrity: cat: digest differs" in out["verify"] and ", 1 failed," in out["verify"]


def bad_manifest_cases(mode):
    def digest(f):                      # one hex digit of one line: the MAC no longer fits
        text = bytearray(f["manifest"])
        text[0] = ord("0") if text[0] != ord("0") else ord("1")
        f["manifest"] = bytes(text)

    def mac(f):
        text = bytearray(f["manifest.mac"])
        text[10] = ord("0") if text[10] != ord("0") else ord("1")
        f["manifest.mac"] = bytes(text)

    def unparsable(f):                  # signed with the (public) key, but not the format
        f["manifest"] += b"not a digest  x\n"
        f["manifest.mac"] = (manifest_mac(QEMU_KEY, f["manifest"], KERNEL_VERSION) + "\n").encode()

    def missing(f):
        del f["manifest.mac"]

    def version(v):                     # a validly signed manifest of another kernel's version
        def change(f):
            f["manifest.mac"] = (manifest_mac(QEMU_KEY, f["manifest"], v) + "\n").encode()
        return change

    def relabelled(f):                  # an old version's MAC with this version's number
        old = manifest_mac(QEMU_KEY, f["manifest"], KERNEL_VERSION - 1)
        f["manifest.mac"] = (old.rsplit(" ", 1)[0] + f" {KERNEL_VERSION}\n").encode()

    return [("digest", digest, "manifest.mac is not the device key's MAC of /manifest"),
            ("mac", mac, "manifest.mac is not the device key's MAC of /manifest"),
            ("unparsable", unparsable, 'a line is not "<64 hex>  <name>"'),
            ("missing", missing, 'no /manifest.mac of one line "<64 hex>  kernel-version <N>"'),
            ("older-kernel", version(KERNEL_VERSION - 1),
             f"it is for kernel version {KERNEL_VERSION - 1}, this kernel is version {KERNEL_VERSION}"),
            ("newer-kernel", version(KERNEL_VERSION + 1),
             f"it is for kernel version {KERNEL_VERSION + 1}, this kernel is version {KERNEL_VERSION}"),
            ("relabelled", relabelled, "manifest.mac is not the device key's MAC of /manifest")]


@pytest.mark.parametrize("case", [c[0] for c in bad_manifest_cases("enforce")])
def test_tampered_manifest_stops_the_boot(qemu_build, tmp_path, case):
    _, change, why = next(c for c in bad_manifest_cases("enforce") if c[0] == case)
    d = rebuild(tmp_path, qemu_build, change)
    st, t = xv6(["echo never"], build_dir=d, boot_timeout=6)
    assert f"integrity: enforce: manifest rejected: {why}: boot stopped" in t, t
    assert st == 2 and "init: starting sh" not in t and "$ " not in t, t


def test_tampered_manifest_is_reported_in_log_mode(qemu_log_build, tmp_path):
    _, change, why = bad_manifest_cases("log")[0]
    d = rebuild(tmp_path, qemu_log_build, change)
    cmds = ["echo runs", "verify"]
    st, t = xv6(cmds, build_dir=d)
    assert st == 0, t
    assert f"integrity: log: manifest rejected: {why}: running unchecked" in t
    out = outputs(t, cmds)
    assert "exec echo: no trusted manifest (integrity: log, running it)" in out["echo runs"]
    assert "runs\n" in out["echo runs"]
    assert f"integrity: verify: manifest rejected: {why}" in out["verify"]


def test_writing_a_program_at_run_time(qemu_build):
    """A program verified (and cached) before is refused after a write to it: an append
    (writei) and a truncation alone (itrunc: grep writes nothing; without the check, exec
    of the empty file would fail silently). A copy is not listed; a hard link is the same
    file. README's text is what cat prints when it runs."""
    cmds = ["cat README", "cat README | wc", "cat ls > myls", "myls", "echo x >> cat", "cat hashdata",
            "wc README", "grep nothing-matches README > wc", "wc hashdata",
            "ln grep grep2", "grep2 xv6 README"]
    st, t = xv6(cmds)
    assert st == 0 and "panic" not in t, t
    boot_line(t, "enforce")
    out = outputs(t, cmds)
    readme = open(README).read()
    assert out["cat README"] == readme
    assert "refused" not in out["cat README | wc"] and "refused" not in out["wc README"]
    assert out["cat hashdata"] == "exec cat: refused: digest differs from the manifest\nexec cat failed\n"
    assert out["wc hashdata"] == "exec wc: refused: digest differs from the manifest\nexec wc failed\n"
    assert "exec grep2" not in out["grep2 xv6 README"] and "xv6" in out["grep2 xv6 README"]
    assert out["myls"] == "exec myls: refused: not in the manifest\nexec myls failed\n"   # a copy of ls


# ---- the file system's metadata (docs/integrity.md, "The file system's metadata") ----
#
# The attacker edits the image's metadata, not the program: a listed program keeps its
# bytes and its digest, so it passes the boot check, while another file, the free
# bitmap or a pointer into the metadata gives the attacker a way to change those bytes
# later without writing the program (which would drop its verified mark). Each image
# below defeated the kernel before fs.c's block ownership (fscheck, iblocks): the
# changed program ran as a verified one. The promise checked is the manifest's: a
# program whose bytes are not the listed ones does not run.

VICTIM = "cat"
VICTIM_BLOCK = 1          # cat's file bytes 1024-2047: padding before .text, not loaded,
#                           so cat still runs with them changed; only its digest differs


def victim_block(img):
    return img.blocks(img.inum(VICTIM))[VICTIM_BLOCK]


def share_victim_block(img):
    """notes (an unlisted file, 0 bytes) gets the victim's block as its first block."""
    addrs = [0] * 13
    addrs[0] = victim_block(img)
    img.set_inode(img.inum("notes"), size=0, addrs=addrs)


def free_victim_block(img):
    """the victim's block marked free: the next file created is given it"""
    img.set_used(victim_block(img), False)


def bitmap_in_notes(img):
    """notes' first block is the free bitmap, and its size the offset of the byte
    whose bits are the victim's blocks: appending 'x' (0x78) to notes clears the bits
    of the first of those blocks, which the next file created is then given."""
    b = victim_block(img)
    assert b % 8 == 0, "the victim's block must be the first of its bitmap byte"
    addrs = [0] * 13
    addrs[0] = img.bmapstart
    img.set_inode(img.inum("notes"), size=b // 8, addrs=addrs)


def with_notes(files):
    files["notes"] = b"an unlisted file\n"


def with_notes_and_writer(files):
    with_notes(files)
    files["w"] = b"echo x >> notes\n" * 40      # a shell script: 40 writes through notes


def victim_ran_changed(out, digest_line, listed):
    """The manifest's promise broken: the victim's exec was not refused, yet its bytes
    (sha256sum, read through the file system) are not the listed ones."""
    return "refused" not in out and digest_line.split()[0] != listed[VICTIM]


METADATA_ATTACKS = {
    # name: (change, edit, commands run before the victim, the boot check's verdict on it)
    "shared-block": (with_notes, share_victim_block, ["echo x >> notes"],
                     "a block is also another file's"),
    "free-block": (lambda f: None, free_victim_block, ["echo hello > newfile"],
                   "a block is on the free list"),
    "metadata-block": (with_notes, bitmap_in_notes, ["echo x >> notes", "echo hello > newfile"], None),
}


@pytest.mark.parametrize("attack", list(METADATA_ATTACKS))
def test_metadata_attack(qemu_build, tmp_path, attack):
    """An image whose metadata lets a listed program change without a write to it: the
    boot check reports the program (or fs.c never follows the forged pointer), exec
    refuses it, and no changed program runs."""
    change, edit, before, verdict = METADATA_ATTACKS[attack]
    d = rebuild(tmp_path, qemu_build, change, edit=edit)
    listed = manifest_of(qemu_build)
    cmds = before + ["cat README", "sha256sum cat", "verify", "echo still here"]
    st, t = xv6(cmds, build_dir=d)
    assert st == 0 and "panic" not in t, t
    out = outputs(t, cmds)
    assert not victim_ran_changed(out["cat README"], out["sha256sum cat"], listed), t
    assert out["echo still here"] == "still here\n"
    if verdict:
        boot_line(t, "enforce", failed=1)
        assert f"integrity: cat: {verdict}" in t.split("$ ")[0]
        assert out["cat README"] == f"exec cat: refused: {verdict}\nexec cat failed\n"
        assert f"integrity: cat: {verdict}" in out["verify"]
    else:
        # the pointer into the bitmap is never followed: the write through notes fails,
        # the bitmap keeps cat's blocks, and cat is untouched and runs
        boot_line(t, "enforce")
        assert "fs: 1 block pointers outside the data area (never followed)" in t.split("$ ")[0]
        assert out["sha256sum cat"].split()[0] == listed[VICTIM]
        assert out["cat README"] == open(README).read()


def test_writes_during_exec(qemu_build, tmp_path):
    """A writer through a file that shares a block with cat runs in the background
    while cat is executed again and again: no exec of cat runs (the boot check refused
    the shared block), whatever the writer had written by then."""
    d = rebuild(tmp_path, qemu_build, with_notes_and_writer, edit=share_victim_block)
    listed = manifest_of(qemu_build)
    runs = "; ".join(["cat README"] * 6)
    cmds = ["sh w &", runs, "sha256sum cat"]     # sh FILE: no prompts in the transcript
    st, t = xv6(cmds, build_dir=d)
    assert st == 0 and "panic" not in t, t
    out = outputs(t, cmds)
    assert out["sha256sum cat"].split()[0] != listed[VICTIM]          # the writer did write
    assert out[runs].count("exec cat: refused: a block is also another file's") == 6, out[runs]
    assert "xv6" not in out[runs]                                     # README's text: cat never ran


def test_rewritten_program_gets_blocks_of_its_own(qemu_build, tmp_path):
    """A listed program written back with its own bytes at run time runs again (its
    digest is the listed one), so the blocks it is given must be its alone: notes and
    forktest share a block that the bitmap calls free, the lowest free block, which
    balloc() would hand to wc as it is written back. Then a write through notes would
    change wc after its exec had verified it. Removing notes frees nothing it shares."""
    def edit(img):
        f = img.blocks(img.inum("forktest"))[0]
        addrs = [0] * 13
        addrs[0] = f
        img.set_inode(img.inum("notes"), size=0, addrs=addrs)
        img.set_used(f, False)

    def change(files):
        with_notes(files)
        files["wccopy"] = files["wc"]

    d = rebuild(tmp_path, qemu_build, change, edit=edit)
    listed = manifest_of(qemu_build)
    cmds = ["cat wccopy > wc", "wc README", "echo x >> notes", "wc hashdata", "sha256sum wc", "rm notes",
            "echo still here"]
    st, t = xv6(cmds, build_dir=d)
    assert st == 0 and "panic" not in t, t
    boot_line(t, "enforce", failed=1)                       # forktest: its block is on the free list
    out = outputs(t, cmds)
    for c in ("wc README", "wc hashdata"):
        assert "refused" in out[c] or out["sha256sum wc"].split()[0] == listed["wc"], t
    assert out["wc README"].split()[:3] == [str(v) for v in host_wc(README)]
    assert out["sha256sum wc"].split()[0] == listed["wc"]
    assert out["echo still here"] == "still here\n"


def test_hole_in_a_file_is_read_short(qemu_build, tmp_path):
    """A file whose first block pointer is 0 below its size (mkfs and writei never leave
    one): reading it stops at the hole instead of allocating a block outside a
    transaction (which was a panic: log_write outside of trans). A listed program with a
    hole cannot be read by the boot check, which hashes the RAM disk in place."""
    def edit(img):
        img.set_inode(img.inum("notes"), addrs=[0] * 13)
        ino = img.inode(img.inum("ls"))
        ino["addrs"][13 - 1] = 0                    # ls's indirect block: blocks 12.. are holes
        img.set_inode(img.inum("ls"), addrs=ino["addrs"])

    d = rebuild(tmp_path, qemu_build, with_notes, edit=edit)
    cmds = ["wc notes", "ls README", "echo still here"]
    st, t = xv6(cmds, build_dir=d)
    assert st == 0 and "panic" not in t, t
    boot_line(t, "enforce", failed=1)
    assert "integrity: ls: cannot be read" in t.split("$ ")[0]
    out = outputs(t, cmds)
    assert out["wc notes"].split() == ["0", "0", "0", "notes"], out["wc notes"]
    assert out["ls README"] == "exec ls: refused: cannot be read\nexec ls failed\n"
    assert out["echo still here"] == "still here\n"


# ---- litex_sim: the engine ----

@pytest.mark.simbuild
def test_litex_engine_enforce():
    """One boot on litex_sim: the device key's fingerprint computed on the engine is the
    build key's, the manifest checked on the engine (its device key), every program runs,
    HMAC on the engine = Python's, the device key only verifies (the software provider has
    no device key on LiteX), the cache makes a second exec cheaper than a first one, and a
    program written at run time is refused."""
    from soc import sim
    sim.build()
    gen = os.path.join(sim.BUILD_DIR, "software", "include", "generated")
    make("PLATFORM=litex", f"LITEX_GENERATED_DIR={gen}")
    build = os.path.join(OSPORT, "build", "litex")
    listed = manifest_of(build)
    key = bytes.fromhex(open(subprocess.run(["python3", "-m", "gateware.devicekey"], cwd=os.path.dirname(OSPORT),
                                            capture_output=True, text=True, check=True).stdout.strip()).read())
    files = image_files(open(os.path.join(build, "fs.img"), "rb").read())
    assert files["manifest.mac"].decode().strip() == manifest_mac(key, files["manifest"], KERNEL_VERSION)
    readme = open(README, "rb").read()
    devmac = hmac.new(key, readme, "sha256").hexdigest()
    devmac384 = hmac.new(key, readme, "sha384").hexdigest()     # the SHA-512 engine's device key
    # sh with its input empty and its output in a file (exectime): it prints its prompt
    # there, 2 bytes, or "exec sh failed" if it was refused
    cmds = ["ls", "echo hello", "exectime -n 1 sh", "wc exectime.out", "sha256sum -p hw -c manifest",
            "hmac -p hw -k secret README", "hmac -p hw -a sha224 -k secret hashdata",
            "hmac -p hw -a sha512 -k secret hashdata", f"hmac -a sha384 -d -c {devmac384} README",
            f"hmac -d -c {devmac} README", f"hmac -p sw -d -c {devmac} README",
            "exectime -w ls README", "exectime ls README",
            "echo x >> wc", "wc README"]
    st, t = xv6(cmds, timeout=900, platform="litex", boot_timeout=300)
    assert st == 0 and "panic" not in t, t[-4000:]
    m = boot_line(t, "enforce")
    assert int(m.group(2)) == len(listed) and m.group(5) == "engine", m.group(0)
    # the fingerprint the engine computes is the build key's (docs/integrity.md, "The device
    # key's life"), and nothing more of the key is shown
    fp = devicekey.fingerprint(key)     # (test_devicekey checks it against Python's hmac)
    assert [line for line in t.splitlines() if line.startswith("devicekey:")] == \
        [f"devicekey: fingerprint {fp} (engine)"], t[:3000]
    assert key.hex()[:16] not in t
    out = outputs(t, cmds)
    assert "refused" not in t.split("$ echo x >> wc")[0], t
    assert "README" in out["ls"] and out["echo hello"] == "hello\n"
    assert out["wc exectime.out"].split() == ["0", "1", "2", "exectime.out"], out["wc exectime.out"]
    assert out["sha256sum -p hw -c manifest"].splitlines() == [f"{n}: OK" for n in listed]
    assert out["hmac -p hw -k secret README"].strip() == f"{hmac.new(b'secret', readme, 'sha256').hexdigest()}  README"
    hashdata = open(os.path.join(build, "hashdata"), "rb").read()
    assert out["hmac -p hw -a sha224 -k secret hashdata"].strip() == \
        f"{hmac.new(b'secret', hashdata, 'sha224').hexdigest()}  hashdata"
    assert out["hmac -p hw -a sha512 -k secret hashdata"].strip() == \
        f"{hmac.new(b'secret', hashdata, 'sha512').hexdigest()}  hashdata"
    assert out[f"hmac -a sha384 -d -c {devmac384} README"].strip() == "README: OK"
    assert out[f"hmac -d -c {devmac} README"].strip() == "README: OK"
    assert out[f"hmac -p sw -d -c {devmac} README"].strip() == "README: FAILED"
    # -w makes every exec of ls a first one (a write drops the verified mark); then the
    # first run of the next exectime hashes ls again and sets the mark, and the other four
    # find it. Hashing ls (12.7 KB) on the engine costs ~120k clocks (docs/integrity.md).
    first = sorted(map(int, re.search(r"exectime: ls: ([\d ]+) clocks", out["exectime -w ls README"]).group(1).split()))
    cached = sorted(map(int, re.search(r"exectime: ls: ([\d ]+) clocks", out["exectime ls README"]).group(1).split()))
    assert first[2] > cached[2] + 50000, (first, cached)
    assert out["wc README"].startswith("exec wc: refused: digest differs from the manifest"), out["wc README"]


@pytest.mark.simbuild
def test_litex_metadata_attacks(tmp_path):
    """The metadata attacks on litex_sim, in one image and one boot: cat shares a block
    with notes, ls has a block on the free list, notes2 points at the free bitmap. The
    boot check on the engine reports cat and ls, exec refuses both after the writes that
    would have changed them, and the pointer into the bitmap is never followed."""
    from soc import sim
    sim.build()
    gen = os.path.join(sim.BUILD_DIR, "software", "include", "generated")
    make("PLATFORM=litex", f"LITEX_GENERATED_DIR={gen}")
    build = os.path.join(OSPORT, "build", "litex")
    listed = manifest_of(build)

    def change(files):
        with_notes(files)
        files["notes2"] = b"another unlisted file\n"

    def edit(img):
        share_victim_block(img)
        img.set_used(img.blocks(img.inum("ls"))[1], False)
        addrs = [0] * 13
        addrs[0] = img.bmapstart
        img.set_inode(img.inum("notes2"), size=0, addrs=addrs)

    d = rebuild(tmp_path, build, change, edit=edit)
    cmds = ["echo x >> notes", "echo x >> notes2", "echo hello > newfile", "cat README", "ls README",
            "sha256sum -p hw cat", "sha256sum -p hw ls", "echo still here"]
    st, t = xv6(cmds, timeout=600, platform="litex", boot_timeout=300, build_dir=d)
    assert st == 0 and "panic" not in t, t[-4000:]
    boot = t.split("$ ")[0]
    m = boot_line(t, "enforce", failed=2)
    assert m.group(5) == "engine", m.group(0)
    assert "fs: 1 block pointers outside the data area (never followed), 2 blocks shared or marked free" in boot
    assert "integrity: cat: a block is also another file's" in boot
    assert "integrity: ls: a block is on the free list" in boot
    out = outputs(t, cmds)
    assert out["cat README"] == "exec cat: refused: a block is also another file's\nexec cat failed\n"
    assert out["ls README"] == "exec ls: refused: a block is on the free list\nexec ls failed\n"
    assert out["sha256sum -p hw ls"].split()[0] == listed["ls"]      # newfile was not given its block
    assert out["echo still here"] == "still here\n"
