"""Playing a scenario: the one place that turns a game, a validated scenario and run options into results, with
the run's metadata and progress. Everything that plays a run comes here (`run`): the API and the CLI (analyzer.api,
analyzer.cli), the experiments (analyzer.variants) and a report's comparison runs (analyzer.report_runs).

The run options arrive checked (errors.check_run, where a user gave them): nothing here checks them again.
"""
from __future__ import annotations

import contextlib
import functools
import inspect
import platform
from contextvars import ContextVar
from importlib.metadata import version
from pathlib import Path
from typing import Callable

import polars as pl

from . import __version__, compile_cache, runner
from . import progress as _progress
from . import scenario as scen
from .errors import UserError, arg

# The runs seen in this process, by scenario hash, so that a report can describe a DataFrame held in memory.
SEEN: dict[str, dict] = {}


def run_meta(game, sc, seed: int, n: int, command: str | None = None) -> dict:
    meta = {
        "game": game.name,
        "scenario": sc.dump(),
        "scenario_hash": sc.content_hash(),
        "changed_rules": changed_rules(game, sc),
        "policies": sc.seat_policies(),
        "estimated": sc.estimated(),
        "seed": seed,
        "n": n,
        "command": command,
        "analyzer_version": __version__,
        "versions": {"python": platform.python_version(), **{m: version(m) for m in ("numpy", "numba", "polars")}},
    }
    SEEN[meta["scenario_hash"]] = meta
    return meta


def changed_rules(game, sc) -> list[str]:
    """The rule parameters in which `sc` differs from the game's default scenario, as KEY=VALUE:
    every report's header lists them, however the run was started (file, --set or Python)."""
    return scen.differences(_default_rules(game), sc.model_dump(mode="json")["rules"], "rules")


@functools.cache
def _default_rules(game) -> dict:
    return scen.load(game).model_dump(mode="json")["rules"]


def python_call(name: str, game, **kwargs) -> str:
    """The Python call that made a run, for the report header (the CLI passes its own command line)."""
    args = ", ".join([repr(game.name)] + [f"{k}={v!r}" for k, v in kwargs.items() if v is not None])
    return f"analyzer.{name}({args})"


def run(game, sc, n: int, seed: int, jobs: int = 1, out=None, resume: bool = False, chunk: int | None = None,
        backend: str = "auto", scheduler: str | None = None, on_progress=None, command: str | None = None,
        info: dict | None = None, columns: list[str] | None = None, until_ci: float | None = None,
        progress: bool | None = None, on_compile=None) -> pl.DataFrame:
    """Play games 0..n-1 of run `seed` of scenario `sc` (analyzer.api.sim says what each option does)."""
    until = _until(until_ci, n)
    meta = run_meta(game, sc, seed, n, command or python_call("sim", game, n=n, seed=seed))
    session = runner.dask_session(scheduler, jobs) if backend == "dask" else contextlib.nullcontext()
    if (bar := _report_bar.get()) is not None and on_progress is None and on_compile is None:
        bar.start(n, planned=True)  # a run a report plays by itself (outside report_runs.compare_run: a strength
        # curve, a sweep) counts on the report's bar, against the games the report announced for it if it did
        on_progress, on_compile, progress = bar.advance, bar.compiling, False
    if on_compile is None:
        on_compile = _compile_listener.get()  # a command's one bar over several runs (cli_app.games_bar)
    lines = None
    if progress is None:  # a live display in a terminal or notebook, else a line per stage, logged
        progress = on_progress is None and on_compile is None
        lines = None if _progress.interactive() else _progress.LOG.info
    display = (_progress.RunProgress(game.name, n, compile_cache.expected_seconds(folder(game)), lines=lines)
               if progress else contextlib.nullcontext())
    with session, display:
        if progress:
            on_progress, on_compile = display.advance, display.compiling
        df, run = runner.run(game, sc, n, seed, jobs=jobs, out=Path(out) if out else None, resume=resume,
                             chunk=chunk, backend=backend, meta=meta, on_progress=on_progress, until=until,
                             on_compile=on_compile)
    if info is not None:
        info.update(runner.timings(run), complete_already=run.complete_already)
    if until is not None:
        meta.update(n=run.n, stopping=until.summary())
    if (listener := _run_listener.get()) is not None:
        listener(run.n, run.sim_s + run.compile_s, meta)
    return df if df is not None else pl.read_parquet(out, columns=columns)


def _until(target: float | None, max_n: int):
    if target is None:
        return None
    if not 0 < target < 0.5:
        raise UserError(f"{arg('until_ci', repr(target))}: a half-width between 0 and 0.5, such as 0.005 (half a percentage point)")
    from .stopping import UntilConfident
    return UntilConfident(target, max_n)


def folder(game) -> Path:
    """The game's source folder (what its compile cache is kept by)."""
    return Path(inspect.getfile(type(game))).parent


# Told when the kernels of a run compile (runner's on_compile), for runs that count on a command's one
# progress bar (cli_app.games_bar): the bar shows the compile, as `sim`'s does.
_compile_listener: ContextVar[Callable[[bool | None], None] | None] = ContextVar("compile_listener", default=None)


@contextlib.contextmanager
def compile_notices(on_compile: Callable[[bool | None], None]):
    """Every run started inside tells `on_compile` when its kernels compile (unless given its own)."""
    token = _compile_listener.set(on_compile)
    try:
        yield
    finally:
        _compile_listener.reset(token)


# Told of every run a report makes (games, seconds, the run's metadata), so a long report shows progress.
_run_listener: ContextVar[Callable[[int, float, dict], None] | None] = ContextVar("run_listener", default=None)
# The progress bar over a report's comparison runs: every run played while a report is written counts on it.
_report_bar: ContextVar[_progress.ReportProgress | None] = ContextVar("report_bar", default=None)


@contextlib.contextmanager
def reporting(bar: _progress.ReportProgress, on_run: Callable[[int, float, dict], None] | None):
    """Every run played inside counts on the report's `bar`, and is told to `on_run` (api.report)."""
    tokens = _run_listener.set(on_run), _report_bar.set(bar)
    try:
        yield
    finally:
        _run_listener.reset(tokens[0])
        _report_bar.reset(tokens[1])


def report_bar() -> _progress.ReportProgress | None:
    """The progress bar of the report being written (None outside api.report)."""
    return _report_bar.get()
