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
from . import stats
from .errors import UserError
from .reporting import Report
from .results import by_position, matrix
from .stats import fmt_p

ALPHA = 0.05
CHANGED, NO_CHANGE = "changed", "no change detected at this n"
NEVER_BOUND = "the restriction never bound"  # the verdict of every row when a restriction left every game as it was
IDENTICAL = "identical games"  # ... and when another edit did
SPREAD_GROUP, SEAT_GROUP = "position_spread", "restricted_seat"
SPREAD_LABEL = "spread between positions (best - worst win rate)"
BOOTSTRAP = 1000  # resamples behind the spread row's interval


@dataclass(frozen=True)
class Row:
    group: str
    label: str
    pct: bool
    d: ms.Difference
    p_holm: float
    note: str = ""  # a verdict that says more than the test (the restriction never bound)

    @property
    def verdict(self) -> str:
        return self.note or (CHANGED if self.p_holm < ALPHA else NO_CHANGE)


def same_games(a: pl.DataFrame, b: pl.DataFrame) -> bool:
    """Both runs played games 0..n-1 of one seed: game i met the same streams, so rows pair up."""
    return (a.height == b.height and a["seed"][0] == b["seed"][0]
            and a["game_id"].equals(b["game_id"]))


def rows(game, base_df: pl.DataFrame, base_sc, variant_df: pl.DataFrame, variant_sc) -> list[Row]:
    """The table: the measures both runs have, then the spread between the positions (best minus worst) and
    the win rate of every seat whose restrictions differ between the sides; base first, variant second,
    Holm-corrected over all rows. When a restriction is the only thing that bound nothing (both sides played
    identical games), its rows say so instead of "no change detected"."""
    paired = same_games(base_df, variant_df)
    theirs = {(m.group, m.label): m for m in game.measures(variant_df, variant_sc)}
    pairs = [(m, theirs[(m.group, m.label)]) for m in game.measures(base_df, base_sc) if (m.group, m.label) in theirs]
    labels = [(a.group, a.label, a.pct) for a, _ in pairs]
    diffs = [ms.difference(a, b, paired) for a, b in pairs]
    if base_df["n_players"][0] == variant_df["n_players"][0]:
        labels.append((SPREAD_GROUP, SPREAD_LABEL, True))
        diffs.append(spread_difference(base_df, variant_df, paired))
    for seat, names in restricted_seats(base_sc, variant_sc).items():
        a, b = (ms.per_game(SEAT_GROUP, "", matrix(d, "is_winner")[:, seat], pct=True) for d in (base_df, variant_df))
        labels.append((SEAT_GROUP, f"seat {seat} win rate ({names})", True))
        diffs.append(ms.difference(a, b, paired))
    adjusted = ms.holm([d.p for d in diffs])
    note = ""
    if paired and identical(base_df, variant_df):
        note = NEVER_BOUND if restricted_seats(base_sc, variant_sc) else IDENTICAL
    return [Row(g, label, pct, d, p, note) for (g, label, pct), d, p in zip(labels, diffs, adjusted, strict=True)]


def restricted_seats(base_sc, variant_sc) -> dict[int, str]:
    """Seat -> what its restrictions are on each side, for every seat whose restrictions differ."""
    a, b = ({int(k): list(v) for k, v in sc.restrict.items() if v} for sc in (base_sc, variant_sc))
    out = {}
    for seat in sorted(set(a) | set(b)):
        if a.get(seat) != b.get(seat):
            out[seat] = (f"restricted in the variant: {', '.join(b[seat])}" if seat not in a else
                         f"restricted in the base: {', '.join(a[seat])}" if seat not in b else
                         f"base: {', '.join(a[seat])}; variant: {', '.join(b[seat])}")
    return out


def identical(a: pl.DataFrame, b: pl.DataFrame) -> bool:
    """Both sides played exactly the same games: every column of every game equal (but the scenario's hash)."""
    return a.drop("scenario_hash").equals(b.drop("scenario_hash"))


