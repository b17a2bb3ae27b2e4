"""The statistics every report uses. Every number shown carries its sample size and a 95% interval."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

Z95 = 1.959963984540054  # scipy.stats.norm.ppf(0.975); scipy.stats is imported only where a test needs it


@dataclass(frozen=True)
class Estimate:
    value: float
    lo: float
    hi: float
    n: int

    def fmt(self, pct: bool = False, digits: int = 1) -> str:
        if self.n == 0:
            return "n/a (n=0)"
        k = 100.0 if pct else 1.0
        unit = "%" if pct else ""
        width = (self.hi - self.lo) * k
        if width > 0:  # enough decimals that a narrow interval does not print as [x, x]
            digits = max(digits, min(4, int(np.ceil(-np.log10(width / 2)))))
        return f"{self.value * k:.{digits}f}{unit} [{self.lo * k:.{digits}f}, {self.hi * k:.{digits}f}] (n={self.n:,})"


def wilson(successes, n, z: float = Z95):
    """Wilson score interval for a proportion: (p, lo, hi), elementwise; well-behaved near 0 and 1."""
    k = np.asarray(successes, float)
    n = np.asarray(n, float)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / n
        denom = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denom
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return p, centre - half, centre + half


def proportion(successes: int, n: int) -> Estimate:
    p, lo, hi = wilson(successes, n)
    return Estimate(float(p), float(lo), float(hi), int(n))


def fmt_p(p: float) -> str:
    """A p-value as text; below double precision it is a bound, never a bare 0."""
    return f"{p:.2g}" if p >= 1e-300 else "<1e-300"


@dataclass(frozen=True)
class FairnessTest:
    chi2: float
    dof: int
    p_value: float
    n: int

    def fmt(self) -> str:
        return f"chi2={self.chi2:.1f}, dof={self.dof}, p={fmt_p(self.p_value)} (n={self.n:,} sole wins)"


def seat_fairness(sole_wins_per_seat) -> FairnessTest:
    """Chi-square test that sole wins are spread evenly over the seats (shared wins are left out)."""
    wins = np.asarray(sole_wins_per_seat, float)
    total = wins.sum()
    if total == 0:
        return FairnessTest(0.0, len(wins) - 1, 1.0, 0)
    from scipy import stats as sps
    res = sps.chisquare(wins)
    return FairnessTest(float(res.statistic), len(wins) - 1, float(res.pvalue), int(total))


def bootstrap_mean(x, n_boot: int = 2000, seed: int = 0, conf: float = 0.95) -> Estimate:
    """Percentile bootstrap interval of the mean.

    Resampling n values with replacement is a multinomial draw over the distinct values, so for
    integer-like data (scores, lengths) the bootstrap is exact at any n in O(n_boot x distinct values);
    data with many distinct values falls back to resampling indices.
    """
    x = np.asarray(x, float).ravel()
    x = x[~np.isnan(x)]
    n = len(x)
    if n == 0:
        return Estimate(float("nan"), float("nan"), float("nan"), 0)
    rng = np.random.default_rng(seed)
    values, counts = np.unique(x, return_counts=True)
    if len(values) <= 4096:
        draws = rng.multinomial(n, counts / n, size=n_boot)
        means = draws @ values / n
    else:
        means = np.array([x[rng.integers(0, n, n)].mean() for _ in range(min(n_boot, 400))])
    alpha = (1 - conf) / 2
    lo, hi = np.quantile(means, [alpha, 1 - alpha])
    return Estimate(float(x.mean()), float(lo), float(hi), n)


def ratio_of_sums(num, den, conf: float = 0.95) -> Estimate:
    """sum(num) / sum(den) over games, with a delta-method interval (games are the independent units)."""
    num = np.asarray(num, float).ravel()
    den = np.asarray(den, float).ravel()
    n = len(num)
    r = num.sum() / den.sum()
    resid = num - r * den
    se = np.sqrt(np.var(resid, ddof=1) / n) / den.mean() if n > 1 else float("nan")
    from scipy import stats as sps
    z = float(sps.norm.ppf(0.5 + conf / 2))
    return Estimate(float(r), float(r - z * se), float(r + z * se), n)


def quantile_table(x, qs=(0.05, 0.25, 0.5, 0.75, 0.95)) -> dict[str, float]:
    x = np.asarray(x, float).ravel()
    return {f"q{int(q * 100):02d}": float(np.quantile(x, q)) for q in qs}
