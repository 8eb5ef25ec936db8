# SPDX-License-Identifier: MIT
"""HashSoC's board targets (one module per board) and their twins (twin.py)."""

# The boards with a twin: module boards/<name>.py and its SoC class. A board module gives
# DEFAULT_SYS_CLK, board_platform() and board_dram(platform, sys_clk_freq) -> (module, PHY).
TWIN_BOARDS = {"ulx3s": "ULX3SHashSoC", "arty": "ArtyHashSoC"}
# The hash engines (gateware/hashspec.py's names) each SoC carries unless told otherwise
# (--engines, FPGA_ENGINES=): a target's twin has its board's. The ULX3S carries all three:
# with the SHA-512 engine its SoC meets 60 MHz at each of the five placement seeds
# (docs/fpga.md, scripts/fpga/seeds.py). The Arty A7-35T leaves SHA-512 out for area: all
# three take ~98% of its LUT sites (yosys, docs/fpga.md), above the 85% budget; the
# A7-100T has room (--engines). docs/sha512.md has the figures.
DEFAULT_ENGINES = {
    "sim": ("sha256", "keccak", "sha512"),
    "ulx3s": ("sha256", "keccak", "sha512"),
    "arty": ("sha256", "keccak"),
}
