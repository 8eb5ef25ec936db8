# SPDX-License-Identifier: MIT
"""The device key: the HMAC key the SHA-256 engine holds as a constant (docs/integrity.md).

    build/device_key    DEVICE_KEY_BYTES random bytes as one line of hex, made the first
                        time anything asks for it (`make device-key`, a gateware build, the
                        xv6 image's manifest) and kept: never committed, never regenerated.

It is fixed when the gateware is built: the engine's Verilog (and so the bitstream and
the simulator) carries it, and the manifest in the xv6 image is authenticated with it
(os-port/tools, by Python's hmac). A new key means a new bitstream and a new image. Delete
the file only to re-key a build tree; `HASHSOC_DEVICE_KEY` names another file.

    python3 -m gateware.devicekey           make the key if absent, print its path
    python3 -m gateware.devicekey --hmac F  HMAC-SHA-256 of file F under it, hex (for checks)

Standard library only: the xv6 build runs it with the system's python3.
"""

import hashlib
import hmac
import os
import secrets
import sys

from . import hashspec

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def path():
    return os.environ.get("HASHSOC_DEVICE_KEY") or os.path.join(TOP, "build", "device_key")


def load():
    """The key's bytes; the file is made (readable by its owner only) if absent. Two
    processes asking at once get the same key: O_EXCL lets one of them make it."""
    p = path()
    if not os.path.exists(p):
        os.makedirs(os.path.dirname(p), exist_ok=True)
        try:
            fd = os.open(p, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass
        else:
            with os.fdopen(fd, "w") as f:
                f.write(secrets.token_hex(hashspec.DEVICE_KEY_BYTES) + "\n")
    for _ in range(100):        # the maker may not have written its line yet
        with open(p) as f:
            text = f.read().strip()
        if text:
            break
        import time
        time.sleep(0.05)
    key = bytes.fromhex(text)
    if len(key) != hashspec.DEVICE_KEY_BYTES:
        raise ValueError(f"{p}: {len(key)} bytes, not {hashspec.DEVICE_KEY_BYTES}")
    return key


def fingerprint(key=None):
    """Names a key without revealing it (build caches key their products on it)."""
    return hashlib.sha256(b"HashSoC device key fingerprint" + (key or load())).hexdigest()[:16]


def main(argv):
    if argv[:1] == ["--hmac"]:
        with open(argv[1], "rb") as f:
            print(hmac.new(load(), f.read(), "sha256").hexdigest())
        return 0
    load()
    print(path())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
