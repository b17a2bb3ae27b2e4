"""The command line's common ground: the `app` every command module registers on, the options and the help
they share, and the lazy modules that keep `analyzer --help` free of numba, polars and pydantic.
analyzer.cli imports the command modules; they import this one, never cli."""
from __future__ import annotations

import functools
import inspect
import sys
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console

from . import games
from .errors import UserError, on_command_line


def _lazy(name: str):
    """A module imported on first use: `analyzer --help` needs none of numba, polars or pydantic."""
    import importlib.util
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.find_spec(name)
    spec.loader = importlib.util.LazyLoader(spec.loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


api, compile_cache, progress = _lazy("analyzer.api"), _lazy("analyzer.compile_cache"), _lazy("analyzer.progress")
results, scen, simulation = _lazy("analyzer.results"), _lazy("analyzer.scenario"), _lazy("analyzer.simulation")


class OneLineUsageErrors(typer.core.TyperGroup):
    """Usage errors (a missing option, a value of the wrong type) print one line, like every other bad
    input, instead of click's usage box."""

    def main(self, args=None, prog_name=None, standalone_mode=True, **extra):
        try:
            with on_command_line():  # shared checks name --flags here, keywords= from Python
                code = super().main(args, prog_name, standalone_mode=False, **extra)
        except typer.TyperException as e:  # typer's click errors (typer >= 0.29 vendors click)
            if not standalone_mode:
                raise
            if type(e).__name__ == "NoArgsIsHelpError":  # `analyzer` alone shows the help (typer tests the name too)
                err.print(e.format_message(), highlight=False, markup=False)
            else:
                err.print(usage_error_line(e, self._command_path(e, args, prog_name)), highlight=False, markup=False)
            sys.exit(e.exit_code)
        except typer.Abort:
            if not standalone_mode:
                raise
            sys.exit(1)
        if standalone_mode:
            sys.exit(code if isinstance(code, int) else 0)  # non-standalone click returns an Exit's code
        return code

    def _command_path(self, e, args, prog_name) -> str:
        """'analyzer sim': from the error's context, else (the parser's errors carry none) from the command line."""
        if (ctx := getattr(e, "ctx", None)) is not None:
            return ctx.command_path
        argv = sys.argv[1:] if args is None else list(args)
        command = argv[:1] if argv and argv[0] in self.commands else []
        return " ".join([prog_name or "analyzer", *command])


def usage_error_line(e: Exception, command: str) -> str:
    """'error: analyzer sim: Invalid value for '--jobs' / '-j': ... (got 'abc') (see analyzer sim --help)'."""
    message = e.format_message().rstrip(".")
    cause = e.__cause__
    if hasattr(cause, "errors"):  # typer converts values with pydantic: its error holds what was typed
        message += f" (got {cause.errors()[0]['input']!r})"
    return f"error: {command}: {message} (see {command} --help)"


class Command(typer.core.TyperCommand):
    """Typer's command help, with each argument shown by its name alone: typer appends a Python type
    name (`GAME <str>`), which says nothing to a user."""

    def format_options(self, ctx, formatter):
        sections = {"argument": ("Arguments", []), "option": ("Options", [])}
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx)
            if record is None or param.param_type_name not in sections:
                continue
            name, text = record
            if param.param_type_name == "argument":
                name = name.split(" <")[0]
            sections[param.param_type_name][1].append((name, text))
        for title, rows in sections.values():
            if rows:
                with formatter.section(title):
                    formatter.write_dl(rows)


app = typer.Typer(
    cls=OneLineUsageErrors,
    help="Monte Carlo strategy analyzer and balance tool for tabletop games.\n\n"
    "Typical session: `analyzer games` to see what is there, `analyzer sim stop --n 1e6` to play a million "
    "seeded games into results/stop.parquet, `analyzer report stop results/stop.parquet` for the balance "
    "report, `analyzer replay stop --seed 7 --game 42` to read one game move by move.",
    no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False, rich_markup_mode=None,
)
err = Console(stderr=True, soft_wrap=True)
out = Console(soft_wrap=True)

