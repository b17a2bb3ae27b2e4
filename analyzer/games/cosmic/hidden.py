"""A search rollout's branch (analyzer/search.py): everything the deciding seat cannot see, dealt anew from
the branch's stream, so that its rollouts play worlds consistent with what it knows and never read another
hand or the decks' order. context.ask calls `redeal_hidden` right after the branch's choice (kernel.search_step
flags it in ctl[A_REDEAL] and has swapped the branch's own stream in).

Hidden from seat p: every other hand, the cards Laser set aside from them (laser_reading ffg), a face-down
challenge card not its own (before the reveal), the challenge deck's order and the destiny deck's order.
What p has seen stays where it saw it: the hand Mind showed it, as far as that hand still holds those cards.
Each pool is gathered in card-id order before it is shuffled, so the deal depends only on what p can know.
docs/adding-a-game.md lists what this determinization ignores.
"""
import numpy as np
from numba import njit

from ... import rng
from . import state as L
from .state import ST, R


@njit(cache=True)
def known_in_hand(st, p, q, k):
    """Copies of card kind k that p knows are in q's hand: what Mind showed it, as far as the hand still holds
    them (a card played out of it was played in view; one put face down is unknown again)."""
    if st[ST.SEEN_BY] != p or st[ST.SEEN_WHO] != q:
        return 0
    return min(st[ST.SEEN + k], st[ST.HAND + q * L.KMAX + k])


@njit(cache=True)
def hidden_card(st, slot, holder, p):
    """The face-down challenge card in `slot` is hidden from p: chosen, not yet revealed, not p's own."""
    return st[slot] >= 0 and st[ST.SHOWN_O] < 0 and holder != p


@njit(cache=True)
def take_challenge_card(d, pool, n):
    """The first challenge card of pool[:n], taken out (the last card fills its place); returns it."""
    for i in range(n):
        if L.is_challenge_card(d, pool[i]):
            k = pool[i]
            pool[i] = pool[n - 1]
            return k
    return -1


@njit(cache=True)
def redeal_hidden(st, d, p, stream):
    """Deals everything p cannot see anew from `stream`: the pool of those cards in card-id order, shuffled;
    each hidden face-down card is its first challenge card, then each other seat clockwise from p's left gets
    back its set-aside cards and the unknown part of its hand, each its size; the rest is the challenge deck.
    The destiny deck is put in card order and shuffled. Sizes, p's own hand, the discards and the table stay;
    a hand another seat saw (Mind) is, in its eyes, the hand now dealt."""
    players, kinds = d[R.PLAYERS], d[R.KINDS]
    count = np.zeros(L.KMAX, np.int64)  # the hidden cards by kind
    unknown = np.zeros(L.MAXP, np.int64)  # each seat's hand cards p does not know
    aside = np.zeros(L.MAXP, np.int64)
    for q in range(players):
        if q == p:
            continue
        for k in range(kinds):
            h, a = ST.HAND + q * L.KMAX + k, ST.ASIDE + q * L.KMAX + k
            n = st[h] - known_in_hand(st, p, q, k)
            count[k] += n + st[a]
            unknown[q] += n
            aside[q] += st[a]
            st[h] -= n
            st[a] = 0
    for slot, holder in ((ST.OCARD, st[ST.OFF]), (ST.DCARD, st[ST.DEF])):
        if hidden_card(st, slot, holder, p):
            count[st[slot]] += 1
    for i in range(st[ST.DECKN]):
        count[st[ST.DECK + i]] += 1
    pool = np.zeros(L.DECKMAX, np.int64)
    n = 0
    for k in range(kinds):
        for _ in range(count[k]):
            pool[n] = k
            n += 1
    rng.shuffle(stream, pool, n)
    for slot, holder in ((ST.OCARD, st[ST.OFF]), (ST.DCARD, st[ST.DEF])):
        if hidden_card(st, slot, holder, p):
            st[slot] = take_challenge_card(d, pool, n)
            n -= 1
    for j in range(1, players):
        q = (p + j) % players
        for _ in range(aside[q]):
            n -= 1
            st[ST.ASIDE + q * L.KMAX + pool[n]] += 1
        for _ in range(unknown[q]):
            n -= 1
            st[ST.HAND + q * L.KMAX + pool[n]] += 1
    st[ST.DECK:ST.DECK + n] = pool[:n]
    q = st[ST.SEEN_WHO]
    if q >= 0 and q != p and st[ST.SEEN_BY] != p:  # what another seat saw of a hand p cannot see
        st[ST.SEEN:ST.SEEN + L.KMAX] = st[ST.HAND + q * L.KMAX:ST.HAND + (q + 1) * L.KMAX]
    destiny = st[ST.DDECK:ST.DDECK + st[ST.DDECKN]]
    destiny.sort()
    rng.shuffle(stream, destiny, len(destiny))
