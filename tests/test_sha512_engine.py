# SPDX-License-Identifier: MIT
# amaranth: UnusedElaboratable=no
"""The SHA-512 engine: the shared frontend (gateware/common/engine.py) around the SHA-2
core on 64-bit words. What differs from the SHA-256 engine: four modes, 128-byte blocks,
an 18-word context, a 32-word HMAC key. Window PIO, DMA at any alignment, export/import
through the window, a mode it does not have, HMAC-SHA-512/384 through the window's key words
and with the device key, and the DMA rate; digests against hashlib and hmac. (Scatter-gather:
tests/test_sg_dma.py.)
"""

import hashlib
import hmac
import random

from enginebench import RAM_BASE, run
from gateware import hashspec
from gateware.common.engine import CTX_WORD, ERR_BAD_MODE, ERR_BUSY, KEY_WORD
from gateware.engines import make_engine
from gateware.sha256.hmac import key_words

ALGS = hashspec.algorithms_of("sha512")
CTX_WORDS = hashspec.engine("sha512").ctx_words
NO_MODE = min(set(range(16)) - set(hashspec.modes("sha512")))
KEY_WORDS = hashspec.engine("sha512").key_words
DEVICE_KEY = bytes(range(0x80, 0x80 + hashspec.DEVICE_KEY_BYTES))


def engine():
    return make_engine("sha512", dma_window=(RAM_BASE, 1 << 20), device_key=DEVICE_KEY)


async def digest(b, alg):
    await b.wait_done()
    assert b.ctx.get(b.dut.errors) == 0, f"errors {b.ctx.get(b.dut.errors):#x}"
    return (await b.context((alg.digest + 3) // 4))[:alg.digest]


def test_pio_and_dma_every_mode():
    rng = random.Random(3)
    cases = [(rng.choice(ALGS), rng.randbytes(n), rng.random() < 0.5)
             for n in [0, 1, 5, 111, 112, 127, 128, 129, 250, 300]]

    async def body(b):
        out = []
        addr = RAM_BASE + 3
        for alg, msg, by_dma in cases:
            await b.init(alg.mode)
            if by_dma:
                b.put(addr, msg)
                await b.dma(addr, len(msg), last=True)
                addr += len(msg) + 5
            else:
                await b.pio(msg)
            out.append(await digest(b, alg))
        return out

    got = run(engine(), body)
    for (alg, msg, _), d in zip(cases, got):
        assert d == hashlib.new(alg.hashlib, msg).digest(), (alg.name, len(msg))


def test_export_import_and_bad_mode():
    """18 context words out after two blocks, another message, the words back in; a mode
    the engine lacks is refused with bad_mode and opens nothing."""
    head, rest, other = bytes(range(256)), b"and the rest", b"meanwhile"
    sha512, sha384 = hashspec.algorithm("sha512"), hashspec.algorithm("sha384")

    async def body(b):
        await b.init(sha512.mode)
        await b.pio(head, last=False)
        await b.wait(lambda: not b.ctx.get(b.dut.st_busy))
        saved = await b.context(CTX_WORDS)
        await b.init(sha384.mode)
        await b.pio(other)
        d_other = await digest(b, sha384)
        await b.init(sha512.mode)
        for i in range(CTX_WORDS):
            await b.write(CTX_WORD + i, int.from_bytes(saved[4 * i:4 * i + 4], "little"))
        await b.pio(rest)
        d = await digest(b, sha512)
        await b.init(NO_MODE)
        refused = (b.ctx.get(b.dut.errors) >> ERR_BAD_MODE) & 1, b.ctx.get(b.dut.st_open)
        return saved, d_other, d, refused

    saved, d_other, d, refused = run(engine(), body)
    assert int.from_bytes(saved[64:68], "little") == 256
    assert d_other == hashlib.sha384(other).digest()
    assert d == hashlib.sha512(head + rest).digest()
    assert refused == (1, 0)


def test_dma_rate_is_engine_bound():
    """16 KiB by DMA from a RAM answering every other clock: within 5% of the core's 80
    clocks per 128-byte block (the DMA gives 2 bytes per clock, the core takes 1.6)."""
    n = 16384

    async def body(b):
        b.put(RAM_BASE, bytes(n))
        await b.init(0)
        t0 = b.clk
        await b.dma(RAM_BASE, n, last=True)
        d = await digest(b, hashspec.algorithm("sha512"))
        return b.clk - t0, d

    clocks, d = run(engine(), body)
    assert d == hashlib.sha512(bytes(n)).digest()
    assert clocks <= 1.05 * 80 * (n // 128 + 1), clocks


def test_hmac_through_the_key_words():
    """HMAC-SHA-512 and -384 (hashspec's modes) with keys of 128 bytes (all 32 key words) and
    20 bytes, by DMA and PIO; the key words read 0 and are refused while a message is open;
    the device key. MACs against Python's hmac."""
    rng = random.Random(5)
    key128, key20, msg = rng.randbytes(128), rng.randbytes(20), rng.randbytes(300)
    cases = [("SHA512", "window", key128, True), ("SHA384", "window", key20, False),
             ("SHA512", "device", None, True), ("SHA384", "device", None, False)]

    async def body(b):
        out = []
        b.put(RAM_BASE, msg)
        for alg, source, key, by_dma in cases:
            if key is not None:
                for i, w in enumerate(key_words(key, KEY_WORDS)):
                    await b.write(KEY_WORD + i, w)
            await b.init(hashspec.hmac_mode(alg, source))
            if by_dma:
                await b.dma(RAM_BASE, len(msg), last=True)
            else:
                await b.pio(msg)
            out.append(await digest(b, hashspec.algorithm(alg)))
        reads = [await b.read(KEY_WORD + i) for i in range(KEY_WORDS)]
        await b.init(hashspec.hmac_mode("SHA512", "window"))
        await b.write(KEY_WORD + 31, 1)            # refused: a message is open
        busy = (b.ctx.get(b.dut.errors) >> ERR_BUSY) & 1
        return out, reads, busy

    out, reads, busy = run(engine(), body)
    for (alg, _, key, _), mac in zip(cases, out):
        name = hashspec.algorithm(alg).hashlib
        assert mac == hmac.new(DEVICE_KEY if key is None else key, msg, name).digest(), alg
    assert set(reads) == {0} and busy
