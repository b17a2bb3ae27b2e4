"""Simply Cosmic, the rulebook as one compiled kernel (and, with tracing on, the recorder `analyzer
replay` reads). The stages of a challenge are the functions below, in the rulebook's order; powers act
through powers.powers_at at the timing points the rules name. Rule decisions: the package docstring.
"""
import numpy as np
from numba import njit

from ... import rng
from ...kernel import new_trace
from ...kernel_internals import borrowed, release
from ...kernel_pack import pack12
from . import state as L
from .cards import W_AFTER, W_ALLIANCE, W_REVEAL, W_START, W_SWAP, all_lost, card_window, challenge_over, quashed
from .context import (
    COLUMNS,
    E_ALLY,
    E_CAP,
    E_CARDS,
    E_CONE,
    E_CONSOLATION,
    E_DEAL,
    E_DEFENDER,
    E_DESTINY,
    E_FIRST,
    E_LAND,
    E_NO_CARD,
    E_REDEAL,
    E_REESTABLISH,
    E_REGROUP,
    E_RESULT,
    E_REWARD,
    E_STUCK,
    E_TOTALS,
    E_TURN,
    E_WIN,
    OPTS_SIZE,
    G,
    S,
    ask,
    trace,
)
from .moves import choose_count, go_home, list_bases, take_from_bases, to_warp
from .policies import (
    ANSWER_DECLINE,
    ANSWER_DEFENSE,
    ANSWER_OFFENSE,
    DEAL_CARDS,
    DEAL_DEFENSE_BASE,
    DEAL_NONE,
    DEAL_OFFENSE_BASE,
    DEAL_SWAP,
    K_ACCEPT,
    K_ALLY_COUNT,
    K_ANSWER,
    K_CARD,
    K_CONE,
    K_DEAL,
    K_DEAL_PLANET,
    K_DESTINY_OWN,
    K_INSTRUCTION,
    K_INVITE,
    K_LOSE,
    K_REESTABLISH_COUNT,
    K_REGROUP,
    K_REWARD,
    K_SECOND,
    K_SOURCE,
    K_TARGET,
    K_WILD,
    OPT_REDRAW,
    OPT_REESTABLISH,
    REWARD_TOKEN,
    VIEW_SIZE,
)
from .powers import TP_AFTER, TP_ALLIANCE, TP_OUTCOME, TP_PLANNING, TP_REVEAL, TP_SWAP, powers_at

R_FAIL, R_SUCCESS, R_ENDED = 0, 1, 2
WIN_ATTACK, WIN_DEAL, WIN_REESTABLISH = 1, 2, 3
REDEAL_LIMIT = 50    # redraws of a whole hand in a row without a challenge card before the turn is skipped
DEAL_PENALTY = 3     # tokens each main player loses when a deal fails
TENACIOUS_MAX = 10   # Tenacious Defense doubles a defending attack card of 1..10


# ---- setup ------------------------------------------------------------------------------------------
@njit(cache=True)
def setup(st, d, stream, X):
    """The table before the first turn; returns the start player."""
    players = d[L.D_PLAYERS]
    st[:] = 0
    for q in range(players):
        for k in range(L.PLANETS_PER_SYSTEM):
            L.add_tokens(st, q * L.PLANETS_PER_SYSTEM + k, q, L.TOKENS_PER_PLANET)
    deal_aliens(st, d, stream)
    n = 0
    for k in range(d[L.D_KINDS]):
        for _ in range(d[L.D_COPIES + k]):
            st[L.DECK + n] = k
            n += 1
    st[L.DECKN] = n
    rng.shuffle(stream, st[L.DECK:L.DECK + L.DECKMAX], n)
    for q in range(players):
        for _ in range(d[L.D_HAND]):
            L.draw(st, stream, q)
    build_destiny(st, d, stream)
    clear_challenge(st, players)
    first = 0
    if d[L.D_FIRST_DESTINY] == 1:
        first = -1
        while first < 0:  # the first colour card picks the start player; the cards turned go back
            c = L.draw_destiny(st, stream)
            if c // 8 == L.DT_REGULAR or c // 8 == L.DT_REVERSE:
                first = c % 8
        build_destiny(st, d, stream)
    trace(X, E_FIRST, first, 0, 0, 0)
    return first


