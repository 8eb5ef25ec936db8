# SPDX-License-Identifier: MIT
# amaranth: UnusedElaboratable=no
"""gateware/devicekey.py: the device key is made once, kept, never committed, and built
into the SHA-256 engine (which never returns it: test_hmac_core, test_engine_frontend and
the firmware's hmac_key_reads_zero check that side)."""

import os
import subprocess
import sys
import threading

from gateware import devicekey, hashspec

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_made_once_and_kept(tmp_path, monkeypatch):
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
    monkeypatch.setenv("HASHSOC_DEVICE_KEY", str(tmp_path / "other"))
    assert devicekey.load() != keys[0]                      # another tree: another key
    assert devicekey.fingerprint(keys[0]) != keys[0].hex()[:16]


def test_never_committed():
    assert devicekey.path().startswith(os.path.join(TOP, "build") + os.sep)
    r = subprocess.run(["git", "check-ignore", "-q", devicekey.path()], cwd=TOP)
    assert r.returncode == 0, "build/device_key is not ignored by git"
    tracked = subprocess.run(["git", "ls-files"], cwd=TOP, capture_output=True, text=True).stdout.split()
    assert not [p for p in tracked if "device_key" in os.path.basename(p)]


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
