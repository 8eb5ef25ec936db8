# SPDX-License-Identifier: MIT
"""The one description of the engines (gateware/hashspec.py) and everything made from it.

- Every generated file (the C header, docs/registers.md, the marked tables in docs/) is
  what scripts/genspec.py makes from the description now.
- No hand copy of a fact remains in the sources: algorithm tables, rate/pad pairs, engine
  IDs, window offsets, error-bit lists, provider spellings.
- The description agrees with the gateware built from it, and a new Keccak-family mode is
  one edit: the worked example of docs/adding-a-mode.md (cSHAKE128), checked against
  pycryptodome.
"""
import importlib
import os
import re
import subprocess
import sys

import pytest

from gateware import hashspec

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import genspec  # noqa: E402


def test_generated_files_are_current():
    stale = [rel for rel, text in genspec.outputs(header_only=False).items()
             if open(os.path.join(ROOT, rel)).read() != text]
    assert not stale, f"stale (run `make spec`): {stale}"


def test_genspec_check_fails_on_a_stale_header(tmp_path, monkeypatch):
    """The --check mode the Makefiles' users can run, on a copy with one edited fact."""
    monkeypatch.setattr(genspec, "TOP", str(tmp_path))
    os.makedirs(tmp_path / os.path.dirname(genspec.HEADER))
    text = genspec.c_header()
    (tmp_path / genspec.HEADER).write_text(text.replace("HASH_BLOCK_SHA3_256 136", "HASH_BLOCK_SHA3_256 144"))
    monkeypatch.setattr(sys, "argv", ["genspec", "--header", "--check"])
    assert genspec.main() == 1
    (tmp_path / genspec.HEADER).write_text(text)
    assert genspec.main() == 0


# ---- no hand copies ----

