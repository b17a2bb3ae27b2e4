"""Space Base's view test: every board, credit and display card is public; the only hidden thing is
the order of the three shipyard decks. Re-dealing that order mid-game must not change any decision
of any policy (buy, claim, dice assignment, set die, reroll, firing and what a fired ability does)."""
import numpy as np
import pytest

from analyzer.games.spacebase import engine as E
from analyzer.games.spacebase import layout as L
from analyzer.games.spacebase.decisions import D_ASSIGN
from analyzer.games.spacebase.scenario import SpacebaseScenario, kernel_arrays
from analyzer.games.spacebase.state import DATA_FIELDS

DICE = [(1, 6), (2, 2), (3, 5), (6, 6), (4, 1)]


def decisions(pos, card):
    """Every decision of every player, asked as the engine asks it (`card`: a ship with set-die,
    reroll and free abilities is not needed: the asks take the card only as context; the swap is
    Kubasov's, 5 and 8)."""
    D, S = pos.D, pos.S
    swapper, sector = pos.idx["l2-24"], pos.cards[card].sector
    out = []
    for p in range(pos.P):
        credits = int(pos.PS[p, L.PL.CRED])
        out.append(("buy", p, E.ask_buy(D, S, p, credits, True)))
        out.append(("ability buy", p, E.ask_buy(D, S, p, credits, False)))
        out += [("claim", p, lv, E.ask_claim(D, S, p, lv)) for lv in range(3)]
        for side in (L.BLUE, L.RED):
            out += [("assign", p, side, d, E.ask(D, S, p, D_ASSIGN, side, *d)) for d in DICE]
            for d in DICE:
                pos.G[L.G_D1], pos.G[L.G_D2] = d
                out.append(("reroll", p, side, d, E.ask_reroll(D, S, p, card, side)))
            out.append(("set die", p, side, E.ask_set_die(D, S, p, card, side)))
            out.append(("fire", p, side, E.ask_fire(D, S, p, card, side)))
            out.append(("swap", p, side, E.ask_swap(D, S, p, swapper, side)))
            out.append(("exchange", p, side, E.ask_exchange(D, S, p, card, side, sector)))
        out.append(("place", p, E.ask_place(D, S, p, card)))
        src = E.ask_move_source(D, S, p, card)
        out.append(("move", p, src, E.ask_move_target(D, S, p, src) if src >= 0 else None))
    return out


def redeal_decks(pos, rng):
    """Shuffle the cards still in each deck (a circular buffer from DP[lv, 0], DP[lv, 1] cards)."""
    deck_sizes = kernel_arrays(pos.sc)[DATA_FIELDS.index("LVL_N")]
    for lv in range(3):
        start, count = int(pos.DP[lv, 0]), int(pos.DP[lv, 1])
        slots = (start + np.arange(count)) % deck_sizes[lv]
        pos.DECK[lv, slots] = rng.permutation(pos.DECK[lv, slots])


@pytest.mark.parametrize("policy", SpacebaseScenario.POLICIES)
def test_no_decision_depends_on_the_hidden_deck_order_view(position, policy):
    rng = np.random.default_rng(3)
    for seed in range(3):
        pos = position(players=3, policies=[policy], seed=seed)
        for t in range(3 * (4 + seed)):  # a few rounds into the game: boards, credits and displays differ
            E.play_turn(pos.D, pos.S, t % 3)
        saved = {k: v.copy() for k, v in pos.a.items()}
        card = pos.idx["l2-9"]  # a charge card (its abilities' bonus credits count in the heuristics)
        before = decisions(pos, card)
        for k, v in saved.items():
            pos.a[k][...] = v
        decks = pos.DECK.copy()
        redeal_decks(pos, rng)
        assert not np.array_equal(decks, pos.DECK)  # the hidden part really changed
        assert decisions(pos, card) == before
