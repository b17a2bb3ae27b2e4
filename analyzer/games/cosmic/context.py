"""The kernel's run context: the result columns, the trace record kinds, and how a seat is asked for
a decision. `X` is one game's context, a pack with named fields (analyzer/kernel_pack.py: one pointer
per call): CONTEXT_FIELDS below."""
import numpy as np
from numba import njit
from numba.experimental import structref

from ...kernel import A_REDEAL, FIRST_GAME_POLICY, RESTRICT_LIFTED, RESTRICT_LIFTED_DOC, Columns, indices, record
from ...kernel_internals import borrowed, jit_plain_ints
from ...kernel_pack import PackType, field, named
from . import state as L
from .hidden import redeal_hidden
from .policies import decide
from .restrictions import restrict_options
from .view import VIEW_SIZE, fill_view, own_hand

# X.opts: the options of one decision, with the last slots kept for the seat orders of powers_at and of
# card_window and of a Cosmic Zap's offer (scratch that is never an option, so that no call allocates)
OPTS_SIZE = 4 * L.DECKMAX
ORDER_ZAPS = OPTS_SIZE - 3 * L.MAXP
ORDER_POWERS = OPTS_SIZE - 2 * L.MAXP
ORDER_CARDS = OPTS_SIZE - L.MAXP

CONTEXT_FIELDS = (
    "stream",   # the game's random stream (uint64[1])
    "policy",   # each seat's policy code
    "weights",  # each seat's weights row (scenario.WEIGHTS: heuristic, cautious)
    "restrict", # each seat's restrictions (decisions.NO_* bits)
    "allowed",  # scratch for the restriction filter (OPTS_SIZE booleans)
    "script",   # the scripted policy's option indices
    "ctl",      # the game's control row (kernel.A_*): the script's position, and a search's log and branch
    "own_view", # the deciding seat's private view (view.fill_view)
    "opts",     # the options of a decision, and scratch seat orders (OPTS_SIZE)
    "ev", "tn", "cap",  # the trace (kernel.record)
    "g", "s",   # this game's rows of the whole-game and per-seat columns
)


class ContextType(PackType):
    pass


class _Context(structref.StructRefProxy):
    pass


Context = named(_Context, ContextType, CONTEXT_FIELDS)


@njit(cache=True)
def new_context(stream, policy, weights, restrict, allowed, script, ctl, view, opts, ev, tn, cap, g, s):
    """The context over these arrays (borrowed: the caller keeps them alive, then `release`s it)."""
    return Context(field(stream), field(policy), field(weights), field(restrict), field(allowed), field(script),
                   field(ctl), field(view), field(opts), field(ev), field(tn), field(cap), field(g), field(s))


@njit(cache=True)
def new_scratch():
    """(view, opts, allowed): a context's scratch arrays, owned by the caller."""
    return np.zeros(VIEW_SIZE, np.int64), np.zeros(OPTS_SIZE, np.int64), np.zeros(OPTS_SIZE, np.bool_)


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
          "powers_used": "times its alien power acted", RESTRICT_LIFTED: RESTRICT_LIFTED_DOC},
)
G = indices("G", COLUMNS.game)
S = indices("S", COLUMNS.seat)

# trace record kinds: (kind, seat, a, b, c)
(E_FIRST, E_TURN, E_REDEAL, E_REGROUP, E_DESTINY, E_DEFENDER, E_REESTABLISH, E_CONE, E_ALLY, E_POWER,
 E_CARDS, E_PLAY, E_TOTALS, E_RESULT, E_LAND, E_WARP, E_HOME, E_REWARD, E_CONSOLATION, E_DEAL,
 E_NO_CARD, E_WIN, E_CAP, E_STUCK, E_ZAP) = range(1, 26)
E_COSMIC_ZAP = 26  # (zapper, the seat whose power's use is cancelled, its alien)
E_DISARMED = 28  # (the defense): Laser's set-aside left it no challenge card and it loses (laser_ffg_no_card)
E_NO_BASE = 27  # (seat, tokens): going home with no base anywhere, they go to the Warp (home_without_base)


@njit(cache=True, inline="always")
def trace(X, kind, seat, a, b, c):
    record(X.ev, X.tn, X.cap, kind, seat, a, b, c)


@jit_plain_ints  # one compile, not one per literal decision kind at each call site
def ask(st, d, X, p, kind, arg, n):
    """Seat p picks one of the n options in X.opts (written by the caller); returns the option's value.
    The seat's restrictions filter them first (restrictions.py). A single option left is taken without
    asking (the script counts real choices only). At a search rollout's branch (kernel.search_step sets
    ctl[A_REDEAL]) what the deciding seat cannot see is dealt anew once the choice is made (hidden.py)."""
    opts = X.opts
    if X.restrict[p] != 0:  # unrestricted seats skip this: their play stays byte-identical
        m = restrict_options(X.restrict[p], d, kind, opts, n, X.allowed)
        if m < 0:
            X.s[p, S.RESTRICT_LIFTED] += 1
        else:
            n = m
    if n == 1:
        return opts[0]
    view, code = X.own_view, X.policy[p]
    if code >= FIRST_GAME_POLICY:  # random and scripted never read the view
        fill_view(view, st, d, p, kind, arg)
    # the policy reads the public block and its own hand in place (borrowed: a slice would be
    # reference-counted at each call) and its own private view: nothing else of the state
    ctl = X.ctl
    k = decide(code, borrowed(st[:L.PUB_END]), view, borrowed(own_hand(st, p)), opts, n, X.stream, X.script,
               (ctl, X.ev, X.tn, X.cap), d, borrowed(X.weights[p]))
    if ctl[A_REDEAL] != 0:
        redeal_hidden(st, d, ctl[A_REDEAL] - 1, X.stream)
        ctl[A_REDEAL] = 0
    return opts[k]
