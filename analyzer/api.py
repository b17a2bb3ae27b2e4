"""The Python API, for notebooks and scripts: what a caller gives is checked here (errors.check_run), then
played through analyzer.simulation, as the CLI does.

    import analyzer
    df = analyzer.sim("stop", n=100_000, seed=7, set={"rules.play_drawn_card": True})
    analyzer.report("stop", df, out="reports/stop")
    print(analyzer.replay("stop", seed=7, game_id=123))
"""
from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np
import polars as pl

from . import compile_cache, games, results, simulation
from . import progress as _progress
from . import scenario as scen
from .errors import MAX_GAME_ID, UserError, arg, check_run, check_seed


def _game(game):
    return games.get(game) if isinstance(game, str) else game


def load_scenario(game, scenario=None, set=None, players=None, policy=None, restrict=None):
    """The validated scenario: a file (default: the game's default.yaml) plus overrides.
    `set` is {"rules.x": value} or ["rules.x=value", ...]; `policy` a name or a list per seat;
    `restrict` ["SEAT:NAME", ...] or {seat: [names]}: the scenario's restrict: field (analyzer.restrict)."""
    game = _game(game)
    if isinstance(scenario, scen.ScenarioBase):
        return scenario
    sets = list(set or ())
    if isinstance(set, dict):
        sets = [f"{k}={_yaml_value(v)}" for k, v in set.items()]
    policies = policy.split(",") if isinstance(policy, str) else policy
    return scen.load(game, scenario, sets, players=players, policies=policies, restrict=restrict)


def _yaml_value(v) -> str:
    import yaml
    return yaml.safe_dump(v, default_flow_style=True).strip().removesuffix("...").strip()


def check_playable(game, sc, where: str = "--policy scripted") -> None:
    """`scripted` replays a test's script of option indices; without one it would take the first
    option at every decision and play on as if it were a player (Space Base stalls). `where` names
    the flag or file that asked for it."""
    game = _game(game)
    if "scripted" in sc.seat_policies() and not sc.script:
        raise UserError(f"{where}: a test tool that replays the scenario's `script`, and there is none; "
                        f"choose from {', '.join(game.playing_policies)}")


def sim(game, n: int = 10_000, seed: int = 0, scenario=None, set=None, players=None, policy=None, restrict=None,
        jobs: int = 1, out=None, resume: bool = False, chunk: int | None = None, backend: str = "auto",
        scheduler: str | None = None, on_progress=None, command: str | None = None, info: dict | None = None,
        columns: list[str] | None = None, until_ci: float | None = None, progress: bool | None = None,
        on_compile=None) -> pl.DataFrame:
    """Play n seeded games; returns one row per game. Writes a parquet file only when `out` is given.
    backend "auto" (threads where the game's kernel releases the GIL, else loky), "threads" (this
    process), "loky" (worker processes) or "dask": the active dask Client, or
    `scheduler` (an address), or a local cluster. With `until_ci`, n is the most games: the run stops
    as soon as every position's (and faction's) win rate is known within +-until_ci (see stopping.py).
    `progress`: show a progress display on stderr (default: in a terminal or a notebook, unless
    `on_progress` is given; elsewhere a line per stage on the `analyzer` logger at INFO: a first compile, the
    games played). `info`, if a dict, receives the run's timings. `columns` limits what is read
    back from `out`. `out` is a .parquet name; an existing file is replaced (the CLI asks for --force)."""
    game = _game(game)
    n, seed = check_run(n, seed, jobs, chunk)
    if resume and out is None:
        raise UserError("resume=True: give out=, the results file of the interrupted run")
    sc = load_scenario(game, scenario, set, players, policy, restrict)
    if command is None:
        command = simulation.python_call("sim", game, n=n, seed=seed, set=set, players=players, policy=policy,
                                         restrict=restrict, scenario=str(scenario) if isinstance(scenario, (str, Path)) else None)
    if out is not None:
        results.check_writable(Path(out))
    return simulation.run(game, sc, n, seed, jobs, out, resume, chunk, backend, scheduler, on_progress, command, info,
                          columns, until_ci, progress, on_compile)


@dataclass
class Replay:
    lines: list[str]
    row: dict

    def __str__(self) -> str:
        return "\n".join(self.lines)


