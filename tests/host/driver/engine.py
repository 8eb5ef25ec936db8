# SPDX-License-Identifier: MIT
"""One hash engine at the register level: the frontend's protocol (gateware/common/engine.py)
around a core of tests/host/driver/cores.py, with every fact from gateware/hashspec.py.

What it does as the gateware does: `init` with a mode opens a message (refused while busy:
`busy`; an unknown mode: `bad_mode`); data-window stores push 4 bytes, a store at final + 4k
pushes k bytes and closes the message; DMA commands (dma_addr, dma_len, dma_ctrl start /
last / list) read main RAM, a list command walks (address, length) descriptors; `busy`
is 1 while a block is partly filled (so the context can only be exported at a block
boundary), `done` when the digest is in the context words; context words read / write
(a read while busy sets `ctx_busy` and returns garbage, a write while busy is refused);
key words are write-only and refused while a message is open; `squeeze` in XOF modes;
the sticky error bits with `err_clear`, `abort`, the events and `busy_cycles`; HMAC
(K0 ^ ipad first, the outer hash after the end), cSHAKE and KMAC (the key block from the
key words after the first block).

Time: an operation completes at once by default. `latency` = N makes it look unfinished
(busy, dma_busy; done not yet) for the next N status reads; `hang` (True, or the name of
one operation: "ipad", "block", "final", "squeeze", "dma") makes it never finish, until an
abort; `abort_drain` = N keeps busy for N status reads after an abort (a stopped DMA
ending its last read; None: forever). The events a completion raises are raised when it
becomes visible.
"""

from collections import Counter

from gateware import hashspec
from gateware.sha2.core import FAMILIES

from .cores import Sha2, Sponge

_DATA, _FINAL, _CTX, _KEY = (hashspec.region(n) for n in ("data", "final", "ctx", "key"))
_SG_ADDR = next(i for i, w in enumerate(hashspec.SG_DESC) if w.name == "addr")
_SG_LEN = next(i for i, w in enumerate(hashspec.SG_DESC) if w.name == "len")
GARBAGE = 0xDEADBEEF    # what a context read while busy returns ("meaningless")


class Mode:
    def __init__(self, kind, alg, xof, pad=None, key=None):
        self.kind = kind    # "hash", "hmac", "cshake", "kmac"
        self.alg = alg      # hashspec.Algorithm (cSHAKE, KMAC: the SHAKE whose rate they use)
        self.xof = xof
        self.rate = alg.block
        self.pad = alg.pad if pad is None else pad
        self.key = key      # HMAC: the key source's name


def mode_table(engine):
    """ctrl.mode -> Mode, for every mode hashspec gives the engine."""
    xof = hashspec.xof_modes(engine)
    t = {a.mode: Mode("hash", a, a.mode in xof) for a in hashspec.algorithms_of(engine)}
    for name in hashspec.HMAC_ALGORITHMS:
        a = hashspec.algorithm(name)
        if a.engine == engine:
            for k in hashspec.HMAC_KEYS:
                t[hashspec.hmac_mode(name, k.name)] = Mode("hmac", a, False, key=k.name)
    for s in hashspec.SP800_185:
        a = hashspec.algorithm(s.xof)
        if a.engine == engine:
            t[s.cshake] = Mode("cshake", a, True, pad=hashspec.CSHAKE_PAD)
            t[s.kmac] = Mode("kmac", a, True, pad=hashspec.CSHAKE_PAD)
    assert sorted(t) == sorted(hashspec.modes(engine)), engine
    return t


def outside(addr, length, window):
    """As gateware/common/sglist.py: [addr, addr + length) wraps or leaves the window."""
    lo, size = window
    return addr < lo or addr + length > lo + size


