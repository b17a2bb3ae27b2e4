"""Simply Cosmic's kernel layout and the table's bookkeeping (tokens, hands, decks).

One game's state is one flat int64 array `st`; every field sits at a named offset below. The PUBLIC
block comes first (what every player sees: tokens on planets, in the Warp and on the cone, hand sizes,
aliens, the challenge so far), so a policy reads that block in place, plus its private view (own hand,
what it was shown: policies.fill_view).
The scenario's numbers are one int64 array `d` (offsets D_*), built by scenario.kernel_inputs.

Seats own systems: seat q's colour is q and its home system holds planets 5q..5q+4. A base is a planet
with at least one of the player's tokens.
"""
import numpy as np
from numba import njit

from ... import rng

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

# card types (d[D_CTYPE + kind])
C_ATTACK, C_COMPROMISE, C_REINF, C_EDICT, C_FLARE = range(5)
# destiny cards: type * 8 + colour
DT_REGULAR, DT_REVERSE, DT_WILD, DT_MOST_BASES, DT_LEFT, DT_OUTAGE, DT_TENACIOUS = range(7)
DESTINY_KINDS = 7
DESTINY_NAMES = ("regular", "reverse", "wild", "instruction: most foreign bases", "instruction: player on the left",
                 "comet: Power Outage", "comet: Tenacious Defense")

# ---- the scenario's numbers: d[D_*] ----------------------------------------------------------------
(D_PLAYERS, D_WINS, D_HAND, D_CAP, D_LASER_FFG, D_GRIEF, D_ORDER_TIMING, D_ANY_SIDE, D_FIRST_DESTINY,
 D_FIXED_ALIENS, D_KINDS, D_CHALLENGE_KINDS) = range(12)
# card kinds 0..D_CHALLENGE_KINDS-1 are the challenge cards (scenario.card_table lists them first), the rest
# the cards played in windows, so that a scan for one group skips the other
D_ALIEN = 12                  # fixed alien per seat
D_DESTINY = D_ALIEN + MAXP    # destiny counts by DT_* kind (regular/reverse per colour)
D_CTYPE = D_DESTINY + DESTINY_KINDS
D_CVAL = D_CTYPE + KMAX
D_COPIES = D_CVAL + KMAX
WINDOWS = 6                   # the card windows (policies.W_*)
D_WINDOW_N = D_COPIES + KMAX  # D_WINDOW_N + w: how many card kinds may be played in window w
D_WINDOW_KINDS = D_WINDOW_N + WINDOWS  # D_WINDOW_KINDS + w * KMAX + i: those kinds, rising (cards.window_kinds)
D_SIZE = D_WINDOW_KINDS + WINDOWS * KMAX

