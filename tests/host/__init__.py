# SPDX-License-Identifier: MIT
"""Host-side helpers of the tests (C drivers and the models they talk to)."""