@njit(cache=True)
def deal_aliens(st, d, stream):
    aliens = np.arange(8)
    if d[L.D_FIXED_ALIENS] == 0:
        rng.shuffle(stream, aliens, 8)
    for q in range(d[L.D_PLAYERS]):
        st[L.ALIEN + q] = d[L.D_ALIEN + q] if d[L.D_FIXED_ALIENS] == 1 else aliens[q]


@njit(cache=True)
def build_destiny(st, d, stream):
    """The destiny deck: the colours in play and the colourless cards, shuffled."""
    n = 0
    for kind in range(L.DESTINY_KINDS):
        colours = d[L.D_PLAYERS] if kind <= L.DT_REVERSE else 1
        for c in range(colours):
            for _ in range(d[L.D_DESTINY + kind]):
                st[L.DDECK + n] = kind * 8 + c
                n += 1
    st[L.DDECKN] = n
    st[L.DDISCN] = 0
    rng.shuffle(stream, st[L.DDECK:L.DDECK + L.DESTMAX], n)


@njit(cache=True)
def clear_challenge(st, players):
    for q in range(L.MAXP):
        st[L.OCONE + q] = 0
        st[L.DCONE + q] = 0
        st[L.ZAPPED + q] = 0
        st[L.LASERED + q] = 0
        st[L.LOST + q] = 0
        st[L.ZOMBIE_SAVE + q] = 0
    for f in (L.REVERSE, L.COMET, L.UPSET, L.REINF_O, L.REINF_D, L.BONUS_O, L.BONUS_D, L.OFF_WINS, L.EMOTION,
              L.ALL_LOSE, L.POWERS_SWAPPED, L.DEAL_STRUCK):
        st[f] = 0
    for f in (L.SHOWN_O, L.SHOWN_D, L.OCARD, L.DCARD, L.SEEN_WHO, L.SEEN_BY, L.DEF, L.SYSTEM, L.PLANET,
              L.PLAYED_BY, L.PLAYED_KIND, L.PLAYED_ARG):
        st[f] = -1


# ---- a turn -----------------------------------------------------------------------------------------
@njit(cache=True)
def turn(st, d, X, p):
    """Seat p's turn: the pre-challenge phase, then up to two challenges. Returns True if someone won."""
    gi = X[10]
    trace(X, E_TURN, p, gi[G.LENGTH], 0, 0)
    redeals = 0
    while True:  # pre-challenge: cards first, then the hand is checked (no challenge card: new hand, again)
        clear_challenge(st, d[L.D_PLAYERS])
        st[L.OFF] = p
        card_window(W_START, st, d, X)
        if L.challenge_cards(st, d, p) > 0:
            break
        if redeals == REDEAL_LIMIT:
            trace(X, E_STUCK, p, 0, 0, 0)
            return False
        redeal(st, d, X, p)
        redeals += 1
    for c in range(2):
        result, how = challenge(st, d, X, p)
        challenge_over(st)
        if game_won(st, d, X, how):
            return True
        if result == R_ENDED:  # the offense had no challenge card at stage 7: the turn ends at once
            return False
        card_window(W_START, st, d, X)  # stage 10: the pre-challenge phase's cards (the same icon)
        if result != R_SUCCESS or c == 1 or L.challenge_cards(st, d, p) == 0:
            return False
        opts = X[6]
        opts[0] = 0
        opts[1] = 1
        if ask(st, d, X, p, K_SECOND, 0, 2) == 0:
            return False
    return False


@njit(cache=True)
def redeal(st, d, X, q):
    L.discard_hand(st, d, q)
    for _ in range(d[L.D_HAND]):
        L.draw(st, X[0], q)
    trace(X, E_REDEAL, q, st[L.HANDN + q], 0, 0)


@njit(cache=True)
def game_won(st, d, X, how):
    """The win: every player with wins_needed foreign bases wins at once (shared)."""
    players = d[L.D_PLAYERS]
    won = False
    for q in range(players):
        if L.foreign_bases(st, q, players) >= d[L.D_WINS]:
            X[11][q, S.IS_WINNER] = 1
            trace(X, E_WIN, q, L.foreign_bases(st, q, players), 0, 0)
            won = True
    if won:
        X[10][G.WIN_BY] = how
    return won


