"""`analyzer` command line: the commands that play and read runs (games, validate, sim, replay, report, bench),
and the entry point that loads the others (cli_app.py holds what they share). A command checks what was typed
before anything plays, then plays through analyzer.simulation or analyzer.api, as a notebook would. Bad input
is one line on stderr and exit 2."""
from __future__ import annotations

import gc
import json
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from . import games
from .cli_app import (  # api, compile_cache, progress, results, scen: lazy modules (`analyzer --help` imports no numba)
    Command,
    ForceOpt,
    GameArg,
    Play,
    PlayersOpt,
    PolicyOpt,
    RestrictOpt,
    ScenarioOpt,
    SetOpt,
    api,
    app,
    compile_cache,
    err,
    main,
    out,
    play_options,
    progress,
    results,
    scen,
    scripted_source,
    simulation,
    stage_lines,
)
from .errors import UserError, check_run, n_games


class PolicyHelp(Command):
    """A command whose --help ends with what each game's policies do (built only when asked: it
    imports every game)."""

    def format_epilog(self, ctx, formatter):
        from .kernel import SHARED_POLICY_DOCS
        rows = [(f"{p} (every game)", doc) for p, doc in SHARED_POLICY_DOCS.items()]
        for name in games.names():
            g = games.get(name)
            rows += [(f"{name}: {p}", g.Scenario.POLICY_DOCS.get(p, "")) for p in g.policies if p not in SHARED_POLICY_DOCS]
        with formatter.section("Policies (--policy)"):
            formatter.write_dl(rows)
        super().format_epilog(ctx, formatter)


@app.command("games", cls=Command)
def games_cmd(describe: Annotated[Optional[str], typer.Option("--describe", help="Show a game's policies, result columns and rule parameters.", metavar="GAME")] = None):
    """List the games, their scenarios and policies.

    \b
    Example: analyzer games --describe stop
    """
    if describe is None:
        for name in games.names():
            g = games.get(name)
            files = ", ".join(p.stem for p in g.scenario_files())
            low, high = g.Scenario.MIN_PLAYERS, g.Scenario.MAX_PLAYERS
            out.print(f"[bold]{name}[/] - {g.title}: {low if low == high else f'{low}-{high}'} players; "
                      f"policies: {', '.join(g.playing_policies)}{', search (plans)' if g.searchable else ''} "
                      f"(and scripted, for tests); scenarios: {files}",
                      highlight=False)
        return
    g = games.get(describe)
    out.print(f"[bold]{g.name}[/] - {g.title} ({g.Scenario.MIN_PLAYERS}-{g.Scenario.MAX_PLAYERS} players)", highlight=False)
    out.print(f"scenarios: {', '.join(str(p) for p in g.scenario_files())}", highlight=False)
    out.print("\n[bold]policies[/] (--policy NAME, or one per seat)")
    for name in g.policies:
        out.print(f"  {name:<22} {g.Scenario.POLICY_DOCS.get(name, '')}", highlight=False, markup=False)
    out.print("\n[bold]result columns[/] (one row per game; per-seat columns are lists indexed by seat, "
              "per-seat per-kind columns lists of lists; `first_player` is the seat in position 1)")
    for name, text in {**results.COMMON_COLUMNS, "length": f"game length in {g.length_unit}", **g.columns}.items():
        out.print(f"  {name:<22} {text}", highlight=False)
    if g.Scenario.WEIGHTS:
        out.print("\n[bold]weights[/] (scenario field weights.POLICY.NAME; `analyzer train` tunes them: default, \\[low, high], meaning)")
        for policy, declared in g.Scenario.WEIGHTS.items():
            for w in declared:
                out.print(f"  {policy}.{w.name:<22} {w.default:g} [{w.low:g}, {w.high:g}] {w.doc}", highlight=False, markup=False)
    if g.Scenario.RESTRICTIONS:
        out.print("\n[bold]restrictions[/] (--restrict SEAT:NAME, or the scenario's restrict: {SEAT: [NAME]})")
        for name, doc in g.Scenario.RESTRICTIONS.items():
            out.print(f"  {name:<22} {doc}", highlight=False, markup=False)
    rules_model = g.Scenario.model_fields["rules"].annotation
    defaults = rules_model().model_dump(mode="json")
    out.print("\n[bold]rule parameters[/] (scenario field rules.NAME, default as YAML, meaning)")
    for name, f in rules_model.model_fields.items():
        default = json.dumps(defaults[name], separators=(",", ":"))
        out.print(f"  rules.{name:<24} {default:<12} {f.description or ''}", highlight=False, markup=False)


