"""Simply Cosmic's policies. A policy sees only what its player may know: `pub`, the public block of the
state (st[:L.PUB_END], read in place: the table, the challenge so far, the cards shown), `hand`, its own
hand (by kind, read in place: `own_hand`), and `view`, the rest of its private part (built in `fill_view`:
its own face-down card and, for Mind, the hand Mind saw), plus the legal options the engine listed, and
returns the index of one option. Never another hand or the decks.

The decisions and their options: decisions.py.
"""
from numba import njit

from ...kernel import FIRST_GAME_POLICY, shared_choice
from . import state as L
from .decisions import (
    ANSWER_DECLINE,
    ANSWER_DEFENSE,
    ANSWER_OFFENSE,
    D_ACCEPT,
    D_ALLY_COUNT,
    D_ANSWER,
    D_CANCEL_ALLY,
    D_CARD,
    D_CARD_ZAP,
    D_CONE,
    D_COSMIC_ZAP,
    D_DEAL,
    D_DEAL_PLANET,
    D_DESTINY_OWN,
    D_DISCARD,
    D_HOME,
    D_INSTRUCTION,
    D_INVITE,
    D_LOSE,
    D_MIND_TARGET,
    D_PLAY,
    D_REESTABLISH_COUNT,
    D_REGROUP,
    D_REWARD,
    D_SECOND,
    D_SOURCE,
    D_TARGET,
    D_USE_POWER,
    D_WILD,
    DEAL_DEFENSE_BASE,
    DEAL_OFFENSE_BASE,
    DEAL_SWAP,
    OPT_REDRAW,
    OPT_REESTABLISH,
    PLAY_ARGS,
    PLAY_PASS,
    REWARD_CARD,
    REWARD_TOKEN,
    W_AFTER,
    W_ALLIANCE,
    W_DEAL,
    W_START,
    W_SWAP,
)
from .state import ST, R

HEURISTIC, CAUTIOUS = FIRST_GAME_POLICY, FIRST_GAME_POLICY + 1  # CosmicScenario.POLICIES after random, scripted
EXPECTED_CARD = 10    # what a player expects an unseen attack card to be worth (the deck's mean is ~11)
PLAGUE_LEADER = 3     # heuristic: Plague a player once it holds this many foreign bases
FILCH_WORTH = 12      # heuristic: Filch's flare takes an attack card of at least this value

# the private view (the public block is read from the state in place, at the state's offsets):
V_SEEN = 0                    # the hand Mind (or its flare's holder) saw, by kind; only the seer's view
V_SEEN_WHO = V_SEEN + L.KMAX  # whose hand that was, -1 none
V_SEAT = V_SEEN_WHO + 1
V_KIND = V_SEAT + 1
V_ARG = V_KIND + 1
V_MYCARD = V_ARG + 1          # own face-down challenge card, -1 none
V_PLAYERS = V_MYCARD + 1
V_WINS = V_PLAYERS + 1
VIEW_SIZE = V_WINS + 1


@njit(cache=True)
def fill_view(view, st, d, p, kind, arg):
    """The one place a player's private view is built (its own hand is read in place: `own_hand`). It runs
    at every decision, so it copies a seen hand only when there is one (a block filled before is cleared
    once, when its seer's view moves on), and only the kinds in play (the rest stays zero). (Element
    loops: numba's slice assignment costs several times more.)"""
    kinds = d[R.KINDS]
    if st[ST.SEEN_BY] == p:  # what p was shown (Mind's power, Mind's flare) stays in p's view
        for k in range(kinds):
            view[V_SEEN + k] = st[ST.SEEN + k]
        view[V_SEEN_WHO] = st[ST.SEEN_WHO]
    elif view[V_SEEN_WHO] >= 0:
        for k in range(kinds):
            view[V_SEEN + k] = 0
        view[V_SEEN_WHO] = -1
    view[V_SEAT] = p
    view[V_KIND] = kind
    view[V_ARG] = arg
    view[V_MYCARD] = st[ST.OCARD] if p == st[ST.OFF] else (st[ST.DCARD] if p == st[ST.DEF] else -1)
    view[V_PLAYERS] = d[R.PLAYERS]
    view[V_WINS] = d[R.WINS]


