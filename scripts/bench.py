#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Benchmark HashSoC on the simulator and the board twins; write docs/bench.{json,md,png}.

    python scripts/bench.py                      (make bench: every target, two at a time)
    python scripts/bench.py --targets arty-twin  (these again; the others kept from bench.json)
    python scripts/bench.py --only-render        (the docs again from docs/bench.json)
    python scripts/bench.py --with-engines       (the twins built with every engine: the figures of
                                                  the engines a board leaves out, marked in the table)

Runs the firmware's full benchmark (every algorithm; software, PIO and DMA; 0 B to 64 KiB)
on each target (two at once, one per core) and derives the headline figures side by side.
All numbers are clocks of the simulated SoC (exact); a twin's are its board's, memory path
included. Ratios come from one run of one target; each target's column says when and at
which commit it ran.
"""

import json
import os
import platform
import re
import sys
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, TOP)

from boards import DEFAULT_ENGINES, targets  # noqa: E402
from gateware import hashspec  # noqa: E402
from scripts import xv6run  # noqa: E402
from soc.runfw import run_firmware  # noqa: E402

DOCS = os.path.join(TOP, "docs")
RATE = {a.title: a.block for a in hashspec.ALGORITHMS}   # block or rate, bytes
BUS_BYTES_PER_CLOCK = 2.0   # one 32-bit word every 2 clocks from LiteX's on-chip RAM


def parse(console):
    """(B rows, the timer's cost, L rows as {what: clocks})."""
    rows, latency = [], {}
    for line in console.splitlines():
        f = line.split()
        if len(f) == 6 and f[0] == "B" and f[1] != "timer":
            rows.append({"alg": f[1], "path": f[2], "bytes": int(f[3]), "clocks": int(f[4]),
                         "core_busy": int(f[5])})
        elif len(f) == 6 and f[0] == "B":
            timer = int(f[4])
        elif len(f) == 3 and f[0] == "L":
            latency[f[1]] = int(f[2])
    return rows, timer, latency


def by_run(rows):
    """The rows of a run by (algorithm, path, bytes): each benchmark line is one of these."""
    return {(r["alg"], r["path"], r["bytes"]): r for r in rows}


def blocks(alg, n):
    """Blocks the engine processes for an n-byte message (padding included)."""
    a = hashspec.algorithm(alg)
    if a.engine == "keccak":
        return n // a.block + 1
    length_bytes = a.block // 8     # SHA-2: the 0x80 marker and a 64- or 128-bit length
    return (n + 1 + length_bytes + a.block - 1) // a.block


def kmac_permutations(sponge, n, keylen=32):
    """Keccak-f permutations of bench_kmac's KMAC of n bytes on `sponge`'s rate: the
    prefix block (bytepad(encode_string("KMAC") || encode_string(""), rate): one block),
    the key block (one, for a key of up to rate - 5 bytes), then the message with
    right_encode(L) (3 bytes for L = 256 or 512 bits) and at least one byte of padding.
    The digest (32 or 64 bytes) fits in the last block's squeeze."""
    rate = hashspec.algorithm(sponge).block
    assert keylen <= rate - 5
    return 2 + (n + 3) // rate + 1


def sha512_figures(rows):
    """SHA-512's headline figures where the SoC has its engine (litex_sim and the ULX3S by
    default, boards/__init__.py; the Arty's twin built with every engine: --with-engines)."""
    get = by_run(rows)
    big = 65536
    s5 = get.get(("SHA-512", "dma", big))
    if not s5:
        return {}
    nb = blocks("SHA-512", big)
    sw = get[("SHA-512", "sw", 4096)]
    return {"sha512_core_clocks_per_block": s5["core_busy"] / nb, "sha512_dma_bytes_per_clock": big / s5["clocks"],
            "sha512_dma_speedup_4k": sw["clocks"] / get[("SHA-512", "dma", 4096)]["clocks"]}


def derive(rows):
    get = by_run(rows)
    big = 65536
    out = {}
    sha = get[("SHA-256", "dma", big)]
    nb = blocks("SHA-256", big)
    out["sha256_core_clocks_per_block"] = sha["core_busy"] / nb
    out["sha256_dma_clocks_per_byte"] = sha["clocks"] / big
    out["sha256_dma_vs_engine_rate"] = 64 * nb / sha["clocks"]
    out["sha256_pio_clocks_per_byte"] = get[("SHA-256", "pio", big)]["clocks"] / big
    out["sha256_sw_clocks_per_byte"] = get[("SHA-256", "sw", big)]["clocks"] / big
    out["sha256_dma_speedup_64k"] = get[("SHA-256", "sw", big)]["clocks"] / sha["clocks"]
    k = get[("SHA3-256", "dma", big)]
    # The core streams a block in max(24, words) clocks (it absorbs while permuting).
    engine_rate = RATE["SHA3-256"] / max(24, RATE["SHA3-256"] // 4)
    bound = min(engine_rate, BUS_BYTES_PER_CLOCK)
    out["sha3_256_dma_bytes_per_clock"] = big / k["clocks"]
    out["sha3_256_dma_fraction_of_bound"] = big / k["clocks"] / bound
    # HMAC-SHA-256 (hash_hmac, 20-byte key): software against the engine (DMA).
    for n in (64, big):
        sw, hw = get[("HMAC-SHA-256", "sw", n)]["clocks"], get[("HMAC-SHA-256", "dma", n)]["clocks"]
        out[f"hmac_sha256_{n}_sw"], out[f"hmac_sha256_{n}_dma"] = sw, hw
        out[f"hmac_sha256_{n}_speedup"] = sw / hw
    out.update(sha512_figures(rows))
    # KMAC128/256 (bench_kmac: a 32-byte key, no customization) on the engine by DMA.
    for sponge, bits in (("SHAKE128", 128), ("SHAKE256", 256)):
        km = get.get((f"KMAC{bits}", "dma", big))
        if km:
            out[f"kmac{bits}_core_clocks_per_permutation"] = km["core_busy"] / kmac_permutations(sponge, big)
            out[f"kmac{bits}_dma_bytes_per_clock"] = big / km["clocks"]
    for alg in ("SHA3-256", "SHA3-512", "SHA-512"):
        key = ("%s" % alg, "sw", big)
        src = get.get(key) or get[(alg, "sw", 1024)]
        out[f"{hashspec.algorithm(alg).name.replace('-', '_')}_sw_clocks_per_byte"] = src["clocks"] / src["bytes"]
    return out


def table(rows):
    lines = ["| algorithm | path | bytes | clocks | clocks/byte | core busy clocks |",
             "|---|---|---:|---:|---:|---:|"]
    for r in rows:
        cpb = f"{r['clocks'] / r['bytes']:.2f}" if r["bytes"] else "-"
        lines.append(f"| {r['alg']} | {r['path']} | {r['bytes']} | {r['clocks']} | {cpb} | "
                     f"{r['core_busy'] if r['path'] != 'sw' else '-'} |")
    return "\n".join(lines)


# Every simulated target (boards/targets.py), in the tables' column order: (label, plot line).
TARGETS = {name: (t.label, ls) for (name, t), ls in zip(targets.TARGETS.items(), ("-", "--", ":", "-."))}


def plot(results, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.4))
    for ax, alg in zip(axes, ("SHA-256", "SHA3-256")):
        for target, (_, ls) in TARGETS.items():
            if target not in results:
                continue
            rows = results[target]["rows"]
            for p, marker in (("sw", "o"), ("pio", "s"), ("dma", "^")):
                pts = sorted((r["bytes"], r["clocks"]) for r in rows
                             if r["alg"] == alg and r["path"] == p and r["bytes"] > 0)
                if pts:
                    ax.loglog([x for x, _ in pts], [y for _, y in pts], marker + ls, label=f"{p}, {target}")
        ax.set_title(f"{alg} on HashSoC")
        ax.set_xlabel("message bytes")
        ax.set_ylabel("clocks (one-shot digest, driver included)")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


HEADLINES = [
    # (key, label, format, target)
    ("sha256_core_clocks_per_block", "SHA-256 compression, clocks per 64-byte block (core busy / blocks, 64 KiB)", "{:.2f}", "64"),
    ("sha256_dma_clocks_per_byte", "SHA-256 DMA, 64 KiB: clocks per byte", "{:.3f}", "≤ 1.05 (engine bound 1.0)"),
    ("sha256_dma_vs_engine_rate", "SHA-256 DMA, 64 KiB: engine bound (64 clk/block) / measured", "{:.1%}", "≥ 95%"),
    ("sha256_dma_latency_64", "SHA-256 DMA, one block (64 bytes): clocks, driver included", "{:.0f}", ""),
    ("sha256_pio_clocks_per_byte", "SHA-256 PIO, 64 KiB: clocks per byte", "{:.2f}", ""),
    ("sha256_sw_clocks_per_byte", "SHA-256 software -O2, 64 KiB: clocks per byte", "{:.1f}", "≤ 84-86 (plain C on this core)"),
    ("sha256_dma_speedup_64k", "SHA-256 DMA speed-up over software, 64 KiB", "{:.0f}x", ""),
    ("sha3_256_dma_bytes_per_clock", "SHA3-256 DMA, 64 KiB: bytes per clock", "{:.3f}", "≥ 1.5 (twin), engine 4.0, SDRAM 2.0"),
    ("sha3_256_dma_latency_64", "SHA3-256 DMA, 64 bytes: clocks, driver included", "{:.0f}", ""),
    ("sha3_256_sw_clocks_per_byte", "SHA3-256 software -O2: clocks per byte", "{:.1f}", "≤ 130"),
    ("sha3_512_sw_clocks_per_byte", "SHA3-512 software -O2: clocks per byte", "{:.1f}", ""),
    ("sha512_core_clocks_per_block", "SHA-512 compression, clocks per 128-byte block (core busy / blocks, 64 KiB)", "{:.2f}", "≤ 82"),
    ("sha512_dma_bytes_per_clock", "SHA-512 DMA, 64 KiB: bytes per clock", "{:.3f}", "engine 1.6"),
    ("sha512_sw_clocks_per_byte", "SHA-512 software -O2: clocks per byte", "{:.1f}", ""),
    ("sha512_dma_speedup_4k", "SHA-512 DMA speed-up over software, 4 KiB", "{:.0f}x", ""),
    ("kmac128_core_clocks_per_permutation", "KMAC128 (32-byte key), 64 KiB by DMA: core busy clocks per Keccak-f permutation (prefix and key blocks counted; busy includes absorbing a block's words as they come)", "{:.2f}", "24 rounds + the block's words"),
    ("kmac128_dma_bytes_per_clock", "KMAC128, 64 KiB by DMA: bytes per clock", "{:.3f}", ""),
    ("kmac256_core_clocks_per_permutation", "KMAC256, 64 KiB by DMA: core busy clocks per permutation", "{:.2f}", "24 rounds + the block's words"),
    ("kmac256_dma_bytes_per_clock", "KMAC256, 64 KiB by DMA: bytes per clock", "{:.3f}", ""),
    ("sha256_bulk_clocks_per_byte", "SHA-256, xv6 `hash()` of 1 MiB on the engine (scattered pages): clocks per byte", "{:.3f}", ""),
    ("sha256_bulk_vs_dma", "SHA-256, xv6 `hash()` of 1 MiB: rate / bare-metal 64 KiB DMA rate", "{:.1%}", "≥ 97%"),
    ("sha3_256_bulk_clocks_per_byte", "SHA3-256, xv6 `hash()` of 1 MiB on the engine: clocks per byte", "{:.3f}", ""),
    ("sha3_256_bulk_vs_dma", "SHA3-256, xv6 `hash()` of 1 MiB: rate / bare-metal 64 KiB DMA rate", "{:.1%}", "≥ 97%"),
    ("sha256_xv6_hw_vs_user_min", "SHA-256, xv6 `hash()` on the engine against user-space software, 0-256 bytes: the smallest speed-up", "{:.1f}x", "> 1 at every size"),
    ("sha3_256_xv6_hw_vs_user_min", "SHA3-256, the same", "{:.1f}x", "> 1 at every size"),
    ("hmac_sha256_64_sw", "HMAC-SHA-256, 64 bytes, software: clocks (`hash_hmac()`)", "{:,.0f}", ""),
    ("hmac_sha256_64_dma", "HMAC-SHA-256, 64 bytes, engine: clocks (`hash_hmac()`, `HASH_F_DMA`)", "{:,.0f}", ""),
    ("hmac_sha256_64_speedup", "HMAC-SHA-256, 64 bytes: engine speed-up over software", "{:.1f}x", ""),
    ("hmac_sha256_65536_sw", "HMAC-SHA-256, 64 KiB, software: clocks", "{:,.0f}", ""),
    ("hmac_sha256_65536_dma", "HMAC-SHA-256, 64 KiB, engine: clocks", "{:,.0f}", ""),
    ("hmac_sha256_65536_speedup", "HMAC-SHA-256, 64 KiB: engine speed-up over software", "{:.0f}x", ""),
    ("sha256_short_55", "SHA-256, 55 bytes (one block), warm: clocks through `hash_digest()` (short path)", "{:.0f}", "≤ 400"),
    ("sha3_256_short_55", "SHA3-256, 55 bytes, warm: clocks through `hash_digest()` (short path)", "{:.0f}", "≤ 400"),
]

# The latency table (docs/bench.md): (L row, what it is). Raw accesses are per access.
LATENCY = [
    ("timer", "reading the 64-bit timer (taken off every row below)"),
    ("csr_read", "one CSR read (an engine's `status`)"),
    ("csr_write", "one CSR write (posted)"),
    ("window_read", "one read of the engine's context window (digest word)"),
    ("window_write", "one write to the context window (posted)"),
    ("window_data_write", "one data word into an open message"),
    ("ram_read_hit", "one main-RAM read, D-cache hit"),
    ("ram_write", "one main-RAM write (write-through)"),
] + [(f"digest_{alg}_{path}_{n}", f"{alg}, {n} bytes, {what}")
     for alg in ("SHA-256", "SHA3-256")
     for path, what in (("auto", "the driver's choice (short path)"), ("pio", "`HASH_F_PIO`"),
                        ("dma", "`HASH_F_DMA`: a DMA command"), ("sw", "software"))
     for n in (0, 5, 55)] + [
    (f"cold_{alg}_{path}_5", f"{alg}, 5 bytes, {path}, both caches flushed first")
    for alg in ("SHA-256", "SHA3-256") for path in ("auto", "dma", "sw")]


def header(first, results, fmt="{}", last=()):
    names = [fmt.format(TARGETS[t][0]) for t in results]
    return [f"| {first} | " + " | ".join(names + list(last)) + " |",
            "|---|" + "---:|" * len(names) + "---|" * len(last)]


def latency_table(results):
    lines = header("what", results)
    for key, what in LATENCY:
        lines.append(f"| {what} | " + " | ".join(f"{r['latency'][key]:,}" for r in results.values()) + " |")
    return "\n".join(lines)


BULK = 1 << 20      # bytes of one hash() in xv6 (hashbench -M)
BULK_ALGS = ("sha256", "sha3-256")


def bulk(target):
    """xv6 on the target, one boot: one hash() of 1 MiB of sbrk'd pages (scattered in RAM)
    on the engine, per algorithm ({alg: clocks}); and hashbench's crossover table (-x: user-
    space software, the system call in software, the system call on the engine, 0 to 256
    bytes; {alg: [(bytes, user sw, syscall sw, syscall hw)]})."""
    import re
    import subprocess
    from gateware.buildstamp import locked
    args = targets.target(target).xv6_make_args()
    with locked("os-port"):     # the SoCs are built by run_firmware before this
        subprocess.run(["make", "-s", "-C", os.path.join(TOP, "os-port"), *args],
                       check=True, stdout=subprocess.DEVNULL)
    cmds = [f"hashbench -a {a} -M {BULK}" for a in BULK_ALGS] + [f"hashbench -a {a} -x -n 3" for a in BULK_ALGS]
    _, out, _ = xv6run.session(cmds, "litex", timeout=3000, boot_timeout=1200, extra=["--target", target])
    got = {}
    for a in BULK_ALGS:
        title = hashspec.algorithm(a).title
        m = re.search(rf"^{re.escape(title)}: one hash\(\) of {BULK} bytes on hw: (\d+) ticks", out, re.M)
        if not m:
            raise SystemExit(f"bench: no 1 MiB hash() figure for {a} on {target}:\n{out[-2000:]}")
        got[a] = int(m.group(1))
    cross = {}
    for a in BULK_ALGS:
        title = hashspec.algorithm(a).title
        block = out[out.index(f"{title} crossover"):] if f"{title} crossover" in out else ""
        rows = re.findall(r"^\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)$", block.split("\n$ ")[0], re.M)
        if not rows:
            raise SystemExit(f"bench: no crossover table for {a} on {target}:\n{out[-2000:]}")
        cross[a] = [tuple(map(int, r)) for r in rows]
    return got, cross


ORDERS = {0: "reverse", 1: "forward", 2: "scattered"}
CPU_LOAD = {0: "idle", 1: "reads", 2: "stores"}


def parse_contention(console):
    """firmware/baremetal/dmacontend.c's X rows: 64 KiB in one DMA command or as a list of
    pieces, with the CPU idle, reading or storing elsewhere meanwhile."""
    rows = []
    for line in console.splitlines():
        f = line.split()
        if not f or f[0] != "X":
            continue
        if len(f) != 10 or f[-1] != "ok":
            raise SystemExit(f"bench: dmacontend row failed: {line}")
        kv = dict(x.split("=", 1) for x in f[3:-1])
        rows.append({"alg": f[1], "how": f[2], "piece": int(kv["piece"]), "order": int(kv["order"]),
                     "cpu": int(kv["cpu"]), "clocks": int(kv["clocks"]), "core_busy": int(kv["busy"]),
                     "submit": int(kv["submit"])})
    return rows


def contention_key(r):
    """A dmacontend row's name in docs/bench.md: `dma`, or e.g. `sg4096 reverse, CPU stores`."""
    if r["how"] == "dma":
        return "dma"
    return f"sg{r['piece']} {ORDERS[r['order']]}" + (f", CPU {CPU_LOAD[r['cpu']]}" if r["cpu"] else "")


def contention_table(results):
    cols = [f"clocks, {TARGETS[t][0]} | core busy, {TARGETS[t][0]}" for t in results]
    lines = ["| algorithm | 64 KiB as | " + " | ".join(cols) + " |", "|---|---|" + "---:|---:|" * len(cols)]
    keyed = [{(r["alg"], contention_key(r)): r for r in res["contention"]} for res in results.values()]
    for r in next(iter(results.values()))["contention"]:
        k = (r["alg"], contention_key(r))
        lines.append(f"| {r['alg']} | {contention_key(r)} | "
                     + " | ".join(f"{t[k]['clocks']:,} | {t[k]['core_busy']:,}" for t in keyed) + " |")
    return "\n".join(lines)


def selftest_passed(console, where):
    """The firmware's self-test count from its console; a run whose self-test failed (or
    did not finish) gives no figures."""
    m = re.search(r"SELFTEST (\d+) passed, (\d+) failed", console)
    if not m or m.group(2) != "0":
        raise SystemExit(f"bench: the self-test on {where} did not pass: {m and m.group(0)}")
    return int(m.group(1))


def run_target(target, results):
    t0 = time.time()
    console = run_firmware("main", "full", timeout=5400, target=target)
    contention = parse_contention(run_firmware("dmacontend", "quick", timeout=1800, target=target))
    clocks, cross = bulk(target)
    rows, timer, latency = parse(console)
    passed = selftest_passed(console, target)
    get = by_run(rows)
    figures = derive(rows)
    figures["sha256_dma_latency_64"] = get[("SHA-256", "dma", 64)]["clocks"]
    figures["sha3_256_dma_latency_64"] = get[("SHA3-256", "dma", 64)]["clocks"]
    figures["sha256_short_55"] = latency["digest_SHA-256_auto_55"]
    figures["sha3_256_short_55"] = latency["digest_SHA3-256_auto_55"]
    # hash() of 1 MiB in xv6 against the bare-metal DMA of 64 KiB in one command, as rates.
    for a in BULK_ALGS:
        key = a.replace("-", "_")
        dma = get[(hashspec.algorithm(a).title, "dma", 65536)]["clocks"] / 65536
        figures[f"{key}_bulk_clocks_per_byte"] = clocks[a] / BULK
        figures[f"{key}_bulk_vs_dma"] = dma / (clocks[a] / BULK)
    # xv6's hash() on the engine against user-space software from 0 bytes: the smallest
    # speed-up over the sizes (ticks of the time CSR, which counts clocks on every target).
    for a in BULK_ALGS:
        figures[f"{a.replace('-', '_')}_xv6_hw_vs_user_min"] = min(u / h for _, u, _, h in cross[a] if h)
    results[target] = {"crossover": cross, "figures": figures, "rows": rows, "timer_read_clocks": timer, "latency": latency,
                       "contention": contention, "selftest_passed": passed,
                       "wall_seconds": round(time.time() - t0)}


# Engines a board leaves out by default run on its twin built with every engine
# (`--with-engines`): their headline figures fill the twin's empty cells, marked.
EVERY_ENGINE = tuple(DEFAULT_ENGINES["sim"])


def leaves_an_engine_out(t):
    """A twin whose board's default build has fewer engines than EVERY_ENGINE."""
    return bool(t.board) and tuple(t.engines) != EVERY_ENGINE


def with_every_engine(data):
    """bench.json's runs on twins built with every engine that still fill a cell: those whose
    figures the twin's own row lacks (a board that gained the engine, once benchmarked
    again, has them in its own row)."""
    own = data.get("targets", {})
    return {t: r for t, r in data.get("with_every_engine", {}).items()
            if not set(r["figures"]) <= set(own.get(t, {}).get("figures", {}))}


def run_with_every_engine(target, results):
    """The firmware (self-test, quick benchmark) on `target`'s twin built with EVERY_ENGINE:
    its self-test must pass (the engines the board leaves out, checked on its memory path)."""
    t = targets.TwinTarget(targets.target(target).board, EVERY_ENGINE)
    t0 = time.time()
    console = run_firmware("main", "quick", timeout=5400, target=t.name)
    with open(os.path.join(TOP, "build", "logs", f"{t.name}-bench-console.log"), "w") as f:
        f.write(console)            # kept: the run takes 20-30 minutes
    passed = selftest_passed(console, t.name)
    rows, _, _ = parse(console)
    results[target] = {"twin": t.name, "engines": list(EVERY_ENGINE), "selftest_passed": passed,
                       "figures": sha512_figures(rows), "rows": rows, "wall_seconds": round(time.time() - t0)}


def commit():
    import subprocess
    r = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=TOP, capture_output=True, text=True)
    return r.stdout.strip() or "unknown"


