"""A run's progress on stderr (the CLI, and the Python API in a terminal or a notebook): while the
kernels compile, a spinner with the elapsed time and the expected wait; then a bar with the rate and
an ETA. Outside a terminal (a CI log, a pipe, a script) a live display shows nothing until the end, so
there it is a line per stage instead (`lines`: where a line goes; the CLI prints it on stderr, the Python API
logs it on the `analyzer` logger at INFO): when a first compile starts, when it is done, and the games
played, with their rate, at the end."""
from __future__ import annotations

import logging
import os
import sys
import time
from typing import Callable

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

LOG = logging.getLogger("analyzer")


def interactive() -> bool:
    """Whether stderr is a terminal or this runs in a Jupyter kernel: where a progress display helps."""
    if sys.stderr is not None and sys.stderr.isatty():
        return True
    shell = sys.modules.get("IPython")
    ip = shell.get_ipython() if shell is not None else None
    return ip is not None and type(ip).__name__ == "ZMQInteractiveShell"


def busy() -> str:
    """What to add to a compile's expected wait while the machine runs more than it has cores: the expected
    figure is of an idle machine (a compile is one thread; on a busy machine it gets a share of a core)."""
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):  # no load average on this platform
        return ""
    cores = os.cpu_count() or 1
    return f"; longer now: the machine is busy, load {load:.1f} on {cores} cores" if load > cores else ""


class _Bar:
    """What both bars share: a rich Progress on stderr, the compile spinner, and the rate after each advance;
    with `lines` (a callable taking a line), a line per stage in their place."""

    def __init__(self, game: str, expected_compile_s: float, columns: list, disable: bool, console: Console | None,
                 lines: Callable[[str], None] | None = None):
        self.game, self.expected = game, expected_compile_s
        self.lines = None if disable else lines
        self._bar = Progress(SpinnerColumn(), TextColumn("{task.description}"), *columns,
                             TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), TextColumn("ETA"),
                             TimeRemainingColumn(), console=console or Console(stderr=True),
                             disable=disable or lines is not None)
        self._compile = None
        self._compile_started = None  # lines: when the first compile started
        self._started = time.perf_counter()
        self.done = 0

    def __enter__(self):
        self._bar.__enter__()
        return self

    def __exit__(self, *exc):
        if self.lines and exc[0] is None and self.done:
            self.lines(self._summary(time.perf_counter() - self._started))
        return self._bar.__exit__(*exc)

    def _summary(self, seconds: float) -> str:
        raise NotImplementedError

    def _compile_label(self) -> str:
        return f"compiling {self.game} (once per machine, about {self.expected:.0f} s{busy()})"

    def _compiling(self, cold: bool | None) -> None:
        """A first compile (cold) shows a spinner with the expected wait, once; ready (None) removes it."""
        if self.lines:
            if cold and self._compile_started is None:
                self._compile_started = time.perf_counter()
                self.lines(self._compile_label())
            elif cold is None and self._compile_started is not None and self._compile is None:
                self._compile = True  # said once
                self.lines(f"compiled {self.game} in {time.perf_counter() - self._compile_started:.0f} s")
        elif cold and self._compile is None:
            self._compile = self._bar.add_task(self._compile_label(), total=None, rate="")
        elif cold is None and self._compile is not None:
            self._bar.remove_task(self._compile)
            self._compile = None

    def _advance(self, task, k: int) -> None:
        self._bar.advance(task, k)
        t = self._bar.tasks[self._bar.task_ids.index(task)]
        if t.elapsed:
            self._bar.update(task, rate=f"{t.completed / t.elapsed:,.0f} games/s")


class RunProgress(_Bar):
    """Pass `compiling` as the runner's on_compile and `advance` as its on_progress (several runs may share it)."""

    def __init__(self, game: str, total: int, expected_compile_s: float, disable: bool = False,
                 console: Console | None = None, label: str | None = None, lines: Callable[[str], None] | None = None):
        super().__init__(game, expected_compile_s, [BarColumn(), MofNCompleteColumn()], disable, console, lines)
        self.total, self.label = total, label or game
        self._games = None

    def compiling(self, cold: bool | None) -> None:
        """cold=True: a first compile starts; False: the cache is being loaded; None: the kernels are ready."""
        self._compiling(cold)
        if cold is None and self._games is None:
            self._games = self._bar.add_task(self.label, total=self.total, rate="")
            self._started = time.perf_counter()  # the rate counts games played, not the compile

    def advance(self, k: int) -> None:
        if self._games is None:
            self.compiling(None)
        self.done += k
        self._advance(self._games, k)

    def _summary(self, seconds: float) -> str:
        return f"{self.label}: {self.done:,} games in {seconds:.1f} s ({self.done / max(seconds, 1e-9):,.0f} games/s)"


class ReportProgress(_Bar):
    """One bar over every comparison run of a report: games done of games planned, the rate and an ETA.
    A report announces ahead the runs it knows (`plan`). A run started as planned (an announced one, or one a
    report plays outside compare_run) counts against the games still announced, or adds its own when they
    are used up; any other run adds its games. So the total can grow while the report runs (it is never
    below the games played), and once every announced run has started or been withdrawn (`unplan`) it is
    the games the runs play."""

    def __init__(self, game: str, expected_compile_s: float, disable: bool = False, console: Console | None = None,
                 lines: Callable[[str], None] | None = None):
        super().__init__(game, expected_compile_s, [BarColumn(bar_width=24), MofNCompleteColumn(), TextColumn("games")],
                         disable, console, lines)
        self.total = self.runs = 0
        self.planned_at_start = 0  # the games announced before the first run
        self._ahead = 0  # announced games whose runs have not started
        self._task = self._bar.add_task(self._label(), total=None, rate="")

    def _label(self) -> str:
        return f"{self.game} comparison runs ({self.runs})"

    def _grow(self, games: int) -> None:
        self.total += games
        self._bar.update(self._task, total=self.total)

    def plan(self, games: int) -> None:
        """Announce `games` that runs still to come will play (they then call start(..., planned=True))."""
        self._ahead += games
        if not self.runs:
            self.planned_at_start += games
        self._grow(games)

    def unplan(self, games: int) -> None:
        """An announced run that will not be played (its results were already there)."""
        self._ahead -= games
        self._grow(-games)

    def start(self, games: int, planned: bool = False) -> None:
        """A run of `games` starts: announced ahead (`planned`) or new to the total."""
        self.runs += 1
        if planned and self._ahead >= games:
            self._ahead -= games
        else:
            self._grow(games)
        self._bar.update(self._task, description=self._label())

    def compiling(self, cold: bool | None) -> None:
        """The runner's on_compile."""
        self._compiling(cold)

    def advance(self, k: int) -> None:
        self.done += k
        self._advance(self._task, k)

    def _summary(self, seconds: float) -> str:
        return f"{self.game}: {self.runs} comparison runs, {self.done:,} games in {seconds:.1f} s"
