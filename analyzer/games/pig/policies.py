"""Pig's policies. A policy sees only its player's view (`view`, built in one place below) and the
legal options the engine listed, and returns the index of one option.

Pig has no hidden cards, but the same discipline holds: the view is what the player may know (the
turn total, the target, every score), never the die stream's future.
"""
from numba import njit

from ...kernel import FIRST_GAME_POLICY, shared_choice
from .decisions import HOLD, ROLL

HOLD_AT = FIRST_GAME_POLICY  # Pig's own policy's code (PigScenario.POLICIES)

W_HOLD_AT = 0  # hold_at's weights (PigScenario.WEIGHTS, in this order)

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


@njit(cache=True)
def hold_at(view, options, n_options, weights):
    """Hold once the turn total reaches the hold_at weight, or when holding wins the game."""
    wins_now = view[V_SCORES] + view[V_TURN] >= view[V_TARGET]
    want = HOLD if view[V_TURN] >= weights[W_HOLD_AT] or wins_now else ROLL
    for k in range(n_options):
        if options[k] == want:
            return k
    return 0


@njit(cache=True)
def decide(code, view, options, n_options, stream, script, at, weights):
    """The one dispatch from a seat's policy code to its decision function: random and scripted are
    the framework's; Pig's one policy of its own is hold_at."""
    k = shared_choice(code, stream, script, at, n_options)
    if k >= 0:
        return k
    return hold_at(view, options, n_options, weights)
