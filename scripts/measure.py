#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The measurement register's expected value, from the build's files (docs/integrity.md,
"Measured boot").

    python3 scripts/measure.py BUILD            e.g. os-port/build/litex: kernel.bin, manifest
    python3 scripts/measure.py --kernel K [--manifest M]

The register is 0 after reset and each extend makes it SHA-256(value || measurement). The
ROM extends it with SHA-256(kernel.bin) before it jumps, the kernel with SHA-256(manifest)
at boot (no manifest, e.g. INTEGRITY=off: no second extend). Prints the value as the xv6
`measure` command does: "measurement <64 hex> (<n> extends)".

Standard library only.
"""

import argparse
import hashlib
import os
import sys

BYTES = 32


def extend(value, measurement):
    return hashlib.sha256(value + measurement).digest()


def expected(kernel, manifest=None):
    """(value, extends) after the ROM's and the kernel's extends."""
    value = extend(bytes(BYTES), hashlib.sha256(kernel).digest())
    if manifest is None:
        return value, 1
    return extend(value, hashlib.sha256(manifest).digest()), 2


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("build", nargs="?", help="an xv6 build directory (kernel.bin, manifest)")
    p.add_argument("--kernel")
    p.add_argument("--manifest")
    a = p.parse_args(argv)
    if a.build:
        a.kernel = a.kernel or os.path.join(a.build, "kernel.bin")
        m = os.path.join(a.build, "manifest")
        a.manifest = a.manifest or (m if os.path.exists(m) else None)
    if not a.kernel:
        p.error("a build directory or --kernel is needed")
    kernel = open(a.kernel, "rb").read()
    manifest = open(a.manifest, "rb").read() if a.manifest else None
    value, n = expected(kernel, manifest)
    print(f"measurement {value.hex()} ({n} extends)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