@njit(cache=True)
def challenge(st, d, X, p):
    """One challenge of offense p: (R_* result, how a win would have come)."""
    players = d[L.D_PLAYERS]
    clear_challenge(st, players)
    st[L.OFF] = p
    X[10][G.CHALLENGES] += 1
    regroup(st, d, X, p)
    if destiny(st, d, X, p):
        return R_SUCCESS, WIN_REESTABLISH
    cone(st, d, X, p)
    powers_at(TP_ALLIANCE, st, d, X)
    alliances(st, d, X)
    card_window(W_ALLIANCE, st, d, X)
    if all_lost(st, d, X):  # Loser's wild flare
        return_set_aside(st, d)
        return R_FAIL, WIN_ATTACK
    powers_at(TP_PLANNING, st, d, X)
    if not play_cards(st, d, X):
        return_set_aside(st, d)
        return R_ENDED, WIN_ATTACK
    powers_at(TP_SWAP, st, d, X)
    card_window(W_SWAP, st, d, X)
    result, how = resolve(st, d, X)
    end_challenge(st, d, X)
    return result, how


# ---- stage 1: regroup -------------------------------------------------------------------------------
@njit(cache=True)
def regroup(st, d, X, p):
    if st[L.WARP + p] == 0:
        return
    st[L.WARP + p] -= 1
    m = list_bases(st, p, d[L.D_PLAYERS], X[6])
    if m == 0:
        st[L.OCONE + p] += 1
        trace(X, E_REGROUP, p, -1, 0, 0)
        return
    pl = ask(st, d, X, p, K_REGROUP, 0, m)
    L.add_tokens(st, pl, p, 1)
    trace(X, E_REGROUP, p, pl, 0, 0)


# ---- stage 2: destiny -------------------------------------------------------------------------------
@njit(cache=True)
def destiny(st, d, X, p):
    """Draw until a defender is named (st[DEF]; an own-colour challenge also fixes the planet's
    candidates). Returns True if p re-established a home base instead (a successful challenge)."""
    players = d[L.D_PLAYERS]
    opts = X[6]
    while True:
        c = L.draw_destiny(st, X[0])
        kind, colour = c // 8, c % 8
        trace(X, E_DESTINY, p, kind, colour, 0)
        if kind == L.DT_OUTAGE or kind == L.DT_TENACIOUS:
            if st[L.COMET] == 0:  # a second comet is ignored
                st[L.COMET] = kind
            continue
        if kind == L.DT_REGULAR or kind == L.DT_REVERSE:
            st[L.REVERSE] = kind == L.DT_REVERSE
            if colour != p:
                st[L.DEF] = colour
                st[L.SYSTEM] = colour
            elif own_colour(st, d, X, p):
                return True
        elif kind == L.DT_WILD:
            n = 0
            for q in range(players):
                if q != p:
                    opts[n] = q
                    n += 1
            st[L.DEF] = st[L.SYSTEM] = ask(st, d, X, p, K_WILD, 0, n)
        elif kind == L.DT_LEFT:
            st[L.DEF] = st[L.SYSTEM] = (p + 1) % players
        else:  # DT_MOST_BASES: the player (not you) with the most foreign bases; ties: the offense picks
            best = -1
            for q in range(players):
                if q != p:
                    best = max(best, L.foreign_bases(st, q, players))
            n = 0
            for q in range(players):
                if q != p and L.foreign_bases(st, q, players) == best:
                    opts[n] = q
                    n += 1
            st[L.DEF] = st[L.SYSTEM] = ask(st, d, X, p, K_INSTRUCTION, 0, n)
        if st[L.DEF] >= 0:
            trace(X, E_DEFENDER, st[L.DEF], st[L.SYSTEM], st[L.REVERSE], st[L.COMET])
            defense_ready(st, d, X)
            return False


