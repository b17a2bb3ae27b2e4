"""Simple Card's own view tests. The contract (tests/test_contract.py) runs the view check of
analyzer/games/simplecard/views.py for every policy; here: that check catches a policy shown the
opponent's set card, a set card is the unknown card in the view until it opens, and the unknown card
is the pool's rank-1 mean."""
import numpy as np
import pytest

import analyzer
from analyzer.games.simplecard import GAME, views
from analyzer.games.simplecard import decisions as D
from analyzer.games.simplecard import engine as E
from analyzer.games.simplecard import table as T
from analyzer.games.simplecard import view as V

A, B = 0, 1  # the seats (the table fixture's players)


@pytest.mark.parametrize("policy", ["greedy", "cautious", "ct"])
def test_the_view_check_catches_a_policy_shown_the_set_card(monkeypatch, policy):
    """The contract's check is felt: an engine that builds the view with the opponent's set card as it is
    (not the unknown card) makes decisions follow the re-dealt set card. The decks are themed (a C-strong
    hand attacks a B-strong card with C whatever it is), so only some positions tell: twelve seeds here;
    the contract's four catch ct alone."""
    seen = {}  # the position being asked

    def shown(kind, p, a, st, data, pol, n_options, contact, changes_left, cast_for):
        pos = seen["pos"]
        n, set_card = pos.n, pos.n[1 - p, T.N_MAIN_BASE]
        V.fill_view(pos.view, kind, p, a, n, pos.hand, contact, changes_left, cast_for, set_card)
        return E.policy_choice(pos.policy[p], pos.weights[p], data, pol, n_options)
    monkeypatch.setattr(views, "ask", shown)  # the ask views.py makes, not the compiled engine's
    sc, shuffler = analyzer.load_scenario(GAME, policy=policy), np.random.default_rng(0)
    changed = 0
    for seed in range(12):
        pos = seen["pos"] = views.position(sc, seed)
        before = views.decisions(pos)
        views.redeal(pos, shuffler)
        changed += views.decisions(pos) != before
    assert changed > 0


def contact_view(t):
    """The view seat A builds at its contact choice."""
    V.fill_view(t.view, D.D_CONTACT, A, A, t.n, t.hand_, -1, 2, -1, t.cards.shape[0] - 1)
    return t.view


def test_a_set_card_is_the_unknown_card_until_it_opens(table):
    t = table(policies=("greedy",)).hand(A, "Atk", "Hero", "Hero/2", "Cheap").risk(A, points=20)
    t.hand(B, "Def", "D5", "Big").risk(B, points=12).main(B, "D6", face_up=False)
    view = contact_view(t)
    assert view[V.V_OPP_BASE] == t.cards.shape[0] - 1 and view[V.V_OPP_H] == 1
    t.main(B, "D6")
    view = contact_view(t)
    assert view[V.V_OPP_BASE] == t.id("D6")
    assert view[V.V_HAND_N] == 4 and list(view[V.V_HAND:V.V_HAND + 4]) == [t.id(k) for k in ("Atk", "Hero", "Hero/2", "Cheap")]
    assert (view[V.V_MY_RISK], view[V.V_OPP_RISK], view[V.V_OPP_HAND]) == (20, 12, 3)


def test_the_unknown_card_is_the_pools_rank1_mean(table):
    t = table()
    ones = np.array([[c.active, c.passive, c.a, c.b, c.c] for c in t.sc.cards if c.rank == 1])
    assert t.cards[-1, :5].tolist() == np.rint(ones.mean(axis=0)).astype(int).tolist()
