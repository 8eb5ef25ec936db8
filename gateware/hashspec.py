# SPDX-License-Identifier: MIT
"""The one description of HashSoC's hash engines: every fact software and docs share.

Per algorithm: its names, the engine that runs it, the engine's mode number, the block
(SHA-2) or rate (Keccak) in bytes, the Keccak pad byte, the digest size (0: XOF). Per
engine: its ID register, its version, its data window's address, the context words an
exported state takes, its cores' variants and their clocks per block. Then the sticky error
bits, the interrupt events, the registers (fields, access, the engine's ports) and the
data-window layout every engine shares, and the provider numbers of the driver and the
`hash` system call.

HMAC (RFC 2104) is a construction over an algorithm, not an algorithm of its own: the
SHA-2 engines run it in extra modes (HMAC_ALGORITHMS x HMAC_KEYS, below), the driver and
the system call take a hash algorithm plus a key.

Everything else is derived from this module, nothing is copied from it:
- the gateware: the Keccak core's mode table, the SHA-256 core's mode numbers, the
  frontend's error bits, window decoder and ports, the LiteX wrapper's CSRs and the
  Instance joining them, the SoC's window addresses, the version register's variant codes;
- `firmware/libhash/include/hashsoc/hash_spec.h`, the C header the driver, the software hashes,
  the xv6 kernel and its user programs include (written by scripts/genspec.py, which the
  firmware and xv6 Makefiles run when this file changes);
- docs/registers.md and the generated tables in docs/ (scripts/genspec.py);
- the constants the benchmarks and tests use (they import this module).
tests/test_spec.py fails when a generated file is stale or a hand copy reappears.
docs/adding-a-mode.md walks through adding an algorithm.

Plain Python with no imports beyond the standard library, so that the xv6 build can run
the generator with the system's python3.
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Engine:
    name: str        # "sha256": CSR/memory region names, C's HASH_ENGINE_SHA256
    ident: str       # the ID register: four ASCII characters, first in bits 31:24
    window: int      # the data window's bus address (uncached; LiteX's mem.h: <NAME>_BASE)
    ctx_words: int   # context-window words that hold an exported message state
    key_words: int   # the window's key words it decodes (an HMAC engine: its block; the rest ignored)
    doc: str

    @property
    def ident_value(self):
        return int.from_bytes(self.ident.encode(), "big")


@dataclass(frozen=True)
class Variant:
    engine: str      # Engine.name
    name: str        # the core's `variant` (python -m boards.<board> --sha256-variant)
    code: int        # the version register's `variant` field
    clocks: int      # clocks per block (Keccak: per permutation), with data on every clock
    doc: str


@dataclass(frozen=True)
class Algorithm:
    key: str         # C enum suffix: HASH_<key>
    name: str        # command-line name (xv6's hash -a, the software-hash tool)
    title: str       # printed name (hash_alg_name())
    engine: str      # Engine.name
    mode: int        # the engine's ctrl.mode number
    block: int       # bytes: the SHA-2 block or the Keccak rate
    digest: int      # bytes; 0 for an extendable-output function (any length)
    pad: int         # Keccak: domain bits + first pad bit (OR-ed with 0x80 at the rate's end); SHA-2: 0
    hashlib: str     # Python's hashlib name, or "" (original Keccak: pycryptodome)
    standard: str

    @property
    def xof(self):
        return self.digest == 0


@dataclass(frozen=True)
class Bit:
    name: str
    doc: str


@dataclass(frozen=True)
class Field:
    name: str        # csr.h: CSR_<ENGINE>_<REGISTER>_<NAME>_OFFSET and _SIZE
    offset: int      # its lowest bit
    width: int
    doc: str
    pulse: bool = False     # a command: writing 1 is a one-clock pulse to the engine
    port: bool = True       # False: the LiteX wrapper computes it, the engine has no port


@dataclass(frozen=True)
class Register:
    name: str        # csr.h: CSR_<ENGINE>_<NAME>_ADDR (hash_regs.h: HREG(<NAME>))
    access: str      # "rw": software writes it (CSRStorage); "ro": the engine drives it (CSRStatus)
    fields: tuple    # Field, lowest bit first; () for one 32-bit value
    port: str        # the engine's port; "<prefix>_*": one per field; "": none (a constant)
    doc: str

    @property
    def width(self):
        return max(f.offset + f.width for f in self.fields) if self.fields else 32

    def ports(self):
        """(port name, width, field or None) for each engine port of this register."""
        if not self.port:
            return []
        if self.port.endswith("*"):
            return [(self.port[:-1] + f.name, f.width, f) for f in self.fields if f.port]
        return [(self.port, self.width, None)]


@dataclass(frozen=True)
class KeySource:
    name: str        # C: HASH_HMAC_KEY_<NAME>
    bits: int        # above the engine's hash mode field (hmac_shift): HMAC, then the device key
    doc: str


@dataclass(frozen=True)
class Sp800185:
    xof: str         # the SHAKE algorithm (key) whose rate it uses: cSHAKE128/KMAC128 on SHAKE128's
    cshake: int      # the Keccak engine's mode for cSHAKE on it
    kmac: int        # ... for KMAC on it (the key block from the key words)


@dataclass(frozen=True)
class Region:
    name: str        # C: HWIN_<NAME>
    offset: int      # byte offset in the engine's data window
    size: int        # bytes
    access: str
    doc: str


ENGINE_VERSION = (1, 0)     # major, minor: the version register of both engines

# The data windows must be uncached: LiteX assumes VexRiscv treats 0x8000_0000-0xFFFF_FFFF
# as I/O, but the prebuilt `linux` netlist only bypasses its data cache for physical
# addresses 0xB..., 0xE... and 0xF... (isIoAccess in VexRiscv_Linux.v); reads of a window
# at 0x8... would return stale lines.

ENGINES = (
    Engine("sha256", "SHA2", 0xB000_0000, 10, 16, "SHA-256/224 (FIPS 180-4); context: H0..H7 byte-swapped, then the 64-bit byte count"),
    Engine("keccak", "KECC", 0xB001_0000, 52, 42, "Keccak-f[1600] sponge (FIPS 202, SP 800-185); context: the 25 lanes (lane i "
                                 "at words 2i, 2i+1), then the 64-bit byte count; key words: KMAC's key block "
                                 "bytepad(encode_string(K), rate), up to SHAKE128's rate"),
    Engine("sha512", "SHA5", 0xB002_0000, 18, 32, "SHA-512/384, SHA-512/224, SHA-512/256 (FIPS 180-4); context: H0..H7, each "
                                 "64-bit word as two byte-swapped words (so memory order is digest order), then "
                                 "the 64-bit byte count"),
)

# The cores' variants, each engine's default first (gateware/sha2/core.py, keccak/core.py).
VARIANTS = (
    Variant("sha256", "folded", 1, 64, "the last round adds H into the new a..h (seed 003)"),
    Variant("sha256", "basic", 0, 65, "a clock after the 64 rounds adds a..h into H"),
    Variant("keccak", "default", 0, 24, "one Keccak-f[1600] round per clock"),
    Variant("sha512", "folded", 1, 80, "as SHA-256's folded, over 80 rounds"),
    Variant("sha512", "basic", 0, 81, "as SHA-256's basic, over 80 rounds"),
)

# The order is C's enum hash_alg, which is also the `hash` system call's algorithm number.
ALGORITHMS = (
    Algorithm("SHA256", "sha256", "SHA-256", "sha256", 0, 64, 32, 0x00, "sha256", "FIPS 180-4"),
    Algorithm("SHA224", "sha224", "SHA-224", "sha256", 1, 64, 28, 0x00, "sha224", "FIPS 180-4"),
    Algorithm("SHA3_224", "sha3-224", "SHA3-224", "keccak", 0, 144, 28, 0x06, "sha3_224", "FIPS 202"),
    Algorithm("SHA3_256", "sha3-256", "SHA3-256", "keccak", 1, 136, 32, 0x06, "sha3_256", "FIPS 202"),
    Algorithm("SHA3_384", "sha3-384", "SHA3-384", "keccak", 2, 104, 48, 0x06, "sha3_384", "FIPS 202"),
    Algorithm("SHA3_512", "sha3-512", "SHA3-512", "keccak", 3, 72, 64, 0x06, "sha3_512", "FIPS 202"),
    Algorithm("SHAKE128", "shake128", "SHAKE128", "keccak", 4, 168, 0, 0x1F, "shake_128", "FIPS 202"),
    Algorithm("SHAKE256", "shake256", "SHAKE256", "keccak", 5, 136, 0, 0x1F, "shake_256", "FIPS 202"),
    Algorithm("KECCAK_224", "keccak-224", "Keccak-224", "keccak", 6, 144, 28, 0x01, "", "Keccak round 3"),
    Algorithm("KECCAK_256", "keccak-256", "Keccak-256", "keccak", 7, 136, 32, 0x01, "", "Keccak round 3"),
    Algorithm("KECCAK_384", "keccak-384", "Keccak-384", "keccak", 8, 104, 48, 0x01, "", "Keccak round 3"),
    Algorithm("KECCAK_512", "keccak-512", "Keccak-512", "keccak", 9, 72, 64, 0x01, "", "Keccak round 3"),
    Algorithm("SHA512", "sha512", "SHA-512", "sha512", 0, 128, 64, 0x00, "sha512", "FIPS 180-4"),
    Algorithm("SHA384", "sha384", "SHA-384", "sha512", 1, 128, 48, 0x00, "sha384", "FIPS 180-4"),
    Algorithm("SHA512_224", "sha512-224", "SHA-512/224", "sha512", 2, 128, 28, 0x00, "sha512_224", "FIPS 180-4"),
    Algorithm("SHA512_256", "sha512-256", "SHA-512/256", "sha512", 3, 128, 32, 0x00, "sha512_256", "FIPS 180-4"),
)

# Sticky error bits of the `errors` register, bit i = ERRORS[i].
ERRORS = (
    Bit("not_open", "Data or a DMA command arrived with no open message (dropped)."),
    Bit("busy", "``init`` or a context write while the engine was busy, a key write while a message was "
                "open, or a DMA start while a DMA ran (ignored)."),
    Bit("pio_during_dma", "Window data while a DMA command ran: the message was aborted."),
    Bit("dma_bus", "The DMA read got a bus error: the message was aborted."),
    Bit("bad_range", "A DMA range (a command's, a descriptor list's or one of its descriptors') wraps or leaves "
                     "the DMA window, main RAM: refused before any read (a command or list: ignored; a "
                     "descriptor met mid-list: the message was aborted)."),
    Bit("bad_mode", "``init`` with a mode this engine does not have (ignored)."),
    Bit("squeeze", "``squeeze`` outside an XOF mode or before ``done`` (ignored)."),
    Bit("ctx_busy", "A context word was read while busy: the value is meaningless."),
    Bit("bad_list", "A descriptor list of 0 or more than SG_MAX descriptors or not word aligned (ignored), "
                    "or a descriptor of length 0 (the message was aborted)."),
)

# Interrupt events, in EventManager order (bit i of ev_status/ev_pending/ev_enable).
EVENTS = (
    Bit("done", "The digest is ready."),
    Bit("dma", "A DMA command has finished reading."),
    Bit("error", "An error bit was set."),
)

# The data window (WINDOW_SIZE bytes per engine, uncached). Reads elsewhere return 0,
# writes elsewhere are ignored.
WINDOW_SIZE = 0x4000
WINDOW = (
    Region("data", 0x0000, 0x1000, "write",
           "push 4 message bytes (any address in the range: stream with one address or memcpy-like)"),
    Region("final", 0x1000, 4 * 5, "write",
           "a store to `0x1000 + 4*k` (k = 0..4) pushes the final k bytes and closes the message"),
    Region("ctx", 0x2000, 4 * 64, "read / write",
           "context word i at `0x2000 + 4*i`: the digest or output block; export / import of a message"),
    Region("key", 0x3000, 256, "write",
           "key word i (first byte in bits 7:0) at `0x3000 + 4*i`, i below the engine's key words "
           "(HMAC's K0: SHA-256 16, SHA-512 32; KMAC's key block: Keccak 42); reads return 0; written "
           "while no message is open"),
)

# HMAC (RFC 2104, FIPS 198-1) on the SHA-2 engines: HMAC(K, m) = H((K0 ^ opad) ||
# H((K0 ^ ipad) || m)), K0 = the key padded with zeros to the hash's block (a longer key
# is hashed first: the driver does that). The engine's mode is the hash's mode OR-ed with
# the key source's bits shifted above the hash's mode field (hmac_shift: 1 bit on the
# SHA-256 engine, 2 on the SHA-512 engine); it injects K0 ^ ipad after `init` and runs the
# outer hash after the message's end by itself, so `done` means the MAC is in the context
# words.
HMAC_ALGORITHMS = ("SHA256", "SHA224", "SHA512", "SHA384")
HMAC_KEYS = (
    KeySource("window", 0x1, "software's key: K0 in the window's key words (write-only)"),
    KeySource("device", 0x3, "the device key: a constant fixed when the gateware was built, which no "
                             "register or bus read returns"),
)
HMAC_IPAD = 0x36
HMAC_OPAD = 0x5C

# cSHAKE and KMAC (NIST SP 800-185), constructions over SHAKE128's and SHAKE256's sponges
# (their rates): cSHAKE's domain bits are "00" (pad byte CSHAKE_PAD) where SHAKE's are
# "1111", after the prefix bytepad(encode_string(N) || encode_string(S), rate); a cSHAKE
# with an empty function name N and customization S is SHAKE. KMAC is cSHAKE with
# N = KMAC_NAME, the key block bytepad(encode_string(K), rate) after the prefix and
# right_encode(output bits, or 0 for KMACXOF) after the message. In software
# (firmware/libhash/swhash/sp800185_sw.h) and on the Keccak engine, in modes of its own:
# `cshake` is the SHAKE's sponge with CSHAKE_PAD (the prefix and everything else are
# message bytes software writes); `kmac` is that mode plus the key: the engine absorbs the
# window's key words (software writes bytepad(encode_string(K), rate) there) as the block
# after the message's first, which must be the one-block prefix (gateware/keccak/kmac.py).
SP800_185 = (Sp800185("SHAKE128", 10, 12), Sp800185("SHAKE256", 11, 13))
SP800_185_ALGORITHMS = tuple(s.xof for s in SP800_185)     # cSHAKE128 / KMAC128, cSHAKE256 / KMAC256
CSHAKE_PAD = 0x04
KMAC_NAME = "KMAC"
DEVICE_KEY_BYTES = 32       # keys/device_key: made once per tree, kept, never committed
# The device key's fingerprint: the first FINGERPRINT_BYTES bytes of the device key's
# HMAC-SHA-256 of this label, computed by the host (gateware/devicekey.py) and by the engine
# (the xv6 kernel's boot line). The label never parses as a manifest line ("<64 hex>  <name>"):
# it starts with no hex digit and holds no newline.
DEVICE_KEY_FINGERPRINT_LABEL = "HashSoC device key fingerprint v1"
DEVICE_KEY_FINGERPRINT_BYTES = 8

# The signed boot image (docs/integrity.md, "Verified boot"): what the ROM checks before it
# jumps to a program in main RAM. The image's header is loaded at main RAM base +
# BOOT_HEADER_OFFSET (beside, not inside, the image: xv6 and the firmware run from main RAM's
# first byte): BOOT_HEADER's little-endian words, then the MAC, HMAC-SHA-256 under the device
# key of the words and the image's `length` bytes at `load`, computed by the engine.
BOOT_MAGIC = 0x31495348     # "HSI1" as bytes in memory
BOOT_FORMAT = 1             # the header's layout; another one is refused
BOOT_HEADER = (
    Bit("magic", "BOOT_MAGIC"),
    Bit("format", "BOOT_FORMAT: the layout of this header"),
    Bit("version", "the image's version: refused below the ROM's minimum (anti-rollback)"),
    Bit("length", "bytes of the image, 1 or more"),
    Bit("load", "its byte address in main RAM"),
    Bit("entry", "where the ROM jumps, inside the image"),
    Bit("flags", "0 (reserved)"),
    Bit("reserved", "0"),
)
BOOT_HEADER_WORDS = len(BOOT_HEADER)
BOOT_MAC_BYTES = 32
BOOT_HEADER_BYTES = 4 * BOOT_HEADER_WORDS + BOOT_MAC_BYTES
BOOT_HEADER_OFFSET = 0x1FF000   # main RAM's last page below 2 MiB (xv6's RAM disk)
# The oldest image version a ROM accepts unless its build says otherwise, and the version
# `make` signs xv6 and the firmware with.
BOOT_MIN_VERSION = 1
BOOT_IMAGE_VERSION = 1

# The xv6 manifest's binding to its kernel (docs/integrity.md): manifest.mac is one line,
# "<64 hex>  kernel-version <N>", the MAC being the device key's HMAC-SHA-256 of the line
# "kernel-version <N>\n" followed by /manifest's bytes; a kernel of another version refuses
# it (anti-rollback). Its first byte is no hex digit and not the boot header's magic, so
# this MAC is never a manifest line's, a boot header's or the fingerprint's.
MANIFEST_VERSION_TAG = "kernel-version"

# Scatter-gather DMA (dma_ctrl.list): dma_addr is the byte address (word aligned) of a list
# of dma_len descriptors in main RAM, each SG_DESC_WORDS words in this order; the engine
# reads them itself and the pieces they name, in order, as one DMA command (`last` ends
# the message after the final piece). At most SG_MAX descriptors per command.
SG_MAX = 256
SG_DESC = (
    Bit("addr", "byte address of a piece of the message (any alignment, inside main RAM)"),
    Bit("len", "its length in bytes, 1 or more"),
)
SG_DESC_WORDS = len(SG_DESC)

# The engines' registers (a LiteX CSR bank each, the same layout for every engine), in bank
# order. gateware/litex_wrapper.py makes its CSRs from them (LiteX then writes csr.h's
# CSR_<ENGINE>_<REG>_ADDR and its fields' _OFFSET/_SIZE, which the driver uses), and the
# engine's ports (gateware/common/engine.py) and the wrapper's Instance are named after them:
# a register's `port`, or with "*" one port per field ("ctrl_*": ctrl_init, ctrl_mode, ...).
# "rw" registers are software's (CSRStorage: the engine reads them), "ro" the engine's
# (CSRStatus). A `pulse` field is a command: writing 1 gives the engine a one-clock pulse.
# `port=False`: no engine port, the wrapper computes the field (status.error: errors != 0).
# The version register's values are the engine's (ENGINE_VERSION, its variant and modes).
REGISTERS = (
    Register("id", "ro", (), "", "Engine ID, four ASCII characters."),
    Register("version", "ro", (
        Field("minor", 0, 8, "Minor version."),
        Field("major", 8, 8, "Major version."),
        Field("variant", 16, 8, "Core variant, and its clocks per block (Keccak: per permutation): " + "; ".join(
            f"{e.name} " + ", ".join(f"{v.code} {v.name} ({v.clocks})" for v in VARIANTS if v.engine == e.name)
            for e in ENGINES) + "."),
        Field("modes", 24, 8, "Number of modes."),
    ), "", "Version and capabilities."),
    Register("ctrl", "rw", (
        Field("init", 0, 1, "Open a new message in ``mode``.", pulse=True),
        Field("abort", 1, 1, "Drop the open message, stop DMA, reset the core.", pulse=True),
        Field("squeeze", 2, 1, "XOF modes: permute for the next output block.", pulse=True),
        Field("err_clear", 3, 1, "Clear the sticky ``errors`` bits.", pulse=True),
        Field("mode", 8, 4, "Algorithm used by ``init`` (docs/registers.md)."),
    ), "ctrl_*", "Commands. Write ``init`` together with ``mode`` to start a message."),
    Register("status", "ro", (
        Field("open", 0, 1, "A message is open: data is accepted."),
        Field("busy", 1, 1, "Data held or being processed (context not readable)."),
        Field("done", 2, 1, "The digest / output block is readable in the context window."),
        Field("dma_busy", 3, 1, "A DMA command is running."),
        Field("error", 4, 1, "Some bit of ``errors`` is set.", port=False),
        Field("xof", 5, 1, "The current mode may squeeze."),
        Field("mode", 8, 4, "Mode of the current message."),
    ), "st_*", "Engine status."),
    Register("errors", "ro", tuple(Field(b.name, i, 1, b.doc) for i, b in enumerate(ERRORS)),
             "errors", "Sticky error bits; cleared by ``ctrl.err_clear``."),
    Register("dma_addr", "rw", (), "dma_addr", "DMA: byte address of the data (any alignment); with "
             "``dma_ctrl.list``, of the descriptor list (word aligned)."),
    Register("dma_len", "rw", (), "dma_len", "DMA: length in bytes; with ``dma_ctrl.list``, the number of "
             f"descriptors (1 to {SG_MAX})."),
    Register("dma_ctrl", "rw", (
        Field("start", 0, 1, "Start reading ``dma_len`` bytes at ``dma_addr``.", pulse=True),
        Field("last", 1, 1, "These bytes end the message."),
        Field("list", 2, 1, "Scatter-gather: ``dma_addr`` and ``dma_len`` name a list of descriptors in "
              "main RAM (address, length), read by the engine as one command."),
    ), "dma_*", "DMA command."),
    Register("busy_cycles", "ro", (), "busy_cycles", "Clocks the core has been busy since ``init``."),
)

# Providers: who computes a digest. SW and HW are the driver's (hash_begin); AUTO is the
# kernel's policy (the engine from a size on); USER is the xv6 tools' own choice (the
# software hash linked into the program, no system call).
PROVIDERS = (
    Bit("sw", "software: the portable C in firmware/libhash/swhash"),
    Bit("hw", "hardware: the engine, by DMA (or CPU stores with HASH_F_PIO)"),
    Bit("auto", "system call only: the engine from a message size on, software below it"),
    Bit("user", "xv6 tools only: the software hash in user space, no system call"),
)


# ---- derived views (no new facts below this line) ----

def engine(name):
    return next(e for e in ENGINES if e.name == name)


def variants_of(engine_name):
    return tuple(v for v in VARIANTS if v.engine == engine_name)


def variant(engine_name, name=None):
    """The engine's variant `name`; None: its default."""
    vs = variants_of(engine_name)
    if name is None:
        return vs[0]
    for v in vs:
        if v.name == name:
            return v
    raise ValueError(f"{engine_name} variants are {', '.join(v.name for v in vs)}, not {name!r}")


