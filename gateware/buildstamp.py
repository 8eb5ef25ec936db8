# SPDX-License-Identifier: MIT
"""Build caching by source hash, for every generated artefact of the tree.

A product (an engine's Verilog, the simulator, an FPGA run) is reused while the hash of
the Python sources it is made from, plus its parameters, is the one recorded beside it.
Used by gateware/engines.py, soc/sim.py and scripts/fpga/report.py. `locked` serialises
a build that several processes may ask for at once (the test suite's two workers).
"""

import contextlib
import fcntl
import hashlib
import io
import os
import tokenize

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


# What a product is made from: Python (gateware, SoCs), and the C, assembly and Makefiles of
# the ROM's software (firmware/bootrom, the hash library it links).
SOURCE_EXTS = (".py", ".c", ".h", ".S", ".mk")


def is_source(name):
    return name.endswith(SOURCE_EXTS) or name == "Makefile"


def source_text(name, data):
    """What of a source file the hash covers. Python counts by its tokens without comments
    and line layout, so a comment or a rewrapped line does not make a product stale (a
    docstring does: LiteX reads some as register documentation); other sources count byte
    for byte. tokenize, not ast: CPython 3.11's ast.parse raised "SystemError: AST
    constructor recursion depth mismatch" in scripts/fpga/report.py's thread pool."""
    if name.endswith(".py"):
        try:
            toks = tokenize.tokenize(io.BytesIO(data).readline)
            return repr([(t.type, "" if t.type in (tokenize.INDENT, tokenize.DEDENT) else t.string)
                         for t in toks if t.type not in (tokenize.COMMENT, tokenize.NL)]).encode()
        except (tokenize.TokenError, SyntaxError):
            pass
    return data


def source_digest(paths, *extra):
    """16 hex digits over `extra` and every source file (is_source) under `paths` (folders
    or files, relative to the repository's top), in a fixed order."""
    h = hashlib.sha256(repr(extra).encode())
    for p in paths:
        full = os.path.join(TOP, p)
        if os.path.isfile(full):
            names = [full]
        else:
            names = [os.path.join(root, f) for root, _, files in sorted(os.walk(full))
                     for f in sorted(files) if is_source(f)]
        for name in names:
            with open(name, "rb") as fh:
                h.update(source_text(name, fh.read()))
    return h.hexdigest()[:16]


def is_current(stamp_path, tag, *products):
    """The stamp holds `tag` and every product exists."""
    if not all(os.path.exists(p) for p in (stamp_path, *products)):
        return False
    with open(stamp_path) as f:
        return f.read() == tag


def write_atomic(path, data):
    """Written aside and renamed: a reader (another build, a test elaborating the same
    engines in parallel) never sees a half-written file."""
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "w") as f:
        f.write(data)
    os.replace(tmp, path)


@contextlib.contextmanager
def locked(name):
    """Hold build/.<name>.lock: one build of `name` at a time across processes (`make
    test`'s two pytest-xdist workers, a user's make beside them). A second caller waits,
    then finds the products up to date and rebuilds nothing, so files another process is
    running from are never rewritten under it."""
    path = os.path.join(TOP, "build", f".{name}.lock")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        yield
