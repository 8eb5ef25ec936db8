# SPDX-License-Identifier: MIT
# amaranth: UnusedElaboratable=no
"""gateware/devicekey.py: the device key is made once, kept outside build/ (keys/, ignored
by git, left by `make clean`), never made again silently where something was built with
one, deleted only by an explicit target, named by a fingerprint the engine computes too,
and built into the SHA-256 engine (which never returns it: test_hmac_core,
test_engine_frontend and the firmware's hmac_key_reads_zero check that side). The kernel's
boot line with the fingerprint: test_qemu_boot_prints_the_fingerprint here, and on the
engine tests/test_xv6_integrity.py::test_litex_engine_enforce."""

import hmac
import os
import re
import shutil
import subprocess
import sys
import threading

import pytest

from gateware import devicekey, hashspec

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LABEL = b"HashSoC device key fingerprint v1"


@pytest.fixture
def tree(tmp_path, monkeypatch):
    """devicekey in a scratch tree: tmp_path is its top directory, no HASHSOC_DEVICE_KEY."""
    monkeypatch.delenv("HASHSOC_DEVICE_KEY", raising=False)
    monkeypatch.setattr(devicekey, "TOP", str(tmp_path))
    return tmp_path


def test_made_once_and_kept(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("HASHSOC_DEVICE_KEY", str(tmp_path / "k" / "device_key"))
    keys = []
    threads = [threading.Thread(target=lambda: keys.append(devicekey.load())) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(keys) == 8 and len(set(keys)) == 1          # one maker, everyone reads its key
    assert len(keys[0]) == hashspec.DEVICE_KEY_BYTES
    assert devicekey.load() == keys[0]                      # kept, not regenerated
    assert os.stat(devicekey.path()).st_mode & 0o077 == 0   # readable by its owner only
    # one line says a key was made, with its fingerprint (never the key)
    made = [line for line in capsys.readouterr().err.splitlines() if "made a new device key" in line]
    assert len(made) == 1 and devicekey.fingerprint(keys[0]) in made[0] and keys[0].hex() not in made[0]
    monkeypatch.setenv("HASHSOC_DEVICE_KEY", str(tmp_path / "other"))
    assert devicekey.load() != keys[0]                      # another file: another key


def test_outside_build_and_never_committed(monkeypatch):
    monkeypatch.delenv("HASHSOC_DEVICE_KEY", raising=False)
    p = devicekey.path()
    assert p == os.path.join(TOP, "keys", "device_key")
    assert not p.startswith(os.path.join(TOP, "build") + os.sep)   # `make clean` deletes build/
    r = subprocess.run(["git", "check-ignore", "-q", p], cwd=TOP)
    assert r.returncode == 0, "keys/device_key is not ignored by git"
    tracked = subprocess.run(["git", "ls-files"], cwd=TOP, capture_output=True, text=True).stdout.split()
    assert not [f for f in tracked if "device_key" in os.path.basename(f) or f.startswith("keys/")]


def test_moved_from_build(tree, capsys):
    """A tree from before keys/ has build/device_key: it is moved, never replaced."""
    key = bytes(range(hashspec.DEVICE_KEY_BYTES))
    (tree / "build").mkdir()
    (tree / "build" / "device_key").write_text(key.hex() + "\n")
    keys = []                                   # parallel builds: one moves it, all get it
    threads = [threading.Thread(target=lambda: keys.append(devicekey.load())) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert keys == [key] * 8
    assert (tree / "keys" / "device_key").read_text().strip() == key.hex()
    assert not (tree / "build" / "device_key").exists()
    assert "moved build/device_key to keys/device_key" in capsys.readouterr().err
    # both there and different: the old one is kept beside, keys/device_key stays the key
    other = bytes(range(1, 1 + hashspec.DEVICE_KEY_BYTES))
    (tree / "build" / "device_key").write_text(other.hex() + "\n")
    assert devicekey.load() == key
    aside = tree / "keys" / f"device_key.from-build-{devicekey.fingerprint(other)}"
    assert aside.read_text().strip() == other.hex() and not (tree / "build" / "device_key").exists()


def test_missing_key_with_products_is_refused(tree):
    """Something was built with the key (its directory stamped): no new key is made, and
    the message names the fingerprint and the ways on."""
    key = devicekey.use(str(tree / "build" / "engines"))
    fp = devicekey.fingerprint(key)
    assert (tree / "build" / "engines" / devicekey.STAMP).read_text() == f"{fp} keys/device_key\n"
    devicekey.use(str(tree / "os-port" / "build" / "litex"))
    os.remove(tree / "keys" / "device_key")
    with pytest.raises(devicekey.KeyRefused) as e:
        devicekey.load()
    msg = str(e.value)
    assert "no device key at keys/device_key" in msg and f"build/engines: fingerprint {fp}" in msg
    assert f"os-port/build/litex: fingerprint {fp}" in msg
    assert "restore" in msg and "HASHSOC_DEVICE_KEY" in msg and "make destroy-device-key CONFIRM=yes" in msg
    assert not (tree / "keys" / "device_key").exists()
    # another key file (HASHSOC_DEVICE_KEY) is not the one the stamps name: made as before
    os.environ["HASHSOC_DEVICE_KEY"] = str(tree / "elsewhere")
    try:
        assert devicekey.load() != key
    finally:
        del os.environ["HASHSOC_DEVICE_KEY"]


def test_other_key_than_the_products_is_refused(tree):
    devicekey.use(str(tree / "build" / "engines"))
    was = devicekey.fingerprint()
    new = bytes(range(hashspec.DEVICE_KEY_BYTES))
    (tree / "keys" / "device_key").write_text(new.hex() + "\n")
    with pytest.raises(devicekey.KeyRefused) as e:
        devicekey.use(str(tree / "build" / "engines"))
    msg = str(e.value)
    assert f"fingerprint {was}" in msg and f"fingerprint {devicekey.fingerprint(new)}" in msg
    assert "make clean" in msg
    assert devicekey.use(str(tree / "build" / "sim")) == new      # a directory of its own: fine


def test_verilog_build_is_stamped_and_checked(tree):
    """write_verilog (the engine's Verilog, which holds the key) goes through use(): a
    directory built with another key is refused before anything is converted."""
    from gateware.engines import write_verilog
    devicekey.load()                                    # the key is there...
    out = tree / "build" / "engines"
    out.mkdir(parents=True)                             # ...but out_dir was built with another
    (out / devicekey.STAMP).write_text("0123456789abcdef keys/device_key\n")
    with pytest.raises(devicekey.KeyRefused):
        write_verilog("sha256", None, str(out))
    assert not [f for f in os.listdir(out) if f.endswith(".v")]


def scratch_make(tmp_path):
    """The top Makefile and what its key targets need, in a scratch tree: `make clean` is
    never run in this tree's build/."""
    for f in ("Makefile", "boards/boards.mk", "gateware/__init__.py", "gateware/devicekey.py",
              "gateware/hashspec.py"):
        os.makedirs(tmp_path / os.path.dirname(f), exist_ok=True)
        shutil.copy(os.path.join(TOP, f), tmp_path / f)

    def make(*args):
        env = {k: v for k, v in os.environ.items() if k != "HASHSOC_DEVICE_KEY"}
        return subprocess.run(["make", "-s", "-C", str(tmp_path), *args], capture_output=True, text=True, env=env)
    return make


def test_make_clean_keeps_the_key(tmp_path):
    make = scratch_make(tmp_path)
    r = make("device-key")
    assert r.returncode == 0, r.stderr
    keyfile = tmp_path / "keys" / "device_key"
    key = keyfile.read_text()
    fp = r.stdout.split()[-1]
    assert r.stdout.split() == [str(keyfile), fp] and re.fullmatch(r"[0-9a-f]{16}", fp)
    # something built with it, then make clean
    subprocess.run([sys.executable, "-m", "gateware.devicekey", "--stamp", "build/engines"], cwd=tmp_path,
                   check=True, capture_output=True)
    (tmp_path / "build" / "logs").mkdir()
    r = make("clean")
    assert r.returncode == 0, r.stderr
    assert not (tmp_path / "build").exists()
    assert keyfile.read_text() == key                       # the key survives make clean
    r = make("device-key")
    assert r.returncode == 0 and r.stdout.split()[-1] == fp and "made" not in r.stderr


def test_destroying_the_key_takes_confirm(tmp_path):
    make = scratch_make(tmp_path)
    assert make("device-key").returncode == 0
    keyfile = tmp_path / "keys" / "device_key"
    key = keyfile.read_text()
    subprocess.run([sys.executable, "-m", "gateware.devicekey", "--stamp", "os-port/build/litex"], cwd=tmp_path,
                   check=True, capture_output=True)
    r = make("destroy-device-key")
    assert r.returncode != 0 and keyfile.read_text() == key
    said = " ".join(r.stderr.split())
    assert "CONFIRM=yes" in said and "rejects every image built afterwards" in said, said
    r = make("destroy-device-key", "CONFIRM=no")
    assert r.returncode != 0 and keyfile.read_text() == key
    # lost by hand instead: refused, the products' stamp still names it
    keyfile.rename(tmp_path / "backup")
    r = make("device-key")
    assert r.returncode != 0 and "os-port/build/litex: fingerprint" in r.stderr and not keyfile.exists()
    (tmp_path / "backup").rename(keyfile)
    r = make("destroy-device-key", "CONFIRM=yes")
    assert r.returncode == 0, r.stderr
    assert "rejects every image built afterwards" in " ".join(r.stderr.split()) and not keyfile.exists()
    assert not (tmp_path / "os-port" / "build" / "litex" / devicekey.STAMP).exists()
    r = make("device-key")                                   # re-keyed on purpose: a new key
    assert r.returncode == 0 and keyfile.read_text() != key and "made a new device key" in r.stderr


def test_fingerprint_is_the_hmac_of_the_label(tmp_path, monkeypatch):
    """The engine computes the same (os-port/kernel/devkey.c): HMAC-SHA-256 under the key
    of a label that never parses as a manifest line, its first 8 bytes."""
    key = bytes(range(hashspec.DEVICE_KEY_BYTES))
    want = hmac.new(key, LABEL, "sha256").hexdigest()[:16]
    assert devicekey.FINGERPRINT_LABEL == LABEL and devicekey.fingerprint(key) == want
    # a manifest line is "<64 hex>  <name>\n": the label starts with no hex digit, has no newline
    assert not re.match(rb"[0-9a-f]", LABEL) and b"\n" not in LABEL
    spec = open(os.path.join(TOP, "firmware", "libhash", "include", "hashsoc", "hash_spec.h")).read()
    assert f'#define HASH_DEVICE_KEY_FINGERPRINT_LABEL "{LABEL.decode()}"' in spec
    assert "#define HASH_DEVICE_KEY_FINGERPRINT_BYTES 8 " in spec
    kernel = open(os.path.join(TOP, "os-port", "kernel", "devkey.c")).read()
    assert "label[] = HASH_DEVICE_KEY_FINGERPRINT_LABEL;" in kernel
    keyfile = tmp_path / "device_key"
    keyfile.write_text(key.hex() + "\n")
    monkeypatch.setenv("HASHSOC_DEVICE_KEY", str(keyfile))
    out = subprocess.run([sys.executable, "-m", "gateware.devicekey", "--fingerprint"], cwd=TOP,
                         capture_output=True, text=True, check=True).stdout
    assert out == want + "\n"


def test_qemu_boot_prints_the_fingerprint():
    """xv6 on QEMU prints the stand-in key's fingerprint, computed with HASH_F_DEVKEY."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from xv6session import OSPORT, make, xv6
    if not (shutil.which("qemu-system-riscv32") and shutil.which("riscv64-unknown-elf-gcc")):
        pytest.skip("needs qemu-system-riscv32 and riscv64-unknown-elf-gcc")
    make("PLATFORM=qemu")
    key = bytes.fromhex(open(os.path.join(OSPORT, "tools", "qemu-device-key.hex")).read().strip())
    st, t = xv6(["echo hi"])
    assert st == 0, t
    lines = [line for line in t.splitlines() if line.startswith("devicekey:")]
    assert lines == [f"devicekey: fingerprint {devicekey.fingerprint(key)} (public QEMU stand-in, INSECURE)"], lines
    assert key.hex()[:16] not in t


def test_command_line_hmac(tmp_path, monkeypatch):
    import hmac
    monkeypatch.setenv("HASHSOC_DEVICE_KEY", str(tmp_path / "device_key"))
    f = tmp_path / "m"
    f.write_bytes(b"a manifest")
    out = subprocess.run([sys.executable, "-m", "gateware.devicekey", "--hmac", str(f)], cwd=TOP,
                         capture_output=True, text=True, check=True).stdout.strip()
    assert out == hmac.new(devicekey.load(), b"a manifest", "sha256").hexdigest()


def test_built_into_the_sha256_engine():
    """The engine's HMAC core holds K0 (the key padded to the block) as its device key."""
    from gateware.engines import make_core
    from gateware.sha256.hmac import key_words
    key = bytes(range(hashspec.DEVICE_KEY_BYTES))
    assert make_core("sha256", device_key=key).device_words == key_words(key)
    assert make_core("sha256").device_words == key_words(devicekey.load())


def test_key_is_data_not_structure():
    """Two keys give the same netlist but for the key memory's initial contents. The key is
    random per build tree; when its bits were constants in logic, yosys folded them into
    key-dependent LUTs, and the same sources routed at 63.56 MHz on one tree and 58.66 on
    CI's (docs/boards.md, "Timing status")."""
    import difflib

    from amaranth.back import rtlil

    from gateware.engines import make_core
    from gateware.sha256.hmac import KEY_WORDS
    keys = [bytes(range(hashspec.DEVICE_KEY_BYTES)), bytes(range(100, 100 + hashspec.DEVICE_KEY_BYTES))]
    a, b = (rtlil.convert(make_core("sha256", "folded", device_key=k)).splitlines() for k in keys)
    changed = [(line[0],) + tuple(line[1:].split()) for line in difflib.unified_diff(a, b, lineterm="", n=0)
               if line[:1] in "+-" and not line.startswith(("+++", "---"))]
    # One line each way: the memory's DATA, 2 x KEY_WORDS words of 32 bits.
    assert [w[:3] for w in changed] == [("-", "connect", "\\DATA"), ("+", "connect", "\\DATA")], changed[:4]
    assert all(w[3].startswith(f"{64 * KEY_WORDS}'") for w in changed)
