"""The kernel's run context: the result columns, the trace record kinds, and how a seat is asked for
a decision. `X` is one game's context, a Pack (analyzer/kernel_pack.py: one pointer per call, read
like a tuple): (stream, policy codes, commit per seat, script, script position, view, options, trace
records, trace counters, trace cap, game counters g[i], seat counters s[i])."""
from numba import njit

from ...kernel import FIRST_GAME_POLICY, Columns, indices, record
from ...kernel_internals import borrowed, jit_plain_ints
from . import state as L
from .policies import decide, fill_view, own_hand

# X[6]: the options of one decision, with the last slots kept for the seat orders of powers_at and of
# card_window (scratch that is never an option, so that no call allocates)
OPTS_SIZE = 4 * L.DECKMAX
ORDER_POWERS = OPTS_SIZE - 2 * L.MAXP
ORDER_CARDS = OPTS_SIZE - L.MAXP

COLUMNS = Columns(
    game={"length": "turns played", "capped": "1 if the game hit turn_cap (a draw)",
          "challenges": "challenges played", "deals_made": "compromise-compromise deals struck",
          "deals_failed": "compromise-compromise deals that failed, rejected or quashed (3 tokens each to the Warp)",
          "win_by": "how the winning challenge ended: 0 no win, 1 attack, 2 deal, 3 re-establish"},
    seat={"score": "foreign bases at the end", "is_winner": "won the game (shared wins count for each)",
          "faction": "alien (0 Filch, 1 Warpish, 2 Loser, 3 Laser, 4 Mind, 5 Sorcerer, 6 Grief, 7 Zombie)",
          "home_bases": "bases in its own system at the end", "warp": "tokens in the Warp at the end",
          "offense_wins": "challenges won as the offense (attack, deal or re-establish)",
          "defense_wins": "challenges won as the defense",
          "powers_used": "times its alien power acted"},
)
G = indices("G", COLUMNS.game)
S = indices("S", COLUMNS.seat)

# trace record kinds: (kind, seat, a, b, c)
(E_FIRST, E_TURN, E_REDEAL, E_REGROUP, E_DESTINY, E_DEFENDER, E_REESTABLISH, E_CONE, E_ALLY, E_POWER,
 E_CARDS, E_PLAY, E_TOTALS, E_RESULT, E_LAND, E_WARP, E_HOME, E_REWARD, E_CONSOLATION, E_DEAL,
 E_NO_CARD, E_WIN, E_CAP, E_STUCK, E_ZAP) = range(1, 26)


@njit(cache=True, inline="always")
def trace(X, kind, seat, a, b, c):
    record(X[7], X[8], X[9], kind, seat, a, b, c)


@jit_plain_ints  # one compile, not one per literal decision kind at each call site
def ask(st, d, X, p, kind, arg, n):
    """Seat p picks one of the n options in X[6] (written by the caller); returns the option's value.
    A single legal option is taken without asking (the script counts real choices only)."""
    opts = X[6]
    if n == 1:
        return opts[0]
    view, code = X[5], X[1][p]
    if code >= FIRST_GAME_POLICY:  # random and scripted never read the view
        fill_view(view, st, d, p, kind, arg)
    # the policy reads the public block and its own hand in place (borrowed: a slice would be
    # reference-counted at each call) and its own private view: nothing else of the state
    k = decide(code, borrowed(st[:L.PUB_END]), view, borrowed(own_hand(st, p)), opts, n, X[0], X[3], X[4], d, X[2][p])
    return opts[k]
