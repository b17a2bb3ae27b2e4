"""Sweeps and tuning: run a scenario under several values of one or more fields and compare turn positions.

`sweep` plays the same seeded games under each value (common random numbers: game i uses the same
stream under every value, so differences between values are not drowned by game-to-game noise).
`tune` searches a game's discrete tuning space by coordinate descent for the values that bring
every turn position closest to a fair share of the wins.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any, Callable

import polars as pl

from . import api, positions, stats
from .scenario import apply_override, validate


def with_values(game, base, values: dict[str, Any]):
    data = copy.deepcopy(base.model_dump(mode="json"))
    for key, value in values.items():
        apply_override(data, key, value)
    return validate(game.Scenario, data, "sweep " + ", ".join(f"{k}={v!r}" for k, v in values.items()))


@dataclass
class SweepRow:
    values: dict
    df: pl.DataFrame

    def position_estimates(self) -> list[stats.Estimate]:
        return positions.win_estimates(self.df)


def sweep(game, base, key: str, values: list, n: int, seed: int, jobs: int = 2,
          on_value: Callable[[Any], None] | None = None) -> list[SweepRow]:
    rows = []
    for v in values:
        if on_value:
            on_value(v)
        sc = with_values(game, base, {key: v})
        rows.append(SweepRow({key: v}, api.sim(game, n=n, seed=seed, scenario=sc, jobs=jobs)))
    return rows


def sweep_frame(rows: list[SweepRow]) -> pl.DataFrame:
    """All sweep runs in one table, with the swept values as a string column `variant`."""
    return pl.concat([r.df.with_columns(pl.lit(", ".join(f"{k}={v}" for k, v in r.values.items())).alias("variant"))
                      for r in rows])


@dataclass
class TuneResult:
    values: dict
    objective: float
    evaluated: int
    history: list[tuple[dict, float]]


def tune(game, base, space: dict[str, list], n: int, seed: int, jobs: int = 2, rounds: int = 2,
         on_step: Callable[[dict, float], None] | None = None, starts: list[dict] | None = None) -> TuneResult:
    """Coordinate descent over a discrete space: vary one field at a time, keep the value with the
    smallest spread of the positions' win rates, repeat for `rounds` passes or until nothing improves.
    It runs from each start point (default: the scenario's own values; a game may add more, e.g. "no
    bonus at all") and keeps the best, since one-field steps can stall in a local optimum."""
    cache: dict[str, float] = {}
    history: list[tuple[dict, float]] = []

    def score(values: dict) -> float:
        key = repr(sorted(values.items()))
        if key not in cache:
            sc = with_values(game, base, values)
            cache[key] = positions.spread(api.sim(game, n=n, seed=seed, scenario=sc, jobs=jobs))
            history.append((dict(values), cache[key]))
            if on_step:
                on_step(dict(values), cache[key])
        return cache[key]

    best_values, best = None, float("inf")
    for start in starts or [{k: copy.deepcopy(vals[0]) for k, vals in space.items()}]:
        current = dict(start)
        here = score(current)
        for _ in range(rounds):
            improved = False
            for k, vals in space.items():
                for v in vals:
                    trial = {**current, k: v}
                    s = score(trial)
                    if s < here - 1e-12:
                        here, current, improved = s, trial, True
            if not improved:
                break
        if here < best:
            best_values, best = current, here
    return TuneResult(best_values, best, len(cache), history)
