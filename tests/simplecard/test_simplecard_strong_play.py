"""Simple Card's strong-play contract (issue #25): each restriction filters the options its seat lists,
through the game's own turn, at its boundary (what it forbids against its nearest allowed neighbour), and
each weight moves the decision it names (tests/simplecard/conftest.py's table; Zero balancers: bonus 0).

The test pool's unknown card (its rank-1 mean) attacks contact A/B/C with 3/2/2."""
import numpy as np
import pytest

import analyzer
from analyzer.games.simplecard import GAME
from analyzer.games.simplecard import decisions as D
from analyzer.games.simplecard import engine as E
from analyzer.games.simplecard import view as V
from analyzer.games.simplecard.scenario import CONTACTS, CT_NAMES
from analyzer.kernel import new_trace

A, B = 0, 1  # the seats (the table fixture's players)


def placed(t):
    """(top card, height) that seat A placed in its ACT, from the trace."""
    (_, _, top, height, _), = (r for r in t.records(E.E_PLACE) if r[1] == A)
    return t.keys[top], height


def random_games(restrict, n=150, **sets):
    """n default games of two random seats under `restrict` {seat: [names]}."""
    sc = analyzer.load_scenario(GAME, policy=["random"], set={"restrict": restrict, **sets})
    return GAME.run_batch(sc, 5, np.arange(n, dtype=np.int64))


# ---- restrictions --------------------------------------------------------------------------------------
@pytest.mark.parametrize("restricted", [False, True])
def test_no_rank2_stacks_forbids_the_stack_but_not_the_rank1_card_of_its_name(table, restricted):
    # greedy's best is the Hero + Hero/2 stack (7 against Def's 4); restricted, the stacks of 2 and 3 are gone,
    # and Hero alone (3, a loss) stays listed: greedy places Atk (5 against 4)
    t = table(policies=("greedy",), restrict={A: ["no_rank2_stacks"]} if restricted else None)
    t.hand(A, "Hero", "Hero/2", "Hero/3", "Atk").main(B, "Def")
    t.act(A)
    assert placed(t) == (("Atk", 1) if restricted else ("Hero/3", 3))
    assert t.s[A, E.S.STACKS_PLAYED] == (not restricted) and t.s[A, E.S.RESTRICT_LIFTED] == 0


def test_no_rank2_stacks_leaves_the_scripted_choice_among_the_rank1_cards(table):
    restricted_menu = ["Hero", "Atk"]  # unrestricted: Hero, Hero + Hero/2, Atk
    t = table(script=[restricted_menu.index("Atk")], restrict={A: ["no_rank2_stacks"]})
    t.hand(A, "Hero", "Hero/2", "Atk").main(B, "Def")
    t.act(A)
    assert placed(t) == ("Atk", 1)


def test_no_rank2_stacks_in_random_play_forbids_only_that_seats_stacks():
    out = random_games({0: ["no_rank2_stacks"]})
    assert out.extra["stacks_played"][:, 0].sum() == 0 and out.extra["stacks_played"][:, 1].sum() > 0
    assert out.extra["restrict_lifted"].sum() == 0  # a rank-1 card alone is always left


@pytest.mark.parametrize("ct", range(len(CT_NAMES)))
def test_no_ct_forbids_that_technique_and_no_other(ct):
    out = random_games({0: [f"no_ct_{CT_NAMES[ct]}"]})
    used = out.extra["cts"].sum(axis=0)  # [seat, technique]
    assert used[0, ct] == 0 and used[1, ct] > 0
    assert all(used[0, other] > 0 for other in range(len(CT_NAMES)) if other != ct)
    assert out.extra["restrict_lifted"].sum() == 0  # PROCEED is always left


def changing_position(table, **play):
    """A (scripted) attacks B's D5 with Atk on contact B: 3 against 2; B (ct) may Change to Big (10) by
    casting Cheap, its cheapest card."""
    script = [["Atk", "Two"].index("Atk"), CONTACTS.index("B")]  # A's placement menu, then the contact
    t = table(policies=("scripted", "ct"), script=script, enabled_cts=["changing"], **play)
    return t.hand(A, "Atk", "Two").main(B, "D5").hand(B, "Cheap", "Big", "Two")


@pytest.mark.parametrize("restricted", [False, True])
def test_no_ct_changing_keeps_the_inferior_side_from_changing(table, restricted):
    t = changing_position(table, restrict={B: ["no_ct_changing"]} if restricted else None)
    t.act(A)
    assert t.cts[B, D.CT_CHANGING] == (not restricted)
    assert t.main_of(B) == (None if restricted else ("Big", 1, True))


def test_no_go_second_makes_the_restricted_chooser_go_first():
    out = random_games({0: ["no_go_second"]}, n=300, **{"rules.first_player_tie": "seat0"})
    chooser, first = out.extra["chooser"], out.first_player
    seat0_chose = chooser != 1  # a tie (-1): seat 0 chooses (first_player_tie: seat0)
    assert (first[seat0_chose] == 0).all()
    assert (first[~seat0_chose] == 0).any()  # seat 1, unrestricted, goes second at times
    assert out.extra["restrict_lifted"].sum() == 0


# ---- weights -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("margin_value,top", [(100, "Big"), (0, "Atk")])
def test_margin_value_prices_the_margin_against_the_risk_points(table, margin_value, top):
    # against Def (4): Big wins by 6 (risk 25), Atk by 1 (risk 8); without a price on margin the cheaper winner
    t = table(policies=("greedy",), seat_weights={A: {"margin_value": margin_value}})
    t.hand(A, "Big", "Atk", "Cheap").main(B, "Def")
    t.act(A)
    assert placed(t) == (top, 1)