def replay(game, seed: int | None = None, game_id: int | None = None, scenario=None, set=None, players=None,
           policy=None, results_file=None, restrict=None) -> Replay:
    """Play one game of a run again with tracing on: who is who (each seat's policy and role), then
    move by move. `game` is a game name, or where the game came from, which carries its scenario
    (rule changes included) and seed:
    - a row of a table that sim() returned: `replay(df[123])`;
    - a results file written by sim: `replay("results/stop.parquet", game_id=123)` (or `results_file=`).
    With a game name, the scenario is built as sim() builds it: `replay("stop", seed=7, game_id=123,
    set={"rules.play_drawn_card": True})` is game 123 of `sim("stop", seed=7, set=<the same>)` (and so
    with `restrict=`)."""
    if isinstance(game, (pl.DataFrame, dict)):
        game, seed, game_id, scenario = _from_row(game, game_id, (scenario, set, players, policy, restrict))
    elif isinstance(game, Path) or (isinstance(game, str) and game.endswith(".parquet")):
        results_file, game = game, results.read_meta(game).get("game")
        if game is None:
            raise UserError(f"{results_file}: no analyzer run metadata (not written by `analyzer sim`)")
    game = _game(game)
    if game_id is None:
        raise UserError(f"replay: which game? pass {arg('game_id', 'ID', flag='--game')}")
    if isinstance(game_id, bool) or not hasattr(game_id, "__index__") or not 0 <= game_id <= MAX_GAME_ID:
        raise UserError(f"{arg('game_id', repr(game_id), flag='--game')}: must be a game id >= 0")
    if results_file is not None:
        meta = results.run_meta(results_file, game.name)
        _no_overrides(f"replay --from {results_file}", (scenario, set, players, policy, restrict))
        scenario = scen.validate(game.Scenario, meta["scenario"], f"{results_file} metadata")
        seed = meta["seed"] if seed is None else seed
        if game_id >= meta["n"]:
            raise UserError(f"{arg('game_id', repr(game_id), flag='--game')}: {results_file} holds games 0..{meta['n'] - 1}")
    seed = check_seed(0 if seed is None else seed)
    sc = load_scenario(game, scenario, set, players, policy, restrict)
    ids = np.array([game_id], np.int64)
    batch = game.run_batch(sc, seed, ids, trace=True)
    row = results.to_frame(batch, ids, seed, sc).row(0, named=True)
    lines = game.who_is_who(sc, row) + game.describe(sc, batch.events, batch.searched)
    if batch.events_dropped:
        lines.append(f"(trace incomplete: {batch.events_dropped:,} more records past the trace cap were not kept)")
    return Replay(lines, row)


def _from_row(row, game_id, overrides) -> tuple:
    """(game, seed, game id, scenario) of one row of a sim() table (a one-row DataFrame or a dict)."""
    if isinstance(row, pl.DataFrame):
        if row.height != 1:
            raise UserError(f"replay: pass one row of the table (e.g. df[123]), not {row.height:,} rows")
        row = row.row(0, named=True)
    _no_overrides("replay of a results row", overrides)
    meta = simulation.SEEN.get(str(row.get("scenario_hash")))
    if meta is None or "game_id" not in row:
        raise UserError("replay: this row's run is not known here (its table was not made by sim() in this "
                        "process); replay from its results file: replay(path, game_id=...)")
    if game_id is not None and game_id != row["game_id"]:
        raise UserError(f"replay: game_id={game_id} but the row is game {row['game_id']}")
    game = _game(meta["game"])
    return game, row["seed"], row["game_id"], scen.validate(game.Scenario, meta["scenario"], "the row's run")


def _no_overrides(source: str, overrides) -> None:
    if any(o for o in overrides):
        raise UserError(f"{source}: the run's own scenario is replayed; drop the scenario, --set, --players, --policy and --restrict")


def report(game, data, out, meta: dict | None = None,
           on_run: Callable[[int, float, dict], None] | None = None, compare_n: int | None = None,
           compare: bool = True, progress: bool | None = None, info: dict | None = None) -> Path:
    """Write the balance report of results `data` (a DataFrame from sim(), or a parquet path) into
    `out`; returns the path of its index.md. Reports play comparison runs: `compare_n` games each
    (default: report_runs.compare_n), none with compare=False (the sections that need them say so);
    `on_run(games, seconds, run metadata)` is called after each one. `progress`: one progress bar over
    every comparison run on stderr (default: in a terminal or a notebook; elsewhere a line per stage on the
    `analyzer` logger at INFO: a first compile, the runs played; progress=False: nothing). `info`, if a dict, receives
    the runs' count and games (comparison_runs, comparison_games, comparison_total: the bar's final total,
    planned_at_start)."""
    from . import player_sections
    from .report_runs import compare_n as games_per_run
    from .report_runs import comparisons
    game = _game(game)
    results.check_report_dir(Path(out))
    if isinstance(data, (str, Path)):
        meta = meta or results.run_meta(data, game.name)
        df, _ = results.read(data)
    else:
        df = data
    if df.height == 0:
        raise UserError("report: the results table is empty")
    if meta is None:
        hashes = df["scenario_hash"].unique().to_list()
        meta = simulation.SEEN.get(str(hashes[0])) if len(hashes) == 1 else None
        if meta is None:
            raise UserError("report: unknown scenario for this table; pass meta= or a parquet file written by sim")
    if meta.get("game", game.name) != game.name:
        raise UserError(f"report: these are results of {meta.get('game')!r}, not {game.name!r}")
    meta.setdefault("changed_rules", simulation.changed_rules(game, scen.validate(game.Scenario, meta["scenario"], "results metadata")))
    lines = _progress.LOG.info if progress is None and not _progress.interactive() else None  # a line per stage
    bar = _progress.ReportProgress(game.name, compile_cache.expected_seconds(simulation.folder(game)),
                                   disable=progress is False, lines=lines)
    try:
        with simulation.reporting(bar, on_run), comparisons(compare_n, compare), bar:
            if compare:
                bar.plan(player_sections.planned_games(game, meta, games_per_run(df.height), df.height))
            return game.report(df, meta, Path(out))
    finally:
        if info is not None:
            info.update(comparison_runs=bar.runs, comparison_games=bar.done, comparison_total=bar.total,
                        planned_at_start=bar.planned_at_start)


def read(path) -> tuple[pl.DataFrame, dict]:
    """A results file and its run metadata; its rows can then be replayed (`replay(df[5])`) and
    reported like a table sim() returned."""
    df, meta = results.read(path)
    if "scenario_hash" in meta:
        simulation.SEEN[meta["scenario_hash"]] = meta
    return df, meta


def command_line() -> str:
    return " ".join(["analyzer", *sys.argv[1:]])
