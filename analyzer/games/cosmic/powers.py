"""The eight alien powers, each acting only at the timing points the rules name (`powers_at`: one
dispatch per timing point over the seats in timing order). Every model is ESTIMATED (no power text of
Simply Cosmic was found; see the package docstring); Grief's is invented (`grief_model`).

Timing points: TP_ALLIANCE (before alliances: Mind, Laser ffg), TP_PLANNING (before cards are chosen:
Loser's upset, Laser eon), TP_SWAP (both cards face down: Sorcerer), TP_REVEAL (attack cards shown:
Warpish), TP_OUTCOME (after every other effect: Loser's swap), TP_AFTER (the challenge is over: Filch,
Grief), and the replacement `warp_replaced` (tokens about to go to the Warp: Zombie).
A power acts only while its owner has 3+ home bases, is not zapped and no Power Outage is in force; each
use may be cancelled by a Cosmic Zap as it is about to act (zaps.cosmic_zapped).
"""
import numpy as np
from numba import njit

from . import state as L
from .columns import S
from .context import (
    E_POWER,
    ORDER_POWERS,
    ask,
    trace,
)
from .decisions import D_MIND_TARGET, D_USE_POWER
from .state import ST, R
from .timing import timing_order
from .zaps import cosmic_zapped

TP_ALLIANCE, TP_PLANNING, TP_SWAP, TP_REVEAL, TP_OUTCOME, TP_AFTER = range(6)
POWER_HOME_BASES = 3
#                 Filch Warpish Loser Laser Mind Sorcerer Grief Zombie
MAIN_ONLY = np.array([1, 1, 1, 1, 0, 1, 1, 0], np.int64)
MANDATORY = np.array([0, 1, 0, 1, 0, 0, 0, 1], np.int64)
ON_OPPONENT = np.array([1, 0, 1, 1, 0, 1, 1, 0], np.int64)  # acts on the other main player (Mind: as a main player)
# trace codes of what a power did (E_POWER's b)
(FX_FILCH, FX_WARPISH, FX_UPSET, FX_SWAP_RESULT, FX_LASER_RANDOM, FX_LASER_ASIDE, FX_MIND, FX_SORCERER,
 FX_GRIEF, FX_ZOMBIE) = range(10)
FX_NAMES = ("takes the opponent's challenge card", "adds the tokens in the Warp", "declares an upset",
            "swaps winner and loser", "makes the opponent's card random", "sets aside opponent cards",
            "sees a main player's hand", "swaps the two challenge cards", "makes the winner discard",
            "sends lost tokens home, not to the Warp")


@njit(cache=True)
def power_kept(st, d, q):
    """q has not lost its power (3+ home bases, or had them when the loss of tokens under way began; Grief has
    one under its model) and no Power Outage is in force."""
    return (st[ST.COMET] != L.DT_OUTAGE and (L.home_bases(st, q) >= POWER_HOME_BASES or st[ST.KEEPS + q] == 1)
            and not (st[ST.ALIEN + q] == L.GRIEF and d[R.GRIEF] == 0))


@njit(cache=True)
def power_active(st, d, q):
    """q's power may act: kept, and not zapped this challenge."""
    return st[ST.ZAPPED + q] == 0 and power_kept(st, d, q)


@njit(cache=True)
def acts_at(st, d, alien, tp):
    if tp == TP_ALLIANCE:
        return alien == L.MIND or (alien == L.LASER and d[R.LASER_FFG] == 1)
    if tp == TP_PLANNING:
        return alien == L.LOSER or (alien == L.LASER and d[R.LASER_FFG] == 0)
    if tp == TP_SWAP:
        return alien == L.SORCERER
    if tp == TP_REVEAL:
        return alien == L.WARPISH
    if tp == TP_OUTCOME:
        return alien == L.LOSER and st[ST.UPSET] == 1
    return alien == L.FILCH or alien == L.GRIEF  # TP_AFTER


@njit(cache=True)
def opponent(st, q):
    return st[ST.DEF] if q == st[ST.OFF] else st[ST.OFF]


@njit(cache=True)
def powers_at(tp, st, d, X):
    """Every power in play that acts at `tp`, in timing order."""
    order = X.opts[ORDER_POWERS:ORDER_POWERS + L.MAXP]
    n = timing_order(st, d, order)
    for i in range(n):
        q = order[i]
        alien = st[ST.ALIEN + q]
        main = q == st[ST.OFF] or q == st[ST.DEF]
        if not acts_at(st, d, alien, tp) or not power_active(st, d, q) or (MAIN_ONLY[alien] == 1 and not main):
            continue
        if L.nobody_defends(st, d) and (ON_OPPONENT[alien] == 1 or (alien == L.MIND and main)):
            continue  # no other main player to act on
        optional = MANDATORY[alien] == 0 and tp != TP_OUTCOME
        if optional and not wants(tp, st, d, X, q, alien):
            continue
        if cosmic_zapped(st, d, X, q):
            continue
        X.s[q, S.POWERS_USED] += 1
        apply_power(tp, st, d, X, q, alien)