@njit(cache=True, inline="always")
def own_hand(st, p):
    """p's hand by kind: a window on the state, not a copy (it would cost a copy at every decision)."""
    return st[ST.HAND + p * L.KMAX:ST.HAND + (p + 1) * L.KMAX]


# ---- what a player reads off the view -------------------------------------------------------------
@njit(cache=True, inline="always")
def v_tokens(pub, planet, q):
    return pub[ST.TOK + planet * L.MAXP + q]


@njit(cache=True)
def v_foreign(pub, view, q):
    n = 0
    for pl in range(L.NPL):  # every system: an unowned one's planets count as foreign
        if pl // L.PLANETS_PER_SYSTEM != q and pub[ST.TOK + pl * L.MAXP + q] > 0:
            n += 1
    return n


@njit(cache=True)
def side_tokens(pub, view, defense):
    """Tokens on one side of the challenge as it stands (public)."""
    n = 0
    for q in range(view[V_PLAYERS]):
        n += pub[ST.DCONE + q] if defense else pub[ST.OCONE + q]
    if defense:
        n += v_tokens(pub, pub[ST.PLANET], pub[ST.DEF])
    return n


@njit(cache=True)
def best_known_attack(pub, view, d, q):
    """The highest attack card q is known to hold (Mind saw the hand), else EXPECTED_CARD."""
    if view[V_SEEN_WHO] != q:
        return EXPECTED_CARD
    best = -1
    for k in range(d[R.CHALLENGE_KINDS]):
        if view[V_SEEN + k] > 0 and d[R.CTYPE + k] == L.C_ATTACK:
            best = max(best, d[R.CVAL + k])
    return best if best >= 0 else 0


@njit(cache=True)
def pick(options, n, value):
    """The option equal to value, else the first."""
    for i in range(n):
        if options[i] == value:
            return i
    return 0


# ---- the heuristic and the cautious player ----------------------------------------------------------
@njit(cache=True)
def planet_choice(pub, view, options, n, cautious):
    """Planets: where tokens go (home first while the power is at stake, else the biggest base), where
    tokens come from (the biggest base, sparing home bases), the target (fewest defenders, no own base)."""
    p, kind = view[V_SEAT], view[V_KIND]
    best, best_score = 0, 0
    for i in range(n):
        pl = options[i]
        mine = v_tokens(pub, pl, p)
        home = pl // L.PLANETS_PER_SYSTEM == p
        if kind == D_TARGET:
            score = -100 * (mine > 0) - v_tokens(pub, pl, pub[ST.DEF])
        elif kind == D_SOURCE or kind == D_LOSE:
            score = 10 * mine - 25 * (home and mine <= 2) - 50 * (mine == 1)
        elif kind == D_DEAL_PLANET:
            score = -mine
        else:  # D_REGROUP, D_HOME: home bases keep the power
            score = 20 * home - mine if not cautious else 20 * home + mine
        if i == 0 or score > best_score:  # the first best
            best, best_score = i, score
    return best


