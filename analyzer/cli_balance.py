"""The designer's loop on the command line: `compare`, `check`, `sweep`, `tune` and `ci init`.

Registered on analyzer.cli_app's app (analyzer.cli imports this module). Every command plays its variants through
analyzer.variants, with one progress bar over all of its games.
"""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.table import Table

from . import games
from .cli_app import (  # api, results, scen: lazy modules (`analyzer --help` imports no numba)
    Command,
    ForceOpt,
    GameArg,
    JobsOpt,
    Play,
    PlayersOpt,
    QuietOpt,
    ScenarioOpt,
    SeedOpt,
    SetOpt,
    api,
    app,
    err,
    games_bar,
    main,
    out,
    play_options,
    results,
    scen,
    scripted_source,
    simulation,
)
from .errors import UserError, check_run, n_games


# -- compare ----------------------------------------------------------------------------------------------
def _compare_inputs(g, base: Path, variant: Optional[Path], play: Play):
    """(base scenario, variant scenario) for two scenario files, or a file and --set/--restrict overrides
    (they apply to the variant: BASE as it is against BASE with them)."""
    if variant is None and not play.set and not play.restrict:
        raise UserError(f"compare: give a VARIANT scenario, --set or --restrict to compare {base} with")
    if variant is not None and variant.suffix == ".parquet":
        raise UserError(f"{variant}: a results file; compare it with another results file, not with {base}")
    base_sc = api.load_scenario(g, base, None, play.players, play.policy)
    variant_sc = play.scenario(g, variant or base)
    if base_sc.players != variant_sc.players:
        raise UserError(f"{variant}: {variant_sc.players} players, but {base} has {base_sc.players}; "
                        "compare scenarios of one player count (or pass --players)")
    return base_sc, variant_sc


def _results_inputs(g, base: Path, variant: Optional[Path], n, play: Play):
    from . import compare as cmp
    from . import scenario as scen
    if variant is None or variant.suffix != ".parquet":
        raise UserError(f"compare: {base} is a results file; the variant must be one too (VARIANT.parquet)")
    if play.set or play.players or play.policy or play.restrict or n:
        raise UserError("compare: --set, --restrict, --n, --players and --policy apply to scenarios; results files are compared as they are")
    (a, a_meta), (b, b_meta) = results.read(base), results.read(variant)
    cmp.check_comparable(g, a_meta, b_meta, str(base), str(variant))
    return (a, a_meta, scen.validate(g.Scenario, a_meta["scenario"], f"{base} metadata"),
            b, scen.validate(g.Scenario, b_meta["scenario"], f"{variant} metadata"))


def run_compare(g, base: Path, variant: Optional[Path], n, play: Play, quiet: bool, out_dir: Optional[Path] = None):
    """Play (or read) both sides and return (rows, base results, variant results, base metadata, description)."""
    from . import compare as cmp
    from . import variants
    if base.suffix == ".parquet":
        a, meta, a_sc, b, b_sc = _results_inputs(g, base, variant, n, play)
    else:
        a_sc, b_sc = _compare_inputs(g, base, variant, play)
        count, seed = check_run(n or "20_000", play.seed, play.jobs)
        meta = simulation.run_meta(g, a_sc, seed, count, api.command_line())
    if out_dir:
        results.check_report_dir(out_dir)
    if base.suffix != ".parquet":
        with games_bar(g, "compare", 2 * count, quiet) as advance:
            runs = variants.play_scenarios(g, {"base": a_sc, "variant": b_sc}, count, seed, play.jobs, advance)
        a, b = runs["base"], runs["variant"]
    flags = [f" `--set {s}`" for s in play.set or ()] + [f" `--restrict {r}`" for r in play.restrict or ()]
    what = f"Base `{base}`; variant `{variant or base}`" + "".join(flags) + "."
    return cmp.rows(g, a, a_sc, b, b_sc), a, b, with_variant(g, meta, a_sc, b_sc), what


def with_variant(g, meta: dict, base_sc, variant_sc) -> dict:
    """The base's run metadata plus what the report header says of the variant: its name and hash, what it
    changes from the base, and its rules against the game's default (reporting.variant_line)."""
    from . import scenario as scen
    changes = [c.lstrip(".") for c in scen.differences(base_sc.dump(), variant_sc.dump(), "")]
    return {**meta, "variant": {"name": variant_sc.name, "hash": variant_sc.content_hash(), "changes": changes,
                                "changed_rules": simulation.changed_rules(g, variant_sc)}}


