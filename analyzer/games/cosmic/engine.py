"""Simply Cosmic, the rulebook as one compiled kernel (and, with tracing on, the recorder `analyzer
replay` reads). The stages of a challenge are the functions below, in the rulebook's order; powers act
through powers.powers_at at the timing points the rules name. Rule decisions: the package docstring.
"""
import numpy as np
from numba import njit

from ... import rng
from ...kernel import A_LOG
from ...kernel_internals import borrowed, keep_alive, release
from . import state as L
from .cards import all_lost, card_window, challenge_over, quashed
from .context import (
    E_ALLY,
    E_CAP,
    E_CARDS,
    E_CONE,
    E_CONSOLATION,
    E_DEAL,
    E_DEFENDER,
    E_DESTINY,
    E_DISARMED,
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
    G,
    S,
    ask,
    new_context,
    new_scratch,
    trace,
)
from .decisions import (
    ANSWER_DECLINE,
    ANSWER_DEFENSE,
    ANSWER_OFFENSE,
    D_ACCEPT,
    D_ALLY_COUNT,
    D_ANSWER,
    D_CARD,
    D_CONE,
    D_DEAL,
    D_DEAL_PLANET,
    D_DESTINY_OWN,
    D_INSTRUCTION,
    D_INVITE,
    D_LOSE,
    D_REESTABLISH_COUNT,
    D_REGROUP,
    D_REWARD,
    D_SECOND,
    D_SOURCE,
    D_TARGET,
    D_WILD,
    DEAL_DEFENSE_BASE,
    DEAL_NONE,
    DEAL_OFFENSE_BASE,
    DEAL_SWAP,
    OPT_REDRAW,
    OPT_REESTABLISH,
    REWARD_TOKEN,
    W_AFTER,
    W_ALLIANCE,
    W_REVEAL,
    W_START,
    W_SWAP,
)
from .moves import can_free, choose_count, go_home, hold_power, list_bases, take_from_bases, to_warp
from .powers import TP_AFTER, TP_ALLIANCE, TP_OUTCOME, TP_PLANNING, TP_REVEAL, TP_SWAP, powers_at
from .state import ST, R

FAILED, SUCCESS, TURN_ENDED = 0, 1, 2
CARDS_DOWN, NO_OFFENSE_CARD, DEFENSE_DISARMED = 0, 1, 2  # stage 7's outcomes (play_cards)
WIN_ATTACK, WIN_DEAL, WIN_REESTABLISH = 1, 2, 3
REDEAL_LIMIT = 50    # redraws of a whole hand in a row without a challenge card before the turn is skipped
DEAL_PENALTY = 3     # tokens each main player loses when a deal fails
DEAL_CARDS = 2       # cards paid for a base in DEAL_OFFENSE_BASE / DEAL_DEFENSE_BASE
TENACIOUS_MAX = 10   # Tenacious Defense doubles a defending attack card of 1..10


# ---- setup ------------------------------------------------------------------------------------------
@njit(cache=True)
def setup(st, d, stream, X):
    """The table before the first turn; returns the start player."""
    deal_table(st, d, stream)
    first = 0
    if d[R.FIRST_DESTINY] == 1:
        first = -1
        while first < 0:  # the first colour card picks the start player; the cards turned go back
            c = L.draw_destiny(st, stream)
            if c // 8 == L.DT_REGULAR or c // 8 == L.DT_REVERSE:
                first = c % 8
        build_destiny(st, d, stream)
    trace(X, E_FIRST, first, 0, 0, 0)
    return first


@njit(cache=True)
def deal_table(st, d, stream):
    """Tokens on the systems, aliens, hands of 7 from the shuffled deck, the destiny deck."""
    players = d[R.PLAYERS]
    st[:] = 0
    for q in range(L.systems_on_table(d)):  # each system holds its colour's tokens, owned or not
        for k in range(L.PLANETS_PER_SYSTEM):
            L.add_tokens(st, q * L.PLANETS_PER_SYSTEM + k, q, L.TOKENS_PER_PLANET)
    deal_aliens(st, d, stream)
    n = 0
    for k in range(d[R.KINDS]):
        for _ in range(d[R.COPIES + k]):
            st[ST.DECK + n] = k
            n += 1
    st[ST.DECKN] = n
    rng.shuffle(stream, st[ST.DECK:ST.DECK + L.DECKMAX], n)
    for q in range(players):
        for _ in range(d[R.HAND]):
            L.draw(st, stream, q)
    build_destiny(st, d, stream)
    clear_challenge(st, players)


