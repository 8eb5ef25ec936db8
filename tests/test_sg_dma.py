# SPDX-License-Identifier: MIT
# amaranth: UnusedElaboratable=no
"""Scatter-gather DMA (gateware/common/sglist.py in the shared frontend), on every engine.

Messages scattered over many pieces at every alignment, given as descriptor lists (alone,
several per message, mixed with single commands and PIO), on the Wishbone port and on the
pipelined port with LiteDRAM-like latency; digests against hashlib. Then every refusal:
a list of 0 or too many descriptors, unaligned, outside RAM or wrapping; a descriptor of
length 0, outside RAM or wrapping, a bus error on a descriptor, an abort mid-list: each
sets its error bit, and no byte outside main RAM is ever read.
"""

import hashlib
import random

import pytest

from enginebench import RAM_BASE, StreamRAM, descriptor_words, run
from gateware import hashspec
from gateware.common.engine import ERR_BAD_LIST, ERR_BAD_RANGE, ERR_DMA_BUS, SG_MAX
from gateware.engines import make_engine

RAM_SIZE = 1 << 20
WINDOW = (RAM_BASE, RAM_SIZE)
BAD_RAM = (RAM_BASE + 0x80000, RAM_BASE + 0x81000)     # answers with a bus error
DESC_BYTES = 4 * hashspec.SG_DESC_WORDS
# scatter() places pieces from here up; the lists go below it (from RAM_BASE + 0x1000, one
# per 0x400: at most 63 of them in test_scattered_messages_every_alignment).
PIECES_BASE = RAM_BASE + 0x20000
SHA256, SHA3_256, SHA512_224 = (hashspec.algorithm(n) for n in ("sha256", "sha3-256", "sha512-224"))


class LoggedRAM(dict):
    """The RAM model's words; remembers every word address the engine read."""

    def __init__(self):
        super().__init__()
        self.reads = set()

    def get(self, key, default=None):
        self.reads.add(key)
        return super().get(key, default)


def engine(alg, bus="wishbone"):
    kw = dict(dma_window=WINDOW)
    if bus == "stream":
        kw["dma_bus"] = "stream"
    return make_engine(alg.engine, **kw)


def scatter(rng, msg, max_piece):
    """Cut msg into pieces of 1..max_piece bytes, each at its own address and alignment,
    not in address order (like a user buffer's physical pages)."""
    pieces, i = [], 0
    while i < len(msg):
        n = rng.randrange(1, max_piece + 1)
        pieces.append(msg[i:i + n])
        i += n
    slots = list(range(len(pieces)))
    rng.shuffle(slots)
    base = PIECES_BASE
    return [(base + s * (max_piece + 8) + rng.randrange(4), p) for s, p in zip(slots, pieces)]


async def put_and_run(b, pieces, list_addr, last):
    for a, p in pieces:
        b.put(a, p)
    n = b.sg_list(list_addr, [(a, len(p)) for a, p in pieces])
    await b.dma(list_addr, n, last=last, sg=True)


