"""Card plays outside the challenge cards: the windows in which reinforcements, edicts and flares may
be played, in play order, round after round until every player passes in a row. Every edict and flare
played may be cancelled at once by a Card Zap of another player (zaps.card_zapped).

Windows (decisions.W_*): W_START (the cards marked "at the start of a challenge": the pre-challenge phase,
before the offense's hand is checked, and stage 10 of each challenge, which shares its icon), W_ALLIANCE
(invitations answered, before the cards are chosen), W_SWAP (both challenge cards face down), W_REVEAL
(stage 8, both attack cards shown), W_DEAL (a deal was just accepted), W_AFTER (the challenge is over,
before the played cards are discarded).

Edicts (ESTIMATED texts, FFG lineage: the base-game artifact texts as we know them):
- Mobius Tubes (W_START, the offense only): every token in the Warp returns to a base of its owner.
- Warp Break (W_START, any player; named by the original's deal example): the holder takes all its
  tokens back from the Warp.
- Plague (W_START, any player, on another player; FFG counts): that player loses PLAGUE_TOKENS tokens
  from its bases to the Warp (not a challenge loss: no consolation) and discards one card of each type
  it holds (attack, compromise, reinforcement, edict, flare), each chosen by itself.
- Force Field (W_ALLIANCE, any player, while there is an ally): cancels any alliances its player
  chooses, ally by ally from the offense's left (either side; each ally cancelled goes home).
- Cosmic Zap (any player, `cosmic_zap_window`): any_power_use (default, the estimated text "any time":
  zaps.cosmic_zapped) cancels one use of a power as it is about to act, that power then off for the rest
  of the challenge; reveal (W_REVEAL only): one main player's power is off for the rest of the challenge.
- Emotion Control (W_REVEAL, any player): both attack cards count as compromises (the deal follows).
- Quash (W_DEAL, any player): the deal just accepted is cancelled; it counts as failed and both main
  players pay the failed-deal penalty.
- Card Zap (any player, in answer to another player's edict or flare, in play order): that card is
  discarded without effect. A Card Zap is an edict too, so it may be zapped in turn, and so on: the card
  takes effect when the zaps against it were themselves zapped.

Flares: one-shot (Mayfair), discarded when played. Super = held by its own alien with the power on;
Wild = any other holder (or the alien without its power). FFG texts where known, else ESTIMATED; a plain
model where the text cannot be played here (each marked):
- Warpish (W_REVEAL, main player; FFG): Wild +1 per own token in the Warp; Super the opponent -1 per its
  own tokens in the Warp.
- Loser (FFG): Wild (W_ALLIANCE, main player): both sides lose, every token in the challenge (cone,
  allies, the defense's on the planet) goes to the Warp and the challenge ends, failed. Super (W_SWAP,
  main player, no upset yet): Loser declares its upset after the cards are chosen.
- Laser (estimated; Eon super): Wild (W_ALLIANCE, main player): the opponent's challenge card is drawn at
  random (the eon power once, whatever `laser_reading`). Super (W_ALLIANCE, Laser not a main player):
  the same on either main player.
- Mind (estimated: FFG's wild, drawing cards for others, has no effect on play here): Wild and Super
  (W_ALLIANCE, nobody has looked this challenge): the holder sees one main player's hand (its
  opponent's if it is a main player), kept in its view like Mind's power.
- Sorcerer (FFG): Wild (W_ALLIANCE, not a main player): the two main players exchange aliens for the rest
  of the challenge (FFG: for good; here for the challenge so each seat keeps its dealt alien in the
  results; the flare is discarded, not handed to Sorcerer). Super (W_SWAP, Sorcerer as an ally): swaps
  the two face-down challenge cards.
- Zombie (FFG): Wild (W_REVEAL, on a side): for the rest of the challenge one of the holder's tokens per
  loss to the Warp returns to a base instead. Super (W_ALLIANCE, Zombie as a main player): each of its
  allies with a token in the Warp brings one from the Warp onto its side (beyond the 4-token limit).
- Filch (plain model: the classic "steal/cheat" flare cannot be played by a program): Wild (W_AFTER,
  main player): takes the opponent's played challenge card into hand (Filch's power once). Super: Filch
  takes its own played challenge card back into hand.
- Grief (invented, like its power): Wild (W_AFTER, a main player who lost tokens to the Warp in a
  challenge its opponent won): the winner discards one random card per token lost (Grief's estimated
  power once). Super: Grief takes those cards into its hand instead.
"""
import numpy as np
from numba import njit

