# SPDX-License-Identifier: MIT
# amaranth: UnusedElaboratable=no
"""The shared frontend (gateware/common/engine.py) around the SHA-256 core.

Window PIO, DMA at any alignment and in several chunks, back-to-back messages, every
error bit, abort, and the DMA rate. Digests are checked against hashlib.
"""

import hashlib
import hmac
import random


from enginebench import RAM_BASE, run
from gateware import hashspec
from gateware.common.engine import (ERR_BAD_RANGE, ERR_BAD_MODE, ERR_BUSY, ERR_CTX_BUSY,
                                    ERR_DMA_BUS, ERR_NOT_OPEN, ERR_PIO_DURING_DMA, ERR_SQUEEZE,
                                    KEY_WORD)
from gateware.engines import make_engine
from gateware.sha256.hmac import key_words

SHA256, SHA224 = 0, 1
ALGS = {SHA256: (hashlib.sha256, 8), SHA224: (hashlib.sha224, 7)}


RAM_SIZE = 1 << 20
BAD_RAM = (RAM_BASE + 0x80000, RAM_BASE + 0x81000)     # answers with a bus error


DEVICE_KEY = bytes(range(0x40, 0x40 + hashspec.DEVICE_KEY_BYTES))
NO_MODE = min(set(range(16)) - set(hashspec.modes("sha256")))


def engine():
    return make_engine("sha256", "folded", dma_window=(RAM_BASE, RAM_SIZE), device_key=DEVICE_KEY)


async def digest(b, mode):
    await b.wait_done()
    assert b.ctx.get(b.dut.errors) == 0, f"errors {b.ctx.get(b.dut.errors):#x}"
    assert b.ctx.get(b.dut.st_done)
    return await b.context(ALGS[mode][1])


def test_pio_lengths_and_modes():
    rng = random.Random(1)
    msgs = [(rng.choice([SHA256, SHA224]), rng.randbytes(n)) for n in
            [0, 1, 3, 4, 5, 55, 56, 63, 64, 65, 119, 120, 128, 200]]

    async def body(b):
        out = []
        for mode, msg in msgs:
            await b.init(mode)
            await b.pio(msg)
            out.append(await digest(b, mode))
        return out

    got = run(engine(), body)
    for (mode, msg), d in zip(msgs, got):
        assert d == ALGS[mode][0](msg).digest(), (mode, len(msg))


def test_dma_any_alignment_and_chunks():
    rng = random.Random(2)
    cases = []
    for _ in range(10):
        msg = rng.randbytes(rng.randrange(0, 300))
        # split into 1..4 chunks, each at its own (unaligned) address
        cuts = sorted(rng.sample(range(len(msg) + 1), min(len(msg), rng.randrange(0, 4))))
        pieces = [msg[a:b] for a, b in zip([0] + cuts, cuts + [len(msg)])]
        cases.append((msg, pieces))

    async def body(b):
        out = []
        addr = RAM_BASE + 1
        for msg, pieces in cases:
            await b.init(SHA256)
            for i, p in enumerate(pieces):
                b.put(addr, p)
                await b.dma(addr, len(p), last=(i == len(pieces) - 1))
                addr += len(p) + rng.randrange(1, 8)
            out.append(await digest(b, SHA256))
        return out

    got = run(engine(), body)
    for (msg, _), d in zip(cases, got):
        assert d == hashlib.sha256(msg).digest(), len(msg)


def test_dma_then_pio_tail_and_zero_length_last():
    msg = bytes(range(256)) * 2

    async def body(b):
        b.put(RAM_BASE, msg)
        await b.init(SHA256)
        await b.dma(RAM_BASE, 256, last=False)
        await b.pio(msg[256:])                      # rest through the window
        d1 = await digest(b, SHA256)
        await b.init(SHA224)
        await b.dma(RAM_BASE, 512, last=False)
        await b.dma(RAM_BASE + 512, 0, last=True)   # empty closing command
        d2 = await digest(b, SHA224)
        return d1, d2

    d1, d2 = run(engine(), body)
    assert d1 == hashlib.sha256(msg).digest()
    assert d2 == hashlib.sha224(msg).digest()


