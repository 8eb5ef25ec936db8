# SPDX-License-Identifier: MIT
# amaranth: UnusedElaboratable=no
"""The DMA reader's pipelined port (dma_bus="stream"), as a LiteDRAM native port drives it:
answers several clocks after the request, many requests outstanding, random back-pressure.

Digests are checked against hashlib; the RAM model (enginebench.StreamRAM) checks the
stream rules (no withdrawn request, never more outstanding than credits).
"""

import hashlib
import random

import pytest

from enginebench import RAM_BASE, StreamRAM, run
from gateware.common.engine import ERR_DMA_BUS
from gateware.engines import make_engine

RAM_SIZE = 1 << 20
BAD_RAM = (RAM_BASE + 0x80000, RAM_BASE + 0x81000)


def engine(name="sha256", **kw):
    return make_engine(name, "folded" if name == "sha256" else None,
                       dma_window=(RAM_BASE, RAM_SIZE), dma_bus="stream", **kw)


async def digest(b, nwords=8):
    await b.wait_done()
    assert b.ctx.get(b.dut.errors) == 0, f"errors {b.ctx.get(b.dut.errors):#x}"
    return await b.context(nwords)


@pytest.mark.parametrize("latency,jitter,p_ready", [(1, 0, 1.0), (8, 3, 0.5), (12, 0, 0.8), (20, 6, 1.0)])
def test_any_alignment_and_chunks(latency, jitter, p_ready):
    rng = random.Random(latency * 7 + jitter)
    cases = []
    for _ in range(6):
        msg = rng.randbytes(rng.randrange(0, 400))
        cuts = sorted(rng.sample(range(len(msg) + 1), min(len(msg), rng.randrange(0, 4))))
        cases.append((msg, [msg[a:b] for a, b in zip([0] + cuts, cuts + [len(msg)])]))
    ram = StreamRAM(latency, jitter, p_ready, seed=latency)

    async def body(b):
        out = []
        addr = RAM_BASE + 3
        for msg, pieces in cases:
            await b.init(0)
            for i, p in enumerate(pieces):
                b.put(addr, p)
                await b.dma(addr, len(p), last=(i == len(pieces) - 1))
                addr += len(p) + rng.randrange(1, 8)
            out.append(await digest(b))
        # zero-length closing command after a DMA that did not end the message
        b.put(RAM_BASE, bytes(range(100)))
        await b.init(0)
        await b.dma(RAM_BASE + 1, 99, last=False)
        await b.dma(RAM_BASE + 7, 0, last=True)
        out.append(await digest(b))
        return out

    got = run(engine(), body, stream=ram)
    for (msg, _), d in zip(cases, got):
        assert d == hashlib.sha256(msg).digest(), len(msg)
    assert got[-1] == hashlib.sha256(bytes(range(1, 100))).digest()
    if latency >= 8 and p_ready == 1.0:
        assert ram.peak >= latency // 2, ram.peak      # really pipelined


def test_abort_with_reads_outstanding_leaks_nothing():
    """Abort while ~16 answers are on their way: they are thrown away, the reader stays busy
    until the last one is back, and the next command sees only its own bytes."""
    ram = StreamRAM(latency=15, jitter=4, p_ready=0.9, seed=3)

    async def body(b):
        b.put(RAM_BASE, bytes([0xAA]) * 8192)
        results = []
        for wait in (3, 17, 40, 300):
            await b.init(0)
            await b.dma(RAM_BASE, 8192, last=True, wait=False)
            await b.tick(wait)
            await b.pulse(ctrl_abort=1)
            await b.wait(lambda: not b.ctx.get(b.dut.st_busy), limit=200)
            aborted = not b.ctx.get(b.dut.st_done) and b.ctx.get(b.dut.errors) == 0
            await b.init(0)
            b.put(RAM_BASE + 0x10003, b"hello")
            await b.dma(RAM_BASE + 0x10003, 5, last=True)
            results.append((aborted, await digest(b)))
        return results

    for aborted, d in run(engine(), body, stream=ram):
        assert aborted
        assert d == hashlib.sha256(b"hello").digest()


def test_bus_error_mid_stream():
    ram = StreamRAM(latency=9, jitter=2, p_ready=0.7, seed=5)

    async def body(b):
        await b.init(0)
        # starts in good RAM, runs into the erroring range with reads in flight
        await b.dma(BAD_RAM[0] - 256, 1024, last=True)
        err = (b.ctx.get(b.dut.errors) >> ERR_DMA_BUS) & 1
        closed = not b.ctx.get(b.dut.st_open) and not b.ctx.get(b.dut.st_done)
        await b.pulse(ctrl_err_clear=1)
        b.put(RAM_BASE + 2, b"after the error")
        await b.init(0)
        await b.dma(RAM_BASE + 2, 15, last=True)
        return err, closed, await digest(b)

    err, closed, d = run(engine(), body, err_range=BAD_RAM, stream=ram)
    assert err and closed
    assert d == hashlib.sha256(b"after the error").digest()


@pytest.mark.parametrize("name", ["sha256", "keccak"])
@pytest.mark.parametrize("pause", [64, None])
def test_pause_lets_the_port_go_quiet(name, pause):
    """With `dma_pause_words` 64 (what the Wishbone bus gets): at most 64 requests between
    two clocks where nothing is presented or outstanding, whether the core (SHA-256) or the
    port (Keccak) sets the pace. By default on the stream port: no pause of the reader's
    own (the LiteDRAM adapter yields on demand), so Keccak, which outruns the port, never
    lets it go quiet."""
    ram = StreamRAM(latency=10, p_ready=1.0)

    async def body(b):
        b.put(RAM_BASE, bytes(8192))
        await b.init(0)
        await b.dma(RAM_BASE, 8192, last=True)
        return await digest(b, 8 if name == "sha256" else 7)

    d = run(engine(name, dma_pause_words=pause), body, stream=ram)
    assert d == (hashlib.sha256 if name == "sha256" else hashlib.sha3_224)(bytes(8192)).digest()
    assert ram.requests == 2048
    if pause:
        assert ram.max_between_quiet <= 64, ram.max_between_quiet
    elif name == "keccak":
        assert ram.max_between_quiet == 2048, ram.max_between_quiet


def test_rates_with_latency():
    """Clock budgets with a 10-clock answer latency and a port taking a request per clock:
    SHA-256 stays core bound (64 clocks/block, within 10%); Keccak (SHA3-256) gets >= 3
    bytes/clock, i.e. the port, not the reader, limits it on a 2-byte/clock SDRAM."""
    n = 8192
    out = {}
    for name, mode, ctx_words in (("sha256", 0, 8), ("keccak", 1, 8)):
        ram = StreamRAM(latency=10, p_ready=1.0)

        async def body(b):
            b.put(RAM_BASE, bytes(n))
            await b.init(mode)
            t0 = b.clk
            await b.dma(RAM_BASE, n, last=True)
            await b.wait_done()
            return b.clk - t0, await digest(b, ctx_words)

        out[name] = run(engine(name), body, stream=ram)
    clocks, d = out["sha256"]
    assert d == hashlib.sha256(bytes(n)).digest()
    assert clocks <= 1.10 * 64 * (n // 64 + 1), clocks
    clocks, d = out["keccak"]
    assert d == hashlib.sha3_256(bytes(n)).digest()
    assert n / clocks >= 3.0, n / clocks
