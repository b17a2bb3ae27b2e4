"""Sweeps: a scenario played under every value of one field, or every pair of values of two (a grid), on
the same seeded games (analyzer.variants), with the turn positions' win rates of each and a heatmap."""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any, Callable

import matplotlib.pyplot as plt
import numpy as np
import polars as pl

from . import positions, stats, variants


@dataclass
class SweepRow:
    values: dict
    df: pl.DataFrame

    def position_estimates(self) -> list[stats.Estimate]:
        return positions.win_estimates(self.df)


def grid(space: dict[str, list]) -> list[dict[str, Any]]:
    """Every combination of the fields' values, the first field varying slowest."""
    keys = list(space)
    return [dict(zip(keys, combo, strict=True)) for combo in itertools.product(*space.values())]


def sweep(game, base, space: dict[str, list], n: int, seed: int, jobs: int = 1,
          on_progress: Callable[[int], None] | None = None) -> list[SweepRow]:
    """Play every point of the grid of `space` (one or two fields) on games 0..n-1 of `seed`."""
    points = grid(space)
    runs = variants.play(game, base, [variants.Variant.of(p) for p in points], n, seed, jobs, on_progress)
    return [SweepRow(p, df) for p, df in zip(points, runs.values(), strict=True)]


def heatmap(rows: list[SweepRow], space: dict[str, list]) -> plt.Figure:
    """Two-field sweep: the largest distance of a position's win rate from the positions' mean, per cell."""
    (ka, va), (kb, vb) = space.items()
    cell = np.array([100 * positions.unfairness(r.df) for r in rows]).reshape(len(va), len(vb))
    fig, ax = plt.subplots(figsize=(1.2 + 0.9 * len(vb), 1.2 + 0.6 * len(va)))
    im = ax.imshow(cell, cmap="viridis_r", aspect="auto")
    ax.set_xticks(range(len(vb)), [str(v) for v in vb], fontsize=8)
    ax.set_yticks(range(len(va)), [str(v) for v in va], fontsize=8)
    ax.set_xlabel(kb, fontsize=8)
    ax.set_ylabel(ka, fontsize=8)
    for (i, j), v in np.ndenumerate(cell):
        ax.text(j, i, f"{v:.1f}", ha="center", va="center", fontsize=7, color="white" if v > cell.mean() else "black")
    fig.colorbar(im, ax=ax, label="largest position deviation (pts)")
    ax.set_title(f"n={rows[0].df.height:,} games per cell, same seeded games in every cell", fontsize=9)
    fig.tight_layout()
    return fig
