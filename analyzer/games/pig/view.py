"""What a Pig player may know when deciding, built by the rules (`fill_view`): the turn total, the
target and every score. Never the die stream's future. The engine builds it; policies.py only reads it.
"""
from numba import njit

# the view: view[V_TURN] turn total, view[V_TARGET] the target, view[V_SCORES + k] the score of the
# player k places after the deciding one (k = 0: their own)
V_TURN, V_TARGET, V_SCORES = 0, 1, 2


@njit(cache=True)
def fill_view(view, p, turn_total, target, score):
    """The one place a Pig player's view is built."""
    players = len(score)
    view[V_TURN] = turn_total
    view[V_TARGET] = target
    for k in range(players):
        view[V_SCORES + k] = score[(p + k) % players]
