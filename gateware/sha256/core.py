# SPDX-License-Identifier: MIT
"""SHA-256 / SHA-224 core (FIPS 180-4): the SHA-2 core (gateware/sha2/core.py, its theory
of operation and clock budget) on 32-bit words, 64 rounds.

Mode 0 = SHA-256, mode 1 = SHA-224 (gateware/hashspec.py). ``variant="folded"``: 64
clocks per block, ``"basic"``: 65. Context words 0..7 = H0..H7 byte-swapped (memory
order = digest order), 8/9 = the message byte count.
"""

from .. import hashspec
from ..sha2.constants import IV, K256
from ..sha2.core import SHA2Core

__all__ = ["SHA256Core", "K", "IV_SHA256", "IV_SHA224", "MODE_SHA256", "MODE_SHA224"]

MODE_SHA256 = hashspec.algorithm("SHA256").mode
MODE_SHA224 = hashspec.algorithm("SHA224").mode
K = K256
IV_SHA256 = IV["SHA256"]
IV_SHA224 = IV["SHA224"]


class SHA256Core(SHA2Core):
    """SHA-256/SHA-224 core; ``variant`` is ``"folded"`` (64 clk/block) or ``"basic"`` (65)."""

    def __init__(self, variant="folded"):
        super().__init__("sha256", variant)
