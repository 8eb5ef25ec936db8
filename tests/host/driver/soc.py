# SPDX-License-Identifier: MIT
"""The SoC around the engine models: address decoding, main RAM for the DMA, the interrupt.

Every register or window access of the driver arrives here (ctypes callbacks) with the
address csr.h / mem.h gave it. An access to no register or region, or a write to a
register software cannot write, is kept in `stray`; an exception inside a callback
(ctypes would only print it and return 0 to C) is kept in `faults`: a test's teardown
fails on either. So is a poll loop that does not end: after WATCHDOG status reads in a row
the status says `error`, which every wait of the driver ends on, so that a driver whose
bound is broken fails its test instead of hanging the run.
"""

import ctypes
import traceback

from gateware import hashspec

from .engine import EngineModel

WATCHDOG = 50_000       # status reads in a row: far above any HASH_PLAT_SPIN_LIMIT a test sets


class SocModel:
    def __init__(self, rm, ram, origin, device_key):
        self.rm = rm
        self.ram = ram                  # (bus base, size) of main RAM: the DMA window
        self.origin = origin            # the host address of bus address 0
        self.device_key = device_key
        self.names = [e.name for e in hashspec.ENGINES]
        self.engines = {e.name: EngineModel(e, rm, self) for e in hashspec.ENGINES}
        self.csr = {rm.csr_bases[n] + r.offset: (n, r.name) for n in self.names for r in rm.registers.values()}
        self.isr = None                 # hash_isr(engine), set by the loader
        self.reset()

    def reset(self):
        for e in self.engines.values():
            e.reset()
        self.stray = []
        self.faults = []
        self.trace = None               # a list: every access as (op, engine, where, value)
        self.polls = 0                  # status reads in a row

    def __getitem__(self, name):
        return self.engines[name]

    def read_mem(self, bus, n):
        return ctypes.string_at(self.origin + bus, n)

    def _window(self, addr):
        for n in self.names:
            off = addr - self.rm.windows[n]
            if 0 <= off < hashspec.WINDOW_SIZE:
                return n, off
        return None, None

    def read(self, addr):
        try:
            if addr in self.csr:
                n, reg = self.csr[addr]
                v = self.engines[n].read_csr(reg)
                self.polls = self.polls + 1 if reg == "status" else 0
                if self.polls > WATCHDOG:
                    if self.polls == WATCHDOG + 1:
                        self.faults.append(f"{n}: {WATCHDOG} status reads in a row: an unbounded wait")
                    v |= self.rm.status.bit("error")
            else:
                self.polls = 0
                n, reg = self._window(addr)
                if n is None:
                    self.stray.append(("read", hex(addr)))
                    return 0
                v = self.engines[n].read_window(reg)
            if self.trace is not None:
                self.trace.append(("r", n, reg, v))
            return v
        except Exception:
            self.faults.append(traceback.format_exc())
            return 0

    def write(self, addr, v):
        self.polls = 0
        try:
            if addr in self.csr:
                n, reg = self.csr[addr]
                ok = self.engines[n].write_csr(reg, v)
            else:
                n, reg = self._window(addr)
                ok = n is not None and self.engines[n].write_window(reg, v)
            if not ok:
                self.stray.append(("write", hex(addr), v))
            if self.trace is not None:
                self.trace.append(("w", n, reg, v))
        except Exception:
            self.faults.append(traceback.format_exc())

    def irq(self, index):
        """hash_plat_irq_wait: the CPU sleeps until the engine's interrupt, if it comes."""
        try:
            e = self.engines[self.names[index]]
            e.stats["irq_wait"] += 1
            if e.irq == "fire":
                e.settle()
                if e.ev_pending & e.ev_enable:
                    e.stats["irq"] += 1
                    self.isr(index)
        except Exception:
            self.faults.append(traceback.format_exc())
