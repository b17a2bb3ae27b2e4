"""`analyzer` command line: a thin layer over analyzer.api. Bad input is one line on stderr and exit 2."""
from __future__ import annotations

import gc
import json
import re
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from . import api, games, results, runner
from . import scenario as scen
from .errors import UserError

app = typer.Typer(
    help="Monte Carlo strategy analyzer and balance tool for tabletop games.\n\n"
    "Typical session: `analyzer games` to see what is there, `analyzer sim stop --n 1e6` to play a million "
    "seeded games into results/stop.parquet, `analyzer report stop results/stop.parquet` for the balance "
    "report, `analyzer replay stop --seed 7 --game 42` to read one game move by move.",
    no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False, rich_markup_mode=None,
)
err = Console(stderr=True, soft_wrap=True)
out = Console(soft_wrap=True)

GameArg = Annotated[str, typer.Argument(help="Game key: " + ", ".join(games.names()), show_default=False)]
SeedOpt = Annotated[int, typer.Option("--seed", help="Run seed; with a game id it fixes every game.")]
ScenarioOpt = Annotated[Optional[Path], typer.Option("--scenario", help="Scenario YAML (default: scenarios/GAME/default.yaml).")]
SetOpt = Annotated[Optional[list[str]], typer.Option("--set", help="Override a scenario field, e.g. --set rules.match_limit=300 (repeatable).")]
PlayersOpt = Annotated[Optional[int], typer.Option("--players", help="Number of players (overrides the scenario).")]
JobsOpt = Annotated[int, typer.Option("--jobs", "-j", help="Worker processes (results do not depend on it).")]
PolicyOpt = Annotated[Optional[str], typer.Option("--policy", help="Policy for every seat, or one per seat: greedy,random,...")]


MAX_GAMES = 10**10  # ~3 days at 40k games/s and ~3.5 TB of results: past that a run is a typo


def parse_count(text: str, flag: str = "--n") -> int:
    """'1e6', '1_000_000', '250000' -> int; anything else (fractions, negatives, words, counts beyond
    MAX_GAMES) is an error."""
    t = text.strip().replace("_", "")
    try:
        value = float(t) if re.fullmatch(r"\d+(\.\d+)?[eE]\+?\d+", t) else int(t)
    except ValueError:
        raise UserError(f"{flag} {text!r}: expected a whole number such as 100000, 1e6 or 1_000_000") from None
    if value != int(value) or value < 1:
        raise UserError(f"{flag} {text!r}: must be a whole number of at least 1")
    if value > MAX_GAMES:
        raise UserError(f"{flag} {text!r}: at most 1e10 games per run; split larger studies into runs with different --seed")
    return int(value)


@app.command("games")
def games_cmd(describe: Annotated[Optional[str], typer.Option("--describe", help="Show a game's result columns, policies and rule parameters.")] = None):
    """List the games, their scenarios and policies."""
    if describe is None:
        for name in games.names():
            g = games.get(name)
            files = ", ".join(p.stem for p in g.scenario_files())
            low, high = g.Scenario.MIN_PLAYERS, g.Scenario.MAX_PLAYERS
            out.print(f"[bold]{name}[/] - {g.title}: {low if low == high else f'{low}-{high}'} players; "
                      f"policies: {', '.join(g.policies)}; scenarios: {files}", highlight=False)
        return
    g = games.get(describe)
    out.print(f"[bold]{g.name}[/] - {g.title} ({g.Scenario.MIN_PLAYERS}-{g.Scenario.MAX_PLAYERS} players)", highlight=False)
    out.print(f"policies: {', '.join(g.policies)}", highlight=False)
    out.print(f"scenarios: {', '.join(str(p) for p in g.scenario_files())}", highlight=False)
    out.print("\n[bold]result columns[/] (one row per game; per-seat columns are lists indexed by seat, "
              "per-seat per-kind columns lists of lists; `first_player` is the seat in position 1)")
    for name, text in {**results.COMMON_COLUMNS, "length": f"game length in {g.length_unit}", **g.columns}.items():
        out.print(f"  {name:<22} {text}", highlight=False)
    rules_model = g.Scenario.model_fields["rules"].annotation
    defaults = rules_model().model_dump(mode="json")
    out.print("\n[bold]rule parameters[/] (scenario field rules.NAME, default as YAML, meaning)")
    for name, f in rules_model.model_fields.items():
        default = json.dumps(defaults[name], separators=(",", ":"))
        out.print(f"  rules.{name:<24} {default:<12} {f.description or ''}", highlight=False, markup=False)


@app.command()
def validate(files: Annotated[list[Path], typer.Argument(help="Scenario YAML files.", show_default=False)]):
    """Check scenario files against their game's schema."""
    bad = 0
    for f in files:
        try:
            data = scen.read_yaml(f)
            if "game" not in data:
                raise UserError(f"{f}: game: missing; say which game this scenario is for ({', '.join(games.names())})")
            g = games.get(str(data["game"]))
            sc = scen.validate(g.Scenario, data, str(f))
            est = f"; {len(sc.estimated())} estimated items" if sc.estimated() else ""
            out.print(f"ok {f}: {g.name}, {sc.players} players, hash {sc.content_hash()}{est}", highlight=False)
        except UserError as e:
            err.print(f"error: {e}", highlight=False, soft_wrap=True)
            bad += 1
    if bad:
        raise typer.Exit(2)


def _progress(total: int, quiet: bool):
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                    TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
                    console=err, disable=quiet, transient=False)