def main(argv):
    import argparse
    from concurrent.futures import ThreadPoolExecutor
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--targets", default=",".join(TARGETS),
                    help="comma list of targets to run (the others are kept from docs/bench.json)")
    ap.add_argument("--only-render", action="store_true", help="the docs again from docs/bench.json")
    ap.add_argument("--with-engines", action="store_true",
                    help="instead: the twins whose board leaves an engine out, built with every engine "
                         "(self-test and quick benchmark); their figures fill the twins' empty headline cells")
    args = ap.parse_args(argv)
    path = os.path.join(DOCS, "bench.json")
    if args.only_render:
        with open(path) as f:
            return write_docs(json.load(f))
    want = args.targets.split(",")
    bad = [t for t in want if t not in TARGETS]
    if bad:
        raise SystemExit(f"bench: no target {', '.join(bad)} (targets: {', '.join(TARGETS)})")
    if args.with_engines:
        want = [t for t in want if leaves_an_engine_out(targets.target(t))]
    t0, at = time.time(), commit()     # the tree the run builds, not the one it ends in
    results = {}
    # One simulation per core.
    with ThreadPoolExecutor(max_workers=2) as pool:
        list(pool.map(lambda t: (run_with_every_engine if args.with_engines else run_target)(t, results), want))
    missing = [t for t in want if t not in results]
    if missing:
        raise SystemExit(f"bench: no results for {', '.join(missing)}")
    machine = f"{platform.node()} ({platform.processor() or platform.machine()}, {os.cpu_count()} cores)"
    for r in results.values():
        r.update({"machine": machine, "date": time.strftime("%Y-%m-%d"), "commit": at,
                  "run_with": want, "run_wall_seconds": round(time.time() - t0)})
    old = {}
    if os.path.exists(path):
        with open(path) as f:
            old = json.load(f)
    section = "with_every_engine" if args.with_engines else "targets"
    kept = old.get(section, {})
    merged = {t: results.get(t) or kept[t] for t in TARGETS if t in results or t in kept}
    os.makedirs(DOCS, exist_ok=True)
    data = {**old, section: merged}
    if "with_every_engine" in data:
        data["with_every_engine"] = with_every_engine(data)
    with open(path, "w") as f:
        json.dump(data, f, indent=1)
    write_docs(data)


