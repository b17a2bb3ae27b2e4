"""What a Simply Cosmic player may know when deciding, built by the rules: the public block of the state
(st[:L.PUB_END], read in place), the player's own hand (`own_hand`, read in place) and the rest of its
private part, the view (`fill_view`: its own face-down challenge card and, for Mind, the hand Mind saw).
The engine (context.ask) builds it at every decision; policies.py only reads it. views.py checks that
what is not here (the other hands, the decks) never changes a decision.
"""
from numba import njit

from . import state as L
from .state import ST, R

# the private view (the public block is read from the state in place, at the state's offsets):
V_SEEN = 0                    # the hand Mind (or its flare's holder) saw, by kind; only the seer's view
V_SEEN_WHO = V_SEEN + L.KMAX  # whose hand that was, -1 none
V_SEAT = V_SEEN_WHO + 1
V_KIND = V_SEAT + 1
V_ARG = V_KIND + 1
V_MYCARD = V_ARG + 1          # own face-down challenge card, -1 none
V_PLAYERS = V_MYCARD + 1
V_WINS = V_PLAYERS + 1
VIEW_SIZE = V_WINS + 1


@njit(cache=True)
def fill_view(view, st, d, p, kind, arg):
    """The one place a player's private view is built (its own hand is read in place: `own_hand`). It runs
    at every decision, so it copies a seen hand only when there is one (a block filled before is cleared
    once, when its seer's view moves on), and only the kinds in play (the rest stays zero). (Element
    loops: numba's slice assignment costs several times more.)"""
    kinds = d[R.KINDS]
    if st[ST.SEEN_BY] == p:  # what p was shown (Mind's power, Mind's flare) stays in p's view
        for k in range(kinds):
            view[V_SEEN + k] = st[ST.SEEN + k]
        view[V_SEEN_WHO] = st[ST.SEEN_WHO]
    elif view[V_SEEN_WHO] >= 0:
        for k in range(kinds):
            view[V_SEEN + k] = 0
        view[V_SEEN_WHO] = -1
    view[V_SEAT] = p
    view[V_KIND] = kind
    view[V_ARG] = arg
    view[V_MYCARD] = st[ST.OCARD] if p == st[ST.OFF] else (st[ST.DCARD] if p == st[ST.DEF] else -1)
    view[V_PLAYERS] = d[R.PLAYERS]
    view[V_WINS] = d[R.WINS]


@njit(cache=True, inline="always")
def own_hand(st, p):
    """p's hand by kind: a window on the state, not a copy (it would cost a copy at every decision)."""
    return st[ST.HAND + p * L.KMAX:ST.HAND + (p + 1) * L.KMAX]