def test_export_import_through_window():
    a = bytes(range(128))          # two blocks, then export
    rest = b"the rest of the message"
    other = b"another user of the engine"

    async def body(b):
        await b.init(SHA256)
        await b.pio(a, last=False)
        await b.wait(lambda: not b.ctx.get(b.dut.st_busy))
        saved = await b.context(10)
        await b.init(SHA224)
        await b.pio(other)
        d_other = await digest(b, SHA224)
        await b.init(SHA256)
        for i in range(10):
            await b.write(0x800 + i, int.from_bytes(saved[4 * i:4 * i + 4], "little"))
        await b.pio(rest)
        return d_other, await digest(b, SHA256)

    d_other, d = run(engine(), body)
    assert d_other == hashlib.sha224(other).digest()
    assert d == hashlib.sha256(a + rest).digest()


def err_bit(b, n):
    return (b.ctx.get(b.dut.errors) >> n) & 1


def test_misuse_sets_error_bits_and_loses_nothing():
    async def body(b):
        seen = {}
        # data with no open message
        await b.write(0, 0x11223344)
        seen["not_open"] = err_bit(b, ERR_NOT_OPEN)
        await b.dma(RAM_BASE, 4, last=True)
        seen["dma_not_open"] = err_bit(b, ERR_NOT_OPEN)
        await b.pulse(ctrl_err_clear=1)
        seen["cleared"] = b.ctx.get(b.dut.errors)
        # bad mode
        await b.init(NO_MODE)
        seen["bad_mode"] = err_bit(b, ERR_BAD_MODE) and not b.ctx.get(b.dut.st_open)
        # squeeze on a non-XOF engine
        await b.pulse(ctrl_squeeze=1)
        seen["squeeze"] = err_bit(b, ERR_SQUEEZE)
        # DMA outside main RAM, across its end, or wrapping past 4 GiB: refused
        await b.init(SHA256)
        seen["bad_range"] = True
        for addr, n in [(0xFFFF_FF00, 0x200), (0x1000_0000, 64), (RAM_BASE + RAM_SIZE - 8, 16),
                        (RAM_BASE - 4, 8)]:
            await b.pulse(ctrl_err_clear=1)
            await b.dma(addr, n, last=True, wait=False)
            seen["bad_range"] &= bool(err_bit(b, ERR_BAD_RANGE)) and not b.ctx.get(b.dut.st_dma_busy)
        await b.pulse(ctrl_err_clear=1)
        # the message is still open and intact after these ignored commands
        await b.pio(b"hello")
        seen["hello"] = await b.context(8) if (await _done(b)) else None
        await b.pulse(ctrl_err_clear=1)
        # PIO while DMA runs: the message is aborted, no digest is ever shown as done
        b.put(RAM_BASE, bytes(4096))
        await b.init(SHA256)
        await b.dma(RAM_BASE, 4096, last=True, wait=False)
        await b.tick(20)
        await b.write(0, 0xDEADBEEF)
        seen["pio_during_dma"] = err_bit(b, ERR_PIO_DURING_DMA)
        await b.wait(lambda: not b.ctx.get(b.dut.st_busy))
        await b.tick(200)
        seen["aborted_not_done"] = not b.ctx.get(b.dut.st_done) and not b.ctx.get(b.dut.st_open)
        await b.pulse(ctrl_err_clear=1)
        # init, context write while busy
        await b.init(SHA256)
        await b.pio(bytes(64), last=False)          # a block is compressing now
        await b.init(SHA224)
        seen["init_busy"] = err_bit(b, ERR_BUSY)
        await b.write(0x800, 0x12345678)
        await b.read(0x800)
        seen["ctx_busy"] = err_bit(b, ERR_CTX_BUSY)
        await b.pio(b"", last=True)
        seen["after_busy"] = await b.context(8) if (await _done(b)) else None
        await b.pulse(ctrl_err_clear=1)
        # DMA bus error: message aborted, engine usable afterwards
        await b.init(SHA256)
        await b.dma(BAD_RAM[0], 64, last=True)
        seen["dma_bus"] = err_bit(b, ERR_DMA_BUS) and not b.ctx.get(b.dut.st_open)
        await b.pulse(ctrl_err_clear=1)
        await b.init(SHA256)
        await b.pio(b"hello")
        seen["usable"] = await b.context(8) if (await _done(b)) else None
        return seen

    seen = run(engine(), body, err_range=BAD_RAM)
    hello = hashlib.sha256(b"hello").digest()
    assert seen["not_open"] and seen["dma_not_open"]
    assert seen["cleared"] == 0
    assert seen["bad_mode"] and seen["squeeze"] and seen["bad_range"]
    assert seen["hello"] == hello
    assert seen["pio_during_dma"] and seen["aborted_not_done"]
    assert seen["init_busy"] and seen["ctx_busy"]
    assert seen["after_busy"] == hashlib.sha256(bytes(64)).digest()
    assert seen["dma_bus"]
    assert seen["usable"] == hello


