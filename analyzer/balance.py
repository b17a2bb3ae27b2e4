"""A scenario's `balance:` block: bounds on its balance measures, and how `analyzer check` decides them.

    balance:
      position_win_rate: {max_spread: 0.05}     # best and worst position at most 5 points apart
      faction_win_rate: {max_deviation: 0.08}   # every faction within 8 points of the average seat
      length: {min: 10, max: 25}                # mean length
      score_spread: {max: 40}

`min`/`max` bound every measure of the group; `max_spread` (largest minus smallest) and `max_deviation`
(largest distance from the average seat's win rate) apply to groups of rates. Rates are fractions.

Deciding a bound. Each bound gets a confidence interval for its statistic built from simultaneous
intervals of the group's measures (Bonferroni over the k measures involved): PASS when the interval lies
wholly inside the bound, FAIL when it lies wholly beyond it, else UNDECIDED.

`--until-decided` looks at the data after chunks of doubling size (n, 2n, 4n, ... up to --max-n) and stops
when every bound is decided. Looking repeatedly at a fixed-n 95% interval would let chance decide far more
often than 5% of the time, so the error rate is spent over the looks (alpha spending with equal shares, a
Bonferroni bound over looks): with L planned looks each look uses level alpha / L. It is valid whatever the
dependence between looks, and with doubling chunks L stays small (6 looks from 2,000 to 64,000 games), so
the price is modest (z = 2.64 instead of 1.96 at 6 looks).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .measures import RATE_GROUPS, Measure

SCALAR_KEYS = ("min", "max")
RATE_KEYS = ("max_spread", "max_deviation")
ALPHA = 0.05
PASS, FAIL, UNDECIDED = "PASS", "FAIL", "UNDECIDED"


def check_block(block: dict, groups: dict[str, str], game: str) -> None:
    """Raise ValueError (one line, naming the field) for an unknown measure or a malformed bound."""
    for group, bounds in block.items():
        if group not in groups:
            raise ValueError(f"balance.{group}: {game} has no measure {group!r}; choose from {', '.join(groups)}")
        allowed = SCALAR_KEYS + (RATE_KEYS if group in RATE_GROUPS else ())
        if not isinstance(bounds, dict) or not bounds:
            raise ValueError(f"balance.{group}: expected a mapping of bounds such as {{{allowed[-1]}: 0.05}}")
        for key, value in bounds.items():
            if key not in allowed:
                raise ValueError(f"balance.{group}.{key}: unknown bound; choose from {', '.join(allowed)}")
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not np.isfinite(value):
                raise ValueError(f"balance.{group}.{key}: expected a number, got {value!r}")
            if key in RATE_KEYS and value < 0:
                raise ValueError(f"balance.{group}.{key}: must be at least 0, got {value!r}")
            if is_rate(group) and not 0 <= value <= 1:
                hint = f" (write {value / 100:g} for {value:g} points)" if value > 1 else ""
                raise ValueError(f"balance.{group}.{key}: {value!r} is not a fraction; rates are fractions from 0 to 1{hint}")
        if "min" in bounds and "max" in bounds and bounds["min"] > bounds["max"]:
            raise ValueError(f"balance.{group}: min {bounds['min']} is above max {bounds['max']}")


def is_rate(group: str) -> bool:
    """Whether a group's measures are rates (fractions of games or seats): the win rates, draw_rate, safety_stop_rate."""
    return group in RATE_GROUPS or group.endswith("_rate")


@dataclass(frozen=True)
class Verdict:
    bound: str      # e.g. "position_win_rate.max_spread <= 0.05"
    what: str       # the statistic, e.g. "largest - smallest of 4 position win rates"
    value: float
    lo: float
    hi: float
    n: int
    limit: float
    upper: bool     # True: the statistic must stay at most `limit`; False: at least
    pct: bool

    @property
    def state(self) -> str:
        inside = self.hi <= self.limit if self.upper else self.lo >= self.limit
        beyond = self.lo > self.limit if self.upper else self.hi < self.limit
        return PASS if inside else FAIL if beyond else UNDECIDED


def z_for(alpha: float) -> float:
    from scipy import stats as sps  # here, not at the top: validating a scenario imports this module
    return float(sps.norm.isf(alpha / 2))


def decide(block: dict, measures: list[Measure], alpha: float = ALPHA) -> list[Verdict]:
    """Every bound of the block judged on `measures` at level alpha (simultaneous over each bound's measures)."""
    out = []
    for group, bounds in block.items():
        mine = [m for m in measures if m.group == group]
        if not mine:
            continue
        for key, limit in bounds.items():
            out.append(_judge(group, key, float(limit), mine, alpha))
    return out


def _judge(group: str, key: str, limit: float, mine: list[Measure], alpha: float) -> Verdict:
    pct, n = mine[0].pct, mine[0].n
    if key in SCALAR_KEYS:
        # every measure must respect the bound: judge the worst one, with intervals simultaneous over all
        ests = [m.estimate(z_for(alpha / len(mine))) for m in mine]
        pick = max if key == "max" else min
        worst = pick(range(len(ests)), key=lambda i: ests[i].value)
        e = ests[worst]
        lo = pick(x.lo for x in ests)
        hi = pick(x.hi for x in ests)
        what = mine[worst].label if len(mine) == 1 else f"{'largest' if key == 'max' else 'smallest'} of {len(mine)} ({mine[worst].label})"
        return Verdict(f"{group}.{key} {'<=' if key == 'max' else '>='} {limit:g}", what, e.value, lo, hi, n,
                       limit, key == "max", pct)
    if key == "max_spread":
        ests = [m.estimate(z_for(alpha / len(mine))) for m in mine]
        vals = [x.value for x in ests]
        value = max(vals) - min(vals)
        lo = max(0.0, max(x.lo for x in ests) - min(x.hi for x in ests))
        hi = max(x.hi for x in ests) - min(x.lo for x in ests)
        return Verdict(f"{group}.max_spread <= {limit:g}", f"largest - smallest of {len(mine)} rates", value, lo, hi,
                       n, limit, True, True)
    # max_deviation: from the average seat's win rate, itself estimated (one more simultaneous interval)
    seat = _average_seat(mine)
    z = z_for(alpha / (len(mine) + 1))
    ests, ref = [m.estimate(z) for m in mine], seat.estimate(z)
    value = max(abs(x.value - ref.value) for x in ests)
    hi = max(max(x.hi - ref.lo, ref.hi - x.lo) for x in ests)
    lo = max(max(0.0, x.lo - ref.hi, ref.lo - x.hi) for x in ests)
    return Verdict(f"{group}.max_deviation <= {limit:g}", f"largest distance of {len(mine)} rates from the "
                   f"average seat's {100 * ref.value:.1f}%", value, lo, hi, n, limit, True, True)


def _average_seat(mine: list[Measure]) -> Measure:
    """Win rate of a seat, whatever it was dealt: all wins over all seats (shared wins count for each)."""
    return Measure("seat", "average seat", sum(m.num for m in mine), sum(m.den for m in mine), pct=True)


def exit_code(verdicts: list[Verdict]) -> int:
    """0 every bound passes, 1 a bound is broken, 3 a bound is undecided (at the largest n played)."""
    states = {v.state for v in verdicts}
    return 1 if FAIL in states else 3 if UNDECIDED in states else 0


def looks(first: int, max_n: int) -> list[int]:
    """Games played at each look of --until-decided: first, 2 first, 4 first, ..., then max_n."""
    sizes = [first]
    while sizes[-1] < max_n:
        sizes.append(min(2 * sizes[-1], max_n))
    return sizes