@njit(cache=True)
def deal_aliens(st, d, stream):
    aliens = np.arange(8)
    if d[R.FIXED_ALIENS] == 0:
        rng.shuffle(stream, aliens, 8)
    for q in range(d[R.PLAYERS]):
        st[ST.ALIEN + q] = d[R.ALIEN + q] if d[R.FIXED_ALIENS] == 1 else aliens[q]


@njit(cache=True)
def build_destiny(st, d, stream):
    """The destiny deck: the players' colours (an absent colour's cards are removed, even with its system
    on the table) and the colourless cards, shuffled."""
    n = 0
    for kind in range(L.DESTINY_KINDS):
        colours = d[R.PLAYERS] if kind <= L.DT_REVERSE else 1
        for c in range(colours):
            for _ in range(d[R.DESTINY + kind]):
                st[ST.DDECK + n] = kind * 8 + c
                n += 1
    st[ST.DDECKN] = n
    st[ST.DDISCN] = 0
    rng.shuffle(stream, st[ST.DDECK:ST.DDECK + L.DESTMAX], n)


@njit(cache=True)
def clear_challenge(st, players):
    for q in range(L.MAXP):
        st[ST.OCONE + q] = 0
        st[ST.DCONE + q] = 0
        st[ST.ZAPPED + q] = 0
        st[ST.LASERED + q] = 0
        st[ST.LOST + q] = 0
        st[ST.ZOMBIE_SAVE + q] = 0
    for f in (ST.REVERSE, ST.COMET, ST.UPSET, ST.REINF_O, ST.REINF_D, ST.BONUS_O, ST.BONUS_D, ST.OFF_WINS, ST.EMOTION,
              ST.ALL_LOSE, ST.POWERS_SWAPPED, ST.DEAL_STRUCK):
        st[f] = 0
    for f in (ST.SHOWN_O, ST.SHOWN_D, ST.OCARD, ST.DCARD, ST.SEEN_WHO, ST.SEEN_BY, ST.DEF, ST.SYSTEM, ST.PLANET,
              ST.PLAYED_BY, ST.PLAYED_KIND, ST.PLAYED_ARG):
        st[f] = -1


# ---- a turn -----------------------------------------------------------------------------------------
@njit(cache=True)
def turn(st, d, X, p):
    """Seat p's turn: the pre-challenge phase, then up to two challenges. Returns True if someone won."""
    gi = X.g
    trace(X, E_TURN, p, gi[G.LENGTH], 0, 0)
    redeals = 0
    while True:  # pre-challenge: cards first, then the hand is checked (no challenge card: new hand, again)
        clear_challenge(st, d[R.PLAYERS])
        st[ST.OFF] = p
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
        if game_won(st, d, X, how):
            challenge_over(st)
            return True
        if result == TURN_ENDED:  # the offense had no challenge card at stage 7: the turn ends at once
            challenge_over(st)
            return False
        card_window(W_START, st, d, X)  # stage 10: the pre-challenge phase's cards (the same icon)
        challenge_over(st)  # stage 10 is the challenge's last stage: its effects last through it
        if result != SUCCESS or c == 1 or L.challenge_cards(st, d, p) == 0:
            return False
        opts = X.opts
        opts[0] = 0
        opts[1] = 1
        if ask(st, d, X, p, D_SECOND, 0, 2) == 0:
            return False
    return False


@njit(cache=True)
def redeal(st, d, X, q):
    L.discard_hand(st, d, q)
    for _ in range(d[R.HAND]):
        L.draw(st, X.stream, q)
    trace(X, E_REDEAL, q, st[ST.HANDN + q], 0, 0)


@njit(cache=True)
def game_won(st, d, X, how):
    """The win: every player with wins_needed foreign bases wins at once (shared)."""
    players = d[R.PLAYERS]
    won = False
    for q in range(players):
        if L.foreign_bases(st, q) >= d[R.WINS]:
            X.s[q, S.IS_WINNER] = 1
            trace(X, E_WIN, q, L.foreign_bases(st, q), 0, 0)
            won = True
    if won:
        X.g[G.WIN_BY] = how
    return won


@njit(cache=True)
def challenge(st, d, X, p):
    """One challenge of offense p: (R_* result, how a win would have come)."""
    players = d[R.PLAYERS]
    clear_challenge(st, players)
    st[ST.OFF] = p
    X.g[G.CHALLENGES] += 1
    regroup(st, d, X, p)
    if destiny(st, d, X, p):
        return SUCCESS, WIN_REESTABLISH
    cone(st, d, X, p)
    powers_at(TP_ALLIANCE, st, d, X)
    alliances(st, d, X)
    card_window(W_ALLIANCE, st, d, X)
    if all_lost(st, d, X):  # Loser's wild flare
        return_set_aside(st, d)
        return FAILED, WIN_ATTACK
    powers_at(TP_PLANNING, st, d, X)
    stage7 = play_cards(st, d, X)
    if stage7 == NO_OFFENSE_CARD:
        return_set_aside(st, d)
        return TURN_ENDED, WIN_ATTACK
    if stage7 == DEFENSE_DISARMED:
        result, how = disarmed(st, d, X)
    else:
        powers_at(TP_SWAP, st, d, X)
        card_window(W_SWAP, st, d, X)
        result, how = resolve(st, d, X)
    end_challenge(st, d, X)
    return result, how


