#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Sign a program for HashSoC's ROM: write its boot header (docs/integrity.md, "Verified boot").

    python3 scripts/signimage.py IMAGE [--load ADDR] [--entry ADDR] [--version N]
                                 [--key FILE] [--out HDR] [--boot-json JSON [--with FILE@ADDR ...]]

The ROM runs a program from main RAM only after checking its header, which is loaded beside
it at main RAM base + BOOT_HEADER_OFFSET (gateware/hashspec.py has the layout): the magic, the
format, the image's version, length, load address and entry point, then HMAC-SHA-256 under the
device key of those words and the image. `make` signs xv6 and the firmware with this; sign
your own program the same way, with the key of the bitstream your board runs.

--out HDR         the header (default: IMAGE with its extension replaced by .hdr)
--boot-json JSON  also write the boot description litex_term --images, litex_sim and the
                  twins load: the --with files, the header, and IMAGE last (litex_term jumps
                  to the last image's address)
--key FILE        a key file of another tree or board (default: this tree's, keys/device_key,
                  or HASHSOC_DEVICE_KEY)

Standard library only: the xv6 and firmware builds run it with the system's python3.
"""

import argparse
import hmac
import json
import os
import struct
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, TOP)

from gateware import devicekey, hashspec as S  # noqa: E402

MAIN_RAM_BASE = 0x4000_0000     # every HashSoC's (soc/sim.py, boards/)


def header_words(length, load, entry, version, fmt=S.BOOT_FORMAT, magic=S.BOOT_MAGIC, flags=0):
    """The header's words in BOOT_HEADER's order."""
    fields = {"magic": magic, "format": fmt, "version": version, "length": length,
              "load": load, "entry": entry, "flags": flags, "reserved": 0}
    return [fields[w.name] for w in S.BOOT_HEADER]


def sign(image, key, load, entry=None, version=S.BOOT_IMAGE_VERSION, **fields):
    """The header (BOOT_HEADER_BYTES) of `image` (bytes) to run at `load`."""
    entry = load if entry is None else entry
    words = struct.pack(f"<{S.BOOT_HEADER_WORDS}I", *header_words(len(image), load, entry, version, **fields))
    mac = hmac.new(key, words + image, "sha256").digest()
    assert len(words) + len(mac) == S.BOOT_HEADER_BYTES
    return words + mac


def field(header, name):
    """A word of a header (bytes), by its name in BOOT_HEADER."""
    i = [w.name for w in S.BOOT_HEADER].index(name)
    return struct.unpack_from("<I", header, 4 * i)[0]


def header_address(ram_base=MAIN_RAM_BASE):
    return ram_base + S.BOOT_HEADER_OFFSET


def write_boot_json(path, image, load, header, extra=()):
    """{file: address} with the header before the image and the image last; paths relative
    to the JSON's folder when inside it."""
    where = os.path.dirname(os.path.abspath(path))

    def name(p):
        p = os.path.abspath(p)
        return os.path.relpath(p, where) if os.path.dirname(p) == where else p
    d = {name(f): f"0x{a:08x}" for f, a in extra}
    d[name(header)] = f"0x{header_address():08x}"
    d[name(image)] = f"0x{load:08x}"
    with open(path, "w") as f:
        json.dump(d, f, indent=2)
        f.write("\n")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("image")
    p.add_argument("--load", type=lambda v: int(v, 0), default=MAIN_RAM_BASE)
    p.add_argument("--entry", type=lambda v: int(v, 0), default=None)
    p.add_argument("--version", type=int, default=S.BOOT_IMAGE_VERSION)
    p.add_argument("--key", help="key file (one line of hex)")
    p.add_argument("--out")
    p.add_argument("--boot-json")
    p.add_argument("--with", dest="extra", action="append", default=[], metavar="FILE@ADDR")
    a = p.parse_args(argv)
    key = devicekey.read(a.key) if a.key else devicekey.load()
    with open(a.image, "rb") as f:
        image = f.read()
    out = a.out or os.path.splitext(a.image)[0] + ".hdr"
    with open(out, "wb") as f:
        f.write(sign(image, key, a.load, a.entry, a.version))
    if a.boot_json:
        extra = [(f, int(addr, 0)) for f, _, addr in (e.rpartition("@") for e in a.extra)]
        write_boot_json(a.boot_json, a.image, a.load, out, extra)
    return 0


if __name__ == "__main__":
    sys.exit(main())
