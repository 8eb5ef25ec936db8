# SPDX-License-Identifier: MIT
"""The C driver (firmware/libhash/driver/) on the host, against a register-level
model of the engines: every driver change checked in seconds, without Verilator.

The driver is compiled unchanged with the host's gcc into a shared object, with a host
platform shim (tests/host/driver/hash_plat_host.h) whose register accesses call back into
Python (ctypes), where tests/host/driver/engine.py answers them as the gateware's frontend
does (gateware/common/engine.py): modes, the data window, context export / import, DMA
and descriptor lists, errors, events, HMAC, cSHAKE and KMAC, with its own SHA-2 and
Keccak cores. LiteX's csr.h and mem.h for the host are written from hashspec's REGISTERS
and windows (tests/host/driver/regmap.py, headers.py). Outputs are checked against hashlib, hmac
and pycryptodome (tests/hashref.py), never against the model. docs/driver-api.md, "Host
tests", says what is modelled and what is not.

Every test ends with no stray register access, no exception inside a callback and every
engine lock released (the `h` fixture). The last tests compile deliberately broken copies
of its files and check that the scenarios notice.

Run: .venv/bin/python -m pytest tests/test_driver_host.py
"""

import ctypes
import hmac
import random
import shutil

import pytest
from Crypto.Hash import cSHAKE128

import hashref
from gateware import hashspec
from host.driver import build, scenarios
from host.driver.host import (ALG, ENGINE, ERR, F_DEVKEY, F_DMA, F_IRQ, F_PIO, F_XOF, HW, OK, SHORT_MAX, SW,
                              Host, Seg)


@pytest.fixture(scope="session")
def built():
    """(the .so, gcc's warnings about the driver): build/hostdrv/<digest>/, made once."""
    return build.library()


@pytest.fixture(scope="session")
def host(built):
    return Host(built[0])


def _checked(host):
    host.reset()
    yield host
    problems = host.finish()
    assert not problems, "\n".join(problems)


@pytest.fixture
def h(host):
    yield from _checked(host)


@pytest.fixture
def fresh(built, tmp_path):
    """Another copy of the driver, loaded anew: its own static state (the engines not yet
    probed). (The dynamic loader would hand back the loaded one for the same file.)"""
    copy = tmp_path / "fresh.so"
    shutil.copy(built[0], copy)
    yield from _checked(Host(copy))


def status_reads(trace):
    return sum(1 for op, _, reg, _ in trace if op == "r" and reg == "status")


def test_driver_compiles_without_warnings(built):
    assert built[1] == "", built[1]


# ---- probe ----

def test_probe_resets_the_engines_once(fresh):
    m = fresh.soc
    m.trace = []
    assert fresh.lib.hash_probe() == (1 << len(hashspec.ENGINES)) - 1
    for e in hashspec.ENGINES:
        mine = [(op, reg, v) for op, n, reg, v in m.trace if n == e.name]
        assert ("r", "id", e.ident_value) in mine
        assert ("w", "ev_enable", 0) in mine
        assert m[e.name].stats["abort"] == 1
    m.trace = []
    assert fresh.lib.hash_probe() == (1 << len(hashspec.ENGINES)) - 1
    assert m.trace == [], "a second probe must not reset engines that may hold messages"


def test_an_absent_engine_is_nodev(fresh):
    fresh.soc["keccak"].present = False
    assert fresh.lib.hash_probe() == (1 << len(hashspec.ENGINES)) - 1 - (1 << ENGINE["keccak"])
    c = fresh.ctx()
    assert fresh.begin(c, "SHA3_256") == ERR["NODEV"]
    assert fresh.digest("SHA3_256", b"abc")[0] == ERR["NODEV"]
    assert fresh.digest("SHA3_256", b"abc", SW)[1] == hashref.reference("SHA3_256", b"abc", 0)
    assert fresh.digest("SHA256", b"abc")[1] == hashref.reference("SHA256", b"abc", 0)


# ---- every algorithm, every feed ----