# ---- stage 1: regroup -------------------------------------------------------------------------------
@njit(cache=True)
def regroup(st, d, X, p):
    if st[ST.WARP + p] == 0:
        return
    st[ST.WARP + p] -= 1
    m = list_bases(st, p, X.opts)
    if m == 0:
        st[ST.OCONE + p] += 1
        trace(X, E_REGROUP, p, -1, 0, 0)
        return
    pl = ask(st, d, X, p, D_REGROUP, 0, m)
    L.add_tokens(st, pl, p, 1)
    trace(X, E_REGROUP, p, pl, 0, 0)


# ---- stage 2: destiny -------------------------------------------------------------------------------
@njit(cache=True)
def destiny(st, d, X, p):
    """Draw until a defender is named (st[DEF]; an own-colour challenge also fixes the planet's
    candidates; the cone is reversed if that card is a reverse one). Returns True if p re-established a
    home base instead (a successful challenge)."""
    players = d[R.PLAYERS]
    opts = X.opts
    while True:
        c = L.draw_destiny(st, X.stream)
        kind, colour = c // 8, c % 8
        trace(X, E_DESTINY, p, kind, colour, 0)
        if kind == L.DT_OUTAGE or kind == L.DT_TENACIOUS:
            if st[ST.COMET] == 0:  # a second comet is ignored
                st[ST.COMET] = kind
            continue
        if kind == L.DT_WILD:  # any colour on the table: an unowned system's, and the offense's own when it has
            # an own choice to make there (wild_destiny_own_colour; no redraw: it named the colour itself)
            own = d[R.WILD_OWN] == 1 and own_choices(st, d, p, opts, 0) > 0
            n = 0
            for q in range(L.systems_on_table(d)):
                if q != p or own:
                    opts[n] = q
                    n += 1
            colour = ask(st, d, X, p, D_WILD, 0, n)
        if kind == L.DT_REGULAR or kind == L.DT_REVERSE or kind == L.DT_WILD:
            if colour != p:
                st[ST.DEF] = colour
                st[ST.SYSTEM] = colour
            elif own_colour(st, d, X, p, kind != L.DT_WILD):
                return True
        elif kind == L.DT_LEFT:
            st[ST.DEF] = st[ST.SYSTEM] = (p + 1) % players
        else:  # DT_MOST_BASES: the player (not you) with the most foreign bases; ties: the offense picks
            best = -1
            for q in range(players):
                if q != p:
                    best = max(best, L.foreign_bases(st, q))
            n = 0
            for q in range(players):
                if q != p and L.foreign_bases(st, q) == best:
                    opts[n] = q
                    n += 1
            st[ST.DEF] = st[ST.SYSTEM] = ask(st, d, X, p, D_INSTRUCTION, 0, n)
        if st[ST.DEF] >= 0:  # only the card that names the defense turns the cone (an ignored card decides nothing)
            st[ST.REVERSE] = kind == L.DT_REVERSE
            trace(X, E_DEFENDER, st[ST.DEF], st[ST.SYSTEM], st[ST.REVERSE], st[ST.COMET])
            defense_ready(st, d, X)
            return False


@njit(cache=True)
def own_choices(st, d, p, opts, n):
    """The own-colour choices after opts[:n]: challenge another player's tokens in p's own system, or
    re-establish on an empty home planet. Returns the new count."""
    for q in range(d[R.PLAYERS]):
        if q != p and occupies_home_of(st, q, p):
            opts[n] = q
            n += 1
    if L.base_tokens(st, p) > 0:
        for k in range(L.PLANETS_PER_SYSTEM):
            pl = p * L.PLANETS_PER_SYSTEM + k
            if L.planet_empty(st, pl):
                opts[n] = OPT_REESTABLISH + pl
                n += 1
    return n


