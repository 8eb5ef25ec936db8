# SPDX-License-Identifier: MIT
"""HashSoC's board targets (one module per board) and their twins (twin.py)."""

# The boards with a twin: module boards/<name>.py and its SoC class. A board module gives
# DEFAULT_SYS_CLK, board_platform() and board_dram(platform, sys_clk_freq) -> (module, PHY).
TWIN_BOARDS = {"ulx3s": "ULX3SHashSoC", "arty": "ArtyHashSoC"}
# The hash engines (gateware/hashspec.py's names) each SoC carries unless told otherwise
# (--engines, FPGA_ENGINES=): a target's twin has its board's. The SHA-512 engine is on
# litex_sim only: the ULX3S SoC with all three fits the 85F but routed at 52.31 MHz, below
# its 60 (seed 1); on the Arty A7-35T all three take ~95% of its LUTs (yosys, docs/fpga.md),
# above the 85% budget; the A7-100T has room (--engines). docs/sha512.md has the figures.
DEFAULT_ENGINES = {
    "sim": ("sha256", "keccak", "sha512"),
    "ulx3s": ("sha256", "keccak"),
    "arty": ("sha256", "keccak"),
}
