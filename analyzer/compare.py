"""`analyzer compare`: what did an edit change? One row per balance measure: base, variant, the difference
with its 95% interval (paired when both runs played the same games), a Holm-corrected p-value over the
rows, and a verdict. Also written as a report section (md, html and a forest plot of the differences)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import polars as pl

from . import measures as ms
from .errors import UserError
from .reporting import Report
from .stats import fmt_p

ALPHA = 0.05
CHANGED, NO_CHANGE = "changed", "no change detected at this n"


@dataclass(frozen=True)
class Row:
    group: str
    label: str
    pct: bool
    d: ms.Difference
    p_holm: float

    @property
    def verdict(self) -> str:
        return CHANGED if self.p_holm < ALPHA else NO_CHANGE


def same_games(a: pl.DataFrame, b: pl.DataFrame) -> bool:
    """Both runs played games 0..n-1 of one seed: game i met the same streams, so rows pair up."""
    return (a.height == b.height and a["seed"][0] == b["seed"][0]
            and a["game_id"].equals(b["game_id"]))


def rows(game, base_df: pl.DataFrame, base_sc, variant_df: pl.DataFrame, variant_sc) -> list[Row]:
    """The table: the measures both runs have, base first, variant second, Holm-corrected over all rows."""
    paired = same_games(base_df, variant_df)
    theirs = {(m.group, m.label): m for m in game.measures(variant_df, variant_sc)}
    pairs = [(m, theirs[(m.group, m.label)]) for m in game.measures(base_df, base_sc) if (m.group, m.label) in theirs]
    diffs = [ms.difference(a, b, paired) for a, b in pairs]
    adjusted = ms.holm([d.p for d in diffs])
    return [Row(a.group, a.label, a.pct, d, p) for (a, _), d, p in zip(pairs, diffs, adjusted, strict=True)]


def check_comparable(game, a_meta: dict, b_meta: dict, a_name: str, b_name: str) -> None:
    """Two results files can be compared only when they are of one game and one player count."""
    for meta, name in ((a_meta, a_name), (b_meta, b_name)):
        if meta.get("game") != game.name:
            raise UserError(f"{name}: holds results of {meta.get('game')!r}, not {game.name!r}")
    pa, pb = a_meta["scenario"]["players"], b_meta["scenario"]["players"]
    if pa != pb:
        raise UserError(f"{b_name}: {pb} players, but {a_name} has {pa}; compare runs of one player count")


def cells(r: Row) -> list[str]:
    """base, variant, difference [95%], Holm p, verdict as text; rates in percent (differences in points)."""
    k, unit = (100, "%") if r.pct else (1, "")
    digits = 2 if r.pct else 3

    def num(x: float) -> str:
        return f"{k * x:.{digits}f}{unit}" if r.pct else f"{x:.{digits}g}"
    diff = r.d.diff
    pts = " pts" if r.pct else ""
    return [f"{num(r.d.base.value)} [{num(r.d.base.lo)}, {num(r.d.base.hi)}]",
            f"{num(r.d.variant.value)} [{num(r.d.variant.lo)}, {num(r.d.variant.hi)}]",
            f"{k * diff.value:+.{digits}f}{pts} [{k * diff.lo:+.{digits}f}, {k * diff.hi:+.{digits}f}]",
            fmt_p(r.p_holm), r.verdict]


HEADERS = ["measure", "base", "variant", "difference (variant - base) [95%]", "p (Holm)", "verdict"]


def caption(table: list[Row], n_base: int, n_variant: int) -> str:
    paired = table[0].d.paired if table else False
    how = ("paired: both sides played the same seeded games (common random numbers), so each interval is of "
           "the per-game differences" if paired else "unpaired: the two runs played different games")
    return (f"n = {n_base:,} games (base) and {n_variant:,} (variant); 95% intervals; {how}. p: two-sided, "
            f"Holm-corrected over the {len(table)} rows; *changed* when below {ALPHA}.")


def markdown(table: list[Row], n_base: int, n_variant: int, title: str) -> str:
    lines = [f"### {title}", "", "| " + " | ".join(HEADERS) + " |", "|" + "---|" * len(HEADERS)]
    lines += ["| " + " | ".join([r.label, *cells(r)]) + " |" for r in table]
    return "\n".join([*lines, "", caption(table, n_base, n_variant), ""])


def forest(table: list[Row]) -> plt.Figure:
    """One panel per measure group: each row's difference with its 95% interval, zero dashed."""
    groups = list(dict.fromkeys(r.group for r in table))
    heights = [max(1, sum(r.group == g for r in table)) for g in groups]
    fig, axes = plt.subplots(len(groups), 1, figsize=(7, 0.9 + 0.32 * sum(heights) + 0.5 * len(groups)),
                             gridspec_kw={"height_ratios": heights}, squeeze=False)
    for ax, g in zip(axes[:, 0], groups, strict=True):
        mine = [r for r in table if r.group == g]
        k = 100 if mine[0].pct else 1
        y = np.arange(len(mine))[::-1]
        vals = [k * r.d.diff.value for r in mine]
        for yi, v, r in zip(y, vals, mine, strict=True):
            ax.errorbar([v], [yi], xerr=[[k * (r.d.diff.value - r.d.diff.lo)], [k * (r.d.diff.hi - r.d.diff.value)]],
                        fmt="o", ms=4, capsize=3, color="#cc3311" if r.verdict == CHANGED else "#0077bb")
        ax.axvline(0, ls="--", color="grey", lw=1)
        ax.set_yticks(y, [r.label for r in mine], fontsize=8)
        ax.set_title(g + (" (percentage points)" if mine[0].pct else ""), fontsize=9, loc="left")
        ax.tick_params(axis="x", labelsize=8)
    fig.tight_layout()
    return fig


def write(table: list[Row], meta: dict, n_base: int, n_variant: int, title: str, what: str, out: Path) -> Path:
    """The comparison as a report (index.md, index.html, forest.png) in `out`."""
    rep = Report(title, meta, n_base)
    rep.section("What the edit changed", what)
    rep.table(HEADERS, [[r.label, *cells(r)] for r in table], caption=caption(table, n_base, n_variant))
    rep.figure(forest(table), "forest.png", "Difference (variant - base) of every measure, 95% intervals; "
               "red: changed (Holm p < 0.05).")
    return rep.write(out)