@njit(cache=True)
def own_colour(st, d, X, p, redraw):
    """Own colour: redraw (not when p named its colour itself, with a wild), or an own choice. Returns True
    after a re-establish; sets st[DEF] on a challenge; else redraw."""
    opts = X.opts
    opts[0] = OPT_REDRAW
    n = own_choices(st, d, p, opts, 1 if redraw else 0)
    choice = ask(st, d, X, p, D_DESTINY_OWN, 0, n)
    if choice == OPT_REDRAW:
        return False
    if choice < OPT_REESTABLISH:
        st[ST.DEF] = choice
        st[ST.SYSTEM] = p
        return False
    pl = choice - OPT_REESTABLISH
    hi = L.base_tokens(st, p)  # "one or more" tokens; reestablish_max_tokens caps them (0: no cap)
    if d[R.REESTABLISH_MAX] > 0:
        hi = min(d[R.REESTABLISH_MAX], hi)
    count = choose_count(st, d, X, p, 1, hi, D_REESTABLISH_COUNT)
    moved = take_from_bases(st, d, X, p, count, D_SOURCE)
    L.add_tokens(st, pl, p, moved)
    trace(X, E_REESTABLISH, p, pl, moved, 0)
    X.s[p, S.OFFENSE_WINS] += 1
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
    have = st[ST.OCONE + p]
    hi = min(L.MAX_CONE - have, L.base_tokens(st, p))
    lo = 1 if have == 0 else 0
    if hi >= lo:
        count = choose_count(st, d, X, p, lo, hi, D_CONE)
        st[ST.OCONE + p] += take_from_bases(st, d, X, p, count, D_SOURCE)
    de, system = st[ST.DEF], st[ST.SYSTEM]
    opts = X.opts
    n = 0
    for k in range(L.PLANETS_PER_SYSTEM):  # in the offense's own system only planets the defense holds
        pl = system * L.PLANETS_PER_SYSTEM + k
        if system == de or L.tokens(st, pl, de) > 0:
            opts[n] = pl
            n += 1
    st[ST.PLANET] = ask(st, d, X, p, D_TARGET, 0, n)
    trace(X, E_CONE, p, st[ST.OCONE + p], st[ST.PLANET], de)


# ---- stages 4-6: alliances --------------------------------------------------------------------------
@njit(cache=True)
def alliances(st, d, X):
    """The offense invites, then the defense; from the offense's left each invited player joins one
    side with 1-4 tokens from its bases, or declines."""
    players = d[R.PLAYERS]
    off, de = st[ST.OFF], st[ST.DEF]
    opts = X.opts
    invited = 0  # bit side * MAXP + q: q invited to that side (0 offense, 1 defense)
    for side in range(1 if L.nobody_defends(st, d) else 2):  # nobody invites to an unowned planet's defense
        host = off if side == 0 else de
        for k in range(1, players):
            q = (off + k) % players
            if q == de:
                continue
            opts[0] = 0
            opts[1] = 1
            invited |= ask(st, d, X, host, D_INVITE, q, 2) << (side * L.MAXP + q)
    for k in range(1, players):
        q = (off + k) % players
        to_off, to_def = (invited >> q) & 1, (invited >> (L.MAXP + q)) & 1
        if q == de or to_off + to_def == 0 or L.base_tokens(st, q) == 0:
            continue
        n = 1
        opts[0] = ANSWER_DECLINE
        if to_off:
            opts[n] = ANSWER_OFFENSE
            n += 1
        if to_def:
            opts[n] = ANSWER_DEFENSE
            n += 1
        choice = ask(st, d, X, q, D_ANSWER, 0, n)
        if choice == ANSWER_DECLINE:
            continue
        hi = min(L.MAX_CONE, L.base_tokens(st, q))
        count = take_from_bases(st, d, X, q, choose_count(st, d, X, q, 1, hi, D_ALLY_COUNT, choice), D_SOURCE)
        st[(ST.OCONE if choice == ANSWER_OFFENSE else ST.DCONE) + q] += count
        trace(X, E_ALLY, q, choice, count, 0)


# ---- stage 7: challenge cards -----------------------------------------------------------------------
@njit(cache=True)
def play_cards(st, d, X):
    """Both main players play a challenge card face down (on an unowned planet the offense alone). A defense
    without one redraws 7 until it has one, unless Laser's set-aside left it so and laser_ffg_no_card is
    loses (DEFENSE_DISARMED); an offense without one ends the turn (its cone tokens go home: NO_OFFENSE_CARD)."""
    off, de = st[ST.OFF], st[ST.DEF]
    nobody = L.nobody_defends(st, d)
    disarmed_by_laser = (d[R.LASER_LOSES] == 1 and not nobody and L.challenge_cards(st, d, de) == 0
                         and set_aside(st, de) > 0)
    if not disarmed_by_laser:
        defense_ready(st, d, X)
    if L.challenge_cards(st, d, off) == 0 or (not nobody and not disarmed_by_laser and L.challenge_cards(st, d, de) == 0):
        trace(X, E_NO_CARD, off, 0, 0, 0)
        everyone_home(st, d, X)
        return NO_OFFENSE_CARD
    if disarmed_by_laser:
        return DEFENSE_DISARMED
    st[ST.OCARD] = choose_card(st, d, X, off)
    if not nobody:
        st[ST.DCARD] = choose_card(st, d, X, de)
    return CARDS_DOWN