def spread_difference(a: pl.DataFrame, b: pl.DataFrame, paired: bool, boot: int = BOOTSTRAP) -> ms.Difference:
    """The spread between the positions' win rates (best minus worst, each side its own best and worst) on
    both sides and its difference, with 95% intervals from a Poisson bootstrap over games (the same weights
    on both sides when the games pair up), and a two-sided p-value from the bootstrap's standard error."""
    wa, wb = (by_position(d, "is_winner").astype(float) for d in (a, b))
    rng = np.random.default_rng(0)

    def spreads(w: np.ndarray, weights: np.ndarray) -> np.ndarray:
        rates = weights @ w / np.maximum(weights.sum(axis=1, keepdims=True), 1)
        return rates.max(axis=1) - rates.min(axis=1)
    sa, sb, batch = [], [], max(1, 2_000_000 // max(len(wa), len(wb)))
    for start in range(0, boot, batch):
        k = min(batch, boot - start)
        ka = rng.poisson(1.0, (k, len(wa))).astype(np.float32)
        kb = ka if paired else rng.poisson(1.0, (k, len(wb))).astype(np.float32)
        sa.append(spreads(wa, ka))
        sb.append(spreads(wb, kb))
    sa, sb = np.concatenate(sa), np.concatenate(sb)

    def est(value: float, draws: np.ndarray, n: int) -> stats.Estimate:
        se = float(np.std(draws, ddof=1))
        return stats.Estimate(value, value - stats.Z95 * se, value + stats.Z95 * se, n)
    va, vb = (float(np.ptp(w.mean(axis=0))) for w in (wa, wb))
    diff = est(vb - va, sb - sa, len(wa))
    se = (diff.hi - diff.value) / stats.Z95
    if se > 0:
        from scipy import stats as sps
        p = float(2 * sps.norm.sf(abs(diff.value) / se))
    else:
        p = 1.0 if diff.value == 0 else 0.0
    return ms.Difference(est(va, sa, len(wa)), est(vb, sb, len(wb)), diff, p, paired)


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
    extra = ""
    if any(r.group == SPREAD_GROUP for r in table):
        extra += (" The spread row: the best position's win rate minus the worst's on each side (each side its own "
                  f"best and worst), its interval from a bootstrap over games ({BOOTSTRAP:,} resamples).")
    if any(r.group == SEAT_GROUP for r in table):
        extra += " A seat's row: that seat's win rate, for every seat whose restrictions differ between the sides."
    return (f"n = {n_base:,} games (base) and {n_variant:,} (variant); 95% intervals; {how}. p: two-sided, "
            f"Holm-corrected over the {len(table)} rows; *changed* when below {ALPHA}.{extra}")


def headline(table: list[Row]) -> str:
    """The comparison in one sentence: the rows that changed, with their differences, or that none did (and
    why, when both sides played identical games)."""
    if not table:
        return "No measure to compare."
    if table[0].note:
        why = ("the restriction never bound: 0 decisions changed (the restricted seat never wanted what it forbids)"
               if table[0].note == NEVER_BOUND else "the edit changed no decision and no outcome")
        return (f"**{why[0].upper() + why[1:]}**: both sides played identical games, every column of all "
                f"{table[0].d.base.n:,}, so every row is the same on both sides.")
    changed = [r for r in table if r.verdict == CHANGED]
    if not changed:
        top = min(table, key=lambda r: r.p_holm)
        return (f"**No change detected at this n**: every one of the {len(table)} rows has Holm p ≥ {ALPHA} "
                f"({table[0].d.base.n:,} games a side); the closest, {top.label}: {_move(top)}.")
    return (f"**{len(changed)} of {len(table)} rows changed** (Holm p < {ALPHA}): "
            + "; ".join(f"{r.label} {_move(r)}" for r in changed) + ".")


def _move(r: Row) -> str:
    """'36.8% -> 20.7%, -16.1 pts [-17.6, -14.6]': a row's two values and its difference."""
    base, variant, diff, *_ = cells(r)
    return f"{base.split(' [')[0]} -> {variant.split(' [')[0]}, {diff}"


def markdown(table: list[Row], n_base: int, n_variant: int, title: str) -> str:
    lines = [f"### {title}", "", headline(table), "", "| " + " | ".join(HEADERS) + " |", "|" + "---|" * len(HEADERS)]
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
    """The comparison as a report (index.md, index.html, forest.png) in `out`; its headline answer is the rows
    that changed, with the forest plot of every difference."""
    rep = Report(title, meta, n_base)
    rep.headline(headline(table), short=headline(table))
    rep.headline_figure(forest(table), "forest.png", "Difference (variant - base) of every measure, 95% intervals; "
                        "red: changed (Holm p < 0.05).")
    rep.section("What the edit changed", what)
    rep.table(HEADERS, [[r.label, *cells(r)] for r in table], caption=caption(table, n_base, n_variant))
    return rep.write(out)