async def result(b, alg):
    await b.wait_done()
    errors = b.ctx.get(b.dut.errors)
    return errors, (await b.context(alg.digest // 4) if not errors else None)


@pytest.mark.parametrize("alg", [SHA256, SHA3_256, SHA512_224], ids=lambda a: a.name)
@pytest.mark.parametrize("bus", ["wishbone", "stream"])
def test_scattered_messages_every_alignment(alg, bus):
    rng = random.Random(f"{alg.name}-{bus}")     # not hash(): that changes per process
    cases = []
    for n in [1, 3, 64, 137, 1000, 2500]:
        msg = rng.randbytes(n)
        cases.append((msg, scatter(rng, msg, rng.choice([1, 5, 64, 300]))))

    async def body(b):
        out = []
        for msg, pieces in cases:
            await b.init(alg.mode)
            # Lists of at most 40 descriptors (several commands per message), each at its
            # own place, the last one with `last`.
            lists = [pieces[i:i + 40] for i in range(0, len(pieces), 40)]
            assert RAM_BASE + 0x1000 + 0x400 * len(lists) <= PIECES_BASE   # lists below the pieces
            for k, chunk in enumerate(lists):
                await put_and_run(b, chunk, RAM_BASE + 0x1000 + 0x400 * k, last=(k == len(lists) - 1))
            out.append(await result(b, alg))
        return out

    stream = StreamRAM(latency=10, jitter=3, p_ready=0.8, seed=7) if bus == "stream" else None
    got = run(engine(alg, bus), body, stream=stream)
    for (msg, pieces), (errors, d) in zip(cases, got):
        assert errors == 0, f"errors {errors:#x}"
        assert d == hashlib.new(alg.hashlib, msg).digest(), (len(msg), len(pieces))


def test_list_single_command_and_pio_in_one_message():
    rng = random.Random(5)
    a, b_, c = rng.randbytes(700), rng.randbytes(200), rng.randbytes(61)

    async def body(b):
        await b.init(SHA256.mode)
        await put_and_run(b, scatter(rng, a, 100), RAM_BASE + 0x1000, last=False)
        b.put(RAM_BASE + 0x3001, b_)
        await b.dma(RAM_BASE + 0x3001, len(b_), last=False)
        await b.pio(c)
        return await result(b, SHA256)

    errors, d = run(engine(SHA256), body)
    assert errors == 0 and d == hashlib.sha256(a + b_ + c).digest()


def test_the_limit_is_accepted():
    """SG_MAX descriptors of one byte each: the longest list the engine takes."""
    msg = bytes(range(256)) * (SG_MAX // 256 + 1)
    msg = msg[:SG_MAX]

    async def body(b):
        await b.init(SHA256.mode)
        pieces = [(RAM_BASE + 0x20000 + 8 * i + i % 4, msg[i:i + 1]) for i in range(SG_MAX)]
        await put_and_run(b, pieces, RAM_BASE + 0x1000, last=True)
        return await result(b, SHA256)

    errors, d = run(engine(SHA256), body)
    assert errors == 0 and d == hashlib.sha256(msg).digest()


def err(b, bit):
    return (b.ctx.get(b.dut.errors) >> bit) & 1


@pytest.mark.parametrize("bus", ["wishbone", "stream"])
def test_refused_lists_and_descriptors(bus):
    mem = LoggedRAM()
    top = RAM_BASE + RAM_SIZE
    hello = hashlib.sha256(b"hello").digest()

    async def body(b):
        seen = {}
        good = RAM_BASE + 0x100          # a piece inside RAM
        b.put(good, b"hello")

        async def list_refused(name, addr, count, bit):
            """An ignored list command: error bit, nothing read, message still open."""
            await b.init(SHA256.mode)
            before = set(mem.reads)
            await b.dma(addr, count, last=True, sg=True)
            ok = err(b, bit) and b.ctx.get(b.dut.st_open) and not b.ctx.get(b.dut.st_dma_busy)
            ok = ok and mem.reads == before
            await b.pulse(ctrl_err_clear=1)
            await b.pio(b"hello")          # the message goes on intact
            errors, d = await result(b, SHA256)
            seen[name] = bool(ok) and errors == 0 and d == hello

        lst = RAM_BASE + 0x2000
        b.sg_list(lst, [(good, 5)])
        await list_refused("zero descriptors", lst, 0, ERR_BAD_LIST)
        await list_refused("over the limit", lst, SG_MAX + 1, ERR_BAD_LIST)
        await list_refused("unaligned list", lst + 2, 1, ERR_BAD_LIST)
        await list_refused("list outside RAM", 0x1000_0000, 1, ERR_BAD_RANGE)
        await list_refused("list across RAM's end", top - DESC_BYTES, 2, ERR_BAD_RANGE)
        await list_refused("list wrapping 4 GiB", 0xFFFF_FFF8, 2, ERR_BAD_RANGE)

        async def desc_refused(name, pieces, bit):
            """A bad descriptor mid-list: error bit, message aborted, never a digest."""
            await b.init(SHA256.mode)
            b.sg_list(lst, pieces)
            await b.dma(lst, len(pieces), last=True, sg=True)
            await b.wait(lambda: not b.ctx.get(b.dut.st_busy), limit=2000)
            await b.tick(100)
            ok = err(b, bit) and not b.ctx.get(b.dut.st_open) and not b.ctx.get(b.dut.st_done)
            await b.pulse(ctrl_err_clear=1)
            await b.init(SHA256.mode)       # and the engine is usable afterwards
            await b.dma(good, 5, last=True)
            errors, d = await result(b, SHA256)
            seen[name] = bool(ok) and errors == 0 and d == hello

        await desc_refused("zero-length descriptor", [(good, 5), (good, 0), (good, 5)], ERR_BAD_LIST)
        await desc_refused("descriptor outside RAM", [(good, 5), (0x1000_0000, 64)], ERR_BAD_RANGE)
        await desc_refused("descriptor across RAM's end", [(top - 4, 8)], ERR_BAD_RANGE)
        await desc_refused("descriptor below RAM", [(RAM_BASE - 4, 8)], ERR_BAD_RANGE)
        await desc_refused("descriptor wrapping 4 GiB", [(good, 5), (0xFFFF_FFF0, 0x20)], ERR_BAD_RANGE)
        # The list itself in RAM that answers with a bus error.
        await b.init(SHA256.mode)
        await b.dma(BAD_RAM[0], 2, last=True, sg=True)
        await b.wait(lambda: not b.ctx.get(b.dut.st_busy), limit=2000)
        seen["descriptor bus error"] = bool(err(b, ERR_DMA_BUS)) and not b.ctx.get(b.dut.st_open)
        await b.pulse(ctrl_err_clear=1)
        return seen

    stream = StreamRAM(latency=12, jitter=2, p_ready=0.9, seed=11) if bus == "stream" else None
    seen = run(engine(SHA256, bus), body, mem=mem, err_range=BAD_RAM, stream=stream)
    failed = [k for k, v in seen.items() if not v]
    assert not failed, failed
    outside = sorted(a * 4 for a in mem.reads if not RAM_BASE <= a * 4 < RAM_BASE + RAM_SIZE)
    assert not outside, f"read outside main RAM: {[hex(a) for a in outside[:4]]}"


@pytest.mark.parametrize("bus", ["wishbone", "stream"])
def test_abort_mid_list_leaves_engine_usable(bus):
    rng = random.Random(9)
    msg = rng.randbytes(6000)

    async def body(b):
        out = []
        for delay in [1, 3, 7, 40, 500]:     # in a fetch, in a check, in a piece
            await b.init(SHA256.mode)
            pieces = scatter(rng, msg, 200)
            for a, p in pieces:
                b.put(a, p)
            n = b.sg_list(RAM_BASE + 0x1000, [(a, len(p)) for a, p in pieces])
            await b.dma(RAM_BASE + 0x1000, n, last=True, sg=True, wait=False)
            await b.tick(delay)
            await b.pulse(ctrl_abort=1)
            await b.wait(lambda: not b.ctx.get(b.dut.st_busy), limit=200)
            aborted = not b.ctx.get(b.dut.st_done) and b.ctx.get(b.dut.errors) == 0
            await b.init(SHA256.mode)
            await put_and_run(b, pieces, RAM_BASE + 0x1000, last=True)
            out.append((aborted, await result(b, SHA256)))
        return out

    stream = StreamRAM(latency=10, jitter=4, p_ready=0.9, seed=2) if bus == "stream" else None
    for aborted, (errors, d) in run(engine(SHA256, bus), body, stream=stream):
        assert aborted and errors == 0
        assert d == hashlib.sha256(msg).digest()


def test_descriptor_overhead():
    """Clock budget (sglist.py's docstring): 64 pieces of 64 bytes on the pipelined port
    with LiteDRAM's latency cost at most 24 clocks each beyond one long command."""
    msg = bytes(range(256)) * 16

    async def body(b):
        clocks = []
        for scattered in (False, True):
            await b.init(SHA256.mode)
            t0 = b.clk
            if scattered:
                pieces = [(RAM_BASE + 0x10000 + 128 * i, msg[64 * i:64 * i + 64]) for i in range(64)]
                await put_and_run(b, pieces, RAM_BASE + 0x1000, last=True)
            else:
                b.put(RAM_BASE + 0x10000, msg)
                await b.dma(RAM_BASE + 0x10000, len(msg), last=True)
            clocks.append(b.clk - t0)
            assert (await result(b, SHA256))[1] == hashlib.sha256(msg).digest()
        return clocks

    one, scattered = run(engine(SHA256, "stream"), body, stream=StreamRAM(latency=10, seed=1))
    print("descriptor overhead", one, scattered, (scattered - one) / 64)
    assert (scattered - one) / 64 <= 24, (one, scattered)


@pytest.mark.parametrize("bad", ["empty", "outside", "wrapping"])
def test_walker_alone_never_starts_a_bad_piece(bad):
    """The walker by itself, with no frontend to abort it: a bad descriptor pulses its
    error, the reader is never started on it, and the walker goes idle. (In the engine the
    frontend's `kill` would also stop the reader, so the engine tests above cannot tell
    whether the walker checks; this one can.)"""
    from amaranth.sim import Simulator

    from gateware.common.sglist import DescriptorWalker

    piece = {"empty": (RAM_BASE + 0x100, 0), "outside": (RAM_BASE + RAM_SIZE - 4, 8),
             "wrapping": (0xFFFF_FFF0, 0x20)}[bad]
    descs = [(RAM_BASE + 0x100, 5), piece, (RAM_BASE + 0x200, 7)]
    lst = RAM_BASE + 0x1000
    words = {a // 4: w for a, w in descriptor_words(lst, descs).items()}     # the port's word addresses
    dut = DescriptorWalker(WINDOW)
    seen = {"starts": [], "bad_list": 0, "bad_range": 0}

    async def port(ctx):
        # One answer per request, a clock after it is taken.
        answer = None
        async for _, _, valid, addr in ctx.tick().sample(dut.port.req_valid, dut.port.req_addr):
            ctx.set(dut.port.resp_valid, answer is not None)
            ctx.set(dut.port.resp_data, words.get(answer, 0) if answer is not None else 0)
            answer = addr if valid else None
            ctx.set(dut.port.req_ready, 1)

    async def reader(ctx):
        # The DMA reader stand-in: `r_done` a few clocks after each `r_start`.
        while True:
            _, _, start, addr, length = await ctx.tick().sample(dut.r_start, dut.r_addr, dut.r_length)
            if start:
                seen["starts"].append((addr, length))
                await ctx.tick().repeat(3)
                ctx.set(dut.r_done, 1)
                await ctx.tick()
                ctx.set(dut.r_done, 0)

    async def tb(ctx):
        ctx.set(dut.addr, lst)
        ctx.set(dut.count, len(descs))
        ctx.set(dut.last, 1)
        ctx.set(dut.start, 1)
        await ctx.tick()
        ctx.set(dut.start, 0)
        for _ in range(200):
            await ctx.tick()
            seen["bad_list"] += ctx.get(dut.bad_list)
            seen["bad_range"] += ctx.get(dut.bad_range)
            if not ctx.get(dut.busy):
                break
        seen["busy"] = ctx.get(dut.busy)

    sim = Simulator(dut)
    sim.add_clock(1e-8)
    sim.add_process(port)
    sim.add_process(reader)
    sim.add_testbench(tb)
    sim.run()
    assert seen["starts"] == [descs[0]], seen
    assert (seen["bad_list"], seen["bad_range"]) == ((1, 0) if bad == "empty" else (0, 1)), seen
    assert not seen["busy"]
