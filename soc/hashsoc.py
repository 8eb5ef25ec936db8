"""HashSoC: the one LiteX SoC class shared by simulation and the boards.

A VexRiscv `linux` CPU (rv32ima, Sv32 MMU, supervisor mode: what the xv6 port needs) with
its 64-bit machine timer, a UART, main RAM, and the hash accelerators as LiteX peripherals,
each with a CSR bank, a Wishbone data window, a DMA bus master and an interrupt.

Targets (soc/sim.py, boards/*.py) provide the platform, the clock/reset generator and the
main RAM (integrated RAM in simulation, SDRAM/DDR3 on boards) and then call
`add_hash_engines()`.
"""

from litex.soc.integration.soc import SoCRegion
from litex.soc.integration.soc_core import SoCCore

from gateware.litex_wrapper import HashAccelerator

# Where the accelerators' data windows live. They must be uncached: LiteX assumes
# VexRiscv treats 0x8000_0000-0xFFFF_FFFF as I/O, but the prebuilt `linux` netlist only
# bypasses its data cache for physical addresses 0xB..., 0xE... and 0xF... (see
# isIoAccess in VexRiscv_Linux.v); reads of a window at 0x8... would return stale lines.
ENGINE_WINDOWS = {
    "sha256": 0xB000_0000,
    "keccak": 0xB001_0000,
}


class HashSoC(SoCCore):
    def __init__(self, platform, sys_clk_freq, ident="HashSoC", **kwargs):
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

    def init_rom(self, name, contents=[], auto_size=True):
        SoCCore.init_rom(self, name, contents, auto_size=auto_size and not self.fixed_rom_size)

    def add_hash_engines(self, engines=("sha256", "keccak"), sha256_variant="folded"):
        """Add each named engine: CSR bank, data window, DMA master and interrupt.

        Call after main RAM exists: the engines' DMA may read main RAM and nothing else.
        """
        self.engines = tuple(engines)
        if not self.engines:
            return
        ram = self.bus.regions["main_ram"]
        for name in self.engines:
            accel = HashAccelerator(self.platform, name,
                variant=sha256_variant if name == "sha256" else None,
                dma_window=(ram.origin, ram.size))
            self.add_module(name=name, module=accel)
            region = SoCRegion(origin=ENGINE_WINDOWS[name], size=HashAccelerator.WINDOW_SIZE, cached=False)
            self.bus.add_slave(name=name, slave=accel.window, region=region)
            self.bus.add_master(name=f"{name}_dma", master=accel.dma)
            self.irq.add(name, use_loc_if_exists=True)