@app.command(cls=Command)
@play_options
def compare(
    game: GameArg,
    base: Annotated[Path, typer.Argument(help="Base scenario YAML (or a results parquet).", show_default=False, metavar="BASE")],
    variant: Annotated[Optional[Path], typer.Argument(help="Variant scenario YAML (or a results parquet of the same game); "
                                                      "omit it to compare BASE with BASE plus --set or --restrict (they "
                                                      "apply to the variant).", show_default=False, metavar="VARIANT")] = None,
    n: Annotated[Optional[str], typer.Option("--n", help="Games per side (default 20_000).", metavar="N")] = None,
    play: Play = Play(),
    out_dir: Annotated[Optional[Path], typer.Option("--out", help="Also write the comparison as a report (md, html, forest plot) into this folder.", metavar="DIR")] = None,
    markdown: Annotated[bool, typer.Option("--markdown", help="Print the table as Markdown (e.g. for a CI job summary).")] = False,
    quiet: QuietOpt = False,
):
    """What did an edit change? One row per balance measure.

    Both sides play the same seeded games (common random numbers).

    \b
    Example: analyzer compare stop scenarios/stop/default.yaml --set rules.match_limit=300 --n 20000
    """
    from . import compare as cmp
    g = games.get(game)
    table, a, b, meta, what = run_compare(g, base, variant, n, play, quiet, out_dir)
    if markdown:
        out.print(cmp.markdown(table, a.height, b.height, f"{g.name}: {what}"), highlight=False, markup=False)
    else:
        t = Table(title=f"{g.name}: {what}", title_justify="left")
        for i, h in enumerate(cmp.HEADERS):
            t.add_column(h, justify="left" if i in (0, 5) else "right")
        for r in table:
            t.add_row(r.label, *cmp.cells(r))
        out.print(t)
        out.print(cmp.headline(table).replace("**", ""), highlight=False, markup=False)
        out.print(cmp.caption(table, a.height, b.height), highlight=False)
    if out_dir:
        index = cmp.write(table, meta, a.height, b.height, f"{g.title}: what the edit changed", what, out_dir)
        out.print(f"report: {index} and {index.with_suffix('.html')}", highlight=False)


# -- check ------------------------------------------------------------------------------------------------
def _check_report(g, sc, meta: dict, verdicts, n: int, rule: str, out_dir: Path) -> Path:
    """The check as a report: its headline answers are the overall result and the verdict of every bound."""
    from . import balance
    from .reporting import Report
    rep = Report(f"{g.title}: balance check of {sc.name}", meta, n)
    code = balance.exit_code(verdicts)
    overall = {0: f"**Every bound passes** ({len(verdicts)} of {len(verdicts)}; exit 0).",
               1: f"**A bound is broken**: {sum(v.state == balance.FAIL for v in verdicts)} of {len(verdicts)} fail (exit 1).",
               3: f"**Undecided**: {sum(v.state == balance.UNDECIDED for v in verdicts)} of {len(verdicts)} bounds need "
                  "more games; the interval straddles the bound (exit 3)."}[code]
    rep.headline(f"{overall} {n:,} games.", short=overall)
    for v in verdicts:
        rep.headline(f"**{v.state}** `{v.bound}`: {v.what} {_interval(v)} (n={v.n:,}).")
    rep.section("Balance bounds", rule)
    rep.table(["bound", "statistic", "estimate [interval]", "n", "result"],
              [[v.bound, v.what, _interval(v), v.n, v.state] for v in verdicts])
    return rep.write(out_dir)


def _interval(v) -> str:
    if v.pct:
        return f"{100 * v.value:.2f}% [{100 * v.lo:.2f}%, {100 * v.hi:.2f}%]"
    return f"{v.value:.3g} [{v.lo:.3g}, {v.hi:.3g}]"


