"""Who acts first when several players may act at once: the original's timing rule (powers, answers to
a card or a power's use) and the play order of the card windows (`play_order`)."""
from numba import njit

from .state import ST, R


@njit(cache=True)
def timing_order(st, d, order):
    """Timing conflicts: non-main players clockwise from the offense's left, then offense, then defense."""
    players = d[R.PLAYERS]
    off, de = st[ST.OFF], st[ST.DEF]
    n = 0
    for k in range(1, players):
        q = (off + k) % players
        if q != de:
            order[n] = q
            n += 1
    order[n] = off
    if de < 0 or de >= players:  # before destiny names the defense, or nobody defends (an unowned system)
        return n + 1
    order[n + 1] = de
    return n + 2


@njit(cache=True)
def play_order(st, d, order):
    """`play_order`: timing (the original's timing rule) or clockwise from the offense's left."""
    players = d[R.PLAYERS]
    if d[R.ORDER_TIMING] == 1:
        return timing_order(st, d, order)
    for k in range(players):
        order[k] = (st[ST.OFF] + 1 + k) % players
    return players
