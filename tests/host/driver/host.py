# SPDX-License-Identifier: MIT
"""The host build of the driver, loaded: ctypes bindings of hash.h, the callbacks into the
SoC model, and an arena in the shared object's .bss (the host's main RAM) that messages,
outputs and contexts are placed in.

The API's constants (flags, return codes, HASH_SHORT_MAX) are read from hash.h, the
algorithm, engine and provider numbers from gateware/hashspec.py (hash_spec.h is made
from it), so nothing is typed twice.
"""

import ctypes
import random
import re
from ctypes import CFUNCTYPE, c_int, c_size_t, c_uint32, c_void_p

from gateware import hashspec

from .build import LIBHASH
from .regmap import MAIN_RAM_BASE, regmap
from .soc import SocModel

_H = (LIBHASH / "include" / "hashsoc" / "hash.h").read_text()
C = {m.group(1): int(m.group(2), 0) for m in re.finditer(r"^#define (HASH_\w+)\s+(-?(?:0x)?[0-9a-fA-F]+)\b", _H, re.M)}
F_PIO, F_IRQ, F_DMA, F_DEVKEY, F_XOF = (C[f"HASH_F_{n}"] for n in ("PIO", "IRQ", "DMA", "DEVKEY", "XOF"))
OK = C["HASH_OK"]
ERR = {n[len("HASH_ERR_"):]: v for n, v in C.items() if n.startswith("HASH_ERR_")}
SHORT_MAX = C["HASH_SHORT_MAX"]
PROV = {p.name: i for i, p in enumerate(hashspec.PROVIDERS)}
SW, HW = PROV["sw"], PROV["hw"]
ALG = {a.key: i for i, a in enumerate(hashspec.ALGORITHMS)}
ENGINE = {e.name: i for i, e in enumerate(hashspec.ENGINES)}

_READ = CFUNCTYPE(c_uint32, c_size_t)
_WRITE = CFUNCTYPE(None, c_size_t, c_uint32)
_IRQ = CFUNCTYPE(None, c_int)


class Seg(ctypes.Structure):
    _fields_ = [("data", c_void_p), ("len", c_size_t)]


_PROTOS = {
    "hash_probe": (c_int, []),
    "hash_begin": (c_int, [c_void_p, c_int, c_int, c_int]),
    "hash_update": (c_int, [c_void_p, c_void_p, c_size_t]),
    "hash_final": (c_int, [c_void_p, c_void_p, c_size_t]),
    "hash_update_segs": (c_int, [c_void_p, c_void_p, c_int]),
    "hash_update_segs_nowait": (c_int, [c_void_p, c_void_p, c_int]),
    "hash_update_list_nowait": (c_int, [c_void_p, c_void_p, c_int]),
    "hash_cut": (c_size_t, [c_void_p, c_size_t]),
    "hash_hmac_begin": (c_int, [c_void_p, c_int, c_int, c_int, c_void_p, c_size_t]),
    "hash_cshake_begin": (c_int, [c_void_p, c_int, c_int, c_int, c_void_p, c_size_t, c_void_p, c_size_t]),
    "hash_kmac_begin": (c_int, [c_void_p, c_int, c_int, c_int, c_void_p, c_size_t, c_void_p, c_size_t]),
    "hash_abort": (None, [c_void_p]),
    "hash_digest": (c_int, [c_int, c_int, c_int, c_void_p, c_size_t, c_void_p, c_size_t]),
    "hash_hmac": (c_int, [c_int, c_int, c_int, c_void_p, c_size_t, c_void_p, c_size_t, c_void_p, c_size_t]),
    "hash_release": (None, [c_int]),
    "hash_isr": (None, [c_int]),
    "hash_hw_busy_cycles": (c_uint32, [c_int]),
    "hash_host_init": (c_uint32, []),
    "hash_host_arena_bytes": (c_uint32, []),
    "hash_host_ctx_size": (ctypes.c_uint, []),
    "hash_host_ctx_hw_errors": (c_uint32, [c_void_p]),
    "hash_host_ctx_hw_saved": (c_int, [c_void_p]),
}


def _shim_uint32(symbol):
    """A read/write property on one of the shim's uint32_t variables."""
    return property(lambda self: c_uint32.in_dll(self.lib, symbol).value,
                    lambda self, n: setattr(c_uint32.in_dll(self.lib, symbol), "value", n))


