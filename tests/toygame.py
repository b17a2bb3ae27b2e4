"""A tiny dice game that exercises the framework (runner, parquet, CLI, replay) without any real
game's rules: each seat rolls `rolls` dice, the highest total wins, ties share."""
from pathlib import Path

import numpy as np
from numba import njit

from analyzer import rng
from analyzer.games.base import Batch, Game
from analyzer.scenario import ScenarioBase, Strict


class ToyRules(Strict):
    rolls: int = 3
    edge: int = 0  # points added to seat 0's total: a tunable seat advantage


class ToyScenario(ScenarioBase):
    POLICIES = ("plain",)
    rules: ToyRules = ToyRules()


@njit(cache=True, nogil=True)
def _play(seed, ids, players, rolls, trace, events):
    n = len(ids)
    score = np.zeros((n, players), np.int16)
    k = 0
    for g in range(n):
        s = rng.new_stream(seed, ids[g])
        for _ in range(rolls):
            for p in range(players):
                d = rng.below(s, 6) + 1
                score[g, p] += d
                if trace:
                    events[k, 0] = p
                    events[k, 1] = d
                    k += 1
    return score, k


class Toy(Game):
    kernel_releases_gil = True
    name = "toy"
    title = "Toy dice race"
    Scenario = ToyScenario
    length_unit = "rolls"
    columns = {"top": "the best total"}
    scenario_dir = Path(__file__).parent / "data" / "toy"

    def run_batch(self, scenario, seed, game_ids, trace=False):
        rolls, players = scenario.rules.rolls, scenario.players
        events = np.zeros((rolls * players if trace else 1, 2), np.int32)
        score, k = _play(seed, game_ids, players, rolls, trace, events)
        score[:, 0] += scenario.rules.edge
        top = score.max(axis=1)
        return Batch(is_winner=score == top[:, None], score=score, length=np.full(len(game_ids), rolls, np.int16),
                     extra={"top": top}, events=events[:k] if trace else None)

    def describe(self, scenario, events, searched=None):
        return [f"seat {p} rolls {d}" for p, d in events]

    def report(self, df, meta, out):
        from analyzer.reporting import Report
        rep = Report("Toy", meta, df.height)
        rep.section("Nothing", "toy")
        return rep.write(out)


GAME = Toy()
