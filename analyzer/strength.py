"""How strong the `search` player is: one seat of search against the game's tuned field, rotated through
every seat on the same games, paired against the field's own player in the same seats (train.measure's
yardstick), at one budget or several (a strength curve, in the style of TAG and Goodman et al.).

The field is the game's tuned player (scenarios/GAME/tuned.yaml), else its ROLLOUT_POLICY at its default
weights: what search's rollouts play by default, so the gain is what planning adds to that player.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

from . import train, variants
from .errors import UserError
from .scenario import SEARCH_POLICY, ScenarioBase


@dataclass(frozen=True)
class Point:
    """Search at one budget against the field: the paired measure, its games per rotation and its time."""
    rollouts: int
    paired: train.Paired
    n: int
    seconds: float


def field_player(game) -> tuple[str, dict]:
    """(policy, weights) of the field search is measured against: the tuned player, else ROLLOUT_POLICY."""
    tuned = train.tuned_player(game)
    return (tuned.policy, tuned.weights) if tuned else (game.Scenario.ROLLOUT_POLICY, {})


def field_scenario(game, base: ScenarioBase) -> ScenarioBase:
    policy, weights = field_player(game)
    return variants.scenario_of(game, base, {"policies": [policy], "seat_weights": {}, "restrict": {},
                                             "weights": {**base.weights, **({policy: weights} if weights else {})}},
                                "the tuned field")


def point(game, base: ScenarioBase, rollouts: int, n: int, seed: int, jobs: int = 1,
          on_progress: Callable[[int], None] | None = None, field_won=None) -> Point:
    """One search seat at `rollouts` against the field on games 0..n-1 of `seed`, every rotation; the
    field alone on those games is played once (or given: `field_won`, train.field_wins)."""
    if SEARCH_POLICY not in game.policies:
        raise UserError(f"{game.name}: no search player yet (its engine does not offer one)")
    field = field_scenario(game, base)
    policy, _ = field_player(game)
    t0 = time.perf_counter()

    def seat(s: int) -> dict:
        return {"policies": [SEARCH_POLICY if k == s else policy for k in range(field.players)],
                f"weights.{SEARCH_POLICY}.rollouts": rollouts}
    changed = train.rotated_wins(game, field, seat, n, seed, jobs, on_progress)
    own = field_won if field_won is not None else train.field_wins(game, field, n, seed, jobs, on_progress)
    return Point(rollouts, train.paired(changed, own), n, time.perf_counter() - t0)


def curve(game, base: ScenarioBase, budgets: list[int], n: int, seed: int, jobs: int = 1,
          on_progress: Callable[[int], None] | None = None) -> list[Point]:
    """`point` at each budget, on the same games (the field alone played once)."""
    own = train.field_wins(game, field_scenario(game, base), n, seed, jobs, on_progress)
    return [point(game, base, b, n, seed, jobs, on_progress, own) for b in budgets]


def table(points: list[Point]) -> list[dict]:
    """The curve as rows for a report or a terminal (percentage points, with the 95% interval); no wall time,
    so a report reads the same on every machine (`analyzer strength` adds it)."""
    return [{"rollouts per option": p.rollouts, "search wins": _pct(p.paired.rate), "field's own share": _pct(p.paired.field),
             "gain (points)": f"{100 * p.paired.gain.value:+.1f} [{100 * p.paired.gain.lo:+.1f}, {100 * p.paired.gain.hi:+.1f}]",
             "games per seat": p.n} for p in points]


def _pct(e) -> str:
    return f"{100 * e.value:.1f}% [{100 * e.lo:.1f}, {100 * e.hi:.1f}]"
