"""Simple Card's view test: what a player cannot know is the opponent's hand, both decks' order and the
opponent's face-down (set) card. Re-dealing them consistently with the player's view (same sizes, same
public cards) must change neither the view nor any decision of greedy, cautious or ct."""
import numpy as np
import pytest

from analyzer import rng
from analyzer.games.simplecard import decisions as D
from analyzer.games.simplecard import engine as E
from analyzer.games.simplecard import policies as P
from analyzer.kernel import new_trace

A, B = 0, 1  # the seats (the table fixture's players)

RANK1 = ["Atk", "Def", "Hero", "Big", "Cheap", "Two", "D5", "D6"]


def position(table, policy, opp_set, seed):
    """Seat A to decide; B's hand (3 cards), both decks (5 cards) and B's set card re-dealt from `seed`."""
    s = rng.new_stream(seed, 0)

    def pick():
        return RANK1[int(rng.below(s, len(RANK1)))]

    t = table(policies=(policy,), enabled_cts=["picking", "moving", "skipping", "balance_shift", "changing", "bounce"])
    t.hand(A, "Atk", "Hero", "Hero/2", "Cheap").deck(A, *[pick() for _ in range(5)]).balancer(A, "Bal321")
    t.hand(B, *[pick() for _ in range(3)]).deck(B, *[pick() for _ in range(5)]).balancer(B, "Bal343").risk(B, points=12)
    t.risk(A, points=20)
    if opp_set:
        t.main(B, pick(), face_up=False)
    else:
        t.main(B, "Def")
    return t


def decision(t, kind, contact=-1):
    """The view seat A builds and the option its policy picks at a decision of this kind."""
    cards = t.cards
    view, options = t.view, t.options
    if kind == D.D_PLACE:
        m = E.list_placements(A, t.zones, t.data, options)
    elif kind == D.D_PRE:
        m = E.list_pre_scene(A, t.zones, t.data, options, False)
    else:  # the contact choice
        options[:3, D.O_CODE] = [0, 1, 2]
        m = 3
    P.fill_view(view, kind, A, A, t.n, t.hand_, contact, 2, -1, cards.shape[0] - 1)
    k = P.decide(t.policy[A], t.data, t.pol, m, t.weights[A])
    return view.copy(), options[k].tolist()


@pytest.mark.parametrize("policy", ["greedy", "cautious", "ct"])
@pytest.mark.parametrize("kind", [D.D_PLACE, D.D_PRE, D.D_CONTACT])
@pytest.mark.parametrize("opp_set", [True, False])
def test_a_decision_depends_only_on_the_players_view(table, policy, kind, opp_set):
    seen = [decision(position(table, policy, opp_set, seed), kind) for seed in range(12)]
    views = {v.tobytes() for v, _ in seen}
    picks = {tuple(k) for _, k in seen}
    assert len(views) == 1 and len(picks) == 1  # twelve re-deals of the hidden cards, one view, one decision


def test_a_set_card_is_the_unknown_card_until_it_opens(table):
    t = position(table, "greedy", True, 0)
    view, _ = decision(t, D.D_CONTACT)
    hidden = t.cards.shape[0] - 1
    assert view[P.V_OPP_BASE] == hidden and view[P.V_OPP_H] == 1
    t.main(B, "D6")
    view, _ = decision(t, D.D_CONTACT)
    assert view[P.V_OPP_BASE] == t.id("D6")
    assert view[P.V_HAND_N] == 4 and list(view[P.V_HAND:P.V_HAND + 4]) == [t.id(k) for k in ("Atk", "Hero", "Hero/2", "Cheap")]
    assert (view[P.V_MY_RISK], view[P.V_OPP_RISK], view[P.V_OPP_HAND]) == (20, 12, 3)


def test_the_unknown_card_is_the_pools_rank1_mean(table):
    t = table()
    ones = np.array([[c.active, c.passive, c.a, c.b, c.c] for c in t.sc.cards if c.rank == 1])
    assert t.cards[-1, :5].tolist() == np.rint(ones.mean(axis=0)).astype(int).tolist()


def setup_position(table, policy, seed):
    """The setup's choice: A's balancer outranks B's, so A chooses to go first or second; B's hand and both
    decks re-dealt from `seed`; no Main yet, no Risk."""
    s = rng.new_stream(seed, 0)

    def pick():
        return RANK1[int(rng.below(s, len(RANK1)))]

    t = table(policies=(policy,)).hand(A, "Atk", "Cheap", "Two", "Cheap").balancer(A, "Big").balancer(B, "Bal343")
    t.hand(B, *[pick() for _ in range(4)]).deck(B, *[pick() for _ in range(11)]).deck(A, *[pick() for _ in range(11)])
    return t


@pytest.mark.parametrize("policy", ["greedy", "cautious", "ct"])
def test_the_choice_to_go_second_depends_only_on_the_choosers_view(table, policy):
    seen = set()
    for seed in range(12):
        t = setup_position(table, policy, seed)
        ev, tn = new_trace(10)
        first = E.first_player(t.zones, t.data, t.pol, t.g, t.s, ev, tn, np.int64(10))
        seen.add((t.view.tobytes(), int(first)))
    assert len(seen) == 1  # twelve re-deals of B's hand and both decks: one view, one choice
    assert seen.pop()[1] == B  # Atk attacks the unknown card better than it defends: A goes second
