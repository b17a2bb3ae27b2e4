"""A run's progress on stderr (the CLI, and the Python API in a terminal or a notebook): while the
kernels compile, a spinner with the elapsed time and the expected wait; then a bar with the rate and
an ETA."""
from __future__ import annotations

import sys

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


def interactive() -> bool:
    """Whether stderr is a terminal or this runs in a Jupyter kernel: where a progress display helps."""
    if sys.stderr is not None and sys.stderr.isatty():
        return True
    shell = sys.modules.get("IPython")
    ip = shell.get_ipython() if shell is not None else None
    return ip is not None and type(ip).__name__ == "ZMQInteractiveShell"


class _Bar:
    """What both bars share: a rich Progress on stderr, the compile spinner, and the rate after each advance."""

    def __init__(self, game: str, expected_compile_s: float, columns: list, disable: bool, console: Console | None):
        self.game, self.expected = game, expected_compile_s
        self._bar = Progress(SpinnerColumn(), TextColumn("{task.description}"), *columns,
                             TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), TextColumn("ETA"),
                             TimeRemainingColumn(), console=console or Console(stderr=True), disable=disable)
        self._compile = None

    def __enter__(self):
        self._bar.__enter__()
        return self

    def __exit__(self, *exc):
        return self._bar.__exit__(*exc)

    def _compiling(self, cold: bool | None) -> None:
        """A first compile (cold) shows a spinner with the expected wait, once; ready (None) removes it."""
        if cold and self._compile is None:
            self._compile = self._bar.add_task(
                f"compiling {self.game} (once per machine, about {self.expected:.0f} s)", total=None, rate="")
        elif cold is None and self._compile is not None:
            self._bar.remove_task(self._compile)
            self._compile = None

    def _advance(self, task, k: int) -> None:
        self._bar.advance(task, k)
        t = self._bar.tasks[self._bar.task_ids.index(task)]
        if t.elapsed:
            self._bar.update(task, rate=f"{t.completed / t.elapsed:,.0f} games/s")


class RunProgress(_Bar):
    """Pass `compiling` as the runner's on_compile and `advance` as its on_progress."""

    def __init__(self, game: str, total: int, expected_compile_s: float, disable: bool = False,
                 console: Console | None = None, label: str | None = None):
        super().__init__(game, expected_compile_s, [BarColumn(), MofNCompleteColumn()], disable, console)
        self.total, self.label = total, label or game
        self._games = None

    def compiling(self, cold: bool | None) -> None:
        """cold=True: a first compile starts; False: the cache is being loaded; None: the kernels are ready."""
        self._compiling(cold)
        if cold is None:
            self._games = self._bar.add_task(self.label, total=self.total, rate="")

    def advance(self, k: int) -> None:
        if self._games is None:
            self.compiling(None)
        self._advance(self._games, k)


class ReportProgress(_Bar):
    """One bar over every comparison run of a report: games done of games planned, the rate and an ETA.
    A report announces ahead the runs it knows (`plan`); any other run adds its games when it starts, so
    the total can grow while the report runs (it is never below the games played)."""

    def __init__(self, game: str, expected_compile_s: float, disable: bool = False, console: Console | None = None):
        super().__init__(game, expected_compile_s, [BarColumn(bar_width=24), MofNCompleteColumn(), TextColumn("games")],
                         disable, console)
        self.total = self.done = self.runs = 0
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
