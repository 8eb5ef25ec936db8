# SPDX-License-Identifier: MIT
"""The engines' DMA read port on a LiteDRAM native port (Migen).

Adapts the DMA reader's pipelined port (gateware/common/dma.py: word requests, in-order
answers, no answer back-pressure, at most 16 outstanding) to a native port taken at the
controller's own width, `sdram.crossbar.get_port(mode="both")`:

- port narrower than 32 bits (the ULX3S's 16-bit SDR SDRAM): one request becomes 32/dw
  commands to consecutive port words, issued one per clock; their answers are joined
  into one word (first command = low bits, the bus is little-endian). LiteDRAM's own
  32-bit port converter would cost a third clock per word (an FSM state between words),
  1.33 bytes/clock instead of 2.
- port 32 bits or wider (DDR3): one command per request; the word is picked from the
  answer with the request's lane, queued in order beside the command.

Answers keep request order: the crossbar lets a port hold commands in one bank at a
time (a port stays `lock`ed to a bank until that bank's queue has issued all of its
commands), so data comes back in command order. LiteDRAM ignores `rdata.ready`: answers
must always be taken, which the reader's credits guarantee.

Ordering with the CPU's writes, a fence at each DMA command: `fence` pulses when the CPU
starts a DMA command (its `dma_ctrl.start` write); from then on `hold` (wired to the
write-through L2's `write_pending`) keeps every command back until it is low once, i.e.
until every write the L2 had acknowledged before the start is in LiteDRAM's bank queue
(soc/l2wt.py explains why that makes the DMA see it). Writes the CPU makes while the
command runs do not stop it: they cannot be the command's data, which the driver's
callers keep unchanged until the command ends (docs/driver-api.md), and holding on every
one of them cost the engine ~19 clocks per CPU store (docs/hash-syscall.md, "Bulk
throughput", has the measurement; docs/bench.md's "The DMA against the CPU" the figures
with the fence).

Sharing with the CPU, on demand: LiteDRAM's crossbar hands a bank to another port only
when the owner presents no command to it and the bank's queue is empty (its `lock`), so a
stream that never stops would keep the CPU's L2 (refills, posted stores) out of that bank
for a whole command. `cpu_waiting` (HashSoC wires it to the L2 port's `cmd.valid &
~cmd.ready`) says the CPU has a command waiting: the port then issues nothing from the next
clock until that command is taken, which the crossbar grants once our queue has drained.
At most once per `share_words` words (64), counted in commands issued: a CPU that stores in
a tight loop gets one turn per 64 words, the share the reader's unconditional pause gave it
before (that pause, still used on a Wishbone bus, is off on this port: gateware/common/dma.py),
and a stream with the CPU idle never stops (docs/bench.md has the figures).

Clock budget: 1 clock per command accepted; answer latency +1 clock for the register
on the read data (the path from the controller's read data into the engine's FIFO is
register to register). Never answers with an error: the engine refuses ranges outside
main RAM before reading.
"""

from migen import Array, Cat, If, Module, Signal
from migen.genlib.fifo import SyncFIFO

from .common.dma import BURST_WORDS


def _log2(n):
    assert n > 0 and n & (n - 1) == 0, n
    return n.bit_length() - 1


