"""`analyzer tune`: find the setting of a scenario's `tune:` block that best meets a target.

Candidates are the grid of the block's values (a seeded sample of it when the grid is large, always with
the scenario's own setting). Successive halving: every candidate plays n games, the better half plays
twice as many, and so on until one is left; every candidate plays games 0..k-1 of the same seed (common
random numbers), so a round ranks the settings, not the luck of their games. The winner is then confirmed
against the scenario as given on fresh games (another seed): the search's own numbers are biased in the
winner's favour (it won because its games were lucky, too). It is proposed only when its loss there lies
significantly below the scenario's own (a paired bootstrap over the fresh games); otherwise the answer is
that nothing in the space beats the scenario as given at this n.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Callable

import numpy as np

from . import stats, variants
from .errors import UserError
from .sweep import grid

TARGETS = {
    "position-fairness": "every turn position wins its fair share (smallest sum of squared distances of the "
                         "positions' win rates from their mean)",
    "faction-fairness": "every faction wins its fair share (same, over the factions' win rates)",
    "score-spread": "the smallest gap between the best and the worst seat's score",
    "length": "mean game length closest to --goal",
}
TARGET_GROUP = {"position-fairness": "position_win_rate", "faction-fairness": "faction_win_rate",
                "score-spread": "score_spread", "length": "length"}


def check_target(game, target: str, goal: float | None) -> None:
    if target not in TARGETS:
        raise UserError(f"--target {target!r}: choose from {', '.join(TARGETS)}")
    if TARGET_GROUP[target] not in game.measure_groups():
        raise UserError(f"--target {target}: {game.name} has no factions")
    if target == "length" and goal is None:
        raise UserError("--target length: give the wanted mean length with --goal")
    if target != "length" and goal is not None:
        raise UserError(f"--goal {goal:g}: only with --target length (the wanted mean length); --target {target} has no goal")


def objective(game, target: str, df, scenario, goal: float | None = None) -> float:
    """The target's loss on one run: smaller is better."""
    return float(_loss(target, np.array([m.value for m in _target_measures(game, target, df, scenario)]), goal))


def _target_measures(game, target: str, df, scenario) -> list:
    return [m for m in game.measures(df, scenario) if m.group == TARGET_GROUP[target]]


def _loss(target: str, values: np.ndarray, goal: float | None):
    """The loss of the target's measures (last axis), for one run or a stack of bootstrap replicates."""
    if target in ("position-fairness", "faction-fairness"):
        return ((values - values.mean(axis=-1, keepdims=True)) ** 2).sum(axis=-1)
    if target == "length":
        return np.abs(values[..., 0] - goal)
    return values[..., 0]


@dataclass(frozen=True)
class Confirmation:
    """The search's winner against the scenario as given, on the same fresh games."""
    given: float          # the scenario as given: its loss
    best: float           # the winner's loss
    diff: stats.Estimate  # best - given, with a paired 95% bootstrap interval over the games

    @property
    def better(self) -> bool:
        """The winner's loss lies significantly below the scenario's own (the whole interval below 0)."""
        return self.diff.hi < 0


def confirm(game, target: str, given_df, given_sc, best_df, best_sc, goal: float | None = None,
            boot: int = 1000, seed: int = 0) -> Confirmation:
    """Compare two runs of the same games by the target's loss: percentile interval of the paired difference,
    resampling games (each game's weight Poisson(1), the same weights for both runs)."""
    a = {m.label: m for m in _target_measures(game, target, given_df, given_sc)}
    b = {m.label: m for m in _target_measures(game, target, best_df, best_sc)}
    labels = [k for k in a if k in b]  # a faction dealt in one run only has no rate in the other
    num = np.column_stack([*(a[k].num for k in labels), *(b[k].num for k in labels)])
    den = np.column_stack([*(a[k].den for k in labels), *(b[k].den for k in labels)])
    k, rng, diffs = len(labels), np.random.default_rng(seed), []
    for start in range(0, boot, 50):  # 50 replicates at a time: a (50, games) weight matrix
        w = rng.poisson(1.0, size=(min(50, boot - start), num.shape[0])).astype(float)
        with np.errstate(invalid="ignore", divide="ignore"):
            values = (w @ num) / (w @ den)
        diffs.append(_loss(target, values[:, k:], goal) - _loss(target, values[:, :k], goal))
    d = np.concatenate(diffs)
    d = d[np.isfinite(d)]
    given = float(_loss(target, np.array([a[x].value for x in labels]), goal))
    best = float(_loss(target, np.array([b[x].value for x in labels]), goal))
    lo, hi = np.percentile(d, [2.5, 97.5]) if d.size else (float("nan"), float("nan"))
    return Confirmation(given, best, stats.Estimate(best - given, float(lo), float(hi), given_df.height))


