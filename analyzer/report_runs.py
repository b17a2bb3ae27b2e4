"""Comparison runs: the runs a report plays beside its results, each the run's scenario with a few changes
(rules, players, policies) on the run's seed, so every variant meets the same dice and decks (common random
numbers). A report asks for them here (`compare_run`) and says where they were not played (`comparing`);
`comparisons` sets how many games each plays, for the report being written (api.report).
"""
from __future__ import annotations

import copy
import json
import os
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

from . import simulation
from .scenario import apply_override, validate

# Comparison runs: games per variant, by default a tenth of the run's games within these limits (never more
# than the run itself); `report --compare-n N` (or ANALYZER_COMPARE_N, the tests' setting) fixes the number,
# `report --no-compare` plays none. Workers: 2, or ANALYZER_COMPARE_JOBS.
COMPARE_MIN, COMPARE_MAX, COMPARE_SHARE = 2_000, 20_000, 10
COMPARE_JOBS = int(os.environ.get("ANALYZER_COMPARE_JOBS", "2"))
NOT_RUN = "not run (--no-compare)"


@dataclass
class _Comparisons:
    n: int | None = None  # games per run (None: in proportion to the run, see compare_n)
    enabled: bool = True
    played: dict = field(default_factory=dict)  # (scenario hash, games, seed) -> results: a run asked twice plays once


_compare_setting: ContextVar[_Comparisons | None] = ContextVar("comparisons", default=None)


def _state() -> _Comparisons:
    return _compare_setting.get() or _Comparisons()  # outside a report: defaults, nothing kept


def compare_n(run_games: int) -> int:
    """Games per comparison run for a report of `run_games` games (see COMPARE_MIN above)."""
    fixed = _state().n or int(os.environ.get("ANALYZER_COMPARE_N", "0"))
    share = fixed or max(COMPARE_MIN, min(COMPARE_MAX, run_games // COMPARE_SHARE))
    return min(share, run_games)


@contextmanager
def comparisons(n: int | None, enabled: bool = True):
    """Within this block, reports' comparison runs play `n` games each (None: the default above), or
    none at all (enabled=False)."""
    token = _compare_setting.set(_Comparisons(n, enabled))
    try:
        yield
    finally:
        _compare_setting.reset(token)


def comparing(rep=None, title: str = "") -> bool:
    """Whether comparison runs are played; when they are not and `title` is given, the section `title` is
    added to the report `rep` (a reporting.Report) saying so (a section that needs runs starts with
    `if comparing(rep, TITLE):`)."""
    on = _state().enabled
    if not on and title:
        rep.section(title, f"{title}: {NOT_RUN}.")
    return on


def variant_scenario(game, meta: dict, sets: dict | None = None, players: int | None = None,
                     policies: list[str] | None = None):
    """The run's scenario (from its metadata) with rule changes, another player count or other
    policies, for the comparison runs a report makes. With another player count and no `policies`,
    per-seat policies collapse to seat 0's."""
    data = copy.deepcopy(meta["scenario"])
    for key, value in (sets or {}).items():
        apply_override(data, key, value)
    if players is not None and players != data["players"]:
        data["players"] = players
        data["policies"] = data["policies"][:1]
    if policies is not None:
        data["policies"] = list(policies)
    return validate(game.Scenario, data, "report variant")


def is_the_run(game, meta: dict, sets: dict | None = None, players: int | None = None,
               policies: list[str] | None = None) -> bool:
    """Whether the comparison run of these changes (as `variant_scenario` reads them) is the run's own
    scenario: its games would be the run's first games again. A report leaves such a run out of the policy
    settings its verdict is compared under: the same setting at a smaller n is not another setting."""
    def played(sc) -> str:  # the scenario as played: one policy per seat however it was written
        return json.dumps({**sc.dump(), "policies": sc.seat_policies()}, sort_keys=True)
    return played(variant_scenario(game, meta, sets, players, policies)) == played(variant_scenario(game, meta))


def run_flags(meta: dict, n: int) -> str:
    """The command-line flags that repeat a report's comparison runs: the games per value, the run's seed,
    players, policies and changed rules (a `sweep` or `tune` result depends on every one of them)."""
    sc = meta["scenario"]
    sets = "".join(f" --set {c}" for c in meta.get("changed_rules", []))
    return f"--n {n} --seed {meta['seed']} --players {sc['players']} --policy {','.join(sc['policies'])}{sets}"


def compare_run(game, meta: dict, n: int, sets: dict | None = None, players: int | None = None,
                policies: list[str] | None = None, seed_offset: int = 0, planned: bool = False):
    """A comparison run for a report: the run's scenario changed as `variant_scenario` says, played
    on the run's seed (plus `seed_offset`), so every variant meets the same dice and decks. A run the
    report already played is not played again. `planned`: its games were announced to the report's
    progress bar ahead (api.report)."""
    state = _state()
    if not state.enabled:
        raise RuntimeError(f"{game.name}'s report asked for a comparison run under --no-compare without checking "
                           "report_runs.comparing() first (docs/adding-a-game.md, Reports)")
    sc = variant_scenario(game, meta, sets, players, policies)
    seed = meta["seed"] + seed_offset
    key = (sc.content_hash(), n, seed)
    bar = simulation.report_bar()
    if key in state.played:
        if bar is not None and planned:
            bar.unplan(n)
        return state.played[key]
    extra = {}
    if bar is not None:
        bar.start(n, planned)
        extra = {"on_progress": bar.advance, "on_compile": bar.compiling}
    df = state.played[key] = simulation.run(game, sc, n, seed, jobs=COMPARE_JOBS, **extra)
    return df