@njit(cache=True)
def card_choice(pub, view, options, n, d, cautious):
    """An attack card by the margin needed: the smallest card expected to win; if none can, the lowest
    (hoarding high cards) unless the game is close; the cautious defender compromises for cards."""
    p = view[V_SEAT]
    offense = p == pub[ST.OFF]
    opp = pub[ST.DEF] if offense else pub[ST.OFF]
    mine, theirs = side_tokens(pub, view, not offense), side_tokens(pub, view, offense)
    need = theirs - mine + best_known_attack(pub, view, d, opp) + (1 if offense else 0)
    close = v_foreign(pub, view, pub[ST.OFF]) >= view[V_WINS] - 1
    lowest, highest, fit, comp = -1, -1, -1, -1
    for i in range(n):
        k = options[i]
        if d[R.CTYPE + k] == L.C_COMPROMISE:
            comp = i
            continue
        v = d[R.CVAL + k]
        if lowest < 0 or v < d[R.CVAL + options[lowest]]:
            lowest = i
        if highest < 0 or v > d[R.CVAL + options[highest]]:
            highest = i
        if v >= need and (fit < 0 or v < d[R.CVAL + options[fit]]):
            fit = i
    if cautious and not offense and comp >= 0 and fit < 0:
        return comp
    if fit >= 0 and not (cautious and d[R.CVAL + options[fit]] >= 15 and not close):
        return fit
    if lowest < 0:
        return comp
    if close:
        return highest
    return comp if comp >= 0 and cautious else lowest


@njit(cache=True)
def answer(pub, view, options, n, cautious):
    """Join the side likely to win, the offense only if its win does not hand someone else the game;
    the cautious player defends for cards."""
    p = view[V_SEAT]
    off_ok, def_ok = False, False
    for i in range(n):
        off_ok |= options[i] == ANSWER_OFFENSE
        def_ok |= options[i] == ANSWER_DEFENSE
    if cautious:
        return pick(options, n, ANSWER_DEFENSE if def_ok else ANSWER_DECLINE)
    offense_ahead = side_tokens(pub, view, False) > side_tokens(pub, view, True)
    off_wins_game = v_foreign(pub, view, pub[ST.OFF]) >= view[V_WINS] - 1
    mine_too = v_foreign(pub, view, p) >= view[V_WINS] - 1
    if off_ok and offense_ahead and (mine_too or not off_wins_game):
        return pick(options, n, ANSWER_OFFENSE)
    if def_ok:
        return pick(options, n, ANSWER_DEFENSE)
    return pick(options, n, ANSWER_DECLINE)


@njit(cache=True)
def count_choice(pub, view, options, n, commit, cautious):
    """Tokens by stake: all in when the challenge can win the game, else `commit` (cautious: one fewer)."""
    p = view[V_SEAT]
    want = commit - (1 if cautious else 0)
    if view[V_KIND] == D_CONE and v_foreign(pub, view, p) >= view[V_WINS] - 1:
        want = 4
    if view[V_KIND] == D_REESTABLISH_COUNT:
        want = 1
    best = 0
    for i in range(n):
        if options[i] <= want and options[i] >= options[best]:
            best = i
    return best


@njit(cache=True)
def deal_choice(pub, view, options, n):
    """Trade one base each way unless that hands the defense the win alone; else buy a base with cards."""
    p = view[V_SEAT]
    other = pub[ST.DEF] if p == pub[ST.OFF] else pub[ST.OFF]
    if v_foreign(pub, view, other) >= view[V_WINS] - 1 and v_foreign(pub, view, p) < view[V_WINS] - 1:
        return pick(options, n, DEAL_OFFENSE_BASE if p == pub[ST.OFF] else DEAL_DEFENSE_BASE)
    return pick(options, n, DEAL_SWAP)


@njit(cache=True)
def accept_choice(pub, view, options, n):
    """Accept unless the deal gives the proposer the game and not me."""
    p = view[V_SEAT]
    other = pub[ST.OFF] if p == pub[ST.DEF] else pub[ST.DEF]
    proposer_gets_base = view[V_ARG] != DEAL_DEFENSE_BASE
    hands_win = proposer_gets_base and v_foreign(pub, view, other) >= view[V_WINS] - 1
    return pick(options, n, 0 if hands_win and v_foreign(pub, view, p) < view[V_WINS] - 1 else 1)


@njit(cache=True)
def v_power_active(pub, q):
    home = 0
    for k in range(L.PLANETS_PER_SYSTEM):
        home += v_tokens(pub, q * L.PLANETS_PER_SYSTEM + k, q) > 0
    return home >= 3 and pub[ST.ZAPPED + q] == 0 and pub[ST.COMET] != L.DT_OUTAGE


