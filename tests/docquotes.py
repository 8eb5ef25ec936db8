# SPDX-License-Identifier: MIT
"""Figures the docs quote, and where from: each function gives (doc, text) pairs whose text,
built from a JSON a benchmark or build wrote (docs/bench.json, a twin's serialboot.json),
must stand in the doc; check_quotes lists those that do not. test_docs checks them all;
test_twin checks a serial boot's right after the run that wrote its JSON."""

import importlib.util
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if __name__ == "__main__":      # run as a script (--fix, below): the tree's packages
    sys.path.insert(0, ROOT)

from gateware import hashspec  # noqa: E402


def read(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return f.read()


def load_script(path):
    spec = importlib.util.spec_from_file_location("docs_check_" + os.path.basename(path)[:-3], os.path.join(ROOT, path))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def bench_rows(target="sim"):
    rows = json.loads(read("docs/bench.json"))["targets"][target]["rows"]
    return {(r["alg"], r["path"], r["bytes"]): r["clocks"] for r in rows}


KECCAK_MODES = [a.title for a in hashspec.algorithms_of("keccak")]     # by mode number


def bench_quotes():
    """(doc, text) pairs: each text, with its figures from docs/bench.json, must be in the doc."""
    r, f = bench_rows(), json.loads(read("docs/bench.json"))["targets"]["sim"]["figures"]
    big = 65536
    dma = [r[(a, "dma", big)] for a in KECCAK_MODES]
    pio = [r[(a, "pio", big)] for a in KECCAK_MODES + ["SHA-256", "SHA-224"]]
    s256, s3 = r[("SHA-256", "dma", big)], r[("SHA3-256", "dma", big)]
    return [
        ("docs/sha256.md", f"| core busy / blocks, 64 KiB by DMA | {f['sha256_core_clocks_per_block']:.2f} clocks per block |"),
        ("docs/sha256.md", f"| DMA, 64 KiB | {s256:,} clocks = {s256 / big:.3f} clk/byte = "
                           f"{f['sha256_dma_vs_engine_rate']:.1%} of the engine bound"),
        ("docs/sha256.md", f"| PIO, 64 KiB | {r[('SHA-256', 'pio', big)]:,} clocks = {r[('SHA-256', 'pio', big)] / big:.2f} clk/byte"),
        ("docs/sha256.md", f"| one-shot DMA digest, 5 bytes | {r[('SHA-256', 'dma', 5)]:,} clocks (SHA-224: {r[('SHA-224', 'dma', 5)]:,}) |"),
        ("docs/sha256.md", f"| one-shot PIO digest, 5 bytes | {r[('SHA-256', 'pio', 5)]:,} clocks |"),
        ("docs/sha256.md", f"64 KiB | {f['sha256_sw_clocks_per_byte']:.1f} clk/byte |"),
        ("docs/sha256.md", f"| DMA speed-up over software, 64 KiB | {f['sha256_dma_speedup_64k']:.0f}x |"),
        ("docs/sha256.md", f"| HMAC-SHA-256, 64 bytes (`hash_hmac()`, DMA) | {r[('HMAC-SHA-256', 'dma', 64)]:,} "
                           f"clocks; software {r[('HMAC-SHA-256', 'sw', 64)]:,} |"),
        ("docs/sha256.md", f"| HMAC-SHA-256, 64 KiB | {r[('HMAC-SHA-256', 'dma', big)]:,} clocks; software "
                           f"{r[('HMAC-SHA-256', 'sw', big)]:,} ({f['hmac_sha256_65536_speedup']:.0f}x) |"),
        ("docs/integrity.md", f"64 bytes take {r[('HMAC-SHA-256', 'dma', 64)]:,} clocks on the engine against "
                              f"{r[('HMAC-SHA-256', 'sw', 64)]:,}\nin software ({f['hmac_sha256_64_speedup']:.1f}x"),
        ("docs/integrity.md", f"64 KiB take {r[('HMAC-SHA-256', 'dma', big)]:,} against "
                              f"{r[('HMAC-SHA-256', 'sw', big)]:,} ({f['hmac_sha256_65536_speedup']:.0f}x"),
        ("docs/keccak.md", f"| SHA3-256 by DMA, 64 KiB | {s3:,} clocks = {big / s3:.3f} B/clk = "
                           f"{f['sha3_256_dma_fraction_of_bound']:.1%} of the 2 B/clk bus bound"),
        ("docs/keccak.md", f"| any Keccak mode by DMA, 64 KiB | {min(dma):,}-{max(dma):,} clocks"),
        ("docs/keccak.md", f"| any mode by PIO, 64 KiB | {min(pio):,}-{max(pio):,} clocks = "
                           f"{min(pio) / big:.2f}-{max(pio) / big:.2f} clk/byte"),
        ("docs/keccak.md", f"| one-shot DMA digest, 5 bytes | {r[('SHA3-256', 'dma', 5)]:,} clocks SHA3-256, "
                           f"{r[('SHA3-512', 'dma', 5)]:,} SHA3-512 |"),
        ("docs/keccak.md", f"| software SHA3-256 / SHA3-512 (-O2), 64 KiB | {f['sha3_256_sw_clocks_per_byte']:.1f} / "
                           f"{f['sha3_512_sw_clocks_per_byte']:.1f} clk/byte |"),
        ("docs/keccak.md", f"SHA3-256 {r[('SHA3-256', 'sw', big)] / s3:.0f}x, "
                           f"SHA3-512 {r[('SHA3-512', 'sw', big)] / r[('SHA3-512', 'dma', big)]:.0f}x"),
        ("docs/keccak.md", f"SHA3-512 of 55 bytes takes {r[('SHA3-512', 'dma', 55)]:,}\nclocks by DMA and "
                           f"{r[('SHA3-512', 'sw', 55)]:,} in software"),
        ("docs/keccak.md", f"The {r[('SHA3-512', 'dma', 5)]:,} vs {r[('SHA3-256', 'dma', 5)]:,} clocks of SHA3-512"),
        ("docs/keccak.md", f"| KMAC128 / KMAC256 by DMA, 64 KiB (32-byte key) | {r[('KMAC128', 'dma', big)]:,} / "
                           f"{r[('KMAC256', 'dma', big)]:,} clocks = {f['kmac128_dma_bytes_per_clock']:.3f} / "
                           f"{f['kmac256_dma_bytes_per_clock']:.3f} B/clk; the core busy "
                           f"{f['kmac128_core_clocks_per_permutation']:.1f} / "
                           f"{f['kmac256_core_clocks_per_permutation']:.1f} clocks per permutation, absorbing included |"),
        ("docs/keccak.md", f"| KMAC128, 64 bytes (`hash_kmac_begin`, `hash_update`, `hash_final`) | "
                           f"{r[('KMAC128', 'dma', 64)]:,} clocks by DMA; software {r[('KMAC128', 'sw', 64)]:,} |"),
    ]


def sha512_quotes():
    """(doc, text) pairs of docs/sha512.md's benchmark figures: litex_sim's, and each twin's,
    from its own run where its board carries the engine, else from its twin built with every
    engine (bench.py --with-engines)."""
    data = json.loads(read("docs/bench.json"))
    sim = data["targets"]["sim"]
    fill = load_script("scripts/bench.py").with_every_engine(data)
    every = {t: fill.get(t) or r for t, r in data["targets"].items()
             if t in fill or "sha512_dma_bytes_per_clock" in r["figures"]}

    def row(rows, path, n):
        return next(r for r in rows if (r["alg"], r["path"], r["bytes"]) == ("SHA-512", path, n))
    big, f = 65536, sim["figures"]
    d = row(sim["rows"], "dma", big)
    quotes = [("docs/sha512.md", f"64 KiB in one command take {d['clocks']:,} clocks, **{big / d['clocks']:.3f} bytes per "
                                 f"clock**; the core is busy {f['sha512_core_clocks_per_block']:.2f} clocks"),
              ("docs/sha512.md", f"4 KiB: {row(sim['rows'], 'dma', 4096)['clocks']:,} clocks by DMA against "
                                 f"{row(sim['rows'], 'sw', 4096)['clocks']:,} in software "
                                 f"({f['sha512_dma_speedup_4k']:.0f}x); software runs at "
                                 f"{f['sha512_sw_clocks_per_byte']:.1f} clocks per byte.")]
    if {"ulx3s-twin", "arty-twin"} <= set(every):
        u, a = every["ulx3s-twin"], every["arty-twin"]
        quotes += [
            ("docs/sha512.md", f"64 KiB by DMA at **{u['figures']['sha512_dma_bytes_per_clock']:.3f} bytes per clock** "
                               f"on the ULX3S twin (SDR SDRAM) and **{a['figures']['sha512_dma_bytes_per_clock']:.3f}** "
                               f"on the Arty twin (DDR3), the core busy {u['figures']['sha512_core_clocks_per_block']:.2f} "
                               f"and {a['figures']['sha512_core_clocks_per_block']:.2f} clocks per block"),
            ("docs/sha512.md", f"({u['selftest_passed']:,} and {a['selftest_passed']:,} checks)")]
    return quotes


def twin_quotes():
    """(doc, text) pairs from the twin's figures in docs/bench.json: its benchmark rows and
    the DMA-against-the-CPU rows (firmware/baremetal/dmacontend.c)."""
    targets = json.loads(read("docs/bench.json"))["targets"]
    bench = load_script("scripts/bench.py")
    big = 65536

    def busy(target, path):
        return next(r["core_busy"] for r in targets[target]["rows"]
                    if (r["alg"], r["path"], r["bytes"]) == ("SHA3-256", path, big))
    c = {(r["alg"], bench.contention_key(r)): r["clocks"] for r in targets["ulx3s-twin"]["contention"]}
    t = [busy("ulx3s-twin", p) for p in ("dma", "sg4096", "sg512")]
    s = [busy("sim", p) for p in ("dma", "sg4096")]
    tr = bench_rows("ulx3s-twin")
    dma = tr[("SHA3-256", "dma", big)]
    f = {target: targets[target]["figures"] for target in targets}
    bulk = [f"| SHA-256, clocks/byte | {f['sim']['sha256_bulk_clocks_per_byte']:.3f} | "
            f"{f['ulx3s-twin']['sha256_bulk_clocks_per_byte']:.3f} |",
            f"| SHA-256, of the bare-metal DMA rate | **{f['sim']['sha256_bulk_vs_dma']:.1%}** | "
            f"**{f['ulx3s-twin']['sha256_bulk_vs_dma']:.1%}** |",
            f"| SHA3-256, clocks/byte | {f['sim']['sha3_256_bulk_clocks_per_byte']:.3f} | "
            f"{f['ulx3s-twin']['sha3_256_bulk_clocks_per_byte']:.3f} |",
            f"| SHA3-256, of the bare-metal DMA rate | {f['sim']['sha3_256_bulk_vs_dma']:.1%} | "
            f"{f['ulx3s-twin']['sha3_256_bulk_vs_dma']:.1%} |",
            f"97% is not met for SHA3-256 ({f['sim']['sha3_256_bulk_vs_dma']:.1%} / "
            f"{f['ulx3s-twin']['sha3_256_bulk_vs_dma']:.1%})",
            f"(1 clock/byte): {f['sim']['sha256_bulk_vs_dma']:.1%} / {f['ulx3s-twin']['sha256_bulk_vs_dma']:.1%}.",
            # the targets' table at the top of the performance part
            f"SHA3-256 ≤ 400 clocks | {f['sim']['sha256_short_55']} / {f['sim']['sha3_256_short_55']} | "
            f"{f['ulx3s-twin']['sha256_short_55']} / {f['ulx3s-twin']['sha3_256_short_55']} | met",
            f"DMA rate, SHA-256 | {f['sim']['sha256_bulk_vs_dma']:.1%} | {f['ulx3s-twin']['sha256_bulk_vs_dma']:.1%} | met",
            f"| the same, SHA3-256 | {f['sim']['sha3_256_bulk_vs_dma']:.1%} | "
            f"{f['ulx3s-twin']['sha3_256_bulk_vs_dma']:.1%} | not met |"]
    return [("docs/hash-syscall.md", b) for b in bulk] + [
        ("docs/hash-syscall.md", f"takes SHA3-256 {c[('SHA3-256', 'sg4096 reverse, CPU stores')]:,} clocks against "
                                 f"{c[('SHA3-256', 'sg4096 reverse')]:,} without them, SHA-256 "
                                 f"{c[('SHA-256', 'sg4096 reverse, CPU stores')]:,} against {c[('SHA-256', 'sg4096 reverse')]:,}."),
        ("docs/hash-syscall.md", f"(`dma` row {dma:,})"),
        ("docs/keccak.md", f"| the same on the ULX3S twin (its SDRAM) | "
                           f"{tr[('KMAC128', 'dma', big)]:,} / {tr[('KMAC256', 'dma', big)]:,} clocks = "
                           f"{f['ulx3s-twin']['kmac128_dma_bytes_per_clock']:.3f} / "
                           f"{f['ulx3s-twin']['kmac256_dma_bytes_per_clock']:.3f} B/clk; the core busy "
                           f"{f['ulx3s-twin']['kmac128_core_clocks_per_permutation']:.1f} / "
                           f"{f['ulx3s-twin']['kmac256_core_clocks_per_permutation']:.1f} |"),
        ("docs/driver-api.md", f"bytes: {f['sim']['sha3_256_short_55']:,} clocks (SHA3-256) and "
                               f"{f['sim']['sha256_short_55']:,} (SHA-256) on litex_sim, "
                               f"{f['ulx3s-twin']['sha3_256_short_55']:,} and {f['ulx3s-twin']['sha256_short_55']:,} on the twin,"),
        ("docs/integrity.md", f"ULX3S twin {tr[('HMAC-SHA-256', 'dma', 64)]:,} / {tr[('HMAC-SHA-256', 'sw', 64)]:,})"),
        ("docs/integrity.md", f"twin {tr[('HMAC-SHA-256', 'dma', big)]:,} / {tr[('HMAC-SHA-256', 'sw', big)]:,})"),
        ("docs/hash-syscall.md", f"raised the twin's to {big / dma:.3f};"),
        ("docs/hash-syscall.md", f"the twin's xv6 went 0.682 -> "
                                 f"{f['ulx3s-twin']['sha3_256_bulk_clocks_per_byte']:.3f} clocks/byte, 85.0% -> "
                                 f"{f['ulx3s-twin']['sha3_256_bulk_vs_dma']:.1%} of it."),
        ("docs/hash-syscall.md", f"`sg4096` row's core busy is {t[1]:,} against {t[0]:,} for `dma`, ~{(t[1] - t[0]) / 16:.0f} "
                                 f"clocks per 4 KiB piece with the final block fed by stores; {t[2]:,} for 128 pieces of "
                                 f"512 bytes, ~{(t[2] - t[0]) / 128:.0f} clocks per piece"),
        ("docs/hash-syscall.md", f"(core busy {s[1]:,} for `sg4096` against {s[0]:,})"),
    ] + arty_quotes(targets, bench)


def arty_quotes(targets, bench):
    """The Arty twin's figures docs/boards.md gives from docs/bench.json (bench: scripts/bench.py)."""
    f = targets["arty-twin"]["figures"]
    c = {(r["alg"], bench.contention_key(r)): r["clocks"] for r in targets["arty-twin"]["contention"]}
    per_piece = (c[("SHA3-256", "sg4096 reverse")] - c[("SHA3-256", "dma")]) / 16
    ar = bench_rows("arty-twin")
    big = 64 * 1024
    return [("docs/boards.md", f"SHA-256 takes {f['sha256_dma_clocks_per_byte']:.3f} clocks per byte (the engine's bound is "
                               f"1.0) and SHA3-256 {f['sha3_256_dma_bytes_per_clock']:.2f} bytes per clock"),
            ("docs/boards.md", f"takes ~{per_piece:.0f} clocks more per 4 KiB piece than one command"),
            ("docs/keccak.md", f"| the same on the Arty twin (its DDR3) | "
                               f"{ar[('KMAC128', 'dma', big)]:,} / {ar[('KMAC256', 'dma', big)]:,} clocks = "
                               f"{f['kmac128_dma_bytes_per_clock']:.3f} / {f['kmac256_dma_bytes_per_clock']:.3f} B/clk; "
                               f"the core busy {f['kmac128_core_clocks_per_permutation']:.1f} / "
                               f"{f['kmac256_core_clocks_per_permutation']:.1f} |")]


def serialboot_quotes(j):
    """(doc, text) pairs from a twin's serial boot figures (build/<board>-twin/serialboot.json)."""
    if j["board"] == "arty":
        return arty_serialboot_quotes(j)
    k, fs = j["bytes"]["kernel.bin"], j["full_fs"]
    bios, init = j["bios_clocks"], j["kernel_to_init_clocks"]
    row = r"\| [\d,]+ \+ [\d,]+ B \| [\d,]+ B \| "     # a row of the full-RAM-disk table, to its seconds
    s115 = secs(fs["reset_to_prompt_s_at_115200"], row + r"(\d+\.\d) s")
    s1m = secs(fs["reset_to_prompt_s_at_1000000"], row + r"[\d.]+ s \| \*\*(\d+\.\d) s")
    s115_untrimmed = secs(j["full_fs_untrimmed"]["reset_to_prompt_s_at_115200"], row + r"(\d+\.\d) s")
    bios_m = near_figure(bios / 1e6, r"(\d+\.\d\d) M clocks = ", 2, 0.001)
    bios_s = near_figure(bios / 60e6, r"\d+\.\d\d M clocks = (\d+\.\d\d) s", 2, 0.001)
    init_s = near_figure(init / 60e6, r"(?<![\d.])\d+\.\d M clocks = (\d+\.\d\d) s", 2)
    prompt_s = near_figure(fs["reset_to_prompt_s"], r"xv6 prompt in about (\d+) s", 0, doc="README.md")
    # Only the figure in the quoted sentence counts, not an older one elsewhere in the doc.

    def near(clocks, context):
        """The doc's figure after `context` if within 1% of `clocks`, else `clocks` itself."""
        for x in re.findall(context + r" ([\d,]+) clocks", " ".join(read("docs/boards.md").split())):
            if abs(int(x.replace(",", "")) - clocks) <= 0.01 * clocks:
                return x
        return f"{clocks:,}"

    def m(clocks, context):
        return near_millions(clocks, r"(?<![\d.])(\d+\.\d) M " + context) + " M"
    return [
        ("docs/boards.md", f"kernel {k:,} B + header {j['bytes']['kernel.hdr']} B = {j['wire_bytes']:,} B on the wire "
                           f"(the RAM disk, {j['bytes']['fs.img']:,} B, preloaded)" if j.get("fs_preloaded") else
                           f"kernel {k:,} B + header {j['bytes']['kernel.hdr']} B + fs {j['bytes']['fs.img']:,} B = "
                           f"{j['wire_bytes']:,} B on the wire"),
        # (its clocks move a little with where the SDRAM's refreshes fall after the upload)
        ("docs/boards.md", f"the ROM's check of the kernel {near(j['rom_check_clocks'], 'the ROM.s check of the kernel')} "
                           "clocks"),
        # (not the clocks from reset or the wall time: the upload's share depends on the host)
        ("docs/boards.md", f"{m(init, 'clocks from kernel entry to init')} clocks from kernel entry to init"),
        ("docs/boards.md", f"| {k:,} + {fs['fs_bytes']:,} B | {fs['wire_bytes']:,} B | "
                           f"{s115} s | **{s1m} s** |"),
        ("docs/boards.md", f"| {k:,} + 2,048,000 B | {j['full_fs_untrimmed']['wire_bytes']:,} B | "
                           f"{s115_untrimmed} s"),
        ("docs/boards.md", f"{bios_m} M clocks = {bios_s} s"),
        ("docs/boards.md", f"{m(init, 'clocks = ')}\nclocks = {init_s} s"),
        ("docs/boards.md", f"kernel.bin to 0x40000000 ({k} bytes)"),
        ("docs/boards.md", f"fs.img to 0x40200000 ({fs['fs_bytes']} bytes)"),
        ("README.md", f"reaches the xv6 prompt in about {prompt_s} s"),
    ]


def near_figure(value, pattern, digits=1, rel=0.01, doc="docs/boards.md"):
    """A figure measured on a twin moves between runs: kernel entry to init by ~1% (where the
    timer's first tick falls after the upload), the BIOS's clocks by ~0.05% (litex_term's
    answer to the boot request comes when the host gets to it), and the seconds computed
    from them with them. The figure in `doc` that `pattern` (one group: a decimal with
    `digits` places) finds stands while it is within `rel` of `value` beyond its own
    rounding (a run of 8,389,795 clocks keeps a doc's 8.3 M, written from a run of
    8,342,971; a run of 61.86 M BIOS clocks keeps 61.84); else this run's figure, rounded
    the same way."""
    half = 0.5 * 10 ** -digits
    for x in re.findall(pattern, " ".join(read(doc).split())):
        if abs(float(x) - value) <= rel * abs(value) + half + 1e-9:
            return x
    return f"{value:.{digits}f}"


def near_millions(clocks, pattern):
    """Clocks in millions, one decimal, as near_figure."""
    return near_figure(clocks / 1e6, pattern)


def secs(value, pattern):
    """Seconds computed from a twin's clocks and the wire, one decimal, as near_figure."""
    return near_figure(value, pattern, 1, 0.005)


def arty_serialboot_quotes(j):
    """The Arty's serial boot figures in docs/boards.md: one table row (its own section)."""
    from boards.arty import DEFAULT_SYS_CLK
    k, fs = j["bytes"]["kernel.bin"], j["full_fs"]
    row = r"\| Arty A7 [^|]*\| "
    bios = near_figure(j["bios_clocks"] / 1e6, row + r"(\d+\.\d\d) M \|", 2, 0.001)
    init = near_millions(j["kernel_to_init_clocks"], row + r"[\d.]+ M \| (\d+\.\d) M \|")
    wire = row + r"(?:[^|]*\| ){4}"          # the row to its seconds at 115200 baud
    s115 = secs(fs["reset_to_prompt_s_at_115200"], wire + r"(\d+\.\d) s \|")
    s1m = secs(fs["reset_to_prompt_s_at_1000000"], wire + r"[\d.]+ s \| \*\*(\d+\.\d) s")
    return [("docs/boards.md",
             f"| Arty A7 at {DEFAULT_SYS_CLK / 1e6:g} MHz | {bios} M | {init} M | {k:,} + {fs['fs_bytes']:,} B | "
             f"{fs['wire_bytes']:,} B | {s115} s | **{s1m} s** |")]


def marked_block(doc, mark):
    """The code block `doc` quotes between its <!-- mark --> and <!-- /mark --> comments, as
    lines, without the fence's own indentation (a block inside a list item is indented)."""
    m = re.search(rf"<!-- {mark} -->\n( *)```\n(.*?) *```\n *<!-- /{mark} -->", read(doc), re.S)
    assert m, f"{doc} lost its {mark} block"
    return [line.removeprefix(m.group(1)) for line in m.group(2).splitlines()]


def arty_console_block():
    """The Arty console docs/boards.md quotes (the walk's expected console), as lines."""
    return marked_block("docs/boards.md", "arty-console")


def ulx3s_console_soc_lines():
    """The SoC lines of the ULX3S console docs/boards.md quotes (from its SoC header to its
    Initialization header): the rest of that block has placeholders ("........") where a
    figure depends on the build."""
    block = marked_block("docs/boards.md", "ulx3s-console")
    start = next(i for i, line in enumerate(block) if "== SoC ==" in line)
    end = next(i for i, line in enumerate(block) if "== Initialization ==" in line)
    return [line for line in block[start:end + 1] if "...." not in line]


def stands(text, body):
    """The quote is in the doc, as typed or with its line breaks and spaces anywhere."""
    return text in body or " ".join(text.split()) in " ".join(body.split())


def check_quotes(quotes):
    bad = []
    for doc, text in quotes:
        body = read(doc)
        if stands(text, body):
            continue
        bad.append(f"{doc}:{nearest_line(body, text)}: the JSON says {text!r}")
    return bad


def nearest_line(body, text):
    """The number of the doc line that shares the most words and figures with text (where it
    drifted): a figure that stayed (6.9 in "6.9 M clocks = 0.12 s") finds its sentence
    among the many lines that say "clocks"."""
    token = r"[A-Za-z][\w-]+|\d[\d.,]*"
    words = set(re.findall(token, text))
    lines = body.splitlines()
    score = [len(words & set(re.findall(token, line))) for line in lines]
    return score.index(max(score)) + 1


NUMBER = r"\d[\d.,]*\d|\d"


def fix_quotes(quotes, root=ROOT):
    """Bring drifted quotes in line: each quote check_quotes would name is looked for in its
    doc by its words alone (figures free, any whitespace between words), and where exactly
    one passage matches, only its figures are replaced by the JSON's. Returns the quotes
    left as they were (none or several passages matched: fix those by hand). `root`: the tree
    whose docs are read and written."""
    left = []
    for doc, text in quotes:
        with open(os.path.join(root, doc), encoding="utf-8") as f:
            body = f.read()
        if stands(text, body):
            continue
        parts = re.split(f"({NUMBER})", text)
        pattern = "".join(f"({NUMBER})" if i % 2 else r"\s+".join(re.escape(w) for w in part.split(" "))
                          for i, part in enumerate(parts))
        found = list(re.finditer(pattern, body))
        if len(found) != 1:
            left.append((doc, text, len(found)))
            continue
        m, figures = found[0], parts[1::2]
        pieces, at = [], m.start()
        for group, figure in enumerate(figures, 1):
            pieces += [body[at:m.start(group)], figure]
            at = m.end(group)
        body = body[:m.start()] + "".join(pieces) + body[at:]
        with open(os.path.join(root, doc), "w", encoding="utf-8") as f:
            f.write(body)
    return left


def main(argv=None):
    """.venv/bin/python tests/docquotes.py [--fix] [--serialboot JSON ...]: after `make
    bench` (and a twin's serial boot), list the docs' quotes that differ from the JSONs, or
    with --fix put the JSONs' figures into the sentences that quote them."""
    import argparse
    p = argparse.ArgumentParser(description=main.__doc__)
    p.add_argument("--fix", action="store_true", help="rewrite the drifted figures (else only list them)")
    p.add_argument("--serialboot", nargs="*", default=[], metavar="JSON",
                   help="a twin's serialboot.json (build/<board>-twin/serialboot.json)")
    args = p.parse_args(argv)
    quotes = bench_quotes() + twin_quotes() + sha512_quotes()
    for path in args.serialboot:
        with open(path) as f:
            quotes += serialboot_quotes(json.load(f))
    if not args.fix:
        bad = check_quotes(quotes)
        print("\n".join(bad) or "every quote stands")
        return 1 if bad else 0
    left = fix_quotes(quotes)
    for doc, text, n in left:
        print(f"{doc}: {n} passages match {text!r}: fix it by hand")
    return 1 if left else 0


if __name__ == "__main__":
    raise SystemExit(main())
