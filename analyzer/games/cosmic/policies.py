"""Simply Cosmic's policies. A policy sees only what its player may know: `pub`, the public block of the
state (st[:L.PUB_END], read in place: the table, the challenge so far, the cards shown), `hand`, its own
hand (by kind, read in place: `own_hand`), and `view`, the rest of its private part (built in `fill_view`:
its own face-down card and, for Mind, the hand Mind saw), plus the legal options the engine listed, and
returns the index of one option. Never another hand or the decks.

Decision kinds (K_*) and what their options hold:
- K_REGROUP, K_SOURCE, K_TARGET, K_HOME, K_LOSE, K_DEAL_PLANET: planet ids
- K_DESTINY_OWN: OPT_REDRAW, a seat (challenge its tokens in your own system) or OPT_REESTABLISH + planet
- K_WILD, K_INSTRUCTION, K_MIND_TARGET: seats
- K_CONE, K_ALLY_COUNT, K_REESTABLISH_COUNT: token counts
- K_INVITE, K_USE_POWER, K_SECOND, K_ACCEPT: 0 no, 1 yes (V_ARG: the seat invited / the alien)
- K_ANSWER: ANSWER_DECLINE, ANSWER_OFFENSE, ANSWER_DEFENSE
- K_CARD: card kinds (challenge cards of the hand)
- K_PLAY: PLAY_PASS or card kind * PLAY_ARGS + arg (arg: the side it helps or targets, 0 offense, 1 defense;
  Plague: the seat it strikes); V_ARG: the window (W_*)
- K_CARD_ZAP: 0 no, 1 yes (the card being played: L.PLAYED_BY, PLAYED_KIND, PLAYED_ARG in the public block)
- K_DISCARD: card kinds (Plague: one card of one type to discard)
- K_CANCEL_ALLY: 0 no, 1 yes (Force Field; V_ARG: the ally)
- K_REWARD: REWARD_CARD or REWARD_TOKEN
- K_DEAL: DEAL_NONE, DEAL_SWAP, DEAL_OFFENSE_BASE, DEAL_DEFENSE_BASE
"""
from numba import njit

from ...kernel import RANDOM, SCRIPTED, choose_random, choose_scripted
from . import state as L

HEURISTIC, CAUTIOUS = 2, 3  # policy codes after the shared random 0 and scripted 1

(K_REGROUP, K_DESTINY_OWN, K_WILD, K_INSTRUCTION, K_CONE, K_SOURCE, K_TARGET, K_INVITE, K_ANSWER,
 K_ALLY_COUNT, K_CARD, K_USE_POWER, K_MIND_TARGET, K_PLAY, K_REWARD, K_HOME, K_LOSE, K_DEAL, K_ACCEPT,
 K_DEAL_PLANET, K_SECOND, K_REESTABLISH_COUNT, K_CARD_ZAP, K_DISCARD, K_CANCEL_ALLY) = range(25)
KIND_NAMES = ("regroup", "own-colour destiny", "wild destiny", "instruction", "cone", "token source", "target",
              "invite", "answer", "ally tokens", "challenge card", "use power", "Mind target", "play card", "reward",
              "tokens home", "lose token", "deal", "accept deal", "deal planet", "second challenge",
              "re-establish tokens", "card zap", "plague discard", "Force Field: cancel ally")
