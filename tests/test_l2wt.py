# SPDX-License-Identifier: MIT
"""soc/l2wt.py, the write-through L2, in Migen's simulator against a LiteDRAM port model.

Random reads and writes (random byte selects) over a memory 8x the cache, so lines are
evicted all the time. Checked: every read returns the latest data (read-after-write,
through hits, misses and refills), and after every acknowledged write the backing
memory already holds it, which is what makes DMA on other ports coherent.
"""

import random

import pytest
from migen import Module, passive, run_simulation

from litedram.common import LiteDRAMNativePort
from litex.soc.interconnect import wishbone

from soc.l2wt import WriteThroughL2
from portmodel import BASE, PortModel, verilog_products

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