@njit(cache=True)
def set_aside(st, q):
    n = 0
    for k in range(L.KMAX):
        n += st[ST.ASIDE + q * L.KMAX + k]
    return n


@njit(cache=True)
def disarmed(st, d, X):
    """laser_ffg_no_card loses: the defense, left without a challenge card by Laser, loses the challenge as
    an attack lost (no cards are revealed; the offense side lands). Under `laser_ffg_disarmed_upset: swaps`
    a Loser's upset declared before the cards swaps that loss like any result: the defense wins."""
    st[ST.OFF_WINS] = 1
    trace(X, E_DISARMED, st[ST.DEF], 0, 0, 0)
    if d[R.DISARMED_SWAP] == 1:
        powers_at(TP_OUTCOME, st, d, X)
    if st[ST.OFF_WINS] == 0:
        trace(X, E_RESULT, st[ST.DEF], 0, 0, 0)
        defense_wins(st, d, X)
        X.s[st[ST.DEF], S.DEFENSE_WINS] += 1
        return FAILED, WIN_ATTACK
    trace(X, E_RESULT, st[ST.OFF], 1, 0, 0)
    offense_wins(st, d, X)
    X.s[st[ST.OFF], S.OFFENSE_WINS] += 1
    return SUCCESS, WIN_ATTACK


@njit(cache=True)
def defense_ready(st, d, X):
    """A defense without a challenge card discards its hand and draws anew until it has one (checked
    when it is named and again at stage 7)."""
    de = st[ST.DEF]
    if L.nobody_defends(st, d):
        return
    redeals = 0
    while L.challenge_cards(st, d, de) == 0 and redeals < REDEAL_LIMIT:
        redeal(st, d, X, de)
        redeals += 1


@njit(cache=True)
def choose_card(st, d, X, q):
    """q's challenge card: chosen from its challenge cards (attack cards only under an upset, if it has
    any), or drawn at random from them when Laser forces it. The card leaves the hand face down."""
    opts = X.opts
    attack_only = st[ST.UPSET] == 1 and L.attack_cards(st, d, q) > 0
    n = 0
    for k in range(d[R.CHALLENGE_KINDS]):
        copies = st[ST.HAND + q * L.KMAX + k]
        if copies > 0 and (not attack_only or L.ctype(d, k) == L.C_ATTACK):
            if st[ST.LASERED + q] == 1:  # at random by copies: list each copy
                for _ in range(copies):
                    opts[n] = k
                    n += 1
            else:
                opts[n] = k
                n += 1
    if st[ST.LASERED + q] == 1:
        card = opts[rng.below(X.stream, n)]
    else:
        card = ask(st, d, X, q, D_CARD, 0, n)
    L.give_card(st, q, card, -1)
    return card


@njit(cache=True)
def everyone_home(st, d, X):
    for q in range(d[R.PLAYERS]):
        n = st[ST.OCONE + q] + st[ST.DCONE + q]
        st[ST.OCONE + q] = 0
        st[ST.DCONE + q] = 0
        go_home(st, d, X, q, n)