OPT_REDRAW, OPT_REESTABLISH = -1, 100
ANSWER_DECLINE, ANSWER_OFFENSE, ANSWER_DEFENSE = 0, 1, 2
PLAY_PASS = -1
PLAY_ARGS = 8         # K_PLAY option = kind * PLAY_ARGS + arg
# the card windows (cards.py): start of a challenge, after alliances, cards face down, stage 8, deal, after
W_START, W_REVEAL, W_ALLIANCE, W_SWAP, W_DEAL, W_AFTER = range(6)
REWARD_CARD, REWARD_TOKEN = 0, 1
DEAL_NONE, DEAL_SWAP, DEAL_OFFENSE_BASE, DEAL_DEFENSE_BASE = 0, 1, 2, 3
DEAL_CARDS = 2        # cards paid for a base in DEAL_OFFENSE_BASE / DEAL_DEFENSE_BASE
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
    kinds = d[L.D_KINDS]
    if st[L.SEEN_BY] == p:  # what p was shown (Mind's power, Mind's flare) stays in p's view
        for k in range(kinds):
            view[V_SEEN + k] = st[L.SEEN + k]
        view[V_SEEN_WHO] = st[L.SEEN_WHO]
    elif view[V_SEEN_WHO] >= 0:
        for k in range(kinds):
            view[V_SEEN + k] = 0
        view[V_SEEN_WHO] = -1
    view[V_SEAT] = p
    view[V_KIND] = kind
    view[V_ARG] = arg
    view[V_MYCARD] = st[L.OCARD] if p == st[L.OFF] else (st[L.DCARD] if p == st[L.DEF] else -1)
    view[V_PLAYERS] = d[L.D_PLAYERS]
    view[V_WINS] = d[L.D_WINS]


@njit(cache=True, inline="always")
def own_hand(st, p):
    """p's hand by kind: a window on the state, not a copy (it would cost a copy at every decision)."""
    return st[L.HAND + p * L.KMAX:L.HAND + (p + 1) * L.KMAX]


# ---- what a player reads off the view -------------------------------------------------------------
@njit(cache=True, inline="always")
def v_tokens(pub, planet, q):
    return pub[L.TOK + planet * L.MAXP + q]


@njit(cache=True)
def v_foreign(pub, view, q):
    n = 0
    for pl in range(view[V_PLAYERS] * L.PLANETS_PER_SYSTEM):
        if pl // L.PLANETS_PER_SYSTEM != q and pub[L.TOK + pl * L.MAXP + q] > 0:
            n += 1
    return n


@njit(cache=True)
def side_tokens(pub, view, defense):
    """Tokens on one side of the challenge as it stands (public)."""
    n = 0
    for q in range(view[V_PLAYERS]):
        n += pub[L.DCONE + q] if defense else pub[L.OCONE + q]
    if defense:
        n += v_tokens(pub, pub[L.PLANET], pub[L.DEF])
    return n


@njit(cache=True)
def best_known_attack(pub, view, d, q):
    """The highest attack card q is known to hold (Mind saw the hand), else EXPECTED_CARD."""
    if view[V_SEEN_WHO] != q:
        return EXPECTED_CARD
    best = -1
    for k in range(d[L.D_CHALLENGE_KINDS]):
        if view[V_SEEN + k] > 0 and d[L.D_CTYPE + k] == L.C_ATTACK:
            best = max(best, d[L.D_CVAL + k])
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
        if kind == K_TARGET:
            score = -100 * (mine > 0) - v_tokens(pub, pl, pub[L.DEF])
        elif kind == K_SOURCE or kind == K_LOSE:
            score = 10 * mine - 25 * (home and mine <= 2) - 50 * (mine == 1)
        elif kind == K_DEAL_PLANET:
            score = -mine
        else:  # K_REGROUP, K_HOME: home bases keep the power
            score = 20 * home - mine if not cautious else 20 * home + mine
        if i == 0 or score > best_score:  # the first best
            best, best_score = i, score
    return best