@njit(cache=True)
def warpish_pending(pub, view, side):
    """The Warpish bonus a side will get when the totals are compared (public: powers are known)."""
    q = pub[ST.DEF] if side == 1 else pub[ST.OFF]
    if pub[ST.ALIEN + q] != L.WARPISH or not v_power_active(pub, q):
        return 0
    n = 0
    for r in range(L.MAXP):  # every colour in the Warp
        n += pub[ST.WARP + r]
    return n


@njit(cache=True)
def my_side(pub, p):
    if p == pub[ST.OFF] or pub[ST.OCONE + p] > 0:
        return 0
    if p == pub[ST.DEF] or pub[ST.DCONE + p] > 0:
        return 1
    return -1


@njit(cache=True)
def play_card(d, option):
    """(type, value, arg) of a D_PLAY option."""
    kind = option // PLAY_ARGS
    return d[R.CTYPE + kind], d[R.CVAL + kind], option % PLAY_ARGS


@njit(cache=True)
def is_main(pub, p):
    return p == pub[ST.OFF] or p == pub[ST.DEF]


@njit(cache=True)
def start_play(pub, view, options, n, d):
    """At the start of a challenge: Warp Break with 2+ own tokens in the Warp, Mobius Tubes with 3+, Plague
    on the player closest to winning (most foreign bases, not me) once it holds PLAGUE_LEADER."""
    p = view[V_SEAT]
    for i in range(n):
        if options[i] == PLAY_PASS:
            continue
        t, v, arg = play_card(d, options[i])
        if (v == L.WARP_BREAK and pub[ST.WARP + p] >= 2) or (v == L.MOBIUS_TUBES and pub[ST.WARP + p] >= 3):
            return i
        if v == L.PLAGUE and v_foreign(pub, view, arg) >= PLAGUE_LEADER and v_foreign(pub, view, arg) == leader_bases(pub, view, p):
            return i
    return pick(options, n, PLAY_PASS)


@njit(cache=True)
def leader_bases(pub, view, p):
    best = 0
    for q in range(view[V_PLAYERS]):
        if q != p:
            best = max(best, v_foreign(pub, view, q))
    return best


@njit(cache=True)
def behind_by(pub, view, d, side):
    """Stage 8: what my side lacks to win as the totals stand (<= 0: it wins; ties go to the defense)."""
    o = (side_tokens(pub, view, False) + d[R.CVAL + pub[ST.SHOWN_O]] + pub[ST.REINF_O] + pub[ST.BONUS_O]
         + warpish_pending(pub, view, 0))
    de = (side_tokens(pub, view, True) + d[R.CVAL + pub[ST.SHOWN_D]] + pub[ST.REINF_D] + pub[ST.BONUS_D]
          + warpish_pending(pub, view, 1))
    return (de - o + 1) if side == 0 else (o - de)


@njit(cache=True)
def warpish_flare_gain(pub, p, side):
    """Warpish's flare: Super (Warpish, power on) the opponent's Warp tokens off its total; Wild my own on."""
    if pub[ST.ALIEN + p] == L.WARPISH and v_power_active(pub, p):
        return pub[ST.WARP + (pub[ST.OFF] if side == 1 else pub[ST.DEF])]
    return pub[ST.WARP + p]


