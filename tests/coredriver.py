# SPDX-License-Identifier: MIT
"""The one test driver of the hash cores' common signature (gateware/common/core_signature.py,
docs/engine-interface.md), used from an async Amaranth testbench by the tests of every core:
SHA-256 (and HMAC around it), SHA-512 and Keccak.

It keeps the contract's rules where a core could break them: `init` only while `busy` = 0,
`mode` sampled on `init` only (junk on it afterwards), junk on a beat's unused bytes and on
the input lines while `beats.valid` is 0 (with `gap`, the chance of such an idle clock before
each beat), `done` cleared by an accepted beat, no `done` while `busy`. It counts clocks
(`clock`) and records the clock of every accepted beat (`accepted`) for the clock budgets.
Keccak's own (squeeze, output longer than the rate) is KeccakDriver here, used by
test_keccak_core and test_spec; the HMAC key stays in test_hmac_core.
"""

import random

from amaranth.sim import Simulator

from gateware import hashspec
import gateware.keccak.core as keccak_core


class CoreDriver:
    def __init__(self, dut, ctx, engine, *, seed=0, gap=0.0):
        self.dut, self.ctx = dut, ctx
        self.rng = random.Random(seed)
        self.gap = gap
        self.digest_bytes = {a.mode: a.digest for a in hashspec.algorithms_of(engine)}
        self.clock = 0
        self.accepted = []      # the clock of every accepted beat

    async def tick(self, n=1):
        for _ in range(n):
            await self.ctx.tick()
            self.clock += 1

    async def init(self, mode):
        ctx, dut = self.ctx, self.dut
        assert ctx.get(dut.busy) == 0
        ctx.set(dut.mode, mode)
        ctx.set(dut.init, 1)
        await self.tick()
        ctx.set(dut.init, 0)
        ctx.set(dut.mode, self.rng.randrange(16))      # mode is only sampled on init
        assert ctx.get(dut.done) == 0

    def beats(self, data, last, zero_beat):
        """(word, nbytes, last) beats; the unused bytes of a partial beat hold junk. With
        `last`, the final beat carries `last`: 1..4 bytes, or 0 for the empty message or,
        with zero_beat, after a message that ends on a full beat."""
        beats = []
        for i in range(0, len(data), 4):
            chunk = data[i:i + 4]
            junk = bytes(self.rng.randrange(256) for _ in range(4 - len(chunk)))
            beats.append([int.from_bytes(chunk + junk, "little"), len(chunk), False])
        assert last or len(data) % 4 == 0, "only the last beat may be partial"
        if last:
            if not beats or (zero_beat and beats[-1][1] == 4):
                beats.append([self.rng.getrandbits(32), 0, True])
            else:
                beats[-1][2] = True
        return beats

    async def stream(self, data, *, last=True, zero_beat=False):
        ctx, dut = self.ctx, self.dut
        for word, nbytes, is_last in self.beats(data, last, zero_beat):
            while True:
                valid = not (self.gap and self.rng.random() < self.gap)
                ctx.set(dut.beats.valid, valid)
                if valid:
                    ctx.set(dut.beats.payload.data, word)
                    ctx.set(dut.beats.payload.nbytes, nbytes)
                    ctx.set(dut.beats.payload.last, is_last)
                else:                                   # junk that must be ignored
                    ctx.set(dut.beats.payload.data, self.rng.getrandbits(32))
                    ctx.set(dut.beats.payload.nbytes, self.rng.randrange(5))
                    ctx.set(dut.beats.payload.last, self.rng.randrange(2))
                accepted = valid and ctx.get(dut.beats.ready)
                await self.tick()
                if accepted:
                    self.accepted.append(self.clock)
                    assert ctx.get(dut.done) == 0, "done after an accepted beat"
                    break
        ctx.set(dut.beats.valid, 0)
        ctx.set(dut.beats.payload.last, 0)

    async def wait(self, signal, value, limit=10_000):
        """Clocks until `signal` reads `value`."""
        n = 0
        while self.ctx.get(signal) != value:
            await self.tick()
            n += 1
            assert n < limit, f"{signal.name} stuck"
        return n

    async def wait_idle(self, want_done, limit=10_000):
        ctx, dut = self.ctx, self.dut
        for _ in range(limit):
            if not ctx.get(dut.busy):
                break
            assert ctx.get(dut.done) == 0, "done while busy"
            await self.tick()
        else:
            raise AssertionError("core stuck busy")
        assert ctx.get(dut.done) == int(want_done)

    async def read_ctx(self, addrs):
        """The context words at `addrs` (the port is registered: one clock each)."""
        ctx, dut = self.ctx, self.dut
        words = []
        for addr in addrs:
            ctx.set(dut.ctx_addr, addr)
            await self.tick()
            words.append(ctx.get(dut.ctx_rdata))
        return words

    async def write_ctx(self, words, first=0, *, while_busy=False):
        """Context words from `first` on; while_busy: a misuse the core must ignore."""
        assert self.ctx.get(self.dut.busy) == int(while_busy)
        await self.write_words(self.dut.ctx_we, words, first)

    async def write_words(self, strobe, words, first=0):
        """One word a clock on ctx_addr/ctx_wdata from `first` on, with `strobe` (the
        core's ctx_we, or its key_we: the HMAC key words share the address and data lines)."""
        ctx = self.ctx
        ctx.set(strobe, 1)
        for k, word in enumerate(words):
            ctx.set(self.dut.ctx_addr, first + k)
            ctx.set(self.dut.ctx_wdata, word)
            await self.tick()
        ctx.set(strobe, 0)

    async def read_bytes(self, nbytes):
        """The first `nbytes` of the context, as software reads the digest."""
        words = await self.read_ctx(range((nbytes + 3) // 4))
        return b"".join(w.to_bytes(4, "little") for w in words)[:nbytes]

    async def output(self, mode, nbytes):
        """`nbytes` of the finished message's output (Keccak's driver squeezes for more)."""
        return await self.read_bytes(nbytes)

    async def digest(self, mode):
        return await self.output(mode, self.digest_bytes[mode])

    async def hash(self, mode, data, nbytes=None, *, zero_beat=False):
        await self.init(mode)
        await self.stream(data, zero_beat=zero_beat)
        await self.wait_idle(want_done=True)
        return await (self.digest(mode) if nbytes is None else self.output(mode, nbytes))


def keccak_output_bytes(alg):
    """A Keccak mode's digest bytes; for an extendable-output function the length its
    users expect by default, the capacity (SHAKE128: 32, SHAKE256: 64)."""
    return alg.digest or 200 - alg.block


class KeccakDriver(CoreDriver):
    """CoreDriver with what is Keccak's own: squeeze, output longer than the rate (read
    from the core module's MODES when asked, so a test that reloads it with another mode
    table, as test_spec's, gets that table), SHAKE's default lengths."""

    def __init__(self, dut, ctx, engine="keccak", **kw):
        super().__init__(dut, ctx, engine, **kw)
        self.digest_bytes = {a.mode: keccak_output_bytes(a) for a in hashspec.algorithms_of(engine)}

    async def init(self, mode):
        await super().init(mode)
        assert self.ctx.get(self.dut.busy) == 0

    async def squeeze(self):
        ctx, dut = self.ctx, self.dut
        ctx.set(dut.squeeze, 1)
        await self.tick()
        ctx.set(dut.squeeze, 0)
        assert (ctx.get(dut.done), ctx.get(dut.busy)) == (0, 1)
        return await self.wait(dut.done, 1, limit=200) + 1     # clocks from the pulse to done

    async def output(self, mode, nbytes):
        """Read nbytes of output: rate bytes per permutation, squeezing as needed."""
        rate = keccak_core.MODES[mode][1]
        out = b""
        while True:
            out += await self.read_bytes(min(rate, nbytes - len(out)))
            if len(out) == nbytes:
                return out
            await self.squeeze()


def check_digests(dut, engine, messages, expected, driver=CoreDriver, **driver_args):
    """Hash every (mode, bytes, digest) of `messages` in one simulation of `dut` (a digest
    of None: expected(mode, bytes)), every third message closed by an empty last beat when
    it ends on a full one; fails listing the wrong ones."""
    failures = []

    async def bench(h):
        for i, (mode, data, want) in enumerate(messages):
            want = want or expected(mode, data)
            got = await h.hash(mode, data, zero_beat=bool(i % 3 == 2))
            if got != want:
                failures.append(f"mode {mode} len {len(data)}: {got.hex()} != {want.hex()}")

    simulate(dut, bench, engine, driver, **driver_args)
    assert not failures, f"{len(failures)}/{len(messages)} wrong:\n" + "\n".join(failures[:10])


def simulate(dut, bench, engine, driver=CoreDriver, **driver_args):
    """Run bench(driver) in one fresh simulation of `dut`."""
    sim = Simulator(dut)
    sim.add_clock(1e-8)

    async def testbench(ctx):
        await bench(driver(dut, ctx, engine, **driver_args))

    sim.add_testbench(testbench)
    sim.run()