# ---- one game's state: st[...] ----------------------------------------------------------------------
# public
TOK = 0                       # TOK + planet * MAXP + seat: tokens of seat on planet
WARP = TOK + NPL * MAXP       # WARP + seat
OCONE = WARP + MAXP           # offense side on the cone (offense and its allies), by seat
DCONE = OCONE + MAXP          # defense allies on the cone tip, by seat
HANDN = DCONE + MAXP          # cards in each hand
ALIEN = HANDN + MAXP          # each seat's alien
ZAPPED = ALIEN + MAXP         # 1: that seat's power is cancelled for this challenge
OFF = ZAPPED + MAXP           # the offense
DEF = OFF + 1                 # the defense
SYSTEM = DEF + 1              # the challenged system (the defense's; the offense's own after an own-colour pick)
PLANET = SYSTEM + 1           # the challenged planet
REVERSE = PLANET + 1          # 1: reverse cone this challenge
COMET = REVERSE + 1           # the comet in force this challenge (DT_OUTAGE / DT_TENACIOUS), 0 none
UPSET = COMET + 1             # 1: Loser declared an upset
REINF_O = UPSET + 1           # reinforcements on the offense side
REINF_D = REINF_O + 1
BONUS_O = REINF_D + 1         # power and flare bonuses on each side (Warpish)
BONUS_D = BONUS_O + 1
LASERED = BONUS_D + 1         # LASERED + seat: 1 = its challenge card is drawn at random (Laser, eon)
SHOWN_O = LASERED + MAXP      # the revealed challenge cards (kind), -1 before the reveal
SHOWN_D = SHOWN_O + 1
OFF_WINS = SHOWN_D + 1        # the result as it stands: 1 offense wins, 0 defense wins
EMOTION = OFF_WINS + 1        # 1: Emotion Control turned both attack cards into compromises
PLAYED_BY = EMOTION + 1       # the card being played (cards.py): who, which kind, its side or target seat
PLAYED_KIND = PLAYED_BY + 1
PLAYED_ARG = PLAYED_KIND + 1
ALL_LOSE = PLAYED_ARG + 1     # 1: Loser's wild flare: both sides lose, every token in the challenge to the Warp
POWERS_SWAPPED = ALL_LOSE + 1  # 1: Sorcerer's wild flare swapped the main players' aliens for this challenge
DEAL_STRUCK = POWERS_SWAPPED + 1  # 1: a deal was accepted and may still be quashed; 2: it was quashed
ZOMBIE_SAVE = DEAL_STRUCK + 1  # ZOMBIE_SAVE + seat: 1 = Zombie's wild flare: one token per loss goes home
PUB_END = ZOMBIE_SAVE + MAXP
# hidden
HAND = PUB_END                # HAND + seat * KMAX + kind: copies held
ASIDE = HAND + MAXP * KMAX    # cards set aside by Laser (ffg), returned when the challenge ends
SEEN = ASIDE + MAXP * KMAX    # the hand Mind saw (SEEN_WHO: whose; -1 none)
SEEN_WHO = SEEN + KMAX
SEEN_BY = SEEN_WHO + 1        # who saw it (Mind, or the holder of Mind's flare)
OCARD = SEEN_BY + 1          # the challenge cards played face down (kind), -1 none
DCARD = OCARD + 1
LOST = DCARD + 1              # LOST + seat: tokens a main player lost to the Warp this challenge
DECK = LOST + MAXP            # challenge deck (kinds), top = DECK + DECKN - 1
DECKN = DECK + DECKMAX
DISC = DECKN + 1
DISCN = DISC + DECKMAX
DDECK = DISCN + 1             # destiny deck (codes)
DDECKN = DDECK + DESTMAX
DDISC = DDECKN + 1
DDISCN = DDISC + DESTMAX
ST_SIZE = DDISCN + 1


# ---- tokens -----------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def system_of(planet):
    return planet // PLANETS_PER_SYSTEM


@njit(cache=True, inline="always")
def tokens(st, planet, q):
    return st[TOK + planet * MAXP + q]


@njit(cache=True, inline="always")
def add_tokens(st, planet, q, n):
    st[TOK + planet * MAXP + q] += n


@njit(cache=True)
def base_tokens(st, q, players):
    """Tokens q has on planets (its bases), wherever they are."""
    n = 0
    for pl in range(players * PLANETS_PER_SYSTEM):
        n += st[TOK + pl * MAXP + q]
    return n


@njit(cache=True)
def ally_tokens(st, players, side):
    """Allies' tokens on one side (the offense's own cone tokens are not an alliance). Public: policies
    call it on their public block."""
    n = 0
    for q in range(players):
        if side == 0 and q != st[OFF]:
            n += st[OCONE + q]
        elif side == 1:
            n += st[DCONE + q]
    return n


@njit(cache=True)
def home_bases(st, q):
    n = 0
    for k in range(PLANETS_PER_SYSTEM):
        if st[TOK + (q * PLANETS_PER_SYSTEM + k) * MAXP + q] > 0:
            n += 1
    return n


@njit(cache=True)
def foreign_bases(st, q, players):
    n = 0
    for pl in range(players * PLANETS_PER_SYSTEM):
        if system_of(pl) != q and st[TOK + pl * MAXP + q] > 0:
            n += 1
    return n


