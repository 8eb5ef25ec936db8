# SPDX-License-Identifier: MIT
"""Compile the driver for the host: its files (the tree's, or the tree's with a copy of one
of them), the software hashes it links and the host shim, into one shared object.

The source list and the include paths are the library's (firmware/libhash/libhash.mk,
swhash/swhash.mk: SWHASH_SRCS), read from the makefiles rather than repeated here; the
flags are the firmware's optimisation and warnings (-O2 -Wall -Wextra) with the host's
-fPIC instead of -march. The tree's build is kept in build/hostdrv/<digest of its
sources>/ (a rerun compiles nothing; a worker that loses the race to make it uses the
winner's). A deliberately broken copy of one of the driver's files is compiled alone, at -O0
(~0.1 s: what it tests does not depend on the optimiser), and linked with the cached objects
of the others.
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
DRIVER_DIR = LIBHASH / "driver"
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


def driver_sources():
    """LIBHASH_DRIVER of libhash.mk, as paths."""
    text = (LIBHASH / "libhash.mk").read_text().replace("\\\n", " ")
    srcs = re.search(r"^LIBHASH_DRIVER\s*:?=\s*\$\(addprefix [^,]*,([^)]*)\)", text, re.M).group(1).split()
    return [DRIVER_DIR / s for s in srcs]


def _link(d, objs, name):
    _cc(["-shared", *map(str, objs), *map(str, sorted((d / "common").glob("*.o"))), "-o", str(d / f"{name}.so")])


def library():
    """The tree's driver, built or found in the cache: (path of the .so, gcc's warnings
    about the driver's files), the .so in the folder its objects are in (for build_copy)."""
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
            (tmp / "driver").mkdir()
            warnings = ""
            for src in driver_sources():
                warnings += _cc(["-c", OPT, *_flags(tmp), str(src), "-o", str(tmp / "driver" / f"{src.stem}.o")])
            _link(tmp, sorted((tmp / "driver").glob("*.o")), LIB)
            (tmp / "warnings.txt").write_text(warnings)
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
    """A copy of one of the driver's files (named as the file it stands for), compiled
    alone and linked with the tree's objects of the others into out_dir/<name>.so."""
    so, _ = library()
    driver, out_dir = Path(driver), Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    for f in ("common", "generated"):
        if not (out_dir / f).exists():
            (out_dir / f).symlink_to(so.parent / f)
    obj = out_dir / f"{name}.o"
    _cc(["-c", "-O0", *_flags(out_dir), f"-I{DRIVER_DIR}", str(driver), "-o", str(obj)])
    others = [o for o in sorted((so.parent / "driver").glob("*.o")) if o.stem != driver.stem]
    assert len(others) == len(driver_sources()) - 1, f"{driver.name} is not one of the driver's files"
    _link(out_dir, [obj, *others], name)
    return out_dir / f"{name}.so"
