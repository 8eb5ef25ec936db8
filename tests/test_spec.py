# SPDX-License-Identifier: MIT
"""The one description of the engines (gateware/hashspec.py) and everything made from it.

- Every generated file (the C header, docs/registers.md, the marked tables in docs/) is
  what scripts/genspec.py makes from the description now.
- No hand copy of a fact remains in the sources: algorithm tables, rate/pad pairs, engine
  IDs, window offsets and addresses (in docs too), error-bit lists, provider spellings,
  register fields and the engine ports named after them.
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
# An engine's data-window address, as 0xB0000000 or 0xB000_0000 (any case).
WINDOWS = "|".join(f for e in hashspec.ENGINES
                   for f in (f"0x{e.window:08x}", f"0x{e.window >> 16:04x}_{e.window & 0xFFFF:04x}"))
# The engines' register fields and the ports named after them (hashspec.REGISTERS).
FIELDS = "|".join(sorted({f.name for r in hashspec.REGISTERS for f in r.fields}))
PORTS = "|".join(sorted({p for r in hashspec.REGISTERS for p, _, _ in r.ports()}))

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
    ("an engine's window address", rf"(?i)\b({WINDOWS})\b", 1),
    ("a list of register fields", rf'CSRField\(\s*"({FIELDS})"', 3),
    ("a list of engine ports", rf'"({PORTS})"\s*:\s*(In|Out)\(|\b[io]_({PORTS})\s*=', 3),
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
               ("a second spelling of the providers", "#define HASHP_SW 0"),
               ("an engine's window address", "static const uintptr bad[] = { 0x40000000, 0xB0000000 };"),
               ("an engine's window address", '"keccak": 0xB001_0000,'),
               ("a list of register fields", 'self._ctrl = CSRStorage(fields=[\n  CSRField("init", size=1, pulse=True),'
                                             '\n  CSRField("abort", size=1, pulse=True),\n  CSRField("squeeze", size=1),'),
               ("a list of engine ports", '_PORTS = {\n    "ctrl_init": In(1),\n    "ctrl_mode": In(4),\n'
                                          '    "ctrl_abort": In(1),'),
               ("a list of engine ports", "Instance(top, i_ctrl_init=self._ctrl.fields.init,\n"
                                          "  i_ctrl_mode=self._ctrl.fields.mode, o_st_open=st.open)")]
    regexes = {what: (regex, limit) for what, regex, limit in COPIES}
    for what, sample in samples:
        regex, limit = regexes[what]
        assert any(len(hits) >= limit for _, hits in clusters(regex, sample)), (what, sample)


DOC_COPIES = [
    ("a window address (name it: registers.md's table has it)", rf"(?i)\b({WINDOWS})\b", 1),
    ("a table of error bits (use <!-- genspec: errors -->)", rf"\|\s*\d+\s*\|\s*`({ERRNAMES})`", 3),
]


@pytest.mark.parametrize("what,regex,limit", DOC_COPIES, ids=[c[0].split(" (")[0] for c in DOC_COPIES])
def test_no_hand_copy_in_the_docs(what, regex, limit):
    """Prose names a fact; the tables that give it are generated (registers.md, and the
    blocks between genspec markers, which are left out of this search)."""
    docs = ["README.md"] + [f"docs/{n}" for n in sorted(os.listdir(os.path.join(ROOT, "docs")))
                            if n.endswith(".md") and n != "registers.md"]
    found = []
    for rel in docs:
        text = genspec.BLOCK_RE.sub("", open(os.path.join(ROOT, rel)).read())
        found += [f"{rel}:{line}: {sorted(hits)[:4]}" for line, hits in clusters(regex, text) if len(hits) >= limit]
    assert not found, f"{what} typed in the docs:\n" + "\n".join(found)


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
    # The variants' clocks: the cores' own counts (their tests measure them) are hashspec's.
    from gateware.keccak.core import PERMUTATION_CLOCKS
    from gateware.sha2.core import SHA2Core
    assert [v.clocks for v in hashspec.variants_of("keccak")] == [PERMUTATION_CLOCKS]
    for v in hashspec.VARIANTS:
        if v.engine != "keccak":
            assert SHA2Core(v.engine, v.name).clocks_per_block == v.clocks, v
    with pytest.raises(ValueError):
        SHA2Core("sha256", "unrolled")


def test_the_wrappers_registers_are_the_description():
    """The LiteX wrapper's CSR bank is hashspec.REGISTERS (then the events' three), the
    engine's ports are the registers' ports, and the wrapper's Verilog names are what the
    hand-written CSRs had (`self._ctrl = CSRStorage(...)`: ctrl_storage, ctrl_re), so that a
    bitstream's netlist does not move because the CSRs are made from the description."""
    from amaranth.lib.wiring import In, Out
    from gateware.common.engine import _PORTS
    from gateware.litex_wrapper import HashAccelerator

    class NoPlatform:
        def add_source(self, path):
            pass

    accel = HashAccelerator(NoPlatform(), "sha256", gen_dir=os.path.join(ROOT, "build", "engines"))
    got = [(c.name, type(c).__name__.replace("CSR", ""), c.size,
            [(f.name, f.offset, f.size, f.pulse) for f in getattr(getattr(c, "fields", None), "fields", [])])
           for c in accel.get_csrs()]
    want = [(name, kind, bits, [(f.name, f.offset, f.width, f.pulse) for f in fields])
            for _, name, kind, bits, _, fields in genspec.csr_rows()]
    assert got == want
    events = [n for n, _ in sorted(((k, v) for k, v in vars(accel.ev).items() if hasattr(v, "trigger")),
                                   key=lambda kv: kv[1].duid)]
    assert events == [e.name for e in hashspec.EVENTS], "the wrapper's events are not hashspec.EVENTS"
    for r in hashspec.REGISTERS:
        for port, width, _ in r.ports():
            assert _PORTS[port] == (In if r.access == "rw" else Out)(width), port
    for reg, sig in (("ctrl", accel._ctrl.storage), ("ctrl", accel._ctrl.re), ("id", accel._id.status)):
        assert [n for n, _ in sig.backtrace][-3] == reg, (reg, sig.backtrace)


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
