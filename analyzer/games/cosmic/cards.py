"""Card plays outside the challenge cards: the windows in which reinforcements, edicts and flares may
be played, in play order, round after round until every player passes in a row.

Windows: W_START (the start of each challenge, before the regroup: "at the start of a challenge" cards)
and W_REVEAL (stage 8, both attack cards shown). Implemented edicts (ESTIMATED texts, FFG lineage):
- Mobius Tubes (W_START, the offense only): every token in the Warp returns to a base of its owner.
- Warp Break (W_START, any player; named by the original's deal example): the holder takes all its
  tokens back from the Warp.
- Cosmic Zap (W_REVEAL, any player): one main player's power is off for the rest of the challenge.
- Emotion Control (W_REVEAL, any player): both attack cards count as compromises (the deal follows).
Implemented flare: Warpish (W_REVEAL, held by a main player; FFG texts): Wild +1 per own token in the
Warp; Super (held by Warpish with its power on) the opponent -1 per its own tokens in the Warp.
Flares are one-shot (Mayfair): discarded when played.
NOT playable (held until discarded or taken): Card Zap, Plague, Force Field, Quash, the other 7 flares.
"""
from numba import njit

from . import state as L
from .context import E_PLAY, ORDER_CARDS, ask, trace
from .moves import go_home
from .policies import K_PLAY, PLAY_PASS
from .powers import power_active, timing_order

W_START, W_REVEAL = 0, 1


@njit(cache=True)
def play_order(st, d, order):
    """`play_order`: timing (the original's timing rule) or clockwise from the offense's left."""
    players = d[L.D_PLAYERS]
    if d[L.D_ORDER_TIMING] == 1:
        return timing_order(st, d, order)
    for k in range(players):
        order[k] = (st[L.OFF] + 1 + k) % players
    return players


@njit(cache=True)
def card_window(w, st, d, X):
    """Every player in play order may play one usable card or pass, until all pass in a row."""
    order = X[6][ORDER_CARDS:ORDER_CARDS + L.MAXP]
    players = play_order(st, d, order)
    opts = X[6]
    passes, i = 0, 0
    while passes < players:
        q = order[i % players]
        i += 1
        n = list_plays(w, st, d, q, opts)
        choice = ask(st, d, X, q, K_PLAY, w, n) if n > 1 else PLAY_PASS
        if choice == PLAY_PASS:
            passes += 1
            continue
        passes = 0
        kind, side = choice // 2, choice % 2
        L.discard_from_hand(st, q, kind)
        trace(X, E_PLAY, q, kind, side, 0)
        apply_card(st, d, X, q, kind, side)


@njit(cache=True)
def own_side(st, q):
    """0 offense side, 1 defense side, -1 not in the challenge."""
    if q == st[L.OFF] or st[L.OCONE + q] > 0:
        return 0
    if q == st[L.DEF] or st[L.DCONE + q] > 0:
        return 1
    return -1


@njit(cache=True)
def list_plays(w, st, d, q, opts):
    """PLAY_PASS, then every card q may play now as kind * 2 + side (the side it helps or targets)."""
    opts[0] = PLAY_PASS
    n = 1
    side = own_side(st, q)
    for k in range(d[L.D_KINDS]):
        if st[L.HAND + q * L.KMAX + k] == 0:
            continue
        t, v = L.ctype(d, k), L.cval(d, k)
        if w == W_REVEAL and t == L.C_REINF and side >= 0:
            for s in range(2):
                if s == side or d[L.D_ANY_SIDE] == 1:
                    opts[n] = k * 2 + s
                    n += 1
        elif w == W_REVEAL and t == L.C_EDICT and v == L.COSMIC_ZAP:
            for s in range(2):
                opts[n] = k * 2 + s
                n += 1
        elif w == W_REVEAL and t == L.C_EDICT and v == L.EMOTION_CONTROL:
            opts[n] = k * 2
            n += 1
        elif w == W_REVEAL and t == L.C_FLARE and v == L.WARPISH and (q == st[L.OFF] or q == st[L.DEF]):
            opts[n] = k * 2 + side
            n += 1
        elif w == W_START and t == L.C_EDICT and v == L.MOBIUS_TUBES and q == st[L.OFF] and warp_total(st, d) > 0:
            opts[n] = k * 2
            n += 1
        elif w == W_START and t == L.C_EDICT and v == L.WARP_BREAK and st[L.WARP + q] > 0:
            opts[n] = k * 2
            n += 1
    return n


@njit(cache=True)
def warp_total(st, d):
    n = 0
    for q in range(d[L.D_PLAYERS]):
        n += st[L.WARP + q]
    return n


@njit(cache=True)
def free_from_warp(st, d, X, q):
    n = st[L.WARP + q]
    st[L.WARP + q] = 0
    go_home(st, d, X, q, n)


@njit(cache=True)
def apply_card(st, d, X, q, kind, side):
    t, v = L.ctype(d, kind), L.cval(d, kind)
    if t == L.C_REINF:
        st[L.REINF_D if side == 1 else L.REINF_O] += v
    elif t == L.C_FLARE:  # Warpish's flare, played by a main player for its own side
        opp = st[L.OFF] if side == 1 else st[L.DEF]
        if st[L.ALIEN + q] == L.WARPISH and power_active(st, d, q):  # Super: -1 per opponent token in the Warp
            st[L.BONUS_O if side == 1 else L.BONUS_D] -= st[L.WARP + opp]
        else:  # Wild: +1 per own token in the Warp
            st[L.BONUS_D if side == 1 else L.BONUS_O] += st[L.WARP + q]
    elif v == L.COSMIC_ZAP:
        st[L.ZAPPED + (st[L.DEF] if side == 1 else st[L.OFF])] = 1
    elif v == L.EMOTION_CONTROL:
        st[L.EMOTION] = 1
    elif v == L.MOBIUS_TUBES:
        for r in range(d[L.D_PLAYERS]):
            free_from_warp(st, d, X, r)
    elif v == L.WARP_BREAK:
        free_from_warp(st, d, X, q)
