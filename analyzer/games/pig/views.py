"""Pig's view check for the game contract (Game.views): Pig hides no card, only the die stream's future,
so a position is every seat's roll-or-hold decision at several turn totals, and the re-deal is another
stream. Random draws its choices from that same stream: it is the one policy left unchecked."""
from dataclasses import dataclass

import numpy as np

from ...kernel import plain_ask
from . import policies as P
from . import view as V
from .decisions import HOLD, ROLL

UNCHECKED = {"random": "draws its choices from the die stream, the hidden future re-dealt here"}
TURN_TOTALS = (2, 5, 12, 19, 20, 30, 60)


@dataclass
class Position:
    sc: object
    score: np.ndarray
    stream: np.ndarray  # the die stream's state: the game's future, seen by no seat


def position(sc, seed: int) -> Position:
    g = np.random.default_rng(seed)
    score = g.integers(0, sc.rules.target, sc.players).astype(np.int64)
    return Position(sc, score, np.array([g.integers(1, 2**62)], np.uint64))


def decisions(pos: Position) -> list:
    options, view = np.array([ROLL, HOLD], np.int64), np.zeros(2 + pos.sc.players, np.int64)
    codes, weights, script = pos.sc.policy_codes(), pos.sc.weight_rows(), pos.sc.script_codes()
    out = []
    for p in range(pos.sc.players):
        for turn_total in TURN_TOTALS:
            V.fill_view(view, p, turn_total, pos.sc.rules.target, pos.score)
            stream = pos.stream.copy()  # the decision may draw from it; the position stays as found
            out.append((p, turn_total, int(P.decide(codes[p], view, options, 2, stream, script, plain_ask(),
                                                    weights[p]))))
    return out


def hidden(pos: Position) -> np.ndarray:
    return pos.stream.copy()


def redeal(pos: Position, g: np.random.Generator) -> None:
    pos.stream[0] = g.integers(1, 2**62)
