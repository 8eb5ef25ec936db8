# SPDX-License-Identifier: MIT
"""HashSoC: the one LiteX SoC class shared by simulation and the boards.

A VexRiscv `linux` CPU (rv32ima, Sv32 MMU, supervisor mode: what the xv6 port needs) with
its 64-bit machine timer, a UART, main RAM, and the hash accelerators as LiteX peripherals,
each with a CSR bank, a Wishbone data window, a DMA bus master and an interrupt.

Targets (soc/sim.py, boards/*.py) provide the platform, the clock/reset generator and the
main RAM (integrated RAM in simulation, SDRAM/DDR3 on boards) and then call
`add_hash_engines()`.
"""

import litex
import litex.build.tools
from litex.soc.integration.soc import SoCRegion
from litex.soc.integration.soc_core import SoCCore

from gateware import hashspec
from gateware.litex_wrapper import HashAccelerator
from gateware.measure_wrapper import MeasurementRegister
from soc.bootrom import use_verified_boot
from soc.identity import SoCIdentity, soc_description_id
from soc.l2wt import WriteThroughL2


def _litex_revision():
    """What the BIOS prints as "LiteX git sha1". LiteX finds it by running git in its own
    package directory, which, with our venv inside the work tree, answers with *our*
    commit: every commit, even one that only touches docs, changed the ROM's contents and
    with them nextpnr's placement (the same gateware routed at 54.7 and 52.8 MHz on two
    commits). The installed LiteX's version instead: the ROM, and the bitstream, depend
    on the sources only."""
    from importlib.metadata import version
    return version("litex")


litex.build.tools.get_litex_git_revision = _litex_revision


