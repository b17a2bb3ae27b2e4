"""What a STOP player may know when deciding, built by the rules: all that policies.decide is given.

Hands are held face down. The view is a window on the state: its first slots are filled at every
decision the engine asks (`fill_view`: the decision's kind and context, decisions.py; the seat; the card
types of its own hand), the rest is what every player sees, read in place: the printed card table
(penalties, X+ draws) and the match totals. The seat's own hand (copies by type, then its size) and the
hand sizes are windows too (`own_hand`, `hand_sizes`). Nothing is copied that can be read in place: a
game asks about 480 decisions in 60 microseconds, and copying the own hand's 49 counts at each cost 6%
of the kernel's time (measured). The other hands and the draw pile are in no argument of decide.
views.py (the game contract) and tests/stop/test_stop_policies.py check it: re-dealing the hidden cards
of a position (other hands of the same sizes, the draw pile) never changes a decision. The X+ victim
shows its hand to everyone; no heuristic remembers it, so the view leaves it out (search's re-deal keeps
it: engine.redeal_hidden).
"""
import numpy as np

from ...kernel_internals import jit_no_refcount_inline
from .state import DRAWS, HELD, MAX_PLAYERS, PENALTY, SIZE, TOTAL, VIEW, VIEW_FILLED

i64 = np.int64  # constants are numpy ints: see state.py

# the view: view[V_...]; filled at each decision (V_HELD: bit mask of the card types in the own hand) ...
V_KIND, V_CONTEXT, V_SEAT, V_HELD = map(i64, range(4))
assert V_HELD + 1 == VIEW_FILLED  # the room state.LAYOUT keeps for them
# ... then read in place: the card table by card type, the match totals by seat
V_PENALTY, V_DRAWS, V_TOTALS = PENALTY - VIEW, DRAWS - VIEW, TOTAL - VIEW
VIEW_SIZE = V_TOTALS + MAX_PLAYERS


@jit_no_refcount_inline
def view_of(s):
    return s.v[VIEW:VIEW + VIEW_SIZE]


@jit_no_refcount_inline
def fill_view(view, s, p, kind, ctx):
    """The one place a player's view is built: seat p's decision of `kind` (ctx: its context)."""
    view[V_KIND] = kind
    view[V_CONTEXT] = ctx
    view[V_SEAT] = p
    view[V_HELD] = s.v[HELD + p]


@jit_no_refcount_inline
def own_hand(s, p):
    """p's own hand: copies by card type, then (at SIZE) how many cards it holds."""
    return s.hand[p]


@jit_no_refcount_inline
def hand_sizes(s):
    """How many cards each seat holds, by seat (anyone can count them)."""
    return s.hand[:, SIZE]