@njit(cache=True)
def planet_empty(st, planet, players):
    for q in range(players):
        if st[TOK + planet * MAXP + q] > 0:
            return False
    return True


@njit(cache=True)
def total_tokens(st, q, players):
    """Every token of q: bases, Warp, cone (invariant: 20)."""
    return base_tokens(st, q, players) + st[WARP + q] + st[OCONE + q] + st[DCONE + q]


# ---- cards ------------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def ctype(d, kind):
    return d[D_CTYPE + kind]


@njit(cache=True, inline="always")
def cval(d, kind):
    return d[D_CVAL + kind]


@njit(cache=True)
def is_challenge_card(d, kind):
    t = d[D_CTYPE + kind]
    return t == C_ATTACK or t == C_COMPROMISE


@njit(cache=True)
def challenge_cards(st, d, q):
    n = 0
    for k in range(d[D_CHALLENGE_KINDS]):
        n += st[HAND + q * KMAX + k]
    return n


@njit(cache=True)
def attack_cards(st, d, q):
    n = 0
    for k in range(d[D_CHALLENGE_KINDS]):
        if d[D_CTYPE + k] == C_ATTACK:
            n += st[HAND + q * KMAX + k]
    return n


@njit(cache=True)
def give_card(st, q, kind, n):
    st[HAND + q * KMAX + kind] += n
    st[HANDN + q] += n


@njit(cache=True)
def discard(st, kind):
    st[DISC + st[DISCN]] = kind
    st[DISCN] += 1


@njit(cache=True)
def discard_from_hand(st, q, kind):
    give_card(st, q, kind, -1)
    discard(st, kind)


@njit(cache=True)
def draw(st, stream, q):
    """q draws the top card; an empty deck is first reshuffled from the discards. False: no card left."""
    if st[DECKN] == 0:
        if st[DISCN] == 0:
            return False
        for i in range(st[DISCN]):
            st[DECK + i] = st[DISC + i]
        st[DECKN] = st[DISCN]
        st[DISCN] = 0
        rng.shuffle(stream, st[DECK:DECK + DECKMAX], st[DECKN])
    st[DECKN] -= 1
    give_card(st, q, st[DECK + st[DECKN]], 1)
    return True


@njit(cache=True)
def discard_hand(st, d, q):
    for k in range(d[D_KINDS]):
        while st[HAND + q * KMAX + k] > 0:
            discard_from_hand(st, q, k)


@njit(cache=True)
def random_card(st, d, stream, q):
    """A uniformly random card of q's hand (by copies), -1 if the hand is empty."""
    n = st[HANDN + q]
    if n == 0:
        return -1
    r = rng.below(stream, n)
    for k in range(d[D_KINDS]):
        r -= st[HAND + q * KMAX + k]
        if r < 0:
            return k
    return -1


@njit(cache=True)
def draw_destiny(st, stream):
    if st[DDECKN] == 0:
        for i in range(st[DDISCN]):
            st[DDECK + i] = st[DDISC + i]
        st[DDECKN] = st[DDISCN]
        st[DDISCN] = 0
        rng.shuffle(stream, st[DDECK:DDECK + DESTMAX], st[DDECKN])
    st[DDECKN] -= 1
    c = st[DDECK + st[DDECKN]]
    st[DDISC + st[DDISCN]] = c
    st[DDISCN] += 1
    return c


@njit(cache=True)
def cards_held(st, players):
    """Every challenge-deck card: hands, set aside, deck, discards, face-down cards (invariant)."""
    n = st[DECKN] + st[DISCN]
    for q in range(players):
        n += st[HANDN + q]
        for k in range(KMAX):
            n += st[ASIDE + q * KMAX + k]
    return n + (st[OCARD] >= 0) + (st[DCARD] >= 0)


def new_state() -> np.ndarray:
    return np.zeros(ST_SIZE, np.int64)
