# SPDX-License-Identifier: MIT
"""SoC identity: one 32-bit number that names a HashSoC's software-visible description.

Software built against one SoC's generated headers (csr.h, mem.h, soc.h) is only correct on
that SoC: another CSR map puts the engines' registers elsewhere, another clock makes the timer
lie. So every HashSoC carries its identity twice:

- as the constant `CONFIG_SOC_ID` in the generated soc.h (and csr.json), which a kernel or a
  firmware compiles in, and
- as the read-only CSR `soc_id_value`, which the running SoC answers with.

Software compares the two before it touches anything else (firmware/libhash/include/hashsoc/soc_id.h)
and, on a mismatch, prints what it was built for and what it found, then stops.

The number is the first 32 bits of the SHA-256 of the description LiteX exports as csr.json
(CSR bases and registers, memory regions, constants), taken when the SoC is finalized, minus
the regions' cache types (filled in only later, when csr.json is written) and two constants:
the platform's name (a board and its twin are one SoC to software: same map,
same clock, same memory path) and CONFIG_SOC_ID itself. Nothing else is left out, so any
change software could notice (a register moved, a region resized, another clock) changes
the identity.

The CSRs that a mismatched program needs to say so (the UART, the identity, LiteX's
identifier string) sit at the same CSR locations on every HashSoC (HashSoC.csr_map), so a
program built for one HashSoC can still read and report another's identity.
"""

import hashlib
import json

from migen import Module

from litex.soc.interconnect.csr import AutoCSR, CSRField, CSRStatus
from litex.soc.integration.export import get_csr_json

# Left out of the identity (see above). Lower case, as csr.json spells constants.
UNIDENTIFIED_CONSTANTS = ("config_platform_name", "config_soc_id")


def description_id(csr_json_text):
    """The identity of a csr.json description (its text, as LiteX's get_csr_json writes it)."""
    d = json.loads(csr_json_text)
    for name in UNIDENTIFIED_CONSTANTS:
        d["constants"].pop(name, None)
    for region in d["memories"].values():
        # "cached"/"io": LiteX fills it in only when the builder writes csr.json (it follows
        # from the region's address on VexRiscv anyway).
        region.pop("type", None)
    canon = json.dumps(d, sort_keys=True, separators=(",", ":")).encode()
    return int.from_bytes(hashlib.sha256(canon).digest()[:4], "big")


def soc_description_id(soc):
    """The identity of a finalized LiteX SoC (what the builder would write as csr.json)."""
    return description_id(get_csr_json(csr_regions=soc.csr.regions, constants=soc.constants,
                                       mem_regions=soc.bus.regions))


class SoCIdentity(Module, AutoCSR):
    """The running SoC's identity as a read-only CSR. `set(value)` fixes it once the SoC's
    description is final (HashSoC.do_finalize)."""

    def __init__(self):
        self.value = CSRStatus(32, name="value", description="This SoC's identity.", fields=[
            CSRField("id", size=32, description="First 32 bits of SHA-256 of the SoC's csr.json "
                     "description without the platform name; equals CONFIG_SOC_ID in the "
                     "generated soc.h of software built for this SoC.")])

    def set(self, value):
        self.comb += self.value.fields.id.eq(value)
