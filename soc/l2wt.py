# SPDX-License-Identifier: MIT
"""Write-through L2 cache between the main Wishbone bus and a LiteDRAM native port.

Replaces LiteX's write-back `wishbone.Cache` on the boards so that the SDRAM always holds
the latest data: the hash engines read main RAM on their own LiteDRAM ports (pipelined,
gateware/litedram_dma.py), around this cache, and would otherwise miss dirty lines.

    CPU (write-through D-cache) ──► Wishbone ──► WriteThroughL2 ──► native port ─┐
    engines' DMA ───────────────────────────────────────────────► native ports ─┴► crossbar

Organisation: direct-mapped, `size` bytes (boards/ulx3s.py's L2_SIZE on the ULX3S),
16-byte (128-bit) lines, like the LiteX L2 it replaces. No dirty bits, no flush: a line
is only ever a copy of the SDRAM.
- read hit: the word from the line;
- read miss: the line is refilled from the port (one command per port word, all issued
  back to back), then looked up again;
- write: always sent to the SDRAM (one command per port word); the line is updated too
  when it holds the address. The write is *posted*: the bus is acknowledged as soon as the
  word, its address and byte selects are captured, and the cache sends it to LiteDRAM on
  its own while the CPU goes on; the cache takes its next bus request once LiteDRAM has
  taken the command(s) and the data (`wdata.ready`). `write_pending` is high meanwhile.

Coherence (checked in LiteDRAM 2024.12's source, litedram/core/bankmachine.py and
crossbar.py): each bank machine queues the commands it is given in one FIFO
(`cmd_buffer_lookahead` then `cmd_buffer`) and issues them in that order; a command
leaves the queue on the clock its column command is granted (`cmd_buffer.source.ready =
wdata_ready | rdata_valid`), and the crossbar hands a port `wdata.ready` (delayed by the
PHY's write latency) only then. So when this cache acknowledges a write, its column
command has already gone to the SDRAM, and any read of that address accepted later from
any port (same address, same bank, same queue) is issued after it and returns the new
data. A posted write is acknowledged before that point, so each DMA command is fenced:
the CPU starts it with a CSR write, which VexRiscv's single in-order data bus only issues
after the acks of its earlier stores; by then each of them is either in LiteDRAM's bank
queue or the one write pending here (this cache takes one at a time), and the engine's
port issues nothing from that start until `write_pending` has been low once
(gateware/litedram_dma.py's `fence`; HashSoC.add_hash_engines wires `hold`). So a command
cannot see stale data. Stores the CPU makes while a command runs are not waited for: they
cannot be its data, which must stay unchanged until it ends.

Clock budget (sys_clk, on an idle port):
- read hit: 3 clocks per word (request; tag/data read; registered compare -> ack),
  one more than LiteX's L2, whose ack came straight from the tag compare. The register
  is there for timing: that compare-to-ack path set the ULX3S's Fmax once (docs/fpga.md).
- read miss: 3 + refill (port latency + 128/port_width commands) + 3.
- write: 2 clocks to the ack (request; capture -> ack); the cache is then busy for one
  command acceptance and the write latency to `wdata.ready` per port command (~5-8
  clocks on the ULX3S's SDR SDRAM, twice for a full 32-bit word), which overlaps with
  whatever the CPU does next without the bus (D-cache hits, ALU work).
"""

from migen import Array, Cat, FSM, If, Memory, NextState, NextValue, Replicate, Signal

from litex.gen import LiteXModule

LINE_BYTES = 16


def _log2(n):
    assert n > 0 and n & (n - 1) == 0, n
    return n.bit_length() - 1


# No products here: Verilog sizes `a * b` to its context (an assignment's width, or its
# own operands' inside a shift amount), where Migen's simulator, which tests/test_l2wt.py
# runs, keeps every bit. (word * 4) >> log2(dw / 8) as the port address was one bit short
# on the ULX3S (16-bit SDRAM): the CPU's upper 16 MiB of SDRAM landed on the lower, which
# only the Verilog showed (the firmware's self-test, `ram_every_mib_*`, on the twin); and
# a store's byte enables `sel << (lane * 4)`, sized to 3 bits, put lane 3 of a 128-bit
# port (the Arty's DDR3) on lane 1. These two build such values by wiring.
def _scaled(index, n):
    """index * n, for n a power of two."""
    return Cat(Replicate(0, _log2(n)), index) if n > 1 else index


