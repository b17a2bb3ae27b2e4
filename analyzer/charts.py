"""The charts reports share, and matplotlib set up for them: figures are files (never a window), with text
readable at a report page's width. Imported by reporting and by the measures that draw a chart (positions)."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")  # reports are files; never open a window
import matplotlib.pyplot as plt  # noqa: E402

from .stats import Estimate  # noqa: E402

# Chart text readable at the page's width (a figure is shown at most ~1100 px wide).
plt.rcParams.update({"font.size": 11, "axes.titlesize": 11, "axes.labelsize": 11, "xtick.labelsize": 10,
                     "ytick.labelsize": 10, "legend.fontsize": 10})

FAIR_MARGIN = 2.0  # percentage points: a win-rate axis spans at least its fair share +- this much


def win_rate_axis(ax, fair_pct: float, axis: str = "y", margin: float = FAIR_MARGIN) -> None:
    """Widen a win-rate axis (in percent) to hold the fair share and at least `margin` points either side of
    it, so that noise of a tenth of a point never fills the chart and reads as a pattern."""
    get, set_ = (ax.get_ylim, ax.set_ylim) if axis == "y" else (ax.get_xlim, ax.set_xlim)
    lo, hi = get()
    set_(min(lo, fair_pct - margin), max(hi, fair_pct + margin))


def errorbar_chart(labels, estimates: list[Estimate], title: str, ylabel: str, pct: bool = False,
                   reference: float | None = None, ax=None):
    """Points with 95% interval bars, one per label, n beside each label. Labels longer than a word
    make a horizontal chart (one row per label), so they never overlap. A rate with a `reference` (the fair
    share) gets an axis that holds it and FAIR_MARGIN points either side (win_rate_axis)."""
    k = 100 if pct else 1
    vals = [x.value * k for x in estimates]
    err = [[(x.value - x.lo) * k for x in estimates], [(x.hi - x.value) * k for x in estimates]]
    horizontal = max(len(str(lab)) for lab in labels) > 12
    fig = None
    if ax is None:
        size = (8, 0.42 * len(labels) + 1.4) if horizontal else (min(11, max(4.5, 1.0 * len(labels) + 2)), 3.6)
        fig, ax = plt.subplots(figsize=size)
    unit = ylabel + (" (%)" if pct else "")
    if horizontal:
        ax.errorbar(vals, range(len(labels)), xerr=err, fmt="o", capsize=4)
        ax.set_yticks(range(len(labels)), [f"{lab} (n={x.n:,})" for lab, x in zip(labels, estimates, strict=True)])
        ax.invert_yaxis()
        if reference is not None:
            ax.axvline(reference * k, ls="--", color="grey", lw=1)
            if pct:
                win_rate_axis(ax, reference * k, "x")
        ax.set_xlabel(unit)
        ax.grid(axis="x", alpha=0.3)
    else:
        ax.errorbar(range(len(labels)), vals, yerr=err, fmt="o", capsize=4)
        ax.set_xticks(range(len(labels)), [f"{lab}\nn={x.n:,}" for lab, x in zip(labels, estimates, strict=True)])
        if reference is not None:
            ax.axhline(reference * k, ls="--", color="grey", lw=1)
            if pct:
                win_rate_axis(ax, reference * k, "y")
        ax.set_ylabel(unit)
        ax.grid(axis="y", alpha=0.3)
    ax.set_title(title)
    return fig or ax.figure