@app.command(cls=Command)
@play_options
def check(
    game: GameArg,
    scenario: Annotated[Path, typer.Option("--scenario", help="Scenario YAML with a balance: block.", metavar="FILE")],
    n: Annotated[Optional[str], typer.Option("--n", help="Games (default 20_000; with --until-decided: the first look).", metavar="N")] = None,
    until_decided: Annotated[bool, typer.Option("--until-decided", help="Add games (doubling) until every bound is decided, up to --max-n; error spent over the looks.")] = False,
    max_n: Annotated[str, typer.Option("--max-n", help="Most games with --until-decided.", metavar="N")] = "320_000",
    play: Play = Play(),
    out_dir: Annotated[Optional[Path], typer.Option("--out", help="Report folder (default reports/check/GAME-SCENARIO).", metavar="DIR")] = None,
    quiet: QuietOpt = False,
):
    """Test the scenario's balance: bounds (exit 0, 1 or 3).

    Exit 0 when every bound passes, 1 when a bound is broken, 3 when one is undecided.

    \b
    Example: analyzer check stop --scenario scenarios/stop/default.yaml --n 20000
    """
    import polars as pl

    from . import balance
    g = games.get(game)
    sc = play.scenario(g, scenario)
    if not sc.balance:
        raise UserError(f"{scenario}: balance: no bounds to check; add e.g. `balance: {{position_win_rate: {{max_spread: 0.05}}}}`")
    first, seed = check_run(n or ("2_000" if until_decided else "20_000"), play.seed, play.jobs)
    top = n_games(max_n, "max_n") if until_decided else first
    if top < first:
        raise UserError(f"--max-n {max_n}: must be at least --n ({first:,})")
    target = out_dir or Path("reports") / "check" / f"{g.name}-{scenario.stem}"
    results.check_report_dir(target)
    sizes = balance.looks(first, top)
    alpha = balance.ALPHA / len(sizes)
    chunks, played, verdicts = [], 0, []
    with games_bar(g, "check", top, quiet) as advance:
        for look, size in enumerate(sizes):
            # each look adds new games (seed + look), so the first look is exactly `sim --n N --seed S`
            chunks.append(simulation.run(g, sc, size - played, seed + look, play.jobs, on_progress=advance))
            played = size
            verdicts = balance.decide(sc.balance, g.measures(pl.concat(chunks), sc), alpha)
            if balance.exit_code(verdicts) != 3:
                break
    rule = (f"{played:,} games (seeds {seed}..{seed + len(chunks) - 1}). Each interval is simultaneous over the "
            f"measures a bound involves (Bonferroni), at level {alpha:.3g}"
            + (f": the 5% error spent in equal shares over {len(sizes)} planned looks at "
               f"{', '.join(f'{s:,}' for s in sizes)} games (--until-decided)." if until_decided else ".")
            + " PASS: the interval lies inside the bound; FAIL: wholly beyond it; UNDECIDED: it straddles the bound.")
    t = Table(title=f"{g.name}: balance bounds of {scenario}", title_justify="left")
    for h in ("bound", "statistic", "estimate [interval]", "result"):
        t.add_column(h, overflow="fold")
    for v in verdicts:
        t.add_row(v.bound, v.what, _interval(v), v.state)
    out.print(t)
    out.print(rule, highlight=False)
    meta = simulation.run_meta(g, sc, seed, played, api.command_line())
    index = _check_report(g, sc, meta, verdicts, played, rule, target)
    out.print(f"report: {index} and {index.with_suffix('.html')}", highlight=False)
    code = balance.exit_code(verdicts)
    if code:
        raise typer.Exit(code)
def parse_values(text: str) -> list:
    """'0,1,2' or '[0, 1, 2]' or a YAML list of lists -> the list of values to sweep."""
    import yaml
    try:
        v = scen.load_yaml_text(text)  # the scenario's YAML: true/false only, no duplicate keys
        if not isinstance(v, list):
            v = scen.load_yaml_text(f"[{text}]")
    except yaml.YAMLError:
        raise UserError(f"--values {text!r}: not a list; write e.g. 0,1,2 or '[[0,1],[1,0]]'") from None
    if not v:
        raise UserError(f"--values {text!r}: no values")
    return v


def _position_table(title: str, rows) -> None:
    from . import positions  # scipy: a second of start-up that `sim` does not need
    from .stats import fmt_p
    t = Table(title=title, title_justify="left")
    t.add_column("value")
    estimates = [r.position_estimates() for r in rows]
    for label in positions.labels(len(estimates[0])):
        t.add_column(f"{label} win %", justify="right")
    t.add_column("fairness p", justify="right")
    for r, est in zip(rows, estimates, strict=True):
        t.add_row(", ".join(f"{v}" for v in r.values.values()),
                  *[f"{100 * e.value:.1f} [{100 * e.lo:.1f}, {100 * e.hi:.1f}]" for e in est],
                  fmt_p(positions.fairness(r.df).p_value))
    out.print(t)
    out.print(f"n={rows[0].df.height:,} games per value; position 1 moves first; 95% Wilson intervals; "
              "fairness p: chi-square on sole wins by position.")