class HashSoC(SoCCore):
    # The same CSR locations on every HashSoC for what a program needs before it trusts the
    # SoC it runs on (soc/identity.py): the CPU's timer, the UART, the identity and LiteX's
    # identifier string. A program built for another HashSoC can then still read this one's
    # identity and say on the console that it is the wrong SoC.
    csr_map = {"cpu": 0, "ctrl": 1, "identifier_mem": 2, "uart": 3, "soc_id": 4}

    def __init__(self, platform, sys_clk_freq, ident="HashSoC", boot_min_version=hashspec.BOOT_MIN_VERSION,
                 with_measure=True, **kwargs):
        kwargs.setdefault("cpu_type", "vexriscv")
        kwargs.setdefault("cpu_variant", "linux")
        kwargs.setdefault("uart_name", "serial")
        kwargs.setdefault("timer_uptime", True)
        SoCCore.__init__(self, platform, sys_clk_freq, ident=ident, **kwargs)
        # LiteX shrinks the ROM to the BIOS it is built with; a board twin swaps BIOS images
        # (board / direct boot) per run, so it keeps the declared size.
        self.fixed_rom_size = False
        # LiteX's SoC builder does not pass with_timer to VexRiscv: without this call the
        # CPU's timerInterrupt is tied to 0 and there is no machine time to read.
        self.cpu.add_timer()
        # The ROM checks every program before it jumps (soc/bootrom.py); it refuses images
        # older than this version, which the bitstream holds (anti-rollback).
        use_verified_boot(self)
        self.add_config("BOOT_MIN_VERSION", int(boot_min_version))
        self.soc_id = SoCIdentity()
        # The measurement register (gateware/measure.py): the ROM extends it with the
        # kernel's digest, the kernel with the manifest's (docs/integrity.md, "Measured boot").
        # On every target; `with_measure=False` (the boards' --no-measure) leaves it out,
        # for a build that must save its ~2,500 LUTs, and then the ROM and `measure` say so.
        if with_measure:
            self.measure = MeasurementRegister(platform)

    def do_finalize(self):
        SoCCore.do_finalize(self)
        # The description is final only now (CSR map, regions, constants): its identity goes
        # into soc.h for software and into the soc_id CSR for the running SoC.
        value = soc_description_id(self)
        self.add_constant("CONFIG_SOC_ID", value)
        self.soc_id.set(value)

    def init_rom(self, name, contents=[], auto_size=True):
        SoCCore.init_rom(self, name, contents, auto_size=auto_size and not self.fixed_rom_size)

    def add_sdram_write_through(self, name="sdram", phy=None, module=None, size=None,
                                l2_size=8192, **kwargs):
        """SDRAM as main RAM behind our write-through L2 (soc/l2wt.py), not LiteX's
        write-back one, so that the SDRAM always holds the latest data and the engines may
        read it on their own LiteDRAM ports: pass `dram=self.<name>` to add_hash_engines().

        `phy`, `module`, **kwargs: as for LiteX's add_sdram (its LiteDRAM core, CSRs and
        BIOS init are used unchanged; only the bus side is ours). CONFIG_L2_SIZE is exported as
        LiteX does, so the BIOS banner shows the L2; its flush_l2_cache() (a read of 2 x
        L2_SIZE before a jump) is then a harmless no-op for a cache that is never dirty.
        """
        from litex.soc.interconnect import wishbone
        self.add_sdram(name, phy=phy, module=module, size=size, with_soc_interconnect=False, **kwargs)
        sdram = getattr(self, name)
        geom = module.geom_settings
        sdram_size = 2**(geom.bankbits + geom.rowbits + geom.colbits) * phy.settings.nranks * \
            phy.settings.databits // 8
        if size is not None:
            sdram_size = min(sdram_size, size)
        origin = self.mem_map["main_ram"]
        self.bus.add_region("main_ram", SoCRegion(origin=origin, size=sdram_size, mode="rwx"))
        bus = wishbone.Interface(data_width=32, address_width=32, addressing="word")
        self.bus.add_slave(name="main_ram", slave=bus)
        # The controller's own width: no LiteDRAM converter between the cache and the SDRAM.
        self.l2_cache = WriteThroughL2(bus, sdram.crossbar.get_port(), base_address=origin, size=l2_size)
        self.add_config("L2_SIZE", l2_size)

    def add_hash_engines(self, engines, sha256_variant=hashspec.variant("sha256").name, dram=None):
        """Add each named engine: CSR bank, data window, DMA master and interrupt.

        Call after main RAM exists: the engines' DMA may read main RAM and nothing else.
        `dram`: None, the DMA is a Wishbone master on the SoC bus (on-chip RAM, simulation);
        or the LiteDRAM core (e.g. `self.sdram`) of a main RAM added with
        add_sdram_write_through(): each engine then reads on its own native port,
        pipelined (gateware/litedram_dma.py). Never with LiteX's write-back L2: the DMA
        would miss the CPU's data still dirty in it.
        """
        self.engines = tuple(engines)
        if not self.engines:
            return
        if dram is not None and not isinstance(getattr(self, "l2_cache", None), WriteThroughL2):
            raise ValueError("engines on LiteDRAM ports need main RAM from add_sdram_write_through()")
        ram = self.bus.regions["main_ram"]
        for name in self.engines:
            accel = HashAccelerator(self.platform, name,
                variant=sha256_variant if name == "sha256" else None,
                dma_window=(ram.origin, ram.size),
                dram_port=None if dram is None else dram.crossbar.get_port(mode="both"))
            self.add_module(name=name, module=accel)
            if dram is not None:
                # The L2's posted writes reach LiteDRAM before any DMA read (soc/l2wt.py).
                self.comb += accel.dma_port.hold.eq(self.l2_cache.write_pending)
                # The CPU's turn on the SDRAM, when it asks (gateware/litedram_dma.py, "Sharing").
                l2 = self.l2_cache.port
                self.comb += accel.dma_port.cpu_waiting.eq(l2.cmd.valid & ~l2.cmd.ready)
            region = SoCRegion(origin=hashspec.engine(name).window, size=HashAccelerator.WINDOW_SIZE, cached=False)
            self.bus.add_slave(name=name, slave=accel.window, region=region)
            if dram is None:
                self.bus.add_master(name=f"{name}_dma", master=accel.dma)
            self.irq.add(name, use_loc_if_exists=True)
