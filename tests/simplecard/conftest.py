"""Simple Card's position builder, the `table` fixture: a small test pool with round numbers, zones filled
by hand, and one ACT played through the game's own `engine.play_act` with the trace on.

Scripted choices are option indices (past the script's end every choice is option 0: no cast technique,
the first rank-1 hand card alone, contact A, no Change, no Bounce, go first). Option orders:
pre-scene = [proceed, then the legal techniques in the order picking, reading, balance_shift, skipping,
moving, recall]; placement = per rank-1 hand card in hand order: alone, then with its rank-2, with its
rank-3; contact = A, B, C; Change = [no, then each hand card that may be cast]; a decision with a single
option is not asked. Tables play without cast techniques unless a test enables them."""
import functools

import numpy as np
import pytest

import analyzer
from analyzer.games.simplecard import GAME
from analyzer.games.simplecard import columns as C
from analyzer.games.simplecard import decisions as D
from analyzer.games.simplecard import engine as E
from analyzer.games.simplecard import packs as K
from analyzer.games.simplecard import table as T
from analyzer.games.simplecard import view as V
from analyzer.games.simplecard.scenario import CT_NAMES, F, kernel_inputs
from analyzer.kernel import new_ctl, new_trace


def card(name, active, passive, a, b, c, rank=1):
    return {"name": name, "rank": rank, "active": active, "passive": passive, "a": a, "b": b, "c": c}


POOL = [
    card("Atk", 2, 1, 3, 1, 1),        # risk 8
    card("Def", 1, 2, 2, 2, 2),        # risk 9
    card("Bal321", 0, 0, 3, 2, 1),     # the original's first balancer example: A3 B2 C1
    card("Bal343", 0, 0, 3, 4, 3),     # the second: A and C tie for lowest at 3, B higher
    card("Zero", 0, 0, 0, 0, 0),       # a balancer with no bonus worth anything (lowest 0)
    card("Hero", 1, 1, 2, 2, 2),       # risk 8
    card("Hero", 2, 2, 5, 5, 5, rank=2),   # risk 19
    card("Hero", 3, 3, 6, 6, 6, rank=3),   # risk 24
    card("Big", 5, 5, 5, 5, 5),        # risk 25
    card("Cheap", 0, 0, 1, 0, 0),      # risk 1: cast fodder
    card("Two", 0, 0, 2, 0, 0),        # risk 2
    card("D5", 0, 2, 3, 0, 0),         # defends A with 5 (risk 5)
    card("D6", 0, 3, 3, 0, 0),         # defends A with 6 (risk 6)
]
DECKS = [{"name": "Test", "cards": {"Atk": 4, "Def": 4, "Cheap": 4, "Hero": 2, "Hero/2": 1, "Hero/3": 1}}]
A, B = 0, 1


def scenario(policies=("scripted",), script=(), seat_weights=None, restrict=None, **rules):
    """The test pool's scenario; no cast techniques unless `enabled_cts` says (their menus would take script
    entries). seat_weights {seat: {weight: value}} and restrict {seat: [restriction]}: the strong-play fields."""
    rules.setdefault("enabled_cts", [])
    frozen = tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in rules.items()))
    play = tuple((field, tuple((seat, tuple(sorted(v.items())) if isinstance(v, dict) else tuple(v))
                               for seat, v in sorted(given.items())))
                 for field, given in (("seat_weights", seat_weights), ("restrict", restrict)) if given)
    return _scenario(tuple(policies), tuple(script), frozen, play)


@functools.lru_cache(maxsize=None)
def _scenario(policies, script, frozen, play):
    rules = {f"rules.{k}": list(v) if isinstance(v, tuple) else v for k, v in frozen}
    fields = {field: {seat: dict(v) if field == "seat_weights" else list(v) for seat, v in given}
              for field, given in play}
    sets = {"cards": POOL, "decks": DECKS, "seat_decks": ["Test"], "rules.enforce_deck_size": False,
            "script": list(script), **rules, **fields}
    return analyzer.load_scenario(GAME, policy=list(policies), set=sets)


