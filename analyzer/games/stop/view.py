"""What a STOP player may know when deciding: the only way policies.py reads the game state.

Hands are held face down, so a policy may read its *own* hand (`own_*`, called with the deciding
player p) and, of the rest of the table, only what every player sees: hand sizes, match totals, the
card table (penalties, X+ draws) and the top card (passed to it). The other players' cards and the
draw pile order have no accessor here: a policy that wants them has to come through this file, where
a reviewer sees it. tests/stop/test_stop_policies.py checks the rule two ways: policies.py touches the
state only through these names, and re-dealing the hidden cards of built positions (other hands of
the same sizes, the draw pile) never changes a decision. The X+ victim shows their hand to everyone;
no heuristic remembers it, so nothing here exposes it (search's re-deal keeps it: engine.redeal_hidden).

All accessors are inlined: they cost nothing in the kernel.
"""
from ...kernel_internals import jit_no_refcount_inline
from .state import DRAWS, HELD, OPTS, PENALTY, POLICY, SIZE, TOTAL, hand_penalty

# ---- the deciding player's own hand ------------------------------------------------------------------

@jit_no_refcount_inline
def own_count(s, p, t):
    """Cards of type t in p's own hand."""
    return s.hand[p, t]


@jit_no_refcount_inline
def own_size(s, p):
    return s.hand[p, SIZE]


@jit_no_refcount_inline
def own_types(s, p):
    """Bit mask of the card types in p's own hand."""
    return s.v[HELD + p]


@jit_no_refcount_inline
def own_penalty(s, p):
    """What p's own hand would score now."""
    return hand_penalty(s, p)


# ---- the public table ----------------------------------------------------------------------------------

@jit_no_refcount_inline
def hand_size(s, q):
    """How many cards q holds (anyone can count them)."""
    return s.hand[q, SIZE]


@jit_no_refcount_inline
def match_total(s, q):
    return s.v[TOTAL + q]


@jit_no_refcount_inline
def card_penalty(s, t):
    return s.v[PENALTY + t]


@jit_no_refcount_inline
def card_draws(s, t):
    """Cards the X+ victim draws for a forced card of type t."""
    return s.v[DRAWS + t]


@jit_no_refcount_inline
def policy_of(s, p):
    """The policy code of seat p (how p decides, not something p knows about the game)."""
    return s.v[POLICY + p]


# ---- the decision in hand --------------------------------------------------------------------------------

@jit_no_refcount_inline
def option(s, k):
    """The k-th legal option the engine listed for the current decision (decisions.py)."""
    return s.v[OPTS + k]