# ---- stage 8: reveal and resolve --------------------------------------------------------------------
@njit(cache=True)
def resolve(st, d, X):
    """Reveal; attack vs attack compares totals after the card plays (ties to the defense; Warpish's
    bonus counts the Warp as it stands then, so a Cosmic Zap in the window cancels it); an attack beats
    a compromise (consolation to the compromiser); two compromises (or Emotion Control) make a deal.
    Loser's upset swaps the result after every other effect. On an unowned planet nobody plays a card: the
    offense's total (a compromise counts 0) meets the defending tokens, like an attack of 0.
    Returns (R_*, how)."""
    st[ST.SHOWN_O] = st[ST.OCARD]
    st[ST.SHOWN_D] = st[ST.DCARD]
    nobody = L.nobody_defends(st, d)
    o_attack = L.ctype(d, st[ST.OCARD]) == L.C_ATTACK
    d_attack = nobody or L.ctype(d, st[ST.DCARD]) == L.C_ATTACK
    trace(X, E_CARDS, st[ST.OFF], st[ST.OCARD], st[ST.DCARD], 0)
    if o_attack and d_attack:
        card_window(W_REVEAL, st, d, X)
    if (not o_attack and not d_attack) or st[ST.EMOTION] == 1:
        return deal(st, d, X)
    if o_attack and d_attack:
        powers_at(TP_REVEAL, st, d, X)
    if (o_attack and d_attack) or nobody:
        o_total, d_total = totals(st, d)
        trace(X, E_TOTALS, -1, o_total, d_total, 0)
        st[ST.OFF_WINS] = o_total > d_total
    else:
        st[ST.OFF_WINS] = o_attack
    powers_at(TP_OUTCOME, st, d, X)
    off_wins = st[ST.OFF_WINS] == 1
    trace(X, E_RESULT, st[ST.OFF] if off_wins else st[ST.DEF], off_wins, 0, 0)
    if off_wins:
        offense_wins(st, d, X)
    else:
        defense_wins(st, d, X)
    if o_attack != d_attack and not nobody:
        consolation(st, d, X, st[ST.DEF] if o_attack else st[ST.OFF])
    if off_wins:
        X.s[st[ST.OFF], S.OFFENSE_WINS] += 1
        return SUCCESS, WIN_ATTACK
    if not nobody:
        X.s[st[ST.DEF], S.DEFENSE_WINS] += 1
    return FAILED, WIN_ATTACK


@njit(cache=True)
def side_tokens(st, d, defense):
    n = 0
    for q in range(d[R.PLAYERS]):
        n += st[ST.DCONE + q] if defense else st[ST.OCONE + q]
    if defense:
        n += L.defending_tokens(st, d)
    return n


@njit(cache=True)
def totals(st, d):
    """Each side: its tokens (allies included) + its attack card + reinforcements + bonuses."""
    dval = L.cval(d, st[ST.DCARD]) if st[ST.DCARD] >= 0 else 0  # no card on an unowned planet
    if st[ST.COMET] == L.DT_TENACIOUS and 1 <= dval <= TENACIOUS_MAX:
        dval *= 2
    o = side_tokens(st, d, False) + L.cval(d, st[ST.OCARD]) + st[ST.REINF_O] + st[ST.BONUS_O]
    de = side_tokens(st, d, True) + dval + st[ST.REINF_D] + st[ST.BONUS_D]
    return o, de


@njit(cache=True)
def offense_wins(st, d, X):
    """The offense lands; the defense's tokens there and its allies go to the Warp. On a reverse cone
    the offensive allies instead take the defensive allies' rewards (their tokens go home)."""
    players = d[R.PLAYERS]
    off, de, pl = st[ST.OFF], st[ST.DEF], st[ST.PLANET]
    lost = L.defending_tokens(st, d)
    hold_power(st, d, de)
    L.add_tokens(st, pl, de, -lost)
    to_warp(st, d, X, de, lost)
    for q in range(players):
        n = st[ST.DCONE + q]
        st[ST.DCONE + q] = 0
        to_warp(st, d, X, q, n)
    for q in range(players):
        n = st[ST.OCONE + q]
        st[ST.OCONE + q] = 0
        if n == 0:
            continue
        if q != off and st[ST.REVERSE] == 1:
            go_home(st, d, X, q, n)
            rewards(st, d, X, q, n)
        else:
            L.add_tokens(st, pl, q, n)
            trace(X, E_LAND, q, n, pl, 0)


@njit(cache=True)
def defense_wins(st, d, X):
    """The offense side goes to the Warp; defensive allies go home and take a card or a Warp token per
    token (on a reverse cone they land on the planet instead)."""
    players = d[R.PLAYERS]
    pl = st[ST.PLANET]
    for q in range(players):
        n = st[ST.OCONE + q]
        st[ST.OCONE + q] = 0
        to_warp(st, d, X, q, n)
    for q in range(players):
        n = st[ST.DCONE + q]
        st[ST.DCONE + q] = 0
        if n == 0:
            continue
        if st[ST.REVERSE] == 1:
            L.add_tokens(st, pl, q, n)
            trace(X, E_LAND, q, n, pl, 0)
        else:
            go_home(st, d, X, q, n)
            rewards(st, d, X, q, n)


@njit(cache=True)
def rewards(st, d, X, q, n):
    """Per token committed: draw a challenge card or free one of q's tokens from the Warp to a base."""
    opts = X.opts
    cards, freed = 0, 0
    for _ in range(n):
        m = 1
        opts[0] = 0
        if can_free(st, d, q):
            opts[1] = REWARD_TOKEN
            m = 2
        if ask(st, d, X, q, D_REWARD, 0, m) == REWARD_TOKEN:
            st[ST.WARP + q] -= 1
            go_home(st, d, X, q, 1)
            freed += 1
        elif L.draw(st, X.stream, q):
            cards += 1
    trace(X, E_REWARD, q, cards, freed, 0)


