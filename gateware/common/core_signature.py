# SPDX-License-Identifier: MIT
"""The port list every hash core implements: the contract of docs/engine-interface.md.

One definition for both cores and for the frontend that drives them, so the contract
cannot drift between them. Directions are seen from the core.
"""

from amaranth.lib import wiring
from amaranth.lib.wiring import Flow, In, Out


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
        "key_we": In(1),        # key word ctx_addr := ctx_wdata: HMAC's K0, KMAC's key block (cores without keys: ignored)
    })


def pass_through(m, outer, inner):
    """The default wiring of a wrapper around a core, both of this signature (HMAC's and
    KMAC's): the wrapper's inputs drive the core's, the core's outputs the wrapper's. The
    wrapper's own assignments, made after this in the same module, take precedence."""
    for name, member in hash_core_signature().members.items():
        if member.flow == Flow.In:
            m.d.comb += getattr(inner, name).eq(getattr(outer, name))
        else:
            m.d.comb += getattr(outer, name).eq(getattr(inner, name))