@app.command(cls=Command)
def validate(files: Annotated[list[Path], typer.Argument(help="Scenario YAML files.", show_default=False, metavar="FILE")]):
    """Check scenario files against their game's schema.

    \b
    Example: analyzer validate scenarios/stop/default.yaml
    """
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


@app.command(cls=PolicyHelp)
@play_options
def sim(
    game: GameArg,
    n: Annotated[str, typer.Option("--n", help="Number of games: 100000, 1e6 or 1_000_000.", metavar="N")] = "100_000",
    scenario: ScenarioOpt = None,
    play: Play = Play(),
    out_file: Annotated[Optional[Path], typer.Option("--out", help="Results file, parquet (default results/GAME.parquet).", metavar="FILE")] = None,
    force: ForceOpt = False,
    resume: Annotated[bool, typer.Option("--resume", help="Continue an interrupted run with the same arguments.")] = False,
    chunk: Annotated[Optional[int], typer.Option("--chunk", help="Games per work unit (default: automatic).", metavar="N")] = None,
    backend: Annotated[str, typer.Option("--backend", help="auto (the default: threads where the game's kernel releases the GIL, else loky), threads (this process), loky (local worker processes) or dask (a dask.distributed cluster).", metavar="auto|threads|loky|dask")] = "auto",
    scheduler: Annotated[Optional[str], typer.Option("--scheduler", help="dask scheduler address (with --backend dask); default: a local cluster of --jobs workers.", metavar="ADDRESS")] = None,
    until_ci: Annotated[Optional[float], typer.Option("--until-ci", help="Play until every position's and faction's win rate is within this 95% half-width (e.g. 0.005), by a confidence sequence valid under optional stopping (--n is then ignored: see --max-n).", metavar="HALF_WIDTH")] = None,
    max_n: Annotated[Optional[str], typer.Option("--max-n", help="With --until-ci: the most games to play (default 1e7).", metavar="N")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
):
    """Play N seeded games; one row per game into a parquet file.

    \b
    Example: analyzer sim stop --n 1e6 --seed 7 --policy greedy,random --players 2
    """
    from . import runner
    if max_n is not None and until_ci is None:
        raise UserError("--max-n: only with --until-ci")
    until = until_ci is not None
    count, seed = check_run(max_n or "1e7" if until else n, play.seed, play.jobs, chunk, "max_n" if until else "n")
    g = games.get(game)
    target = out_file or Path("results") / f"{g.name}.parquet"
    # everything a user can get wrong is checked before the progress bar appears
    sc = play.scenario(g, scenario)
    api.check_playable(g, sc, scripted_source(g, scenario, play.policy))
    results.check_writable(target, replace=force or resume)
    info: dict = {}
    label = f"{g.name} until +-{until_ci:g}" if until else g.name
    try:
        with progress.RunProgress(g.name, count, compile_cache.expected_seconds(simulation.folder(g)), disable=quiet,
                                  console=err, label=label, lines=stage_lines()) as bar:
            df = simulation.run(g, sc, count, seed, play.jobs, target, resume, chunk, backend, scheduler,
                                on_progress=bar.advance, on_compile=bar.compiling, until_ci=until_ci, progress=False,
                                command=api.command_line(), info=info, columns=["first_player"])
    except runner.RunInterrupted as e:  # Ctrl-C: what is saved, and how to go on
        err.print(f"interrupted: {e.saved:,} of {e.n:,} games saved; resume with: {_resume_command()}",
                  highlight=False, soft_wrap=True, markup=False)
        raise typer.Exit(130) from None
    except runner.RunFailed as e:
        err.print(f"error: {e}; the games saved so far stay: resume with: {_resume_command()}",
                  highlight=False, soft_wrap=True, markup=False)
        raise typer.Exit(1) from None
    if info["complete_already"]:
        out.print(f"{target}: this run is already complete ({df.height:,} games); nothing to resume", highlight=False)
        return
    out.print(summary_line(g, target, sc.players, info), highlight=False, soft_wrap=True)


def _resume_command() -> str:
    line = api.command_line()
    return line if "--resume" in sys.argv else f"{line} --resume"


def summary_line(g, target: Path, players: int, info: dict) -> str:
    n, by_position, mean_length = results.position_summary(target, players)
    rates = " ".join(f"{100 * r:.1f}%" for r in by_position)
    restored = f", {info['resumed_games']:,} restored from the interrupted run" if info["resumed_games"] else ""
    return (f"{g.name}: {n:,} games ({info['played_games']:,} played in {info['sim_s']:.1f} s, "
            f"{info['games_per_s']:,.0f} games/s, {info['jobs']} jobs, +{info['compile_s']:.1f} s compile{restored}) "
            f"-> {target}; win rate by position (1 moves first) {rates}; mean length {mean_length:.1f} {g.length_unit}")


@app.command(cls=Command)
def replay(
    game: GameArg,
    game_id: Annotated[int, typer.Option("--game", help="Game id within the run (0..n-1).", metavar="ID")],
    seed: Annotated[Optional[int], typer.Option("--seed", help="Run seed (default 0, or the results file's).", metavar="SEED")] = None,
    players: PlayersOpt = None,
    scenario: ScenarioOpt = None,
    set: SetOpt = None,
    policy: PolicyOpt = None,
    restrict: RestrictOpt = None,
    results_file: Annotated[Optional[Path], typer.Option("--from", help="Take scenario and seed from this results parquet.", metavar="FILE")] = None,
):
    """Print one game of a run: who is who, then move by move.

    The same seed and scenario give the same game as in the results file; --from takes both from it.

    \b
    Example: analyzer replay stop --from results/stop.parquet --game 123
    """
    if results_file is None:
        seed = 0 if seed is None else seed
        g = games.get(game)
        api.check_playable(g, api.load_scenario(g, scenario, set, players, policy, restrict),
                           scripted_source(g, scenario, policy))
    r = api.replay(game, seed, game_id, scenario=scenario, set=set, players=players, policy=policy,
                   results_file=results_file, restrict=restrict)
    out.print(str(r), highlight=False, markup=False, soft_wrap=True)


@app.command(cls=Command)
def report(
    game: Annotated[Optional[str], typer.Argument(help="Game key: " + ", ".join(games.names())
                                                  + " (with --all: the folder of results, default results).",
                                                  show_default=False, metavar="GAME")] = None,
    results_path: Annotated[Optional[Path], typer.Argument(help="Results parquet written by `analyzer sim`.", show_default=False, metavar="FILE")] = None,
    out_dir: Annotated[Optional[Path], typer.Option("--out", help="Report folder (default reports/GAME; with --all, reports).", metavar="DIR")] = None,
    compare_n: Annotated[Optional[str], typer.Option("--compare-n", help="Games per comparison run (the report's what-if, "
                                                     "tuned-play, element and skill sections): default a tenth of the results' games, "
                                                     "at least 2,000 and at most 20,000, never more than the results hold; "
                                                     "ANALYZER_COMPARE_N overrides the default.", metavar="N")] = None,
    no_compare: Annotated[bool, typer.Option("--no-compare", help="Play no comparison runs: the sections that need them say "
                                             "\"not run (--no-compare)\" (a game whose own sections cannot skip them says so and stops).")] = False,
    all_games: Annotated[bool, typer.Option("--all", help="Report every game whose results FOLDER/GAME.parquet exist into OUT/GAME, then write OUT/index.html, one page for all games.")] = False,
):
    """Write the balance report of a results file, or of every game.

    The report is a folder: index.md, index.html and PNG charts. With --all, every game's report
    and one index page over them. Its what-if sections play comparison runs on the results' seed, shown
    on one progress bar (games done of games planned, with an ETA).

    \b
    Example: analyzer report stop results/stop.parquet --out reports/stop
    """
    per_run = n_games(compare_n, "compare_n") if compare_n is not None else None
    if no_compare and per_run is not None:
        raise UserError("report: --no-compare plays no comparison runs; drop --compare-n")
    runs = []

    def log_run(n: int, seconds: float, meta: dict) -> None:
        runs.append(n)
        what = ", ".join([f"{meta['scenario']['players']} players", ",".join(meta["policies"]), *meta["changed_rules"]])
        err.print(f"comparison run {len(runs)}: {n:,} games in {seconds:.1f} s ({what})", highlight=False, markup=False)

    on_run = None if progress.interactive() else log_run  # a terminal shows the progress bar instead

    if all_games:
        _report_all(Path(game or "results"), out_dir or Path("reports"), results_path, on_run, per_run, not no_compare)
        return
    if game is None or results_path is None:
        raise UserError("report: give GAME and RESULTS_PATH, e.g. `analyzer report stop results/stop.parquet`, or --all")
    target = out_dir or Path("reports") / game
    index = api.report(game, results_path, target, on_run=on_run, compare_n=per_run, compare=not no_compare)
    out.print(f"report: {index} and {index.with_suffix('.html')}", highlight=False)


def _report_all(folder: Path, target: Path, extra, on_run, compare_n: int | None, compare: bool) -> None:
    """`report --all`: every game with FOLDER/GAME.parquet, then the index page over them."""
    from .reporting import write_index
    if extra is not None:
        raise UserError(f"report --all: takes one folder of results, not also {extra}")
    found = [g for g in games.names() if (folder / f"{g}.parquet").is_file()]
    if not found:
        raise UserError(f"report --all: {folder} holds no results file named GAME.parquet ({', '.join(games.names())})")
    for g in found:  # every file and folder checked before any report is written
        meta = results.read_meta(folder / f"{g}.parquet")
        if meta.get("game") != g:
            raise UserError(f"report --all: {folder / f'{g}.parquet'} holds "
                            + (f"results of {meta['game']!r}, not {g!r}" if meta.get("game") else "no analyzer run metadata"))
        results.check_report_dir(target / g)
    for g in found:
        index = api.report(g, folder / f"{g}.parquet", target / g, on_run=on_run, compare_n=compare_n, compare=compare)
        out.print(f"report: {index} and {index.with_suffix('.html')}", highlight=False)
    out.print(f"index: {write_index(target, found)}", highlight=False)


@app.command(cls=Command)
def bench(
    names: Annotated[Optional[list[str]], typer.Argument(help="Games to measure (default: all); the others' earlier numbers stay.", show_default=False, metavar="GAME...")] = None,
    quick: Annotated[bool, typer.Option("--quick", help="Small runs (about 5% of the full sizes): a smoke test.")] = False,
    no_cold_compile: Annotated[bool, typer.Option("--no-cold-compile", help="Skip the cold compiles (minutes per game).")] = False,
    base: Annotated[Optional[str], typer.Option("--base", help="Also time the kernels of this git commit, side by side.", metavar="COMMIT")] = None,
):
    """Measure speed per game (bench/out/bench.json).

    It also renders the speed table into docs/speed-table.md and the README. Per game: games/s per core, 2 threads vs 1 and vs loky, kernel vs its floor probe, cold compile, the
    1e6 run's wall time and peak RSS, STOP against RLCard's UNO. Runs from a source checkout (bench/).

    \b
    Example: analyzer bench stop simplecard --quick --no-cold-compile
    """
    import subprocess
    folder = Path(__file__).resolve().parents[1] / "bench"
    if not (folder / "run.py").exists():
        raise UserError(f"bench: {folder}/run.py not found; `analyzer bench` runs from a source checkout")
    for name in names or []:
        if name not in games.names():
            raise UserError(f"bench: unknown game {name!r}; known games: {', '.join(games.names())}")
    flags = [*(["--quick"] if quick else []), *(["--no-cold-compile"] if no_cold_compile else []),
             *(["--base", base] if base else [])]
    code = subprocess.call([sys.executable, str(folder / "run.py"), *(names or []), *flags])
    if code == 0:
        code = subprocess.call([sys.executable, str(folder / "speed_table.py")])
    raise typer.Exit(code)


def entry() -> None:
    code = main()
    if (runner := sys.modules.get("analyzer.runner")) is not None:  # imported only by commands that play
        runner.stop_workers()
    gc.freeze()  # exit without a last collection over numba's many objects (about 0.4 s)
    sys.exit(code)


# The other commands register on `app` as their modules load: compare, check, sweep, tune, train and ci
# (cli_balance), cache (cli_cache) and strength (cli_search); imported after this module's own commands so that
# `analyzer --help` lists sim, replay and report first.
from . import cli_balance, cli_cache, cli_search  # noqa: E402,F401
