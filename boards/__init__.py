# SPDX-License-Identifier: MIT
"""HashSoC's board targets (one module per board) and their twins (twin.py)."""

# The boards with a twin: module boards/<name>.py and its SoC class. A board module gives
# DEFAULT_SYS_CLK, board_platform() and board_dram(platform, sys_clk_freq) -> (module, PHY).
TWIN_BOARDS = {"ulx3s": "ULX3SHashSoC", "arty": "ArtyHashSoC"}
# Every place a program can run (soc/runfw.py, scripts/xv6run.py, the tests): litex_sim
# and each board's twin. Plain data: importable without LiteX.
TARGETS = ("sim",) + tuple(f"{b}-twin" for b in TWIN_BOARDS)
