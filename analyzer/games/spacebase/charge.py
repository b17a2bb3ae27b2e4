"""Charge squares, the rules both the engine and the policies read: whether a card can fire (it has
its cubes) and whether it can take another cube (it has an empty needed square)."""
from ...kernel_internals import jit_plain_ints_inline
from .layout import (
    NSIDE,
    PL,
    F,
)


@jit_plain_ints_inline
def is_ready(D, st, p, c, side):
    """Enough cubes on card c (on its `side`) to fire: all needed squares if linked, else one."""
    CT = D.CT
    CUBES = st.CUBES
    cap = CT[c, side * NSIDE + F.CAP]
    if cap <= 0:
        return False
    if CT[c, side * NSIDE + F.LINKED] != 0:
        return CUBES[p, c] >= cap
    return CUBES[p, c] >= 1


@jit_plain_ints_inline
def next_ready(D, st, p, side, timing, k):
    """The first index from k of p's ability list on `side` (ABL[p, side], ability order) whose card's
    charge ability has this timing (T_*) and is ready, or the list's length: p's ready abilities of one
    timing are `k = next_ready(.., 0)`, then `k = next_ready(.., k + 1)` while k < the length.
    st: the state, or the public tables a policy reads."""
    CT, ABL = D.CT, st.ABL
    o = side * NSIDE
    n = st.PS[p, PL.NAB0 + side]
    while k < n:
        c = ABL[p, side, k]
        if CT[c, o + F.TIMING] == timing and is_ready(D, st, p, c, side):
            return k
        k += 1
    return n


@jit_plain_ints_inline
def has_room(D, st, p, c, side):
    """Whether card c, showing `side` on p's board, has an empty needed charge square."""
    return st.CUBES[p, c] < D.CT[c, side * NSIDE + F.CAP]
