"""Simply Cosmic's kernel layout and the table's bookkeeping (tokens, hands, decks).

One game's state is one flat int64 array `st`, declared by name below (STATE: its offsets ST.*, and
`STATE.dump(st)` reads it back by name for a test or a replay). The PUBLIC
block comes first (what every player sees: tokens on planets, in the Warp and on the cone, hand sizes,
aliens, the challenge so far), so a policy reads that block in place, plus its private view (own hand,
what it was shown: view.fill_view).
The scenario's numbers are one int64 array `d` (RULES, offsets R.*), built by scenario.kernel_inputs.

Seats own systems: seat q's colour is q and its home system holds planets 5q..5q+4. A base is a planet
with at least one of the player's tokens.
"""
import numpy as np
from numba import njit

from ... import rng
from ...kernel import Layout
from .decisions import WINDOWS

MAXP, PLANETS_PER_SYSTEM = 4, 5
NPL = MAXP * PLANETS_PER_SYSTEM
KMAX, DECKMAX, DESTMAX = 48, 160, 48
TOKENS_PER_PLANET = 4
MAX_CONE = 4

ALIEN_NAMES = ("Filch", "Warpish", "Loser", "Laser", "Mind", "Sorcerer", "Grief", "Zombie")
FILCH, WARPISH, LOSER, LASER, MIND, SORCERER, GRIEF, ZOMBIE = range(8)
EDICT_NAMES = ("cosmic_zap", "card_zap", "mobius_tubes", "plague", "force_field", "emotion_control",
               "warp_break", "quash")
COSMIC_ZAP, CARD_ZAP, MOBIUS_TUBES, PLAGUE, FORCE_FIELD, EMOTION_CONTROL, WARP_BREAK, QUASH = range(8)

# card types (d[R.CTYPE + kind])
C_ATTACK, C_COMPROMISE, C_REINF, C_EDICT, C_FLARE = range(5)
# destiny cards: type * 8 + colour
DT_REGULAR, DT_REVERSE, DT_WILD, DT_MOST_BASES, DT_LEFT, DT_OUTAGE, DT_TENACIOUS = range(7)
DESTINY_KINDS = 7
DESTINY_NAMES = ("regular", "reverse", "wild", "instruction: most foreign bases", "instruction: player on the left",
                 "comet: Power Outage", "comet: Tenacious Defense")

# policies.card_odds' tables of the two main players' challenge cards counted in pairs: [0] pairs counted,
# [1] pairs where only the offense's card is an attack (it wins), [2] only the defense's, [ODDS_CUM + DIFF + x]
# attack pairs whose values differ (offense minus defense) by x or less, x = -DIFF..DIFF (attack values are 0..99)
DIFF = 99
ODDS_CUM = 3
ODDS_SIZE = ODDS_CUM + 2 * DIFF + 1
# d[R.CARD_ODDS + t * ODDS_SIZE]: table t, as I know the cards: 0 neither card known, 1 + k the offense's known
# to be kind k, 1 + KMAX + k the defense's (a Mind sees one hand, so never both)
ODDS_TABLES = 1 + 2 * KMAX

