"""Turn-position fairness, shared by reports, `sweep` and `tune`.

A seat is a player's identity; position 1 is the seat that moved first (`first_player`), position 2
the next seat in turn order, and so on. Every "does going first pay" number is computed here, from
the results table, so reports and commands agree.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from . import stats
from .results import by_position


def labels(players: int) -> list[str]:
    return [f"position {k + 1}" for k in range(players)]


def win_rates(df: pl.DataFrame) -> np.ndarray:
    return by_position(df, "is_winner").astype(bool).mean(axis=0)


def win_estimates(df: pl.DataFrame) -> list[stats.Estimate]:
    """Win rate (shared wins count for every sharer) per position, with 95% Wilson intervals."""
    wins = by_position(df, "is_winner").astype(bool)
    return [stats.proportion(int(wins[:, k].sum()), df.height) for k in range(wins.shape[1])]


def mean_estimates(df: pl.DataFrame, col: str) -> list[stats.Estimate]:
    """Mean of a per-seat column per position, with bootstrap intervals."""
    values = by_position(df, col)
    return [stats.bootstrap_mean(values[:, k]) for k in range(values.shape[1])]


def fairness(df: pl.DataFrame) -> stats.FairnessTest:
    """Chi-square test that sole wins are spread evenly over the positions (shared wins left out)."""
    wins = by_position(df, "is_winner").astype(bool)
    sole = wins[wins.sum(axis=1) == 1]
    return stats.seat_fairness(sole.sum(axis=0))


def unfairness(df: pl.DataFrame) -> float:
    """Largest distance of any position's win rate from the positions' mean win rate."""
    rates = win_rates(df)
    return float(np.abs(rates - rates.mean()).max())


def spread(df: pl.DataFrame) -> float:
    """Sum of squared distances of the positions' win rates from their mean: what `tune` minimises.
    Smoother than the largest distance, so one-field-at-a-time search does not stall on a tie."""
    rates = win_rates(df)
    return float(((rates - rates.mean()) ** 2).sum())


@dataclass
class Summary:
    """What one run says about position fairness."""
    win: list[stats.Estimate]
    test: stats.FairnessTest
    n: int

    @classmethod
    def of(cls, df: pl.DataFrame) -> "Summary":
        return cls(win_estimates(df), fairness(df), df.height)
