"""Run until confident: keep playing chunks until every position's win rate (and every faction's, where
a game has a `faction` column) is known to within a target half-width.

Looking at the intervals after every chunk and stopping when they are narrow enough would break a
fixed-n interval's 95% (it is checked hundreds of times). The rule here uses a confidence sequence,
which holds at every n at once, so stopping whenever it says so keeps its coverage: the two-sided
normal-mixture boundary (Robbins 1970; Howard, Ramdas, McAuliffe and Sekhon 2021, "Time-uniform,
nonparametric, nonasymptotic confidence sequences"). For t outcomes in [0, 1] (1/2-sub-Gaussian, as any
win or loss is) with mean m, P(for some t: |mean_t - m| > w_t) <= alpha, where

    w_t = sqrt((t/4 + rho) * log((t/4 + rho) / (rho * alpha^2))) / t.

rho is fixed before any game is played: the value that reaches the target half-width at the smallest
t. Each interval covers its own rate at 95% uniformly over n; the intervals are not corrected for
being several. The bound does not use the observed variance, so for rates far from 1/2 it is
conservative (it stops later than needed, never too early).

Observations: a position's win rate counts every game (shared wins count as wins, as in the reports);
a faction's counts the games it plays in, each the share of its seats that won (its win rate when it
sits in at most one seat per game).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from . import results

ALPHA = 0.05
RULE = ("two-sided normal-mixture confidence sequence (Robbins; Howard et al. 2021) on each position's "
        "and faction's win rate, 1/2-sub-Gaussian, 95% coverage per rate uniformly over n (valid under "
        "optional stopping), checked after every chunk")


def half_width(t, rho: float, alpha: float = ALPHA):
    """The boundary's half-width after t outcomes (inf before the first)."""
    t = np.asarray(t, float)
    v = t / 4 + rho
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(t > 0, np.sqrt(v * np.log(v / (rho * alpha**2))) / np.maximum(t, 1), np.inf)


def best_rho(target: float, alpha: float = ALPHA) -> float:
    """The mixing precision whose boundary reaches `target` at the smallest t (depends on the target only)."""
    fixed_n = (1.96 / (2 * target)) ** 2  # where a fixed-n interval would be that narrow
    rhos = fixed_n / 4 * np.logspace(-3, 1, 161)
    ts = fixed_n * np.logspace(0, 1.5, 1501)
    w = half_width(ts[None, :], rhos[:, None], alpha)
    first = np.where(w <= target, ts[None, :], np.inf).min(axis=1)
    return float(rhos[int(np.argmin(first))])


@dataclass
class UntilConfident:
    """Counts the outcomes of the chunks seen so far (in game-id order) and says when to stop."""
    target: float
    max_n: int
    rho: float = 0.0
    games: int = 0
    _sums: dict[str, float] = field(default_factory=dict)
    _counts: dict[str, int] = field(default_factory=dict)

    def __post_init__(self):
        self.rho = self.rho or best_rho(self.target)

    def add(self, frame) -> None:
        wins = results.by_position(frame, "is_winner").astype(float)
        self.games += frame.height
        for k in range(wins.shape[1]):
            self._count(f"position {k + 1}", wins[:, k].sum(), frame.height)
        if "faction" in frame.columns:
            faction = results.matrix(frame, "faction")
            seat_wins = results.matrix(frame, "is_winner").astype(float)
            for f in np.unique(faction):
                seats = (faction == f).sum(axis=1)
                plays = seats > 0
                share = (seat_wins * (faction == f)).sum(axis=1)[plays] / seats[plays]
                self._count(f"faction {int(f)}", share.sum(), int(plays.sum()))

    def add_and_check(self, frame) -> bool:
        self.add(frame)
        return self.done()

    def _count(self, key: str, wins: float, n: int) -> None:
        self._sums[key] = self._sums.get(key, 0.0) + float(wins)
        self._counts[key] = self._counts.get(key, 0) + int(n)

    def widest(self) -> float:
        return float(max(half_width(list(self._counts.values()), self.rho), default=np.inf))

    def done(self) -> bool:
        return self.games > 0 and self.widest() <= self.target

    def summary(self) -> dict:
        """What the results file's metadata (and the report header) say about the stop."""
        return {"rule": RULE, "target_half_width": self.target, "alpha": ALPHA, "rho": self.rho, "max_n": self.max_n,
                "stopped_at": self.games, "reached": self.done(), "widest_half_width": self.widest()}


def header_line(stopping: dict) -> str:
    """The report header's sentence on how the run's size was chosen."""
    how = ("the target was reached" if stopping["reached"]
           else f"the limit of {stopping['max_n']:,} games came first (widest half-width "
                f"{100 * stopping['widest_half_width']:.2f} points)")
    return (f"Run until confident: games were added until every win rate's 95% half-width was at most "
            f"{100 * stopping['target_half_width']:.2f} percentage points; it stopped at "
            f"{stopping['stopped_at']:,} games ({how}). Rule: {stopping['rule']}.")
