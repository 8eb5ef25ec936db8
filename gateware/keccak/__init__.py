# SPDX-License-Identifier: MIT
"""Keccak / SHA-3 / SHAKE engine core (see core.py)."""

from .core import KeccakCore, KeccakRound, MODES

__all__ = ["KeccakCore", "KeccakRound", "MODES"]