@app.command()
def sim(
    game: GameArg,
    n: Annotated[str, typer.Option("--n", help="Number of games: 100000, 1e6 or 1_000_000.")] = "100_000",
    seed: SeedOpt = 0,
    players: PlayersOpt = None,
    scenario: ScenarioOpt = None,
    set: SetOpt = None,
    policy: PolicyOpt = None,
    jobs: JobsOpt = 2,
    out_file: Annotated[Optional[Path], typer.Option("--out", help="Results parquet (default results/GAME.parquet).")] = None,
    resume: Annotated[bool, typer.Option("--resume", help="Continue an interrupted run with the same arguments.")] = False,
    chunk: Annotated[Optional[int], typer.Option("--chunk", help="Games per work unit (default: automatic).")] = None,
    backend: Annotated[str, typer.Option("--backend", help="loky (local processes) or dask (a dask.distributed cluster).")] = "loky",
    scheduler: Annotated[Optional[str], typer.Option("--scheduler", help="dask scheduler address (with --backend dask); default: a local cluster of --jobs workers.")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
):
    """Play N seeded games and write one row per game to a parquet file."""
    count = parse_count(n)
    g = games.get(game)
    target = out_file or Path("results") / f"{g.name}.parquet"
    # everything a user can get wrong is checked before the progress bar appears
    sc = api.load_scenario(g, scenario, set, players, policy)
    api.check_seed(seed)
    results.check_writable(target)
    api.check_run_options(jobs, chunk)
    info: dict = {}
    with _progress(count, quiet) as bar:
        task = bar.add_task(f"{g.name}", total=count, rate="")

        def advance(k: int):
            bar.advance(task, k)
            t = bar.tasks[task]
            if t.elapsed:
                bar.update(task, rate=f"{t.completed / t.elapsed:,.0f} games/s")

        df = api.sim(g, n=count, seed=seed, scenario=sc,
                     jobs=jobs, out=target, resume=resume, chunk=chunk, backend=backend, scheduler=scheduler,
                     on_progress=advance,
                     command=api.command_line(), info=info, columns=["is_winner", "first_player", "length"])
    out.print(summary_line(g, df, info, target), highlight=False, soft_wrap=True)


def summary_line(g, df, info: dict, target) -> str:
    wins = results.by_position(df, "is_winner").astype(bool)
    rates = " ".join(f"{100 * r:.1f}%" for r in wins.mean(axis=0))
    return (f"{g.name}: {df.height:,} games in {info['sim_s']:.1f} s ({info['games_per_s']:,.0f} games/s, "
            f"{info['jobs']} jobs, +{info['compile_s']:.1f} s compile) -> {target}; "
            f"win rate by position (1 moves first) {rates}; mean length {df['length'].mean():.1f} {g.length_unit}")


@app.command()
def replay(
    game: GameArg,
    game_id: Annotated[int, typer.Option("--game", help="Game id within the run (0..n-1).")],
    seed: Annotated[Optional[int], typer.Option("--seed", help="Run seed (default 0, or the results file's).")] = None,
    players: PlayersOpt = None,
    scenario: ScenarioOpt = None,
    set: SetOpt = None,
    policy: PolicyOpt = None,
    results_file: Annotated[Optional[Path], typer.Option("--from", help="Take scenario and seed from this results parquet.")] = None,
):
    """Print one game of a run move by move (same seed and scenario -> the same game as in the parquet)."""
    if results_file is None and seed is None:
        seed = 0
    r = api.replay(game, seed, game_id, scenario=scenario, set=set, players=players, policy=policy,
                   results_file=results_file)
    out.print(str(r), highlight=False, markup=False, soft_wrap=True)


@app.command()
def report(
    game: GameArg,
    results_path: Annotated[Path, typer.Argument(help="Results parquet written by `analyzer sim`.", show_default=False)],
    out_dir: Annotated[Optional[Path], typer.Option("--out", help="Report folder (default reports/GAME).")] = None,
    compare_n: Annotated[Optional[str], typer.Option("--compare-n", help="Games per comparison run (the report's what-if "
                                                     "sections): default a tenth of the results' games, at least 2,000 and at most "
                                                     "20,000, never more than the results hold; ANALYZER_COMPARE_N overrides the default.")] = None,
):
    """Write the balance report (index.md, index.html, PNG charts) for a results file."""
    target = out_dir or Path("reports") / game
    per_run = parse_count(compare_n, "--compare-n") if compare_n is not None else None
    runs = []

    def on_run(n: int, seconds: float, meta: dict) -> None:
        runs.append(n)
        what = ", ".join([f"{meta['scenario']['players']} players", ",".join(meta["policies"]), *meta["changed_rules"]])
        err.print(f"comparison run {len(runs)}: {n:,} games in {seconds:.1f} s ({what})", highlight=False, markup=False)

    index = api.report(game, results_path, target, on_run=on_run, compare_n=per_run)
    out.print(f"report: {index} and {index.with_suffix('.html')}", highlight=False)


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; returns the exit code. Usage errors are typer's (exit 2); ours are UserError."""
    try:
        app(args=argv, prog_name="analyzer")
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except UserError as e:
        err.print(f"error: {e}", highlight=False, soft_wrap=True, markup=False)
        return 2
    return 0


def entry() -> None:
    code = main()
    runner.stop_workers()
    gc.freeze()  # exit without a last collection over numba's many objects (about 0.4 s)
    sys.exit(code)


from . import cli_balance  # noqa: E402,F401  (registers compare, check, sweep, tune and ci on `app`)
