# SPDX-License-Identifier: MIT
"""Compile the driver for the host: hash.c (the tree's, or any copy of it), the software
hashes it links and the host shim, into one shared object.

The source list and the include paths are the library's (firmware/libhash/libhash.mk,
swhash/swhash.mk: SWHASH_SRCS), read from the makefiles rather than repeated here; the
flags are the firmware's optimisation and warnings (-O2 -Wall -Wextra) with the host's
-fPIC instead of -march. The tree's build is kept in build/hostdrv/<digest of its
sources>/ (a rerun compiles nothing; a worker that loses the race to make it uses the
winner's). A deliberately broken copy of hash.c is compiled alone, at -O0 (~0.1 s: what it
tests does not depend on the optimiser), and linked with the cached objects.
"""

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from gateware.buildstamp import source_digest

from . import headers
from .regmap import ROOT, regmap

LIBHASH = Path(ROOT) / "firmware" / "libhash"
DRIVER = LIBHASH / "driver" / "hash.c"
HERE = Path(__file__).resolve().parent
CACHE = Path(ROOT) / "build" / "hostdrv"
CC = os.environ.get("HOST_CC", "gcc")
CFLAGS = ["-std=gnu99", "-fPIC", "-Wall", "-Wextra"]
OPT = "-O2"
# What the build is made from: the library, this folder (the shim, the header writer, the
# register map) and the description the register map is read from.
SOURCES = ["firmware/libhash", "tests/host/driver", "gateware/hashspec.py", "scripts/genspec.py"]
LIB = "libhash_host"


def swhash_sources():
    """SWHASH_SRCS of swhash.mk, as paths."""
    text = (LIBHASH / "swhash" / "swhash.mk").read_text().replace("\\\n", " ")
    srcs = re.search(r"^SWHASH_SRCS\s*:?=(.*)$", text, re.M).group(1).split()
    return [LIBHASH / "swhash" / s.replace("$(SWHASH_DIR)", "") for s in srcs]


def _cc(args):
    r = subprocess.run([CC, *args], capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError(f"host build of the driver failed:\n{CC} {' '.join(args)}\n{r.stderr}")
    return r.stderr


def _flags(d):
    return [*CFLAGS, f"-I{d}", f"-I{LIBHASH / 'include'}", f"-I{LIBHASH / 'swhash'}", f"-I{HERE}",
            "-DHASH_PLAT=\"hash_plat_host.h\""]


def _compile(d, driver, name, opt):
    """driver -> d/<name>.so, linked with d/common; gcc's warnings about the driver."""
    obj = d / f"{name}.o"
    warnings = _cc(["-c", opt, *_flags(d), str(driver), "-o", str(obj)])
    _cc(["-shared", str(obj), *map(str, sorted((d / "common").glob("*.o"))), "-o", str(d / f"{name}.so")])
    return warnings


def library():
    """The tree's driver, built or found in the cache: (path of the .so, gcc's warnings
    about hash.c), and the folder its objects are in (for build_copy)."""
    version = subprocess.run([CC, "-dumpfullversion"], capture_output=True, text=True).stdout.strip()
    d = CACHE / source_digest(SOURCES, CC, version, CFLAGS, OPT)
    if not (d / f"{LIB}.so").exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(dir=CACHE, prefix=".tmp"))
        try:
            headers.write(regmap(), tmp)
            (tmp / "common").mkdir()
            for src in [HERE / "hash_plat_host.c", *swhash_sources()]:
                warn = _cc(["-c", OPT, *_flags(tmp), "-Werror", str(src), "-o", str(tmp / "common" / f"{src.stem}.o")])
                assert not warn, warn
            (tmp / "warnings.txt").write_text(_compile(tmp, DRIVER, LIB, OPT))
            try:
                tmp.rename(d)
            except OSError:         # another process made it meanwhile
                pass
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        for old in CACHE.iterdir():     # builds of older sources (a loaded copy survives it)
            if old != d and not old.name.startswith("."):
                shutil.rmtree(old, ignore_errors=True)
    return d / f"{LIB}.so", (d / "warnings.txt").read_text()


def build_copy(driver, out_dir, name):
    """A copy of hash.c, compiled alone and linked with the tree's other objects into
    out_dir/<name>.so."""
    so, _ = library()
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    for f in ("common", "generated"):
        if not (out_dir / f).exists():
            (out_dir / f).symlink_to(so.parent / f)
    _compile(out_dir, driver, name, "-O0")
    return out_dir / f"{name}.so"