GameArg = Annotated[str, typer.Argument(help="Game key: " + ", ".join(games.names()), show_default=False, metavar="GAME")]
SeedOpt = Annotated[int, typer.Option("--seed", help="Run seed; with a game id it fixes every game.", metavar="SEED")]
ScenarioOpt = Annotated[Optional[Path], typer.Option("--scenario", help="Scenario YAML (default: scenarios/GAME/default.yaml).", metavar="FILE")]
SetOpt = Annotated[Optional[list[str]], typer.Option("--set", help="Override a scenario field, e.g. --set rules.match_limit=300 (repeatable; each field once).", metavar="FIELD=VALUE")]
PlayersOpt = Annotated[Optional[int], typer.Option("--players", help="Number of players (overrides the scenario).", metavar="N")]
JobsOpt = Annotated[int, typer.Option("--jobs", "-j", help="Worker processes (results do not depend on it).", metavar="N")]
PolicyOpt = Annotated[Optional[str], typer.Option("--policy", help="Policy for every seat, or one per seat: greedy,random,... (`analyzer games --describe GAME` says what each does).", metavar="POLICY[,POLICY...]")]
ForceOpt = Annotated[bool, typer.Option("--force", help="Replace an existing results file (without it, an existing --out is refused).")]
RestrictOpt = Annotated[Optional[list[str]], typer.Option("--restrict", help="Forbid a seat a game element: SEAT:NAME, e.g. 1:no_early_hold (repeatable; several names: 1:a,b); sets the scenario's restrict: (`analyzer games --describe GAME` lists the names).", metavar="SEAT:NAME")]


@dataclass(frozen=True)
class Play:
    """The options every playing command shares (one definition: `play_options`): which games, who plays
    them and how, and on how many workers."""
    seed: int = 0
    players: Optional[int] = None
    set: Optional[list[str]] = None
    policy: Optional[str] = None
    restrict: Optional[list[str]] = None
    jobs: int = 2

    def scenario(self, g, path: Optional[Path], sets=None):
        """The scenario `path` with these options applied (`sets` in place of --set, e.g. for a compare base)."""
        return api.load_scenario(g, path, self.set if sets is None else sets, self.players, self.policy, self.restrict)


PLAY_OPTIONS = {"seed": SeedOpt, "players": PlayersOpt, "set": SetOpt, "policy": PolicyOpt,
                "restrict": RestrictOpt, "jobs": JobsOpt}


def play_options(command):
    """`command` takes `play: Play` in place of the shared options; its --help shows them where `play`
    stands in its signature."""
    signature = inspect.signature(command, eval_str=True)
    shared = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=option,
                                default=getattr(Play, name)) for name, option in PLAY_OPTIONS.items()]
    params = []
    for p in signature.parameters.values():
        params += shared if p.name == "play" else [p.replace(kind=inspect.Parameter.KEYWORD_ONLY)]

    @functools.wraps(command)
    def run(**options):
        return command(play=Play(**{name: options.pop(name) for name in PLAY_OPTIONS}), **options)
    run.__signature__ = signature.replace(parameters=params)
    run.__annotations__ = {p.name: p.annotation for p in params}
    return run


def scripted_source(g, scenario: Path | None, policy: str | None) -> str:
    """What to name when `scripted` is refused: the --policy flag, or the scenario file's policies."""
    return f"--policy {policy}" if policy else f"{scenario or g.default_scenario}: policies: scripted"


def stage_lines():
    """Outside a terminal (a CI log, a pipe), where a live progress bar shows nothing until the end: a line on
    stderr per stage instead (progress.py). None in a terminal."""
    if progress.interactive():
        return None
    return lambda text: err.print(text, highlight=False, markup=False, soft_wrap=True)


QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")]


@contextmanager
def games_bar(g, what: str, total: int, quiet: bool):
    """One progress bar (games done, rate, ETA) over every run of a command, showing the compile as `sim`
    does (outside a terminal: a line per stage); yields the advance callback."""
    expected = compile_cache.expected_seconds(simulation.folder(g))
    with progress.RunProgress(g.name, total, expected, disable=quiet, console=err, label=f"{g.name} {what}",
                              lines=stage_lines()) as bar, simulation.compile_notices(bar.compiling):
        yield bar.advance


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