def set_flags(sets: dict) -> str:
    """The overrides as ready-to-paste command-line flags: --set rules.x=1 --set rules.y=[1,2]."""
    import json
    import shlex
    return " ".join(f"--set {shlex.quote(f'{k}={v if isinstance(v, str) else json.dumps(v)}')}" for k, v in sets.items())


def own_setting(base, keys) -> dict:
    """The scenario's own values of the searched fields."""
    return {k: _current(base, k) for k in keys}


def candidates(base, space: dict[str, list], limit: int, seed: int) -> list[dict]:
    """The grid of `space`, or the scenario's own setting plus a seeded sample of limit - 1 grid points."""
    points = grid(space)
    own = own_setting(base, space)
    if len(points) <= limit:
        return points if own in points else [own, *points]
    rest = [p for p in points if p != own]
    return [own, *random.Random(seed).sample(rest, limit - 1)]


def _current(base, key: str):
    node = base.model_dump(mode="json")
    for part in key.split("."):
        node = node[int(part)] if isinstance(node, list) else node.get(part) if isinstance(node, dict) else None
    return node


def schedule(k: int, n: int) -> list[tuple[int, int]]:
    """(candidates, games each) per round: halving the field while doubling the games, down to one."""
    rounds = [(k, n)]
    while rounds[-1][0] > 1:
        left, games = rounds[-1]
        rounds.append((math.ceil(left / 2), 2 * games))
    return rounds[:-1] if len(rounds) > 1 else rounds


@dataclass
class TuneResult:
    best: dict
    history: list[list[tuple[dict, float]]]  # per round: (candidate, loss) best first
    games: int


def successive_halving(game, base, points: list[dict], target: str, n: int, seed: int, jobs: int = 1,
                       goal: float | None = None, on_progress: Callable[[int], None] | None = None,
                       on_round: Callable[[int, list[tuple[dict, float]]], None] | None = None) -> TuneResult:
    def losses(alive: list[dict], games: int) -> list[float]:
        runs = variants.play(game, base, [variants.Variant(str(i), p) for i, p in enumerate(alive)], games, seed, jobs,
                             on_progress)
        return [objective(game, target, df, variants.scenario_of(game, base, p), goal)
                for p, df in zip(alive, runs.values(), strict=True)]
    return halving(points, n, losses, on_round)


def halving(points: list, n: int, losses: Callable[[list, int], list[float]],
            on_round: Callable[[int, list[tuple]], None] | None = None, runs_each: int = 1) -> TuneResult:
    """Successive halving over any candidates (scenario overrides here, weights in analyzer.train).
    `losses(alive, games)` plays every candidate still alive on the same games 0..games-1 and returns
    their losses (smaller is better); `runs_each` is how many runs of that many games one candidate costs."""
    alive, history, played = list(points), [], 0
    for r, (_, games) in enumerate(schedule(len(points), n)):
        scored = sorted(zip(alive, losses(alive, games), strict=True), key=lambda x: x[1])
        history.append(scored)
        played += games * len(alive) * runs_each
        if on_round:
            on_round(r, scored)
        alive = [p for p, _ in scored[: math.ceil(len(scored) / 2)]]
    return TuneResult(history[-1][0][0], history, played)


def total_games(k: int, n: int) -> int:
    return sum(c * g for c, g in schedule(k, n))
