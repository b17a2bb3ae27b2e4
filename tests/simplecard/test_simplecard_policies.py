"""Simple Card's heuristic policies decide as their docstrings say, on built positions (tests/simplecard/conftest.py):
greedy's best margin, cautious's refusal to expose a game-ending Main, ct's Changing and Bounce thresholds.
Contact totals with Zero balancers: see test_simplecard_rules.py."""
import numpy as np
import pytest

from analyzer.games.simplecard import GAME
from analyzer.games.simplecard import decisions as D
from analyzer.games.simplecard import engine as E
from analyzer.games.simplecard import view as V
from analyzer.kernel import new_trace

A, B = 0, 1  # the seats (the table fixture's players)


def test_greedy_chooses_the_contact_with_the_best_margin(table):
    t = table(policies=("greedy",)).hand(A, "Atk", "Cheap", "Two").deck(A, "Two").main(B, "Bal343")
    lines = t.act(A)  # Atk attacks A 5 / B 3 / C 3 against Bal343 (passive 0) A 3 / B 4 / C 3: A wins by 2
    assert "  seat 0 chooses contact A" in lines


def test_greedy_chooses_a_contact_other_than_the_first_when_it_pays(table):
    t = table(policies=("greedy",)).hand(A, "Def", "Cheap", "Two").deck(A, "Two").main(B, "Atk")
    lines = t.act(A)  # Def attacks A 3 / B 3 / C 3 against Atk (passive 1) A 4 / B 2 / C 2: B (first best)
    assert "  seat 0 places Def (1 cards) face up" in lines and "  seat 0 chooses contact B" in lines


def test_greedy_places_the_card_that_wins_by_most(table):
    t = table(policies=("greedy",)).hand(A, "Cheap", "Atk", "Big", "Two").main(B, "Def")
    lines = t.act(A)  # Big: 10 against 4
    assert "  seat 0 places Big (1 cards) face up" in lines


@pytest.mark.parametrize("risk,stack_ok", [(2, True), (3, False)])
def test_cautious_places_the_stack_while_its_destruction_keeps_it_below_the_limit(table, risk, stack_ok):
    t = table(policies=("cautious",), enabled_cts=["changing"]).hand(A, "Hero", "Hero/2", "Atk", "Cheap")
    t.main(B, "Def").hand(B, "Cheap", "Two").risk(A, points=risk)  # 2 + 27 = 29 < 30; 3 + 27 = 30
    lines = t.act(A)
    assert ("  seat 0 places Hero/2 (2 cards) face up" in lines) == stack_ok


def decide(t, kind, rows, contact=-1):
    """Seat A's decision on the table's position among option rows (code, index, card)."""
    cards = t.cards
    view, options = t.view, t.options
    options[:len(rows)] = rows
    V.fill_view(view, kind, A, A, t.n, t.hand_, contact, 2, -1, cards.shape[0] - 1)
    return E.policy_choice(t.policy[A], t.weights[A], t.data, t.pol, len(rows))


@pytest.mark.parametrize("defender,changes", [("D6", True), ("Big", False)])
def test_ct_changes_only_when_the_change_wins(table, defender, changes):
    # A's Atk (5 on contact A) is inferior to D6 (6) and to Big (10); Big in hand would beat D6 (10) only
    t = table(policies=("ct",), enabled_cts=["changing"]).hand(A, "Cheap", "Big", "Two").main(A, "Atk").main(B, defender)
    rows = [[D.PROCEED, 0, 0]] + [[D.CT_CHANGING, i, t.id(k)] for i, k in enumerate(("Cheap", "Big", "Two"))]
    assert decide(t, D.D_CHANGE, rows, contact=0) == (1 if changes else 0)  # casting the cheapest card


@pytest.mark.parametrize("bounce_at,bounces", [(8, True), (9, False)])
def test_ct_bounces_a_main_worth_bounce_risk_or_more(table, bounce_at, bounces):
    t = table(policies=("ct",), seat_weights={A: {"bounce_risk": bounce_at}}, enabled_cts=["bounce"])
    t.hand(A, "Cheap", "Two").main(A, "Atk")  # Atk: 8 points
    assert decide(t, D.D_POST, [[D.PROCEED, 0, 0], [D.CT_BOUNCE, 0, 0]]) == bounces


def test_changing_places_another_card_than_the_one_returned(table):
    t = table(script=[0, 0, 1, 99], enabled_cts=["changing"]).hand(A, "Atk", "Cheap", "Big").deck(A, "Two").main(B, "D6")
    lines = t.act(A)  # change after losing with Atk: the place options are Big and Two, never Atk
    assert "  seat 0 changes its Main Atk for Two" in lines


@pytest.mark.parametrize("policy", ["greedy", "cautious", "ct"])
@pytest.mark.parametrize("card,first", [("D6", A), ("Atk", B)])
def test_the_heuristics_go_second_when_their_hand_attacks_better_than_it_defends(table, policy, card, first):
    # the unknown card (the test pool's mean: active 1, passive 1, A 2, B 1, C 1) attacks 3/2/2 and defends 3/2/2.
    # D6 set defends 6/3/3: at worst +1; attacking 3/0/0: at best 0 -> go first.
    # Atk set defends 4/2/2: at worst 0; attacking 5/3/3: at best +2 -> go second. Cheap and Two do worse.
    t = table(policies=(policy,)).hand(A, card, "Cheap", "Two", "Cheap").balancer(A, "Big")  # A chooses (25 > 0)
    ev, tn = new_trace(10)
    assert E.first_player(t.zones, t.data, t.pol, t.g, t.s, ev, tn, np.int64(10)) == first
    assert GAME.describe(t.sc, ev[:tn[0]]) == [f"seat 0 chooses: seat {first} goes first"]
