"""Turn-position fairness, shared by reports, `sweep` and `tune`.

A seat is a player's identity; position 1 is the seat that moved first (`first_player`), position 2
the next seat in turn order, and so on. Every "does going first pay" number is computed here, from
the results table, so reports and commands agree.

A position verdict is only drawn when position is separate from policy: with mixed policies, a game
whose first player is always the same seat (STOP's first dealer) puts one policy in one position in
every game, and a weak policy would read as a cursed position. `Summary` then refuses the verdict and
reports each policy's win rate by position instead.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import polars as pl
from scipy import stats as sps

from . import stats
from .results import by_position, matrix

ALPHA = 0.01  # cut-off of the position-fairness test, stated wherever its verdict is printed
CONFOUNDING_ALPHA = 0.001  # cut-off of the test that policies hold the positions in equal shares


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


def run_label(policies: list[str]) -> str:
    """A run's policy setting in a few words: 'greedy (all)' or 'this run (greedy, random)'."""
    return f"{policies[0]} (all)" if len(set(policies)) == 1 else "this run (" + ", ".join(policies) + ")"


def seat_policies(df: pl.DataFrame) -> list[str]:
    """The policy of each seat (one run has one policy per seat in every game)."""
    return [str(p) for p in df["policy"][0]]


def _position_seats(df: pl.DataFrame) -> np.ndarray:
    """(n, P): the seat holding each turn position in each game."""
    seats = int(df["n_players"][0])
    return (df["first_player"].to_numpy()[:, None] + np.arange(seats)) % seats


def by_policy(df: pl.DataFrame) -> dict[str, list[stats.Estimate]]:
    """Win rate of each policy's seats at each position (n: the seat-games of that policy there)."""
    seat_pol = np.array(seat_policies(df))
    holder = seat_pol[_position_seats(df)]
    wins = by_position(df, "is_winner").astype(bool)
    return {p: [stats.proportion(int(wins[holder[:, k] == p, k].sum()), int((holder[:, k] == p).sum()))
                for k in range(holder.shape[1])] for p in dict.fromkeys(seat_pol)}


def policy_win_rates(df: pl.DataFrame) -> dict[str, stats.Estimate]:
    """Win rate of each policy's seat-games, over every position."""
    seat_pol = np.array(seat_policies(df))
    wins = matrix(df, "is_winner").astype(bool)
    return {p: stats.proportion(int(wins[:, seat_pol == p].sum()), int(df.height * (seat_pol == p).sum()))
            for p in dict.fromkeys(seat_pol)}


def confounding(df: pl.DataFrame) -> str:
    """Why position and policy cannot be told apart in this run ('' when they can): the policies hold
    the positions in unequal shares (chi-square test of independence, p < CONFOUNDING_ALPHA)."""
    seat_pol = np.array(seat_policies(df))
    names = list(dict.fromkeys(seat_pol))
    if len(names) == 1:
        return ""
    holder = seat_pol[_position_seats(df)]
    counts = np.array([[(holder[:, k] == p).sum() for k in range(holder.shape[1])] for p in names], float)
    if sps.chi2_contingency(counts).pvalue >= CONFOUNDING_ALPHA:
        return ""
    share = counts / df.height
    fair = counts.sum(axis=1, keepdims=True) / counts.sum()
    p, k = np.unravel_index((np.abs(share - fair) / fair).argmax(), share.shape)
    return (f"position {k + 1} is held by {names[p]} in {100 * share[p, k]:.0f}% of games, against "
            f"{100 * fair[p, 0]:.0f}% if positions were independent of policies (independence test "
            f"p < {CONFOUNDING_ALPHA:g}), so a position's win rate measures its policy as much as the position")