@njit(cache=True)
def consolation(st, d, X, c):
    """The compromiser c takes one random card from the other main player's hand per token c lost to
    the Warp (allies' tokens not counted); the whole hand if it holds fewer."""
    other = st[ST.DEF] if c == st[ST.OFF] else st[ST.OFF]
    n = 0
    for _ in range(st[ST.LOST + c]):
        k = L.random_card(st, d, X.stream, other)
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
    st[ST.OFF_WINS] = -1  # a deal has no winner
    off, de = st[ST.OFF], st[ST.DEF]
    opts = X.opts
    n = 1
    opts[0] = DEAL_NONE
    if can_swap_bases(st, d, off, de):
        opts[n] = DEAL_SWAP
        n += 1
    if can_get_base(st, d, off, de) and st[ST.HANDN + off] > 0:
        opts[n] = DEAL_OFFENSE_BASE
        n += 1
    if can_get_base(st, d, de, off) and st[ST.HANDN + de] > 0:
        opts[n] = DEAL_DEFENSE_BASE
        n += 1
    proposal = ask(st, d, X, off, D_DEAL, 0, n)
    accepted = False
    if proposal != DEAL_NONE:
        opts[0] = 0
        opts[1] = 1
        accepted = ask(st, d, X, de, D_ACCEPT, proposal, 2) == 1
    trace(X, E_DEAL, off, proposal, accepted, de)
    if accepted and quashed(st, d, X):
        accepted = False
    if accepted:
        X.g[G.DEALS_MADE] += 1
        # both planets are named on the table as the deal stands, before any token moves
        to_off = gift_planet(st, d, X, off, de) if proposal != DEAL_DEFENSE_BASE else -1
        to_de = gift_planet(st, d, X, de, off) if proposal != DEAL_OFFENSE_BASE else -1
        if to_off >= 0:
            land_gift(st, d, X, off, to_off, to_de)
        if to_de >= 0:
            land_gift(st, d, X, de, to_de, to_off)
        if proposal == DEAL_OFFENSE_BASE:
            give_cards(st, d, X, off, de, DEAL_CARDS)
        if proposal == DEAL_DEFENSE_BASE:
            give_cards(st, d, X, de, off, DEAL_CARDS)
        X.s[off, S.OFFENSE_WINS] += 1
        return SUCCESS, WIN_DEAL
    X.g[G.DEALS_FAILED] += 1
    for q in (off, de):
        hold_power(st, d, q)
        to_warp(st, d, X, q, take_from_bases(st, d, X, q, DEAL_PENALTY, D_LOSE))
    return FAILED, WIN_DEAL


@njit(cache=True)
def gives_on(st, r, giver, pl):
    """pl is a base of the giver that r may be given: the giver holds it and r has no token there."""
    return L.tokens(st, pl, giver) > 0 and L.tokens(st, pl, r) == 0


@njit(cache=True)
def gift_range(d, giver):
    """(first, last + 1) planet a deal's base may come from: any of the giver's bases, or its home system's
    (`deal_base_from`)."""
    if d[R.DEAL_ANY_BASE] == 1:
        return 0, L.NPL
    return giver * L.PLANETS_PER_SYSTEM, (giver + 1) * L.PLANETS_PER_SYSTEM


@njit(cache=True)
def can_get_base(st, d, r, giver):
    """r can receive a base from giver: r has a token on a base to move and giver a base r lacks."""
    if L.base_tokens(st, r) == 0:
        return False
    lo, hi = gift_range(d, giver)
    for pl in range(lo, hi):
        if gives_on(st, r, giver, pl):
            return True
    return False


@njit(cache=True)
def can_swap_bases(st, d, off, de):
    """A base each way: each side can receive, and still holds the base it gives after paying a token for
    the one it gets (so a side with a single token on its bases cannot swap)."""
    return (can_get_base(st, d, off, de) and can_get_base(st, d, de, off)
            and L.base_tokens(st, off) >= 2 and L.base_tokens(st, de) >= 2)


@njit(cache=True)
def gift_planet(st, d, X, r, giver):
    """r names the giver's base it is given (one where r has no token)."""
    opts = X.opts
    n = 0
    lo, hi = gift_range(d, giver)
    for pl in range(lo, hi):
        if gives_on(st, r, giver, pl):
            opts[n] = pl
            n += 1
    return ask(st, d, X, r, D_DEAL_PLANET, 0, n)