@pytest.mark.parametrize("alg", [a.key for a in hashspec.ALGORITHMS])
def test_every_length_to_300_and_a_few_kb(h, alg):
    assert scenarios.sweep(h, alg, range(301)) == []
    h.reset()
    assert scenarios.sweep(h, alg, [2048 + 13, 4096 + 3, 5000], feeds=(0, F_PIO, F_IRQ)) == []


@pytest.mark.parametrize("alg", ["SHA224", "SHAKE256", "SHA512_224"])
def test_every_feed_with_a_slow_engine(h, alg):
    """Every operation takes a few status polls: the driver's waits (and only they) see it."""
    for e in hashspec.ENGINES:
        h.soc[e.name].latency = 3
    assert scenarios.sweep(h, alg, range(0, 301, 7), software=False) == []


@pytest.mark.parametrize("alg", [a.key for a in hashspec.ALGORITHMS])
def test_updates_in_random_pieces_give_the_engine_whole_blocks(h, alg):
    """hash_update in random pieces (some empty, any alignment), by DMA and by stores:
    before final the engine only ever has whole blocks (the rest waits in the context)."""
    rnd = random.Random(alg)
    a = hashspec.algorithm(alg)
    model = h.soc[a.engine]
    for flags in (0, F_PIO):
        c, msg = h.ctx(), b""
        model.reset()
        assert h.begin(c, alg, HW, flags) == OK
        while len(msg) < 3 * a.block:
            piece = rnd.randbytes(rnd.choice((0, 1, 3, 17, a.block - 1, a.block + 5)))
            assert h.update(c, piece, rnd.randrange(4)) == OK
            msg += piece
            assert model.stats["bytes"] == len(msg) - len(msg) % a.block
            assert not model.busy
        outlen = scenarios.outlen_for(a, len(msg))
        assert h.final(c, outlen)[1] == hashref.reference(alg, msg, outlen)


# ---- the short path ----

