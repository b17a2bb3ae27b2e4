"""Simply Cosmic's policies. A policy sees only what its player may know: `pub`, the public block of the
state (st[:L.PUB_END], read in place: the table, the challenge so far, the cards shown), `hand`, its own
hand (by kind, read in place: `own_hand`), and `view`, the rest of its private part (built by the rules in `view.fill_view`:
its own face-down card and, for Mind, the hand Mind saw), plus the legal options the engine listed, and
returns the index of one option. Never another hand or the decks.

The decisions and their options: decisions.py.

heuristic and cautious read their judgement from the seat's weights row (scenario.WEIGHTS, W_* below: one
layout, each policy's own defaults). What they weigh, all from the view: the margin a challenge card must
cover (an unseen card is worth expected_card; a hand Mind saw, its best card), Loser's upset (it swaps the
result, so the lower total wins: the lowest card, reinforcements on the other side), the Cosmic Zap worth
most (zap_value), and an alliance's worth from the odds of the challenge (win_odds: the deck's challenge
cards, or the card a seen hand holds) against the tokens it risks.

search (analyzer/search.py) plans each decision by playing it out; `decide`'s head (kernel.ask_policy) makes
its choices, and past its branch it plays the rollout policy (the tuned heuristic by default). Its rollouts
see only what its seat sees: at the branch the engine deals the rest anew (hidden.py).
"""
from numba import njit