@njit(cache=True)
def card_choice(pub, view, options, n, d, cautious):
    """An attack card by the margin needed: the smallest card expected to win; if none can, the lowest
    (hoarding high cards) unless the game is close; the cautious defender compromises for cards."""
    p = view[V_SEAT]
    offense = p == pub[L.OFF]
    opp = pub[L.DEF] if offense else pub[L.OFF]
    mine, theirs = side_tokens(pub, view, not offense), side_tokens(pub, view, offense)
    need = theirs - mine + best_known_attack(pub, view, d, opp) + (1 if offense else 0)
    close = v_foreign(pub, view, pub[L.OFF]) >= view[V_WINS] - 1
    lowest, highest, fit, comp = -1, -1, -1, -1
    for i in range(n):
        k = options[i]
        if d[L.D_CTYPE + k] == L.C_COMPROMISE:
            comp = i
            continue
        v = d[L.D_CVAL + k]
        if lowest < 0 or v < d[L.D_CVAL + options[lowest]]:
            lowest = i
        if highest < 0 or v > d[L.D_CVAL + options[highest]]:
            highest = i
        if v >= need and (fit < 0 or v < d[L.D_CVAL + options[fit]]):
            fit = i
    if cautious and not offense and comp >= 0 and fit < 0:
        return comp
    if fit >= 0 and not (cautious and d[L.D_CVAL + options[fit]] >= 15 and not close):
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
    off_wins_game = v_foreign(pub, view, pub[L.OFF]) >= view[V_WINS] - 1
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
    if view[V_KIND] == K_CONE and v_foreign(pub, view, p) >= view[V_WINS] - 1:
        want = 4
    if view[V_KIND] == K_REESTABLISH_COUNT:
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
    other = pub[L.DEF] if p == pub[L.OFF] else pub[L.OFF]
    if v_foreign(pub, view, other) >= view[V_WINS] - 1 and v_foreign(pub, view, p) < view[V_WINS] - 1:
        return pick(options, n, DEAL_OFFENSE_BASE if p == pub[L.OFF] else DEAL_DEFENSE_BASE)
    return pick(options, n, DEAL_SWAP)


@njit(cache=True)
def accept_choice(pub, view, options, n):
    """Accept unless the deal gives the proposer the game and not me."""
    p = view[V_SEAT]
    other = pub[L.OFF] if p == pub[L.DEF] else pub[L.DEF]
    proposer_gets_base = view[V_ARG] != DEAL_DEFENSE_BASE
    hands_win = proposer_gets_base and v_foreign(pub, view, other) >= view[V_WINS] - 1
    return pick(options, n, 0 if hands_win and v_foreign(pub, view, p) < view[V_WINS] - 1 else 1)


@njit(cache=True)
def v_power_active(pub, q):
    home = 0
    for k in range(L.PLANETS_PER_SYSTEM):
        home += v_tokens(pub, q * L.PLANETS_PER_SYSTEM + k, q) > 0
    return home >= 3 and pub[L.ZAPPED + q] == 0 and pub[L.COMET] != L.DT_OUTAGE


@njit(cache=True)
def warpish_pending(pub, view, side):
    """The Warpish bonus a side will get when the totals are compared (public: powers are known)."""
    q = pub[L.DEF] if side == 1 else pub[L.OFF]
    if pub[L.ALIEN + q] != L.WARPISH or not v_power_active(pub, q):
        return 0
    n = 0
    for r in range(view[V_PLAYERS]):
        n += pub[L.WARP + r]
    return n


@njit(cache=True)
def my_side(pub, p):
    if p == pub[L.OFF] or pub[L.OCONE + p] > 0:
        return 0
    if p == pub[L.DEF] or pub[L.DCONE + p] > 0:
        return 1
    return -1


@njit(cache=True)
def play_card(d, option):
    """(type, value, arg) of a K_PLAY option."""
    kind = option // PLAY_ARGS
    return d[L.D_CTYPE + kind], d[L.D_CVAL + kind], option % PLAY_ARGS


@njit(cache=True)
def is_main(pub, p):
    return p == pub[L.OFF] or p == pub[L.DEF]