@njit(cache=True)
def own_colour(st, d, X, p):
    """Own colour: redraw, challenge another player's tokens in p's own system, or re-establish on an
    empty home planet. Returns True after a re-establish; sets st[DEF] on a challenge; else redraw."""
    players = d[L.D_PLAYERS]
    opts = X[6]
    n = 1
    opts[0] = OPT_REDRAW
    for q in range(players):
        if q != p and occupies_home_of(st, q, p):
            opts[n] = q
            n += 1
    if L.base_tokens(st, p, players) > 0:
        for k in range(L.PLANETS_PER_SYSTEM):
            pl = p * L.PLANETS_PER_SYSTEM + k
            if L.planet_empty(st, pl, players):
                opts[n] = OPT_REESTABLISH + pl
                n += 1
    choice = ask(st, d, X, p, K_DESTINY_OWN, 0, n)
    if choice == OPT_REDRAW:
        return False
    if choice < OPT_REESTABLISH:
        st[L.DEF] = choice
        st[L.SYSTEM] = p
        return False
    pl = choice - OPT_REESTABLISH
    hi = min(L.MAX_CONE, L.base_tokens(st, p, players))
    count = choose_count(st, d, X, p, 1, hi, K_REESTABLISH_COUNT)
    moved = take_from_bases(st, d, X, p, count, K_SOURCE)
    L.add_tokens(st, pl, p, moved)
    trace(X, E_REESTABLISH, p, pl, moved, 0)
    X[11][p, S.OFFENSE_WINS] += 1
    return True


@njit(cache=True)
def occupies_home_of(st, q, owner):
    for k in range(L.PLANETS_PER_SYSTEM):
        if L.tokens(st, owner * L.PLANETS_PER_SYSTEM + k, q) > 0:
            return True
    return False


# ---- stage 3: the cone ------------------------------------------------------------------------------
@njit(cache=True)
def cone(st, d, X, p):
    """1-4 offense tokens on the cone (a regrouped token already there counts), then the target planet."""
    players = d[L.D_PLAYERS]
    have = st[L.OCONE + p]
    hi = min(L.MAX_CONE - have, L.base_tokens(st, p, players))
    lo = 1 if have == 0 else 0
    if hi >= lo:
        count = choose_count(st, d, X, p, lo, hi, K_CONE)
        st[L.OCONE + p] += take_from_bases(st, d, X, p, count, K_SOURCE)
    de, system = st[L.DEF], st[L.SYSTEM]
    opts = X[6]
    n = 0
    for k in range(L.PLANETS_PER_SYSTEM):  # in the offense's own system only planets the defense holds
        pl = system * L.PLANETS_PER_SYSTEM + k
        if system == de or L.tokens(st, pl, de) > 0:
            opts[n] = pl
            n += 1
    st[L.PLANET] = ask(st, d, X, p, K_TARGET, 0, n)
    trace(X, E_CONE, p, st[L.OCONE + p], st[L.PLANET], de)


# ---- stages 4-6: alliances --------------------------------------------------------------------------
@njit(cache=True)
def alliances(st, d, X):
    """The offense invites, then the defense; from the offense's left each invited player joins one
    side with 1-4 tokens from its bases, or declines."""
    players = d[L.D_PLAYERS]
    off, de = st[L.OFF], st[L.DEF]
    opts = X[6]
    invited = 0  # bit side * MAXP + q: q invited to that side (0 offense, 1 defense)
    for side in range(2):
        host = off if side == 0 else de
        for k in range(1, players):
            q = (off + k) % players
            if q == de:
                continue
            opts[0] = 0
            opts[1] = 1
            invited |= ask(st, d, X, host, K_INVITE, q, 2) << (side * L.MAXP + q)
    for k in range(1, players):
        q = (off + k) % players
        to_off, to_def = (invited >> q) & 1, (invited >> (L.MAXP + q)) & 1
        if q == de or to_off + to_def == 0 or L.base_tokens(st, q, players) == 0:
            continue
        n = 1
        opts[0] = ANSWER_DECLINE
        if to_off:
            opts[n] = ANSWER_OFFENSE
            n += 1
        if to_def:
            opts[n] = ANSWER_DEFENSE
            n += 1
        choice = ask(st, d, X, q, K_ANSWER, 0, n)
        if choice == ANSWER_DECLINE:
            continue
        hi = min(L.MAX_CONE, L.base_tokens(st, q, players))
        count = take_from_bases(st, d, X, q, choose_count(st, d, X, q, 1, hi, K_ALLY_COUNT), K_SOURCE)
        st[(L.OCONE if choice == ANSWER_OFFENSE else L.DCONE) + q] += count
        trace(X, E_ALLY, q, choice, count, 0)


