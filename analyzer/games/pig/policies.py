"""Pig's policies. A policy sees only its player's view (`view`, built by the rules in view.py) and the
legal options the engine listed, and returns the index of one option.

Pig has no hidden cards, but the same discipline holds: the view is what the player may know (the
turn total, the target, every score), never the die stream's future.
"""
from numba import njit

from ...kernel import FIRST_GAME_POLICY, ask_policy, asked, index_of
from .decisions import HOLD, ROLL
from .view import V_SCORES, V_TARGET, V_TURN

HOLD_AT = FIRST_GAME_POLICY  # Pig's own policy's code (PigScenario.POLICIES)

W_HOLD_AT = 0  # hold_at's weights (PigScenario.WEIGHTS, in this order)

@njit(cache=True)
def hold_at(view, options, n_options, weights):
    """Hold once the turn total reaches the hold_at weight, or when holding wins the game."""
    wins_now = view[V_SCORES] + view[V_TURN] >= view[V_TARGET]
    want = HOLD if view[V_TURN] >= weights[W_HOLD_AT] or wins_now else ROLL
    k = index_of(options, n_options, want)
    return k if k >= 0 else 0  # a restriction that forbids holding lists ROLL alone


@njit(cache=True)
def decide(code, view, options, n_options, stream, script, ask, weights):
    """The one dispatch from a seat's policy code to its decision function: random, scripted and search
    are the framework's (search plays its rollout policy past its branch: `code` comes back as that);
    Pig's one policy of its own is hold_at."""
    k, code = ask_policy(code, stream, script, ask, n_options)
    if k < 0:
        k = hold_at(view, options, n_options, weights)
    return asked(ask, k)