from . import state as L
from .context import E_ALLY, E_PLAY, ORDER_CARDS, ask, trace
from .decisions import (
    D_CANCEL_ALLY,
    D_DISCARD,
    D_LOSE,
    D_PLAY,
    PLAY_ARGS,
    PLAY_PASS,
    W_AFTER,
    W_ALLIANCE,
    W_DEAL,
    W_REVEAL,
    W_START,
    W_SWAP,
    WINDOWS,
)
from .moves import can_free, go_home, hold_power, take_from_bases, to_warp
from .powers import grief_can, power_active, power_kept, see_hand, sorrow
from .state import ST, R
from .timing import play_order
from .zaps import card_zapped

PLAGUE_TOKENS = 3    # tokens a Plague sends to the Warp (FFG)
CARD_TYPES = 5       # Plague: one card of each type (attack, compromise, reinforcement, edict, flare)

# The windows each card may be played in (bits 1 << W_*), as list_plays, offer_edict and offer_flare name
# them: a window looks only at its own cards and is skipped at once when nobody holds one (most windows:
# this is speed, not a rule). tests/test_cosmic_cards.py proves no card is offered outside its windows.
REINF_WINDOWS = 1 << W_REVEAL
EDICT_WINDOWS = np.zeros(len(L.EDICT_NAMES), np.int64)  # by edict code; a Card Zap only answers a card
EDICT_WINDOWS[L.MOBIUS_TUBES] = EDICT_WINDOWS[L.PLAGUE] = EDICT_WINDOWS[L.WARP_BREAK] = 1 << W_START
EDICT_WINDOWS[L.FORCE_FIELD] = 1 << W_ALLIANCE
EDICT_WINDOWS[L.COSMIC_ZAP] = EDICT_WINDOWS[L.EMOTION_CONTROL] = 1 << W_REVEAL
EDICT_WINDOWS[L.QUASH] = 1 << W_DEAL
FLARE_WINDOWS = np.zeros(len(L.ALIEN_NAMES), np.int64)  # by alien
FLARE_WINDOWS[L.LASER] = FLARE_WINDOWS[L.MIND] = 1 << W_ALLIANCE
FLARE_WINDOWS[L.LOSER] = FLARE_WINDOWS[L.SORCERER] = (1 << W_ALLIANCE) | (1 << W_SWAP)
FLARE_WINDOWS[L.ZOMBIE] = (1 << W_ALLIANCE) | (1 << W_REVEAL)
FLARE_WINDOWS[L.WARPISH] = 1 << W_REVEAL
FLARE_WINDOWS[L.FILCH] = FLARE_WINDOWS[L.GRIEF] = 1 << W_AFTER


def window_kinds(ctype: np.ndarray, cval: np.ndarray, zap_at_reveal: bool) -> tuple[np.ndarray, np.ndarray]:
    """(count per window, the card kinds of each window in rising order) for the data vector d; a Cosmic
    Zap is a stage-8 card only under `cosmic_zap_window: reveal` (else it answers a power's use: zaps.py)."""
    counts = np.zeros(WINDOWS, np.int64)
    kinds = np.zeros((WINDOWS, L.KMAX), np.int64)
    for k, (t, v) in enumerate(zip(ctype, cval, strict=True)):
        if t == L.C_REINF:
            bits = REINF_WINDOWS
        elif t == L.C_EDICT:
            bits = EDICT_WINDOWS[v] if v != L.COSMIC_ZAP or zap_at_reveal else 0
        elif t == L.C_FLARE:
            bits = FLARE_WINDOWS[v]
        else:  # challenge cards are never played in a window
            continue
        for w in range(WINDOWS):
            if bits >> w & 1:
                kinds[w, counts[w]] = k
                counts[w] += 1
    return counts, kinds


@njit(cache=True)
def card_window(w, st, d, X):
    """Every player in play order may play one usable card or pass, until all pass in a row."""
    if not anyone_holds(w, st, d):  # everyone would pass
        return
    order = X.opts[ORDER_CARDS:ORDER_CARDS + L.MAXP]
    players = play_order(st, d, order)
    opts = X.opts
    passes, i = 0, 0
    while passes < players:
        q = order[i % players]
        i += 1
        n = list_plays(w, st, d, q, opts)
        choice = ask(st, d, X, q, D_PLAY, w, n) if n > 1 else PLAY_PASS
        if choice == PLAY_PASS:
            passes += 1
            continue
        passes = 0
        kind, arg = choice // PLAY_ARGS, choice % PLAY_ARGS
        L.discard_from_hand(st, q, kind)
        trace(X, E_PLAY, q, kind, arg, 0)
        if L.ctype(d, kind) == L.C_REINF or not card_zapped(st, d, X, q, kind, arg, order, players):
            apply_card(st, d, X, q, kind, arg)


