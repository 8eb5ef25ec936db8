# SPDX-License-Identifier: MIT
"""soc/l2wt.py, the write-through L2, in Migen's simulator against a LiteDRAM port model.

Random reads and writes (random byte selects) over a memory 8x the cache, so lines are
evicted all the time. Checked: every read returns the latest data (read-after-write,
through hits, misses and refills), and after every acknowledged write the backing
memory already holds it, which is what makes DMA on other ports coherent.
"""

import random
import re

import pytest
from migen import Module, passive, run_simulation

from litedram.common import LiteDRAMNativePort
from litex.soc.interconnect import wishbone

from soc.l2wt import WriteThroughL2

BASE = 0x4000_0000


class PortModel:
    """In-order LiteDRAM native port: takes a command with probability p_ready; read data
    comes `latency` (+ jitter) clocks later, in order; a write's data is taken with
    `wdata.ready` a few clocks after its command, and only then lands in memory."""

    def __init__(self, port, seed, latency=6, jitter=3, p_ready=0.6):
        self.port, self.rng = port, random.Random(seed)
        self.latency, self.jitter, self.p_ready = latency, jitter, p_ready
        self.mem = {}           # port word address -> value
        self.dw = port.data_width

    @passive
    def gen(self):
        port, rng = self.port, self.rng
        reads, writes = [], []      # (due clock, addr)
        clk = 0
        while True:
            ready = int(rng.random() < self.p_ready)
            yield port.cmd.ready.eq(ready)
            # wdata.ready for the oldest write whose time has come
            wr = writes and writes[0][0] <= clk
            yield port.wdata.ready.eq(1 if wr else 0)
            rd = reads and reads[0][0] <= clk
            if rd:
                _, a = reads.pop(0)
                yield port.rdata.valid.eq(1)
                yield port.rdata.data.eq(self.mem.get(a, 0))
            else:
                yield port.rdata.valid.eq(0)
            yield
            clk += 1
            if wr:
                _, a = writes.pop(0)
                data = yield port.wdata.data
                we = yield port.wdata.we
                old = self.mem.get(a, 0)
                for b in range(self.dw // 8):
                    if (we >> b) & 1:
                        old = (old & ~(0xFF << 8 * b)) | (data & (0xFF << 8 * b))
                self.mem[a] = old
            if ready and (yield port.cmd.valid):
                a = yield port.cmd.addr
                if (yield port.cmd.we):
                    writes.append((max([clk + 2 + rng.randrange(4)] + [w[0] + 1 for w in writes[-1:]]), a))
                else:
                    due = max([clk + self.latency + rng.randrange(self.jitter + 1)] +
                              [r[0] + 1 for r in reads[-1:]])
                    reads.append((due, a))

    def word(self, byte_addr):
        """The 32-bit word at byte offset `byte_addr` as the backing memory holds it."""
        out = 0
        for i in range(4):
            a = byte_addr + i
            pw = self.mem.get(a // (self.dw // 8), 0)
            out |= ((pw >> (8 * (a % (self.dw // 8)))) & 0xFF) << (8 * i)
        return out


@pytest.mark.parametrize("dw", [16, 32, 128])
def test_random_traffic(dw):
    rng = random.Random(dw)
    mem_bytes = 64 * 1024           # 8x the cache
    port = LiteDRAMNativePort("both", address_width=(mem_bytes * 8 // dw).bit_length() - 1, data_width=dw)
    bus = wishbone.Interface(data_width=32, address_width=32, addressing="word")
    dut = Module()
    dut.submodules.l2 = WriteThroughL2(bus, port, BASE, size=8192)
    model = PortModel(port, seed=dw)
    ref = {}                        # word offset -> value (the truth)
    stats = {"reads": 0, "writes": 0, "clocks": 0}
    # Addresses: mostly a hot set (hits), some anywhere (misses, evictions).
    hot = [rng.randrange(mem_bytes // 4) for _ in range(64)]

    def cycle(adr, we=0, dat=0, sel=0xF):
        yield bus.adr.eq((BASE >> 2) + adr)
        yield bus.we.eq(we)
        yield bus.dat_w.eq(dat)
        yield bus.sel.eq(sel)
        yield bus.cyc.eq(1)
        yield bus.stb.eq(1)
        n = 0
        while True:
            yield
            n += 1
            assert n < 500, "no ack"
            if (yield bus.ack):
                break
        value = yield bus.dat_r
        yield bus.cyc.eq(0)
        yield bus.stb.eq(0)
        yield
        stats["clocks"] += n + 1
        return value

    def master():
        for _ in range(1500):
            adr = rng.choice(hot) if rng.random() < 0.7 else rng.randrange(mem_bytes // 4)
            if rng.random() < 0.4:
                sel = rng.choice([0xF, 0xF, 0x1, 0x2, 0x4, 0x8, 0x3, 0xC, 0x6])
                dat = rng.getrandbits(32)
                yield from cycle(adr, 1, dat, sel)
                old = ref.get(adr, 0)
                for b in range(4):
                    if (sel >> b) & 1:
                        old = (old & ~(0xFF << 8 * b)) | (dat & (0xFF << 8 * b))
                ref[adr] = old
                acked.add(adr)
                stats["writes"] += 1
                if rng.random() < 0.5:      # sometimes wait, sometimes go on at once
                    while (yield dut.l2.write_pending):
                        yield
            else:
                got = yield from cycle(adr)
                assert got == ref.get(adr, 0), f"read {adr:#x}: {got:#x} != {ref.get(adr, 0):#x}"
                stats["reads"] += 1
        # Read everything back once: hits and refills after all the evictions.
        for adr in sorted(ref):
            got = yield from cycle(adr)
            assert got == ref[adr], f"final read {adr:#x}"

    @passive
    def checker():
        # Posted writes: on any clock where write_pending is low, every acknowledged write
        # is in the SDRAM (what the engines' DMA, held while it is high, reads).
        while True:
            yield
            if acked and not (yield dut.l2.write_pending):
                for adr in acked:
                    assert model.word(adr * 4) == ref[adr], f"write {adr:#x} not in memory, nothing pending"
                stats["checked"] = stats.get("checked", 0) + len(acked)
                acked.clear()

    acked = set()
    run_simulation(dut, [master(), model.gen(), checker()], vcd_name=None)
    assert stats["reads"] > 500 and stats["writes"] > 400 and stats["checked"] >= stats["writes"] // 2


def test_read_hit_takes_three_clocks():
    port = LiteDRAMNativePort("both", address_width=15, data_width=16)
    bus = wishbone.Interface(data_width=32, address_width=32, addressing="word")
    dut = Module()
    dut.submodules.l2 = WriteThroughL2(bus, port, BASE, size=8192)
    model = PortModel(port, seed=1, p_ready=1.0, jitter=0)
    model.mem.update({i: i for i in range(64)})
    waits = []

    def master():
        for adr in [0, 1, 2, 3, 0, 1]:
            yield bus.adr.eq((BASE >> 2) + adr)
            yield bus.cyc.eq(1)
            yield bus.stb.eq(1)
            n = 0
            while True:
                yield
                n += 1
                if (yield bus.ack):
                    break
            assert (yield bus.dat_r) == (2 * adr + 1) << 16 | (2 * adr)
            yield bus.cyc.eq(0)
            yield bus.stb.eq(0)
            yield
            waits.append(n)

    run_simulation(dut, [master(), model.gen()])
    assert waits[0] > 10            # the miss: a refill of 8 16-bit words
    assert waits[1:] == [3] * 5, waits


def verilog_products(module, ios):
    """The lines of `module`'s Verilog that multiply. Verilog sizes a product to its
    context (an assignment's width; its own operands' in a shift amount) where Migen's
    simulator, which the tests here run, keeps every bit, so a product that needs more
    bits than that passes here and is wrong on the board."""
    from migen.fhdl.verilog import convert
    # Migen writes a memory's byte enables as a loop over an integer, we_index * 8: exact.
    return [line.strip() for line in str(convert(module, ios=ios)).splitlines()
            if re.search(r"[\w\])}]\s*\*\s*[\w({]", line.replace("we_index * 8", ""))]


@pytest.mark.parametrize("dw,aw", [(16, 24), (32, 23), (128, 24)])
def test_port_addresses_need_no_product(dw, aw):
    """The L2 once computed its port addresses as (word * 4) >> log2(dw / 8). Verilog sized
    the product to the 24-bit port address: on the ULX3S (16-bit SDRAM, 32 MiB) the CPU's
    upper 16 MiB landed on the lower; Migen's simulator saw nothing (the firmware's
    self-test, `ram_every_mib_*`, did, on the twin). At real widths, no product is left."""
    port = LiteDRAMNativePort("both", address_width=aw, data_width=dw)
    bus = wishbone.Interface(data_width=32, address_width=32, addressing="word")
    l2 = WriteThroughL2(bus, port, BASE, size=32768)
    ios = {bus.adr, bus.dat_w, bus.dat_r, bus.sel, bus.cyc, bus.stb, bus.we, bus.ack,
           port.cmd.valid, port.cmd.ready, port.cmd.we, port.cmd.addr,
           port.wdata.valid, port.wdata.ready, port.wdata.data, port.wdata.we,
           port.rdata.valid, port.rdata.data}
    assert verilog_products(l2, ios) == []