def algorithm(key_or_name):
    """By C key ("SHA3_256"), command-line name ("sha3-256") or title ("SHA3-256")."""
    for a in ALGORITHMS:
        if key_or_name in (a.key, a.name, a.title):
            return a
    raise KeyError(key_or_name)


def algorithms_of(engine_name):
    """The engine's algorithms, by mode number."""
    return sorted((a for a in ALGORITHMS if a.engine == engine_name), key=lambda a: a.mode)


def hmac_shift(engine_name):
    """Where the key source's bits start in the engine's mode: above its hash modes."""
    return max(a.mode for a in algorithms_of(engine_name)).bit_length()


def hmac_mode(alg, key_source):
    """The engine mode of HMAC over algorithm `alg` with key source `key_source` (names)."""
    a = algorithm(alg)
    return a.mode | next(k for k in HMAC_KEYS if k.name == key_source).bits << hmac_shift(a.engine)


def hmac_modes(engine_name):
    return tuple(hmac_mode(a, k.name) for a in HMAC_ALGORITHMS for k in HMAC_KEYS
                 if algorithm(a).engine == engine_name)


def sp800185_modes(engine_name):
    """The engine's cSHAKE and KMAC modes (the Keccak engine's: SP800_185)."""
    return tuple(m for s in SP800_185 if algorithm(s.xof).engine == engine_name for m in (s.cshake, s.kmac))


def modes(engine_name):
    """Every ctrl.mode the engine accepts: its algorithms', then its HMAC, cSHAKE and KMAC modes."""
    return tuple(a.mode for a in algorithms_of(engine_name)) + hmac_modes(engine_name) + sp800185_modes(engine_name)


def xof_modes(engine_name):
    return tuple(a.mode for a in algorithms_of(engine_name) if a.xof) + sp800185_modes(engine_name)


def error_bit(name):
    return next(i for i, b in enumerate(ERRORS) if b.name == name)


def region(name):
    return next(r for r in WINDOW if r.name == name)


def register(name):
    return next(r for r in REGISTERS if r.name == name)


MAX_DIGEST = max(a.digest for a in ALGORITHMS)
MAX_BLOCK = max(a.block for a in ALGORITHMS)
MAX_CTX_WORDS = max(e.ctx_words for e in ENGINES)
