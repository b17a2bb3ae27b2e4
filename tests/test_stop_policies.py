"""STOP policies do what policies.py says they do, on hand-built positions."""
from test_stop_support import Position, card

from analyzer.games.stop import policies as Po
from analyzer.games.stop import state as S
from analyzer.games.stop.cards import card_name


def choose(pos, p, top, allow_draw=False):
    t = Po.choose_play(pos.s, pos.r, pos.pol, p, card(top), allow_draw)
    return card_name(t) if t >= 0 else t


def test_greedy_sheds_the_highest_penalty_and_keeps_zeros_last():
    assert choose(Position(hands={0: ["red 0", "red 8", "red Swap", "blue 3"]}), 0, "red 3") == "red Swap"
    assert choose(Position(hands={0: ["red 0", "red 1"]}), 0, "red 3") == "red 1"
    assert choose(Position(hands={0: ["red 0", "blue 3"]}), 0, "red 3") == "blue 3"
    assert choose(Position(hands={0: ["red 0", "blue 8"]}), 0, "red 3") == "red 0"
    assert choose(Position(hands={0: ["wild", "blue 8"]}), 0, "red 3") == "wild"


def test_greedy_stacks_a_two_plus_rather_than_spending_its_zero_defender_cancels():
    for policy, expect in (("greedy", "blue 2+"), ("defender", "red 0")):
        pos = Position(policies=[policy], hands={1: ["red 0", "blue 2+", "green 5"]})
        assert card_name(Po.answer_two_plus(pos.s, pos.r, pos.pol, 1, 0, 2)) == expect


def test_greedy_spends_a_zero_on_a_pause_only_with_two_cards_or_fewer():
    pos = Position(hands={1: ["red 0", "green 5", "green 7"]})
    assert Po.answer_pause(pos.s, pos.r, pos.pol, 1, 0) == -1
    pos = Position(hands={1: ["red 0", "green 5"]})
    assert card_name(Po.answer_pause(pos.s, pos.r, pos.pol, 1, 0)) == "red 0"
    pos = Position(sets=["policy_params.greedy_pause_zero_at=3"], hands={1: ["red 0", "green 5", "green 7"]})
    assert card_name(Po.answer_pause(pos.s, pos.r, pos.pol, 1, 0)) == "red 0"


def test_greedy_xplus_card_trades_draws_against_penalty():
    pos = Position(hands={1: ["blue 0", "green 6/9", "yellow 1"]})
    assert card_name(Po.choose_xplus_card(pos.s, pos.r, pos.pol, 1)) == "blue 0"        # draw nothing
    pos = Position(hands={1: ["blue 2+", "yellow 1"]})
    assert card_name(Po.choose_xplus_card(pos.s, pos.r, pos.pol, 1)) == "blue 2+"       # 2*14-20 < 14-1
    pos = Position(sets=["cards.two_plus.penalty=5"], hands={1: ["blue 2+", "yellow 1"]})
    assert card_name(Po.choose_xplus_card(pos.s, pos.r, pos.pol, 1)) == "yellow 1"      # 2*14-5 > 14-1


def test_greedy_cancels_a_swap_only_when_the_incoming_hand_is_worse():
    pos = Position(hands={0: ["green 8", "yellow 7"], 2: ["red 0", "blue 1"], 3: ["green 1"]})
    assert Po.wants_swap_cancel(pos.s, pos.r, pos.pol, 2, 0)
    assert not Po.wants_swap_cancel(pos.s, pos.r, pos.pol, 2, 3)


def test_swap_choices_greedy_lowest_penalty_defender_fewest_cards():
    hands = {0: ["red 8"], 1: ["blue 1", "blue 3", "blue 4"], 2: ["wild"], 3: ["green 5", "green 7"]}
    mode, target = Po.choose_swap(Position(hands=hands).s, Position().r, Position().pol, 0)
    assert (mode, target) == (Po.SWAP_PASS_RIGHT, 1) or (mode == Po.SWAP_WITH_ONE and target == 1)
    pos = Position(policies=["defender"], hands=hands)
    mode, target = Po.choose_swap(pos.s, pos.r, pos.pol, 0)
    assert mode == Po.SWAP_WITH_ONE and target == 2


def test_defender_hoards_keepers_and_attacks_the_threat_on_its_left():
    hands = {0: ["red 0", "red 2+", "red 8", "red Pause"], 1: ["blue 1"], 2: ["blue 3"], 3: ["blue 4"]}
    pos = Position(policies=["defender"], hands=hands)
    pos.s.v[S.TOTAL:S.TOTAL + 4] = [100, 200, 50, 300]            # threat: seat 2, not on its left
    assert choose(pos, 0, "red 3") == "red Pause"                   # highest non-keeper (10 > 8)
    pos.s.v[S.TOTAL:S.TOTAL + 4] = [100, 20, 50, 300]             # threat: seat 1, its left neighbour
    assert choose(pos, 0, "red 3") == "red 2+"                      # attack cards first, 2+ is the costliest
    pos = Position(policies=["defender"], hands={0: ["red 0", "red 2+", "blue 8"]})
    pos.s.v[S.TOTAL:S.TOTAL + 4] = [0, 100, 0, 100]               # threat: seat 2
    assert choose(pos, 0, "red 3", allow_draw=True) == -1           # only hoarded keepers: rather draw
    assert choose(pos, 0, "red 3", allow_draw=False) == "red 2+"


def test_random_jumps_in_about_half_the_time_and_plays_uniformly():
    jumps = plays = 0
    for seed in range(200):
        pos = Position(policies=["random"], hands={1: ["red 5", "red 7", "red 1"]}, seed=seed)
        jumps += Po.wants_jump_in(pos.s, pos.r, pos.pol, 1, card("red 5"))
        plays += choose(pos, 1, "red 3") == "red 7"
    assert 70 < jumps < 130 and 40 < plays < 95
    pos = Position(policies=["random"], sets=["policy_params.random_jump_in=0"], hands={1: ["red 5"]})
    assert not Po.wants_jump_in(pos.s, pos.r, pos.pol, 1, card("red 5"))