def _port_word(word, dw):
    """The address of the port word (dw bits) that holds 32-bit word `word`."""
    return _scaled(word, 32 // dw) if dw < 32 else word[_log2(dw // 32):]


class WriteThroughL2(LiteXModule):
    """`bus`: 32-bit word-addressed Wishbone slave (full bus address); `port`: LiteDRAM
    native port ("both"), 8 to 128 bits; `base_address`: byte address of the SDRAM's
    first byte on the bus; `size`: cache size in bytes."""

    def __init__(self, bus, port, base_address, size=8192):
        assert bus.data_width == 32
        dw = port.data_width
        assert 8 <= dw <= LINE_BYTES * 8 and dw & (dw - 1) == 0, dw
        self.bus, self.port = bus, port
        nlines = size // LINE_BYTES
        words_per_line = LINE_BYTES // 4
        beats_per_line = LINE_BYTES * 8 // dw
        mem_width = max(32, dw)                 # one refill beat per memory write
        words_per_entry = mem_width // 32
        entries_per_line = LINE_BYTES * 8 // mem_width
        # Port words per 32-bit bus word (dw < 32), or bus words per port word (dw >= 32).
        ratio = 32 // dw if dw < 32 else 1
        index_bits = _log2(nlines)
        offset_bits = _log2(words_per_line)
        # Word address within the SDRAM, wide enough for the whole port.
        sdram_words = (1 << len(port.cmd.addr)) * dw // 32
        addr_bits = _log2(sdram_words)
        tag_bits = addr_bits - index_bits - offset_bits
        assert tag_bits > 0

        # ---- storage ----
        data_mem = Memory(mem_width, nlines * entries_per_line)
        tag_mem = Memory(tag_bits + 1, nlines)          # {valid, tag}, all invalid at power-up
        data_rd = data_mem.get_port()
        data_wr = data_mem.get_port(write_capable=True, we_granularity=8)
        tag_rd = tag_mem.get_port()
        tag_wr = tag_mem.get_port(write_capable=True)
        self.specials += data_mem, tag_mem, data_rd, data_wr, tag_rd, tag_wr

        # ---- address split (the master holds adr stable through the cycle) ----
        word = Signal(addr_bits)
        self.comb += word.eq(bus.adr - (base_address >> 2))
        w_index = word[offset_bits:offset_bits + index_bits]
        w_tag = word[offset_bits + index_bits:]
        entry_sel = word[_log2(words_per_entry):offset_bits] if entries_per_line > 1 else 0
        lane = word[:_log2(words_per_entry)] if words_per_entry > 1 else 0
        # Reads are issued every clock from the bus address; results are used one clock
        # later (LOOKUP), never in a clock where the same entry is being written.
        self.comb += [
            tag_rd.adr.eq(w_index),
            data_rd.adr.eq(Cat(entry_sel, w_index) if entries_per_line > 1 else w_index),
        ]

        # ---- lookup, registered before the ack ----
        hit = Signal()
        rdata = Signal(32)
        lookup_hit = Signal()
        self.comb += lookup_hit.eq(tag_rd.dat_r == Cat(w_tag, 1))
        if words_per_entry > 1:
            lanes = [data_rd.dat_r[32 * i:32 * (i + 1)] for i in range(words_per_entry)]
            rword = Array(lanes)[lane]
        else:
            rword = data_rd.dat_r

        # ---- the posted write: captured at the ack, sent from these registers ----
        self.write_pending = Signal()
        wr_word = Signal(addr_bits)
        wr_dat = Signal(32)
        wr_sel = Signal(4)
        wr_index = wr_word[offset_bits:offset_bits + index_bits]
        wr_entry_sel = wr_word[_log2(words_per_entry):offset_bits] if entries_per_line > 1 else 0
        wr_lane = wr_word[:_log2(words_per_entry)] if words_per_entry > 1 else 0

        # ---- port commands ----
        cmd_count = Signal(max=max(beats_per_line, ratio) + 1)
        beat_count = Signal(max=beats_per_line + 1)
        line_port_addr = Signal(len(port.cmd.addr))     # first port word of the line
        word_port_addr = Signal(len(port.cmd.addr))     # port word holding the bus word
        self.comb += [
            line_port_addr.eq(_port_word(Cat(Replicate(0, offset_bits), w_index, w_tag), dw)),
            word_port_addr.eq(_port_word(wr_word, dw)),
            port.rdata.ready.eq(1),
            port.flush.eq(0),
        ]
        # Write data: the bus word in its lane(s) of the port word; byte enables from sel.
        if dw >= 32:
            wlane = wr_word[:_log2(dw // 32)] if dw > 32 else 0
            self.comb += [
                port.wdata.data.eq(Replicate(wr_dat, dw // 32)),
                port.wdata.we.eq(wr_sel << _scaled(wlane, 4) if dw > 32 else wr_sel),
            ]
            write_cmds = 1
        else:
            chunk = Signal(max=ratio)       # which dw-wide piece of the word this command is
            self.comb += [
                port.wdata.data.eq(wr_dat >> _scaled(chunk, dw)),
                port.wdata.we.eq(wr_sel >> _scaled(chunk, dw // 8)),
            ]
            write_cmds = ratio

        self.fsm = fsm = FSM(reset_state="IDLE")
        req = bus.cyc & bus.stb
        fsm.act("IDLE",
            # The tag and data reads for bus.adr happen on this clock.
            If(req & ~bus.ack, NextState("LOOKUP"))
        )
        fsm.act("LOOKUP",
            NextValue(hit, lookup_hit),
            NextValue(rdata, rword),
            If(bus.we,
                bus.ack.eq(1),          # posted: from the state and the request only
                NextValue(wr_word, word),
                NextValue(wr_dat, bus.dat_w),
                NextValue(wr_sel, bus.sel),
                NextValue(cmd_count, 0),
                NextState("WRITE_CMD")
            ).Else(
                NextState("READ_TEST")
            )
        )
        fsm.act("READ_TEST",
            If(hit,
                bus.ack.eq(1),          # from registers only
                bus.dat_r.eq(rdata),
                NextState("IDLE")
            ).Else(
                NextValue(cmd_count, 0),
                NextValue(beat_count, 0),
                NextState("REFILL")
            )
        )
        # Refill: issue every command of the line back to back; answers come in order.
        fsm.act("REFILL",
            port.cmd.valid.eq(cmd_count != beats_per_line),
            port.cmd.we.eq(0),
            port.cmd.addr.eq(line_port_addr + cmd_count),
            If(port.cmd.valid & port.cmd.ready, NextValue(cmd_count, cmd_count + 1)),
            If(beat_count == beats_per_line,
                NextState("REFILL_TAG")
            )
        )
        # Refill data: beat i goes to entry i // (mem_width // dw), lane (i % ...) of it.
        beats_per_entry = mem_width // dw
        self.comb += [
            data_wr.adr.eq(Cat(beat_count[_log2(beats_per_entry):_log2(beats_per_line)], w_index)
                           if entries_per_line > 1 else w_index),
            data_wr.dat_w.eq(Replicate(port.rdata.data, beats_per_entry)),
        ]
        bytes_per_beat = dw // 8
        with_lane = beats_per_entry > 1
        refill_we = Signal(mem_width // 8)
        if with_lane:
            self.comb += refill_we.eq(Replicate(1, bytes_per_beat) <<
                                      _scaled(beat_count[:_log2(beats_per_entry)], bytes_per_beat))
        else:
            self.comb += refill_we.eq(Replicate(1, mem_width // 8))
        self.sync += If(fsm.ongoing("REFILL") & port.rdata.valid, beat_count.eq(beat_count + 1))
        fsm.act("REFILL_TAG",
            tag_wr.adr.eq(w_index),
            tag_wr.dat_w.eq(Cat(w_tag, 1)),
            tag_wr.we.eq(1),
            NextState("IDLE")           # IDLE re-reads tag and data, then LOOKUP hits
        )
        # Writes: one port command per dw-wide piece (a 32-bit word is 2 on a 16-bit SDRAM),
        # each held until LiteDRAM takes its data. The line is updated on the first clock.
        fsm.act("WRITE_CMD",
            port.cmd.valid.eq(1),
            port.cmd.we.eq(1),
            port.cmd.addr.eq(word_port_addr + cmd_count),
            If(port.cmd.ready, NextState("WRITE_DATA"))
        )
        fsm.act("WRITE_DATA",
            port.wdata.valid.eq(1),
            If(port.wdata.ready,
                NextValue(cmd_count, cmd_count + 1),
                If(cmd_count == write_cmds - 1,
                    NextState("IDLE")
                ).Else(
                    NextState("WRITE_CMD")
                )
            )
        )
        if dw < 32:
            self.comb += chunk.eq(cmd_count)
        # The line update: on a hit, the bus word with its byte selects, written while the
        # first command is presented (the data memory is not read in that clock).
        cpu_we = Signal(mem_width // 8)
        self.comb += cpu_we.eq(wr_sel << _scaled(wr_lane, 4) if words_per_entry > 1 else wr_sel)
        first_write = Signal()
        self.comb += first_write.eq(fsm.ongoing("WRITE_CMD") & (cmd_count == 0) & hit)
        self.comb += self.write_pending.eq(fsm.ongoing("WRITE_CMD") | fsm.ongoing("WRITE_DATA"))
        self.comb += If(first_write,
            data_wr.adr.eq(Cat(wr_entry_sel, wr_index) if entries_per_line > 1 else wr_index),
            data_wr.dat_w.eq(Replicate(wr_dat, words_per_entry)),
            data_wr.we.eq(cpu_we),
        ).Elif(fsm.ongoing("REFILL") & port.rdata.valid,
            data_wr.we.eq(refill_we),
        )
