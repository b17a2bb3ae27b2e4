"""Space Base's position builder for every test of this folder: the `position` fixture is the
`Position` class, so a test builds as many positions as it needs (`position(players=3)`)."""
import numpy as np
import pytest

from analyzer.games.spacebase import GAME
from analyzer.games.spacebase import engine as E
from analyzer.games.spacebase import layout as L
from analyzer.games.spacebase.scenario import card_list
from analyzer.games.spacebase.state import ST
from analyzer.rng import below
from analyzer.scenario import load


def stream_rolling(d1, d2):
    """A random-stream state whose next two dice are d1 and d2."""
    for x in range(1, 100_000):
        st = np.array([x], np.uint64)
        if below(st, 6) + 1 == d1 and below(st, 6) + 1 == d2:
            return x
    raise AssertionError("no stream found")


class Position:
    """A position: every player has its 12 starting ships, 0 credits; displays dealt (seed). With
    market=False the market is empty instead (no ships on display, empty decks, no colonies, round 1),
    for whole turns where a test offers the cards; `turn(a, d1, d2)` plays seat a's turn with those
    dice rolled."""

    def __init__(self, players=4, sets=(), policies=None, seed=0, market=True):
        self.sc = load(GAME, players=players, sets=list(sets), policies=policies)
        self.D = GAME.inputs(self.sc)
        self.st = E.new_state(self.D)
        E.reset(self.D, self.st, seed, 0)
        self.a = E.state_arrays(self.D, self.st)
        self.cards = card_list(self.sc)
        self.idx = {c.id: i for i, c in enumerate(self.cards)}
        self.P = players
        for p in range(players):
            E.refresh(self.D, self.st, p)
        if not market:
            self.DISP[:, :] = -1
            self.DP[:, 1] = 0
            self.COLAV[:] = 0
            self.v[ST.ROUND] = 1

    def __getattr__(self, name):  # PS, BD, CUBES, G, DISP ... as numpy arrays sharing the state
        if name in self.__dict__.get("a", {}):
            return self.a[name]
        raise AttributeError(name)

    def put(self, p, cid, cubes=0):
        """Card cid stationed in its sector on p's board (the card there is deployed behind it)."""
        c = self.idx[cid]
        E.station(self.D, self.st, p, c)
        self.CUBES[p, c] = cubes
        E.refresh(self.D, self.st, p)
        return c

    def deploy(self, p, cid, cubes=0):
        """Card cid deployed in its sector on p's board, behind the card stationed there."""
        c = self.idx[cid]
        E.deploy(self.D, self.st, p, self.cards[c].sector, c)
        self.CUBES[p, c] = cubes
        E.refresh(self.D, self.st, p)
        return c

    def offer(self, cid):
        """Put ship cid face up in the first free display slot of its level; returns the slot code."""
        c = self.idx[cid]
        lv = self.cards[c].level - 1
        j = int(np.flatnonzero(self.DISP[lv] < 0)[0])
        self.DISP[lv, j] = c
        return lv * self.sc.rules.display_size + j

    def offer_colony(self, sector):
        q = next(q for q, c in enumerate(self.sc.cards.colonies) if c.sector == sector)
        self.COLAV[q] = 1
        return q

    def turn(self, a, d1, d2):
        self.rng[0] = stream_rolling(d1, d2)
        E.play_turn(self.D, self.st, a)

    def cred(self, p):
        return int(self.PS[p, L.PL.CRED])

    def vp(self, p):
        return int(self.PS[p, L.PL.VP])

    def inc(self, p):
        return int(self.PS[p, L.PL.INC])

    def station_of(self, p, s):
        return int(self.BD[p, s, L.B_STATION])

    def deployed(self, p, s):
        return [int(x) for x in self.DEP[p, s, :self.BD[p, s, L.B_NDEP]]]


@pytest.fixture
def position():
    """The position builder (a class: call it for each position a test needs)."""
    return Position


@pytest.fixture
def rolling():
    """stream_rolling: the stream state whose next two dice are the ones asked for."""
    return stream_rolling