# ---- stage 7: challenge cards -----------------------------------------------------------------------
@njit(cache=True)
def play_cards(st, d, X):
    """Both main players play a challenge card face down. A defense without one redraws 7 until it has
    one; an offense without one ends the turn (its cone tokens go home). Returns False then."""
    off, de = st[L.OFF], st[L.DEF]
    defense_ready(st, d, X)
    if L.challenge_cards(st, d, off) == 0 or L.challenge_cards(st, d, de) == 0:
        trace(X, E_NO_CARD, off, 0, 0, 0)
        everyone_home(st, d, X)
        return False
    st[L.OCARD] = choose_card(st, d, X, off)
    st[L.DCARD] = choose_card(st, d, X, de)
    return True


@njit(cache=True)
def defense_ready(st, d, X):
    """A defense without a challenge card discards its hand and draws anew until it has one (checked
    when it is named and again at stage 7)."""
    de = st[L.DEF]
    redeals = 0
    while L.challenge_cards(st, d, de) == 0 and redeals < REDEAL_LIMIT:
        redeal(st, d, X, de)
        redeals += 1


@njit(cache=True)
def choose_card(st, d, X, q):
    """q's challenge card: chosen from its challenge cards (attack cards only under an upset, if it has
    any), or drawn at random from them when Laser forces it. The card leaves the hand face down."""
    opts = X[6]
    attack_only = st[L.UPSET] == 1 and L.attack_cards(st, d, q) > 0
    n = 0
    for k in range(d[L.D_CHALLENGE_KINDS]):
        copies = st[L.HAND + q * L.KMAX + k]
        if copies > 0 and (not attack_only or L.ctype(d, k) == L.C_ATTACK):
            if st[L.LASERED + q] == 1:  # at random by copies: list each copy
                for _ in range(copies):
                    opts[n] = k
                    n += 1
            else:
                opts[n] = k
                n += 1
    if st[L.LASERED + q] == 1:
        card = opts[rng.below(X[0], n)]
    else:
        card = ask(st, d, X, q, K_CARD, 0, n)
    L.give_card(st, q, card, -1)
    return card


@njit(cache=True)
def everyone_home(st, d, X):
    for q in range(d[L.D_PLAYERS]):
        n = st[L.OCONE + q] + st[L.DCONE + q]
        st[L.OCONE + q] = 0
        st[L.DCONE + q] = 0
        go_home(st, d, X, q, n)


# ---- stage 8: reveal and resolve --------------------------------------------------------------------
@njit(cache=True)
def resolve(st, d, X):
    """Reveal; attack vs attack compares totals after the card plays (ties to the defense; Warpish's
    bonus counts the Warp as it stands then, so a Cosmic Zap in the window cancels it); an attack beats
    a compromise (consolation to the compromiser); two compromises (or Emotion Control) make a deal.
    Loser's upset swaps the result after every other effect. Returns (R_*, how)."""
    st[L.SHOWN_O] = st[L.OCARD]
    st[L.SHOWN_D] = st[L.DCARD]
    o_attack = L.ctype(d, st[L.OCARD]) == L.C_ATTACK
    d_attack = L.ctype(d, st[L.DCARD]) == L.C_ATTACK
    trace(X, E_CARDS, st[L.OFF], st[L.OCARD], st[L.DCARD], 0)
    if o_attack and d_attack:
        card_window(W_REVEAL, st, d, X)
    if (not o_attack and not d_attack) or st[L.EMOTION] == 1:
        return deal(st, d, X)
    if o_attack and d_attack:
        powers_at(TP_REVEAL, st, d, X)
        o_total, d_total = totals(st, d)
        trace(X, E_TOTALS, -1, o_total, d_total, 0)
        st[L.OFF_WINS] = o_total > d_total
    else:
        st[L.OFF_WINS] = o_attack
    powers_at(TP_OUTCOME, st, d, X)
    off_wins = st[L.OFF_WINS] == 1
    trace(X, E_RESULT, st[L.OFF] if off_wins else st[L.DEF], off_wins, 0, 0)
    if off_wins:
        offense_wins(st, d, X)
    else:
        defense_wins(st, d, X)
    if o_attack != d_attack:
        consolation(st, d, X, st[L.DEF] if o_attack else st[L.OFF])
    if off_wins:
        X[11][st[L.OFF], S.OFFENSE_WINS] += 1
        return R_SUCCESS, WIN_ATTACK
    X[11][st[L.DEF], S.DEFENSE_WINS] += 1
    return R_FAIL, WIN_ATTACK


