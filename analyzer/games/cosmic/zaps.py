"""The answers to a play: a Card Zap cancels an edict or flare as it is played, and a Cosmic Zap cancels
one use of an alien power as it is about to act (`cosmic_zap_window: any_power_use`; under `reveal` a
Cosmic Zap is a stage-8 card instead: cards.py). Each is offered to the players in play order."""
from numba import njit

from . import state as L
from .context import E_COSMIC_ZAP, E_ZAP, ORDER_ZAPS, ask, trace
from .decisions import D_CARD_ZAP, D_COSMIC_ZAP
from .state import ST, R
from .timing import play_order


@njit(cache=True)
def held_edict(st, d, q, code):
    """The card kind of edict `code` if q holds one, else -1."""
    for k in range(d[R.CHALLENGE_KINDS], d[R.KINDS]):
        if st[ST.HAND + q * L.KMAX + k] > 0 and L.ctype(d, k) == L.C_EDICT and L.cval(d, k) == code:
            return k
    return -1


@njit(cache=True)
def card_zapped(st, d, X, q, kind, arg, order, players):
    """The card q just played is public; each other player in play order may cancel it with a Card Zap,
    which is then the card played (its arg: the seat whose card it cancels), open to a Card Zap in turn.
    Returns True if the first card is cancelled (an odd number of zaps)."""
    cancelled = False
    while True:
        st[ST.PLAYED_BY] = q
        st[ST.PLAYED_KIND] = kind
        st[ST.PLAYED_ARG] = arg
        r = zapper(st, d, X, q, order, players)
        if r < 0:
            return cancelled
        zap = held_edict(st, d, r, L.CARD_ZAP)
        L.discard_from_hand(st, r, zap)
        trace(X, E_ZAP, r, kind, q, 0)
        cancelled = not cancelled
        q, kind, arg = r, zap, q


@njit(cache=True)
def zapper(st, d, X, q, order, players):
    """The first player after q's card, in play order, who holds a Card Zap and plays it; -1 none."""
    opts = X.opts
    for i in range(players):
        r = order[i]
        if r == q or held_edict(st, d, r, L.CARD_ZAP) < 0:
            continue
        opts[0] = 0
        opts[1] = 1
        if ask(st, d, X, r, D_CARD_ZAP, 0, 2) == 1:
            return r
    return -1


@njit(cache=True)
def cosmic_zapped(st, d, X, q):
    """q's power is about to act: every player holding a Cosmic Zap (q too), in play order, may cancel this
    use; the zap is an edict, open to a Card Zap. Returns True if the use is cancelled: q's power is then off
    for the rest of the challenge (ZAPPED)."""
    if d[R.ZAP_ANY_USE] == 0:
        return False
    order = X.opts[ORDER_ZAPS:ORDER_ZAPS + L.MAXP]
    players = play_order(st, d, order)
    opts = X.opts
    for i in range(players):
        r = order[i]
        zap = held_edict(st, d, r, L.COSMIC_ZAP)
        if zap < 0:
            continue
        opts[0] = 0
        opts[1] = 1
        if ask(st, d, X, r, D_COSMIC_ZAP, q, 2) == 0:
            continue
        L.discard_from_hand(st, r, zap)
        trace(X, E_COSMIC_ZAP, r, q, st[ST.ALIEN + q], 0)
        if not card_zapped(st, d, X, r, zap, L.side_of(st, q), order, players):
            st[ST.ZAPPED + q] = 1
            return True
    return False
