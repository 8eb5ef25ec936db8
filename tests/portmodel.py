# SPDX-License-Identifier: MIT
"""What the tests of the LiteDRAM-facing gateware share (test_l2wt: soc/l2wt.py; test_litedram_dma:
gateware/litedram_dma.py): a model of a LiteDRAM native port in Migen's simulator, and a
check of the Verilog those modules become."""

import random
import re

from migen import passive

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


def verilog_products(module, ios):
    """The lines of `module`'s Verilog that multiply. Verilog sizes a product to its
    context (an assignment's width; its own operands' in a shift amount) where Migen's
    simulator, which the tests here run, keeps every bit, so a product that needs more
    bits than that passes here and is wrong on the board."""
    from migen.fhdl.verilog import convert
    # Migen writes a memory's byte enables as a loop over an integer, we_index * 8: exact.
    return [line.strip() for line in str(convert(module, ios=ios)).splitlines()
            if re.search(r"[\w\])}]\s*\*\s*[\w({]", line.replace("we_index * 8", ""))]