@njit(cache=True)
def wants(tp, st, d, X, q, alien):
    """An optional power: does its owner use it now? (Filch and Grief only when there is something to take.)"""
    if alien == L.FILCH and not filch_can(st, q):
        return False
    if alien == L.GRIEF and not grief_can(st, q):
        return False
    opts = X.opts
    opts[0] = 0
    opts[1] = 1
    return ask(st, d, X, q, D_USE_POWER, alien, 2) == 1


@njit(cache=True)
def filch_can(st, q):
    card = st[ST.DCARD] if q == st[ST.OFF] else st[ST.OCARD]
    return card >= 0


@njit(cache=True)
def grief_can(st, q):
    """Grief lost tokens to the Warp in a challenge its opponent won (not in a failed deal)."""
    lost_it = (st[ST.OFF_WINS] == 1 and q == st[ST.DEF]) or (st[ST.OFF_WINS] == 0 and q == st[ST.OFF])
    return lost_it and st[ST.LOST + q] > 0 and st[ST.HANDN + opponent(st, q)] > 0


@njit(cache=True)
def apply_power(tp, st, d, X, q, alien):
    if alien == L.WARPISH:
        bonus = 0
        for r in range(L.MAXP):  # every colour, an unowned one's too
            bonus += st[ST.WARP + r]
        st[(ST.BONUS_O if q == st[ST.OFF] else ST.BONUS_D)] += bonus
        trace(X, E_POWER, q, alien, FX_WARPISH, bonus)
    elif alien == L.LOSER:
        if tp == TP_PLANNING:
            st[ST.UPSET] = 1
            trace(X, E_POWER, q, alien, FX_UPSET, 0)
        else:
            st[ST.OFF_WINS] = 1 - st[ST.OFF_WINS]
            trace(X, E_POWER, q, alien, FX_SWAP_RESULT, st[ST.OFF_WINS])
    elif alien == L.LASER:
        laser(tp, st, d, X, q)
    elif alien == L.MIND:
        mind(st, d, X, q)
    elif alien == L.SORCERER:
        t = st[ST.OCARD]
        st[ST.OCARD] = st[ST.DCARD]
        st[ST.DCARD] = t
        trace(X, E_POWER, q, alien, FX_SORCERER, 0)
    elif alien == L.FILCH:
        slot = ST.DCARD if q == st[ST.OFF] else ST.OCARD
        L.give_card(st, q, st[slot], 1)
        trace(X, E_POWER, q, alien, FX_FILCH, st[slot])
        st[slot] = -1
    elif alien == L.GRIEF:
        trace(X, E_POWER, q, alien, FX_GRIEF, sorrow(st, d, X, q, False))


@njit(cache=True)
def sorrow(st, d, X, q, take):
    """The winner loses one random card per token q lost to the Warp: discarded, or (take) into q's hand."""
    winner = opponent(st, q)
    n = 0
    for _ in range(st[ST.LOST + q]):
        k = L.random_card(st, d, X.stream, winner)
        if k >= 0:
            L.give_card(st, winner, k, -1)
            if take:
                L.give_card(st, q, k, 1)
            else:
                L.discard(st, k)
            n += 1
    return n


@njit(cache=True)
def laser(tp, st, d, X, q):
    opp = opponent(st, q)
    if tp == TP_PLANNING:  # eon: the opponent's challenge card will be drawn at random
        st[ST.LASERED + opp] = 1
        trace(X, E_POWER, q, L.LASER, FX_LASER_RANDOM, opp)
        return
    # ffg: set aside as many random cards of the opponent as they have tokens in the challenge
    n = st[ST.OCONE + opp] if opp == st[ST.OFF] else L.tokens(st, st[ST.PLANET], opp)
    moved = 0
    for _ in range(n):
        k = L.random_card(st, d, X.stream, opp)
        if k < 0:
            break
        L.give_card(st, opp, k, -1)
        st[ST.ASIDE + opp * L.KMAX + k] += 1
        moved += 1
    trace(X, E_POWER, q, L.LASER, FX_LASER_ASIDE, moved)


@njit(cache=True)
def mind(st, d, X, q):
    """Mind sees the whole hand of one main player (its opponent's when Mind is a main player; the offense's
    when nobody defends)."""
    if q == st[ST.OFF] or q == st[ST.DEF]:
        target = opponent(st, q)
    elif L.nobody_defends(st, d):
        target = st[ST.OFF]
    else:
        opts = X.opts
        opts[0] = st[ST.OFF]
        opts[1] = st[ST.DEF]
        target = ask(st, d, X, q, D_MIND_TARGET, 0, 2)
    see_hand(st, q, target)
    trace(X, E_POWER, q, L.MIND, FX_MIND, target)


@njit(cache=True)
def see_hand(st, q, target):
    """q sees target's whole hand as it is now (kept in q's view for the rest of the challenge)."""
    st[ST.SEEN:ST.SEEN + L.KMAX] = st[ST.HAND + target * L.KMAX:ST.HAND + (target + 1) * L.KMAX]
    st[ST.SEEN_WHO] = target
    st[ST.SEEN_BY] = q


@njit(cache=True)
def warp_replaced(st, d, q):
    """Zombie: q's tokens never go to the Warp (they return to a base instead)."""
    return st[ST.ALIEN + q] == L.ZOMBIE and power_active(st, d, q)