class Table:
    """Both players' zones: a Zero balancer each, B holding Cheap with Two in its deck (so that B, alone,
    can neither deck out nor Change), the rest empty; fill them, then `act(a)`."""

    def __init__(self, policies=("scripted",), script=(), seat_weights=None, restrict=None, **rules):
        self.sc = scenario(policies, script, seat_weights, restrict, **rules)
        self.inputs = kernel_inputs(self.sc)  # alive with the table: the packs below borrow them
        rules_v, enabled, cards, up, decks, seat_decks, policy, weights, restrict, script_v = self.inputs
        self.cards, self.up, self.policy, self.weights = cards, up, policy, weights
        self.tables = T.rule_tables(cards, up, rules_v)  # (mains, bonus), alive with the table
        self.keys = [c.key for c in self.sc.cards]
        self.n = np.zeros((2, T.N_FIELDS), np.int64)
        self.deck_ = np.zeros((2, D.MAX_CARDS), np.int64)
        self.hand_ = np.zeros((2, D.MAX_CARDS), np.int64)
        self.risk_ = np.zeros((2, D.MAX_CARDS), np.int64)
        self.seen = np.zeros((2, 2, len(cards)), np.int64)  # engine.seen_*: what each seat has seen of the other's
        self.at = new_ctl(1)[0]  # the control row: the script's position first (kernel.A_SCRIPT)
        self.ev0, self.tn0 = new_trace(0)  # the trace a search decision would record to (none here)
        self.stream = np.array([12345], np.uint64)
        self.view = np.zeros(V.VIEW_SIZE, np.int64)
        self.options = np.zeros((D.MAX_OPTIONS, 3), np.int64)
        self.g = np.zeros(len(C.COLUMNS.game), np.int64)
        self.s = np.zeros((2, len(C.COLUMNS.seat)), np.int64)
        self.cts = np.zeros((2, len(CT_NAMES)), np.int64)
        self.played = np.zeros((2, 1), np.int64)
        self.gs = np.zeros(3, np.int64)
        # engine.play's packs over these arrays (borrowed views: the table keeps the arrays alive)
        self.zones = K.new_zones(self.n, self.deck_, self.hand_, self.risk_, self.seen)
        self.data = K.new_data(rules_v, enabled, cards, up, *self.tables)
        self.pol = K.new_policy(policy, weights, restrict, script_v, self.at, self.stream, self.view, self.options,
                                self.ev0, self.tn0, np.int64(0))
        self.rows = K.new_rows(self.g, self.s, self.cts, self.played)
        for p in (A, B):
            self.balancer(p, "Zero")
        self.hand(B, "Cheap").deck(B, "Two")

    def id(self, key):
        return self.keys.index(key)

    def names(self, ids):
        return [self.keys[c] if c >= 0 else f"down:{self.keys[-1 - c]}" for c in ids]

    # -- building ---------------------------------------------------------------------------------
    def hand(self, p, *keys):
        self.n[p, T.N_HAND] = len(keys)
        self.hand_[p, :len(keys)] = [self.id(k) for k in keys]
        return self

    def deck(self, p, *keys):
        """keys[0] is the top card."""
        self.n[p, T.N_DECK] = len(keys)
        self.deck_[p, :len(keys)] = [self.id(k) for k in reversed(keys)]
        return self

    def balancer(self, p, key):
        self.n[p, T.N_BAL] = self.id(key)
        return self

    def main(self, p, key, height=1, face_up=True):
        self.n[p, T.N_MAIN_BASE], self.n[p, T.N_MAIN_H], self.n[p, T.N_MAIN_UP] = self.id(key), height, face_up
        return self

    def risk(self, p, *keys, points=None):
        """Face-up cards in p's Risk; `points` sets the total directly (a Risk of that many points)."""
        self.n[p, T.N_RISK_N] = len(keys)
        self.risk_[p, :len(keys)] = [self.id(k) for k in keys]
        self.n[p, T.N_RISK_PTS] = sum(self.cards[self.id(k), F.RISK] for k in keys) if points is None else points
        return self

    # -- playing ----------------------------------------------------------------------------------
    def act(self, a):
        """Seat a plays one ACT; returns the trace lines (its records: `events`)."""
        ev, tn = new_trace(1000)
        E.play_act(a, self.zones, self.data, self.pol, self.rows, self.gs, ev, tn, np.int64(1000))
        self.events = ev[: tn[0]]
        return GAME.describe(self.sc, self.events)

    def records(self, kind):
        """The last ACT's trace records of this kind (E.E_...): rows (kind, seat, a, b, c)."""
        return [tuple(int(x) for x in r) for r in self.events if r[0] == kind]

    def finish(self, a):
        """The game's end after seat a's ACT: (winners, losers, simultaneous)."""
        ev, tn = new_trace(100)
        E.finish(self.zones, self.data, self.gs, a, self.g, self.s, ev, tn, np.int64(100))
        return (self.s[:, E.S.IS_WINNER].tolist(), self.s[:, E.S.LOST].tolist(), int(self.g[E.G.SIMULTANEOUS]))

    # -- reading ----------------------------------------------------------------------------------
    @property
    def over(self):
        return bool(self.gs[E.GS_OVER])

    def hand_of(self, p):
        return self.names(self.hand_[p, :self.n[p, T.N_HAND]])

    def deck_of(self, p):
        """Top card first."""
        return self.names(self.deck_[p, :self.n[p, T.N_DECK]][::-1])

    def risk_of(self, p):
        return self.names(self.risk_[p, :self.n[p, T.N_RISK_N]])

    def main_of(self, p):
        if self.n[p, T.N_MAIN_H] == 0:
            return None
        return (self.keys[self.n[p, T.N_MAIN_BASE]], int(self.n[p, T.N_MAIN_H]), bool(self.n[p, T.N_MAIN_UP]))

    def points(self, p):
        return int(self.n[p, T.N_RISK_PTS])

    def balancer_of(self, p):
        return self.keys[self.n[p, T.N_BAL]]


@pytest.fixture
def table():
    """The position builder: `table(policies=..., script=..., **rules)` is a Table, fill its zones, then act."""
    return Table