# ---- the scenario's numbers: d[R.*] -------------------------------------------------------------------
RULES = Layout([
    ("players", 1), ("wins", 1), ("hand", 1), ("cap", 1),
    ("laser_ffg", 1),        # 1: laser_reading ffg
    ("laser_loses", 1),      # 1: laser_ffg_no_card loses (a defense Laser left with no challenge card loses)
    ("grief", 1),            # 1: grief_model estimated_sorrow
    ("order_timing", 1),     # 1: play_order timing
    ("any_side", 1),         # 1: reinforce_any_side
    ("first_destiny", 1),    # 1: first_player destiny
    ("fixed_aliens", 1),     # 1: aliens fixed (the alien field), else dealt at random
    ("zap_any_use", 1),      # 1: cosmic_zap_window any_power_use (a Cosmic Zap answers a power's use)
    ("unowned_in_play", 1),  # 1: unowned_system in_play (the systems of absent colours are on the table)
    ("unowned_tokens", 1),   # 1: unowned_defense tokens_only (an unowned planet's tokens defend), 0: nobody
    ("wild_own", 1),         # 1: wild_destiny_own_colour (a wild may name the offense's own colour)
    ("reestablish_max", 1),  # reestablish_max_tokens (0: no cap)
    ("deal_any_base", 1),    # 1: deal_base_from any_base (else the giver's home system)
    ("zapped_super", 1),     # 1: zapped_owner_flare super (a zapped owner keeps its flare's Super side)
    ("home_together", 1),    # 1: home_tokens_split together (tokens going home move as one group), 0: free
    ("homeless_warp", 1),    # 1: home_without_base warp (tokens with no base to go to go to the Warp)
    ("loss_after", 1),       # 1: power_loss_timing after_loss (a loss of tokens is still under the power it costs)
    ("disarmed_swap", 1),    # 1: laser_ffg_disarmed_upset swaps (a Loser's upset swaps a disarmed defense's loss)
    ("unowned_reinf", 1),    # 1: unowned_defense_reinforcement allowed (a reinforcement may go to a defense of nobody)
    ("kinds", 1),            # card kinds in the deck
    # card kinds 0..challenge_kinds-1 are the challenge cards (scenario.card_table lists them first), the
    # rest the cards played in windows, so that a scan for one group skips the other
    ("challenge_kinds", 1),
    ("alien", MAXP),         # fixed alien per seat
    ("destiny", DESTINY_KINDS),  # destiny counts by DT_* kind (regular/reverse per colour)
    ("ctype", KMAX), ("cval", KMAX), ("copies", KMAX),  # each card kind's type (C_*), value and copies
    ("window_n", WINDOWS),   # window_n + w: how many card kinds may be played in window w
    ("window_kinds", (WINDOWS, KMAX)),  # window_kinds + w * KMAX + i: those kinds, rising (cards.window_kinds)
    ("card_odds", (ODDS_TABLES, ODDS_SIZE)),  # the tables above, computed once from the deck (odds.fill_card_odds)
])
R = RULES.offsets("R")

# ---- one game's state: st[ST.*] -------------------------------------------------------------------------
STATE = Layout([
    # public
    ("tok", (NPL, MAXP)),    # tok + planet * MAXP + seat: tokens of seat on planet
    ("warp", MAXP),          # warp + seat
    ("ocone", MAXP),         # offense side on the cone (offense and its allies), by seat
    ("dcone", MAXP),         # defense allies on the cone tip, by seat
    ("handn", MAXP),         # cards in each hand
    ("alien", MAXP),         # each seat's alien
    ("zapped", MAXP),        # 1: that seat's power is cancelled for this challenge
    ("off", 1),              # the offense
    ("def", 1),              # the defense
    ("system", 1),           # the challenged system (the defense's; the offense's own after an own-colour pick)
    ("planet", 1),           # the challenged planet
    ("reverse", 1),          # 1: reverse cone this challenge
    ("comet", 1),            # the comet in force this challenge (DT_OUTAGE / DT_TENACIOUS), 0 none
    ("upset", 1),            # 1: Loser declared an upset
    ("reinf_o", 1), ("reinf_d", 1),  # reinforcements on the offense side, on the defense side
    ("bonus_o", 1), ("bonus_d", 1),  # power and flare bonuses on each side (Warpish)
    ("lasered", MAXP),       # lasered + seat: 1 = its challenge card is drawn at random (Laser, eon)
    ("shown_o", 1), ("shown_d", 1),  # the revealed challenge cards (kind), -1 before the reveal
    ("off_wins", 1),         # the result as it stands: 1 offense wins, 0 defense wins
    ("emotion", 1),          # 1: Emotion Control turned both attack cards into compromises
    ("played_by", 1), ("played_kind", 1), ("played_arg", 1),  # the card being played (cards.py): who,
    #                          which kind, its side or target seat
    ("all_lose", 1),         # 1: Loser's wild flare: both sides lose, every token in the challenge to the Warp
    ("powers_swapped", 1),   # 1: Sorcerer's wild flare swapped the main players' aliens for this challenge
    ("deal_struck", 1),      # 1: a deal was accepted and may still be quashed; 2: it was quashed
    ("zombie_save", MAXP),   # zombie_save + seat: 1 = Zombie's wild flare: one token per loss goes home
    ("keeps", MAXP),         # keeps + seat: 1 while its tokens are being lost: its power counts the home bases
    #                          it had before the loss (power_loss_timing after_loss; moves.hold_power)
    # hidden
    ("hand", (MAXP, KMAX)),  # hand + seat * KMAX + kind: copies held
    ("aside", (MAXP, KMAX)),  # cards set aside by Laser (ffg), returned when the challenge ends
    ("seen", KMAX),          # the hand Mind saw (seen_who: whose; -1 none)
    ("seen_who", 1),
    ("seen_by", 1),          # who saw it (Mind, or the holder of Mind's flare)
    ("ocard", 1), ("dcard", 1),  # the challenge cards played face down (kind), -1 none
    ("lost", MAXP),          # lost + seat: tokens a main player lost to the Warp this challenge
    ("deck", DECKMAX), ("deckn", 1),  # challenge deck (kinds), top = deck + deckn - 1
    ("disc", DECKMAX), ("discn", 1),
    ("ddeck", DESTMAX), ("ddeckn", 1),  # destiny deck (codes)
    ("ddisc", DESTMAX), ("ddiscn", 1),
])
ST = STATE.offsets("ST")
PUB_END = int(ST.HAND)         # the public block: every field before the hand
STATE_SIZE = STATE.size       # a plain int (numba's np.zeros takes no IntEnum)