class LiteDRAMDMAPort(Module):
    """`port`: LiteDRAM native port; `base_address`: bus byte address of its first byte;
    `max_outstanding`: the engine's credit count (sizes the lane queue); `share_words`: the
    stream's words between two turns of the CPU at most."""

    def __init__(self, port, base_address, max_outstanding=16, share_words=BURST_WORDS):
        dw = port.data_width
        # Engine side (driven by / driving the engine instance).
        self.req_valid = Signal()
        self.req_ready = Signal()
        self.req_addr = Signal(30)
        self.resp_valid = Signal()
        self.resp_data = Signal(32)
        self.resp_err = Signal()
        self.hold = Signal()        # a write the DMA must not overtake is on its way
        self.fence = Signal()       # pulse: a DMA command starts; wait for `hold` to drop
        self.cpu_waiting = Signal() # the CPU's port (the L2) has a command LiteDRAM has not taken

        # `held`: no command on this clock, while `fenced` or `yielding`. `fenced`: armed by
        # the fence, disarmed by the first clock with no write pending (the L2 has one
        # write on its way at a time, so every write acknowledged before the fence has
        # then gone).
        armed = Signal()
        fenced = Signal()
        self.comb += fenced.eq((armed | self.fence) & self.hold)
        self.sync += armed.eq(fenced)
        # Yield to the CPU (module docstring, "Sharing"). `cpu_waiting` is registered: the
        # L2's `cmd.ready` comes from the crossbar's grant, which looks at our `cmd.valid`.
        share = share_words * max(1, 32 // dw)      # in port commands
        since = Signal(max=share + 1, reset=share)  # commands since the last yield
        yielding = Signal()
        self.sync += [
            yielding.eq(self.cpu_waiting & (yielding | (since == share))),
            If(yielding, since.eq(0)).Elif(port.cmd.valid & port.cmd.ready & (since != share),
                since.eq(since + 1)),
        ]
        held = Signal()
        self.comb += held.eq(fenced | yielding)

        word = Signal(30)       # word offset in the SDRAM
        self.comb += [
            word.eq(self.req_addr - (base_address >> 2)),
            port.cmd.we.eq(0),
            port.wdata.valid.eq(0),
            port.rdata.ready.eq(1),
            port.flush.eq(0),
            self.resp_err.eq(0),
        ]
        # Read data registered first: the controller's read data fans out to every port.
        rvalid = Signal()
        rdata = Signal(dw)
        self.sync += [rvalid.eq(port.rdata.valid), rdata.eq(port.rdata.data)]

        if dw < 32:
            ratio = 32 // dw
            part = Signal(max=ratio)        # which command of the word is presented
            self.comb += [
                port.cmd.valid.eq(self.req_valid & ~held),
                port.cmd.addr.eq(Cat(part, word) if ratio > 1 else word),
                self.req_ready.eq(port.cmd.ready & ~held & (part == ratio - 1)),
            ]
            self.sync += If(port.cmd.valid & port.cmd.ready, part.eq(part + 1))
            # Join the answers: shift each in from the top, the first ends up lowest.
            got = Signal(max=ratio)
            acc = Signal(32)
            self.sync += [
                self.resp_valid.eq(0),
                If(rvalid,
                    acc.eq(Cat(acc[dw:], rdata)),
                    got.eq(got + 1),
                    If(got == ratio - 1,
                        got.eq(0),
                        self.resp_valid.eq(1),
                    )
                )
            ]
            self.comb += self.resp_data.eq(acc)
        else:
            lanes = dw // 32
            lane_bits = _log2(lanes)
            self.comb += [
                port.cmd.valid.eq(self.req_valid & ~held),
                port.cmd.addr.eq(word[lane_bits:]),
                self.req_ready.eq(port.cmd.ready & ~held),
            ]
            if lanes > 1:
                fifo = SyncFIFO(lane_bits, max_outstanding + 2)
                self.submodules += fifo
                self.comb += [
                    fifo.din.eq(word[:lane_bits]),
                    fifo.we.eq(port.cmd.valid & port.cmd.ready),
                    fifo.re.eq(rvalid),
                ]
                # The lane by a multiplexer, not as rdata >> (dout * 32): Verilog sizes that
                # product to its operands' width, 6 bits, and lane 3 of a 128-bit port
                # (96) read lane 1 (Migen's own simulator keeps every bit).
                lane_words = Array(rdata[32 * i:32 * (i + 1)] for i in range(lanes))
                self.sync += [
                    self.resp_valid.eq(rvalid),
                    self.resp_data.eq(lane_words[fifo.dout]),
                ]
            else:
                self.sync += [self.resp_valid.eq(rvalid), self.resp_data.eq(rdata)]