from ...kernel import FIRST_GAME_POLICY, ask_policy, asked
from . import state as L
from .decisions import (
    ANSWER_DECLINE,
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
from .view import V_ARG, V_KIND, V_MYCARD, V_PLAYERS, V_SEAT, V_SEEN, V_SEEN_WHO, V_WINS

HEURISTIC, CAUTIOUS = FIRST_GAME_POLICY, FIRST_GAME_POLICY + 1  # CosmicScenario.POLICIES after random, scripted
# the weights row of heuristic and cautious (scenario.WEIGHTS: one layout, each policy's own defaults)
(W_EXPECTED_CARD, W_COMMIT, W_SECOND_AT, W_HOARD_AT, W_REINFORCE_MARGIN, W_ALLY_APPETITE, W_BASE_VALUE,
 W_ZAP_AT, W_INVITE_BELOW) = range(9)
PLAGUE_LEADER = 3     # heuristic: Plague a player once it holds this many foreign bases
WIN_VALUE = 100       # heuristic: a game won or lost, in tokens (it outweighs any other gain)
FILCH_WORTH = 12      # heuristic: Filch's flare takes an attack card of at least this value
NOTHING_TO_GAIN = 10_000  # heuristic: a system where every planet holds my base (more than any defense)

# ---- what a player reads off the view -------------------------------------------------------------
@njit(cache=True, inline="always")
def v_tokens(pub, planet, q):
    return pub[ST.TOK + planet * L.MAXP + q]


@njit(cache=True)
def system_defense(pub, d, q, p):
    """The tokens that defend q's home system, for p's wild (the fewest is named): its colour's on its
    planets. An unowned system that nobody defends (`unowned_defense: nobody`, printed rules: public) has
    none while p lacks a base on one of its planets, and is worth nothing to p once p has a base on each."""
    if q >= d[R.PLAYERS] and d[R.UNOWNED_TOKENS] == 0:
        for k in range(L.PLANETS_PER_SYSTEM):
            if v_tokens(pub, q * L.PLANETS_PER_SYSTEM + k, p) == 0:
                return 0
        return NOTHING_TO_GAIN
    n = 0
    for k in range(L.PLANETS_PER_SYSTEM):
        n += v_tokens(pub, q * L.PLANETS_PER_SYSTEM + k, q)
    return n


@njit(cache=True)
def v_foreign(pub, view, q):
    n = 0
    for pl in range(L.NPL):  # every system: an unowned one's planets count as foreign
        if pl // L.PLANETS_PER_SYSTEM != q and pub[ST.TOK + pl * L.MAXP + q] > 0:
            n += 1
    return n


@njit(cache=True)
def side_tokens(pub, view, d, defense):
    """Tokens on one side of the challenge as it stands (public): on the planet the defending ones only
    (none on an unowned planet under `unowned_defense: nobody`)."""
    n = 0
    for q in range(view[V_PLAYERS]):
        n += pub[ST.DCONE + q] if defense else pub[ST.OCONE + q]
    if defense:
        n += L.defending_tokens(pub, d)
    return n


@njit(cache=True)
def best_known_attack(pub, view, d, weights, q):
    """The highest attack card q is known to hold (Mind saw the hand), else the expected_card weight."""
    if view[V_SEEN_WHO] != q:
        return weights[W_EXPECTED_CARD]
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
def planet_choice(pub, view, options, n, d, cautious):
    """Planets: where tokens go (home first while the power is at stake, else the biggest base), where
    tokens come from (the biggest base, sparing home bases), the target (fewest defenders, no own base)."""
    p, kind = view[V_SEAT], view[V_KIND]
    best, best_score = 0, 0
    for i in range(n):
        pl = options[i]
        mine = v_tokens(pub, pl, p)
        home = pl // L.PLANETS_PER_SYSTEM == p
        if kind == D_TARGET:
            score = -100 * (mine > 0) - L.defending_on(pub, d, pl)
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
def card_choice(pub, view, options, n, d, weights, cautious):
    """An attack card by the margin needed: the smallest card expected to win; if none can, the lowest
    (hoarding high cards) unless the game is close; the cautious defender compromises for cards. Under an
    upset that will swap the result, the lowest card (the side with the lower total wins)."""
    p = view[V_SEAT]
    offense = p == pub[ST.OFF]
    opp = pub[ST.DEF] if offense else pub[ST.OFF]
    mine, theirs = side_tokens(pub, view, d, not offense), side_tokens(pub, view, d, offense)
    need = theirs - mine + best_known_attack(pub, view, d, weights, opp) + (1 if offense else 0)
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
    if upset_swaps(pub, -1):
        return lowest if lowest >= 0 else comp
    if cautious and not offense and comp >= 0 and fit < 0:
        return comp
    if fit >= 0 and not (d[R.CVAL + options[fit]] >= weights[W_HOARD_AT] and not close):
        return fit
    if lowest < 0:
        return comp
    if close:
        return highest
    return comp if comp >= 0 and cautious else lowest


@njit(cache=True)
def known_card(view, d, q):
    """The challenge card main player q is expected to play when I saw its hand (Mind): its best attack
    card, else a compromise; -1 when I did not see it (or it holds no challenge card)."""
    if view[V_SEEN_WHO] != q:
        return -1
    best, comp = -1, -1
    for k in range(d[R.CHALLENGE_KINDS]):
        if view[V_SEEN + k] > 0:
            if d[R.CTYPE + k] != L.C_ATTACK:
                comp = k
            elif best < 0 or d[R.CVAL + k] > d[R.CVAL + best]:
                best = k
    return best if best >= 0 else comp


DIFF, ODDS_CUM, ODDS_SIZE = L.DIFF, L.ODDS_CUM, L.ODDS_SIZE  # card_odds' tables (state.py, odds.py)


@njit(cache=True)
def card_odds(pub, view, d):
    """The pair table (odds.pair_odds, precomputed in d) for the two main players' cards as I know them
    (known_card: a Mind sees at most one of them)."""
    ko, kd = known_card(view, d, pub[ST.OFF]), known_card(view, d, pub[ST.DEF])
    t = 1 + ko if ko >= 0 else 1 + L.KMAX + kd if kd >= 0 else 0
    return d[R.CARD_ODDS + t * ODDS_SIZE: R.CARD_ODDS + (t + 1) * ODDS_SIZE]


@njit(cache=True)
def win_odds(odds, lead):
    """(offense wins, defense wins) when the offense side leads by `lead` before the cards (card_odds): the
    higher total wins, ties to the defense; an attack beats a compromise; two compromises make a deal."""
    attacks = odds[ODDS_SIZE - 1]
    y = min(max(-lead, -DIFF - 1), DIFF)  # the offense wins the attack pairs that differ by more than -lead
    defense = odds[ODDS_CUM + DIFF + y] if y >= -DIFF else 0
    return (odds[1] + attacks - defense) / odds[0], (odds[2] + defense) / odds[0]


@njit(cache=True)
def alliance_lead(pub, view, d):
    """The offense side's lead in tokens and Warpish bonus before any ally answers (public)."""
    return (side_tokens(pub, view, d, False) - side_tokens(pub, view, d, True)
            + warpish_pending(pub, view, 0, -1) - warpish_pending(pub, view, 1, -1))


@njit(cache=True)
def alliance_gain(pub, view, d, odds, weights, side, count, off_before):
    """What joining `side` with `count` tokens is worth to me against declining, in tokens, by win_odds.
    A win lands me a foreign base (base_value; the game if it is my last) where that side's allies land
    (the offense's; the defense's on a reverse cone), else a card or a Warp token per token; a loss sends
    the tokens to the Warp. An offense win that ends the game with me not sharing it costs WIN_VALUE, so
    my tokens count by how much they move its odds (off_before: the offense's odds if I decline)."""
    p = view[V_SEAT]
    off, de = win_odds(odds, alliance_lead(pub, view, d) + (count if side == 0 else -count))
    win, lose = (off, de) if side == 0 else (de, off)
    lands = (side == 0) != (pub[ST.REVERSE] == 1)
    last = v_foreign(pub, view, p) >= view[V_WINS] - 1
    if not lands:
        gain = float(count)
    elif v_tokens(pub, pub[ST.PLANET], p) > 0:  # already my base: nothing new
        gain = 0.0
    else:
        gain = WIN_VALUE if last else weights[W_BASE_VALUE]
    value = win * gain - lose * count
    if v_foreign(pub, view, pub[ST.OFF]) >= view[V_WINS] - 1 and not (side == 0 and lands and last):
        value -= WIN_VALUE * (off - off_before)
    return value


@njit(cache=True)
def ally_count(pub, view, d, odds, weights, side):
    """(count, gain): the number of tokens worth most to commit to `side` (1-4, as my bases allow) and
    what it is worth (alliance_gain; odds: card_odds)."""
    p = view[V_SEAT]
    hi = min(L.MAX_CONE, L.base_tokens(pub, p))
    off_before, _ = win_odds(odds, alliance_lead(pub, view, d))
    best, best_gain = 1, -1e18
    for c in range(1, hi + 1):
        g = alliance_gain(pub, view, d, odds, weights, side, c, off_before)
        if g > best_gain:
            best, best_gain = c, g
    return best, best_gain


@njit(cache=True)
def answer(pub, view, options, n, d, weights, cautious):
    """Join the side whose alliance is worth most to me (ally_count), once that is more than the
    ally_appetite weight; else decline. The cautious player considers the defense only."""
    choice, best = ANSWER_DECLINE, weights[W_ALLY_APPETITE]
    odds = card_odds(pub, view, d)
    for i in range(n):
        side = 0 if options[i] == ANSWER_OFFENSE else 1
        if options[i] == ANSWER_DECLINE or (cautious and side == 0):
            continue
        _, gain = ally_count(pub, view, d, odds, weights, side)
        if gain > best:
            choice, best = options[i], gain
    return pick(options, n, choice)


@njit(cache=True)
def invite(pub, view, d, weights):
    """Invite q (V_ARG) to my side, unless my side's win would land q on its last foreign base and not
    end the game for me too (the offense's allies land; the defense's on a reverse cone), or my side's
    odds without allies (win_odds) already reach the invite_below weight."""
    p, q = view[V_SEAT], view[V_ARG]
    side = 0 if p == pub[ST.OFF] else 1
    if weights[W_INVITE_BELOW] < 1:
        odds = win_odds(card_odds(pub, view, d), alliance_lead(pub, view, d))
        if odds[side] >= weights[W_INVITE_BELOW]:
            return False
    lands = (side == 0) != (pub[ST.REVERSE] == 1) and v_tokens(pub, pub[ST.PLANET], q) == 0
    q_last = v_foreign(pub, view, q) >= view[V_WINS] - 1
    me_too = side == 0 and v_foreign(pub, view, p) >= view[V_WINS] - 1
    return not (lands and q_last and not me_too)


@njit(cache=True)
def count_choice(pub, view, options, n, d, weights):
    """Tokens by stake: all in when the challenge can win the game, else the commit weight; an ally the
    count worth most on the side it chose (ally_count)."""
    p = view[V_SEAT]
    if view[V_KIND] == D_ALLY_COUNT:
        count, _ = ally_count(pub, view, d, card_odds(pub, view, d), weights, 0 if view[V_ARG] == ANSWER_OFFENSE else 1)
        return pick(options, n, count)
    want = weights[W_COMMIT]
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
def side_main(pub, side):
    return pub[ST.DEF] if side == 1 else pub[ST.OFF]


@njit(cache=True)
def warpish_pending(pub, view, side, cancelled):
    """The Warpish bonus a side will get when the totals are compared (public: powers are known), unless
    its main player is `cancelled` (-1: none)."""
    q = side_main(pub, side)
    if q == cancelled or pub[ST.ALIEN + q] != L.WARPISH or not v_power_active(pub, q):
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
def upset_swaps(pub, cancelled):
    """Loser's upset will swap winner and loser: it was declared, and the Loser among the main players
    (unless it is `cancelled`, -1: none) still has its power (public)."""
    if pub[ST.UPSET] == 0:
        return False
    for q in (pub[ST.OFF], pub[ST.DEF]):
        if q >= 0 and q != cancelled and pub[ST.ALIEN + q] == L.LOSER and v_power_active(pub, q):
            return True
    return False


@njit(cache=True)
def behind_by(pub, view, d, side, cancelled):
    """Stage 8: what my side lacks to win as the totals stand, with `cancelled`'s power off (-1: none);
    <= 0: it wins. Ties go to the defense; under an upset that will swap the result my side wins when the
    comparison goes to the other side (a tie then to the offense)."""
    o = (side_tokens(pub, view, d, False) + d[R.CVAL + pub[ST.SHOWN_O]] + pub[ST.REINF_O] + pub[ST.BONUS_O]
         + warpish_pending(pub, view, 0, cancelled))
    de = (side_tokens(pub, view, d, True) + d[R.CVAL + pub[ST.SHOWN_D]] + pub[ST.REINF_D] + pub[ST.BONUS_D]
          + warpish_pending(pub, view, 1, cancelled))
    if upset_swaps(pub, cancelled):
        side = 1 - side
    return (de - o + 1) if side == 0 else (o - de)


@njit(cache=True)
def warpish_flare_gain(pub, p, side):
    """Warpish's flare: Super (Warpish, power on) the opponent's Warp tokens off its total; Wild my own on."""
    if pub[ST.ALIEN + p] == L.WARPISH and v_power_active(pub, p):
        return pub[ST.WARP + (pub[ST.OFF] if side == 1 else pub[ST.DEF])]
    return pub[ST.WARP + p]


@njit(cache=True)
def zap_value(pub, view, d, side, q):
    """What cancelling main player q's power now (a Cosmic Zap at stage 8) is worth to me (on `side`, -1
    none), in tokens or cards: WIN_VALUE if it turns the challenge my way (Warpish's bonus, Loser's upset),
    minus that if it turns it against me; and, for the result as it would then stand, a losing Zombie's
    stake (those tokens go to the Warp, not home) and a losing Grief's stake when I win (the cards it makes
    me discard), each counted against me when q is me."""
    p = view[V_SEAT]
    if q < 0 or pub[ST.SHOWN_O] < 0 or pub[ST.SHOWN_D] < 0 or not v_power_active(pub, q):
        return 0
    value = 0
    if side >= 0:
        now, then = behind_by(pub, view, d, side, -1) <= 0, behind_by(pub, view, d, side, q) <= 0
        value += WIN_VALUE * (int(then) - int(now))
    q_loses = (behind_by(pub, view, d, 0, q) <= 0) != (q == pub[ST.OFF])
    if q_loses and pub[ST.ALIEN + q] == L.ZOMBIE:
        value += -my_stake(pub, q) if q == p else my_stake(pub, q)
    if q_loses and pub[ST.ALIEN + q] == L.GRIEF:
        winner = pub[ST.DEF] if q == pub[ST.OFF] else pub[ST.OFF]
        value += my_stake(pub, q) if winner == p else (-my_stake(pub, q) if q == p else 0)
    return value


@njit(cache=True)
def reveal_play(pub, view, options, n, d, weights):
    """Stage 8. For my side, when it is behind or leads by less than the reinforce_margin weight: the
    smallest reinforcement or Warpish flare that makes it lead by that (under an upset that will swap the
    result, a reinforcement on the other side: the lower total wins). Else, for anyone, the Cosmic Zap
    worth most (zap_value) once it is worth the zap_at weight. Else, behind, (a main player) Emotion
    Control, else Zombie's wild flare when I have 2+ tokens at stake; otherwise pass."""
    p = view[V_SEAT]
    side = my_side(pub, p)
    gap = behind_by(pub, view, d, side, -1) if side >= 0 else 0
    want = gap + weights[W_REINFORCE_MARGIN] if side >= 0 else 0
    helps = (1 - side if upset_swaps(pub, -1) else side) if side >= 0 else -1  # whose total helps mine
    best, best_gain, zap, zap_best, emotion, zombie = -1, 0, -1, -1e18, -1, -1
    for i in range(n):
        if options[i] == PLAY_PASS:
            continue
        t, v, s = play_card(d, options[i])
        gain = 0
        if t == L.C_REINF and s == helps:
            gain = v
        elif t == L.C_FLARE and v == L.WARPISH and helps == side:
            gain = warpish_flare_gain(pub, p, side)
        if want > 0 and gain >= want and (best < 0 or gain < best_gain):
            best, best_gain = i, gain
        if t == L.C_EDICT and v == L.COSMIC_ZAP:
            value = zap_value(pub, view, d, side, side_main(pub, s))
            if value > zap_best:
                zap, zap_best = i, value
        if gap > 0 and t == L.C_EDICT and v == L.EMOTION_CONTROL and is_main(pub, p):
            emotion = i
        if gap > 0 and t == L.C_FLARE and v == L.ZOMBIE and my_stake(pub, p) >= 2:
            zombie = i
    if zap_best < weights[W_ZAP_AT]:
        zap = -1
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
    mine, theirs = side_tokens(pub, view, d, side == 1), side_tokens(pub, view, d, side == 0)
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
        if v == L.SORCERER and warpish_pending(pub, view, 1 - side, -1) >= 3:
            return i
        if v == L.LOSER and theirs >= mine + 3:
            return i
    return pick(options, n, PLAY_PASS)


@njit(cache=True)
def swap_play(pub, view, options, n, d, weights):
    """Cards face down: Loser's super (an upset) when my card is not expected to win; Sorcerer's super
    (swapping two unseen cards) is never worth it to an ally."""
    p = view[V_SEAT]
    side = my_side(pub, p)
    card = view[V_MYCARD]
    if card < 0:
        return pick(options, n, PLAY_PASS)
    mine = side_tokens(pub, view, d, side == 1) + (d[R.CVAL + card] if d[R.CTYPE + card] == L.C_ATTACK else 0)
    for i in range(n):
        if options[i] == PLAY_PASS:
            continue
        t, v, _ = play_card(d, options[i])
        if v == L.LOSER and mine < side_tokens(pub, view, d, side == 0) + weights[W_EXPECTED_CARD]:
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
def play_choice(pub, view, options, n, d, weights):
    """D_PLAY, by window (V_ARG). A deal: a player outside it always quashes (both rivals pay 3 tokens)."""
    w = view[V_ARG]
    if w == W_START:
        return start_play(pub, view, options, n, d)
    if w == W_ALLIANCE:
        return alliance_play(pub, view, options, n, d)
    if w == W_SWAP:
        return swap_play(pub, view, options, n, d, weights)
    if w == W_AFTER:
        return after_play(pub, view, options, n, d)
    if w == W_DEAL:
        return pick(options, n, PLAY_PASS) if is_main(pub, view[V_SEAT]) else 1
    return reveal_play(pub, view, options, n, d, weights)


@njit(cache=True)
def zap_choice(pub, view, d, weights):
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
            return side >= 0 and behind_by(pub, view, d, side, -1) <= 0
        if v == L.COSMIC_ZAP:  # it hurts me at least as much as a zap of mine would have to pay
            return zap_value(pub, view, d, side, side_main(pub, arg)) <= -weights[W_ZAP_AT]
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
def use_zap_value(pub, view, d):
    """What cancelling this use of the power about to act (V_ARG: its owner; a Cosmic Zap under
    cosmic_zap_window any_power_use) is worth to me: WIN_VALUE when it turns the result my way (Loser's swap,
    the result standing as the public OFF_WINS; Warpish's bonus at the reveal, as zap_value counts it), minus
    that when it turns it against me; before the cards are shown, my stake when it acts against my side
    (Loser's upset declaration, Laser, Sorcerer's swap)."""
    p, user = view[V_SEAT], view[V_ARG]
    side, alien = my_side(pub, p), pub[ST.ALIEN + user]
    if alien == L.LOSER and pub[ST.UPSET] == 1:  # the swap, after every other effect
        if side < 0:
            return 0
        return WIN_VALUE if (pub[ST.OFF_WINS] == 1) == (side == 0) else -WIN_VALUE
    if alien == L.WARPISH:
        return zap_value(pub, view, d, side, user)
    if (alien == L.LOSER or alien == L.LASER or alien == L.SORCERER) and side >= 0 and my_side(pub, user) != side:
        return my_stake(pub, p)
    return 0


@njit(cache=True)
def power_zap_choice(pub, view, d, weights):
    """A Cosmic Zap on the power about to act once cancelling it is worth the zap_at weight (use_zap_value)."""
    return use_zap_value(pub, view, d) >= weights[W_ZAP_AT]


@njit(cache=True)
def discard_choice(options, n, d):
    """Plague: discard the lowest card of the type."""
    low = 0
    for i in range(1, n):
        if d[R.CVAL + options[i]] < d[R.CVAL + options[low]]:
            low = i
    return low


@njit(cache=True)
def use_power(pub, view, d, weights):
    """Optional powers: Loser upsets when its side is behind, Sorcerer swaps a weak own card; the rest
    (Filch, Mind, Grief) always pay."""
    alien = view[V_ARG]
    p = view[V_SEAT]
    offense = p == pub[ST.OFF]
    if alien == L.LOSER:
        return side_tokens(pub, view, d, not offense) + 2 < side_tokens(pub, view, d, offense)
    if alien == L.SORCERER:
        card = view[V_MYCARD]
        return d[R.CTYPE + card] == L.C_COMPROMISE or d[R.CVAL + card] < weights[W_EXPECTED_CARD]
    return True


@njit(cache=True)
def second_challenge(hand, d, weights):
    best = 0
    for k in range(d[R.CHALLENGE_KINDS]):
        if hand[k] > 0 and d[R.CTYPE + k] == L.C_ATTACK:
            best = max(best, d[R.CVAL + k])
    return best >= weights[W_SECOND_AT]


@njit(cache=True)
def smart(pub, view, hand, options, n, d, weights, cautious):
    kind = view[V_KIND]
    p = view[V_SEAT]
    if (kind == D_REGROUP or kind == D_SOURCE or kind == D_TARGET or kind == D_HOME or kind == D_LOSE
            or kind == D_DEAL_PLANET):
        return planet_choice(pub, view, options, n, d, cautious)
    if kind == D_DESTINY_OWN:  # re-establishing is a sure success; else redraw
        for i in range(n):
            if options[i] >= OPT_REESTABLISH:
                return i
        return pick(options, n, OPT_REDRAW)
    if kind == D_WILD or kind == D_INSTRUCTION:  # the weakest home system (the first of the weakest)
        best, best_score = 0, 0
        for i in range(n):
            score = -system_defense(pub, d, options[i], p)
            if i == 0 or score > best_score:
                best, best_score = i, score
        return best
    if kind == D_MIND_TARGET:
        return pick(options, n, pub[ST.DEF] if p == pub[ST.OFF] else pub[ST.OFF])
    if kind == D_CONE or kind == D_ALLY_COUNT or kind == D_REESTABLISH_COUNT:
        return count_choice(pub, view, options, n, d, weights)
    if kind == D_INVITE:
        return pick(options, n, 1 if invite(pub, view, d, weights) else 0)
    if kind == D_ANSWER:
        return answer(pub, view, options, n, d, weights, cautious)
    if kind == D_CARD:
        return card_choice(pub, view, options, n, d, weights, cautious)
    if kind == D_USE_POWER:
        return pick(options, n, 1 if use_power(pub, view, d, weights) else 0)
    if kind == D_PLAY:
        return play_choice(pub, view, options, n, d, weights)
    if kind == D_CARD_ZAP:
        return pick(options, n, 1 if zap_choice(pub, view, d, weights) else 0)
    if kind == D_COSMIC_ZAP:
        return pick(options, n, 1 if power_zap_choice(pub, view, d, weights) else 0)
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
        return pick(options, n, 1 if second_challenge(hand, d, weights) else 0)
    return 0


@njit(cache=True)
def decide(code, pub, view, hand, options, n, stream, script, ask, d, weights):
    """The one dispatch from a seat's policy code to its decision function: `pub` is the public block
    st[:L.PUB_END], `view` the seat's private view (view.fill_view), `hand` its own hand (own_hand), `weights`
    the seat's weights row (W_*). random, scripted and search are the framework's (kernel.ask_policy, with the
    framework's ask: (control row, trace)); past its branch a search seat's `code` comes back as its rollout
    policy's."""
    k, code = ask_policy(code, stream, script, ask, n)
    if k < 0:
        k = smart(pub, view, hand, options, n, d, weights, code == CAUTIOUS)
    return asked(ask, k)