@njit(cache=True)
def side_tokens(st, d, defense):
    n = 0
    for q in range(d[L.D_PLAYERS]):
        n += st[L.DCONE + q] if defense else st[L.OCONE + q]
    if defense:
        n += L.tokens(st, st[L.PLANET], st[L.DEF])
    return n


@njit(cache=True)
def totals(st, d):
    """Each side: its tokens (allies included) + its attack card + reinforcements + bonuses."""
    dval = L.cval(d, st[L.DCARD])
    if st[L.COMET] == L.DT_TENACIOUS and 1 <= dval <= TENACIOUS_MAX:
        dval *= 2
    o = side_tokens(st, d, False) + L.cval(d, st[L.OCARD]) + st[L.REINF_O] + st[L.BONUS_O]
    de = side_tokens(st, d, True) + dval + st[L.REINF_D] + st[L.BONUS_D]
    return o, de


@njit(cache=True)
def offense_wins(st, d, X):
    """The offense lands; the defense's tokens there and its allies go to the Warp. On a reverse cone
    the offensive allies instead take the defensive allies' rewards (their tokens go home)."""
    players = d[L.D_PLAYERS]
    off, de, pl = st[L.OFF], st[L.DEF], st[L.PLANET]
    lost = L.tokens(st, pl, de)
    L.add_tokens(st, pl, de, -lost)
    to_warp(st, d, X, de, lost)
    for q in range(players):
        n = st[L.DCONE + q]
        st[L.DCONE + q] = 0
        to_warp(st, d, X, q, n)
    for q in range(players):
        n = st[L.OCONE + q]
        st[L.OCONE + q] = 0
        if n == 0:
            continue
        if q != off and st[L.REVERSE] == 1:
            go_home(st, d, X, q, n)
            rewards(st, d, X, q, n)
        else:
            L.add_tokens(st, pl, q, n)
            trace(X, E_LAND, q, n, pl, 0)


@njit(cache=True)
def defense_wins(st, d, X):
    """The offense side goes to the Warp; defensive allies go home and take a card or a Warp token per
    token (on a reverse cone they land on the planet instead)."""
    players = d[L.D_PLAYERS]
    pl = st[L.PLANET]
    for q in range(players):
        n = st[L.OCONE + q]
        st[L.OCONE + q] = 0
        to_warp(st, d, X, q, n)
    for q in range(players):
        n = st[L.DCONE + q]
        st[L.DCONE + q] = 0
        if n == 0:
            continue
        if st[L.REVERSE] == 1:
            L.add_tokens(st, pl, q, n)
            trace(X, E_LAND, q, n, pl, 0)
        else:
            go_home(st, d, X, q, n)
            rewards(st, d, X, q, n)


@njit(cache=True)
def rewards(st, d, X, q, n):
    """Per token committed: draw a challenge card or free one of q's tokens from the Warp to a base."""
    opts = X[6]
    cards, freed = 0, 0
    for _ in range(n):
        m = 1
        opts[0] = 0
        if st[L.WARP + q] > 0:
            opts[1] = REWARD_TOKEN
            m = 2
        if ask(st, d, X, q, K_REWARD, 0, m) == REWARD_TOKEN:
            st[L.WARP + q] -= 1
            go_home(st, d, X, q, 1)
            freed += 1
        elif L.draw(st, X[0], q):
            cards += 1
    trace(X, E_REWARD, q, cards, freed, 0)


@njit(cache=True)
def consolation(st, d, X, c):
    """The compromiser c takes one random card from the other main player's hand per token c lost to
    the Warp (allies' tokens not counted); the whole hand if it holds fewer."""
    other = st[L.DEF] if c == st[L.OFF] else st[L.OFF]
    n = 0
    for _ in range(st[L.LOST + c]):
        k = L.random_card(st, d, X[0], other)
        if k < 0:
            break
        L.give_card(st, other, k, -1)
        L.give_card(st, c, k, 1)
        n += 1
    trace(X, E_CONSOLATION, c, n, other, 0)


