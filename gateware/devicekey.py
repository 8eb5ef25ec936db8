# SPDX-License-Identifier: MIT
"""The device key: the HMAC key the SHA-2 engines hold as a constant (docs/integrity.md,
"The device key's life").

    keys/device_key     DEVICE_KEY_BYTES random bytes as one line of hex, made the first
                        time anything asks for it (`make device-key`, a gateware build, the
                        xv6 image's manifest) and kept: git ignores keys/, `make clean`
                        (which deletes build/) leaves it, and only `make destroy-device-key
                        CONFIRM=yes` deletes it. `HASHSOC_DEVICE_KEY` names another file.

It is fixed when the gateware is built: the engine's Verilog (and so the bitstream and the
simulator) carries it, and the manifest in the xv6 image is authenticated with it
(os-port/tools, by Python's hmac). A board keeps the key of the bitstream it was flashed
with, and rejects every image signed with another one, so a key is never made again
silently where something was built with one:

- Whatever builds a product with the key (the engine's Verilog, an xv6 image for LiteX, the
  serial boot's file system) first calls use(DIR), which writes DIR/device_key.fingerprint:
  the key's fingerprint and its file.
- If the key file is missing while such a stamp names it, nothing is made: the error names
  the fingerprint the products were built with and how to go on. If the key's fingerprint
  is not DIR's stamp, building into DIR is refused too.
- A tree from before keys/ holds its key in build/device_key: it is moved to keys/.

The fingerprint names a key without revealing it: the first 8 bytes of HMAC-SHA-256(key,
FINGERPRINT_LABEL), which the engine computes too, so the xv6 kernel prints what the
hardware holds at boot (`devicekey: fingerprint ...`, os-port/kernel/devkey.c). The label
never parses as a manifest line ("<64 hex digits>  <name>"): its first byte is no hex digit
and it has no newline.

    python3 -m gateware.devicekey                make the key if absent, print its path
    python3 -m gateware.devicekey --fingerprint  the key's fingerprint (16 hex digits)
    python3 -m gateware.devicekey --stamp DIR    use(DIR): check, stamp, print the path
    python3 -m gateware.devicekey --hmac F       HMAC-SHA-256 of file F under it, hex
    python3 -m gateware.devicekey --destroy [--confirm]   delete it (and forget its stamps)

Standard library only: the xv6 build runs it with the system's python3.
"""

import glob
import hmac
import os
import secrets
import sys
import time

from . import hashspec

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FINGERPRINT_LABEL = hashspec.DEVICE_KEY_FINGERPRINT_LABEL.encode()
STAMP = "device_key.fingerprint"
# Where products built with the key live: their stamps are looked for here, a level or two
# down (build/engines, os-port/build/litex, build/ulx3s-twin/serialboot-*).
PRODUCT_ROOTS = ("build", os.path.join("os-port", "build"))


class KeyRefused(SystemExit):
    """A refusal: the message says what was found and how to go on. A SystemExit, so that a
    build stops with the message alone (exit status 1), not a traceback."""

    def __init__(self, msg):
        super().__init__(f"devicekey: {msg}")


def default_path():
    return os.path.join(TOP, "keys", "device_key")


def old_path():
    return os.path.join(TOP, "build", "device_key")


def path():
    env = os.environ.get("HASHSOC_DEVICE_KEY")
    return os.path.abspath(env) if env else default_path()


def shown(p):
    """p relative to the top directory when inside it (stamps and messages)."""
    r = os.path.relpath(os.path.abspath(p), TOP)
    return p if r.startswith("..") else r


def say(msg):
    print(f"devicekey: {msg}", file=sys.stderr)


def fingerprint(key=None):
    """HMAC-SHA-256(key, FINGERPRINT_LABEL)'s first DEVICE_KEY_FINGERPRINT_BYTES bytes, hex."""
    mac = hmac.new(load() if key is None else key, FINGERPRINT_LABEL, "sha256").digest()
    return mac[:hashspec.DEVICE_KEY_FINGERPRINT_BYTES].hex()


def stamps():
    """[(stamp file, fingerprint, key file as recorded)] of every product found."""
    found = []
    for root in PRODUCT_ROOTS:
        for depth in range(3):
            for f in sorted(glob.glob(os.path.join(TOP, root, *["*"] * depth, STAMP))):
                try:
                    with open(f) as fd:
                        fp, _, keyfile = fd.read().strip().partition(" ")
                except OSError:
                    continue
                found.append((f, fp, keyfile))
    return found


def migrate():
    """Move build/device_key (a tree from before keys/) to keys/device_key. Never a new key
    where an old one exists; an old key other than the one in keys/ is kept beside it.
    Several processes may do this at once (parallel builds and tests): one moves it."""
    old, new = old_path(), default_path()
    if not os.path.exists(old):
        return
    os.makedirs(os.path.dirname(new), mode=0o700, exist_ok=True)
    try:
        if os.path.exists(new):
            if read(old) == read(new):
                os.remove(old)
                return
            new = f"{new}.from-build-{fingerprint(read(old))}"
            say(f"build/device_key differs from keys/device_key: kept as {shown(new)}")
        os.link(old, new)          # never over an existing file (rename would be)
    except (FileNotFoundError, FileExistsError):    # another process moved it first
        return
    try:
        os.remove(old)
    except FileNotFoundError:      # another process found it in both places
        pass
    say(f"moved build/device_key to {shown(new)} (fingerprint {fingerprint(read(new))}): "
        "make clean deletes build/, keys/ stays")