# ---- tokens -----------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def system_of(planet):
    return planet // PLANETS_PER_SYSTEM


@njit(cache=True, inline="always")
def tokens(st, planet, q):
    return st[ST.TOK + planet * MAXP + q]


@njit(cache=True, inline="always")
def add_tokens(st, planet, q, n):
    st[ST.TOK + planet * MAXP + q] += n


# Planet loops run over all four systems: a system out of play holds no token, and one in play without a
# player (unowned_system: in_play) holds its colour's tokens and may hold the players' bases.
@njit(cache=True)
def base_tokens(st, q):
    """Tokens q has on planets (its bases), wherever they are."""
    n = 0
    for pl in range(NPL):
        n += st[ST.TOK + pl * MAXP + q]
    return n


@njit(cache=True)
def ally_tokens(st, players, side):
    """Allies' tokens on one side (the offense's own cone tokens are not an alliance). Public: policies
    call it on their public block."""
    n = 0
    for q in range(players):
        if side == 0 and q != st[ST.OFF]:
            n += st[ST.OCONE + q]
        elif side == 1:
            n += st[ST.DCONE + q]
    return n


@njit(cache=True)
def side_of(st, q):
    """q's side in the challenge: 0 offense (main player or ally), 1 defense, -1 not in it."""
    if q == st[ST.OFF] or st[ST.OCONE + q] > 0:
        return 0
    if q == st[ST.DEF] or st[ST.DCONE + q] > 0:
        return 1
    return -1


@njit(cache=True)
def home_bases(st, q):
    n = 0
    for k in range(PLANETS_PER_SYSTEM):
        if st[ST.TOK + (q * PLANETS_PER_SYSTEM + k) * MAXP + q] > 0:
            n += 1
    return n


@njit(cache=True)
def foreign_bases(st, q):
    n = 0
    for pl in range(NPL):
        if system_of(pl) != q and st[ST.TOK + pl * MAXP + q] > 0:
            n += 1
    return n


@njit(cache=True)
def planet_empty(st, planet):
    """No token of any colour on the planet."""
    for q in range(MAXP):
        if st[ST.TOK + planet * MAXP + q] > 0:
            return False
    return True


@njit(cache=True)
def nobody_defends(st, d):
    """The challenged system belongs to no player (an absent colour's, unowned_system: in_play): no player
    defends, plays a card, invites allies or takes a reward there."""
    return st[ST.DEF] >= d[R.PLAYERS]


@njit(cache=True)
def defending_on(st, d, planet):
    """The defense's tokens on `planet`; on an unowned planet its colour's tokens under
    `unowned_defense: tokens_only`, none under `nobody` (they are other tokens there, out of the challenge)."""
    if nobody_defends(st, d) and d[R.UNOWNED_TOKENS] == 0:
        return 0
    return tokens(st, planet, st[ST.DEF])


@njit(cache=True)
def defending_tokens(st, d):
    """The defense's tokens on the challenged planet (defending_on)."""
    return defending_on(st, d, st[ST.PLANET])


@njit(cache=True)
def systems_on_table(d):
    """Systems with tokens: the players', and every other one under `unowned_system: in_play`."""
    return MAXP if d[R.UNOWNED_IN_PLAY] == 1 else d[R.PLAYERS]


