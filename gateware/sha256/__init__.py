# SPDX-License-Identifier: MIT
from .core import SHA256Core

__all__ = ["SHA256Core"]