@njit(cache=True)
def reveal_play(pub, view, options, n, d):
    """Stage 8: when my side is behind, the smallest reinforcement or Warpish flare that turns it, else a
    Cosmic Zap on the other side's Warpish, else (a main player) Emotion Control, else Zombie's wild flare
    when I have 2+ tokens at stake; otherwise pass."""
    p = view[V_SEAT]
    side = my_side(pub, p)
    if side < 0:
        return pick(options, n, PLAY_PASS)
    gap = behind_by(pub, view, d, side)
    if gap <= 0:
        return pick(options, n, PLAY_PASS)
    best, best_gain, zap, emotion, zombie = -1, 0, -1, -1, -1
    for i in range(n):
        if options[i] == PLAY_PASS:
            continue
        t, v, s = play_card(d, options[i])
        gain = 0
        if t == L.C_REINF and s == side:
            gain = v
        elif t == L.C_FLARE and v == L.WARPISH:
            gain = warpish_flare_gain(pub, p, side)
        if gain >= gap and (best < 0 or gain < best_gain):
            best, best_gain = i, gain
        if t == L.C_EDICT and v == L.COSMIC_ZAP and s != side and warpish_pending(pub, view, s) >= gap:
            zap = i
        if t == L.C_EDICT and v == L.EMOTION_CONTROL and is_main(pub, p):
            emotion = i
        if t == L.C_FLARE and v == L.ZOMBIE and my_stake(pub, p) >= 2:
            zombie = i
    for i in (best, zap, emotion, zombie):
        if i >= 0:
            return i
    return pick(options, n, PLAY_PASS)


@njit(cache=True)
def my_stake(pub, p):
    """My tokens in the challenge (cone, or the planet for the defense)."""
    n = pub[ST.OCONE + p] + pub[ST.DCONE + p]
    if p == pub[ST.DEF]:
        n += v_tokens(pub, pub[ST.PLANET], p)
    return n


@njit(cache=True)
def alliance_play(pub, view, options, n, d):
    """After alliances: Force Field when the other side's allies have 2+ tokens; Laser's and Mind's flares as a
    main player (or Laser's super on the other side); Zombie's super; Sorcerer's wild when the other side's
    main player is Warpish with 3+ in the Warp; Loser's wild when the other side risks 3+ tokens more."""
    p = view[V_SEAT]
    side = my_side(pub, p)
    if side < 0:
        return pick(options, n, PLAY_PASS)
    mine, theirs = side_tokens(pub, view, side == 1), side_tokens(pub, view, side == 0)
    for i in range(n):
        if options[i] == PLAY_PASS:
            continue
        t, v, s = play_card(d, options[i])
        if t == L.C_EDICT and v == L.FORCE_FIELD and L.ally_tokens(pub, view[V_PLAYERS], 1 - side) >= 2:
            return i
        if t != L.C_FLARE:
            continue
        if (v == L.LASER or (v == L.MIND and is_main(pub, p))) and s != side:
            return i
        if v == L.ZOMBIE and s == side:
            return i
        if v == L.SORCERER and warpish_pending(pub, view, 1 - side) >= 3:
            return i
        if v == L.LOSER and theirs >= mine + 3:
            return i
    return pick(options, n, PLAY_PASS)


@njit(cache=True)
def swap_play(pub, view, options, n, d):
    """Cards face down: Loser's super (an upset) when my card is not expected to win; Sorcerer's super
    (swapping two unseen cards) is never worth it to an ally."""
    p = view[V_SEAT]
    side = my_side(pub, p)
    card = view[V_MYCARD]
    if card < 0:
        return pick(options, n, PLAY_PASS)
    mine = side_tokens(pub, view, side == 1) + (d[R.CVAL + card] if d[R.CTYPE + card] == L.C_ATTACK else 0)
    for i in range(n):
        if options[i] == PLAY_PASS:
            continue
        t, v, _ = play_card(d, options[i])
        if v == L.LOSER and mine < side_tokens(pub, view, side == 0) + EXPECTED_CARD:
            return i
    return pick(options, n, PLAY_PASS)


