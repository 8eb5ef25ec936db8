# SPDX-License-Identifier: MIT
"""What the host tests run, as functions that return what went wrong (a list of strings,
empty when all is right) instead of asserting: tests/test_driver_host.py runs them on the
driver and expects nothing, and on deliberately broken copies of its files and expects them
to notice.

References are hashlib, hmac and pycryptodome (tests/hashref.py), never the model.
"""

import hmac
import random

import hashref
from gateware import hashspec

from .host import F_DMA, F_IRQ, F_PIO, HW, SW

# Hardware feeds a sweep rotates through: DMA (short path up to HASH_SHORT_MAX), stores,
# DMA whatever the length, and each of those waiting by interrupt.
FEEDS = (0, F_PIO, F_DMA, F_IRQ, F_PIO | F_IRQ, F_DMA | F_IRQ)


def outlen_for(a, n):
    """The output length a test asks for: the digest, or for an XOF one that needs 0 to 2
    squeezes depending on n."""
    return a.digest or 1 + (7 * n) % (2 * a.block + 50)


def sweep(h, alg, lengths, feeds=FEEDS, software=True):
    """hash_digest of hashref.pattern(n) for each n: by the engine, rotating through feeds,
    data and output at rotating misalignments, and by software."""
    a = hashspec.algorithm(alg)
    bad = []
    for i, n in enumerate(lengths):
        msg = hashref.pattern(n)
        outlen = outlen_for(a, n)
        ref = hashref.reference(alg, msg, outlen)
        flags = feeds[i % len(feeds)]
        r, out = h.digest(alg, msg, HW, flags, outlen, offset=n % 4, out_offset=(n // 4) % 4)
        if out != ref:
            bad.append(f"{alg} hw flags {flags:#x} len {n}: {r} {out.hex()[:32]} != {ref.hex()[:32]}")
        if software:
            r, out = h.digest(alg, msg, SW, 0, outlen, offset=(n + 1) % 4)
            if out != ref:
                bad.append(f"{alg} sw len {n}: {r} {out.hex()[:32]} != {ref.hex()[:32]}")
    return bad


def interleave(h, engine, flags=(0, F_PIO, 0), seed=1, steps=12):
    """Three contexts on one engine, updates of whole blocks in a random order, then tails
    (kept in software) and finals in another. Each message must be right, and the model
    must see exactly one export (the engine's context words read from an open message) per
    hand-over of an open message and one import per return of a saved one."""
    rnd = random.Random(seed)
    algs = hashspec.algorithms_of(engine)
    words = hashspec.engine(engine).ctx_words
    ctxs = []
    for i, fl in enumerate(flags):
        a = algs[(2 * i) % len(algs)]
        c = h.ctx()
        assert h.begin(c, a.key, HW, fl) == 0
        ctxs.append([c, a, b""])
    # Every update gives the engine whole blocks, so every update and final takes the engine.
    plan = [("update", rnd.randrange(len(ctxs))) for _ in range(steps)]
    plan += [("final", i) for i in rnd.sample(range(len(ctxs)), len(ctxs))]
    owner, saved, exports, imports, bad = None, set(), 0, 0, []
    for step, i in plan:
        c, a, msg = ctxs[i]
        if owner is not None and owner != i:
            exports += 1
            saved.add(owner)
        if i in saved:
            imports += 1
            saved.discard(i)
        owner = None if step == "final" else i
        if step == "update":
            data = rnd.randbytes(a.block * rnd.randint(1, 3))
            r = h.update(c, data, offset=rnd.randrange(4))
            ctxs[i][2] = msg + data
        else:
            tail = rnd.randbytes(rnd.randrange(a.block))
            r = h.update(c, tail, offset=rnd.randrange(4))
            outlen = outlen_for(a, len(msg))
            r2, out = h.final(c, outlen)
            ref = hashref.reference(a.key, msg + tail, outlen)
            if r < 0 or out != ref:
                bad.append(f"{a.key} context {i}: {r} {r2} {out.hex()[:32]} != {ref.hex()[:32]}")
    stats = h.soc[engine].stats
    if (stats["ctx_read"], stats["ctx_write"]) != (exports * words, imports * words):
        bad.append(f"{engine}: context words read/written {stats['ctx_read']}/{stats['ctx_write']}, "
                   f"expected {exports}/{imports} hand-overs of {words} words")
    return bad


def pieces(rnd, count, most):
    """count pieces of 0..most bytes (a few empty) and their misalignments."""
    return [rnd.randbytes(rnd.randrange(most + 1)) for _ in range(count)], [rnd.randrange(4) for _ in range(count)]


def segs(h, alg, count=700, most=40, head=0, seed=2, how="wait"):
    """hash_update_segs over many pieces after `head` bytes by hash_update: the descriptor
    lists the engine reads must hold the pieces' bytes in order, cut at the last block
    boundary (the rest waits in the context), at most SG_MAX descriptors each, none empty;
    and the digest must be right."""
    rnd = random.Random(seed)
    a = hashspec.algorithm(alg)
    data, offs = pieces(rnd, count, most)
    first = rnd.randbytes(head)
    c = h.ctx()
    bad = []
    if h.begin(c, alg, HW, 0) or h.update(c, first):
        return [f"{alg}: begin/update failed"]
    placed = h.place(data, offs)
    r = h.update_segs(c, placed, how)
    model = h.soc[a.engine]
    descs = [d for lst in model.lists for d in lst]
    if any(len(lst) > hashspec.SG_MAX or not lst for lst in model.lists):
        bad.append(f"{alg}: list sizes {[len(x) for x in model.lists]}")
    if any(n == 0 for _, n in descs):
        bad.append(f"{alg}: an empty descriptor")
    # A partial block buffered by the head is topped up from the pieces (copied, fed by
    # stores); the lists hold the pieces' bytes from there to the message's last block
    # boundary.
    msg = first + b"".join(data)
    buffered = len(first) % a.block
    start = len(first) + (a.block - buffered if buffered else 0)
    end = max(start, len(msg) - len(msg) % a.block)
    listed = b"".join(h.soc.read_mem(p, n) for p, n in descs)
    if listed != msg[start:end]:
        bad.append(f"{alg}: the lists hold {len(listed)} bytes, not bytes {start}..{end} of the message")
    if descs != _cut([(h.bus(p), n) for p, n in placed], start - len(first), end - len(first)):
        bad.append(f"{alg}: the descriptors are not the pieces in order")
    outlen = outlen_for(a, len(msg))
    r2, out = h.final(c, outlen)
    ref = hashref.reference(alg, msg, outlen)
    if r < 0 or out != ref:
        bad.append(f"{alg}: segs {r}, final {r2}: {out.hex()[:32]} != {ref.hex()[:32]}")
    return bad


def _cut(pieces, lo, hi):
    """The (address, length) runs of the pieces' bytes lo..hi (offsets into their
    concatenation), in order."""
    out, at = [], 0
    for p, n in pieces:
        s, e = max(lo, at), min(hi, at + n)
        if s < e:
            out.append((p + s - at, e - s))
        at += n
    return out


def hmacs(h, alg, keylens, seed=3):
    """HMAC by the engine (hash_hmac_begin, updates, final; stores and DMA in turn) and by
    software (hash_hmac) for keys of each length, against Python's hmac."""
    rnd = random.Random(seed)
    a = hashspec.algorithm(alg)
    bad = []
    for k in keylens:
        key, msg = rnd.randbytes(k), rnd.randbytes(rnd.randrange(3 * a.block))
        ref = hmac.new(key, msg, a.hashlib).digest()
        c = h.ctx()
        flags = (0, F_PIO, F_IRQ)[k % 3]
        cut = rnd.randrange(len(msg) + 1)
        r = h.hmac_begin(c, alg, key, HW, flags) or h.update(c, msg[:cut], k % 4) or h.update(c, msg[cut:])
        r2, out = h.final(c, a.digest)
        if r or out != ref:
            bad.append(f"HMAC-{alg} hw key {k}: {r} {r2} {out.hex()[:32]} != {ref.hex()[:32]}")
        r, out = h.hmac(alg, key, msg, SW)
        if out != ref:
            bad.append(f"HMAC-{alg} sw key {k}: {r} {out.hex()[:32]} != {ref.hex()[:32]}")
    return bad


def hmac_interleave(h, alg, seed=4):
    """Two HMAC contexts with different keys and a plain hash on one engine: the key words
    are shared and write-only, so each HMAC's K0 must be written again before it takes the
    engine back, and its saved state imported after the ipad block."""
    rnd = random.Random(seed)
    a = hashspec.algorithm(alg)
    keys = [rnd.randbytes(20), rnd.randbytes(a.block + 9)]
    ctxs, bad = [], []
    for key in keys + [None]:
        c = h.ctx()
        r = h.hmac_begin(c, alg, key) if key is not None else h.begin(c, alg)
        ctxs.append([c, key, b""])
        if r:
            bad.append(f"begin {r}")
    for i in [0, 1, 2, 0, 1, 1, 2, 0, 2, 1]:
        data = rnd.randbytes(a.block * rnd.randint(1, 2))
        if h.update(ctxs[i][0], data):
            bad.append(f"update {i}")
        ctxs[i][2] += data
    for c, key, msg in ctxs:
        tail = rnd.randbytes(rnd.randrange(a.block))
        h.update(c, tail)
        r, out = h.final(c, a.digest)
        ref = hmac.new(key, msg + tail, a.hashlib).digest() if key is not None else hashref.reference(alg, msg + tail, 0)
        if out != ref:
            bad.append(f"{'HMAC' if key is not None else 'hash'} {alg}: {r} {out.hex()[:32]} != {ref.hex()[:32]}")
    return bad



def short_over_open(h, open_alg, short_alg, n=200):
    """A short hash_digest on the engine an open context holds (its message saved by the
    short path, imported again by the context's next call): both digests must be right."""
    bad = []
    c = h.ctx()
    msg = hashref.pattern(n)
    if h.begin(c, open_alg) != 0 or h.update(c, msg) != 0:
        return [f"{open_alg}: begin/update failed"]
    r, out = h.digest(short_alg, b"short")
    if out != hashref.reference(short_alg, b"short", 0):
        bad.append(f"{short_alg} short path: {r} {out.hex()[:32]}")
    r = h.update(c, b"more")
    r, out = h.final(c, hashspec.algorithm(open_alg).digest) if r == 0 else (r, b"")
    if out != hashref.reference(open_alg, msg + b"more", 0):
        bad.append(f"{open_alg} after a short digest: {r} {out.hex()[:32]}")
    return bad
