"""How tokens move: to and from bases, home, and to the Warp (where Zombie's power may replace it)."""
from numba import njit

from . import state as L
from .context import E_HOME, E_WARP, S, ask, trace
from .decisions import D_HOME
from .powers import warp_replaced
from .state import ST
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
def go_home(st, d, X, q, n):
    """n tokens of q return together to one base of q's choice (with no base left: a home planet)."""
    if n == 0:
        return
    opts = X.opts
    m = list_bases(st, q, opts)
    if m == 0:
        for k in range(L.PLANETS_PER_SYSTEM):
            opts[k] = q * L.PLANETS_PER_SYSTEM + k
        m = L.PLANETS_PER_SYSTEM
    pl = ask(st, d, X, q, D_HOME, n, m)
    L.add_tokens(st, pl, q, n)
    trace(X, E_HOME, q, n, pl, 0)


@njit(cache=True)
def to_warp(st, d, X, q, n):
    """n tokens of q (already taken off the table) go to the Warp, unless a power sends them home."""
    if n == 0:
        return
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
