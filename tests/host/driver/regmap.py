# SPDX-License-Identifier: MIT
"""The engines' register map as the host sees it, made as LiteX makes the SoC's.

The CSR bank is scripts/genspec.py's csr_rows(), which docs/registers.md is written from:
gateware/hashspec.py's REGISTERS, one 32-bit word each in order (the LiteX wrapper makes its
CSRs from them; tests/test_spec.py holds it to that), then LiteX's EventManager words
ev_status, ev_pending and ev_enable with one bit per hashspec.EVENTS. The data windows are
each Engine.window. The CSR bases and main RAM's bus address are the host's own choice:
any addresses work, the model decodes them.
"""

import os
import sys
from dataclasses import dataclass
from functools import cache

from gateware import hashspec

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

# Host choices, not facts of the SoC: where the CSR banks sit (LiteX pages them 0x800
# apart) and the bus address main RAM starts at (what DMA may read: docs/registers.md).
CSR_BASE = 0xF000_0000
CSR_PAGE = 0x800
MAIN_RAM_BASE = 0x4000_0000


@dataclass(frozen=True)
class Register:
    name: str
    offset: int         # bytes from the bank's base
    fields: dict        # name -> (bit offset, width)

    def bit(self, field):
        offset, width = self.fields[field]
        assert width == 1, (self.name, field)
        return 1 << offset

    def get(self, value, field):
        offset, width = self.fields[field]
        return value >> offset & ((1 << width) - 1)

    def put(self, field, v):
        offset, width = self.fields[field]
        assert 0 <= v < 1 << width, (self.name, field, v)
        return v << offset


@dataclass(frozen=True)
class RegMap:
    registers: dict     # name -> Register, in bank order
    csr_bases: dict     # engine name -> CSR bank base
    windows: dict       # engine name -> data window base

    def __getattr__(self, name):
        try:
            return self.registers[name]
        except KeyError:
            raise AttributeError(name) from None


@cache
def regmap():
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    try:
        import genspec
    finally:
        sys.path.remove(os.path.join(ROOT, "scripts"))
    registers = {}
    for offset, name, _kind, bits, _doc, fields in genspec.csr_rows():
        assert bits <= 32, name     # one word each: the driver reads them so
        registers[name] = Register(name, offset, {f.name: (f.offset, f.width) for f in fields})
    return RegMap(registers, {e.name: CSR_BASE + CSR_PAGE * (1 + i) for i, e in enumerate(hashspec.ENGINES)},
                  {e.name: e.window for e in hashspec.ENGINES})