class Host:
    """One loaded copy of the driver (its own static state) and its SoC model."""

    def __init__(self, so_path, device_key=None):
        self.lib = lib = ctypes.CDLL(str(so_path))
        for name, (res, args) in _PROTOS.items():
            f = getattr(lib, name)
            f.restype, f.argtypes = res, args
        ram_size = lib.hash_host_init()
        origin = c_size_t.in_dll(lib, "hash_host_bus_origin").value
        self.device_key = device_key or random.Random(1).randbytes(hashspec.DEVICE_KEY_BYTES)
        ctypes.memmove(ctypes.addressof(ctypes.c_ubyte.in_dll(lib, "hash_host_device_key")), self.device_key,
                       len(self.device_key))
        self.soc = SocModel(regmap(), (MAIN_RAM_BASE, ram_size), origin, self.device_key)
        self.soc.isr = lib.hash_isr
        # The callbacks must outlive every call into the library: kept here.
        self._cbs = (_READ(self.soc.read), _WRITE(self.soc.write), _IRQ(self.soc.irq))
        for name, cb in zip(("hash_host_read", "hash_host_write", "hash_host_irq"), self._cbs):
            c_void_p.in_dll(lib, name).value = ctypes.cast(cb, c_void_p).value
        self.arena = ctypes.addressof(ctypes.c_ubyte.in_dll(lib, "hash_host_arena"))
        self.arena_size = lib.hash_host_arena_bytes()
        self.ctx_size = lib.hash_host_ctx_size()
        self.reset()

    # ---- per test ----

    def reset(self):
        self.soc.reset()
        self._top = 0
        self.contexts = []
        self.spin_limit = 1000
        self.polls_before_sleep = 0
        depth = (c_int * len(hashspec.ENGINES)).in_dll(self.lib, "hash_host_lock_depth")
        depth[:] = [0] * len(depth)
        c_int.in_dll(self.lib, "hash_host_lock_faults").value = 0

    def finish(self):
        """End of a test: drop its open contexts; return what went wrong on the way."""
        for c in self.contexts:
            self.lib.hash_abort(c)
        depth = (c_int * len(hashspec.ENGINES)).in_dll(self.lib, "hash_host_lock_depth")
        problems = [f"callback raised:\n{f}" for f in self.soc.faults]
        problems += [f"stray access {s}" for s in self.soc.stray]
        if any(depth) or c_int.in_dll(self.lib, "hash_host_lock_faults").value:
            problems.append(f"locks: depth {list(depth)}, faults {c_int.in_dll(self.lib, 'hash_host_lock_faults').value}")
        return problems

    # The shim's knobs (hash_plat_host.c): HASH_PLAT_SPIN_LIMIT and _POLLS_BEFORE_SLEEP.
    spin_limit = _shim_uint32("hash_host_spin_limit")
    polls_before_sleep = _shim_uint32("hash_host_polls_before_sleep")

    @property
    def irq_waits(self):
        return c_int.in_dll(self.lib, "hash_host_irq_waits").value

    # ---- the arena: the host's main RAM ----

    def alloc(self, n, offset=0, align=8):
        """n bytes at `offset` bytes past an `align`-aligned address (offset 1..3: unaligned)."""
        start = -(-self._top // align) * align + offset
        if start + n > self.arena_size:
            raise MemoryError("arena full: tests/host/driver/hash_plat_host.c HASH_HOST_ARENA_BYTES")
        self._top = start + n
        return self.arena + start

    def put(self, data, offset=0):
        p = self.alloc(len(data), offset)
        ctypes.memmove(p, data, len(data))
        return p

    def bus(self, p):
        """The bus address the driver gives the engine for host address p."""
        return (p - self.soc.origin) & 0xFFFFFFFF

    def ctx(self):
        c = self.alloc(self.ctx_size)
        self.contexts.append(c)
        return c

    # ---- the API, with Python values ----

    def digest(self, alg, data, provider=HW, flags=0, outlen=None, offset=0, out_offset=0):
        """(return code, output bytes)."""
        outlen = outlen if outlen is not None else (hashspec.algorithm(alg).digest or 64)
        p = self.put(data, offset)
        out = self.alloc(max(outlen, 1), out_offset)
        r = self.lib.hash_digest(ALG[alg], provider, flags, p, len(data), out, outlen)
        return r, ctypes.string_at(out, max(r, 0))

    def begin(self, c, alg, provider=HW, flags=0):
        return self.lib.hash_begin(c, ALG[alg], provider, flags)

    def update(self, c, data, offset=0):
        return self.lib.hash_update(c, self.put(data, offset), len(data))

    def final(self, c, outlen=None):
        out = self.alloc(max(outlen or 64, 1))
        r = self.lib.hash_final(c, out, outlen if outlen is not None else 64)
        return r, ctypes.string_at(out, max(r, 0))

    def place(self, pieces, offsets=None):
        """Each piece of bytes in the arena (at its offset past alignment): [(address, len)]."""
        offsets = offsets or [0] * len(pieces)
        return [(self.put(d, o) if d else self.alloc(0), len(d)) for d, o in zip(pieces, offsets)]

    def update_segs(self, c, segs, how="wait"):
        """segs: [(address, len)]; how: "wait", "nowait" or "list" (the _nowait forms)."""
        arr = (Seg * max(len(segs), 1))(*[Seg(a, n) for a, n in segs])
        f = {"wait": self.lib.hash_update_segs, "nowait": self.lib.hash_update_segs_nowait,
             "list": self.lib.hash_update_list_nowait}[how]
        return f(c, arr, len(segs))

    def hmac_begin(self, c, alg, key, provider=HW, flags=0):
        k = self.put(key) if key is not None else None
        return self.lib.hash_hmac_begin(c, ALG[alg], provider, flags, k, len(key or b""))

    def hmac(self, alg, key, data, provider=HW, flags=0):
        """hash_hmac: (return code, MAC)."""
        k, p = self.put(key), self.put(data)
        out = self.alloc(hashspec.MAX_DIGEST)
        r = self.lib.hash_hmac(ALG[alg], provider, flags, k, len(key), p, len(data), out, hashspec.MAX_DIGEST)
        return r, ctypes.string_at(out, max(r, 0))

    def hw_errors(self, c):
        return self.lib.hash_host_ctx_hw_errors(c)

    def hw_saved(self, c):
        return self.lib.hash_host_ctx_hw_saved(c)
