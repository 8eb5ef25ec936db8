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
# twice). The xv6 QEMU tests (test_xv6_qemu, test_xv6_hash's test_qemu_*, the QEMU ones
# of test_xv6_integrity) are one group because one of them rebuilds the QEMU kernel in
# place (test_qemu_boot_hashbench_flag) that the others boot.
# Builds both workers ask for are serialised by locks (gateware/buildstamp.py `locked`,
# soc/sim.py, boards/twin.py, scripts/seed001.py). Other tests go to whichever worker is
# free.
import pytest  # noqa: E402


def xdist_group(item):
    module = item.module.__name__
    if (module == "test_xv6_qemu" or (module == "test_xv6_hash" and item.name.startswith("test_qemu"))
            or (module == "test_xv6_integrity" and not item.get_closest_marker("simbuild"))):
        return "qemu"
    if item.get_closest_marker("simbuild"):
        target = getattr(item, "callspec", None) and item.callspec.params.get("target")
        return f"{module}:{target}" if target else module
    return None


# The groups that simulate longest, heaviest first (seconds in a fresh-clone `.ci/run` on
# this 2-core VM, 2026-11-29, ce67bd0, the bitstream building beside: the Arty twin's serial
# boot 893 plus its build and description 209, the xv6 sessions on the ULX3S twin 542 and
# the Arty twin 514, the Arty firmware 439, the ULX3S serial boot 357, the ULX3S firmware
# 315, the Arty leveling 241, litex_sim's firmware 267, its xv6 sessions 235 and 226, its
# integrity boots 148, ...). Every simulating group is named: one left out went out with
# the small tests, in module order, and test_xv6_integrity's ran alone for the last ~140 s
# of that run. xdist hands groups out
# in collection order when `make test` passes --no-loadscope-reorder; its default order is
# by test count, which sent the one-test twin xv6 session out last, to run alone for its
# last minutes. The first two go to different workers and need different simulators, so
# the Arty twin and the ULX3S twin are built at the same time (a second group that needs a
# simulator being built waits for its lock).
HEAVIEST_FIRST = ["test_twin:arty-twin", "test_xv6_hash:ulx3s-twin", "test_xv6_hash:arty-twin",
                  "test_soc_firmware:arty-twin", "test_xv6_hash:sim", "test_twin:ulx3s-twin",
                  "test_twin_leveling", "test_soc_firmware:ulx3s-twin", "test_xv6_litex",
                  "test_soc_firmware:sim", "test_xv6_integrity", "test_readme_demo", "test_bootrom",
                  "test_soc_identity", "test_seed001", "qemu"]


@pytest.hookimpl(tryfirst=True)     # before pytest-xdist's own, which reads the marks
def pytest_collection_modifyitems(config, items):
    rank = {}
    unplaced = set()
    for item in items:
        group = xdist_group(item)
        if group:
            item.add_marker(pytest.mark.xdist_group(group))
            if group not in HEAVIEST_FIRST:
                unplaced.add(group)
        rank[item.nodeid] = HEAVIEST_FIRST.index(group) if group in HEAVIEST_FIRST else len(HEAVIEST_FIRST)
    if unplaced:
        raise pytest.UsageError(f"tests/conftest.py: simulating groups without a place in HEAVIEST_FIRST: "
                                f"{sorted(unplaced)} (add each where its seconds put it)")
    items.sort(key=lambda item: rank[item.nodeid])     # stable: a module's own order stays


# xdist groups a test by a suffix it adds to the test's id ("...@group") from its mark, and
# only sees a group when that suffix is the id's tail after its last "]". None of the ways
# this fails is loud: the marks added after xdist's hook has run (hence tryfirst above),
# pytest 9 (pytest-xdist 3.8 sets an attribute pytest 9 no longer reads, so no suffix at
# all; scripts/requirements.txt pins pytest 8), a group name ending in "]" (taken for a
# parameter). A group's module fixtures then ran on both workers: every firmware run and
# xv6 boot twice, ~550 s of `make test`. Every test fails instead, saying why.
_split_groups = []


def pytest_collection_finish(session):
    if session.config.getoption("loadgroup", False):
        _split_groups.extend(item.nodeid for item in session.items
                             if (g := xdist_group(item)) and (not item.nodeid.endswith("@" + g) or "]" in g))


def pytest_runtest_setup(item):
    if _split_groups:
        pytest.fail(f"pytest-xdist would split groups across workers (ids without '@<group>': "
                    f"{_split_groups[:2]}; tests/conftest.py)", pytrace=False)
