# SPDX-License-Identifier: MIT
"""Testbench helpers for a whole hash engine (frontend + core) in Amaranth's simulator.

`EngineBench` plays the CPU (CSR pulses, window reads/writes) and the system RAM (a
Wishbone slave answering the DMA master one clock after each request, like LiteX's
on-chip RAM, with an optional address range that answers with a bus error).
"""

import struct

from amaranth.sim import Simulator

from gateware import hashspec
from gateware.common.engine import CTX_WORD, FINAL_WORD

RAM_BASE = 0x4000_0000


def descriptor_words(addr, pieces):
    """A descriptor list at byte address addr for pieces [(address, length)], in
    hashspec.SG_DESC's word order: {byte address: 32-bit word}."""
    out = {}
    for i, (a, n) in enumerate(pieces):
        fields = {"addr": a, "len": n}
        for j, w in enumerate(hashspec.SG_DESC):
            out[addr + 4 * (len(hashspec.SG_DESC) * i + j)] = fields[w.name]
    return out


class EngineBench:
    def __init__(self, dut, ctx, mem, err_range=None):
        self.dut, self.ctx, self.mem = dut, ctx, mem
        self.err_range = err_range or (0, 0)
        self.clk = 0

    async def tick(self, n=1):
        for _ in range(n):
            await self.ctx.tick()
            self.clk += 1

    async def pulse(self, **signals):
        for name, value in signals.items():
            self.ctx.set(getattr(self.dut, name), value)
        await self.tick()
        for name in signals:
            if name.startswith(("ctrl_init", "ctrl_abort", "ctrl_squeeze", "ctrl_err_clear", "dma_start")):
                self.ctx.set(getattr(self.dut, name), 0)

    async def init(self, mode):
        await self.pulse(ctrl_init=1, ctrl_mode=mode)

    async def _bus(self, word, data=None):
        d, c = self.dut, self.ctx
        c.set(d.s_adr, word)
        c.set(d.s_we, data is not None)
        c.set(d.s_dat_w, data or 0)
        c.set(d.s_cyc, 1)
        c.set(d.s_stb, 1)
        waited = 0
        while True:
            await self.tick()
            waited += 1
            assert waited < 200, "window access never acknowledged (stuck bus)"
            if c.get(d.s_ack):
                break
        value = c.get(d.s_dat_r)
        c.set(d.s_cyc, 0)
        c.set(d.s_stb, 0)
        c.set(d.s_we, 0)
        return value

    async def write(self, word, data):
        await self._bus(word, data)

    async def read(self, word):
        return await self._bus(word)

    async def pio(self, msg, last=True):
        """Push msg through the window; full words to the data range, the tail to FINAL."""
        n4 = len(msg) // 4 * 4 if not last else (len(msg) // 4) * 4
        for i in range(0, n4, 4):
            await self.write(i // 4 % 1024, struct.unpack("<I", msg[i:i + 4])[0])
        if last:
            tail = msg[n4:]
            await self.write(FINAL_WORD + len(tail), int.from_bytes(tail.ljust(4, b"\0"), "little"))

    async def dma(self, addr, length, last, wait=True, sg=False):
        """One DMA command; with sg, addr/length name a descriptor list (see sg_list)."""
        d = self.dut
        self.ctx.set(d.dma_addr, addr)
        self.ctx.set(d.dma_len, length)
        self.ctx.set(d.dma_last, last)
        self.ctx.set(d.dma_list, sg)
        await self.pulse(dma_start=1)
        if wait:
            await self.wait(lambda: not self.ctx.get(d.st_dma_busy))

    def sg_list(self, addr, pieces):
        """Write a descriptor list at addr (descriptor_words). Returns the number of
        descriptors."""
        for a, word in descriptor_words(addr, pieces).items():
            self.put(a, struct.pack("<I", word))
        return len(pieces)

    async def wait(self, cond, limit=200000):
        n = 0
        while not cond():
            await self.tick()
            n += 1
            assert n < limit, "timed out waiting"

    async def wait_done(self):
        d = self.dut
        await self.wait(lambda: self.ctx.get(d.st_done) or self.ctx.get(d.errors))

    async def context(self, nwords):
        out = b""
        for i in range(nwords):
            out += struct.pack("<I", await self.read(CTX_WORD + i))
        return out

    def put(self, addr, data):
        """Store bytes in the simulated RAM (a dict of word address -> word)."""
        for i, b in enumerate(data):
            a = addr + i
            w = self.mem.get(a >> 2, 0)
            shift = (a & 3) * 8
            self.mem[a >> 2] = (w & ~(0xFF << shift)) | (b << shift)


def run(dut, body, mem=None, err_range=None, stream=None):
    """Simulate `body(bench)` (an async function) with a RAM model on the DMA port.

    `stream`: for an engine built with dma_bus="stream", a StreamRAM (pipelined answers
    after a latency, random back-pressure); None for the Wishbone RAM below.
    """
    mem = {} if mem is None else mem
    sim = Simulator(dut)
    sim.add_clock(1e-8)
    result = {}
    if stream is not None:
        stream.mem, stream.err_range = mem, err_range or (0, 0)
        sim.add_process(stream.process(dut))

        async def tb_stream(ctx):
            bench = EngineBench(dut, ctx, mem, err_range)
            result["value"] = await body(bench)

        sim.add_testbench(tb_stream)
        sim.run()
        return result.get("value")

    async def ram(ctx):
        lo, hi = err_range or (0, 0)
        async for _, _, stb, adr, ack, err in ctx.tick().sample(dut.m_stb, dut.m_adr, dut.m_ack, dut.m_err):
            if stb and not ack and not err:
                if lo <= adr * 4 < hi:
                    ctx.set(dut.m_err, 1)
                else:
                    ctx.set(dut.m_dat_r, mem.get(adr, 0))
                    ctx.set(dut.m_ack, 1)
            else:
                ctx.set(dut.m_ack, 0)
                ctx.set(dut.m_err, 0)

    async def tb(ctx):
        bench = EngineBench(dut, ctx, mem, err_range)
        result["value"] = await body(bench)

    sim.add_process(ram)
    sim.add_testbench(tb)
    sim.run()
    return result.get("value")


class StreamRAM:
    """RAM model for the DMA reader's pipelined port (`dma_port`).

    Takes a request on a clock with probability `p_ready`; answers each taken request
    `latency` clocks later plus up to `jitter` more (answers keep request order and leave
    at most one per clock, as from a LiteDRAM port). Checks the stream rules on the way:
    a presented request is never withdrawn or changed before it is taken, and no more than
    `max_outstanding` requests are ever unanswered.
    """

    def __init__(self, latency=6, jitter=0, p_ready=1.0, seed=0, max_outstanding=16):
        import random
        self.latency, self.jitter, self.p_ready = latency, jitter, p_ready
        self.rng = random.Random(seed)
        self.max_outstanding = max_outstanding
        self.peak = 0               # most requests ever outstanding
        self.requests = 0
        # A "quiet" clock: nothing presented and nothing outstanding (on LiteDRAM, the bank
        # queue is empty and the crossbar may grant another port). Most requests ever
        # taken between two quiet clocks:
        self.max_between_quiet = 0
        self._since_quiet = 0

    def process(self, dut):
        async def proc(ctx):
            queue = []              # (due clock, data, err)
            clk = 0
            presented = None        # (addr) presented and not taken on the previous clock
            ready = 0
            async for _, _, valid, addr, running in ctx.tick().sample(
                    dut.dma_port.req_valid, dut.dma_port.req_addr, dut.st_dma_busy):
                clk += 1
                # The values sampled are those of the clock that just ended, with `ready`
                # as this process drove it for that clock.
                if presented is not None:
                    assert valid and addr == presented, "request withdrawn or changed before ready"
                presented = None
                if valid and ready:
                    lo, hi = self.err_range
                    err = lo <= addr * 4 < hi
                    due = max([clk + self.latency + self.rng.randrange(self.jitter + 1)]
                              + [q[0] + 1 for q in queue[-1:]])
                    queue.append((due, self.mem.get(addr, 0), err))
                    self.requests += 1
                    self._since_quiet += 1
                    self.max_between_quiet = max(self.max_between_quiet, self._since_quiet)
                elif valid:
                    presented = addr
                elif not queue:
                    self._since_quiet = 0
                self.peak = max(self.peak, len(queue))
                assert len(queue) <= self.max_outstanding, "more reads outstanding than credits"
                if queue and queue[0][0] <= clk:
                    _, data, err = queue.pop(0)
                    ctx.set(dut.dma_port.resp_valid, 1)
                    ctx.set(dut.dma_port.resp_data, data)
                    ctx.set(dut.dma_port.resp_err, err)
                else:
                    ctx.set(dut.dma_port.resp_valid, 0)
                    ctx.set(dut.dma_port.resp_err, 0)
                ready = int(self.rng.random() < self.p_ready)
                ctx.set(dut.dma_port.req_ready, ready)
        return proc