def _sources():
    out = subprocess.run(["git", "ls-files", "*.py", "*.c", "*.h", "*.S", "*.mk", "Makefile", "*/Makefile"],
                         cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    own = {"gateware/hashspec.py", genspec.HEADER, "scripts/genspec.py", "tests/test_spec.py"}
    return [p for p in out if p not in own and os.path.exists(os.path.join(ROOT, p))]


TITLES = "|".join(re.escape(a.title) for a in hashspec.ALGORITHMS)
NAMES = "|".join(re.escape(a.name) for a in hashspec.ALGORITHMS)
ERRNAMES = "|".join(b.name for b in hashspec.ERRORS)
IDENTS = "|".join([f"0x{e.ident_value:08x}" for e in hashspec.ENGINES] + [f'b"{e.ident}"' for e in hashspec.ENGINES])
# Each in every spelling a copy could use: decimal or hex rates, hex pads with or without
# the leading zero.
RATES = "|".join(sorted({f for a in hashspec.ALGORITHMS if a.pad for f in (str(a.block), f"0x{a.block:x}")}))
PADS = "|".join(sorted({f for a in hashspec.ALGORITHMS if a.pad for f in (f"0x{a.pad:02x}", f"0x{a.pad:x}")}))
WINDOW = "|".join(f for r in hashspec.WINDOW if r.offset for f in (f"0x{r.offset:x}", str(r.offset)))
HALF = len(hashspec.ALGORITHMS) // 2

# (what, regex, how many distinct matches close together make a copy). A test or a
# benchmark may name a few algorithms; a table of half of them or more is a copy.
COPIES = [
    ("a table of algorithm titles", rf'"({TITLES})"', HALF),
    ("a table of algorithm names", rf'"({NAMES})"', HALF),
    # (an item of a list, not an argument or a subscript: error_bit("busy"), seen["busy"])
    ("a list of error-bit names", rf'(?<![\[(])"({ERRNAMES})"\s*[,\]]', len(hashspec.ERRORS) // 2),
    ("an engine ID", rf"(?i)({IDENTS})", 1),
    ("a rate and pad byte pair", rf"(?i)\b({RATES})\b\s*,\s*({PADS})\b", 1),
    ("a window offset", rf"(?i)(final|ctx)\w*\s*=\s*({WINDOW})\b", 1),
    ("an enum of algorithms", r"(?m)^\s*HASH_SHA3_224\s*[,=]", 1),
    ("a second spelling of the providers", r"\b(HASHP_\w+|KHASH_PROV_\w+|enum hash_provider)\b", 1),
    ("a Keccak rate macro", r"\bKECCAK_SW_(RATE|PAD)_\w+", 1),
]
GAP = 120   # characters between two matches of one table


def clusters(regex, text):
    """Runs of matches at most GAP characters apart: (line of the first, distinct matches)."""
    runs, last = [], None
    for m in re.finditer(regex, text):
        if last is None or m.start() - last > GAP:
            runs.append([text.count("\n", 0, m.start()) + 1, set()])
        runs[-1][1].add(m.group(0))
        last = m.end()
    return runs


@pytest.mark.parametrize("what,regex,limit", COPIES, ids=[c[0] for c in COPIES])
def test_no_hand_copy_remains(what, regex, limit):
    found = []
    for rel in _sources():
        text = open(os.path.join(ROOT, rel), errors="replace").read()
        found += [f"{rel}:{line}: {sorted(hits)[:6]}" for line, hits in clusters(regex, text) if len(hits) >= limit]
    assert not found, f"{what} typed by hand (take it from gateware/hashspec.py or hash_spec.h):\n" + "\n".join(found)


def test_the_copy_check_can_see_a_copy():
    """The patterns above match the shapes the old hand copies had (hash.c's algs[],
    uhash.c's names[], engine.py's ERROR_NAMES, hash_regs.h, engine.py's window)."""
    old_alg_rows = "\n".join(f'  {{ "{a.title}", HASH_ENGINE_X, {a.mode}, {a.digest}, {a.block}, 0x{a.pad:02X} }},'
                             for a in hashspec.ALGORITHMS)
    samples = [("a table of algorithm titles", old_alg_rows),
               ("a table of algorithm names", ", ".join(f'"{a.name}"' for a in hashspec.ALGORITHMS)),
               ("a list of error-bit names", "[" + ", ".join(f'"{b.name}"' for b in hashspec.ERRORS) + "]"),
               ("a rate and pad byte pair", old_alg_rows),
               ("a rate and pad byte pair", "{ 0x88, 0x6 },"),              # hex rate, short pad
               ("an engine ID", "#define HASH_ENGINE_ID_SHA256 0x53484132u"),
               ("a window offset", "CTX_WORD = 0x2000 >> 2"),
               ("a window offset", "final_off = 4096"),
               ("a second spelling of the providers", "#define HASHP_SW 0")]
    regexes = {what: (regex, limit) for what, regex, limit in COPIES}
    for what, sample in samples:
        regex, limit = regexes[what]
        assert any(len(hits) >= limit for _, hits in clusters(regex, sample)), (what, sample)


# ---- the description and the gateware agree ----

def test_description_is_consistent():
    assert len({a.key for a in hashspec.ALGORITHMS}) == len(hashspec.ALGORITHMS)
    assert len({a.name for a in hashspec.ALGORITHMS}) == len(hashspec.ALGORITHMS)
    for e in hashspec.ENGINES:
        modes = hashspec.modes(e.name)
        assert len(set(modes)) == len(modes) and max(modes) < 16, e.name   # ctrl.mode is 4 bits
        assert len(e.ident.encode()) == 4
    for a in hashspec.ALGORITHMS:
        assert a.block % 4 == 0 and a.digest % 4 == 0 and a.digest <= a.block, a   # whole words
        if a.engine == "keccak":
            assert a.pad, a
            if not a.xof:       # FIPS 202: capacity = twice the digest
                assert 200 - a.block == 2 * a.digest, a
    assert [r.offset for r in hashspec.WINDOW] == sorted(r.offset for r in hashspec.WINDOW)
    for r1, r2 in zip(hashspec.WINDOW, hashspec.WINDOW[1:]):
        assert r1.offset + r1.size <= r2.offset
    assert hashspec.WINDOW[-1].offset + hashspec.WINDOW[-1].size <= hashspec.WINDOW_SIZE
    assert hashspec.MAX_CTX_WORDS * 4 <= hashspec.region("ctx").size


def test_gateware_takes_its_facts_from_the_description():
    from gateware.common import engine
    from gateware.engines import SPECS
    from gateware.keccak.core import MODES
    from gateware.sha256.core import MODE_SHA224, MODE_SHA256
    assert engine.ERROR_NAMES == [b.name for b in hashspec.ERRORS]
    assert engine.FINAL_WORD * 4 == hashspec.region("final").offset
    assert engine.CTX_WORD * 4 == hashspec.region("ctx").offset
    assert MODES == {**{a.mode: (a.title, a.block, a.pad) for a in hashspec.algorithms_of("keccak")},
                     **{p.cshake: ("c" + p.xof, hashspec.algorithm(p.xof).block, hashspec.CSHAKE_PAD)
                        for p in hashspec.SP800_185}}
    assert (MODE_SHA256, MODE_SHA224) == (hashspec.algorithm("SHA-256").mode, hashspec.algorithm("SHA-224").mode)
    for e in hashspec.ENGINES:
        assert SPECS[e.name].ident == e.ident_value and SPECS[e.name].modes == hashspec.modes(e.name)


# ---- the worked example: one edit adds a mode ----

def test_a_new_keccak_mode_is_one_edit(monkeypatch):
    """docs/adding-a-mode.md: the one edit is this Algorithm row. The Keccak core's mode
    table, the C header and the docs' tables follow; the core then computes RawSHAKE128
    (FIPS 202 6.3: SHAKE128's sponge with the pad byte 0x07) as pycryptodome's sponge does
    with that pad byte."""
    from Crypto.Hash import SHAKE128
    import gateware.keccak.core as core
    from coredriver import KeccakDriver, simulate

    mode = 14
    assert mode not in hashspec.modes("keccak")
    row = hashspec.Algorithm("RAWSHAKE128", "rawshake128", "RawSHAKE128", "keccak", mode, 168, 0, 0x07, "",
                             "FIPS 202")
    monkeypatch.setattr(hashspec, "ALGORITHMS", hashspec.ALGORITHMS + (row,))
    try:
        importlib.reload(core)
        assert core.MODES[mode] == ("RawSHAKE128", 168, 0x07)
        header = genspec.c_header()
        assert f"HASH_RAWSHAKE128 = {len(hashspec.ALGORITHMS) - 1}," in header
        assert f'X(RAWSHAKE128, "rawshake128", "RawSHAKE128", HASH_ENGINE_KECCAK, {mode},' in header
        assert f"| {mode} | RawSHAKE128 | 168 | 42 | 42 | 0x07 |" in "\n".join(genspec.table_keccak_modes())

        msg = bytes(range(200))
        got = {}

        async def bench(d):
            await d.init(mode)
            await d.stream(msg)
            await d.wait(d.dut.done, 1)
            got["out"] = await d.output(mode, 200)

        simulate(core.KeccakCore(), bench, "keccak", KeccakDriver)
        ref = SHAKE128.new(msg)
        ref._padding = 0x07         # pycryptodome's sponge with RawSHAKE's pad byte
        assert got["out"] == ref.read(200)
    finally:
        monkeypatch.undo()
        importlib.reload(core)
