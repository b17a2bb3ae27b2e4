"""Space Base's view test: every board, credit and display card is public; the only hidden thing is
the order of the three shipyard decks. Re-dealing that order mid-game must not change any decision
of any policy (buy, claim, dice assignment, set die, reroll, firing and what a fired ability does):
the asks and the re-deal are analyzer/games/spacebase/views.py, which the game contract also runs."""
import numpy as np
import pytest

from analyzer.games.spacebase import GAME
from analyzer.games.spacebase import views as V
from analyzer.games.spacebase.scenario import SpacebaseScenario
from analyzer.scenario import load


@pytest.mark.parametrize("policy", SpacebaseScenario.POLICIES)
def test_no_decision_depends_on_the_hidden_deck_order_view(policy):
    rng = np.random.default_rng(3)
    for seed in range(3):
        pos = V.position(load(GAME, players=3, policies=[policy]), seed)
        before = V.decisions(pos)
        decks = V.hidden(pos)
        V.redeal(pos, rng)
        assert not np.array_equal(decks, pos.DECK)  # the hidden part really changed
        assert V.decisions(pos) == before
