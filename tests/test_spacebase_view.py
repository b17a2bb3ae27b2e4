"""Space Base's view test: every board, credit and display card is public; the only hidden thing is
the order of the three shipyard decks. Re-dealing that order mid-game must not change any decision
of any policy (buy, claim, dice assignment, set die, reroll)."""
import numpy as np
import pytest
from test_spacebase_rules import Pos

from analyzer.games.spacebase import engine as E
from analyzer.games.spacebase import layout as L
from analyzer.games.spacebase import policies as PO
from analyzer.games.spacebase.scenario import SpacebaseScenario, kernel_arrays

DICE = [(1, 6), (2, 2), (3, 5), (6, 6), (4, 1)]


def decisions(pos):
    out = []
    for p in range(pos.P):
        credits = int(pos.PS[p, L.P_CRED])
        out.append(("buy", p, PO.choose_buy(pos.D, pos.S, p, credits, True, True)))
        out.append(("ability buy", p, PO.choose_buy(pos.D, pos.S, p, credits, False, False)))
        out += [("claim", p, lv, PO.choose_claim(pos.D, pos.S, p, lv)) for lv in range(3)]
        for side in (L.BLUE, L.RED):
            out += [("assign", p, side, d, PO.choose_assignment(pos.D, pos.S, p, side, *d)) for d in DICE]
            out += [("reroll", p, side, d, PO.choose_reroll(pos.D, pos.S, p, side, *d, 1)) for d in DICE]
            out.append(("set die", p, side, PO.choose_set_die(pos.D, pos.S, p, side, 1)))
    return out


def redeal_decks(pos, rng):
    """Shuffle the cards still in each deck (a circular buffer from DP[lv, 0], DP[lv, 1] cards)."""
    deck_sizes = kernel_arrays(pos.sc)[-1]
    for lv in range(3):
        start, count = int(pos.DP[lv, 0]), int(pos.DP[lv, 1])
        slots = (start + np.arange(count)) % deck_sizes[lv]
        pos.DECK[lv, slots] = rng.permutation(pos.DECK[lv, slots])


@pytest.mark.parametrize("policy", SpacebaseScenario.POLICIES)
def test_no_decision_depends_on_the_hidden_deck_order_view(policy):
    rng = np.random.default_rng(3)
    for seed in range(3):
        pos = Pos(players=3, policies=[policy], seed=seed)
        for t in range(3 * (4 + seed)):  # a few rounds into the game: boards, credits and displays differ
            E.play_turn(pos.D, pos.S, t % 3)
        saved = {k: v.copy() for k, v in pos.a.items()}
        before = decisions(pos)
        for k, v in saved.items():
            pos.a[k][...] = v
        decks = pos.DECK.copy()
        redeal_decks(pos, rng)
        assert not np.array_equal(decks, pos.DECK)  # the hidden part really changed
        assert decisions(pos) == before