@pytest.mark.parametrize("alg", ["SHA256", "SHA3_512", "SHAKE128", "SHA384"])
@pytest.mark.parametrize("n", [0, 5, SHORT_MAX])
def test_short_path_touches_each_register_once(h, alg, n):
    """Up to HASH_SHORT_MAX bytes, no HASH_F_DMA: init, the words by stores, the final store,
    one status poll, the output words; no DMA, no context words, no interrupt."""
    a = hashspec.algorithm(alg)
    h.soc.trace = []
    r, out = h.digest(alg, hashref.pattern(n), HW, F_IRQ, a.digest or a.block, offset=n % 4)
    want = a.digest or a.block
    assert out == hashref.reference(alg, hashref.pattern(n), want)
    csr = [(op, reg) for op, _, reg, _ in h.soc.trace if isinstance(reg, str)]
    assert csr == [("w", "ctrl"), ("r", "status")]
    st = h.soc[a.engine].stats
    assert (st["init"], st["pio"], st["final"], st["out_read"]) == (1, n // 4, 1, -(-want // 4))
    assert st["dma"] == st["ctx_read"] == st["ctx_write"] == st["irq_wait"] == 0


def test_short_path_waits_for_done(h):
    m = h.soc["keccak"]
    m.latency = 4
    h.soc.trace = []
    assert h.digest("SHA3_224", b"abc")[1] == hashref.reference("SHA3_224", b"abc", 0)
    assert status_reads(h.soc.trace) == 5 and m.stats["error_ctx_busy"] == 0


def test_short_path_limits(h):
    k = h.soc["keccak"].stats
    h.digest("SHA3_256", hashref.pattern(SHORT_MAX + 1))
    h.digest("SHA3_256", b"abc", HW, F_DMA)
    assert k["dma"] == 2, "past HASH_SHORT_MAX or with HASH_F_DMA: a DMA command"
    rate = hashspec.algorithm("SHAKE256").block
    r, out = h.digest("SHAKE256", b"abc", HW, 0, rate + 1)
    assert out == hashref.reference("SHAKE256", b"abc", rate + 1) and k["squeeze"] == 1


def test_short_path_takes_the_engine_from_an_open_context(h):
    words = hashspec.engine("sha256").ctx_words
    c = h.ctx()
    assert h.begin(c, "SHA224") == OK and h.update(c, hashref.pattern(200)) == OK
    assert h.digest("SHA256", b"short")[1] == hashref.reference("SHA256", b"short", 0)
    st = h.soc["sha256"].stats
    assert st["ctx_read"] == words and h.hw_saved(c)
    assert h.update(c, b"more") == OK
    assert h.final(c, 28)[1] == hashref.reference("SHA224", hashref.pattern(200) + b"more", 0)
    assert st["ctx_write"] == words


def test_short_path_waits_for_an_aborted_dma_to_drain(h):
    m = h.soc["sha512"]
    c = h.ctx()
    m.abort_drain = 5
    assert h.begin(c, "SHA512") == OK and h.update(c, hashref.pattern(300)) == OK
    h.lib.hash_abort(c)
    h.soc.trace = []
    assert h.digest("SHA512", b"x")[1] == hashref.reference("SHA512", b"x", 0)
    assert status_reads(h.soc.trace) == 5 + 1 + 1, "polls while draining, one more to see idle, one for done"
    m.abort_drain = None                # the stopped read never ends
    c = h.ctx()
    assert h.begin(c, "SHA512") == OK and h.update(c, hashref.pattern(300)) == OK
    h.lib.hash_abort(c)
    h.spin_limit = 30
    h.soc.trace = []
    assert h.digest("SHA512", b"x")[0] == ERR["TIMEOUT"]
    assert status_reads(h.soc.trace) <= 31
    m.abort_drain = m.drain = 0
    assert h.digest("SHA512", b"x")[1] == hashref.reference("SHA512", b"x", 0)


# ---- hash_update keeps the partial block ----

def test_update_keeps_the_partial_block_in_software(h):
    m = h.soc["sha256"]
    c = h.ctx()
    msg = hashref.pattern(270)
    assert h.begin(c, "SHA256", HW, 0) == OK
    h.soc.trace = []
    assert h.update(c, msg[:10]) == OK
    assert h.soc.trace == [], "less than a block: the engine is not touched"
    assert h.update(c, msg[10:70]) == OK
    assert (m.stats["init"], m.stats["pio"], m.stats["bytes"], m.stats["dma"]) == (1, 16, 64, 0), \
        "the completed block goes from the context's buffer by stores, even for a DMA context"
    p = h.put(msg[70:270], 1)
    assert h.lib.hash_update(c, p, 200) == OK
    # 6 bytes were waiting: 58 top the block up (stores), 128 go by DMA, 14 wait.
    assert m.dma == [(h.bus(p + 58), 128, False)] and m.stats["bytes"] == 256 and m.stats["pio"] == 32
    assert h.final(c, 32)[1] == hashref.reference("SHA256", msg, 0)
    assert m.stats["pio"] == 35 and m.stats["final"] == 1, "the 14-byte tail: 3 words and a 2-byte final store"


# ---- errors ----

def test_bad_arguments_touch_no_register(h):
    c, lib = h.ctx(), h.lib
    h.soc.trace = []
    assert lib.hash_begin(c, len(hashspec.ALGORITHMS), HW, 0) == ERR["ALG"]
    assert lib.hash_begin(c, -1, HW, 0) == ERR["ALG"]
    assert lib.hash_begin(c, ALG["SHA256"], len(hashspec.PROVIDERS), 0) == ERR["ALG"]
    assert lib.hash_begin(c, ALG["SHA256"], HW, F_PIO | F_DMA) == ERR["ARG"]
    assert lib.hash_begin(c, ALG["SHA256"], HW, 0x80) == ERR["ARG"]
    assert lib.hash_begin(None, ALG["SHA256"], HW, 0) == ERR["ARG"]
    assert h.digest("SHA256", b"abc", HW, 0, 31)[0] == ERR["LEN"]
    assert lib.hash_digest(len(hashspec.ALGORITHMS), HW, 0, None, 0, h.alloc(64), 64) == ERR["ALG"]
    assert lib.hash_digest(ALG["SHA256"], HW, 0, None, 5, h.alloc(64), 64) == ERR["ARG"]
    assert h.hmac_begin(c, "SHA3_256", b"k") == ERR["ALG"]
    assert h.hmac_begin(c, "SHA256", b"k", HW, F_DEVKEY) == ERR["ARG"]
    assert lib.hash_cshake_begin(c, ALG["SHA256"], HW, 0, b"N", 1, None, 0) == ERR["ALG"]
    assert lib.hash_kmac_begin(c, ALG["SHA3_256"], HW, 0, b"K", 1, None, 0) == ERR["ALG"]
    assert h.begin(c, "SHA256", SW) == OK
    assert lib.hash_update(c, None, 3) == ERR["ARG"]
    assert lib.hash_update_segs(c, None, 1) == ERR["ARG"]
    assert lib.hash_update_segs(c, (Seg * 1)(), -1) == ERR["ARG"]
    assert h.final(c, 31)[0] == ERR["LEN"], "outlen below the digest: the context stays open"
    assert h.final(c, 32)[0] == 32
    assert h.final(c, 32)[0] == ERR["STATE"] and h.update(c, b"x") == ERR["STATE"]
    assert h.soc.trace == []


def _bit(name):
    return 1 << hashspec.error_bit(name)


def test_dma_bus_error_fails_the_message_and_resets_the_engine(h):
    m = h.soc["keccak"]
    m.fault = lambda addr, n: n > 8            # data reads fail, descriptor reads do not
    assert h.digest("SHA3_256", hashref.pattern(1000))[0] == ERR["HW"]
    c = h.ctx()
    assert h.begin(c, "SHA3_384") == OK
    assert h.update(c, hashref.pattern(1000)) == ERR["HW"]
    assert h.hw_errors(c) & _bit("dma_bus")
    assert h.update(c, b"x") == ERR["STATE"]
    c = h.ctx()
    assert h.begin(c, "SHAKE128") == OK
    assert h.update_segs(c, h.place([hashref.pattern(300)] * 3)) == ERR["HW"]
    assert m.stats["error_dma_bus"] == 3 and m.errors == 0 and not m.open, "abort + err_clear after each"
    m.fault = None
    assert h.digest("SHA3_256", hashref.pattern(1000))[1] == hashref.reference("SHA3_256", hashref.pattern(1000), 0)


def test_memory_outside_main_ram_is_refused(h):
    """The engine refuses a DMA range outside main RAM (bad_range) before reading it; the
    driver fails the message. The same buffer by stores is fine: the CPU reads it."""
    m = h.soc["sha256"]
    heap = ctypes.create_string_buffer(hashref.pattern(1000), 1000)
    c = h.ctx()
    assert h.begin(c, "SHA256") == OK
    assert h.lib.hash_update(c, heap, 1000) == ERR["HW"]
    assert h.hw_errors(c) & _bit("bad_range") and m.stats["bytes"] == 0
    inside = h.place([hashref.pattern(100), hashref.pattern(100)])
    c = h.ctx()
    assert h.begin(c, "SHA256") == OK
    assert h.update_segs(c, inside[:1] + [(ctypes.addressof(heap), 1000)] + inside[1:]) == ERR["HW"]
    assert h.hw_errors(c) & _bit("bad_range")
    assert m.lists[-1] == [(h.bus(inside[0][0]), 100), (h.bus(ctypes.addressof(heap)), 1000)], \
        "the walk stops at the bad descriptor"
    c = h.ctx()
    assert h.begin(c, "SHA256", HW, F_PIO) == OK and h.lib.hash_update(c, heap, 1000) == OK
    assert h.final(c, 32)[1] == hashref.reference("SHA256", hashref.pattern(1000), 0)


# Each runs into one of the driver's waits, with the model's `hang` on what that wait is for
# (HANGS: engine, operation, function): the short path's poll, a DMA command's, final's,
# update's settle, a squeeze, an interrupt that never comes, acquire's wait for an aborted
# DMA to drain, an HMAC import's wait for the ipad block.
def _hang_short(h):
    return h.digest("SHA256", b"abcde")[0]


def _hang_dma(h):
    return h.digest("SHA256", hashref.pattern(1000), HW, F_DMA)[0]


def _hang_final(h):
    c = h.ctx()
    assert h.begin(c, "SHA512", HW, F_PIO) == OK and h.update(c, hashref.pattern(100)) == OK
    return h.final(c, 64)[0]


def _hang_update(h):
    c = h.ctx()
    assert h.begin(c, "SHA3_224", HW, F_PIO) == OK
    return h.update(c, hashref.pattern(300))


def _hang_squeeze(h):
    return h.digest("SHAKE128", hashref.pattern(200), HW, F_DMA, 400)[0]


def _hang_irq(h):
    h.soc["sha256"].irq = "lost"
    return h.digest("SHA256", hashref.pattern(1000), HW, F_IRQ)[0]


def _hang_idle(h):
    m = h.soc["sha256"]
    c = h.ctx()
    assert h.begin(c, "SHA256") == OK and h.update(c, hashref.pattern(64)) == OK
    m.abort_drain = None
    h.lib.hash_abort(c)
    m.abort_drain = 0
    assert h.begin(c, "SHA224") == OK
    return h.update(c, hashref.pattern(64))     # acquire waits for the engine to be idle


def _hang_import(h):
    a, b = h.ctx(), h.ctx()
    assert h.hmac_begin(a, "SHA256", b"key") == OK and h.update(a, hashref.pattern(64)) == OK
    assert h.hmac_begin(b, "SHA256", b"other") == OK and h.update(b, hashref.pattern(64)) == OK
    h.soc["sha256"].hang = "ipad"
    return h.update(a, hashref.pattern(64))     # a's import waits for the ipad block


HANGS = {"short": ("sha256", "final", _hang_short), "dma": ("sha256", "dma", _hang_dma),
         "final": ("sha512", "final", _hang_final), "update": ("keccak", "block", _hang_update),
         "squeeze": ("keccak", "squeeze", _hang_squeeze), "irq": ("sha256", "dma", _hang_irq),
         "idle": ("sha256", None, _hang_idle), "import": ("sha256", None, _hang_import)}


@pytest.mark.parametrize("where", HANGS)
def test_an_engine_that_never_finishes_times_out(h, where):
    """Every wait is bounded by HASH_PLAT_SPIN_LIMIT: the call returns HASH_ERR_TIMEOUT
    after that many polls, the engine is aborted, and the next message works."""
    engine, op, run = HANGS[where]
    m = h.soc[engine]
    h.spin_limit = 40
    h.soc.trace = []
    m.hang = op or False
    assert run(h) == ERR["TIMEOUT"]
    assert status_reads(h.soc.trace) <= 3 * 41
    assert m.stats["abort"] >= 1 and not m.open and not m.stuck
    m.hang, m.irq, m.drain = False, "fire", 0
    h.spin_limit = 1000
    alg = hashspec.algorithms_of(engine)[0].key
    assert h.digest(alg, hashref.pattern(300))[1] == hashref.reference(alg, hashref.pattern(300), 64)


# ---- descriptor lists ----

@pytest.mark.parametrize("alg", ["SHA256", "SHA3_256", "SHA512", "SHAKE128"])
@pytest.mark.parametrize("head", [0, 10, 200])
def test_segs_build_the_right_lists(h, alg, head):
    assert scenarios.segs(h, alg, head=head) == []
    assert len(h.soc[hashspec.algorithm(alg).engine].lists) >= 2, "700 pieces: more than one list"


@pytest.mark.parametrize("how", ["nowait", "list"])
def test_segs_nowait_overlaps_and_the_next_call_waits(h, how):
    """_nowait returns while the engine still reads (the model holds dma_busy); the next
    call (final) must wait for it: a store into the window meanwhile would abort the
    message (pio_during_dma). On a 64-bit host hash_update_list_nowait cannot use the
    caller's array in place (32-bit descriptors) and is hash_update_segs_nowait."""
    h.soc["keccak"].latency = 6
    assert scenarios.segs(h, "SHA3_512", count=300, how=how) == []
    assert h.soc["keccak"].stats["error_pio_during_dma"] == 0


def test_another_context_waits_for_a_running_list(h):
    m = h.soc["sha256"]
    m.latency = 4
    a, b = h.ctx(), h.ctx()
    pieces = [hashref.pattern(n) for n in range(1, 200)]
    assert h.begin(a, "SHA256") == OK and h.update_segs(a, h.place(pieces), "nowait") == OK
    assert h.begin(b, "SHA224") == OK and h.update(b, hashref.pattern(640)) == OK
    assert h.final(a, 32)[1] == hashref.reference("SHA256", b"".join(pieces), 0)
    assert h.final(b, 28)[1] == hashref.reference("SHA224", hashref.pattern(640), 0)
    assert m.stats["error_busy"] == m.stats["error_ctx_busy"] == m.stats["error_pio_during_dma"] == 0


def test_segs_with_pio_go_piece_by_piece(h):
    pieces = [hashref.pattern(n) for n in range(0, 300, 7)]
    c = h.ctx()
    assert h.begin(c, "KECCAK_256", HW, F_PIO) == OK and h.update_segs(c, h.place(pieces)) == OK
    assert h.final(c, 32)[1] == hashref.reference("KECCAK_256", b"".join(pieces), 0)
    assert h.soc["keccak"].lists == [] and h.soc["keccak"].dma == []


# ---- lazy context switching ----

@pytest.mark.parametrize("engine", [e.name for e in hashspec.ENGINES])
@pytest.mark.parametrize("feeds", [(0, 0, 0), (F_PIO, F_IRQ, F_PIO | F_IRQ)], ids=["dma", "mixed"])
def test_interleaved_contexts_switch_only_when_the_engine_changes_hands(h, engine, feeds):
    assert scenarios.interleave(h, engine, feeds) == []


def test_interleaved_contexts_with_a_slow_engine(h):
    for e in hashspec.ENGINES:
        h.soc[e.name].latency = 3
    for i, e in enumerate(hashspec.ENGINES):
        assert scenarios.interleave(h, e.name, seed=10 + i) == []


def test_a_lone_context_is_never_exported(h):
    c = h.ctx()
    assert h.begin(c, "SHA3_256") == OK
    for n in (136, 1, 500, 135, 272):
        assert h.update(c, hashref.pattern(n)) == OK
    assert h.final(c, 32)[0] == 32
    st = h.soc["keccak"].stats
    assert st["ctx_read"] == st["ctx_write"] == 0 and st["init"] == 1


def test_release_exports_the_owner(h):
    words = hashspec.engine("sha512").ctx_words
    c = h.ctx()
    st = h.soc["sha512"].stats
    h.lib.hash_release(ENGINE["sha512"])
    assert st["ctx_read"] == 0, "no owner: nothing to export"
    assert h.begin(c, "SHA512_256") == OK and h.update(c, hashref.pattern(256)) == OK
    h.lib.hash_release(ENGINE["sha512"])
    assert st["ctx_read"] == words and h.hw_saved(c)
    assert h.update(c, b"tail") == OK
    assert h.final(c, 32)[1] == hashref.reference("SHA512_256", hashref.pattern(256) + b"tail", 0)
    assert st["ctx_write"] == words and st["init"] == 2


def test_begin_again_drops_the_old_message(h):
    c = h.ctx()
    assert h.begin(c, "SHA256") == OK and h.update(c, hashref.pattern(128)) == OK
    aborts = h.soc["sha256"].stats["abort"]
    assert h.begin(c, "SHA256") == OK
    assert h.soc["sha256"].stats["abort"] == aborts + 1
    assert h.update(c, b"abc") == OK and h.final(c, 32)[1] == hashref.reference("SHA256", b"abc", 0)


# ---- HMAC ----

@pytest.mark.parametrize("alg", hashspec.HMAC_ALGORITHMS)
def test_hmac_keys_of_0_to_200_bytes(h, alg):
    assert scenarios.hmacs(h, alg, range(201) if alg == "SHA256" else range(alg == "SHA224", 201, 3)) == []


def test_hmac_with_the_device_key(h):
    for alg in hashspec.HMAC_ALGORITHMS:
        a = hashspec.algorithm(alg)
        for n in (0, 3, a.block, 300):
            msg = hashref.pattern(n)
            ref = hmac.new(h.device_key, msg, a.hashlib).digest()
            for provider in (HW, SW):
                c = h.ctx()
                assert h.hmac_begin(c, alg, None, provider, F_DEVKEY) == OK and h.update(c, msg) == OK
                assert h.final(c, a.digest)[1] == ref, (alg, n, provider)
    assert h.soc["sha256"].stats["key_write"] == 0, "the device key is the engine's own"


@pytest.mark.parametrize("alg", hashspec.HMAC_ALGORITHMS)
def test_hmac_contexts_share_the_key_words(h, alg):
    m = h.soc[hashspec.algorithm(alg).engine]
    m.latency = 2
    assert scenarios.hmac_interleave(h, alg) == []
    window = hashspec.hmac_mode(alg, "window")
    assert m.stats["key_write"] == m.modes_used.count(window) * hashspec.algorithm(alg).block // 4, \
        "K0 is written before every init in the key-words mode, and only then"
    assert m.stats["ctx_write"] > 0


# ---- cSHAKE and KMAC ----

@pytest.mark.parametrize("alg", hashspec.SP800_185_ALGORITHMS)
def test_cshake(h, alg):
    rate = hashspec.algorithm(alg).block
    for nlen, slen, n in [(0, 0, 10), (4, 0, 0), (0, 10, 300), (4, rate, 50), (rate + 20, 5, rate)]:
        name, cust, msg = hashref.pattern(nlen), hashref.pattern(slen)[::-1], hashref.pattern(n)
        for provider in (HW, SW):
            c = h.ctx()
            assert h.lib.hash_cshake_begin(c, ALG[alg], provider, 0, name, nlen, cust, slen) == OK
            assert h.update(c, msg) == OK
            assert h.final(c, 100)[1] == hashref.cshake(alg, name, cust, msg, 100), (nlen, slen, n, provider)


@pytest.mark.parametrize("alg", hashspec.SP800_185_ALGORITHMS)
def test_kmac(h, alg):
    """Keys and customizations that fit the engine's KMAC mode (the key block from the
    key words) and longer ones (its cSHAKE mode, the key block as message data)."""
    rate = hashspec.algorithm(alg).block
    kmac_mode = next(s.kmac for s in hashspec.SP800_185 if s.xof == alg)
    m = h.soc["keccak"]
    enc = cSHAKE128             # (pycryptodome's SP 800-185 encoders)
    # The bounds: a key block of one rate, bytepad(encode_string(K)), up to |K| = rate - 5;
    # a prefix, bytepad(encode_string("KMAC") || encode_string(S)), up to |S| = rate - 11.
    for klen, slen in [(0, 0), (16, 3), (32, 0), (rate - 5, rate - 11), (rate - 4, 0), (0, rate - 10), (200, 7)]:
        key, cust = hashref.pattern(klen), b"c" * slen
        for xof in (False, True):
            msg = hashref.pattern(klen + slen)
            for provider in (HW, SW):
                m.modes_used.clear()
                c = h.ctx()
                r = h.lib.hash_kmac_begin(c, ALG[alg], provider, F_XOF if xof else 0, key, klen, cust, slen)
                assert r == OK and h.update(c, msg) == OK
                out = h.final(c, 40)[1]
                assert out == hashref.kmac(alg, key, cust, msg, 40, xof), (klen, slen, xof, provider)
                if provider == HW:
                    prefix = enc._left_encode(rate) + enc._encode_str(hashspec.KMAC_NAME.encode()) + enc._encode_str(cust)
                    fits = len(prefix) <= rate and len(enc._left_encode(rate) + enc._encode_str(key)) <= rate
                    assert (kmac_mode in m.modes_used) == fits, (klen, slen)


def test_kmac_context_is_exported_and_imported(h):
    a, b = h.ctx(), h.ctx()
    key = hashref.pattern(32)
    assert h.lib.hash_kmac_begin(a, ALG["SHAKE256"], HW, 0, key, 32, b"S", 1) == OK
    assert h.update(a, hashref.pattern(300)) == OK
    assert h.begin(b, "SHA3_256") == OK and h.update(b, hashref.pattern(300)) == OK
    assert h.update(a, hashref.pattern(50)) == OK
    assert h.final(a, 64)[1] == hashref.kmac("SHAKE256", key, b"S", hashref.pattern(300) + hashref.pattern(50), 64)
    assert h.final(b, 32)[1] == hashref.reference("SHA3_256", hashref.pattern(300), 0)
    assert h.soc["keccak"].stats["ctx_read"] == 2 * hashspec.engine("keccak").ctx_words


# ---- interrupts, counters ----

def test_irq_wait_sleeps_until_the_isr_runs(h):
    m = h.soc["sha256"]
    m.latency = 5
    waits = h.irq_waits
    msg = hashref.pattern(1000)
    assert h.digest("SHA256", msg, HW, F_IRQ)[1] == hashref.reference("SHA256", msg, 0)
    assert h.irq_waits > waits and m.stats["irq"] == m.stats["irq_wait"] >= 1
    assert m.ev_enable == 0 and m.ev_pending == 0, "the ISR acknowledged and disabled the events"


def test_irq_polls_first_when_the_platform_says_so(h):
    h.soc["sha256"].latency = 5
    h.polls_before_sleep = 20
    waits = h.irq_waits
    msg = hashref.pattern(1000)
    assert h.digest("SHA256", msg, HW, F_IRQ)[1] == hashref.reference("SHA256", msg, 0)
    assert h.irq_waits == waits


def test_a_lost_interrupt_is_caught_by_polling(h):
    m = h.soc["keccak"]
    m.latency, m.irq = 5, "lost"
    msg = hashref.pattern(1000)
    assert h.digest("SHA3_256", msg, HW, F_IRQ)[1] == hashref.reference("SHA3_256", msg, 0)
    assert m.stats["irq_wait"] >= 1 and m.stats["irq"] == 0


def test_busy_cycles_reads_the_engine_counter(h):
    h.digest("SHA512", hashref.pattern(1000))
    assert h.lib.hash_hw_busy_cycles(ENGINE["sha512"]) == h.soc["sha512"].busy_cycles > 0
    assert h.lib.hash_hw_busy_cycles(len(hashspec.ENGINES)) == 0


# ---- the tests can fail ----

# (what, the driver's file, a line of it, its broken form, the scenario that must notice)
BREAKS = {
    "no-export": ("hash_engine.c", "o->u.hw_ctx[i] = hash_plat_read(e->win + HWIN_CTX + 4 * i);", "(void)0;",
                  lambda h: scenarios.interleave(h, "sha256")),
    "key-once": ("hash_engine.c", "if (c->hmac == HASH_HMAC_KEY_WINDOW || c->kmac_words) {",
                 "if ((c->hmac == HASH_HMAC_KEY_WINDOW && !c->hw_saved) || c->kmac_words) {",
                 lambda h: scenarios.hmac_interleave(h, "SHA256")),
    "short-no-save": ("hash_short.c", "    drv_save(e, e->owner);", "    e->owner = 0;",
                      lambda h: scenarios.short_over_open(h, "SHA224", "SHA256")),
}


@pytest.mark.parametrize("what", BREAKS)
def test_a_broken_driver_is_caught(what, h, tmp_path):
    """A copy of one of the driver's files with one deliberate bug, compiled and loaded
    with the others: the scenario, which finds nothing wrong with the tree's driver, must
    report it."""
    name, line, broken, scenario = BREAKS[what]
    assert scenario(h) == []
    src = (build.DRIVER_DIR / name).read_text()
    assert src.count(line) == 1, f"{name} changed: update BREAKS[{what!r}]"
    copy = tmp_path / name
    copy.write_text(src.replace(line, broken))
    bh = Host(build.build_copy(copy, tmp_path, f"broken_{what}"))
    assert scenario(bh) != [], f"the {what} break went unnoticed"