# ---- compromise vs compromise: the deal -------------------------------------------------------------
@njit(cache=True)
def deal(st, d, X):
    """Cone tokens go home; the offense proposes, the defense accepts or not. No deal: each main player
    loses DEAL_PENALTY tokens from its bases to the Warp."""
    everyone_home(st, d, X)
    st[L.OFF_WINS] = -1  # a deal has no winner
    off, de = st[L.OFF], st[L.DEF]
    opts = X[6]
    n = 1
    opts[0] = DEAL_NONE
    if can_get_base(st, d, off, de) and can_get_base(st, d, de, off):
        opts[n] = DEAL_SWAP
        n += 1
    if can_get_base(st, d, off, de) and st[L.HANDN + off] > 0:
        opts[n] = DEAL_OFFENSE_BASE
        n += 1
    if can_get_base(st, d, de, off) and st[L.HANDN + de] > 0:
        opts[n] = DEAL_DEFENSE_BASE
        n += 1
    proposal = ask(st, d, X, off, K_DEAL, 0, n)
    accepted = False
    if proposal != DEAL_NONE:
        opts[0] = 0
        opts[1] = 1
        accepted = ask(st, d, X, de, K_ACCEPT, proposal, 2) == 1
    trace(X, E_DEAL, off, proposal, accepted, de)
    if accepted and quashed(st, d, X):
        accepted = False
    if accepted:
        X[10][G.DEALS_MADE] += 1
        if proposal == DEAL_SWAP or proposal == DEAL_OFFENSE_BASE:
            give_base(st, d, X, off, de)
        if proposal == DEAL_SWAP or proposal == DEAL_DEFENSE_BASE:
            give_base(st, d, X, de, off)
        if proposal == DEAL_OFFENSE_BASE:
            give_cards(st, d, X, off, de, DEAL_CARDS)
        if proposal == DEAL_DEFENSE_BASE:
            give_cards(st, d, X, de, off, DEAL_CARDS)
        X[11][off, S.OFFENSE_WINS] += 1
        return R_SUCCESS, WIN_DEAL
    X[10][G.DEALS_FAILED] += 1
    for q in (off, de):
        to_warp(st, d, X, q, take_from_bases(st, d, X, q, DEAL_PENALTY, K_LOSE))
    return R_FAIL, WIN_DEAL


@njit(cache=True)
def can_get_base(st, d, r, giver):
    """r can receive a base from giver: r has a token on a base to move and giver a home base r lacks."""
    if L.base_tokens(st, r, d[L.D_PLAYERS]) == 0:
        return False
    for k in range(L.PLANETS_PER_SYSTEM):
        pl = giver * L.PLANETS_PER_SYSTEM + k
        if L.tokens(st, pl, giver) > 0 and L.tokens(st, pl, r) == 0:
            return True
    return False


@njit(cache=True)
def give_base(st, d, X, r, giver):
    """r puts one token from one of its bases on a home base of the giver where r has none."""
    opts = X[6]
    n = 0
    for k in range(L.PLANETS_PER_SYSTEM):
        pl = giver * L.PLANETS_PER_SYSTEM + k
        if L.tokens(st, pl, giver) > 0 and L.tokens(st, pl, r) == 0:
            opts[n] = pl
            n += 1
    pl = ask(st, d, X, r, K_DEAL_PLANET, 0, n)
    take_from_bases(st, d, X, r, 1, K_SOURCE)
    L.add_tokens(st, pl, r, 1)
    trace(X, E_LAND, r, 1, pl, 0)


@njit(cache=True)
def give_cards(st, d, X, giver, r, n):
    """giver hands n random cards (fewer if it holds fewer) to r."""
    for _ in range(n):
        k = L.random_card(st, d, X[0], giver)
        if k < 0:
            return
        L.give_card(st, giver, k, -1)
        L.give_card(st, r, k, 1)