def write_docs(data):
    """docs/bench.md and docs/bench.png from what docs/bench.json holds."""
    plot({t: data["targets"][t] for t in TARGETS if t in data["targets"]}, os.path.join(DOCS, "bench.png"))
    with open(os.path.join(DOCS, "bench.md"), "w") as f:
        f.write(render(data))
    print("wrote docs/bench.md, docs/bench.json, docs/bench.png; the prose that quotes them: "
          ".venv/bin/python tests/docquotes.py lists what drifted, --fix rewrites it")


def render(data):
    """docs/bench.md's text from docs/bench.json's data (tests/test_docs.py compares)."""
    from boards.arty import L2_SIZE as ARTY_L2
    from boards.ulx3s import L2_SIZE
    results = {t: data["targets"][t] for t in TARGETS if t in data["targets"]}
    every = with_every_engine(data)
    head = header("figure", results, last=("target",))

    def cell(t, r, key, fmt):
        if key in r["figures"]:
            return fmt.format(r["figures"][key])
        if key in every.get(t, {}).get("figures", {}):
            return fmt.format(every[t]["figures"][key]) + " †"
        return "-"
    for key, label, fmt, want in HEADLINES:
        head.append(f"| {label} | " + " | ".join(cell(t, r, key, fmt) for t, r in results.items()) + f" | {want} |")
    if every:
        head += ["", "† On the twin built with every engine, for an engine its board left out by default "
                 + "when the run was made (`--engines` of the board scripts), `scripts/bench.py --with-engines`: "
                 + "; ".join(f"{every[t]['twin']}, {every[t]['date']}, commit {every[t]['commit']}, self-test "
                             f"{every[t]['selftest_passed']} passed, {every[t]['wall_seconds']} s"
                             for t in TARGETS if t in every) + "."]
    timer = ", ".join(f"{r['timer_read_clocks']} clocks on {TARGETS[t][0]}" for t, r in results.items())
    runs = "\n".join(f"- {TARGETS[t][0]}: {r.get('date', 'before 2026-11-28')}, commit {r.get('commit', '-')}, "
                     f"{r['wall_seconds']} s of wall time (run with {', '.join(r.get('run_with', ['sim', 'ulx3s-twin']))}, "
                     f"two at a time) on {r.get('machine', data.get('machine'))}" for t, r in results.items())
    rows = "\n\n".join(f"## All rows: {TARGETS[t][0]}\n\n{table(r['rows'])}" for t, r in results.items())
    md = f"""# Benchmark results

Written by `make bench` (scripts/bench.py): the firmware's full benchmark on each target,
two at a time:
- **sim**: litex_sim with on-chip main RAM that answers every bus word in one clock
  (soc/sim.py). What the engines and the software can do when memory is free.
- **ULX3S twin**: the ULX3S's own SoC with its memory path (LiteDRAM, MT48LC16M16 16-bit
  SDR SDRAM at 60 MHz, {L2_SIZE // 1024} KiB write-through L2, the engines on their own LiteDRAM ports) in
  Verilator (boards/twin.py, docs/boards.md).
- **Arty twin**: the Arty A7's own SoC with its memory path (LiteDRAM, MT41K128M16 16-bit
  DDR3 at 1:4 behind a model of the A7DDRPHY, 100 MHz, {ARTY_L2 // 1024} KiB write-through L2, the
  engines on their own 128-bit LiteDRAM ports). **The twins' figures are the ones that hold
  on the boards.**

Clocks are simulated system clocks, read from the CPU's 64-bit machine timer (a timer read
costs {timer}; not subtracted).
Each row is one `hash_digest()` call, driver included: `sw` = the portable C code at -O2 on
VexRiscv; `pio` = the accelerator fed by CPU stores (`HASH_F_PIO`: messages of up to
`HASH_SHORT_MAX` = 128 bytes take the driver's short path); `dma` = the accelerator reading
main RAM itself (`HASH_F_DMA`); `dmahot` = the same 4 KiB a second time (main RAM's L2
holds it); `sg4096`/`sg512` = 64 KiB as pieces of 4096/512 bytes in reverse address order
through `hash_update_segs` (scatter-gather descriptor lists, the engine walking them).
HMAC-SHA-256 rows are one `hash_hmac()` (a 20-byte key); KMAC128/KMAC256 rows are
`hash_kmac_begin()` (a 32-byte key, no customization), `hash_update()`, `hash_final()`.
Core busy = clocks the engine's core was busy (its `busy_cycles` register). The "1 MiB"
headlines are one `hash()` system call in xv6 (`hashbench -M`) on a buffer of sbrk'd
pages, against the bare-metal `dma` row of 64 KiB.

The runs:
{runs}

## Headline figures

{chr(10).join(head)}

![clocks against message size: sim (solid), ULX3S twin (dashed), Arty twin (dotted)](bench.png)

## Latency: where the clocks of a short digest go

Each figure is the smallest of 6 runs (warm: code and data in the caches), the timer's
cost taken off; "cold" rows flush both caches first (firmware/baremetal/bench.c,
`latency()`). The short path (`HASH_SHORT_MAX`, docs/driver-api.md) is what a one-shot
hardware digest of up to 128 bytes takes by default: one `ctrl` write, the words by CPU
stores, one `status` poll loop, the digest read with word loads and stores.

{latency_table(results)}

A 55-byte SHA-256 digest on the short path is about 30 clocks of checks and the call, ~14
data-word stores, the core's 64 rounds plus padding (~80 clocks, polled), and 8 window
reads with their stores (~110 clocks). On the twin a store to main RAM right after
another waits for it ("one main-RAM write" above: the write-through L2 sends it to the
SDRAM), so the path stores each digest word as soon as it has read it, and calls no
function, saving two registers on the stack instead of five. Of the 900-1,000 warm clocks
(sim) the driver took before (commit 7b794f5), the rest was the I-cache (its helpers shared
lines of VexRiscv's direct-mapped 4 KiB instruction cache with the caller's path: 16 line
refills per call, seen in a Verilator trace of the I-bus), the context (`hash_begin`, ~450
bytes of stack), a DMA command's three register writes and bus round trip, and
byte-at-a-time output.

## The DMA against the CPU: 64 KiB in one command and as descriptor lists

Written from firmware/baremetal/dmacontend.c's rows (`python -m soc.runfw --app
dmacontend`): 64 KiB, warm (the best of two runs), in one DMA command (`dma`) and as
`hash_update_segs_nowait` lists of 4096-, 2048- or 512-byte pieces in reverse, forward or
scattered address order; the last two rows run the 4 KiB list while the CPU, between
handing the list over and `hash_final`, loads (CPU reads) or stores (CPU stores) every
32nd byte of another 64 KiB. Clocks are the whole digest; core busy is the engine's
`busy_cycles`, so what it spent waiting for bytes inside a block is in it. Every digest
equals the one-command digest and the software's (tests/test_soc_firmware.py checks it).

{contention_table(results)}

{rows}
"""
    return md


if __name__ == "__main__":
    main(sys.argv[1:])
