"""Simply Cosmic's view check for the game contract (Game.views): a seat sees the public block of the state
(the table, the Warp, the challenge so far, the cards shown, every hand's size), its own hand, its own
face-down card and, for Mind, the hand it saw; the other hands, the challenge deck's order and the destiny
deck's order are hidden.

A position is a seeded opening deal (engine.deal_table) played a few turns on by the scenario's policies
(engine.play_turn_on), with the deciding seat Filch or Mind (and the next aliens beside it), then a
plausible challenge laid over it: seat 0 attacks planet 5 with two tokens, both cards shown, a flare just
played. Its decisions are every decision point a seat can face there, each asked of the deciding seat's
policy on the same random stream; the re-deal shuffles every card that seat cannot see and deals the other
hands again, each its size."""
import numpy as np

from ... import rng as R_
from ...kernel import new_trace, plain_ask
from . import decisions as D
from . import engine as E
from . import policies as P
from . import state as L
from . import view as V
from .context import COLUMNS
from .scenario import card_table, kernel_inputs
from .state import ST, R

UNCHECKED: dict[str, str] = {}  # random draws from a stream each ask starts afresh, which no re-deal touches
ASK_STREAM = 12345  # the run each ask's stream comes from: decisions differ only by what they see
TURNS = 3           # turns played before the position is taken


class Position:
    def __init__(self, sc, seed: int):
        self.sc, self.P = sc, sc.players
        self.d, self.pol, self.weights, self.restrict, _ = kernel_inputs(sc)
        self.types = card_table(sc.deck)[0]
        self.seat = seed % self.P  # the deciding seat
        self.st = np.zeros(L.STATE_SIZE, np.int64)
        E.deal_table(self.st, self.d, R_.new_stream(seed, 0))
        for q in range(self.P):  # the deciding seat is Filch (even seeds) or Mind (odd), who saw a hand
            self.st[ST.ALIEN + q] = (4 * seed + q - self.seat) % len(L.ALIEN_NAMES)
        g, s = (a[0] for a in COLUMNS.allocate(1, self.P))
        ev, tn = new_trace(0)
        for t in range(TURNS):
            if E.play_turn_on(self.st, self.d, self.pol, self.weights, self.restrict, np.zeros(0, np.int64),
                              seed * 10 + t, t % self.P, g, s, ev, tn, np.int64(0)):
                break
        self._lay_a_challenge()

    def _lay_a_challenge(self):
        st = self.st
        attack = int(np.flatnonzero(self.types == L.C_ATTACK)[3])
        st[ST.OFF], st[ST.DEF], st[ST.SYSTEM], st[ST.PLANET] = 0, 1, 1, 5
        st[ST.OCONE] = 2
        st[ST.SHOWN_O] = st[ST.SHOWN_D] = attack
        st[ST.PLAYED_BY], st[ST.PLAYED_KIND], st[ST.PLAYED_ARG] = 2 % self.P, int(np.flatnonzero(self.types == L.C_FLARE)[0]), 1

    def hand_of(self, q: int) -> np.ndarray:
        return self.st[ST.HAND + q * L.KMAX:ST.HAND + (q + 1) * L.KMAX]

    def others(self) -> list[int]:
        return [q for q in range(self.P) if q != self.seat]


def position(sc, seed: int) -> Position:
    return Position(sc, seed)


def decision_points(pos: Position) -> list[tuple[int, int, list[int]]]:
    """(kind, arg, options) of every decision a seat may face in this challenge, its own cards as options."""
    hand = [k for k in range(int(pos.d[R.KINDS])) if pos.hand_of(pos.seat)[k] > 0]
    challenge = [k for k in hand if L.is_challenge_card(pos.d, k)]
    plays = [D.PLAY_PASS] + [k * D.PLAY_ARGS + s for k in hand for s in (0, 1)]
    points = [(D.D_ANSWER, 0, [0, 1, 2]), (D.D_CONE, 0, [1, 2, 3, 4]), (D.D_TARGET, 0, list(range(5, 10))),
              (D.D_DEAL, 0, [0, 1, 2, 3]), (D.D_ACCEPT, 1, [0, 1]), (D.D_REWARD, 0, [0, 1]),
              *[(D.D_PLAY, w, plays) for w in range(6)], (D.D_SECOND, 0, [0, 1]), (D.D_CARD_ZAP, 0, [0, 1]),
              (D.D_COSMIC_ZAP, 0, [0, 1]), (D.D_HOME, 0, list(range(0, 20, 3)))]
    if len(challenge) > 1:
        points += [(D.D_CARD, 0, challenge), (D.D_DISCARD, 0, challenge)]
    return points


def decisions(pos: Position) -> list:
    """Every decision point's choice by the deciding seat's policy, each on the same stream (policies read the
    state, never write it)."""
    p, st = pos.seat, pos.st
    view = np.zeros(V.VIEW_SIZE, np.int64)
    out = []
    for kind, arg, options in decision_points(pos):
        opts = np.array(options, np.int64)
        V.fill_view(view, st, pos.d, p, kind, arg)
        k = P.decide(pos.pol[p], st[:L.PUB_END], view, V.own_hand(st, p), opts, len(opts), R_.new_stream(ASK_STREAM, 0),
                     np.zeros(0, np.int64), plain_ask(), pos.d, pos.weights[p])
        out.append((kind, arg, int(opts[k])))
    return out


def hidden(pos: Position) -> np.ndarray:
    """The other hands, the challenge deck and the destiny deck, in order, as the deciding seat cannot see them."""
    st = pos.st
    return np.concatenate([*(pos.hand_of(q) for q in pos.others()), st[ST.DECK:ST.DECK + int(st[ST.DECKN])],
                           st[ST.DDECK:ST.DDECK + int(st[ST.DDECKN])]])


def redeal(pos: Position, rng: np.random.Generator) -> None:
    """Every card the deciding seat cannot see shuffled and dealt again, each other hand its size; the
    destiny deck reshuffled."""
    st = pos.st
    pool = [int(k) for k in st[ST.DECK:ST.DECK + int(st[ST.DECKN])]]
    for q in pos.others():
        pool += [k for k in range(L.KMAX) for _ in range(int(pos.hand_of(q)[k]))]
        pos.hand_of(q)[:] = 0
    rng.shuffle(pool)
    for q in pos.others():
        for _ in range(int(st[ST.HANDN + q])):
            pos.hand_of(q)[pool.pop()] += 1
    st[ST.DECK:ST.DECK + len(pool)] = pool
    rng.shuffle(st[ST.DDECK:ST.DDECK + int(st[ST.DDECKN])])
