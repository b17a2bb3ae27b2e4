"""Errors a user can fix. The CLI prints them as one line and exits with code 2; the Python API raises them.

An error names the argument as the user wrote it: `--max-n 5` on the command line, `max_n=5` in Python
(`arg`). The CLI marks its own calls (`on_command_line()`), so a check shared by both speaks each one's language.
"""
from __future__ import annotations

import contextlib
from contextvars import ContextVar

_ON_COMMAND_LINE: ContextVar[bool] = ContextVar("on_command_line", default=False)


class UserError(Exception):
    """Bad input: the message names the file or option, the field and the problem."""


def arg(name: str, shown: str | None, flag: str | None = None) -> str:
    """The argument `name` (a Python keyword, e.g. max_n) with its value as text: `--max-n 5` on the command
    line (`flag` where the option is not the keyword's name), `max_n=5` from Python. A switch (shown None)
    is `--resume` or `resume=True`."""
    if _ON_COMMAND_LINE.get():
        option = flag or "--" + name.replace("_", "-")
        return option if shown is None else f"{option} {shown}"
    return f"{name}={'True' if shown is None else shown}"


@contextlib.contextmanager
def on_command_line():
    """Errors raised inside name command-line flags (`--n`), not Python keywords (`n=`)."""
    token = _ON_COMMAND_LINE.set(True)
    try:
        yield
    finally:
        _ON_COMMAND_LINE.reset(token)


MAX_GAMES = 10**10  # ~3 days at 40k games/s and ~3.5 TB of results: past that a run is a typo


def n_games(value, name: str = "n") -> int:
    """A number of games: 100000, 1e6, '1e6' or '1_000_000' -> int. Anything else (fractions, negatives,
    words, booleans, counts beyond MAX_GAMES) is an error naming the argument `name`."""
    import re
    shown = repr(value) if isinstance(value, str) or not _ON_COMMAND_LINE.get() else str(value)
    if isinstance(value, str):
        t = value.strip().replace("_", "")
        try:
            value = float(t) if re.fullmatch(r"\d+(\.\d+)?[eE]\+?\d+", t) else int(t)
        except ValueError:
            raise UserError(f"{arg(name, shown)}: expected a whole number such as 100000, 1e6 or 1_000_000") from None
    elif isinstance(value, bool) or not hasattr(value, "__index__") and not isinstance(value, float):
        raise UserError(f"{arg(name, shown)}: expected a whole number such as 100_000")
    if value != int(value) or value < 1:
        raise UserError(f"{arg(name, shown)}: must be a whole number of at least 1")
    if value > MAX_GAMES:
        raise UserError(f"{arg(name, shown)}: at most 1e10 games per run; split larger studies into runs with different seeds")
    return int(value)


MAX_GAME_ID = 2**63 - 1  # a game id reaches the kernels as an int64
MAX_SEED = 2**62 - 1  # an int64 too, with room for the seeds derived from it (check's seed + look, tune's seed + 1)


def check_seed(seed) -> int:
    if isinstance(seed, bool) or not hasattr(seed, "__index__") or not 0 <= seed <= MAX_SEED:
        raise UserError(f"{arg('seed', repr(seed))}: must be an integer from 0 to 2**62-1")
    return int(seed)


def check_run(n, seed, jobs: int = 1, chunk: int | None = None, name: str = "n") -> tuple[int, int]:
    """A run's options, checked once where a user gives them (analyzer.api, the CLI's commands): the number of
    games (`n_games`, named `name`), the seed, the worker processes and the games per work unit. What plays
    the run (analyzer.simulation and below) takes them as they come. Returns (games, seed)."""
    games = n_games(n, name)
    if isinstance(jobs, bool) or not hasattr(jobs, "__index__") or jobs < 1:
        raise UserError(f"{arg('jobs', repr(jobs))}: must be at least 1 (a whole number)")
    if chunk is not None and (isinstance(chunk, bool) or not hasattr(chunk, "__index__") or chunk < 1):
        raise UserError(f"{arg('chunk', repr(chunk))}: must be at least 1 game (a whole number)")
    return games, check_seed(seed)
