"""Restricted play (issue #25): which listed option a restriction forbids. context.ask applies it to every
decision right after the rules list its options, so no policy can choose around it; when a restriction
forbids every option the filter is lifted for that decision and counted (RESTRICT_LIFTED).

Every Cosmic decision is listed (ask), so this is the one filter:
- NO_POWER: D_USE_POWER's yes (the optional powers: Filch, Loser, Mind, Sorcerer, Grief). Laser, Warpish
  and Zombie act by themselves (no decision): a restricted seat's mandatory power still acts.
- NO_ALLIES: D_INVITE's yes and D_ANSWER's sides (only ANSWER_DECLINE is left).
- NO_DEALS: D_DEAL's offers (only DEAL_NONE is left) and D_ACCEPT's yes.
- NO_COMPROMISE: D_CARD's compromise (lifted when the hand holds challenge cards of no other kind).
"""
from numba import njit

from ...kernel import keep_allowed
from . import state as L
from .decisions import (
    ANSWER_DECLINE,
    D_ACCEPT,
    D_ANSWER,
    D_CARD,
    D_DEAL,
    D_INVITE,
    D_USE_POWER,
    DEAL_NONE,
    NO_ALLIES,
    NO_COMPROMISE,
    NO_DEALS,
    NO_POWER,
)
from .state import R


@njit(cache=True)
def forbids(mask, d, kind, option):
    """Does a seat under restrictions `mask` forbid `option` of a decision of `kind`?"""
    if kind == D_USE_POWER:
        return mask & NO_POWER != 0 and option == 1
    if kind == D_INVITE:
        return mask & NO_ALLIES != 0 and option == 1
    if kind == D_ANSWER:
        return mask & NO_ALLIES != 0 and option != ANSWER_DECLINE
    if kind == D_DEAL:
        return mask & NO_DEALS != 0 and option != DEAL_NONE
    if kind == D_ACCEPT:
        return mask & NO_DEALS != 0 and option == 1
    if kind == D_CARD:
        return mask & NO_COMPROMISE != 0 and d[R.CTYPE + option] == L.C_COMPROMISE
    return False


@njit(cache=True)
def restrict_options(mask, d, kind, opts, n, allowed):
    """Compacts opts[:n] to the options `mask` allows and returns how many; -1 when it allows none (the
    caller lifts the filter, keeps all n and counts it)."""
    for k in range(n):
        allowed[k] = not forbids(mask, d, kind, opts[k])
    m = keep_allowed(opts, n, allowed)
    return m if m > 0 else -1
