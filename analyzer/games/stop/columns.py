"""The game's result columns: what `analyzer columns stop` lists, what every output is allocated from, and
the constants the kernel writes them by (`g[i, G.LENGTH]`, `s[i, p, S.SCORE]`)."""
import numpy as np

from ...kernel import RESTRICT_LIFTED, RESTRICT_LIFTED_DOC, Columns

i64 = np.int64

COLUMNS = Columns(
    game={
        "length": "hands played",
        "capped_hands": "hands stopped by hand_turn_cap (scored as they stood)",
        "moves": "card plays: normal plays (a wild with its follow-up counts once), jump-ins, "
                 "answers (stack, add, cancelling 0) and X+ forced cards",
        "jump_ins": "jump-ins (out-of-turn plays of an identical number card)",
        "turns": "normal turns taken (plays and draws)",
        "cards_drawn": "cards drawn from the pile (turn draws, 2+, X+, Achtung)",
        "reshuffles": "times the discard pile was shuffled into a new draw pile",
        "zero_cancels": "attacks (2+, Pause, Swap, X+) cancelled with a same-colour 0",
        "achtung_penalties": "forgotten Achtung calls (2 penalty cards each)",
        "match_capped": "1 if the match hit match_hand_cap before anyone reached match_limit",
        "invariant_errors": "card-conservation check failures at hand ends (always 0 unless a bug)",
    },
    seat={
        "score": "match penalty total",
        "first_hand_penalty": "penalty each seat scored in hand 1 (the first dealer plays first)",
        "symbol_penalty": "part of the final total from symbol cards (Pause, Swap, X+, wild)",
        "hands_out": "hands in which the seat called STOP (played its last card)",
        "dealer_rel_penalty": "total penalty by position relative to each hand's dealer "
                              "(column 0 = the dealer, 1 = the dealer's left, ...), summed over hands",
        "dealer_rel_out": "hands won (STOP called) by position relative to the dealer",
        "penalty_sumsq": "sum over hands of the squared hand penalty (per-hand spread = "
                         "sumsq/length - (score/length)^2)",
        "is_winner": "won the match: the lowest total when it ended (ties share)",
        RESTRICT_LIFTED: RESTRICT_LIFTED_DOC,
    },
    dtype=np.int64,
)
GAME_COLUMNS = tuple(COLUMNS.game)
# per-seat match stats (-> result columns; order = SEAT_COLUMNS). The dealer_rel_* stats are indexed
# by position relative to the hand's dealer (0 = dealer, 1 = dealer's left, ...), not by seat.
SEAT_COLUMNS = tuple(COLUMNS.seat)
NG, NSEAT = i64(len(GAME_COLUMNS)), i64(len(SEAT_COLUMNS))
