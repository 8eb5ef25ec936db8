# SPDX-License-Identifier: MIT
# Make the repository root importable (gateware.*) when pytest runs from anywhere.
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)