@njit(cache=True)
def anyone_holds(w, st, d):
    """Does any player hold a card of window w?"""
    for q in range(d[R.PLAYERS]):
        for i in range(d[R.WINDOW_N + w]):
            if st[ST.HAND + q * L.KMAX + d[R.WINDOW_KINDS + w * L.KMAX + i]] > 0:
                return True
    return False


@njit(cache=True)
def has_main(st, d, side):
    """Side `side` has a main player to aim a card at (an unowned planet's defense has none)."""
    return side == 0 or not L.nobody_defends(st, d)


@njit(cache=True)
def reinforceable(st, d, side):
    """Side `side` may take a reinforcement: it has a main player, or it is an unowned planet's defense
    whose tokens defend (`unowned_defense: tokens_only`) or that `unowned_defense_reinforcement` allows."""
    return has_main(st, d, side) or d[R.UNOWNED_TOKENS] == 1 or d[R.UNOWNED_REINF] == 1


@njit(cache=True)
def offer(opts, n, kind, arg):
    opts[n] = kind * PLAY_ARGS + arg
    return n + 1


@njit(cache=True)
def list_plays(w, st, d, q, opts):
    """PLAY_PASS, then every card q may play now as kind * PLAY_ARGS + arg."""
    opts[0] = PLAY_PASS
    n = 1
    side = L.side_of(st, q)
    for i in range(d[R.WINDOW_N + w]):  # the window's cards only (never a challenge card)
        k = d[R.WINDOW_KINDS + w * L.KMAX + i]
        if st[ST.HAND + q * L.KMAX + k] == 0:
            continue
        t, v = L.ctype(d, k), L.cval(d, k)
        if w == W_REVEAL and t == L.C_REINF and side >= 0:
            for s in range(2):
                if (s == side or d[R.ANY_SIDE] == 1) and reinforceable(st, d, s):
                    n = offer(opts, n, k, s)
        elif t == L.C_EDICT:
            n = offer_edict(w, st, d, q, k, v, opts, n)
        elif t == L.C_FLARE:
            n = offer_flare(w, st, d, q, k, v, side, opts, n)
    return n


@njit(cache=True)
def offer_edict(w, st, d, q, k, v, opts, n):
    if w == W_START:
        if v == L.MOBIUS_TUBES and q == st[ST.OFF] and warp_total(st, d) > 0:
            n = offer(opts, n, k, 0)
        elif v == L.WARP_BREAK and can_free(st, d, q):
            n = offer(opts, n, k, 0)
        elif v == L.PLAGUE:
            for r in range(d[R.PLAYERS]):
                if r != q:
                    n = offer(opts, n, k, r)
    elif w == W_ALLIANCE and v == L.FORCE_FIELD:
        if L.ally_tokens(st, d[R.PLAYERS], 0) + L.ally_tokens(st, d[R.PLAYERS], 1) > 0:
            n = offer(opts, n, k, 0)
    elif w == W_REVEAL and v == L.COSMIC_ZAP and d[R.ZAP_ANY_USE] == 0:
        for s in range(2):
            if has_main(st, d, s):
                n = offer(opts, n, k, s)
    elif w == W_REVEAL and v == L.EMOTION_CONTROL and has_main(st, d, 1):  # a deal needs a defense
        n = offer(opts, n, k, 0)
    elif w == W_DEAL and v == L.QUASH and st[ST.DEAL_STRUCK] == 1:
        n = offer(opts, n, k, 0)
    return n


@njit(cache=True)
def is_super(st, d, q, alien):
    """q plays the Super side of `alien`'s flare: its own alien, with the power on (a zapped power counts as on
    under `zapped_owner_flare: super`: a zap cancels a use, it does not take the power away)."""
    on = power_kept(st, d, q) if d[R.ZAPPED_SUPER] == 1 else power_active(st, d, q)
    return st[ST.ALIEN + q] == alien and on