@app.command(cls=Command)
@play_options
def sweep(
    game: GameArg,
    param: Annotated[list[str], typer.Option("--param", help="Scenario field to vary, e.g. rules.turn_order_bonus.1.credits; "
                                             "give two --param (each with its --values) for a grid and a heatmap.", metavar="FIELD")],
    values: Annotated[list[str], typer.Option("--values", help="Values to try: 0,1,2,3 (YAML; lists as '[[..],[..]]'), one per --param.", metavar="V1,V2,...")],
    n: Annotated[str, typer.Option("--n", help="Games per value (per grid cell).", metavar="N")] = "20_000",
    scenario: ScenarioOpt = None,
    play: Play = Play(),
    out_file: Annotated[Optional[Path], typer.Option("--out", help="Write all runs, with a `variant` column, to this parquet.", metavar="FILE")] = None,
    force: ForceOpt = False,
    heatmap: Annotated[Optional[Path], typer.Option("--heatmap", help="With two --param: the heatmap PNG (default reports/sweep/GAME.png).", metavar="FILE")] = None,
    quiet: QuietOpt = False,
):
    """Play the same seeded games under each value of a field.

    One field, or two as a grid.

    A table compares the turn positions' win rates under each value; a grid also draws a heatmap.

    \b
    Example: analyzer sweep spacebase --param rules.turn_order_bonus.1.credits --values 0,1,2,3 --n 20000
    """
    import matplotlib.pyplot as plt

    from . import sweep as sw
    from . import variants
    if len(param) not in (1, 2) or len(values) != len(param):
        raise UserError(f"sweep: give one or two --param, each with its own --values (got {len(param)} --param, {len(values)} --values)")
    if len(set(param)) < len(param):
        raise UserError(f"--param {param[0]}: given twice; a grid needs two different fields")
    if heatmap is not None and len(param) != 2:
        raise UserError(f"--heatmap {heatmap}: a heatmap is of a grid of two fields; give a second --param with its --values, or drop --heatmap")
    space = {p: parse_values(v) for p, v in zip(param, values, strict=True)}
    count, seed = check_run(n, play.seed, play.jobs)
    g = games.get(game)
    base = play.scenario(g, scenario)
    api.check_playable(g, base, scripted_source(g, scenario, play.policy))
    points = sw.grid(space)
    for p in points:  # fail fast on a bad field or value before any game is played
        variants.scenario_of(g, base, p)
    picture = heatmap or (Path("reports") / "sweep" / f"{g.name}.png" if len(space) == 2 else None)
    if out_file:
        results.check_writable(out_file, replace=force)
    if picture:
        results.check_report_dir(picture.parent)
    with games_bar(g, "sweep", count * len(points), quiet) as advance:
        rows = sw.sweep(g, base, space, count, seed, play.jobs, advance)
    _position_table(f"{g.name}: win rate by turn position for each {' x '.join(param)}", rows)
    if out_file:
        results.write_atomic(variants.frame({variants.Variant.of(r.values).name: r.df for r in rows}), out_file,
                             meta={"game": g.name, "sweep": param, "values": list(space.values()), "seed": seed, "n": count,
                                   "command": api.command_line()})
        out.print(f"wrote {out_file}")
    if picture:
        picture.parent.mkdir(parents=True, exist_ok=True)
        fig = sw.heatmap(rows, space)
        fig.savefig(picture, dpi=110, bbox_inches="tight")
        plt.close(fig)
        out.print(f"heatmap: {picture}")


