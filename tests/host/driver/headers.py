# SPDX-License-Identifier: MIT
"""LiteX's generated/csr.h and generated/mem.h for the host build of the driver.

In LiteX's format (a board build's software/include/generated/), with only what
firmware/libhash/include/hashsoc/hash_regs.h reads: CSR_<ENGINE>_BASE,
CSR_<ENGINE>_<REG>_ADDR / _SIZE, CSR_<ENGINE>_<REG>_<FIELD>_OFFSET / _SIZE, and the windows'
<ENGINE>_BASE / _SIZE; plus MAIN_RAM_BASE and CSR_BASE as mem.h has them. (No MAIN_RAM_SIZE: the host's main RAM
is the shared object's .bss, whose size the link decides; hash_plat_host.c reports it.)
"""

from gateware import hashspec

from .regmap import CSR_BASE, MAIN_RAM_BASE


def _opening(source, header, name, value):
    """A generated header's first lines: whence, its include guard, and `name` as LiteX
    defines a base address (unless the includer did)."""
    return [f"// Written by tests/host/driver/headers.py {source}(host tests)",
            f"#ifndef __GENERATED_{header}_H", f"#define __GENERATED_{header}_H", "",
            f"#ifndef {name}", f"#define {name} 0x{value:08x}L", "#endif", ""]


def csr_h(rm):
    L = _opening("from gateware/hashspec.py ", "CSR", "CSR_BASE", CSR_BASE)
    for e in hashspec.ENGINES:
        E = e.name.upper()
        rel = rm.csr_bases[e.name] - CSR_BASE
        L += [f"/* {E} Registers */", f"#define CSR_{E}_BASE (CSR_BASE + 0x{rel:x}L)"]
        for r in rm.registers.values():
            L += [f"#define CSR_{E}_{r.name.upper()}_ADDR (CSR_BASE + 0x{rel + r.offset:x}L)",
                  f"#define CSR_{E}_{r.name.upper()}_SIZE 1"]
        L += ["", f"/* {E} Fields */"]
        for r in rm.registers.values():
            for f, (offset, size) in r.fields.items():
                L += [f"#define CSR_{E}_{r.name.upper()}_{f.upper()}_OFFSET {offset}",
                      f"#define CSR_{E}_{r.name.upper()}_{f.upper()}_SIZE {size}"]
        L.append("")
    return "\n".join(L + ["#endif", ""])


def mem_h(rm):
    L = _opening("", "MEM", "MAIN_RAM_BASE", MAIN_RAM_BASE)
    for e in hashspec.ENGINES:
        E = e.name.upper()
        L += [f"#ifndef {E}_BASE", f"#define {E}_BASE 0x{rm.windows[e.name]:08x}L",
              f"#define {E}_SIZE 0x{hashspec.WINDOW_SIZE:08x}", "#endif", ""]
    L += ["#ifndef CSR_BASE", f"#define CSR_BASE 0x{CSR_BASE:08x}L", "#endif", ""]
    return "\n".join(L + ["#endif", ""])


def write(rm, include_dir):
    """Write include_dir/generated/{csr,mem}.h."""
    gen = include_dir / "generated"
    gen.mkdir(parents=True, exist_ok=True)
    (gen / "csr.h").write_text(csr_h(rm))
    (gen / "mem.h").write_text(mem_h(rm))
