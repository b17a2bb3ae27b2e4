"""Simply Cosmic's one position builder: `Pos`, a table to play one turn on, driven through the game's own
turn (engine.play_turn_on) with the scripted policy; tests get it and its shorthands as fixtures.

Positions: seat q's home planets are 5q..5q+4. Unless a test says otherwise each player holds one home
base (4 tokens on planet 5q), so every power is off (fewer than 3 home bases) and most decisions have
a single legal option (the script lists only real choices, in game order; past its end: option 0).
"""
import numpy as np
import pytest

import analyzer
from analyzer.games.cosmic import GAME
from analyzer.games.cosmic import engine as E
from analyzer.games.cosmic import state as L
from analyzer.games.cosmic.columns import COLUMNS
from analyzer.games.cosmic.scenario import card_table, kernel_inputs
from analyzer.games.cosmic.state import R
from analyzer.kernel import new_trace

ALIENS = ["Filch", "Warpish", "Loser", "Laser"]
DESTINY = {"reg": L.DT_REGULAR, "rev": L.DT_REVERSE, "wild": L.DT_WILD, "most": L.DT_MOST_BASES,
           "left": L.DT_LEFT, "outage": L.DT_OUTAGE, "tenacious": L.DT_TENACIOUS}


class Position:
    """A table to play one turn on: tokens, Warp, hands, deck and destiny deck as a test sets them."""

    def __init__(self, players=2, aliens=ALIENS, policies=("scripted",), **rules):
        sets = {"aliens.assignment": "fixed", "aliens.fixed": list(aliens[:players]),
                **{f"rules.{k}": v for k, v in rules.items()}}
        self.sc = analyzer.load_scenario(GAME, players=players, policy=list(policies), set=sets)
        self.d, self.pol, self.weights, self.restrict, _ = kernel_inputs(self.sc)
        self.types, self.vals, self.copies = card_table(self.sc.deck)
        self.players = players
        self.st = L.new_state()
        for name in ("shown_o", "shown_d", "ocard", "dcard", "seen_who", "def", "system", "planet"):
            self.field(name)[:] = -1
        self.field("alien")[:players] = L.RULES.field(self.d, "alien")[:players]
        for q in range(players):
            self.set_tokens(5 * q, q, 4)

    def judgement(self, policy="heuristic", **weights):
        """The weights row of `policy` (its defaults, with these changed): what policies.decide reads."""
        return np.array([weights.get(w.name, w.default) for w in self.sc.WEIGHTS[policy]], np.float64)

    def field(self, name):
        """One field of the state by name, in its declared shape (state.STATE; writing it writes the state)."""
        return L.STATE.field(self.st, name)

    def __repr__(self):  # a failing test's position, field by field
        return L.STATE.format(self.st)

    def kind(self, card: str) -> int:
        """'A10' attack 10, 'C' compromise, 'R3' reinforcement +3, 'E:cosmic_zap' an edict, 'F:Warpish' a flare."""
        if card == "C":
            t, v = L.C_COMPROMISE, 0
        elif card[:2] == "E:":
            t, v = L.C_EDICT, L.EDICT_NAMES.index(card[2:])
        elif card[:2] == "F:":
            t, v = L.C_FLARE, L.ALIEN_NAMES.index(card[2:])
        else:
            t, v = {"A": L.C_ATTACK, "R": L.C_REINF}[card[0]], int(card[1:])
        return int(np.flatnonzero((self.types == t) & (self.vals == v))[0])

    def set_tokens(self, planet, q, n):
        self.field("tok")[planet, q] = n
        return self

    def tokens(self, planet, q):
        return int(self.field("tok")[planet, q])

    def warp(self, q, n=None):
        if n is not None:
            self.field("warp")[q] = n
        return int(self.field("warp")[q])

    def give(self, q, kind):
        self.field("hand")[q, kind] += 1
        self.field("handn")[q] += 1

    def hand(self, q, *cards):
        for c in cards:
            self.give(q, self.kind(c))
        return self

    def held(self, q, card=None):
        if card is None:
            return int(self.field("handn")[q])
        return int(self.field("hand")[q, self.kind(card)])

    def deal_at_random(self, rng):
        """The opening table: 4 tokens on every home planet, 7 cards each from the shuffled deck, the rest
        as the deck."""
        cards = [k for k in range(int(self.d[R.KINDS])) for _ in range(int(self.copies[k]))]
        rng.shuffle(cards)
        for q in range(self.players):
            for k in range(5):
                self.set_tokens(5 * q + k, q, 4)
            for _ in range(7):
                self.give(q, cards.pop())
        self.field("deck")[:len(cards)] = cards
        self.field("deckn")[0] = len(cards)
        return self

    def deck(self, *cards):
        """The challenge deck, first card drawn first."""
        self.field("deck")[:len(cards)] = [self.kind(c) for c in reversed(cards)]
        self.field("deckn")[0] = len(cards)
        return self

    def destiny(self, *cards):
        """The destiny deck, first card drawn first: 'reg1' (regular, colour 1), 'rev0', 'wild', 'outage', ..."""
        for i, c in enumerate(reversed(cards)):
            name = c.rstrip("0123456789")
            self.field("ddeck")[i] = DESTINY[name] * 8 + int(c[len(name):] or 0)
        self.field("ddeckn")[0] = len(cards)
        return self

    def turn(self, p=0, script=(), seed=1, policy=None):
        """Seat p plays one turn; returns the trace lines. Counters: self.g, self.s."""
        self.g, self.s = (a[0] for a in COLUMNS.allocate(1, self.players))
        ev, tn = new_trace(10_000)
        pol = self.pol if policy is None else np.array(policy, np.int64)
        self.won = E.play_turn_on(self.st, self.d, pol, self.weights, self.restrict, np.array(script, np.int64), seed, p,
                                  self.g, self.s, ev, tn, np.int64(10_000))
        self.ev = ev[: tn[0]]
        self.lines = GAME.describe(self.sc, self.ev)
        return self.lines

    def events(self, kind):
        """The turn's trace records of one kind (context.E_*): (seat, a, b, c) each, in order."""
        return [tuple(int(x) for x in row[1:5]) for row in self.ev if row[0] == kind]

    def said(self, text):
        return any(text in line for line in self.lines)


def attack(off_card="A10", def_card="A6", players=2, **rules):
    """Seat 0 attacks seat 1 (destiny: colour 1) with one challenge card each."""
    return Position(players, **rules).hand(0, off_card).hand(1, def_card).destiny("reg1")


def home3(pos, q, planets=(1, 2)):
    """Give seat q more home bases (1 token on each of the given planets of its system)."""
    for k in planets:
        pos.set_tokens(5 * q + k, q, 1)
    return pos


def duel(aliens, off_cards, def_cards, players=2, **rules):
    """Seat 0 (aliens[0]) attacks seat 1 (aliens[1]) holding the given cards (destiny: colour 1)."""
    return Position(players, aliens=aliens, **rules).hand(0, *off_cards).hand(1, *def_cards).destiny("reg1")


# Tests take the builder and its shorthands as fixtures (they import nothing from another test file).
@pytest.fixture(name="Pos")
def pos_fixture():
    """Pos(players=2, aliens=..., policies=("scripted",), **rules): an empty table to build on."""
    return Position


@pytest.fixture(name="attack_position")
def attack_position_fixture():
    return attack


@pytest.fixture(name="home3")
def home3_fixture():
    return home3


@pytest.fixture(name="duel")
def duel_fixture():
    return duel
