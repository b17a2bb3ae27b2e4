"""Balance measures: the numbers `compare`, `check` and `tune` speak about, one row each.

Every measure is a ratio of per-game sums, sum(num) / sum(den), over the games of a run (den is 1 for a
per-game mean; the seats dealt a faction for a faction's win rate). Games are the independent units, so
one formula gives every interval (delta method, Wilson for a plain per-game proportion) and every paired
difference between two runs on the same games (the per-game difference of the influence values).

A measure belongs to a group, the key a scenario's `balance:` block bounds: `position_win_rate`,
`faction_win_rate`, `mean_score`, `score_spread`, `length`, `draw_rate`, and a game's own groups
(`Game.measures`, from analyzer/games/<game>/measures.py).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from . import stats
from .results import by_position, matrix

COMMON_GROUPS = {
    "position_win_rate": "win rate of each turn position (position 1 moves first; a shared win counts for each sharer)",
    "mean_score": "mean final score over the seats",
    "score_spread": "gap between the best and the worst seat's final score",
    "length": "game length",
    "draw_rate": "share of games nobody won",
}
# groups of several rates, where a bound may limit how far apart they are
RATE_GROUPS = ("position_win_rate", "faction_win_rate")


@dataclass(frozen=True)
class Measure:
    group: str
    label: str
    num: np.ndarray
    den: np.ndarray
    pct: bool = False

    @property
    def n(self) -> int:
        return len(self.num)

    @property
    def value(self) -> float:
        return float(self.num.sum() / self.den.sum()) if self.den.sum() else float("nan")

    def influence(self) -> np.ndarray:
        """Each game's contribution to the estimate's error: (num - value * den) / mean(den)."""
        return (self.num - self.value * self.den) / self.den.mean()

    def estimate(self, z: float = stats.Z95) -> stats.Estimate:
        """The value with an interval at `z` standard errors (1.96: 95%)."""
        if self.den.sum() == 0:
            return stats.Estimate(float("nan"), float("nan"), float("nan"), 0)
        if self.pct and np.all(self.den == 1):
            p, lo, hi = stats.wilson(self.num.sum(), self.n, z)
            return stats.Estimate(float(p), float(lo), float(hi), self.n)
        se = float(np.std(self.influence(), ddof=1) / np.sqrt(self.n)) if self.n > 1 else float("nan")
        return stats.Estimate(self.value, self.value - z * se, self.value + z * se, self.n)


def per_game(group: str, label: str, values, pct: bool = False) -> Measure:
    v = np.asarray(values, float)
    return Measure(group, label, v, np.ones_like(v), pct)


def common(df: pl.DataFrame) -> list[Measure]:
    """The measures every game has: position win rates, mean score, score spread, length, draws."""
    wins = by_position(df, "is_winner").astype(float)
    score = matrix(df, "score").astype(float)
    out = [per_game("position_win_rate", f"position {k + 1}", wins[:, k], pct=True) for k in range(wins.shape[1])]
    out += [per_game("mean_score", "mean score", score.mean(axis=1)),
            per_game("score_spread", "score spread (best - worst seat)", score.max(axis=1) - score.min(axis=1)),
            per_game("length", "length", df["length"].to_numpy()),
            per_game("draw_rate", "draw rate", (wins.sum(axis=1) == 0), pct=True)]
    return out


def faction_rates(df: pl.DataFrame, names, column: str = "faction") -> list[Measure]:
    """Win rate of each faction when dealt (per-seat column `column` holds the faction's index)."""
    fac, wins = matrix(df, column), matrix(df, "is_winner").astype(bool)
    out = []
    for j, name in enumerate(names):
        dealt = fac == j
        if dealt.any():
            out.append(Measure("faction_win_rate", f"faction {name}", (wins & dealt).sum(axis=1).astype(float),
                               dealt.sum(axis=1).astype(float), pct=True))
    return out


SAFETY_STOPS = {"safety_stop_rate": "share of games stopped by a safety cap (a stalled game; scored as it stood)"}


def safety_stops(stopped) -> list[Measure]:
    """The share of games a safety cap stopped: every game's own health measure."""
    return [per_game("safety_stop_rate", "safety stop rate", np.asarray(stopped, bool), pct=True)]


@dataclass(frozen=True)
class Difference:
    base: stats.Estimate
    variant: stats.Estimate
    diff: stats.Estimate
    p: float
    paired: bool


def difference(a: Measure, b: Measure, paired: bool) -> Difference:
    """b - a with a 95% interval and a two-sided p-value; paired: game i of both runs is the same game."""
    d = b.value - a.value
    if paired:
        se = float(np.std(b.influence() - a.influence(), ddof=1) / np.sqrt(a.n))
    else:
        se = float(np.sqrt(np.var(a.influence(), ddof=1) / a.n + np.var(b.influence(), ddof=1) / b.n))
    if not np.isfinite(d):
        p = 1.0
    elif se > 0:
        from scipy import stats as sps  # here: scipy.stats takes most of a second to import
        p = float(2 * sps.norm.sf(abs(d) / se))
    else:  # identical games give exactly no difference; any difference with no noise at all is certain
        p = 1.0 if d == 0 else 0.0
    return Difference(a.estimate(), b.estimate(), stats.Estimate(d, d - stats.Z95 * se, d + stats.Z95 * se, a.n), p, paired)


def holm(p_values) -> list[float]:
    """Holm's step-down adjustment: family-wise error control over all rows, valid under any dependence."""
    p = np.asarray(p_values, float)
    order = np.argsort(p)
    m = len(p)
    adjusted = np.maximum.accumulate((m - np.arange(m)) * p[order]).clip(max=1.0)
    out = np.empty(m)
    out[order] = adjusted
    return out.tolist()
