# SPDX-License-Identifier: MIT
"""NIST CAVP ``.rsp`` test-vector reader for the hash-engine tests.

The vectors come from the installed ``cryptography_vectors`` package, which ships
the CAVP response files, e.g.::

    hashes/SHA2/SHA256ShortMsg.rsp   hashes/SHA3/SHA3_256LongMsg.rsp
    hashes/SHAKE/SHAKE128VariableOut.rsp   hashes/SHA2/SHA224Monte.rsp

API:

``load_rsp(relative_path) -> list[dict]``
    One dict per record; keys and values are the strings of the file (``Len``,
    ``Msg``, ``MD``, ``COUNT``, ``Outputlen``, ``Output``, ``Seed`` ...). The
    bracketed section parameters in force for a record (``[L = 32]``,
    ``[Input Length = 128]`` ...) are in ``entry["_section"]`` (a dict; a bracket
    without ``=`` maps to ``None``). Comments (``#``) are skipped. A record ends at
    a blank line, a section header, or when a key repeats.

``msg_bytes(entry) -> bytes``
    The message of a record, honouring ``Len`` in bits: CAVP writes the empty
    message as ``Len = 0`` / ``Msg = 00``. Without ``Len`` the whole ``Msg`` is
    the message. Bit-oriented lengths (``Len`` not a multiple of 8) raise
    ``ValueError``.
"""

import cryptography_vectors

__all__ = ["load_rsp", "parse_records", "msg_bytes"]


def load_rsp(relative_path):
    with cryptography_vectors.open_vector_file(relative_path, "r") as f:
        return parse_records(f.read(), where=relative_path)


def parse_records(text, where="", strict=True):
    """The records of a CAVP .rsp or Keccak KAT text (see load_rsp). With strict=False,
    lines without `=` are skipped instead of refused (the KAT files have such lines)."""
    entries = []
    section = {}
    current = {}

    def flush():
        nonlocal current
        if current:
            current["_section"] = dict(section)
            entries.append(current)
        current = {}

    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            flush()
            continue
        if line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            flush()
            body = line[1:-1]
            if "=" in body:
                key, value = body.split("=", 1)
                section[key.strip()] = value.strip()
            else:
                section[body.strip()] = None
            continue
        if "=" not in line:
            if strict:
                raise ValueError(f"{where}: cannot parse line {raw!r}")
            continue
        key, value = (s.strip() for s in line.split("=", 1))
        if key in current:
            flush()
        current[key] = value
    flush()
    return entries


def msg_bytes(entry):
    msg = bytes.fromhex(entry.get("Msg", ""))
    if "Len" not in entry:
        return msg
    nbits = int(entry["Len"])
    if nbits % 8:
        raise ValueError(f"bit-oriented message (Len = {nbits}) is not supported")
    if nbits // 8 > len(msg):
        raise ValueError(f"Len = {nbits} but Msg holds only {len(msg)} bytes")
    return msg[: nbits // 8]