@dataclass
class Summary:
    """What one run says about position fairness, and whether it may say it at all."""
    win: list[stats.Estimate]
    test: stats.FairnessTest
    n: int
    confounded: str = ""  # why no position verdict is drawn ('' when it is)
    policies: dict[str, list[stats.Estimate]] = field(default_factory=dict)  # mixed policies: by position
    policy_win: dict[str, stats.Estimate] = field(default_factory=dict)  # mixed policies: over all positions
    fair: float = 0.0  # a position's fair share: wins per game (shared wins count for each) over positions

    @classmethod
    def of(cls, df: pl.DataFrame) -> "Summary":
        mixed = len(set(seat_policies(df))) > 1
        wins = matrix(df, "is_winner").astype(bool)
        return cls(win_estimates(df), fairness(df), df.height, confounding(df), by_policy(df) if mixed else {},
                   policy_win_rates(df) if mixed else {}, float(wins.sum(axis=1).mean()) / wins.shape[1])

    @property
    def differ(self) -> bool | None:
        """Do the positions differ beyond chance (None: no verdict, position and policy confounded)."""
        return None if self.confounded else self.test.p_value < ALPHA

    def label(self) -> str:
        """The verdict in a few words, comparable between runs."""
        return {None: "no position verdict (position and policy confounded)", True: "positions differ",
                False: "no evidence that positions differ"}[self.differ]

    def verdict(self) -> str:
        """The verdict with its test and cut-off."""
        if self.differ is None:
            return f"**No position verdict: {self.confounded}.**"
        t = self.test
        test = (f"p={stats.fmt_p(t.p_value)} {'<' if self.differ else '≥'} the {100 * ALPHA:g}% cut-off; chi-square "
                f"test on {t.n:,} sole wins, chi2={t.chi2:.1f}, dof={t.dof}")
        return (f"**The positions differ more than chance explains** ({test})." if self.differ else
                f"No evidence that the positions differ ({test}).")

    def sentence(self) -> str:
        """One headline sentence: every position's win rate with its interval (n once: every position plays
        every game), the fair share, and the verdict."""
        if self.differ is None:
            return (self.verdict() + " By policy: "
                    + "; ".join(f"{p} wins {e.fmt(pct=True)}" for p, e in self.policy_win.items()) + ".")
        parts = [f"position {k + 1}{' wins' if k == 0 else ''} {_no_n(e.fmt(pct=True))}" for k, e in enumerate(self.win)]
        return (f"{'; '.join(parts)} (n={self.n:,} games each); fair share {100 * self.fair:.1f}%. "
                f"{self.verdict()}")

    def short(self) -> str:
        """The verdict in a few words, for the all-games index: what is unbalanced, by how much, how sure."""
        if self.differ is None:
            return "No position verdict: position and policy are confounded in this run."
        best = max(range(len(self.win)), key=lambda k: self.win[k].value)
        worst = min(range(len(self.win)), key=lambda k: self.win[k].value)
        gap = 100 * (self.win[best].value - self.win[worst].value)
        sure = f"{p_text(self.test.p_value)}, n={self.n:,}"
        if self.differ:
            return (f"**Unbalanced**: position {best + 1} wins {100 * self.win[best].value:.1f}%, position {worst + 1} "
                    f"{100 * self.win[worst].value:.1f}% (fair share {100 * self.fair:.1f}%): {gap:.1f} points apart; "
                    f"beyond chance ({sure}).")
        half = max(100 * (e.hi - e.lo) / 2 for e in self.win)
        return (f"**No imbalance found**: the positions are within {gap:.1f} points of each other (each rate "
                f"±{half:.1f} points; {sure}).")


def _no_n(text: str) -> str:
    """An Estimate's text without its trailing "(n=...)"."""
    return text.rsplit(" (n=", 1)[0]


def p_text(p: float) -> str:
    """A p-value as 'p=0.39' or 'p<1e-300'."""
    shown = stats.fmt_p(p)
    return f"p{shown}" if shown.startswith("<") else f"p={shown}"



def policy_table(rep, verdicts: dict[str, Summary]) -> None:
    """Add to report `rep` each mixed-policy setting's win rate per policy, over all positions and at
    each one (nothing when every setting plays one policy at every seat)."""
    rows = [[label, p, v.policy_win[p].fmt(pct=True), *[e.fmt(pct=True) for e in ests]]
            for label, v in verdicts.items() for p, ests in v.policies.items()]
    if rows:
        players = len(next(iter(verdicts.values())).win)
        rep.table(["policies", "policy", "all positions", *labels(players)], rows,
                  "With mixed policies, each policy's win rate over all positions and at each position (n: its "
                  "seat-games there): a position's win rate mixes the policies that held it.")


def chart(s: Summary, title: str = "Win rate by position"):
    """The headline chart: win rate by position, or by policy when the two are confounded."""
    from .charts import errorbar_chart  # here: sweep and tune import this module without matplotlib
    if s.differ is None:
        return errorbar_chart(list(s.policy_win), list(s.policy_win.values()),
                              "Win rate by policy (no position verdict: position and policy confounded)",
                              "win rate", pct=True, reference=s.fair)
    return errorbar_chart(labels(len(s.win)), s.win, title, "win rate", pct=True, reference=s.fair)


def holds_under(verdicts: dict[str, Summary]) -> tuple[list[str], list[str]]:
    """The policy settings whose verdict agrees with the first one's, and those whose verdict does not
    (each with its own verdict)."""
    first = next(iter(verdicts.values())).label()
    return ([k for k, v in verdicts.items() if v.label() == first],
            [f"{k} ({v.label()}, n={v.n:,})" for k, v in verdicts.items() if v.label() != first])
