# SPDX-License-Identifier: MIT
"""Build the bscan_spi proxy bitstream OpenOCD needs to write the Arty's SPI flash.

    python -m boards.arty_bscan_spi [--variant a7-35|a7-100]     (make arty-bscan-spi)

What it is: the Arty's configuration flash hangs off the FPGA's configuration pins, not
off the JTAG chain, so a JTAG tool cannot reach it directly. OpenOCD's `jtagspi` driver
first loads a tiny "proxy" design into the FPGA (SRAM) that connects the FPGA's JTAG
USER1 register (BSCANE2) to the flash's SPI pins (CCLK through STARTUPE2); it then
shifts SPI commands through JTAG, and finally reboots the FPGA from the new flash
image. The proxy is device-specific and must be made by the vendor tool (Vivado).

Where it comes from: LiteX's own OpenOCD path downloads a prebuilt one
(bscan_spi_xc7a35t.bit) at run time, which fails offline. No package registry reachable
here ships one (Debian's openocd ships only its generator, xilinx_bscan_spi.py, under
/usr/share/doc/openocd/loaders/flash/fpga/). This script runs that generator for the
Arty's package (csg324, flash on L13/K17/K18/L14/M14, 3.3 V bank) and, with Vivado on
PATH, builds build/arty/bscan_spi/bscan_spi_<part>.bit. Without Vivado it writes the
project and says so. openFPGALoader needs none of this: Debian's package carries its own
proxies (/usr/share/openFPGALoader/spiOverJtag_xc7a*.bit.gz), so it is the default
flash path.
"""

import argparse
import gzip
import importlib.util
import os
import shutil
import sys

from boards.common import TOP

GENERATOR = "/usr/share/doc/openocd/loaders/flash/fpga/xilinx_bscan_spi.py.gz"
OUT_DIR = os.path.join(TOP, "build", "arty", "bscan_spi")
PARTS = {"a7-35": "xc7a35t", "a7-100": "xc7a100t"}
# The Arty A7's SPI flash pins: cs_n, (CCLK via STARTUPE2), mosi/dq0, miso/dq1, dq2, dq3.
ARTY_FLASH_PINS = ["L13", None, "K17", "K18", "L14", "M14"]


def load_generator(out_dir=OUT_DIR):
    if not os.path.exists(GENERATOR):
        raise FileNotFoundError(f"{GENERATOR} not found (Debian package openocd ships it)")
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, "xilinx_bscan_spi.py")
    with gzip.open(GENERATOR, "rb") as src, open(path, "wb") as dst:
        dst.write(src.read())
    spec = importlib.util.spec_from_file_location("xilinx_bscan_spi", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def build(variant="a7-35", out_dir=OUT_DIR, run=None):
    """Write (and with Vivado, build) the proxy; return (bitstream path, ran)."""
    if run is None:
        run = shutil.which("vivado") is not None
    gen = load_generator(out_dir)
    part = PARTS[variant]
    platform = gen.XilinxBscanSpi(f"{part}-csg324-1", ARTY_FLASH_PINS, "LVCMOS33", toolchain="vivado")
    top = gen.Series7(platform)
    name = f"bscan_spi_{part}"
    platform.build(top, build_dir=out_dir, build_name=name, run=run)
    return os.path.join(out_dir, name + ".bit"), run


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--variant", default="a7-35", choices=sorted(PARTS))
    args = p.parse_args(argv)
    try:
        bit, ran = build(args.variant)
    except FileNotFoundError as e:
        print(f"[arty-bscan-spi] {e}", file=sys.stderr)
        return 2
    r = os.path.relpath(bit, TOP)
    if ran:
        print(f"[arty-bscan-spi] proxy: {r}", file=sys.stderr)
        return 0
    print(f"[arty-bscan-spi] Vivado is not on PATH: wrote the proxy's project to {os.path.relpath(OUT_DIR, TOP)}/\n"
          f"[arty-bscan-spi] but could not build {r}. Run this again with Vivado on PATH, or flash with\n"
          f"[arty-bscan-spi] openFPGALoader (make arty-flash), which needs no proxy of ours.", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
