"""Pig's position builder: scores, the seat to move and the dice that seat will roll, played through
the game's own turn (engine.play_turn), so a rule can be tested at any score without searching for a
game that happens to reach it."""
from dataclasses import dataclass, field

import numpy as np
import pytest

import analyzer
from analyzer import kernel, rng
from analyzer.games import get
from analyzer.games.pig import columns as C
from analyzer.games.pig import engine as E

PIG = get("pig")


def dice_of(seed, game_id, count):
    s = rng.new_stream(seed, game_id)
    return [int(rng.below(s, C.FACES)) + 1 for _ in range(count)]


@dataclass
class Position:
    """Seat `seat` to move with `scores`; its next rolls are `dice` (a stream is found that rolls them)."""
    scores: list[int]
    seat: int = 0
    dice: list[int] = field(default_factory=list)
    target: int = 100
    seed: int = 5

    def stream_id(self) -> int:
        return next(g for g in range(100_000) if dice_of(self.seed, g, len(self.dice)) == self.dice)

    def turn(self, policy="scripted", script=(), weights=None, restrict=()):
        """Play the seat's turn: (won, scores after, trace records as (kind, seat, a, b)), with `script`
        naming choices (decisions.ROLL / HOLD), `weights` a {name: value} of the seat's policy, and
        `restrict` restriction names of the seat."""
        players = len(self.scores)
        sc = analyzer.load_scenario(PIG, players=players, policy=[policy], set={
            "script": list(script), "rules.target": self.target,
            **({f"seat_weights.{self.seat}": weights} if weights else {}),
            **({"restrict": {self.seat: list(restrict)}} if restrict else {})})
        score = np.array(self.scores, np.int64)
        ev, tn = kernel.new_trace(1000)
        s = np.zeros((players, len(C.COLUMNS.seat)), np.int64)
        won = E.play_turn(self.seat, np.int64(self.target), score, rng.new_stream(self.seed, self.stream_id()),
                          sc.policy_codes(), sc.weight_rows(), sc.restrict_masks(), sc.script_codes(),
                          (kernel.new_ctl(1)[0], ev, tn, np.int64(1000)), np.zeros(2, np.int64), np.zeros(2, np.bool_),
                          np.zeros(2 + players, np.int64), s, np.zeros((players, C.FACES), np.int64), ev, tn, np.int64(1000))
        return bool(won), score.tolist(), [tuple(int(x) for x in r[:4]) for r in ev[: tn[0]]], s


@pytest.fixture
def position():
    """The builder: position(scores=[95, 10], dice=[3, 4]).turn(script=[ROLL, HOLD])."""
    return Position
