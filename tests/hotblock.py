# SPDX-License-Identifier: MIT
"""A linker script's block of hot code, checked against the program it linked.

kernel.ld and the firmware's linker.ld place functions side by side by their input
sections' names (-ffunction-sections: .text.NAME; GCC's `hot` attribute: .text.hot.NAME),
because VexRiscv's instruction cache is direct mapped. A name there that is no longer a
function of its own (renamed, or inlined into its caller) matches nothing and links
silently, so the tests compare the script's names with the linked program's symbols.
"""

import re
import subprocess


def names(script, start="_hot_start = .;", end="_hot_end = .;"):
    """The function names the script lists between `start` and `end`. A pattern such as
    .text.acquire.* (GCC's clones: acquire.part.0) names its stem; .text.hot.* names none."""
    block = script[script.index(start):script.index(end)]
    found = []
    for sec in re.findall(r"\.text\.([\w.*]+)", block):
        sec = sec.removesuffix(".*").removeprefix("hot.")
        if sec != "hot" and "*" not in sec and sec not in found:
            found.append(sec)
    return found


def symbols(elf):
    """{name: [addresses]} of the code symbols in `elf`."""
    out = subprocess.run(["riscv64-unknown-elf-nm", elf], capture_output=True, text=True, check=True).stdout
    addr = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "Tt":
            addr.setdefault(parts[2], []).append(int(parts[0], 16))
    return addr


def placed(addr, name, lo, hi):
    """Whether function `name` (or a clone of it, name.part.0) is in [lo, hi)."""
    return any(lo <= a < hi for sym, at in addr.items() if sym == name or sym.startswith(name + ".")
               for a in at)


def outside(script, elf, also=()):
    """The names the script's block lists (and the names in `also`, which a pattern such as
    .text.hot.* brings in) that are not functions inside the block in `elf`, and the
    block's size in bytes."""
    addr = symbols(elf)
    lo, hi = addr["_hot_start"][0], addr["_hot_end"][0]
    return [n for n in names(script) + list(also) if not placed(addr, n, lo, hi)], hi - lo