@njit(cache=True)
def land_gift(st, d, X, r, pl, kept):
    """r puts one token from one of its bases on pl; its last token on `kept` (the base r gives in a swap,
    -1 none) stays, so the other side lands on a base r still holds."""
    opts = X.opts
    n = 0
    for src in range(L.NPL):
        if L.tokens(st, src, r) > (1 if src == kept else 0):
            opts[n] = src
            n += 1
    src = ask(st, d, X, r, D_SOURCE, 1, n)
    L.add_tokens(st, src, r, -1)
    L.add_tokens(st, pl, r, 1)
    trace(X, E_LAND, r, 1, pl, 0)


@njit(cache=True)
def give_cards(st, d, X, giver, r, n):
    """giver hands n random cards (fewer if it holds fewer) to r."""
    for _ in range(n):
        k = L.random_card(st, d, X.stream, giver)
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
    for slot in (ST.OCARD, ST.DCARD):
        if st[slot] >= 0:
            L.discard(st, st[slot])
            st[slot] = -1
    return_set_aside(st, d)


@njit(cache=True)
def return_set_aside(st, d):
    for q in range(d[R.PLAYERS]):
        for k in range(L.KMAX):
            n = st[ST.ASIDE + q * L.KMAX + k]
            if n > 0:
                st[ST.ASIDE + q * L.KMAX + k] = 0
                L.give_card(st, q, k, n)


# ---- the games --------------------------------------------------------------------------------------
@njit(cache=True)
def play_game(st, d, X, first):
    """Turns clockwise from `first` until someone wins or the turn cap; fills the game's counters."""
    players = d[R.PLAYERS]
    gi = X.g
    p = first
    while True:
        if gi[G.LENGTH] == d[R.CAP]:
            gi[G.CAPPED] = 1
            trace(X, E_CAP, -1, d[R.CAP], 0, 0)
            break
        gi[G.LENGTH] += 1
        if turn(st, d, X, p):
            break
        p = (p + 1) % players


@njit(cache=True)
def final_counters(st, d, si):
    players = d[R.PLAYERS]
    for q in range(players):
        si[q, S.SCORE] = L.foreign_bases(st, q)
        si[q, S.FACTION] = st[ST.ALIEN + q]
        si[q, S.HOME_BASES] = L.home_bases(st, q)
        si[q, S.WARP] = st[ST.WARP + q]


@njit(cache=True, nogil=True)  # releases the GIL: the runner plays chunks on threads (Game.kernel_releases_gil)
def play(seed, ids, ctl, d, pol, weights, restrict, script, g, s, first, ev, tn, cap):
    """The kernel (Game.kernel): games `ids` of run `seed`, each under its control row ctl[i] (kernel.A_*: all
    zeros unless a seat searches), written into the outputs the framework allocated from COLUMNS (whole-game
    columns g[n, G], per-seat columns s[n, P, S], the first player first[n], the trace ev/tn/cap). The rules
    get borrowed views (analyzer/kernel_internals.py: never reference-counted; every owner lives until this
    returns)."""
    st = np.zeros(L.STATE_SIZE, np.int64)
    view, opts, allowed = new_scratch()
    stream = np.zeros(1, np.uint64)
    X = new_context(stream, pol, weights, restrict, allowed, script, ctl[0], view, opts, ev, tn, cap, g[0], s[0])  # rows: below
    for i in range(len(ids)):
        stream[0] = rng.new_stream(seed, ids[i])[0]
        X.ctl, X.g, X.s = borrowed(ctl[i]), borrowed(g[i]), borrowed(s[i])
        first[i] = setup(borrowed(st), borrowed(d), X.stream, X)
        play_game(borrowed(st), borrowed(d), X, first[i])
        final_counters(borrowed(st), borrowed(d), X.s)
    release(X)
    # X holds borrowed views of these: numba frees a variable after its last use, so without a use here
    # the scratch arrays were freed right after new_context and the rules read reused memory
    keep_alive(view, opts, allowed, stream)


@njit(cache=True)
def play_turn_on(st, d, pol, weights, restrict, script, seed, p, g, s, ev, tn, cap):
    """Tests: seat p plays one turn on the built position `st` (stream of game 0 of run `seed`, nobody
    searching); returns True if someone won."""
    stream, ctl = rng.new_stream(seed, 0), np.zeros(A_LOG, np.int64)
    view, opts, allowed = new_scratch()
    X = new_context(stream, pol, weights, restrict, allowed, script, ctl, view, opts, ev, tn, cap, g, s)
    won = turn(borrowed(st), borrowed(d), X, p)
    release(X)
    keep_alive(view, opts, allowed, ctl, stream)  # see play
    return won