@pytest.mark.parametrize("win_value,top", [(1000, "Atk"), (3, "Atk"), (2, "Cheap")])
def test_win_value_is_what_winning_the_contact_is_worth(table, win_value, top):
    # with margin_value 5: Atk wins by 1, win_value + 5 - 8; Cheap loses, -1 (its risk points; a tie: the first)
    t = table(policies=("greedy",), seat_weights={A: {"win_value": win_value, "margin_value": 5}})
    t.hand(A, "Cheap", "Atk").main(B, "Def")
    t.act(A)
    assert placed(t) == (top, 1)


@pytest.mark.parametrize("defence_value,top", [(100, "Def"), (0, "Cheap")])
def test_defence_value_prices_a_set_cards_defence(table, defence_value, top):
    # set face down: Def defends at worst 4 (risk 9), Cheap 0 (risk 1)
    t = table(policies=("greedy",), seat_weights={A: {"defence_value": defence_value}})
    t.hand(A, "Cheap", "Def").deck(A, "Two")
    t.act(A)
    assert t.main_of(A) == (top, 1, False)


@pytest.mark.parametrize("exposure,top", [(0, "Atk"), (12, "Atk"), (13, "Def")])
def test_exposure_weighs_the_defence_a_winning_main_must_then_make(table, exposure, top):
    # against Cheap (defends 1/0/0): Atk wins by 4 (1000 + 400 - 8 = 1392), Def by 3 (1291). Then the unknown
    # card (3/2/2) attacks: Atk defends 4/2/2, a tie at B and C (exposed: - exposure x 8); Def 4/4/4 holds
    t = table(policies=("greedy",), seat_weights={A: {"exposure": exposure}})
    t.hand(A, "Atk", "Def", "Cheap").main(B, "Cheap")
    t.act(A)
    assert placed(t) == (top, 1)


@pytest.mark.parametrize("second_edge,first", [(0, B), (1, B), (2, A)])
def test_second_edge_is_how_much_better_attacking_must_be_to_go_second(table, second_edge, first):
    # Atk attacks the unknown card at best +2 and defends a set card at worst 0: an edge of 2
    t = table(policies=("greedy",), seat_weights={A: {"second_edge": second_edge}})
    t.hand(A, "Atk", "Cheap", "Two", "Cheap").balancer(A, "Big")  # A chooses (25 > 0)
    ev, tn = new_trace(10)
    assert E.first_player(t.zones, t.data, t.pol, t.g, t.s, ev, tn, np.int64(10)) == first


@pytest.mark.parametrize("limit_margin,height", [(0, 2), (1, 1)])
def test_limit_margin_is_how_close_to_the_limit_cautious_lets_a_loss_bring_it(table, limit_margin, height):
    # Risk 2; the Hero stack's loss adds 27: 29 (below 30) risks it, 29 + 1 does not
    t = table(policies=("cautious",), seat_weights={A: {"limit_margin": limit_margin}}, enabled_cts=["changing"])
    t.hand(A, "Hero", "Hero/2", "Atk", "Cheap").main(B, "Def").hand(B, "Cheap", "Two").risk(A, points=2)
    t.act(A)
    assert placed(t)[1] == height


@pytest.mark.parametrize("ct_margin,changes", [(6, 1), (7, 0)])
def test_ct_margin_is_the_risk_kept_below_the_limit_after_a_cast(table, ct_margin, changes):
    # B's Risk 22 + Cheap cast (1) + 6 = 29 < 30: ct Changes; with 7 it would reach 30
    t = changing_position(table, seat_weights={B: {"ct_margin": ct_margin}}).risk(B, points=22)
    t.act(A)
    assert t.cts[B, D.CT_CHANGING] == changes


@pytest.mark.parametrize("skip_bonus,skips", [(3, True), (4, False)])
def test_skip_bonus_is_the_opponent_balancer_bonus_worth_a_skip(table, skip_bonus, skips):
    t = table(policies=("ct",), seat_weights={A: {"skip_bonus": skip_bonus}}, enabled_cts=["skipping"])
    t.hand(A, "Cheap", "Two", "D5").balancer(B, "Bal343")  # Bal343's bonus: 3; no hand card beats A's balancer
    view, options = t.view, t.options
    options[:2] = [[D.PROCEED, 0, 0], [D.CT_SKIPPING, 0, 0]]
    V.fill_view(view, D.D_PRE, A, A, t.n, t.hand_, -1, 2, -1, t.cards.shape[0] - 1)
    k = E.policy_choice(t.policy[A], t.weights[A], t.data, t.pol, 2)
    assert (options[k, D.O_CODE] == D.CT_SKIPPING) == skips


def test_a_filter_that_forbids_every_option_is_lifted_and_counted(table):
    # no decision the engine lists today can be all forbidden (PROCEED, a rank-1 card alone and GO_FIRST stay);
    # the filter itself: two stack placements under no_rank2_stacks stay listed, and the lift is counted
    t = table(restrict={A: ["no_rank2_stacks"]})
    t.options[:3] = [[2, 0, 0], [3, 0, 0], [1, 0, 0]]
    assert E.restrict(D.D_PLACE, A, t.pol, 3, t.s) == 1 and t.options[0].tolist() == [1, 0, 0]
    assert t.s[A, E.S.RESTRICT_LIFTED] == 0
    t.options[:2] = [[2, 0, 0], [3, 0, 0]]
    assert E.restrict(D.D_PLACE, A, t.pol, 2, t.s) == 2 and t.options[:2].tolist() == [[2, 0, 0], [3, 0, 0]]
    assert t.s[A, E.S.RESTRICT_LIFTED] == 1
    assert E.restrict(D.D_PLACE, B, t.pol, 2, t.s) == 2 and t.s[B, E.S.RESTRICT_LIFTED] == 0