@njit(cache=True)
def offer_flare(w, st, d, q, k, alien, side, opts, n):
    """The flare of `alien` held by q, at the window its text names (the module docstring)."""
    main = q == st[ST.OFF] or q == st[ST.DEF]
    sup = is_super(st, d, q, alien)
    if alien == L.WARPISH:
        if w == W_REVEAL and main:
            n = offer(opts, n, k, side)
    elif alien == L.LOSER:
        if (w == W_ALLIANCE and main and not sup) or (
                w == W_SWAP and main and sup and st[ST.UPSET] == 0 and has_main(st, d, 1)):
            n = offer(opts, n, k, side)
    elif alien == L.LASER:
        if w == W_ALLIANCE and main and not sup and has_main(st, d, 1 - side):
            n = offer(opts, n, k, 1 - side)
        elif w == W_ALLIANCE and not main and sup:
            for s in range(2):
                if has_main(st, d, s):
                    n = offer(opts, n, k, s)
    elif alien == L.MIND:
        if w == W_ALLIANCE and st[ST.SEEN_WHO] < 0:
            for s in range(2):
                if (not main or s != side) and has_main(st, d, s):
                    n = offer(opts, n, k, s)
    elif alien == L.SORCERER:
        if has_main(st, d, 1) and ((w == W_ALLIANCE and not main and not sup and st[ST.POWERS_SWAPPED] == 0) or (
                w == W_SWAP and not main and sup and side >= 0)):  # both need a defense: its alien, its card
            n = offer(opts, n, k, 0)
    elif alien == L.ZOMBIE:
        if w == W_REVEAL and not sup and side >= 0 and st[ST.ZOMBIE_SAVE + q] == 0:
            n = offer(opts, n, k, side)
        elif w == W_ALLIANCE and main and sup and allies_in_warp(st, d, side) > 0:
            n = offer(opts, n, k, side)
    elif alien == L.FILCH:
        slot = ST.OCARD if L.filch_takes_offense_card(side, sup) else ST.DCARD
        if w == W_AFTER and main and st[slot] >= 0:
            n = offer(opts, n, k, side)
    elif alien == L.GRIEF:
        if w == W_AFTER and main and grief_can(st, q):
            n = offer(opts, n, k, side)
    return n


@njit(cache=True)
def warp_total(st, d):
    n = 0
    for q in range(d[R.PLAYERS]):
        n += st[ST.WARP + q]
    return n


@njit(cache=True)
def allies_in_warp(st, d, side):
    """Allies of one side with a token in the Warp."""
    n = 0
    for q in range(d[R.PLAYERS]):
        cone = st[(ST.OCONE if side == 0 else ST.DCONE) + q]
        if cone > 0 and q != st[ST.OFF] and st[ST.WARP + q] > 0:
            n += 1
    return n


@njit(cache=True)
def free_from_warp(st, d, X, q):
    if not can_free(st, d, q):
        return
    n = st[ST.WARP + q]
    st[ST.WARP + q] = 0
    go_home(st, d, X, q, n)


@njit(cache=True)
def main_of(st, side):
    return st[ST.DEF] if side == 1 else st[ST.OFF]


@njit(cache=True)
def apply_card(st, d, X, q, kind, arg):
    t, v = L.ctype(d, kind), L.cval(d, kind)
    if t == L.C_REINF:
        st[ST.REINF_D if arg == 1 else ST.REINF_O] += v
    elif t == L.C_FLARE:
        apply_flare(st, d, X, q, v, arg)
    else:
        apply_edict(st, d, X, q, v, arg)


@njit(cache=True)
def apply_edict(st, d, X, q, v, arg):
    if v == L.COSMIC_ZAP:
        st[ST.ZAPPED + main_of(st, arg)] = 1
    elif v == L.EMOTION_CONTROL:
        st[ST.EMOTION] = 1
    elif v == L.MOBIUS_TUBES:
        for r in range(d[R.PLAYERS]):
            free_from_warp(st, d, X, r)
    elif v == L.WARP_BREAK:
        free_from_warp(st, d, X, q)
    elif v == L.PLAGUE:
        plague(st, d, X, arg)
    elif v == L.FORCE_FIELD:
        force_field(st, d, X, q)
    elif v == L.QUASH:
        st[ST.DEAL_STRUCK] = 2


@njit(cache=True)
def plague(st, d, X, r):
    """r loses PLAGUE_TOKENS tokens from its bases to the Warp and discards one card of each type."""
    hold_power(st, d, r)
    to_warp(st, d, X, r, take_from_bases(st, d, X, r, PLAGUE_TOKENS, D_LOSE))
    opts = X.opts
    for t in range(CARD_TYPES):
        n = 0
        for k in range(d[R.KINDS]):
            if st[ST.HAND + r * L.KMAX + k] > 0 and L.ctype(d, k) == t:
                opts[n] = k
                n += 1
        if n > 0:
            L.discard_from_hand(st, r, ask(st, d, X, r, D_DISCARD, t, n))