@njit(cache=True)
def after_play(pub, view, options, n, d):
    """The challenge is over: Grief's flares whenever they can be played; Filch's when the card it takes is
    an attack of FILCH_WORTH or more."""
    p = view[V_SEAT]
    for i in range(n):
        if options[i] == PLAY_PASS:
            continue
        t, v, s = play_card(d, options[i])
        if v == L.GRIEF:
            return i
        own = pub[ST.ALIEN + p] == L.FILCH and v_power_active(pub, p)
        card = pub[ST.SHOWN_O] if L.filch_takes_offense_card(s, own) else pub[ST.SHOWN_D]
        if v == L.FILCH and card >= 0 and d[R.CTYPE + card] == L.C_ATTACK and d[R.CVAL + card] >= FILCH_WORTH:
            return i
    return pick(options, n, PLAY_PASS)


@njit(cache=True)
def play_choice(pub, view, options, n, d):
    """D_PLAY, by window (V_ARG). A deal: a player outside it always quashes (both rivals pay 3 tokens)."""
    w = view[V_ARG]
    if w == W_START:
        return start_play(pub, view, options, n, d)
    if w == W_ALLIANCE:
        return alliance_play(pub, view, options, n, d)
    if w == W_SWAP:
        return swap_play(pub, view, options, n, d)
    if w == W_AFTER:
        return after_play(pub, view, options, n, d)
    if w == W_DEAL:
        return pick(options, n, PLAY_PASS) if is_main(pub, view[V_SEAT]) else 1
    return reveal_play(pub, view, options, n, d)


@njit(cache=True)
def zap_choice(pub, view, d):
    """Card Zap the card just played when it works against me (the rules below, one per card)."""
    p = view[V_SEAT]
    side = my_side(pub, p)
    by, kind, arg = pub[ST.PLAYED_BY], pub[ST.PLAYED_KIND], pub[ST.PLAYED_ARG]
    t, v = d[R.CTYPE + kind], d[R.CVAL + kind]
    if t == L.C_EDICT:
        if v == L.PLAGUE:
            return arg == p
        if v == L.QUASH:
            return is_main(pub, p)
        if v == L.MOBIUS_TUBES:  # it frees the others' tokens as well as mine
            others = 0
            for q in range(view[V_PLAYERS]):
                others += pub[ST.WARP + q] if q != p else 0
            return others >= pub[ST.WARP + p] + 3
        if v == L.EMOTION_CONTROL:
            return side >= 0 and behind_by(pub, view, d, side) <= 0
        if v == L.COSMIC_ZAP:
            return side >= 0 and arg == side
        if v == L.FORCE_FIELD:  # its player will cancel the other side's allies: mine, if it is not on my side
            return side >= 0 and my_side(pub, by) != side and L.ally_tokens(pub, view[V_PLAYERS], side) > 0
        if v == L.CARD_ZAP:  # it cancels a card of mine or of my side
            return arg == p or (side >= 0 and my_side(pub, arg) == side)
        return False
    if side < 0:
        return False
    if v == L.LASER or v == L.MIND:  # aimed at a side's main player
        return arg == side
    return my_side(pub, by) != side


@njit(cache=True)
def power_zap_choice(pub, view, d):
    """A Cosmic Zap on the power about to act (V_ARG: its owner): the other side's Warpish when its bonus
    would turn the challenge (reveal_play's rule, now at the power's use)."""
    p, user = view[V_SEAT], view[V_ARG]
    side, theirs = my_side(pub, p), my_side(pub, user)
    if pub[ST.ALIEN + user] != L.WARPISH or side < 0 or theirs < 0 or theirs == side:
        return False
    gap = behind_by(pub, view, d, side)
    return gap > 0 and warpish_pending(pub, view, theirs) >= gap


@njit(cache=True)
def discard_choice(options, n, d):
    """Plague: discard the lowest card of the type."""
    low = 0
    for i in range(1, n):
        if d[R.CVAL + options[i]] < d[R.CVAL + options[low]]:
            low = i
    return low