@njit(cache=True)
def total_tokens(st, q):
    """Every token of q: bases, Warp, cone (invariant: 20)."""
    return base_tokens(st, q) + st[ST.WARP + q] + st[ST.OCONE + q] + st[ST.DCONE + q]


# ---- cards ------------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def ctype(d, kind):
    return d[R.CTYPE + kind]


@njit(cache=True, inline="always")
def cval(d, kind):
    return d[R.CVAL + kind]


@njit(cache=True)
def is_challenge_card(d, kind):
    t = d[R.CTYPE + kind]
    return t == C_ATTACK or t == C_COMPROMISE


@njit(cache=True)
def challenge_cards(st, d, q):
    n = 0
    for k in range(d[R.CHALLENGE_KINDS]):
        n += st[ST.HAND + q * KMAX + k]
    return n


@njit(cache=True)
def attack_cards(st, d, q):
    n = 0
    for k in range(d[R.CHALLENGE_KINDS]):
        if d[R.CTYPE + k] == C_ATTACK:
            n += st[ST.HAND + q * KMAX + k]
    return n


@njit(cache=True)
def give_card(st, q, kind, n):
    st[ST.HAND + q * KMAX + kind] += n
    st[ST.HANDN + q] += n


@njit(cache=True)
def discard(st, kind):
    st[ST.DISC + st[ST.DISCN]] = kind
    st[ST.DISCN] += 1


@njit(cache=True)
def discard_from_hand(st, q, kind):
    give_card(st, q, kind, -1)
    discard(st, kind)


@njit(cache=True)
def draw(st, stream, q):
    """q draws the top card; an empty deck is first reshuffled from the discards. False: no card left."""
    if st[ST.DECKN] == 0:
        if st[ST.DISCN] == 0:
            return False
        for i in range(st[ST.DISCN]):
            st[ST.DECK + i] = st[ST.DISC + i]
        st[ST.DECKN] = st[ST.DISCN]
        st[ST.DISCN] = 0
        rng.shuffle(stream, st[ST.DECK:ST.DECK + DECKMAX], st[ST.DECKN])
    st[ST.DECKN] -= 1
    give_card(st, q, st[ST.DECK + st[ST.DECKN]], 1)
    return True


@njit(cache=True)
def discard_hand(st, d, q):
    for k in range(d[R.KINDS]):
        while st[ST.HAND + q * KMAX + k] > 0:
            discard_from_hand(st, q, k)


@njit(cache=True)
def random_card(st, d, stream, q):
    """A uniformly random card of q's hand (by copies), -1 if the hand is empty."""
    n = st[ST.HANDN + q]
    if n == 0:
        return -1
    r = rng.below(stream, n)
    for k in range(d[R.KINDS]):
        r -= st[ST.HAND + q * KMAX + k]
        if r < 0:
            return k
    return -1


@njit(cache=True)
def draw_destiny(st, stream):
    if st[ST.DDECKN] == 0:
        for i in range(st[ST.DDISCN]):
            st[ST.DDECK + i] = st[ST.DDISC + i]
        st[ST.DDECKN] = st[ST.DDISCN]
        st[ST.DDISCN] = 0
        rng.shuffle(stream, st[ST.DDECK:ST.DDECK + DESTMAX], st[ST.DDECKN])
    st[ST.DDECKN] -= 1
    c = st[ST.DDECK + st[ST.DDECKN]]
    st[ST.DDISC + st[ST.DDISCN]] = c
    st[ST.DDISCN] += 1
    return c


@njit(cache=True)
def cards_held(st, players):
    """Every challenge-deck card: hands, set aside, deck, discards, face-down cards (invariant)."""
    n = st[ST.DECKN] + st[ST.DISCN]
    for q in range(players):
        n += st[ST.HANDN + q]
        for k in range(KMAX):
            n += st[ST.ASIDE + q * KMAX + k]
    return n + (st[ST.OCARD] >= 0) + (st[ST.DCARD] >= 0)


@njit(cache=True)
def filch_takes_offense_card(side, own):
    """Filch's flare takes its own card (super) or the opponent's (wild): is that the offense's card?"""
    return (side == 0) == own


def new_state() -> np.ndarray:
    return STATE.new()