@njit(cache=True)
def force_field(st, d, X, q):
    """q cancels the alliances it chooses, ally by ally from the offense's left: each cancelled ally's
    tokens go home (the offense's own tokens on the cone are no alliance)."""
    players = d[R.PLAYERS]
    opts = X.opts
    for k in range(1, players):
        r = (st[ST.OFF] + k) % players
        slot = ST.OCONE + r if st[ST.OCONE + r] > 0 else ST.DCONE + r
        if st[slot] == 0:
            continue
        opts[0] = 0
        opts[1] = 1
        if ask(st, d, X, q, D_CANCEL_ALLY, r, 2) == 1:
            n = st[slot]
            st[slot] = 0
            go_home(st, d, X, r, n)


@njit(cache=True)
def apply_flare(st, d, X, q, alien, side):
    sup = is_super(st, d, q, alien)
    opp = main_of(st, 1 - side)
    if alien == L.WARPISH:
        if sup:  # Super: -1 per opponent token in the Warp
            st[ST.BONUS_O if side == 1 else ST.BONUS_D] -= st[ST.WARP + opp]
        else:  # Wild: +1 per own token in the Warp
            st[ST.BONUS_D if side == 1 else ST.BONUS_O] += st[ST.WARP + q]
    elif alien == L.LOSER:
        if sup:
            st[ST.UPSET] = 1
        else:
            st[ST.ALL_LOSE] = 1
    elif alien == L.LASER:
        st[ST.LASERED + main_of(st, side)] = 1
    elif alien == L.MIND:
        see_hand(st, q, main_of(st, side))
    elif alien == L.SORCERER:
        if sup:
            t = st[ST.OCARD]
            st[ST.OCARD] = st[ST.DCARD]
            st[ST.DCARD] = t
        else:
            swap_aliens(st)
    elif alien == L.ZOMBIE:
        if sup:
            zombie_reinforce(st, d, X, side)
        else:
            st[ST.ZOMBIE_SAVE + q] = 1
    elif alien == L.FILCH:
        slot = ST.OCARD if L.filch_takes_offense_card(side, sup) else ST.DCARD
        L.give_card(st, q, st[slot], 1)
        st[slot] = -1
    elif alien == L.GRIEF:
        sorrow(st, d, X, q, sup)


@njit(cache=True)
def swap_aliens(st):
    t = st[ST.ALIEN + st[ST.OFF]]
    st[ST.ALIEN + st[ST.OFF]] = st[ST.ALIEN + st[ST.DEF]]
    st[ST.ALIEN + st[ST.DEF]] = t
    st[ST.POWERS_SWAPPED] = 1 - st[ST.POWERS_SWAPPED]


@njit(cache=True)
def zombie_reinforce(st, d, X, side):
    for q in range(d[R.PLAYERS]):
        slot = (ST.OCONE if side == 0 else ST.DCONE) + q
        if st[slot] > 0 and q != st[ST.OFF] and st[ST.WARP + q] > 0:
            st[ST.WARP + q] -= 1
            st[slot] += 1
            trace(X, E_ALLY, q, side + 1, 1, 0)


# ---- hooks the engine calls -------------------------------------------------------------------------
@njit(cache=True)
def all_lost(st, d, X):
    """Loser's wild flare was played: every token in the challenge goes to the Warp (on the planet, the
    defending ones only: an unowned colour's under `nobody` are out of the challenge). Returns True then."""
    if st[ST.ALL_LOSE] == 0:
        return False
    pl, de = st[ST.PLANET], st[ST.DEF]
    n = L.defending_tokens(st, d)
    hold_power(st, d, de)
    L.add_tokens(st, pl, de, -n)
    to_warp(st, d, X, de, n)
    for q in range(d[R.PLAYERS]):
        n = st[ST.OCONE + q] + st[ST.DCONE + q]
        st[ST.OCONE + q] = 0
        st[ST.DCONE + q] = 0
        to_warp(st, d, X, q, n)
    return True


@njit(cache=True)
def quashed(st, d, X):
    """A deal was accepted: anyone may Quash it now. Returns True if it was."""
    st[ST.DEAL_STRUCK] = 1
    card_window(W_DEAL, st, d, X)
    return st[ST.DEAL_STRUCK] == 2


@njit(cache=True)
def challenge_over(st):
    """Undo what lasts only for the challenge: the aliens Sorcerer's wild flare exchanged."""
    if st[ST.POWERS_SWAPPED] == 1:
        swap_aliens(st)
