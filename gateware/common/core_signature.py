# SPDX-License-Identifier: MIT
"""The port list every hash core implements: the contract of docs/engine-interface.md.

One definition for both cores and for the frontend that drives them, so the contract
cannot drift between them. Directions are seen from the core.
"""

from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out


def hash_core_signature():
    return wiring.Signature({
        "mode": In(4),          # algorithm, sampled on init
        "init": In(1),          # load the IV, byte count := 0, done := 0
        "in_valid": In(1),      # message beats: 4 bytes each, fewer only on the last
        "in_ready": Out(1),
        "in_data": In(32),      # first message byte in bits 7:0
        "in_nbytes": In(3),
        "in_last": In(1),
        "squeeze": In(1),       # Keccak XOF modes: next output block
        "busy": Out(1),         # 0: at a block boundary, context readable/writable
        "done": Out(1),         # digest / output block readable in the context
        "ctx_addr": In(6),      # context words (digest, state, byte count)
        "ctx_rdata": Out(32),   # valid one clock after ctx_addr
        "ctx_wdata": In(32),
        "ctx_we": In(1),
        "key_we": In(1),        # HMAC key word ctx_addr[3:0] := ctx_wdata (cores without HMAC: ignored)
    })
