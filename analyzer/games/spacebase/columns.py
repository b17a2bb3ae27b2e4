"""The game's result columns: what `analyzer columns spacebase` lists, what every output is allocated from, and
the constants the kernel writes them by (`g[i, G.LENGTH]`, `s[i, p, S.SCORE]`)."""
import numpy as np

from ...kernel import RESTRICT_LIFTED, RESTRICT_LIFTED_DOC, Columns, PerKind, indices

COLUMNS = Columns(
    game={"length": "rounds played (tie rounds included)",
          "end_reason": "0 trigger VP reached, 1 'You Win' card, 2 tie rounds cap (shared win), 3 max_rounds stop",
          "start_tie": "1 if the start player was drawn at random among tied players",
          "tie_rounds": "tie rounds played"},
    seat={"score": "VP at the end", "is_winner": "won (a shared win counts for every sharer)",
          "opening_sector": "sector of the opening ship (light speed: highest sector bought, 0 none)",
          "credits": "credits at the end", "income": "income at the end", "colonies": "colonies bought",
          "cards_bought": "ships bought (opening, normal and ability buys; not claims)",
          "cards_claimed": "ships claimed free", "turns": "turns taken (tie rounds included)",
          "abilities": "charge abilities fired", RESTRICT_LIFTED: RESTRICT_LIFTED_DOC},
    kinds={"card_buyer": PerKind("per shipyard card in scenario order (cards.ships): seat that got it, -1 nobody",
                                 lambda sc: len(sc.cards.ships), "cards", np.int8, per_seat=False),
           "colony_buyer": PerKind("per colony in scenario order (cards.colonies): seat that bought it, -1 nobody",
                                   lambda sc: len(sc.cards.colonies), "colonies", np.int8, per_seat=False)},
    trace_width=6,  # records (kind, seat, a, b, c, d): what each reads is Spacebase.events
)
G = indices("G", COLUMNS.game)  # game column indices (G.LENGTH ...), constants in the kernel
S = indices("S", COLUMNS.seat)  # seat column indices (S.SCORE ...)
