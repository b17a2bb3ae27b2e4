"""The sections every report ends with, about its players: "Tuned play", "What each element is worth" and
"Skill and luck" (analyzer.skill), then "Under search play" (analyzer.search_report). A game's report
calls `sections` once, passing `verdict=` where its headline is not the position win rates."""
from __future__ import annotations

from typing import Callable

import polars as pl

from . import search_report, skill
from .reporting import Report


def sections(rep: Report, game, df: pl.DataFrame, meta: dict,
             verdict: Callable[[pl.DataFrame], skill.Verdict] = skill.position_verdict) -> None:
    skill.sections(rep, game, df, meta, verdict)
    search_report.section(rep, game, df, meta, verdict)


def planned_games(game, meta: dict, n: int, run_games: int) -> int:
    """The games the sections will play (the report's progress bar announces them ahead): `n` per comparison
    run, and the search section's, sized from the run's `run_games`."""
    return skill.planned_games(game, meta, n) + search_report.planned_games(game, meta, run_games)