async def _done(b):
    await b.wait(lambda: b.ctx.get(b.dut.st_done), limit=2000)
    return True


def test_abort_mid_dma_leaves_engine_usable():
    async def body(b):
        b.put(RAM_BASE, bytes(8192))
        await b.init(SHA256)
        await b.dma(RAM_BASE, 8192, last=True, wait=False)
        await b.tick(300)
        await b.pulse(ctrl_abort=1)
        await b.wait(lambda: not b.ctx.get(b.dut.st_busy), limit=100)
        aborted = not b.ctx.get(b.dut.st_done) and b.ctx.get(b.dut.errors) == 0
        await b.init(SHA256)
        b.put(RAM_BASE + 3, b"hello")
        await b.dma(RAM_BASE + 3, 5, last=True)
        return aborted, await digest(b, SHA256)

    aborted, d = run(engine(), body)
    assert aborted
    assert d == hashlib.sha256(b"hello").digest()


def test_dma_rate_is_engine_bound():
    """4 KiB by DMA from RAM answering every other clock: the core's 64 clocks/block bound.

    Asserts clocks, not time: the DMA must keep the core fed (within 10% of 64 clk/block).
    """
    n = 4096

    async def body(b):
        b.put(RAM_BASE, bytes(n))
        await b.init(SHA256)
        t0 = b.clk
        await b.dma(RAM_BASE, n, last=True)
        await b.wait_done()
        return b.clk - t0, await digest(b, SHA256)

    clocks, d = run(engine(), body)
    assert d == hashlib.sha256(bytes(n)).digest()
    blocks = n // 64 + 1
    assert clocks <= 1.10 * 64 * blocks, clocks


def test_hmac_key_region():
    """The key words: written through the window, never read back, refused while a
    message is open (the MAC then still uses the key it began with), kept over an abort;
    the device-key mode uses the engine's own key. MACs by DMA against Python's hmac."""
    key, other = b"the key of this test", b"another key"
    msg = bytes(range(256)) * 3
    window, device = hashspec.hmac_mode("SHA256", "window"), hashspec.hmac_mode("SHA256", "device")

    async def mac(b, mode, n=len(msg)):
        await b.init(mode)
        await b.dma(RAM_BASE, n, last=True)
        return await digest(b, SHA256)

    async def write_key(b, k):
        for i, w in enumerate(key_words(k)):
            await b.write(KEY_WORD + i, w)

    async def body(b):
        seen = {}
        b.put(RAM_BASE, msg)
        await write_key(b, key)
        seen["reads"] = [await b.read(KEY_WORD + i) for i in range(16)]
        seen["window"] = await mac(b, window)
        await b.init(window)
        await b.dma(RAM_BASE, 512, last=False)
        await write_key(b, other)                   # refused: the message is open
        seen["busy"] = err_bit(b, ERR_BUSY)
        await b.pulse(ctrl_err_clear=1)
        await b.dma(RAM_BASE + 512, len(msg) - 512, last=True)
        seen["kept"] = await digest(b, SHA256)
        seen["device"] = await mac(b, device)
        await b.pulse(ctrl_abort=1)
        await b.tick(4)
        seen["after_abort"] = await mac(b, window)
        return seen

    seen = run(engine(), body)
    assert set(seen["reads"]) == {0}
    assert seen["window"] == seen["kept"] == hmac.new(key, msg, "sha256").digest()
    assert seen["busy"]
    assert seen["device"] == hmac.new(DEVICE_KEY, msg, "sha256").digest()
    assert seen["after_abort"] == hmac.new(key, msg, "sha256").digest()