class EngineModel:
    def __init__(self, spec, rm, soc):
        self.spec = spec            # hashspec.Engine
        self.rm = rm
        self.soc = soc              # read_mem(bus addr, n), ram (base, size), device_key
        self.modes = mode_table(spec.name)
        self.sha2 = spec.name in FAMILIES
        self.variant = hashspec.variant(spec.name)      # the default: its code and clocks per block
        self.clocks = self.variant.clocks
        self.key = [0] * spec.key_words     # a memory: survives aborts
        self.reset()

    def reset(self):
        """Power-on state, default knobs, fresh counters."""
        self.present = True
        self.latency = 0
        self.hang = False
        self.abort_drain = 0
        self.fault = None           # (bus addr, n) -> True: the DMA read gets a bus error
        self.irq = "fire"           # "fire": the interrupt comes; "lost": it never does
        # init, abort, squeeze, dma, list, pio (data stores), final, bytes (message bytes taken),
        # ctx_read (of an open message: an export), out_read (of a finished one), ctx_write,
        # key_write, error_<name>, irq_wait, irq
        self.stats = Counter()
        self.lists = []             # each list command's descriptors as read: [(addr, len), ...]
        self.dma = []               # each plain DMA command: (addr, len, last)
        self.modes_used = []        # each accepted init's mode
        self.ctrl = self.dma_addr = self.dma_len = self.dma_ctrl = 0
        self.errors = self.ev_pending = self.ev_enable = self.busy_cycles = 0
        self._kill()

    # ---- state ----

    def _kill(self):
        """abort: drop the message, stop the DMA, reset the core."""
        self.open = False
        self.mode = None
        self.core = None
        self.buf = b""
        self.core_done = False
        self.kmac_key_due = False
        self.stall = 0
        self.stuck = False          # the operation in progress never finishes (hang)
        self.dma_active = False
        self.deferred = 0
        self.drain = self.abort_drain

    def _ev_bit(self, name):
        return self.rm.ev_pending.bit(name)

    def _err(self, name, kill=False):
        bit = self.rm.errors.bit(name)
        self.errors |= bit
        self._new |= bit
        self.ev_pending |= self._ev_bit("error")
        self.stats["error_" + name] += 1
        if kill:
            self._kill()

    def _work(self, op, *events):
        """An operation that takes time: it (and these events) show after `latency` reads."""
        bits = 0
        for e in events:
            bits |= self._ev_bit(e)
        self.stuck |= self.hang is True or self.hang == op
        if self.latency or self.stuck:
            self.stall = max(self.stall, self.latency, 1)
            self.deferred |= bits
        else:
            self.ev_pending |= bits
            if op == "dma":
                self.dma_active = False

    def _complete(self):
        self.stall = 0
        self.dma_active = False
        self.ev_pending |= self.deferred
        self.deferred = 0

    def tick(self):
        """A status read: time passes."""
        if self.drain:      # (None: forever)
            self.drain -= 1
        if self.stall and not self.stuck:
            self.stall -= 1
            if not self.stall:
                self._complete()

    def settle(self):
        """Let everything in progress finish (an interrupt is waited for)."""
        if self.stall and not self.stuck:
            self._complete()

    @property
    def dma_running(self):
        return self.dma_active and self.stall > 0

    @property
    def busy(self):
        return bool(self.stall or self.buf or self.kmac_key_due or self.drain is None or self.drain)

    @property
    def done(self):
        return self.core_done and not self.open and not self.busy

    # ---- the message ----

    def _init(self, mode):
        m = self.modes[mode]
        self.open, self.mode, self.buf, self.core_done = True, mode, b"", False
        self.busy_cycles = 0
        self.stats["init"] += 1
        self.modes_used.append(mode)
        if self.sha2:
            self.core = Sha2(self.spec.name, m.alg.key)
        else:
            self.core = Sponge(m.rate, m.pad)
        if m.kind == "hmac":
            self._compress(bytes(b ^ hashspec.HMAC_IPAD for b in self._k0(m)))
            self._work("ipad")
        self.kmac_key_due = m.kind == "kmac"

    def _k0(self, m):
        if m.key == "device":
            key = self.soc.device_key
        else:
            key = b"".join(w.to_bytes(4, "little") for w in self.key)
        return key[:self.core.block].ljust(self.core.block, b"\0")

    def _compress(self, block):
        self.core.compress(block)
        self.busy_cycles += self.clocks

    def _push(self, data, last):
        """Message bytes from the window or the DMA (the message is open)."""
        self.core_done = False
        self.stats["bytes"] += len(data)
        self.buf += data
        b = self.core.block
        blocks = len(self.buf) // b
        for i in range(blocks):
            self._compress(self.buf[b * i:b * i + b])
            if self.kmac_key_due:       # the prefix block is in: the key block follows
                self._compress(b"".join(w.to_bytes(4, "little") for w in self.key)[:b])
                self.kmac_key_due = False
        self.buf = self.buf[b * blocks:]
        if last:
            # (A KMAC message that ends inside its first block gets no key block: the
            # gateware then computes cSHAKE of what it got. The driver never does that.)
            self.open = self.kmac_key_due = False
            self._finish()
            self._work("final", "done")
        elif blocks:
            self._work("block")

    def _finish(self):
        m = self.modes[self.mode]
        self.core.finish(self.buf)
        self.buf = b""
        self.busy_cycles += self.clocks
        if m.kind == "hmac":
            inner = self.core.digest()[:m.alg.digest]
            self.core = Sha2(self.spec.name, m.alg.key)
            self._compress(bytes(b ^ hashspec.HMAC_OPAD for b in self._k0(m)))
            self.core.finish(inner)
        self.core_done = True

    # ---- registers ----

    def read_csr(self, name):
        if not self.present:
            return 0
        r = self.rm.registers[name]
        if name == "id":
            return self.spec.ident_value
        if name == "version":
            return (r.put("major", hashspec.ENGINE_VERSION[0]) | r.put("minor", hashspec.ENGINE_VERSION[1])
                    | r.put("variant", self.variant.code) | r.put("modes", len(self.modes)))
        if name == "status":
            v = self._status()
            self.tick()
            return v
        return {"ctrl": self.ctrl, "errors": self.errors, "dma_addr": self.dma_addr, "dma_len": self.dma_len,
                "dma_ctrl": self.dma_ctrl, "busy_cycles": self.busy_cycles & 0xFFFFFFFF, "ev_status": 0,
                "ev_pending": self.ev_pending, "ev_enable": self.ev_enable}[name]

    def _status(self):
        r = self.rm.status
        v = r.put("mode", self.mode or 0)
        for field, on in (("open", self.open), ("busy", self.busy), ("done", self.done),
                          ("dma_busy", self.dma_running), ("error", self.errors != 0),
                          ("xof", self.mode is not None and self.modes[self.mode].xof)):
            v |= r.bit(field) if on else 0
        return v

    def write_csr(self, name, v):
        """False for a register software cannot write."""
        if not self.present:
            return True
        self._new = 0
        if name == "ctrl":
            self._ctrl(v)
        elif name == "dma_ctrl":
            self.dma_ctrl = v
            if self.rm.dma_ctrl.get(v, "start"):
                self._dma_start(self.rm.dma_ctrl.get(v, "last"), self.rm.dma_ctrl.get(v, "list"))
        elif name in ("dma_addr", "dma_len"):
            setattr(self, name, v)
        elif name == "ev_pending":
            self.ev_pending &= ~v
        elif name == "ev_enable":
            self.ev_enable = v & ((1 << len(hashspec.EVENTS)) - 1)
        else:
            return False
        return True

    def _ctrl(self, v):
        r = self.rm.ctrl
        self.ctrl = r.put("mode", r.get(v, "mode"))
        mode = r.get(v, "mode")
        if r.get(v, "abort"):
            self.stats["abort"] += 1
            self._kill()
        elif r.get(v, "init"):
            if self.busy:
                self._err("busy")
            elif mode not in self.modes:
                self._err("bad_mode")
            else:
                self._init(mode)
        if r.get(v, "squeeze"):
            if self.mode is not None and self.modes[self.mode].xof and self.done:
                self.core.squeeze()
                self.busy_cycles += self.clocks
                self._work("squeeze", "done")
                self.stats["squeeze"] += 1
            else:
                self._err("squeeze")
        if r.get(v, "err_clear"):
            self.errors = self._new

    def _dma_start(self, last, is_list):
        if not self.open:
            return self._err("not_open")
        if self.dma_running:
            return self._err("busy")
        addr, n, ram = self.dma_addr, self.dma_len, self.soc.ram
        if is_list:
            if n == 0 or n > hashspec.SG_MAX or addr & 3:
                return self._err("bad_list")
            if outside(addr, 4 * hashspec.SG_DESC_WORDS * n, ram):
                return self._err("bad_range")
            self.stats["list"] += 1
            descs = []
            self.lists.append(descs)
            for i in range(n):
                at = addr + 4 * hashspec.SG_DESC_WORDS * i
                raw = self._read(at, 4 * hashspec.SG_DESC_WORDS)
                if raw is None:
                    return
                words = [int.from_bytes(raw[4 * j:4 * j + 4], "little") for j in range(hashspec.SG_DESC_WORDS)]
                a, length = words[_SG_ADDR], words[_SG_LEN]
                descs.append((a, length))
                if length == 0:
                    return self._err("bad_list", kill=True)
                if outside(a, length, ram):
                    return self._err("bad_range", kill=True)
                data = self._read(a, length)
                if data is None:
                    return
                self._push(data, last and i == n - 1)
        else:
            if outside(addr, n, ram):
                return self._err("bad_range")
            self.stats["dma"] += 1
            self.dma.append((addr, n, bool(last)))
            data = self._read(addr, n)
            if data is None:
                return
            self._push(data, last)
        self.dma_active = True
        self._work("dma", "dma")

    def _read(self, addr, n):
        """n bytes of main RAM for the DMA, or None after a bus error (the message aborted)."""
        if self.fault and self.fault(addr, n):
            self._err("dma_bus", kill=True)
            return None
        return self.soc.read_mem(addr, n)

    # ---- the data window ----

    def write_window(self, off, v):
        """False for a store the window ignores (outside every region) or misaligned."""
        if not self.present:
            return True
        if off & 3:
            return False
        self._new = 0
        if _DATA.offset <= off < _DATA.offset + _DATA.size or _FINAL.offset <= off < _FINAL.offset + _FINAL.size:
            last = off >= _FINAL.offset
            self.stats["final" if last else "pio"] += 1
            if not self.open:
                self._err("not_open")
            elif self.dma_running:
                self._err("pio_during_dma", kill=True)
            else:
                k = (off - _FINAL.offset) // 4 if last else 4
                self._push(v.to_bytes(4, "little")[:k], last)
        elif _CTX.offset <= off < _CTX.offset + _CTX.size:
            self.stats["ctx_write"] += 1
            if self.busy:
                self._err("busy")
            elif self.core is not None:
                self.core.set_word((off - _CTX.offset) // 4, v)
        elif _KEY.offset <= off < _KEY.offset + _KEY.size:
            i = (off - _KEY.offset) // 4
            if i < len(self.key):
                self.stats["key_write"] += 1
                if self.open or self.busy:
                    self._err("busy")
                else:
                    self.key[i] = v
        else:
            return False
        return True

    def read_window(self, off):
        if not self.present or not (_CTX.offset <= off < _CTX.offset + _CTX.size):
            return 0
        # A read of a finished message's output, or of an open one's state (an export).
        self.stats["out_read" if self.done else "ctx_read"] += 1
        self._new = 0
        if self.busy:
            self._err("ctx_busy")
            return GARBAGE
        i = (off - _CTX.offset) // 4
        if self.core is None or i >= self.spec.ctx_words:
            return 0
        return self.core.words()[i]
