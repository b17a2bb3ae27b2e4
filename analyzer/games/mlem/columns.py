"""The game's result columns: what `analyzer columns mlem` lists, what every output is allocated from, and
the constants the kernel writes them by (`g[i, G.LENGTH]`, `s[i, p, S.SCORE]`)."""
import numpy as np

from ...kernel import RESTRICT_LIFTED, RESTRICT_LIFTED_DOC, Columns, PerKind, indices
from .decisions import TYPES

SOURCES = ("moons", "planets", "deep space", "goals")

COLUMNS = Columns(
    game={"length": "expeditions played", "crashes": "rocket crashes (steps of the crash track)",
          "capped": "1 if the game hit expedition_cap (a draw)",
          "end": "why the game ended: 1 the crash track, 2 a player placed all 8 astronauts, 0 the cap"},
    seat={"score": "total points", "is_winner": "won the game (ties share per win_ties)",
          "placed": "astronauts placed (moons, planets, comet, galaxy) at the end",
          "started": "expeditions this seat started (the starting player)", RESTRICT_LIFTED: RESTRICT_LIFTED_DOC},
    kinds={"points": PerKind("points by source: moons, planets, deep space (comet/galaxy), goals", len(SOURCES)),
           "type_points": PerKind("points credited to each astronaut type (see the package docstring), in TYPE_NAMES "
                                  "order", TYPES),
           "astronaut_at": PerKind("where each astronaut type ended: 0 home, 2 moon, 3 planet, 4 comet, 5 galaxy", TYPES),
           "boarded": PerKind("astronauts of each type this seat sent (boardings at take-off; one home from a crash "
                              "may board again)", TYPES),
           # per space, not per seat and space: the report needs only the totals by space (the crash rate)
           "rolls_at": PerKind("rolls made on each space (S = spaces of the board), all commanders",
                               lambda sc: len(sc.board.spaces), "S", np.int16, per_seat=False),
           "crashes_at": PerKind("crashes on each space; crash rate by space = crashes_at / rolls_at summed over games",
                                 lambda sc: len(sc.board.spaces), "S", np.int16, per_seat=False)},
)
G = indices("G", COLUMNS.game)
S = indices("S", COLUMNS.seat)
