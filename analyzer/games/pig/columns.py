"""The game's result columns: what `analyzer columns pig` lists, what every output is allocated from, and
the constants the kernel writes them by (`g[i, G.LENGTH]`, `s[i, p, S.SCORE]`)."""
from ...kernel import RESTRICT_LIFTED, RESTRICT_LIFTED_DOC, Columns, PerKind, indices

FACES = 6
COLUMNS = Columns(
    game={"length": "turns played", "capped": "1 if the game hit turn_cap (a draw)"},
    seat={"score": "points banked", "is_winner": "won the game", "rolls": "dice rolled",
          "busts": "turns lost to a 1", "holds": "turns ended by holding", RESTRICT_LIFTED: RESTRICT_LIFTED_DOC},
    kinds={"faces": PerKind("dice rolled per face (1..6) by each seat", FACES)},
)
G = indices("G", COLUMNS.game)
S = indices("S", COLUMNS.seat)
