"""Named variants of one scenario, played on the same streams: the one mechanism behind `sweep`, `tune`,
`compare` and the reports' comparison runs.

A variant is a set of overrides (dotted scenario fields -> values, as `--set` takes them). Every variant
plays games 0..n-1 of the same seed, so game i meets the same dice and decks under every variant (common
random numbers): differences between variants come from the overrides, not from game-to-game noise.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Callable

import polars as pl

from . import simulation
from .scenario import ScenarioBase, apply_override, validate


@dataclass(frozen=True)
class Variant:
    name: str
    sets: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def of(cls, sets: dict[str, Any]) -> "Variant":
        """A variant named after its overrides ("rules.x=1, rules.y=2"; "as given" without any)."""
        return cls(", ".join(f"{k}={v}" for k, v in sets.items()) or "as given", dict(sets))


def scenario_of(game, base: ScenarioBase, sets: dict[str, Any], origin: str = "") -> ScenarioBase:
    """`base` with the overrides applied, validated (a bad field is a one-line error naming it)."""
    data = copy.deepcopy(base.model_dump(mode="json"))
    for key, value in sets.items():
        apply_override(data, key, value)
    return validate(game.Scenario, data, origin or "variant " + (", ".join(f"{k}={v!r}" for k, v in sets.items()) or "as given"))


def play(game, base: ScenarioBase, variants: list[Variant], n: int, seed: int, jobs: int = 1,
         on_progress: Callable[[int], None] | None = None) -> dict[str, pl.DataFrame]:
    """Play every variant on games 0..n-1 of `seed`; returns {variant name: results}. Every scenario is
    validated before the first game, so a bad override fails before anything is played.
    `on_progress(k)` counts games over all variants (one progress bar: n * len(variants) in all)."""
    return play_scenarios(game, {v.name: scenario_of(game, base, v.sets) for v in variants}, n, seed, jobs, on_progress)


def play_scenarios(game, scenarios: dict[str, ScenarioBase], n: int, seed: int, jobs: int = 1,
                   on_progress: Callable[[int], None] | None = None) -> dict[str, pl.DataFrame]:
    """Play whole scenarios (e.g. two files) as variants of each other, on the same games."""
    return {name: simulation.run(game, sc, n, seed, jobs=jobs, on_progress=on_progress)
            for name, sc in scenarios.items()}


def frame(runs: dict[str, pl.DataFrame]) -> pl.DataFrame:
    """All runs in one table, with the variant's name as a string column `variant`."""
    return pl.concat([df.with_columns(pl.lit(name).alias("variant")) for name, df in runs.items()])