# ---- stages 9-10 ------------------------------------------------------------------------------------
@njit(cache=True)
def end_challenge(st, d, X):
    """Powers acting after the challenge (Filch, Grief), then the played cards are discarded and the
    cards Laser set aside go back to their hands."""
    powers_at(TP_AFTER, st, d, X)
    card_window(W_AFTER, st, d, X)
    for slot in (L.OCARD, L.DCARD):
        if st[slot] >= 0:
            L.discard(st, st[slot])
            st[slot] = -1
    return_set_aside(st, d)


@njit(cache=True)
def return_set_aside(st, d):
    for q in range(d[L.D_PLAYERS]):
        for k in range(L.KMAX):
            n = st[L.ASIDE + q * L.KMAX + k]
            if n > 0:
                st[L.ASIDE + q * L.KMAX + k] = 0
                L.give_card(st, q, k, n)


# ---- the games --------------------------------------------------------------------------------------
@njit(cache=True)
def play_game(st, d, X, first):
    """Turns clockwise from `first` until someone wins or the turn cap; fills the game's counters."""
    players = d[L.D_PLAYERS]
    gi = X[10]
    p = first
    while True:
        if gi[G.LENGTH] == d[L.D_CAP]:
            gi[G.CAPPED] = 1
            trace(X, E_CAP, -1, d[L.D_CAP], 0, 0)
            break
        gi[G.LENGTH] += 1
        if turn(st, d, X, p):
            break
        p = (p + 1) % players


@njit(cache=True)
def final_counters(st, d, si):
    players = d[L.D_PLAYERS]
    for q in range(players):
        si[q, S.SCORE] = L.foreign_bases(st, q, players)
        si[q, S.FACTION] = st[L.ALIEN + q]
        si[q, S.HOME_BASES] = L.home_bases(st, q)
        si[q, S.WARP] = st[L.WARP + q]


@njit(cache=True)
def play(seed, ids, d, pol, commit, script, g, s, first, ev, tn, cap):
    """Games `ids` of run `seed` into the output arrays made by run_games. The rules get borrowed views
    (analyzer/kernel_internals.py: never reference-counted; every owner lives until this returns)."""
    if len(ids) == 0:
        return
    st = np.zeros(L.ST_SIZE, np.int64)
    view = np.zeros(VIEW_SIZE, np.int64)
    opts = np.zeros(OPTS_SIZE, np.int64)
    at = np.zeros(1, np.int64)
    stream = np.zeros(1, np.uint64)
    X = pack12(stream, pol, commit, script, at, view, opts, ev, tn, cap, g[0], s[0])  # a game's rows: below
    for i in range(len(ids)):
        stream[0] = rng.new_stream(seed, ids[i])[0]
        at[0] = 0
        X.f10, X.f11 = borrowed(g[i]), borrowed(s[i])
        first[i] = setup(borrowed(st), borrowed(d), X[0], X)
        play_game(borrowed(st), borrowed(d), X, first[i])
        final_counters(borrowed(st), borrowed(d), X[11])
    release(X)  # the owners of its borrowed views are alive to here


@njit(cache=True)
def play_turn_on(st, d, pol, commit, script, seed, p, g, s, ev, tn, cap):
    """Tests: seat p plays one turn on the built position `st` (stream of game 0 of run `seed`);
    returns True if someone won."""
    stream, at = rng.new_stream(seed, 0), np.zeros(1, np.int64)
    view, opts = np.zeros(VIEW_SIZE, np.int64), np.zeros(OPTS_SIZE, np.int64)
    X = pack12(stream, pol, commit, script, at, view, opts, ev, tn, cap, g, s)
    won = turn(borrowed(st), borrowed(d), X, p)
    release(X)
    return won


def run_games(seed, ids, inputs, trace_cap=0):
    """Play `ids`; returns (named columns, first players, trace records, trace counters)."""
    d, pol, commit, script = inputs
    players = int(d[L.D_PLAYERS])
    g, s = COLUMNS.allocate(len(ids), players)
    first = np.zeros(len(ids), np.int64)
    ev, tn = new_trace(trace_cap)
    play(np.int64(seed), ids, d, pol, commit, script, g, s, first, ev, tn, np.int64(trace_cap))
    return COLUMNS.split(g, s), first, ev[: tn[0]], tn
