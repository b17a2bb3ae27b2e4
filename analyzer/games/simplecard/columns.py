"""The game's result columns: what `analyzer columns simplecard` lists, what every output is allocated from, and
the constants the kernel writes them by (`g[i, G.LENGTH]`, `s[i, p, S.SCORE]`)."""
import numpy as np

from ...kernel import RESTRICT_LIFTED, RESTRICT_LIFTED_DOC, Columns, PerKind, indices
from .scenario import CT_KINDS

BITS = 62  # cards per word of the `played` bitmask
COLUMNS = Columns(
    game={"length": "ACTs played", "capped": "1 if the game hit act_cap (a draw)",
          "end": "how the game ended: 1 a Risk total at the limit, 2 deck and hand empty, 3 a player could not "
                 "place a Main, 0 the ACT cap",
          "simultaneous": "1 if both players reached a losing condition at the same moment",
          "chooser": "the seat whose balancer had more risk points and chose to go first or second (-1: a tie)"},
    seat={"score": "Risk headroom at the end: risk_limit minus the Risk total (higher is better)",
          "is_winner": "won the game", "faction": "the seat's deck (index into the scenario's decks)",
          "risk": "Risk total at the end", "lost": "1 if this seat met a losing condition",
          "start_bonus": "the first balancer's lowest contact value (its bonus)",
          "stacks_played": "rank-2/3 stacks placed in the Main", "stack_contacts": "contacts fought with a stack Main",
          "stack_wins": "contacts won by a stack Main", "stacks_destroyed": "stacks destroyed (to Risk, ties included)",
          "stack_risk": "Risk points added by destroyed stacks",
          "stack_ended": "destroyed stacks that brought their owner's Risk to the limit",
          "contacts": "contacts fought (either side)", "contacts_won": "contacts won",
          "sets": "cards placed face down (set)", "cast_risk": "Risk points added by casting",
          RESTRICT_LIFTED: RESTRICT_LIFTED_DOC},
    kinds={"cts": PerKind("cast techniques used by kind, in CT_NAMES order (picking, reading, balance_shift, "
                          "skipping, moving, recall, changing, bounce)", CT_KINDS),
           "played": PerKind("cards this seat placed in its Main: bit c % 62 of word c // 62 for card c of the pool",
                             lambda sc: len(sc.cards) // BITS + 1, "W", np.int64)},
)
G = indices("G", COLUMNS.game)
S = indices("S", COLUMNS.seat)
