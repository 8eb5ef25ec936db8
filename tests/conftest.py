# SPDX-License-Identifier: MIT
# Make the repository root importable (gateware.*) when pytest runs from anywhere.
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)


# ---- running on both cores (`make test`: pytest-xdist, --dist loadgroup) ----
# A test that simulates shares its module's fixtures (one firmware run, one xv6 boot per
# target), so the tests of one module and target stay on one worker: a group each (a
# module-scoped fixture set up on both workers at once would build into one directory
# twice). The xv6 QEMU tests (test_xv6_qemu, test_xv6_hash's test_qemu_*) are one group
# because one of them rebuilds the QEMU kernel in place (test_qemu_boot_hashbench_flag).
# Builds both workers ask for are serialised by locks (gateware/buildstamp.py `locked`,
# soc/sim.py, boards/twin.py, scripts/seed001.py). Other tests go to whichever worker is
# free.
import pytest  # noqa: E402


def xdist_group(item):
    module = item.module.__name__
    if module == "test_xv6_qemu" or (module == "test_xv6_hash" and item.name.startswith("test_qemu")):
        return "qemu"
    if item.get_closest_marker("simbuild"):
        target = getattr(item, "callspec", None) and item.callspec.params.get("target")
        return f"{module}[{target}]" if target else module
    return None


def pytest_collection_modifyitems(config, items):
    for item in items:
        group = xdist_group(item)
        if group:
            item.add_marker(pytest.mark.xdist_group(group))
