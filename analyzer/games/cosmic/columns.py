"""The game's result columns: what `analyzer columns cosmic` lists, what every output is allocated from, and
the constants the kernel writes them by (`g[i, G.LENGTH]`, `s[i, p, S.SCORE]`)."""
from ...kernel import RESTRICT_LIFTED, RESTRICT_LIFTED_DOC, Columns, indices

COLUMNS = Columns(
    game={"length": "turns played", "capped": "1 if the game hit turn_cap (a draw)",
          "challenges": "challenges played", "deals_made": "compromise-compromise deals struck",
          "deals_failed": "compromise-compromise deals that failed, rejected or quashed (3 tokens each to the Warp)",
          "win_by": "how the winning challenge ended: 0 no win, 1 attack, 2 deal, 3 re-establish"},
    seat={"score": "foreign bases at the end", "is_winner": "won the game (shared wins count for each)",
          "faction": "alien (0 Filch, 1 Warpish, 2 Loser, 3 Laser, 4 Mind, 5 Sorcerer, 6 Grief, 7 Zombie)",
          "home_bases": "bases in its own system at the end", "warp": "tokens in the Warp at the end",
          "offense_wins": "challenges won as the offense (attack, deal or re-establish)",
          "defense_wins": "challenges won as the defense",
          "powers_used": "times its alien power acted", RESTRICT_LIFTED: RESTRICT_LIFTED_DOC},
)
G = indices("G", COLUMNS.game)
S = indices("S", COLUMNS.seat)
