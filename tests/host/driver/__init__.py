# SPDX-License-Identifier: MIT
"""The hash driver (firmware/libhash/driver/) on the host, against a register-level
model of the engines: tests/test_driver_host.py and docs/driver-api.md ("Host tests")."""
