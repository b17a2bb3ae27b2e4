"""Pig: the template game. The smallest complete game on the game contract (docs/adding-a-game.md):
a scenario schema (`scenario.py`), the decisions and their options (`decisions.py`), one kernel that
reads like the rulebook, fills the declared result columns and records the trace (`engine.py`),
policies that decide from their player's view through one dispatch (`policies.py`), and a report
(`report.py`). The `Game` below only declares. New games start by copying this folder.

Rules: see engine.py's docstring. Rule decisions: a player may hold with any turn total above 0;
reaching the target wins only when holding (a player who would pass the target keeps rolling until
they hold or bust).
"""
from __future__ import annotations

from ...kernel import Event
from ..base import Game
from . import columns as C
from . import engine as E
from .scenario import PigScenario, kernel_inputs


class Pig(Game):
    name = "pig"
    title = "Pig (template game: the game contract in its smallest form)"
    Scenario = PigScenario
    length_unit = "turns"
    COLUMNS = C.COLUMNS
    kernel = staticmethod(E.play)
    kernel_inputs = staticmethod(kernel_inputs)
    kernel_releases_gil = True  # engine.play is compiled nogil
    searchable = True
    EVENTS = {
        E.E_FIRST: Event("seat {seat} moves first"),
        E.E_ROLL: Event("  seat {seat} rolls {a} (turn total {b})"),
        E.E_BUST: Event("  seat {seat} rolls 1 and loses the turn's {a} points"),
        E.E_HOLD: Event("  seat {seat} holds {a}: score {b}"),
        E.E_WIN: Event("seat {seat} wins with {a} points"),
        E.E_CAP: Event("turn cap of {a} turns reached: a draw"),
    }

    def report(self, df, meta, out):
        from .report import write_report
        return write_report(self, df, meta, out)


GAME = Pig()
