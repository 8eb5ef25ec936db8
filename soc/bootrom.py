# SPDX-License-Identifier: MIT
"""The ROM checks a program before it runs it (docs/integrity.md, "Verified boot").

LiteX's BIOS ends every boot path (serial, preloaded RAM, flash, network, SD card) in
boot(), which jumps through boot_helper(). The ROM keeps LiteX's BIOS and its serial-boot
protocol unchanged (`litex_term --images` works as documented) and adds one library,
firmware/bootrom (libbootcheck.a), linked with `--wrap=boot_helper`: the BIOS's call lands
in our check, which calls the original only for a verified image. Why this hook: it is one
linker flag and one library, where a BIOS of our own would copy LiteX's serial boot, SDRAM
init and console, and a first stage of our own would add a stage to trust.

- `VerifiedBootVexRiscv`: VexRiscv whose software flags carry the wrap (LiteX passes a CPU's
  gcc_flags to every compile and link of the ROM's software, as CPUFLAGS).
- `Builder`: LiteX's Builder with libbootcheck added before the BIOS that links it.
"""

from litex.soc.cores.cpu.vexriscv.core import VexRiscv
from litex.soc.integration.builder import Builder as LiteXBuilder

import os

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = "libbootcheck"
SOURCE = os.path.join(TOP, "firmware", "bootrom")


class VerifiedBootVexRiscv(VexRiscv):
    """The same CPU; only the ROM's link differs. (A program built against the SoC's
    headers with its own link, like the firmware or xv6, never calls boot_helper.)"""

    # LiteX takes CPU_DIRECTORY (crt0.S, system.h, irq.h of the ROM's software) from the
    # folder of the CPU class's module: it must stay VexRiscv's.
    __module__ = VexRiscv.__module__

    @property
    def gcc_flags(self):
        return VexRiscv.gcc_flags.fget(self) + " -Wl,--wrap=boot_helper"


def use_verified_boot(soc):
    """Make `soc`'s CPU the VerifiedBootVexRiscv (called by HashSoC)."""
    if type(soc.cpu) is VexRiscv:
        soc.cpu.__class__ = VerifiedBootVexRiscv


class Builder(LiteXBuilder):
    """LiteX's Builder with the ROM's check: libbootcheck is compiled before the BIOS and
    linked into it (the BIOS links every library, --whole-archive). picolibc is built once
    for all builds (soc/libccache.py)."""

    def __init__(self, soc, *args, **kwargs):
        LiteXBuilder.__init__(self, soc, *args, **kwargs)
        if isinstance(soc.cpu, VerifiedBootVexRiscv):
            # (LiteX's build() appends the BIOS package after ours.)
            self.add_software_package(PACKAGE, SOURCE)
            self.add_software_library(PACKAGE)

    def _generate_rom_software(self, compile_bios=True):
        libc = dict(self.software_packages).get("libc")
        if self.compile_software and libc:
            from soc import libccache
            libccache.prepare(self, libc)
        LiteXBuilder._generate_rom_software(self, compile_bios)