def read(p):
    for _ in range(100):        # a maker may not have written its line yet
        with open(p) as f:
            text = f.read().strip()
        if text:
            break
        time.sleep(0.05)
    key = bytes.fromhex(text)
    if len(key) != hashspec.DEVICE_KEY_BYTES:
        raise ValueError(f"{p}: {len(key)} bytes, not {hashspec.DEVICE_KEY_BYTES}")
    return key


def refuse_missing(p, built):
    lines = [f"no device key at {shown(p)}, but products were built with one there:"]
    lines += [f"  {shown(os.path.dirname(f))}: fingerprint {fp}" for f, fp, _ in built]
    lines += ["A board flashed with a bitstream built from it rejects every image signed with another",
              "key ('manifest rejected ... boot stopped'), so no new key is made. Either restore that",
              f"key to {shown(p)} (or name its file in HASHSOC_DEVICE_KEY), or re-key this tree on",
              "purpose: `make destroy-device-key CONFIRM=yes` forgets the old key's stamps, and the",
              "next build makes a new key (docs/integrity.md, \"The device key's life\")."]
    raise KeyRefused("\n".join(lines))


def load():
    """The key's bytes. The file is made (readable by its owner only) if absent and no
    product names it; two processes asking at once get the same key (O_EXCL lets one of
    them make it)."""
    if not os.environ.get("HASHSOC_DEVICE_KEY"):
        migrate()
    p = path()
    if not os.path.exists(p):
        built = [s for s in stamps() if s[2] == shown(p)]
        if built:
            refuse_missing(p, built)
        os.makedirs(os.path.dirname(p), mode=0o700, exist_ok=True)
        try:
            fd = os.open(p, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass
        else:
            key = secrets.token_bytes(hashspec.DEVICE_KEY_BYTES)
            with os.fdopen(fd, "w") as f:
                f.write(key.hex() + "\n")
            say(f"made a new device key, {shown(p)}, fingerprint {fingerprint(key)} (keep it: "
                "boards flashed with what is built from it accept only images signed with it)")
    return read(p)


def use(where):
    """The key for a product built in directory `where`: refused if `where` holds a product
    built with another key; then `where` is stamped with this key's fingerprint."""
    key = load()
    fp, p = fingerprint(key), shown(path())
    stamp = os.path.join(where, STAMP)
    try:
        with open(stamp) as f:
            was, _, keyfile = f.read().strip().partition(" ")
    except FileNotFoundError:
        was = None
    if was is not None and was != fp:
        raise KeyRefused(
            f"{shown(where)} was built with the device key of fingerprint {was} ({keyfile}), "
            f"but the key now is {p}, fingerprint {fp}.\nBuilding over it would leave "
            "boards flashed from the old products rejecting the new images. Use the old key "
            f"(restore {keyfile}, or HASHSOC_DEVICE_KEY=<its file>), or delete {shown(where)} "
            "(make clean) to build it anew with this key.")
    if was is None:
        os.makedirs(where, exist_ok=True)
        tmp = f"{stamp}.{os.getpid()}"
        with open(tmp, "w") as f:
            f.write(f"{fp} {p}\n")
        os.replace(tmp, stamp)
    return key


def destroy(confirm):
    p = path()
    mine = [s for s in stamps() if s[2] == shown(p)]
    fp = fingerprint(read(p)) if os.path.exists(p) else None
    warn = [f"this deletes the device key {shown(p)}" + (f", fingerprint {fp}" if fp else " (missing)") + ".",
            "A board flashed with a bitstream built from it keeps it, and rejects every image",
            "built afterwards ('manifest rejected ... boot stopped') until it is flashed again."]
    if not confirm:
        say("\n".join(warn + ["Not deleted: run `make destroy-device-key CONFIRM=yes` to delete it "
                              "(back it up first if a board holds it)."]))
        return 1
    say("\n".join(warn))
    if fp:
        os.remove(p)
    for f, _, _ in mine:
        os.remove(f)
    say(f"deleted; {len(mine)} stamp(s) of products built with it forgotten. The next build "
        "makes a new key.")
    return 0


def main(argv):
    if argv[:1] == ["--hmac"]:
        with open(argv[1], "rb") as f:
            print(hmac.new(load(), f.read(), "sha256").hexdigest())
    elif argv[:1] == ["--fingerprint"]:
        print(fingerprint())
    elif argv[:1] == ["--destroy"]:
        return destroy(argv[1:] == ["--confirm"])
    elif argv[:1] == ["--stamp"] and len(argv) == 2:
        use(argv[1])
        print(path())
    elif not argv:
        load()
        print(path())
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
