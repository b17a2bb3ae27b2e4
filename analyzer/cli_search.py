"""`analyzer strength`: how much the `search` player adds to the game's tuned player, at several budgets.

Registered on analyzer.cli_app's app (analyzer.cli imports this module).
"""
from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

from . import games
from .cli_app import (
    Command,
    GameArg,
    JobsOpt,
    PlayersOpt,
    QuietOpt,
    ScenarioOpt,
    SeedOpt,
    SetOpt,
    api,
    app,
    games_bar,
    out,
)
from .errors import UserError, arg, check_run


def parse_budgets(text: str) -> list[int]:
    try:
        budgets = [int(b) for b in text.split(",")]
    except ValueError:
        raise UserError(f"{arg('budgets', repr(text))}: give rollouts per option as whole numbers, e.g. 8,32,128") from None
    if not budgets or min(budgets) < 1 or max(budgets) > 4096:
        raise UserError(f"{arg('budgets', repr(text))}: each budget must be 1..4096 rollouts per option")
    return budgets


@app.command(cls=Command)
def strength(
    game: GameArg,
    budgets: Annotated[str, typer.Option("--budgets", help="Rollouts per option at each decision, one measure each.", metavar="B,B,...")] = "8,32,128",
    n: Annotated[str, typer.Option("--n", help="Games per rotation of the search seat (and of the field alone).", metavar="GAMES")] = "200",
    seed: SeedOpt = 0,
    players: PlayersOpt = None,
    scenario: ScenarioOpt = None,
    set: SetOpt = None,
    jobs: JobsOpt = 2,
    quiet: QuietOpt = False,
):
    """How much search adds to the tuned player, at several budgets.

    One seat plays `search` at each budget while every other seat plays the game's tuned player
    (scenarios/GAME/tuned.yaml; its best heuristic where it has none: what search's rollouts play),
    its seat rotated through every seat on the same games 0..n-1; the gain is paired against the field's
    own player in the same seats on the same games (its own share, not 1/P). Every number carries its
    95% interval, with a game as the unit.

    \b
    Example: analyzer strength pig --budgets 8,32,128 --n 2000 --seed 1
    """
    from . import strength as st
    g = games.get(game)
    if not g.searchable:
        raise UserError(f"{g.name}: no search player yet; games with one: "
                        f"{', '.join(x for x in games.names() if games.get(x).searchable)}")
    chosen, (count, seed) = parse_budgets(budgets), check_run(n, seed, jobs)
    base = api.load_scenario(g, scenario, set, players)
    with games_bar(g, "strength", count * (1 + base.players * len(chosen)), quiet) as advance:
        points = st.curve(g, base, chosen, count, seed, jobs, advance)
    policy, weights = st.field_player(g)
    t = Table(title=f"{g.name}: one search seat against the field ({policy}"
                    f"{' ' + ', '.join(f'{k}={v:g}' for k, v in weights.items()) if weights else ''}), "
                    f"{base.players} players, seed {seed}", title_justify="left")
    rows = [{**row, "seconds": round(p.seconds, 1)} for row, p in zip(st.table(points), points, strict=True)]
    for h in rows[0]:
        t.add_column(h, justify="right")
    for r in rows:
        t.add_row(*[str(v) for v in r.values()])
    out.print(t)
    out.print("95% intervals, a game as the unit; the gain is paired by game against the field's own share.",
              highlight=False)
