# SPDX-License-Identifier: MIT
"""One picolibc for every ROM build.

LiteX's Builder compiles picolibc (meson and ninja, ~1,600 files, ~30 s of CPU here) into
each build's software/libc, and `make test` builds five ROMs (litex_sim, each twin's board
BIOS and direct-boot BIOS) beside `make ulx3s-ci`'s: the same library each time. Its
compiler flags are the CPU's and differ between builds only in the build's own include
paths, which picolibc's sources never read. So the first build of a configuration keeps its
`__libc.a` and the headers meson wrote (picolibc.h, the link scripts) in
build/picolibc/<key>, and later builds copy them in: LiteX's libc Makefile then finds
`__libc.a` up to date and only compiles its own stdio.c and missing.c for the SoC. The key
is the Makefile's meson cross file with the build's directory taken out, the picolibc
sources' path and the compiler's version: a change to any of them builds afresh.
"""

import hashlib
import os
import shutil
import subprocess

from gateware.buildstamp import locked

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CACHE = os.path.join(TOP, "build", "picolibc")
# What the libc Makefile's meson step leaves that later steps use: the library, and the
# configuration header and link files the ROM's software finds with -I software/libc.
PRODUCTS = ("__libc.a", "picolibc.h", "picolibc.ld", "picolibcpp.ld", "picolibc.specs", "picolibcpp.specs")


def _key(cross, output_dir, variables):
    text = cross.replace(os.path.abspath(output_dir), "@OUT@")
    cc = f"{variables.get('TRIPLE', '')}-gcc"
    version = subprocess.run([cc, "--version"], capture_output=True, text=True).stdout
    parts = (text, variables.get("PICOLIBC_DIRECTORY", ""), variables.get("PICOLIBC_FORMAT", ""), version)
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:16]


def _variables(path):
    out = {}
    for line in open(path):
        if "=" in line:
            k, v = line.split("=", 1)
            out[k.strip()] = v.strip()
    return out


def prepare(builder, libc_src_dir):
    """Before LiteX's make of `libc` in this builder's software directory: copy a cached
    build in, or build it here once and cache it (one process at a time per key)."""
    dst = os.path.join(builder.software_dir, "libc")
    makefile = os.path.join(libc_src_dir, "Makefile")
    os.makedirs(dst, exist_ok=True)
    subprocess.check_call(["make", "-s", "-C", dst, "-f", makefile, "cross.txt"], stdout=subprocess.DEVNULL)
    variables = _variables(os.path.join(builder.generated_dir, "variables.mak"))
    key = _key(open(os.path.join(dst, "cross.txt")).read(), builder.output_dir, variables)
    cached = os.path.join(CACHE, key)
    with locked(f"picolibc-{key}"):
        if not os.path.exists(os.path.join(cached, ".complete")):
            print(f"[picolibc] building it once for every ROM build ({os.path.relpath(cached, TOP)})", flush=True)
            subprocess.check_call(["make", "-C", dst, "-f", makefile, "__libc.a"])
            shutil.rmtree(cached, ignore_errors=True)
            os.makedirs(cached)
            for name in PRODUCTS:
                if os.path.exists(os.path.join(dst, name)):
                    shutil.copy2(os.path.join(dst, name), cached)
            open(os.path.join(cached, ".complete"), "w").close()
            return
        for name in PRODUCTS:
            if os.path.exists(os.path.join(cached, name)):
                shutil.copyfile(os.path.join(cached, name), os.path.join(dst, name))
        # newer than cross.txt, so make takes it as built (copyfile gives it the time of now)
        os.utime(os.path.join(dst, "__libc.a"))