@app.command(cls=Command)
@play_options
def tune(
    game: GameArg,
    target: Annotated[str, typer.Option("--target", help="position-fairness | faction-fairness | score-spread | length (with --goal).", metavar="TARGET")] = "position-fairness",
    goal: Annotated[Optional[float], typer.Option("--goal", help="With --target length: the wanted mean length.", metavar="LENGTH")] = None,
    n: Annotated[str, typer.Option("--n", help="Games per candidate in the first round (doubling each round).", metavar="N")] = "4_000",
    check_n: Annotated[str, typer.Option("--check-n", help="Games for the final check with a fresh seed.", metavar="N")] = "100_000",
    candidates: Annotated[int, typer.Option("--candidates", help="At most this many settings of the tune: grid (a seeded sample when larger).", metavar="N")] = 32,
    scenario: ScenarioOpt = None,
    play: Play = Play(),
    quiet: QuietOpt = False,
):
    """Search the scenario's tune: block for the best setting.

    Successive halving on common random numbers over the tune: block (field -> candidate values); the
    winner is played against the scenario as given on fresh seeds, and proposed (with the --set flags to
    paste) only when its loss there is significantly lower (paired bootstrap). Otherwise tune says that
    nothing in this space beats the scenario as given at this n.

    \b
    Example: analyzer tune spacebase --target position-fairness
    """
    from . import tune as tn
    from . import variants
    g = games.get(game)
    base = play.scenario(g, scenario)
    api.check_playable(g, base, scripted_source(g, scenario, play.policy))
    tn.check_target(g, target, goal)
    if not base.tune:
        raise UserError(f"{scenario or g.default_scenario}: tune: no fields to search; add e.g. `tune: {{rules.x: [1, 2, 3]}}`")
    if candidates < 2:
        raise UserError(f"--candidates {candidates}: must be at least 2")
    count, seed = check_run(n, play.seed, play.jobs)
    check = n_games(check_n, "check_n")
    points = tn.candidates(base, base.tune, candidates, seed)
    for p in points:  # a candidate that makes no valid scenario fails here, before any game is played
        variants.scenario_of(g, base, p, f"{scenario or g.default_scenario}: tune: {variants.Variant.of(p).name}")
    own = tn.own_setting(base, base.tune)

    def said(r: int, scored) -> None:
        err.print(f"round {r + 1}: {len(scored)} candidates; best loss {scored[0][1]:.4g} for "
                  + _setting_name(scored[0][0], own), highlight=False)
    with games_bar(g, "tune", tn.total_games(len(points), count), quiet) as advance:
        res = tn.successive_halving(g, base, points, target, count, seed, play.jobs, goal, advance, said)
    searched = (f"best of {len(points)} candidates (successive halving, {res.games:,} games from {count:,} per "
                f"candidate, seed {seed}; target {target}): {_setting_name(res.best, own)}")
    if res.best == own:  # nothing to confirm: the search's winner is the scenario itself
        out.print(searched, highlight=False)
        out.print(f"Nothing in this space beats the scenario as given at this n (--n {count:,}): keep it, or search "
                  "with a larger --n.", highlight=False)
        return
    with games_bar(g, "tune check", 2 * check, quiet) as advance:
        confirm = variants.play(g, base, [variants.Variant("as given"), variants.Variant("tuned", res.best)],
                                check, seed + 1, play.jobs, advance)
    out.print(searched, highlight=False)
    verdict = _confirm_table(g, target, base, res.best, confirm, seed + 1, goal)
    if verdict.better:
        out.print(f"Proposal: {variants.Variant.of(res.best).name}. Paste it: {tn.set_flags(res.best)} (or set those "
                  "fields in the scenario's YAML).", highlight=False, markup=False)
    else:
        out.print(f"Nothing in this space beats the scenario as given at this n: the search's best is not significantly "
                  f"better on {check:,} fresh games. Keep the scenario as given, or search again with a larger --n "
                  "and --check-n.", highlight=False)


def _setting_name(setting: dict, own: dict) -> str:
    from . import variants
    name = variants.Variant.of(setting).name
    return f"{name} (the scenario as given)" if setting == own else name


def _confirm_table(g, target: str, base, best: dict, confirm: dict, seed: int, goal):
    """The winner against the scenario as given on the same fresh games; returns the paired verdict."""
    from . import tune as tn
    from . import variants
    group = tn.TARGET_GROUP[target]
    t = Table(title=f"check on fresh games (seed {seed}): {tn.TARGETS[target]}", title_justify="left")
    t.add_column("scenario")
    scenarios = {"as given": base, "tuned": variants.scenario_of(g, base, best)}
    rows = {name: [m for m in g.measures(df, scenarios[name]) if m.group == group] for name, df in confirm.items()}
    for m in rows["as given"]:
        t.add_column(m.label, justify="right")
    t.add_column("loss", justify="right")
    verdict = tn.confirm(g, target, confirm["as given"], base, confirm["tuned"], scenarios["tuned"], goal, seed=seed)
    for name, ms in rows.items():
        t.add_row(name, *[m.estimate().fmt(pct=m.pct) for m in ms],
                  f"{verdict.given if name == 'as given' else verdict.best:.4g}")
    out.print(t)
    d = verdict.diff
    out.print(f"95% intervals; loss: what the target minimises (smaller is better). Tuned minus as given: {d.value:+.3g} "
              f"[{d.lo:+.3g}, {d.hi:+.3g}] (paired bootstrap over the same {d.n:,} games): "
              + ("significantly lower." if verdict.better else "not significantly lower."), highlight=False)
    return verdict


