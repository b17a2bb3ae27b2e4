"""How much can searching beat Pig's tuned hold_at by? Exact answers, by dynamic programming.

Pig (2 players, target 100) is small enough to solve: the chance that the player to move wins, from
(own score, other score, turn total), under any pair of policies, is the fixed point of one equation per
state (Neller & Presser 2004). This script is an independent model of the rules (like the plain-Python
Pig of tests/pig/test_pig_search.py), used to measure ceilings, never by the project at run time:

- `hold_at h`: the threshold player itself, for reference (h = 20 is the scenario's, 25 the tuned one);
- `one-step look-ahead`: at every decision, the option whose exact value is higher when both seats play
  hold_at afterwards: what flat search converges to as its rollouts grow without bound;
- the same, leaving hold_at's choice only where the two options differ by more than `delta` of win
  chance: what a sign test on finite rollouts can find;
- `turn look-ahead`: the best plan for the rest of the turn, hold_at afterwards: what a search that plans
  its whole turn converges to;
- `best response`: the best policy against hold_at.

Each row is the player's win rate against the tuned hold_at, its seat rotated (first and second equally).

    .venv/bin/python bench/pig_ceiling.py [--target 100] [--tuned 25]
"""
from __future__ import annotations

import argparse

import numpy as np
from numba import njit


@njit(cache=True)
def _sweep(me, other, holds, best, target):
    """One pass of W[a, b, t] = P(the mover wins | scores a, b, turn total t, about to roll), the mover
    playing `holds[a, b, t]` (or its best choice), the other seat's values `other`. Returns the largest
    change."""
    change = 0.0
    for a in range(target):
        for b in range(target):
            for t in range(target - a - 1, -1, -1):
                v = (1.0 - other[b, a, 0]) / 6.0  # a 1: the turn's points are lost
                for d in range(2, 7):
                    u = t + d
                    if a + u >= target:
                        dv = 1.0  # holding wins now, and every policy here holds
                    else:
                        hold, roll = 1.0 - other[b, a + u, 0], me[a, b, u]
                        dv = max(hold, roll) if best else (hold if holds[a, b, u] else roll)
                    v += dv / 6.0
                change = max(change, abs(me[a, b, t] - v))
                me[a, b, t] = v
    return change


def values(holds_x, holds_y, target, best_x=False):
    """W for X moving against Y and for Y moving against X."""
    wx = np.full((target, target, target), 0.5)
    wy = np.full((target, target, target), 0.5)
    while max(_sweep(wx, wy, holds_x, best_x, target), _sweep(wy, wx, holds_y, False, target)) > 1e-12:
        pass
    return wx, wy


def win_rate(holds_x, holds_y, target, best_x=False) -> float:
    wx, wy = values(holds_x, holds_y, target, best_x)
    return 0.5 * (wx[0, 0, 0] + 1.0 - wy[0, 0, 0])


def hold_at(h, target):
    return np.broadcast_to(np.arange(target) >= h, (target, target, target)).copy()


def gaps(w, target):
    """hold's value minus roll's at every decision (a, b, u), both seats playing the policy of w after it."""
    a, b, u = np.meshgrid(np.arange(target), np.arange(target), np.arange(target), indexing="ij")
    live = (u >= 1) & (a + u < target)
    hold = np.where(live, 1.0 - w[b, np.minimum(a + u, target - 1), 0], 0.0)
    return np.where(live, hold - w, 0.0), live


@njit(cache=True)
def turn_gaps(w, target):
    """hold's value minus the best plan's for the rest of the turn (hold_at's values after it), at every
    decision (a, b, u)."""
    gap = np.zeros((target, target, target))
    for a in range(target):
        for b in range(target):
            plan = np.zeros(target + 7)
            for t in range(target - a - 1, -1, -1):
                v = (1.0 - w[b, a, 0]) / 6.0
                for d in range(2, 7):
                    u = t + d
                    v += (1.0 if a + u >= target else max(1.0 - w[b, a + u, 0], plan[u])) / 6.0
                plan[t] = v
            for u in range(1, target - a):
                gap[a, b, u] = 1.0 - w[b, a + u, 0] - plan[u]
    return gap


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--target", type=int, default=100)
    ap.add_argument("--tuned", type=int, default=25, help="the tuned hold_at threshold (scenarios/pig/tuned.yaml)")
    args = ap.parse_args()
    target, tuned = args.target, hold_at(args.tuned, args.target)
    w, _ = values(tuned, tuned, target)
    step, live = gaps(w, target)
    rows = [(f"hold_at {h}", win_rate(hold_at(h, target), tuned, target)) for h in (20, args.tuned)]
    for name, gap in (("one-step look-ahead", step), ("turn look-ahead", turn_gaps(w, target))):
        for delta in (0.0, 0.01, 0.02, 0.05):
            holds = np.where(np.abs(gap) > delta, gap >= 0, tuned) & live
            rows.append((name + (f", only where the options differ by more than {delta:.0%}" if delta else ""),
                         win_rate(holds, tuned, target)))
    rows.append(("best response", win_rate(tuned, tuned, target, best_x=True)))
    print(f"| player (target {target}) | wins against hold_at {args.tuned} | gain (points) |\n|---|---|---|")
    for label, rate in rows:
        print(f"| {label} | {rate:.2%} | {100 * (rate - 0.5):+.2f} |")


if __name__ == "__main__":
    main()