@njit(cache=True)
def start_play(pub, view, options, n, d):
    """At the start of a challenge: Warp Break with 2+ own tokens in the Warp, Mobius Tubes with 3+, Plague
    on the player closest to winning (most foreign bases, not me) once it holds PLAGUE_LEADER."""
    p = view[V_SEAT]
    for i in range(n):
        if options[i] == PLAY_PASS:
            continue
        t, v, arg = play_card(d, options[i])
        if (v == L.WARP_BREAK and pub[L.WARP + p] >= 2) or (v == L.MOBIUS_TUBES and pub[L.WARP + p] >= 3):
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
    o = (side_tokens(pub, view, False) + d[L.D_CVAL + pub[L.SHOWN_O]] + pub[L.REINF_O] + pub[L.BONUS_O]
         + warpish_pending(pub, view, 0))
    de = (side_tokens(pub, view, True) + d[L.D_CVAL + pub[L.SHOWN_D]] + pub[L.REINF_D] + pub[L.BONUS_D]
          + warpish_pending(pub, view, 1))
    return (de - o + 1) if side == 0 else (o - de)


@njit(cache=True)
def warpish_flare_gain(pub, p, side):
    """Warpish's flare: Super (Warpish, power on) the opponent's Warp tokens off its total; Wild my own on."""
    if pub[L.ALIEN + p] == L.WARPISH and v_power_active(pub, p):
        return pub[L.WARP + (pub[L.OFF] if side == 1 else pub[L.DEF])]
    return pub[L.WARP + p]


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
    n = pub[L.OCONE + p] + pub[L.DCONE + p]
    if p == pub[L.DEF]:
        n += v_tokens(pub, pub[L.PLANET], p)
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
    mine = side_tokens(pub, view, side == 1) + (d[L.D_CVAL + card] if d[L.D_CTYPE + card] == L.C_ATTACK else 0)
    for i in range(n):
        if options[i] == PLAY_PASS:
            continue
        t, v, _ = play_card(d, options[i])
        if v == L.LOSER and mine < side_tokens(pub, view, side == 0) + EXPECTED_CARD:
            return i
    return pick(options, n, PLAY_PASS)


@njit(cache=True)
def filch_takes_offense_card(side, own):
    """Filch's flare takes its own card (super) or the opponent's (wild): is that the offense's card?"""
    return (side == 0) == own


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
        own = pub[L.ALIEN + p] == L.FILCH and v_power_active(pub, p)
        card = pub[L.SHOWN_O] if filch_takes_offense_card(s, own) else pub[L.SHOWN_D]
        if v == L.FILCH and card >= 0 and d[L.D_CTYPE + card] == L.C_ATTACK and d[L.D_CVAL + card] >= FILCH_WORTH:
            return i
    return pick(options, n, PLAY_PASS)


@njit(cache=True)
def play_choice(pub, view, options, n, d):
    """K_PLAY, by window (V_ARG). A deal: a player outside it always quashes (both rivals pay 3 tokens)."""
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
    by, kind, arg = pub[L.PLAYED_BY], pub[L.PLAYED_KIND], pub[L.PLAYED_ARG]
    t, v = d[L.D_CTYPE + kind], d[L.D_CVAL + kind]
    if t == L.C_EDICT:
        if v == L.PLAGUE:
            return arg == p
        if v == L.QUASH:
            return is_main(pub, p)
        if v == L.MOBIUS_TUBES:  # it frees the others' tokens as well as mine
            others = 0
            for q in range(view[V_PLAYERS]):
                others += pub[L.WARP + q] if q != p else 0
            return others >= pub[L.WARP + p] + 3
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
def discard_choice(options, n, d):
    """Plague: discard the lowest card of the type."""
    low = 0
    for i in range(1, n):
        if d[L.D_CVAL + options[i]] < d[L.D_CVAL + options[low]]:
            low = i
    return low