# -- train ------------------------------------------------------------------------------------------------
@app.command(cls=Command)
def train(
    game: GameArg,
    policy: Annotated[Optional[str], typer.Option("--policy", help="The policy whose weights to tune (default: the game's first policy with weights).", metavar="NAME")] = None,
    budget: Annotated[str, typer.Option("--budget", help="Most games in all: searches, confirmations and the final measure.", metavar="GAMES")] = "200_000",
    candidates: Annotated[int, typer.Option("--candidates", help="Weight settings per search: the field's own plus a Latin hypercube sample of the box.", metavar="N")] = 16,
    rounds: Annotated[int, typer.Option("--rounds", help="Most league rounds (the budget is shared equally among them).", metavar="N")] = 3,
    seed: SeedOpt = 0,
    players: PlayersOpt = None,
    scenario: Annotated[Optional[Path], typer.Option("--scenario", help="Scenario YAML whose weights are the starting field (default: scenarios/GAME/default.yaml).", metavar="FILE")] = None,
    set: SetOpt = None,
    jobs: JobsOpt = 2,
    out_file: Annotated[Optional[Path], typer.Option("--out", help="The tuned scenario (default scenarios/GAME/tuned.yaml).", metavar="FILE")] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace an existing --out.")] = False,
    quiet: QuietOpt = False,
):
    """Tune a policy's weights by self-play into tuned.yaml.

    Fitness: the win rate of one seat playing a candidate against every other seat at the field's
    weights, its seat rotated through every seat in equal games; every rotation and every candidate
    plays the same seeded games (common random numbers), and a game's first player is drawn from its
    own stream, so the candidate meets every turn position equally. Successive halving picks a winner
    among the field's weights and a Latin hypercube sample of the weight box; fresh games confirm it
    (95% interval) next to the field's own share: what the field's player wins in the same seats on the
    same games (not 1/P: shared wins and draws move it). While the paired gain over that share is
    significant, the winner becomes the field; each round searches a box half as wide around the field.
    Last, tuned against the starting field on fresh games: the numbers tuned.yaml states, with the
    command that made it.

    \b
    Example: analyzer train pig --budget 200000 --seed 1
    """
    from . import train as tr
    g = games.get(game)
    total, seed = check_run(budget, seed, jobs, name="budget")
    base = api.load_scenario(g, scenario, set, players)
    name = tr.policy_of(g, policy)
    if candidates < 2:
        raise UserError(f"--candidates {candidates}: must be at least 2 (the field's weights and one other)")
    if rounds < 1:
        raise UserError(f"--rounds {rounds}: must be at least 1")
    plan = tr.Plan.of_budget(total, base.players, candidates, rounds)
    target = out_file or Path("scenarios") / g.name / "tuned.yaml"
    tr.check_out(target, force)
    if warning := plan.thin():
        err.print(warning, highlight=False, markup=False)
    command = " ".join([f"analyzer train {g.name} --policy {name} --budget {total} --seed {seed}",
                        f"--players {base.players} --candidates {candidates} --rounds {rounds}",
                        *([f"--scenario {scenario}"] if scenario else []), *(f"--set {x}" for x in set or ())])

    def said(r) -> None:
        won = (f"confirmed against the field {_against_own(r.confirmed)}: "
               + ("beats it" if r.beats_field else "no significant gain") if r.confirmed else "the field won its own search")
        err.print(f"round {r.index + 1}: field {tr.fmt_weights(r.field)}; best of {r.candidates}: "
                  f"{tr.fmt_weights(r.best)}; {won}", highlight=False, markup=False)
    with games_bar(g, "train", plan.total, quiet) as advance:
        res = tr.train(g, base, name, plan, seed, jobs, advance, said)
    tuned = tr.tuned_scenario(g, base, res, command, str(target))
    _train_table(g, res, plan)
    tr.write_yaml(tuned, target, f"made by: {command}")
    out.print(f"wrote {target}", highlight=False)


