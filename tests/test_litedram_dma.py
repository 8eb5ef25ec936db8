# SPDX-License-Identifier: MIT
"""gateware/litedram_dma.py against the port model of tests/portmodel.py: words come back right and
in order, and on a port taking a command per clock a 16-bit port gives a word per 2 clocks."""

import random

import pytest
from migen import Module, run_simulation

from litedram.common import LiteDRAMNativePort

from gateware.litedram_dma import LiteDRAMDMAPort
from portmodel import BASE, PortModel, verilog_products


@pytest.mark.parametrize("dw,p_ready", [(16, 1.0), (16, 0.5), (32, 0.7), (128, 1.0)])
def test_words_in_order(dw, p_ready):
    port = LiteDRAMNativePort("both", address_width=14, data_width=dw)
    dut = Module()
    dut.submodules.a = a = LiteDRAMDMAPort(port, BASE)
    model = PortModel(port, seed=dw, latency=8, jitter=0, p_ready=p_ready)
    rng = random.Random(dw)
    for i in range((1 << 14)):
        model.mem[i] = rng.getrandbits(dw)
    start, n = 37, 400
    got, t = [], {}

    def issue():
        outstanding = 0
        addr = start
        clk = 0
        while addr < start + n or outstanding:
            yield a.req_valid.eq(addr < start + n and outstanding < 16)
            yield a.req_addr.eq((BASE >> 2) + addr)
            yield
            clk += 1
            if (yield a.req_valid) and (yield a.req_ready):
                addr += 1
                outstanding += 1
            if (yield a.resp_valid):
                got.append((yield a.resp_data))
                outstanding -= 1
                t.setdefault("first", clk)
                t["last"] = clk
        yield a.req_valid.eq(0)

    run_simulation(dut, [issue(), model.gen()])
    assert got == [model.word(4 * (start + i)) for i in range(n)]
    if p_ready == 1.0:
        per_word = (t["last"] - t["first"]) / (n - 1)
        assert per_word <= max(1, 32 // dw) + 0.05, per_word


def test_fence_waits_for_the_write_pending_at_the_start_only():
    """`hold` stops commands only between a `fence` pulse (a DMA command's start) and the
    first clock `hold` is low: a write pending when a command starts lands first, writes
    during the command do not pause it."""
    port = LiteDRAMNativePort("both", address_width=14, data_width=16)
    dut = Module()
    dut.submodules.a = a = LiteDRAMDMAPort(port, BASE)
    model = PortModel(port, seed=3, latency=8, jitter=0, p_ready=1.0)
    issued = []     # clocks on which the port took a command

    def run():
        yield a.req_valid.eq(1)
        yield a.req_addr.eq(BASE >> 2)
        yield a.hold.eq(1)          # a write on its way, no fence: commands flow
        for clk in range(40):
            if clk == 10:
                yield a.fence.eq(1)     # a command starts with the write still pending
            if clk == 11:
                yield a.fence.eq(0)
            if clk == 20:
                yield a.hold.eq(0)      # it lands
            if clk == 22:
                yield a.hold.eq(1)      # a store during the command
            yield
            if (yield port.cmd.valid) and (yield port.cmd.ready):
                issued.append(clk)

    run_simulation(dut, [run(), model.gen()])
    assert set(range(0, 10)) <= set(issued)             # a store alone does not hold
    assert not set(range(10, 20)) & set(issued)         # fenced until the write landed
    assert set(range(21, 40)) <= set(issued)            # later stores do not hold


def _stream(cpu_waiting, clocks, seed):
    """A 16-bit port streaming with `cpu_waiting(clk, quiet)` driven on each clock (`quiet`:
    clocks since the port last took a command); which clocks the port took one on."""
    port = LiteDRAMNativePort("both", address_width=14, data_width=16)
    dut = Module()
    dut.submodules.a = a = LiteDRAMDMAPort(port, BASE)
    model = PortModel(port, seed=seed, latency=8, jitter=0, p_ready=1.0)
    took = []

    def run():
        yield a.req_valid.eq(1)
        yield a.req_addr.eq(BASE >> 2)
        quiet = 0
        for clk in range(clocks):
            yield a.cpu_waiting.eq(cpu_waiting(clk, quiet))
            yield
            t = bool((yield port.cmd.valid) and (yield port.cmd.ready))
            took.append(t)
            quiet = 0 if t else quiet + 1

    run_simulation(dut, [run(), model.gen()])
    return took


def test_yields_to_a_waiting_cpu():
    """`cpu_waiting` (the L2's command not yet taken) stops commands from the next clock
    until a clock after it drops, so the crossbar can hand the bank to the CPU."""
    took = _stream(lambda clk, quiet: 20 <= clk < 30, 60, seed=4)
    issued = {clk for clk, t in enumerate(took) if t}
    assert set(range(0, 20)) <= issued
    assert not set(range(21, 31)) & issued
    assert set(range(31, 60)) <= issued


def test_a_cpu_always_waiting_gets_one_turn_per_64_words():
    """A CPU that wants the memory again right after each turn (a store loop) stops the
    stream once per 64 words (128 commands on a 16-bit port), not per store."""
    # The CPU's command is taken once the stream has been quiet for two clocks; it wants
    # the next one on the clock after.
    took = _stream(lambda clk, quiet: quiet < 2, 1200, seed=5)
    runs = [len(r) for r in "".join("x" if t else "." for t in took).split(".") if r]
    assert len(runs) >= 8, runs
    # 128 commands, and the one issued on the clock the registered `cpu_waiting` is taken in.
    assert all(r == 129 for r in runs[1:-1]), runs


@pytest.mark.parametrize("dw", [16, 32, 128])
def test_lanes_need_no_product(dw):
    """A wide port's word was once picked as rdata >> (lane * 32): Verilog sized the shift
    amount to 6 bits, and lane 3 of a 128-bit port (the Arty's DDR3) read lane 1, which
    Migen's simulator (test_words_in_order) does not show. No product is left."""
    port = LiteDRAMNativePort("both", address_width=24, data_width=dw)
    a = LiteDRAMDMAPort(port, BASE)
    ios = {a.req_valid, a.req_ready, a.req_addr, a.resp_valid, a.resp_data, a.hold, a.fence,
           a.cpu_waiting, port.cmd.valid, port.cmd.ready, port.cmd.addr, port.rdata.valid,
           port.rdata.data}
    assert verilog_products(a, ios) == []
