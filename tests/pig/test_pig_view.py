"""Pig's view test, the pattern every game repeats: re-deal what the deciding player cannot know
(here the die stream's future) consistently with their view, and the decision must not change."""
import numpy as np

from analyzer import kernel, rng
from analyzer.games.pig import policies as P
from analyzer.games.pig import view as V
from analyzer.games.pig.decisions import HOLD, ROLL


def test_a_decision_depends_only_on_the_players_view():
    score = np.array([40, 75, 12], np.int64)
    view = np.zeros(5, np.int64)
    options = np.array([ROLL, HOLD], np.int64)
    for turn_total in (5, 19, 20, 30):
        V.fill_view(view, 1, turn_total, 100, score)
        picks = {int(P.decide(P.HOLD_AT, view, options, 2, rng.new_stream(seed, 0), np.zeros(0, np.int64),
                              kernel.plain_ask(), np.array([20.0]))) for seed in range(20)}
        assert len(picks) == 1  # twenty different futures, one decision
        assert options[picks.pop()] == (HOLD if turn_total >= 20 or 75 + turn_total >= 100 else ROLL)


def test_the_view_is_seen_from_the_deciding_seat():
    view = np.zeros(5, np.int64)
    V.fill_view(view, 2, 7, 100, np.array([1, 2, 3], np.int64))
    assert view.tolist() == [7, 100, 3, 1, 2]  # own score first, then the players after them in turn order
