"""How tokens move: to and from bases, home, and to the Warp (where Zombie's power may replace it)."""
from numba import njit

from . import state as L
from .columns import S
from .context import (
    E_HOME,
    E_NO_BASE,
    E_WARP,
    ask,
    trace,
)
from .decisions import D_HOME
from .powers import POWER_HOME_BASES, warp_replaced
from .state import ST, R
from .zaps import cosmic_zapped


@njit(cache=True)
def list_bases(st, q, opts):
    n = 0
    for pl in range(L.NPL):
        if L.tokens(st, pl, q) > 0:
            opts[n] = pl
            n += 1
    return n


@njit(cache=True)
def has_base(st, q):
    for pl in range(L.NPL):
        if L.tokens(st, pl, q) > 0:
            return True
    return False


@njit(cache=True)
def go_home(st, d, X, q, n):
    """n tokens of q return to its bases: each token to a base of q's choice (home_tokens_split free: the
    original's "any planet where it has a base"), or all to one (together). With no base at all they have
    nowhere to go (an emptied planet is no base to return to): home_without_base warp sends them to the
    Warp (no loss: nothing answers it); home_planet lets them land on a home planet of q's choice."""
    if n == 0:
        return
    opts = X.opts
    group = n if d[R.HOME_TOGETHER] == 1 else 1
    left = n
    while left > 0:
        m = list_bases(st, q, opts)
        if m == 0:
            if d[R.HOMELESS_WARP] == 1:
                st[ST.WARP + q] += left
                trace(X, E_NO_BASE, q, left, 0, 0)
                return
            for k in range(L.PLANETS_PER_SYSTEM):
                opts[k] = q * L.PLANETS_PER_SYSTEM + k
            m = L.PLANETS_PER_SYSTEM
        pl = ask(st, d, X, q, D_HOME, left, m)
        L.add_tokens(st, pl, q, group)
        trace(X, E_HOME, q, group, pl, 0)
        left -= group


@njit(cache=True)
def can_free(st, d, q):
    """q may take tokens out of the Warp: it has some there, and somewhere to put them (a base, unless
    home_without_base home_planet gives it a home planet)."""
    return st[ST.WARP + q] > 0 and (d[R.HOMELESS_WARP] == 0 or has_base(st, q))


@njit(cache=True)
def hold_power(st, d, q):
    """Before q loses tokens from its bases: under power_loss_timing after_loss the power q holds now still
    answers this loss (Zombie's tokens go home even when they leave its third home base); to_warp ends it."""
    if d[R.LOSS_AFTER] == 1 and L.home_bases(st, q) >= POWER_HOME_BASES:
        st[ST.KEEPS + q] = 1


@njit(cache=True)
def to_warp(st, d, X, q, n):
    """n tokens of q (already taken off the table) go to the Warp, unless a power sends them home."""
    if n > 0:
        lose(st, d, X, q, n)
    st[ST.KEEPS + q] = 0


@njit(cache=True)
def lose(st, d, X, q, n):
    if warp_replaced(st, d, q) and not cosmic_zapped(st, d, X, q):
        X.s[q, S.POWERS_USED] += 1
        go_home(st, d, X, q, n)
        return
    if st[ST.ZOMBIE_SAVE + q] == 1:  # Zombie's wild flare: one of them goes home instead
        go_home(st, d, X, q, 1)
        n -= 1
        if n == 0:
            return
    st[ST.WARP + q] += n
    if q == st[ST.OFF] or q == st[ST.DEF]:
        st[ST.LOST + q] += n
    trace(X, E_WARP, q, n, 0, 0)


@njit(cache=True)
def take_from_bases(st, d, X, q, n, kind):
    """q takes n tokens off its bases, one at a time from a base of its choice; returns how many."""
    opts = X.opts
    for i in range(n):
        m = list_bases(st, q, opts)
        if m == 0:
            return i
        pl = ask(st, d, X, q, kind, n - i, m)
        L.add_tokens(st, pl, q, -1)
    return n


@njit(cache=True)
def choose_count(st, d, X, q, lo, hi, kind, arg=0):
    """q picks a count of lo..hi (arg: the view's V_ARG, e.g. the side an ally chose)."""
    opts = X.opts
    for c in range(lo, hi + 1):
        opts[c - lo] = c
    return ask(st, d, X, q, kind, arg, hi - lo + 1)