@njit(cache=True)
def use_power(pub, view, d):
    """Optional powers: Loser upsets when its side is behind, Sorcerer swaps a weak own card; the rest
    (Filch, Mind, Grief) always pay."""
    alien = view[V_ARG]
    p = view[V_SEAT]
    offense = p == pub[L.OFF]
    if alien == L.LOSER:
        return side_tokens(pub, view, not offense) + 2 < side_tokens(pub, view, offense)
    if alien == L.SORCERER:
        card = view[V_MYCARD]
        return d[L.D_CTYPE + card] == L.C_COMPROMISE or d[L.D_CVAL + card] < EXPECTED_CARD
    return True


@njit(cache=True)
def second_challenge(hand, d, cautious):
    best = 0
    for k in range(d[L.D_CHALLENGE_KINDS]):
        if hand[k] > 0 and d[L.D_CTYPE + k] == L.C_ATTACK:
            best = max(best, d[L.D_CVAL + k])
    return best >= (12 if cautious else 6)


@njit(cache=True)
def smart(pub, view, hand, options, n, d, commit, cautious):
    kind = view[V_KIND]
    p = view[V_SEAT]
    if (kind == K_REGROUP or kind == K_SOURCE or kind == K_TARGET or kind == K_HOME or kind == K_LOSE
            or kind == K_DEAL_PLANET):
        return planet_choice(pub, view, options, n, cautious)
    if kind == K_DESTINY_OWN:  # re-establishing is a sure success; else redraw
        for i in range(n):
            if options[i] >= OPT_REESTABLISH:
                return i
        return pick(options, n, OPT_REDRAW)
    if kind == K_WILD or kind == K_INSTRUCTION:  # the weakest home system (the first of the weakest)
        best, best_score = 0, 0
        for i in range(n):
            q = options[i]
            score = 0
            for k in range(L.PLANETS_PER_SYSTEM):
                score -= v_tokens(pub, q * L.PLANETS_PER_SYSTEM + k, q)
            if i == 0 or score > best_score:
                best, best_score = i, score
        return best
    if kind == K_MIND_TARGET:
        return pick(options, n, pub[L.DEF] if p == pub[L.OFF] else pub[L.OFF])
    if kind == K_CONE or kind == K_ALLY_COUNT or kind == K_REESTABLISH_COUNT:
        return count_choice(pub, view, options, n, commit, cautious)
    if kind == K_INVITE:
        return pick(options, n, 1)
    if kind == K_ANSWER:
        return answer(pub, view, options, n, cautious)
    if kind == K_CARD:
        return card_choice(pub, view, options, n, d, cautious)
    if kind == K_USE_POWER:
        return pick(options, n, 1 if use_power(pub, view, d) else 0)
    if kind == K_PLAY:
        return play_choice(pub, view, options, n, d)
    if kind == K_CARD_ZAP:
        return pick(options, n, 1 if zap_choice(pub, view, d) else 0)
    if kind == K_CANCEL_ALLY:  # Force Field: the allies of the other side
        return pick(options, n, 1 if my_side(pub, view[V_ARG]) != my_side(pub, p) else 0)
    if kind == K_DISCARD:
        return discard_choice(options, n, d)
    if kind == K_REWARD:
        want = REWARD_TOKEN if pub[L.WARP + p] >= (1 if not cautious else 3) else REWARD_CARD
        return pick(options, n, want)
    if kind == K_DEAL:
        return deal_choice(pub, view, options, n)
    if kind == K_ACCEPT:
        return accept_choice(pub, view, options, n)
    if kind == K_SECOND:
        return pick(options, n, 1 if second_challenge(hand, d, cautious) else 0)
    return 0


@njit(cache=True)
def decide(code, pub, view, hand, options, n, stream, script, at, d, commit):
    """The one dispatch from a seat's policy code to its decision function: `pub` is the public block
    st[:L.PUB_END], `view` the seat's private view (fill_view), `hand` its own hand (own_hand)."""
    if code == RANDOM:
        return choose_random(stream, n)
    if code == SCRIPTED:
        return choose_scripted(script, at, n)
    return smart(pub, view, hand, options, n, d, commit, code == CAUTIOUS)