@njit(cache=True)
def use_power(pub, view, d):
    """Optional powers: Loser upsets when its side is behind, Sorcerer swaps a weak own card; the rest
    (Filch, Mind, Grief) always pay."""
    alien = view[V_ARG]
    p = view[V_SEAT]
    offense = p == pub[ST.OFF]
    if alien == L.LOSER:
        return side_tokens(pub, view, not offense) + 2 < side_tokens(pub, view, offense)
    if alien == L.SORCERER:
        card = view[V_MYCARD]
        return d[R.CTYPE + card] == L.C_COMPROMISE or d[R.CVAL + card] < EXPECTED_CARD
    return True


@njit(cache=True)
def second_challenge(hand, d, cautious):
    best = 0
    for k in range(d[R.CHALLENGE_KINDS]):
        if hand[k] > 0 and d[R.CTYPE + k] == L.C_ATTACK:
            best = max(best, d[R.CVAL + k])
    return best >= (12 if cautious else 6)


@njit(cache=True)
def smart(pub, view, hand, options, n, d, commit, cautious):
    kind = view[V_KIND]
    p = view[V_SEAT]
    if (kind == D_REGROUP or kind == D_SOURCE or kind == D_TARGET or kind == D_HOME or kind == D_LOSE
            or kind == D_DEAL_PLANET):
        return planet_choice(pub, view, options, n, cautious)
    if kind == D_DESTINY_OWN:  # re-establishing is a sure success; else redraw
        for i in range(n):
            if options[i] >= OPT_REESTABLISH:
                return i
        return pick(options, n, OPT_REDRAW)
    if kind == D_WILD or kind == D_INSTRUCTION:  # the weakest home system (the first of the weakest)
        best, best_score = 0, 0
        for i in range(n):
            q = options[i]
            score = 0
            for k in range(L.PLANETS_PER_SYSTEM):
                score -= v_tokens(pub, q * L.PLANETS_PER_SYSTEM + k, q)
            if i == 0 or score > best_score:
                best, best_score = i, score
        return best
    if kind == D_MIND_TARGET:
        return pick(options, n, pub[ST.DEF] if p == pub[ST.OFF] else pub[ST.OFF])
    if kind == D_CONE or kind == D_ALLY_COUNT or kind == D_REESTABLISH_COUNT:
        return count_choice(pub, view, options, n, commit, cautious)
    if kind == D_INVITE:
        return pick(options, n, 1)
    if kind == D_ANSWER:
        return answer(pub, view, options, n, cautious)
    if kind == D_CARD:
        return card_choice(pub, view, options, n, d, cautious)
    if kind == D_USE_POWER:
        return pick(options, n, 1 if use_power(pub, view, d) else 0)
    if kind == D_PLAY:
        return play_choice(pub, view, options, n, d)
    if kind == D_CARD_ZAP:
        return pick(options, n, 1 if zap_choice(pub, view, d) else 0)
    if kind == D_COSMIC_ZAP:
        return pick(options, n, 1 if power_zap_choice(pub, view, d) else 0)
    if kind == D_CANCEL_ALLY:  # Force Field: the allies of the other side
        return pick(options, n, 1 if my_side(pub, view[V_ARG]) != my_side(pub, p) else 0)
    if kind == D_DISCARD:
        return discard_choice(options, n, d)
    if kind == D_REWARD:
        want = REWARD_TOKEN if pub[ST.WARP + p] >= (1 if not cautious else 3) else REWARD_CARD
        return pick(options, n, want)
    if kind == D_DEAL:
        return deal_choice(pub, view, options, n)
    if kind == D_ACCEPT:
        return accept_choice(pub, view, options, n)
    if kind == D_SECOND:
        return pick(options, n, 1 if second_challenge(hand, d, cautious) else 0)
    return 0


@njit(cache=True)
def decide(code, pub, view, hand, options, n, stream, script, at, d, commit):
    """The one dispatch from a seat's policy code to its decision function: `pub` is the public block
    st[:L.PUB_END], `view` the seat's private view (fill_view), `hand` its own hand (own_hand)."""
    k = shared_choice(code, stream, script, at, n)
    if k >= 0:
        return k
    return smart(pub, view, hand, options, n, d, commit, code == CAUTIOUS)