def _train_table(g, res, plan) -> None:
    from . import train as tr
    t = Table(title=f"{g.name}: training {res.policy} ({res.players} players, the candidate's seat rotated through every seat)",
              title_justify="left")
    for h in ("round", "search box", "field -> winner", "winner vs field (its own share, gain)", "verdict"):
        t.add_column(h, overflow="fold")
    for r in res.rounds:
        box = ", ".join(f"{w.name} {lo:g}..{hi:g}" for w, (lo, hi) in zip(g.Scenario.WEIGHTS[res.policy], r.bounds, strict=True))
        t.add_row(f"{r.index + 1} ({r.candidates} candidates, {r.search.games:,} games)", box,
                  f"{tr.fmt_weights(r.field)} -> {tr.fmt_weights(r.best)}",
                  _against_own(r.confirmed) if r.confirmed else "-",
                  "beats the field" if r.beats_field else "stop" if r.confirmed else "field kept")
    out.print(t)
    out.print(f"Successive halving from {plan.first:,} games per candidate and seat, on common random numbers; "
              f"confirmations on fresh games ({plan.confirm:,} per seat, and as many of the field alone: the field's "
              f"own share in the same seats on the same games); 95% intervals with a game as the unit. "
              f"Stopped: {res.stopped}. {res.games:,} games.", highlight=False)
    out.print(f"tuned: {res.policy} {tr.fmt_weights(res.tuned)}: {tr.verdict(res)}.", highlight=False)


def _against_own(p) -> str:
    """A confirmation in a few words: the winner's rate, the field's own share, the paired gain."""
    return (f"{p.rate.fmt(pct=True)} (the field's own {100 * p.field.value:.1f}%, gain {100 * p.gain.value:+.1f} "
            f"points [{100 * p.gain.lo:+.1f}, {100 * p.gain.hi:+.1f}])")


# -- ci ---------------------------------------------------------------------------------------------------
ci_app = typer.Typer(help="Balance checks for a designer's repository.\n\n`ci init` writes the CI files; the "
                     "other commands are the steps they run.\n\n\b\nExample: analyzer ci init .", no_args_is_help=True)
app.add_typer(ci_app, name="ci")
FolderArg = Annotated[Path, typer.Argument(help="Folder of scenario YAML files (searched recursively).")]
CiN = Annotated[str, typer.Option("--n", help="Games per check, report or comparison side.")]


@ci_app.command("init")
def ci_init(folder: Annotated[Path, typer.Argument(help="The designer's git repository.")] = Path("."),
            force: Annotated[bool, typer.Option("--force", help="Overwrite existing CI files.")] = False,
            source: Annotated[Optional[str], typer.Option("--source", help="Install analyzer from this git URL and tag "
                                                          "(e.g. git+https://github.com/OWNER/REPO@v0.1.0) instead of "
                                                          "this version's release.", metavar="GIT_URL@TAG")] = None):
    """Write .github/workflows/balance.yml and .gitlab-ci.yml into a git repository.

    They install exactly this version of analyzer's distribution (or --source), check every scenario's
    balance: bounds (--until-decided), regenerate the reports, compare a pull request with its base,
    and cache the compiled kernels between runs.

    \b
    Example: analyzer ci init . --source git+https://github.com/OWNER/REPO@v0.1.0
    """
    from . import ci
    for path in ci.init(folder, force, source):
        out.print(f"wrote {path}", highlight=False)


@ci_app.command("cache-key")
def ci_cache_key(folder: FolderArg = Path("scenarios")):
    """Print the compiled kernels' cache key for these scenarios (the CI files' cache step uses it).

    It names what compiled kernels are valid for: analyzer's distribution, version and sources, numba,
    Python, OS and CPU target (`generic` unless NUMBA_CPU_NAME names another), and the games the scenarios use.
    """
    from . import ci
    out.print(ci.cache_key(folder), highlight=False, markup=False)


