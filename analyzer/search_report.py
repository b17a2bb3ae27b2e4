"""The report section "Under search play": the game's headline measure with every seat playing `search`
(analyzer/search.py), next to this run and the tuned player on the same games, whether the verdict holds,
and how strong the search player is (its gain over the tuned field at several budgets: analyzer.strength).

A scripted player's verdict may measure its habits; a player that looks ahead answers "what does the game
do". Its cost is thousands of playouts per game, so the section plays fewer games than the others: the
game's `search.SearchPlan` (Game.search_plan) says how many, at which budget, sized so that the section takes a
few minutes on 2 cores (`make bench` measures the cost per decision), and the page states both.
"""
from __future__ import annotations

from dataclasses import replace

import polars as pl

from . import positions, strength
from .report_runs import COMPARE_JOBS, COMPARE_MIN, compare_n, compare_run, comparing, variant_scenario
from .reporting import Report
from .scenario import SEARCH_POLICY, validate
from .search import SearchPlan
from .skill import difference, fmt_points
from .train import tuned_player

TITLE = "Under search play"


def planned_games(game, meta: dict, run_games: int) -> int:
    if not game.searchable:
        return 0
    size = _size(game.search_plan, run_games)
    rows = 2 if tuned_player(game) is not None else 1  # every seat searching, and the tuned player on its games
    return rows * size.n + size.curve_n * (1 + meta["scenario"]["players"] * len(size.budgets))


def _size(plan: SearchPlan, run_games: int) -> SearchPlan:
    """The plan at this report's size: as the game plans it for a full report; a small report (its comparison
    runs under COMPARE_MIN games: a test, a quick look) plays a tenth (a twentieth for the curve) of its
    comparison runs' games, at the plan's cheapest budget only."""
    cap = compare_n(run_games)
    if cap >= COMPARE_MIN:
        return plan
    low = min(plan.budgets)
    return replace(plan, rollouts=min(plan.rollouts, low), n=max(2, min(plan.n, cap // 10)), budgets=(low,),
                   curve_n=max(2, min(plan.curve_n, cap // 20)))


def section(rep: Report, game, df: pl.DataFrame, meta: dict, verdict) -> None:
    if not game.searchable:
        rep.section(TITLE, f"{game.name} has no search player yet, so no verdict is checked under search play.")
        return
    if not comparing(rep, TITLE):
        return
    plan = _size(game.search_plan, df.height)
    n, curve_n = plan.n, plan.curve_n
    sets = {"policies": [SEARCH_POLICY], "seat_weights": {}, "restrict": {},
            "weights": {**meta["scenario"].get("weights", {}), SEARCH_POLICY: {"rollouts": plan.rollouts}},
            "rollout_policy": "", "rollout_weights": {}}
    searched = compare_run(game, meta, n, planned=True, sets=sets)
    player = _rollout_label(variant_scenario(game, meta, sets, None, None))
    same = df.filter(pl.col("game_id") < n)
    here = verdict(same if same.height == n else df)
    settings = {f"this run: {positions.run_label(meta['policies'])} (its first {n:,} games)": here}
    if (tuned := tuned_player(game)) is not None:
        d = compare_run(game, meta, n, planned=True, sets={"policies": [tuned.policy], "seat_weights": {}, "restrict": {},
                                                           "weights": {**meta["scenario"].get("weights", {}),
                                                                       tuned.policy: tuned.weights}})
        settings[f"{tuned.label()} (all)"] = verdict(d)
    settings[f"search (all, {plan.rollouts} rollouts per option)"] = under = verdict(searched)
    names = list(here.numbers)
    rep.section(TITLE, f"Every seat plays `search`: at each decision it plays every option out {plan.rollouts} times on "
                f"average from worlds consistent with what it has seen (the cards it cannot see re-dealt, the dice from "
                f"a stream of its own), its rollouts played by {player}, and keeps its rollout player's choice unless "
                f"another option won in significantly more of the same worlds (docs/adding-a-game.md, \"A player that "
                f"searches\"). {n:,} games on the run's seed, next to this run and the tuned player on the same games.")
    rep.table(["policies", *names, "verdict", "n"],
              [[label, *[v.numbers[k].fmt(pct=k not in here.means) for k in names], v.label, f"{n:,}"]
               for label, v in settings.items()])
    moves = {k: difference(under.numbers[k], here.numbers[k]) for k in names if k not in here.means}
    biggest = max(moves.items(), key=lambda kv: abs(kv[1].value)) if moves else None
    full = verdict(df).label
    if under.label == full:
        rep.search, said = "holds", f"**Under search play the verdict holds**: {under.label}"
    elif under.label == here.label:
        rep.search = f"not decided at n={n:,}"
        said = (f"**Under search play the verdict is not decided at this n**: {n:,} games of search play give "
                f"\"{under.label}\", as do this run's first {n:,} games; the run's own verdict (\"{full}\", on "
                f"{df.height:,} games) needs more games of search play to be checked")
    else:
        rep.search = f"changes: {under.label}"
        said = f"**Under search play the verdict changes**: {under.label} (this run on the same {n:,} games: {here.label})"
    rep.text(said + (f". The largest move is {biggest[0]}: {fmt_points(biggest[1])} (search minus this run on the same "
                     "games, 95% interval)." if biggest else "."))
    points = strength.curve(game, _scenario(game, meta), list(plan.budgets), curve_n, meta["seed"], COMPARE_JOBS)
    rows = strength.table(points)
    policy, weights = strength.field_player(game)
    rep.text(f"How strong the search player is: one seat of search against the field ({policy}"
             + (" " + ", ".join(f"{k}={v:g}" for k, v in weights.items()) if weights else "")
             + f"), its seat rotated through every seat on the same {curve_n:,} games, paired against the field's own "
             "player in the same seats (its own share). A gain whose interval lies above 0 is a stronger player.")
    rep.table(list(rows[0]), [[str(v) for v in r.values()] for r in rows])


def _scenario(game, meta: dict):
    return validate(game.Scenario, meta["scenario"], "the run's scenario")


def _rollout_label(sc) -> str:
    weights = ", ".join(f"{k}={v:g}" for k, v in sc.rollout_weights.items())
    return f"{sc.rollout_policy}" + (f" ({weights})" if weights else "")