@ci_app.command("check")
def ci_check(folder: FolderArg = Path("scenarios"),
             n: Annotated[Optional[str], typer.Option("--n", help="Games per check (default 20_000; with --until-decided: "
                                                      "the first look, default 2_000).", metavar="N")] = None,
             until_decided: Annotated[bool, typer.Option("--until-decided", help="Add games (doubling) until every bound "
                                                         "is decided, up to --max-n (see `analyzer check --help`).")] = False,
             max_n: Annotated[str, typer.Option("--max-n", help="Most games per check with --until-decided.", metavar="N")] = "320_000",
             seed: SeedOpt = 0, jobs: JobsOpt = 2,
             out_dir: Annotated[Path, typer.Option("--out", help="One check report per scenario under this folder "
                                                   "(scenarios/stop/default.yaml -> reports/check/stop/default).")] = Path("reports/check")):
    """`check` every scenario that has a balance: block; exit with the worst result (1 broken, 3 undecided).

    \b
    Example: analyzer ci check scenarios --until-decided --max-n 320000
    """
    from . import ci
    first, seed = check_run(n or ("2_000" if until_decided else "20_000"), seed, jobs)
    if until_decided and n_games(max_n, "max_n") < first:
        raise UserError(f"--max-n {max_n}: must be at least --n ({first:,})")
    files = [f for f in ci.scenario_files(folder) if ci.has_bounds(f)]
    if not files:
        raise UserError(f"{folder}: no scenario has a balance: block")
    for f in files:  # every scenario and report folder checked before any game is played
        api.load_scenario(games.get(ci.game_of(f)), f)
        results.check_report_dir(out_dir / ci.report_name(f, folder))
    sizes = [*(["--n", n] if n is not None else []), *(["--until-decided", "--max-n", max_n] if until_decided else [])]
    codes = []
    for f in files:
        err.print(f"check {f}", highlight=False)
        codes.append(main(["check", ci.game_of(f), "--scenario", str(f), *sizes, "--seed", str(seed),
                           "--jobs", str(jobs), "--out", str(out_dir / ci.report_name(f, folder))]))
    worst = 2 if 2 in codes else 1 if 1 in codes else 3 if 3 in codes else 0
    if worst:
        raise typer.Exit(worst)


@ci_app.command("reports")
def ci_reports(folder: FolderArg = Path("scenarios"), n: CiN = "20_000", seed: SeedOpt = 0, jobs: JobsOpt = 2,
               out_dir: Annotated[Path, typer.Option("--out", help="One report per scenario under this folder.")] = Path("reports")):
    """Play every scenario and write its game's balance report (comparison runs sized to --n)."""
    from . import ci
    count, seed = check_run(n, seed, jobs)
    runs = []
    for f in ci.scenario_files(folder):  # every scenario and report folder checked before any game is played
        g = games.get(ci.game_of(f))
        runs.append((f, g, api.load_scenario(g, f)))
        results.check_report_dir(out_dir / ci.report_name(f, folder))
    for f, g, sc in runs:
        err.print(f"report {f}", highlight=False)
        df = simulation.run(g, sc, count, seed, jobs, command=api.command_line())
        index = api.report(g, df, out_dir / ci.report_name(f, folder), meta=simulation.run_meta(g, sc, seed, count, api.command_line()))
        out.print(f"report: {index}", highlight=False)


@ci_app.command("compare")
def ci_compare(folder: FolderArg = Path("scenarios"),
               base: Annotated[str, typer.Option("--base", help="Git revision to compare with, e.g. origin/main.")] = "origin/main",
               n: CiN = "20_000", seed: SeedOpt = 0, jobs: JobsOpt = 2):
    """Markdown comparison of every scenario changed since --base (for a pull request's job summary)."""
    import tempfile

    from . import ci
    from . import compare as cmp
    changed = ci.changed_since(base, folder)
    out.print(f"## Balance: what this change does (against `{base}`)\n", highlight=False, markup=False)
    if not changed:
        out.print("No scenario changed.", highlight=False)
    for path, old in changed:
        if old is None:
            out.print(f"`{path.name}`: a new scenario; nothing to compare with.\n", highlight=False, markup=False)
            continue
        with tempfile.TemporaryDirectory() as tmp:
            before = Path(tmp) / path.name
            before.write_text(old, encoding="utf-8")
            g = games.get(ci.game_of(path))
            table, a, b, _, _ = run_compare(g, before, path, n, Play(seed=seed, jobs=jobs), True)
        out.print(cmp.markdown(table, a.height, b.height, f"{g.name}: `{path.name}` at {base} against this change"),
                  highlight=False, markup=False)
