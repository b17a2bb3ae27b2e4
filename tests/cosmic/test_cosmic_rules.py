"""Simply Cosmic's challenge rules, each driven through the game's own turn (engine.play_turn_on) on a
built position (conftest.Position: its positions and scripts) with the scripted policy, asserting the
outcome at the rule's boundary."""
import numpy as np
import pytest

import analyzer
from analyzer import rng
from analyzer.games.cosmic import GAME
from analyzer.games.cosmic import engine as E
from analyzer.games.cosmic import state as L
from analyzer.games.cosmic.columns import G, S
from analyzer.games.cosmic.context import (
    E_ALLY,
    E_DEAL,
    E_DEFENDER,
    E_DESTINY,
    E_FIRST,
    E_HOME,
    E_REESTABLISH,
    E_TOTALS,
)
from analyzer.games.cosmic.decisions import ANSWER_OFFENSE, DEAL_OFFENSE_BASE, DEAL_SWAP
from analyzer.games.cosmic.state import ST


# ---- stage 8: totals and ties -------------------------------------------------------------------------
@pytest.mark.parametrize("def_card,off_wins", [("A7", False), ("A6", True)])
def test_higher_total_wins_and_a_tie_goes_to_the_defense(attack_position, def_card, off_wins):
    pos = attack_position("A10", def_card)
    pos.turn(script=[0, 0])  # one token on the cone, aimed at planet 5 (4 defending tokens)
    d_total = 4 + int(def_card[1:])
    assert pos.said(f"totals: offense 11, defense {d_total}")
    if off_wins:
        assert pos.tokens(5, 0) == 1 and pos.tokens(5, 1) == 0 and pos.warp(1) == 4 and pos.warp(0) == 0
    else:
        assert pos.tokens(5, 0) == 0 and pos.tokens(5, 1) == 4 and pos.warp(0) == 1 and pos.warp(1) == 0
    assert pos.tokens(0, 0) == 3


def test_the_defense_defends_with_zero_tokens_on_a_planet_where_it_has_none(attack_position):
    pos = attack_position("A10", "A10")
    pos.turn(script=[0, 1])  # aim at planet 6: no defending token
    assert pos.said("totals: offense 11, defense 10")
    assert pos.tokens(6, 0) == 1 and pos.tokens(5, 1) == 4


# ---- stage 3: the cone -------------------------------------------------------------------------------
@pytest.mark.parametrize("available,on_cone", [(5, 4), (4, 4), (3, 3)])
def test_the_cone_takes_one_to_four_tokens(attack_position, available, on_cone):
    pos = attack_position("A10", "A1").set_tokens(0, 0, available)
    pos.turn(script=[9, 0])  # the largest count offered
    assert pos.said(f"puts {on_cone} tokens on the cone")
    assert pos.tokens(0, 0) == available - on_cone and pos.tokens(5, 0) == on_cone


@pytest.mark.parametrize("available,committed", [(5, 4), (4, 4), (2, 2)])
def test_an_ally_commits_one_to_four_tokens(Pos, available, committed):
    """Seat 2 (tokens only on its home planet 10), invited by the offense, joins it with the largest count
    offered (the script's 9 clamps): four at most, or all it has."""
    pos = Pos(3).hand(0, "A10").hand(1, "A1").destiny("reg1").set_tokens(10, 2, available)
    pos.turn(script=[0, 0, 1, 0, 1, 9])  # 1 token on the cone, planet 5; invite seat 2 (offense only); join, 9
    assert pos.said(f"seat 2 joins the offense with {committed} tokens")
    assert pos.said(f"totals: offense {1 + committed + 10}, defense 5")
    assert pos.tokens(10, 2) == available - committed and pos.tokens(5, 2) == committed


def test_an_emptied_planet_is_no_longer_a_base_tokens_cannot_return_there(Pos):
    pos = Pos().hand(0, "C").hand(1, "C").destiny("reg1").set_tokens(0, 0, 1).set_tokens(1, 0, 3)
    # one token from planet 0 (its last): planet 0 is lost; in the deal the token goes home to planet 1
    pos.turn(script=[0, 0, 0])
    assert pos.tokens(0, 0) == 0 and pos.said("returns 1 tokens to planet 1 of system 0")


# ---- stage 1: regroup --------------------------------------------------------------------------------
def test_regroup_takes_one_token_from_the_warp_to_a_base(attack_position):
    pos = attack_position("A10", "A1")
    pos.warp(0, 2)
    pos.turn(script=[0, 0])
    assert pos.said("seat 0 regroups a token from the Warp to planet 0 of system 0") and pos.warp(0) == 1
    assert pos.tokens(0, 0) == 4  # 4 + 1 regrouped - 1 on the cone


def test_regroup_takes_a_single_token_in_the_warp(attack_position):
    pos = attack_position("A10", "A1")
    pos.warp(0, 1)
    pos.turn(script=[0, 0])
    assert pos.said("seat 0 regroups a token from the Warp to planet 0 of system 0")
    assert pos.warp(0) == 0 and pos.tokens(0, 0) == 4


def test_regroup_without_a_base_puts_the_token_on_the_cone(attack_position):
    pos = attack_position("A10", "A1").set_tokens(0, 0, 0)
    pos.warp(0, 2)
    pos.turn(script=[0])  # only the target is a choice: the cone holds the regrouped token
    assert pos.said("regroups a token from the Warp to the cone") and pos.said("puts 1 tokens on the cone")
    assert pos.tokens(5, 0) == 1


def test_no_regroup_with_an_empty_warp(attack_position):
    pos = attack_position("A10", "A1")
    pos.turn(script=[0, 0])
    assert not pos.said("regroups")


def test_regroup_may_put_the_token_on_a_foreign_base(attack_position):
    """The offense holds planet 0 at home and planet 7 in seat 1's system: the regrouped token may go to
    either base (the original: 自分の星系上でも他のプレイヤーの星系上でもかまいません); the script names
    planet 7, the second of [0, 7]."""
    pos = attack_position("A10", "A1").set_tokens(7, 0, 1)
    pos.warp(0, 1)
    pos.turn(script=[1, 0, 0, 0])  # regroup to planet 7; cone 1 token from planet 0; aim at planet 5
    assert pos.said("seat 0 regroups a token from the Warp to planet 2 of system 1")
    assert pos.warp(0) == 0 and pos.tokens(7, 0) == 2 and pos.tokens(0, 0) == 3


# ---- stage 2: destiny --------------------------------------------------------------------------------
def test_own_colour_re_establishes_on_an_empty_home_planet_as_a_success(Pos):
    pos = Pos().hand(0, "A10", "A10").hand(1, "A1").destiny("reg0", "reg1")
    pos.turn(script=[1, 0, 0])  # re-establish on planet 1 (option 1), one token, no second challenge
    assert pos.said("seat 0 re-establishes planet 1 of system 0 with 1 tokens")
    assert pos.tokens(1, 0) == 1 and pos.tokens(0, 0) == 3
    assert pos.s[0, S.OFFENSE_WINS] == 1 and pos.g[G.CHALLENGES] == 1


@pytest.mark.parametrize("again,challenges", [(1, 2), (0, 1)])
def test_a_re_establish_is_a_successful_challenge_so_a_second_one_may_follow(Pos, again, challenges):
    pos = Pos().hand(0, "A10").hand(1, "A1").destiny("reg0", "reg1")
    pos.turn(script=[1, 0, again, 0, 0])  # re-establish planet 1 with 1 token; a second challenge or not
    assert pos.said("seat 0 re-establishes planet 1 of system 0 with 1 tokens")
    assert pos.g[G.CHALLENGES] == challenges and pos.said("seat 1 defends") == (again == 1)
    if again:
        assert pos.tokens(5, 0) == 1 and pos.s[0, S.OFFENSE_WINS] == 2


@pytest.mark.parametrize("pick,defended", [(0, "system 1"), (2, "system 0")])
def test_own_colour_offers_no_re_establish_where_another_player_holds_the_planet(Pos, pick, defended):
    pos = Pos().hand(0, "A10").hand(1, "A1").destiny("reg0", "reg1")
    for k in range(1, 5):
        pos.set_tokens(k, 1, 1)  # the other home planets hold a token of seat 1: none is empty
    pos.turn(script=[pick, 0, 0])  # the options: redraw, challenge seat 1 (pick 2 is clamped to it)
    assert pos.said(f"seat 1 defends ({defended}") and not pos.said("re-establishes")


@pytest.mark.parametrize("table,offered", [("an empty home planet", True), ("none empty", False),
                                           ("no token on a base", False)])
def test_a_re_establish_is_offered_only_on_an_empty_home_planet_with_a_token_to_put_there(Pos, table, offered):
    """The own colour first, then seat 1's card (so that a wrong offer fails at once, with no redraw loop); the
    script takes option 1 whenever the own colour asks. Without an empty home planet, or with no token on a
    base (its last one regrouped onto the cone), nothing is offered: the card is redrawn unasked."""
    pos = Pos().hand(0, "A10").hand(1, "A1").destiny("reg0", "reg1")
    if table == "none empty":
        for k in range(1, 5):
            pos.set_tokens(k, 0, 1)
    elif table == "no token on a base":
        pos.set_tokens(0, 0, 0).warp(0, 1)
    pos.turn(script=[1, 0, 0])
    assert bool(pos.events(E_REESTABLISH)) is offered
    assert pos.events(E_DEFENDER) == ([] if offered else [(1, 1, 0, 0)])


def test_own_colour_challenges_another_players_tokens_in_the_own_system(Pos):
    pos = Pos().hand(0, "A10").hand(1, "A1").destiny("reg0", "reg1").set_tokens(2, 1, 1)
    pos.turn(script=[1, 0])  # challenge seat 1 (option 1), one token; the only target is planet 2
    assert pos.said("seat 1 defends (system 0")
    assert pos.tokens(2, 0) == 1 and pos.tokens(2, 1) == 0 and pos.warp(1) == 1


def test_own_colour_challenges_another_players_tokens_on_a_shared_home_planet(Pos):
    """Seat 1's one token shares planet 0 with the offense's 4: the own colour still offers to challenge seat 1
    (option 1 of [redraw, seat 1, re-establish 1..4]); 1 + 10 beats 1 + 1, seat 1's token goes to the Warp
    and the offense's lands back on planet 0."""
    pos = Pos().hand(0, "A10").hand(1, "A1").destiny("reg0", "reg1").set_tokens(0, 1, 1)
    pos.turn(script=[1, 0])  # challenge seat 1; one token on the cone (planet 0 is the only target)
    assert pos.events(E_DEFENDER) == [(1, 0, 0, 0)]
    assert pos.tokens(0, 1) == 0 and pos.warp(1) == 1 and pos.tokens(0, 0) == 4


def test_reverse_destiny_swaps_the_cone(attack_position):
    pos = attack_position().destiny("rev1")
    pos.turn(script=[0, 0])
    assert pos.said("reverse cone")


def test_a_comet_applies_and_a_second_comet_is_ignored(attack_position):
    pos = attack_position("A10", "A5").destiny("tenacious", "outage", "reg1")
    pos.turn(script=[0, 0])
    assert pos.said("comet: Tenacious Defense)")  # Tenacious Defense in force: the defending 5 counts 10
    assert pos.said("totals: offense 11, defense 14")


@pytest.mark.parametrize("card,total", [("A10", 24), ("A11", 15)])
def test_tenacious_defense_doubles_a_defending_card_of_one_to_ten(attack_position, card, total):
    pos = attack_position("A10", card).destiny("tenacious", "reg1")
    pos.turn(script=[0, 0])
    assert pos.said(f"defense {total}")


def test_a_comet_changes_only_the_challenge_it_was_drawn_for(Pos):
    """Tenacious Defense is drawn for the first challenge only: the defending 5 counts 10 there (1 + 20 vs
    4 + 10), then in the second challenge, at planet 6 (one defending token), it counts 5 again (1 + 20 vs
    1 + 5)."""
    pos = Pos().hand(0, "A20", "A20").hand(1, "A5", "A5").destiny("tenacious", "reg1", "reg1").set_tokens(6, 1, 1)
    pos.turn(script=[0, 0, 1, 0, 0, 1])  # cone 1, planet 5; a second challenge: cone 1 from planet 0, planet 6
    assert [line for line in pos.lines if "totals" in line] == ["  totals: offense 21, defense 14",
                                                                 "  totals: offense 21, defense 6"]


def test_wild_destiny_lets_the_offense_pick_the_defense(Pos):
    pos = Pos(3).hand(0, "A10").hand(2, "A1").destiny("wild")
    pos.turn(script=[2, 0, 0])  # seat 2 (option 2 of [0, 1, 2, 3])
    assert pos.said("seat 2 defends")


@pytest.mark.parametrize("own,reestablished", [(True, True), (False, False)])
def test_a_wild_destiny_may_name_the_offenses_own_colour(Pos, own, reestablished):
    """wild_destiny_own_colour: the offense names its own colour (option 0 of [0, 1]) and re-establishes on
    planet 1 (the own choices, no redraw: it named the colour); without it the only colour is seat 1's. Seat
    1's card follows the wild, so a redraw offered by mistake fails at once instead of drawing wilds forever."""
    pos = Pos(2, unowned_system="absent", wild_destiny_own_colour=own).hand(0, "A10").hand(1, "A1")
    pos.destiny("wild", "reg1")
    pos.turn(script=[0, 0, 0])
    assert bool(pos.events(E_REESTABLISH)) is reestablished and pos.tokens(1, 0) == int(reestablished)
    assert pos.events(E_DEFENDER) == ([] if reestablished else [(1, 1, 0, 0)])


@pytest.mark.parametrize("cap,moved", [(0, 6), (4, 4)])
def test_a_re_establish_puts_one_or_more_tokens_on_the_planet(Pos, cap, moved):
    """reestablish_max_tokens 0 (no cap): all 6 tokens of planet 0 may go to planet 1; with 4, at most 4."""
    pos = Pos(2, reestablish_max_tokens=cap).hand(0, "A10").destiny("reg0", "reg1").set_tokens(0, 0, 6)
    pos.turn(script=[1, 5])  # re-establish planet 1 (option 1); the 6th count (clamped to the last)
    assert pos.events(E_REESTABLISH) == [(0, 1, moved, 0)] and pos.tokens(0, 0) == 6 - moved


def test_instruction_most_foreign_bases_names_the_leader(Pos):
    pos = Pos(3).hand(0, "A10").hand(2, "A1").destiny("most").set_tokens(6, 2, 1)
    pos.turn(script=[0, 0])
    assert pos.said("seat 2 defends")


def test_instruction_most_foreign_bases_is_never_the_offense(Pos):
    """The offense leads with 2 foreign bases (planets 6 and 7), seat 2 has 1 (planet 8), seat 1 none: the
    card names seat 2, the leader among the others (not you)."""
    pos = Pos(3).hand(0, "A10").hand(2, "A1").destiny("most").set_tokens(6, 0, 1).set_tokens(7, 0, 1)
    pos.set_tokens(8, 2, 1)
    pos.turn(script=[0, 0, 0])  # cone 1 token, taken from planet 0; aim at planet 10
    assert pos.events(E_DEFENDER) == [(2, 2, 0, 0)]


@pytest.mark.parametrize("pick,defense", [(0, 1), (1, 2)])
def test_instruction_most_foreign_bases_tied_the_offense_chooses(Pos, pick, defense):
    """Seats 1 and 2 tie with one foreign base each (planets 10 and 6): the offense names either. Aimed at the
    first planet of that system, where the other tied seat's token (on planet 10) stays out of the challenge:
    1 + 10 vs 4 + 1, and it is still there after the win."""
    pos = Pos(3).hand(0, "A10").hand(1, "A1").hand(2, "A1").destiny("most").set_tokens(10, 1, 1).set_tokens(6, 2, 1)
    pos.turn(script=[pick, 0, 0])  # the defense; cone 1; its first planet
    assert pos.events(E_DEFENDER) == [(defense, defense, 0, 0)]
    assert pos.events(E_TOTALS) == [(-1, 11, 5, 0)] and pos.tokens(10, 1) == 1


def test_instruction_player_on_the_left(Pos):
    pos = Pos(3).hand(1, "A10").hand(2, "A1").destiny("left")
    pos.turn(p=1, script=[0, 0])
    assert pos.said("seat 2 defends")


# ---- stage 7 and the pre-challenge phase: no challenge card ------------------------------------------
def test_an_offense_without_a_challenge_card_draws_a_new_hand_first(Pos):
    pos = Pos().hand(0, "R2").hand(1, "A1").deck("R3", "R3", "R3", "R3", "R3", "R3", "A10").destiny("reg1")
    pos.turn(script=[0, 0])
    assert pos.lines[1] == "  seat 0 has no challenge card: discards and draws 7"
    assert pos.held(0, "R3") == 6 and pos.said("reveal: offense seat 0 attack 10")


def test_an_empty_challenge_deck_is_reshuffled_from_the_discards(Pos):
    """The deck is empty; seat 0 holds no challenge card, discards its Reinforcement and draws 7 from the
    eight discards reshuffled: one stays in the deck, and every card is still there (the two challenge
    cards played are discarded at the challenge's end)."""
    pos = Pos().hand(0, "R3").hand(1, "A1").destiny("reg1")
    discards = ["A10", "A4", "C", "R2", "A6", "A8", "E:cosmic_zap"]
    pos.st[ST.DISC:ST.DISC + len(discards)] = [pos.kind(c) for c in discards]
    pos.st[ST.DISCN] = len(discards)
    pos.turn(script=[0, 0])
    assert pos.said("seat 0 has no challenge card: discards and draws 7")
    assert pos.st[ST.DECKN] == 1 and pos.st[ST.DISCN] == 2 and pos.held(0) == 6
    held = [k for k in range(len(pos.types)) for _ in range(int(pos.st[ST.HAND + k]))]
    piles = [int(k) for k in pos.st[ST.DECK:ST.DECK + 1]] + [int(k) for k in pos.st[ST.DISC:ST.DISC + 2]]
    assert sorted(held + piles) == sorted(pos.kind(c) for c in [*discards, "R3", "A1"])


def test_an_empty_destiny_deck_is_reshuffled_from_its_discards(Pos):
    """The destiny deck is empty and three cards of seat 1's colour lie discarded: they become the deck (the
    discard pile empties) and one is drawn, then discarded: 2 in the deck, 1 in the discards, none lost or
    doubled."""
    pos = Pos().hand(0, "A10").hand(1, "A1")
    pos.field("ddisc")[:3] = L.DT_REGULAR * 8 + 1
    pos.field("ddiscn")[0] = 3
    pos.turn(script=[0, 0])
    assert pos.events(E_DEFENDER) == [(1, 1, 0, 0)]
    assert int(pos.field("ddeckn")[0]) == 2 and int(pos.field("ddiscn")[0]) == 1


@pytest.mark.parametrize("in_warp", [2, 0])
def test_the_pre_challenge_cards_come_before_the_offense_redraws_for_want_of_a_challenge_card(Pos, in_warp):
    pos = Pos().hand(0, "E:warp_break", "R3").hand(1, "A6").deck("A10", *["R2"] * 6).destiny("reg1")
    pos.warp(0, in_warp)
    pos.turn(script=[1] if in_warp else [])  # Warp Break is usable only with tokens in the Warp
    redraw = next(i for i, line in enumerate(pos.lines) if "seat 0 has no challenge card: discards and draws 7" in line)
    played = [i for i, line in enumerate(pos.lines) if "seat 0 plays edict warp_break" in line]
    assert played == ([1] if in_warp else []) and redraw == (4 if in_warp else 1)  # a line per token freed
    assert pos.warp(0) == 0 and pos.said("totals: offense 11")


@pytest.mark.parametrize("play", [1, 0])
def test_stage_10_offers_the_start_of_challenge_cards_to_this_turns_offense(Pos, play):
    # the offense loses its cone token; at stage 10 it is still the offense, so Mobius Tubes is its to play
    pos = Pos().hand(0, "A1", "E:mobius_tubes").hand(1, "A20").destiny("reg1")
    pos.turn(script=[0, 0, play])
    assert pos.said("seat 0 plays edict mobius_tubes") is bool(play)
    assert (pos.warp(0), pos.tokens(0, 0)) == ((0, 4) if play else (1, 3))


def test_stage_10_comes_before_the_second_challenge(Pos):
    # the offense wins; at stage 10 the defense frees its 4 lost tokens (Warp Break, to planet 0: with no base
    # left, home_without_base home_planet lets them land there), then the offense chooses a second challenge,
    # in which they defend
    pos = Pos(home_without_base="home_planet").hand(0, "A10", "A10").hand(1, "A1", "A4", "E:warp_break")
    pos.destiny("reg1", "reg1").turn(script=[0, 0, 1, 1, 0, 1])
    assert [(n, pl) for seat, n, pl, _ in pos.events(E_HOME) if seat == 1] == [(1, 5)] * 4
    assert [line for line in pos.lines if "totals" in line] == ["  totals: offense 11, defense 8",
                                                                 "  totals: offense 11, defense 5"]


@pytest.mark.parametrize("empty_hands", [0, 1, 2])
def test_a_defense_without_a_challenge_card_redraws_until_it_has_one(Pos, empty_hands):
    # three redraws in a row: more than one when named plus one at stage 7 (the check runs twice)
    pos = Pos().hand(0, "A10").hand(1, "R2").destiny("reg1")
    pos.deck(*["R3"] * (7 * empty_hands), *["R5"] * 6, "A12")
    pos.turn(script=[0, 0])
    assert sum(line.startswith("  seat 1 has no challenge card") for line in pos.lines) == empty_hands + 1
    assert pos.said("defense attack 12")


# ---- compromise --------------------------------------------------------------------------------------
@pytest.mark.parametrize("others,taken", [(3, 3), (4, 4), (5, 4)])
def test_consolation_one_card_per_token_lost_or_the_whole_hand(attack_position, others, taken):
    pos = attack_position("A10", "C")
    pos.hand(0, *["R2"] * others)
    pos.turn(script=[0, 0])
    assert pos.warp(1) == 4 and pos.said(f"seat 1 takes {taken} consolation cards from seat 0")
    assert pos.held(1) == taken and pos.held(0) == others - taken


def test_consolation_counts_the_compromisers_own_tokens_not_its_allies(Pos):
    pos = Pos(3).hand(0, "C").hand(1, "A20").hand(2).destiny("reg1").set_tokens(10, 2, 4)
    pos.hand(1, *["R2"] * 6)
    # cone 2 tokens; the offense invites seat 2 (yes), the defense not; seat 2 joins the offense with 3
    pos.turn(script=[1, 0, 1, 0, 1, 2])
    assert pos.warp(0) == 2 and pos.warp(2) == 3
    assert pos.said("seat 0 takes 2 consolation cards from seat 1")


def test_a_failed_deal_costs_each_main_player_three_tokens(Pos):
    pos = Pos().hand(0, "C").hand(1, "C").destiny("reg1")
    pos.turn(script=[0, 0, 0])  # no offer
    assert pos.warp(0) == 3 and pos.warp(1) == 3
    assert pos.g[G.DEALS_FAILED] == 1 and pos.g[G.DEALS_MADE] == 0


def test_a_failed_deal_takes_only_the_tokens_a_player_has(Pos):
    pos = Pos().hand(0, "C").hand(1, "C").destiny("reg1").set_tokens(5, 1, 2)
    pos.turn(script=[0, 0, 0])
    assert pos.warp(1) == 2 and pos.warp(0) == 3


def test_a_deal_trades_one_base_each_way(Pos):
    pos = Pos().hand(0, "C").hand(1, "C").destiny("reg1")
    pos.turn(script=[0, 0, 1, 1])  # offer a base each way (option 1), accepted
    assert pos.tokens(5, 0) == 1 and pos.tokens(0, 1) == 1 and pos.tokens(0, 0) == 3 and pos.tokens(5, 1) == 3
    assert pos.g[G.DEALS_MADE] == 1 and pos.warp(0) == pos.warp(1) == 0


@pytest.mark.parametrize("defending,swap", [(1, False), (2, True)])
def test_a_swap_needs_a_second_token_so_the_giver_still_holds_the_base_it_gives(Pos, defending, swap):
    """The defense's only base is the challenged planet: with a single token there, paying for its own base
    would leave the base it gives empty (replay: seed 103, game 200, random, turn 28), so the swap is not
    offered and option 1 is the base bought with cards; with two it is, and both land."""
    pos = Pos().hand(0, "C", "R2").hand(1, "C", "R2").destiny("reg1").set_tokens(5, 1, defending)
    pos.turn(script=[0, 0, 1, 1])  # cone 1 token, planet 5; deal option 1; accepted
    assert pos.events(E_DEAL) == [(0, DEAL_SWAP if swap else DEAL_OFFENSE_BASE, 1, 1)]
    assert pos.tokens(5, 0) == 1 and pos.tokens(5, 1) == 1
    assert pos.tokens(0, 1) == (1 if swap else 0)


def test_in_a_swap_the_giver_keeps_its_last_token_on_the_base_it_gives(Pos):
    """Seat 1 holds planets 5 and 6 with one token each; the offense is given planet 5 (named before any
    token moves), so seat 1 pays for its own base from planet 6 and keeps planet 5."""
    pos = Pos().hand(0, "C").hand(1, "C").destiny("reg1").set_tokens(5, 1, 1).set_tokens(6, 1, 1)
    pos.turn(script=[0, 0, 1, 1, 0, 0])  # cone 1, planet 5; swap, accepted; the offense names planet 5
    assert pos.tokens(5, 0) == 1 and pos.tokens(5, 1) == 1 and pos.tokens(6, 1) == 0 and pos.tokens(0, 1) == 1


def test_a_swap_names_both_planets_before_the_offense_pays_for_its_own(Pos):
    """The offense holds planets 0 (1 token) and 1 (2 tokens); the defense is given planet 0, named before
    the offense moves its token for planet 5, so that token comes from planet 1 and planet 0 stays shared."""
    pos = Pos().hand(0, "C").hand(1, "C").destiny("reg1").set_tokens(0, 0, 1).set_tokens(1, 0, 2)
    # cone: 1 token from planet 1, planet 5; home to planet 1; swap, accepted; the defense names planet 0
    pos.turn(script=[0, 1, 0, 1, 1, 1, 0])
    assert pos.tokens(0, 1) == 1 and pos.tokens(0, 0) == 1 and pos.tokens(1, 0) == 1 and pos.tokens(5, 0) == 1


@pytest.mark.parametrize("source,planet", [("any_base", 10), ("home_system", 5)])
def test_a_deal_gives_any_base_of_the_giver(Pos, source, planet):
    """deal_base_from any_base: the offense buys seat 1's base on planet 10 (in seat 2's system; option 1 of
    [5, 10]); home_system: only planet 5 is offered."""
    pos = Pos(3, deal_base_from=source).hand(0, "C", "R2", "R2").hand(1, "C").destiny("reg1").set_tokens(10, 1, 1)
    pos.turn(script=[0, 0, 0, 0, 2, 1, 1])  # cone 1, planet 5; no invitations; a base for 2 cards, accepted
    assert pos.tokens(planet, 0) == 1 and pos.tokens(15 - planet, 0) == 0 and pos.held(1) == 2


@pytest.mark.parametrize("held,paid", [(3, 2), (1, 1)])
def test_a_base_bought_in_a_deal_costs_two_cards(Pos, held, paid):
    pos = Pos().hand(0, "C", *["R2"] * held).hand(1, "C").destiny("reg1")
    pos.turn(script=[0, 0, 2, 1])  # the offense takes a base (option 2) and pays with cards, accepted
    assert pos.tokens(5, 0) == 1 and pos.tokens(0, 1) == 0
    assert pos.held(1) == paid and pos.held(0) == held - paid


def test_a_rejected_deal_fails(Pos):
    pos = Pos().hand(0, "C").hand(1, "C").destiny("reg1")
    pos.turn(script=[0, 0, 1, 0])
    assert pos.g[G.DEALS_FAILED] == 1 and pos.warp(0) == 3


@pytest.mark.parametrize("again,challenges", [(1, 2), (0, 1)])
def test_a_deal_made_is_a_success_so_a_second_challenge_may_follow(Pos, again, challenges):
    """The original counts a deal made as a successful challenge (交渉をまとめれた場合): the offense, still
    holding an attack card, is asked for a second one; in it planet 5 holds 3 of seat 1's tokens (one paid
    for its base on planet 0), so 1 + 10 vs 3 + 1."""
    pos = Pos().hand(0, "C", "A10").hand(1, "C", "A1").destiny("reg1", "reg1")
    # cone 1, planet 5; both play C (option 1 of [attack, C]); a base each way, accepted; a second challenge
    # or not: cone 1 from planet 0, planet 5
    pos.turn(script=[0, 0, 1, 1, 1, 1, again, 0, 0, 0])
    assert pos.g[G.DEALS_MADE] == 1 and pos.g[G.CHALLENGES] == challenges
    assert pos.said("totals: offense 11, defense 4") == bool(again)


@pytest.mark.parametrize("invited_by", [0, 1])
def test_allies_gain_nothing_from_a_deal_their_tokens_go_home(Pos, invited_by):
    """Seat 2 joins one side with 2 tokens from planet 10; both main players compromise and swap a base each:
    seat 2's tokens go back to planet 10, it lands nowhere and draws nothing."""
    pos = Pos(3).hand(0, "C").hand(1, "C").destiny("reg1").set_tokens(10, 2, 4)
    invites = [1, 0] if invited_by == 0 else [0, 1]
    pos.turn(script=[0, 0, *invites, 1, 1, 1, 1])  # cone 1, planet 5; seat 2 joins with 2; a swap, accepted
    assert pos.g[G.DEALS_MADE] == 1 and pos.tokens(5, 0) == 1 and pos.tokens(0, 1) == 1
    assert pos.tokens(10, 2) == 4 and pos.tokens(5, 2) == 0 and pos.warp(2) == 0 and pos.held(2) == 0


# ---- alliances and rewards ---------------------------------------------------------------------------
def test_invited_players_answer_from_the_offenses_left(Pos):
    """Seat 1 attacks seat 3 and invites seats 2 and 0: seat 2 (on its left) answers first and joins with 1
    token, then seat 0 with 2; both land on planet 15 (1 + 1 + 2 + 20 vs 4 + 1)."""
    pos = Pos(4).hand(1, "A20").hand(3, "A1").destiny("reg3")
    # cone 1, planet 15; the offense invites seat 2 and seat 0, the defense nobody; seat 2 joins with 1, seat 0 with 2
    pos.turn(p=1, script=[0, 0, 1, 1, 0, 0, 1, 0, 1, 1])
    assert pos.events(E_ALLY) == [(2, ANSWER_OFFENSE, 1, 0), (0, ANSWER_OFFENSE, 2, 0)]
    assert (pos.tokens(15, 1), pos.tokens(15, 2), pos.tokens(15, 0)) == (1, 1, 2)


def test_defensive_allies_go_home_and_take_a_card_or_a_warp_token_per_token(Pos):
    pos = Pos(3).hand(0, "A1").hand(1, "A10").destiny("reg1").set_tokens(10, 2, 4).deck("R3", "R3")
    pos.warp(2, 1)
    # cone 1; offense does not invite seat 2, defense does; seat 2 joins the defense with 2 tokens;
    # rewards: a token from the Warp, then (the Warp empty) a card
    pos.turn(script=[0, 0, 0, 1, 1, 1, 1])
    assert pos.said("seat 2 joins the defense with 2 tokens")
    assert pos.warp(2) == 0 and pos.tokens(10, 2) == 5 and pos.held(2) == 1
    assert pos.said("seat 2 is rewarded: 1 cards, 1 tokens freed")


def test_losing_defensive_allies_go_to_the_warp_winning_offensive_allies_land(Pos):
    pos = Pos(3).hand(0, "A20").hand(1, "A1").destiny("reg1").set_tokens(10, 2, 4)
    pos.turn(script=[0, 0, 1, 1, 1, 1])  # both invite seat 2; it joins the offense with 2
    assert pos.tokens(5, 2) == 2 and pos.tokens(5, 0) == 1
    pos2 = Pos(3).hand(0, "A20").hand(1, "A1").destiny("reg1").set_tokens(10, 2, 4)
    pos2.turn(script=[0, 0, 1, 1, 3, 1])  # ... it joins the defense with 2
    assert pos2.warp(2) == 2 and pos2.tokens(5, 0) == 1


def test_reverse_cone_winning_defensive_allies_land_on_the_planet(Pos):
    pos = Pos(3).hand(0, "A1").hand(1, "A10").destiny("rev1").set_tokens(10, 2, 4)
    pos.turn(script=[0, 0, 0, 1, 1, 1])
    assert pos.tokens(5, 2) == 2 and pos.held(2) == 0 and not pos.said("rewarded")


def test_reverse_cone_winning_offensive_allies_go_home_with_rewards(Pos):
    pos = Pos(3).hand(0, "A20").hand(1, "A1").destiny("rev1").set_tokens(10, 2, 4).deck("R3", "R3")
    pos.turn(script=[0, 0, 1, 0, 1, 1])
    assert pos.tokens(5, 2) == 0 and pos.tokens(10, 2) == 4 and pos.held(2) == 2
    assert pos.tokens(5, 0) == 1


@pytest.mark.parametrize("off_card,def_card,script", [
    ("A20", "A1", [0, 0, 0, 1, 1, 1]),  # only the defense invites seat 2; it joins the defense with 2
    ("A1", "A20", [0, 0, 1, 0, 1, 1]),  # only the offense invites seat 2; it joins the offense with 2
])
def test_reverse_cone_losing_allies_still_go_to_the_warp(Pos, off_card, def_card, script):
    """The reverse cone swaps only the winning allies' rewards: seat 2's 2 tokens on the losing side go to
    the Warp (21 vs 7, or 4 vs 24)."""
    pos = Pos(3).hand(0, off_card).hand(1, def_card).destiny("rev1").set_tokens(10, 2, 4)
    pos.turn(script=script)
    assert pos.warp(2) == 2 and pos.tokens(10, 2) == 2 and pos.tokens(5, 2) == 0


@pytest.mark.parametrize("destiny,script,reversed_", [
    (("rev0", "wild"), [0, 1], False),   # own-colour reverse ignored (redraw), then a wild names seat 1
    (("rev0", "left"), [0], False),      # ... then "the player on your left"
    (("rev0", "most"), [0, 0], False),   # ... then "the most foreign bases" (a tie: the offense names seat 1)
    (("rev0", "reg1"), [0], False),      # ... then a regular card
    (("reg0", "rev1"), [0], True),       # an ignored regular card, then a reverse card names the defense
])
def test_only_the_destiny_card_that_names_the_defense_reverses_the_cone(Pos, destiny, script, reversed_):
    """Seat 2 defends beside seat 1 with 2 tokens and the defense wins: on a reverse cone it lands on the
    planet, on a regular one it goes home and draws a card per token (replay: seed 11, game 0, turn 1)."""
    pos = Pos(3).hand(0, "A1").hand(1, "A10").destiny(*destiny).set_tokens(10, 2, 4).deck("R3", "R3")
    pos.turn(script=[*script, 0, 0, 0, 1, 1, 1])
    assert pos.events(E_DEFENDER) == [(1, 1, int(reversed_), 0)]
    if reversed_:
        assert pos.tokens(5, 2) == 2 and pos.held(2) == 0
    else:
        assert pos.tokens(5, 2) == 0 and pos.tokens(10, 2) == 4 and pos.held(2) == 2


def test_an_own_colour_reverse_card_that_names_a_player_in_the_own_system_reverses_the_cone(Pos):
    """The own-colour card is used, not ignored: seat 1's tokens on seat 0's planet 1 are challenged (a
    regular card of seat 2 follows, so a broken own choice fails at once instead of redrawing forever)."""
    pos = Pos(3).hand(0, "A1").hand(1, "A10").destiny("rev0", "reg2").set_tokens(1, 1, 2).set_tokens(10, 2, 4)
    pos.turn(script=[1, 0, 0, 1, 1, 1])  # [redraw, seat 1, re-establish 2..4]: seat 1; the only target planet 1
    assert pos.events(E_DEFENDER) == [(1, 0, 1, 0)]
    assert pos.tokens(1, 2) == 2 and pos.tokens(1, 1) == 2


def test_reinforcements_add_to_either_side(attack_position):
    pos = attack_position("A10", "A7").hand(0, "R3")
    pos.turn(script=[0, 0, 1])  # the offense plays +3 on the offense side: 14 vs 11
    assert pos.said("totals: offense 14, defense 11")
    pos2 = attack_position("A10", "A6").hand(0, "R3")
    pos2.turn(script=[0, 0, 2])  # ... on the defense side (reinforce_any_side): 11 vs 13
    assert pos2.said("totals: offense 11, defense 13")


def test_reinforcements_only_on_the_own_side_when_any_side_is_off(attack_position):
    pos = attack_position("A10", "A6", reinforce_any_side=False).hand(0, "R3")
    pos.turn(script=[0, 0, 2])  # option 2 does not exist: clamped to the own side
    assert pos.said("totals: offense 14, defense 10")


@pytest.mark.parametrize("order,expected", [("timing", [2, 0, 1]), ("clockwise", [1, 2, 0])])
def test_stage_8_plays_follow_the_play_order(Pos, order, expected):
    pos = Pos(3, play_order=order).hand(0, "A10", "R2").hand(1, "A10", "R2").hand(2, "R2").destiny("reg1")
    # cone 1 at planet 5; seat 2 invited by the offense and joins it with 1; then everyone plays +2 for itself
    script = [0, 0, 1, 0, 1, 0] + [1] * 3
    pos.turn(script=script)
    players = [int(line.split()[1]) for line in pos.lines if "plays reinforcement" in line]
    assert players == expected


@pytest.mark.parametrize("ally,totals", [(True, (17, 11)), (False, (11, 11))])
def test_only_main_players_and_allies_may_reinforce(Pos, ally, totals):
    """Seat 2 holds +5 and plays it for the offense whenever it is offered (the script's last 1): as the
    offense's ally it may; outside the challenge it is never offered and keeps it."""
    pos = Pos(3).hand(0, "A10").hand(1, "A7").hand(2, "R5").destiny("reg1")
    # cone 1 at planet 5; the offense invites seat 2 or not, the defense does not; seat 2 joins with 1; +5
    pos.turn(script=[0, 0, 1, 0, 1, 0, 1] if ally else [0, 0, 0, 0, 1])
    assert pos.events(E_TOTALS) == [(-1, *totals, 0)] and pos.held(2, "R5") == (0 if ally else 1)


# ---- end of challenge, win, cap ----------------------------------------------------------------------
@pytest.mark.parametrize("second_card,challenges", [("C", 2), ("E:quash", 1)])
def test_a_second_challenge_needs_a_challenge_card(Pos, second_card, challenges):
    """After a won challenge the offense holds a compromise, or only a Quash (no challenge card): it is asked
    for a second challenge (the script's 1: yes) only in the first case."""
    pos = Pos().hand(0, "A10", second_card).hand(1, "A1", "A1").destiny("reg1", "reg1")
    pos.turn(script=[0, 0, 0, 1] if second_card == "C" else [0, 0, 1])  # cone 1, planet 5, (A10 of A10/C), yes
    assert pos.g[G.CHALLENGES] == challenges and pos.held(0, second_card) == (challenges == 1)


@pytest.mark.parametrize("again,challenges", [(1, 2), (0, 1)])
def test_a_success_allows_one_second_challenge(Pos, again, challenges):
    pos = Pos().hand(0, "A20", "A20", "A20").hand(1, "A1", "A1").destiny("reg1", "reg1", "reg1")
    pos.turn(script=[0, 0, again, 0, 1, 1, 1])  # the last 1 would accept a third challenge: never asked
    assert pos.g[G.CHALLENGES] == challenges and sum("puts" in line for line in pos.lines) == challenges


def test_no_second_challenge_after_a_loss(Pos):
    pos = Pos().hand(0, "A1", "A1").hand(1, "A20", "A20").destiny("reg1", "reg1")
    pos.turn(script=[0, 0, 1])
    assert pos.g[G.CHALLENGES] == 1


@pytest.mark.parametrize("foreign,wins", [(4, True), (3, False)])
def test_five_foreign_bases_win(attack_position, foreign, wins):
    pos = attack_position("A20", "A1")
    for k in range(foreign):
        pos.set_tokens(6 + k, 0, 1)
    pos.turn(script=[0, 0, 0])  # one token from planet 0 to planet 5
    assert bool(pos.won) is wins and bool(pos.s[0, S.IS_WINNER]) is wins
    assert pos.g[G.WIN_BY] == (1 if wins else 0)


def test_simultaneous_winners_share_the_win(Pos):
    pos = Pos(3).hand(0, "A20").hand(1, "A1").destiny("reg1").set_tokens(10, 2, 4)
    for k in range(4):
        pos.set_tokens(6 + k, 0, 1).set_tokens(6 + k, 2, 1)
    # offense: 1 token from planet 0, aim at 5; seat 2 invited by the offense, joins it with 1 from planet 10
    pos.turn(script=[0, 0, 0, 1, 0, 1, 0, 4])
    assert pos.s[:, S.IS_WINNER].tolist() == [1, 0, 1]


@pytest.mark.parametrize("foreign,wins", [(4, True), (3, False)])
def test_the_win_is_checked_after_a_failed_challenge_too(Pos, foreign, wins):
    """Reverse cone, the defense wins: seat 2, its ally, lands 2 tokens on planet 5, a foreign base beside
    those it holds in the unowned system (planets 15..): with 4 there it has 5 and wins at once, though the
    offense failed."""
    pos = Pos(3).hand(0, "A1").hand(1, "A10").destiny("rev1").set_tokens(10, 2, 4)
    for k in range(foreign):
        pos.set_tokens(15 + k, 2, 1)
    pos.turn(script=[0, 0, 0, 1, 1, 1])  # cone 1, planet 5; only the defense invites seat 2; it joins with 2
    assert pos.tokens(5, 2) == 2 and pos.warp(0) == 1
    assert bool(pos.won) is wins and pos.s[:, S.IS_WINNER].tolist() == [0, 0, int(wins)]


@pytest.mark.parametrize("cap", [1, 2])
def test_the_turn_cap_ends_the_game_as_a_draw(cap):
    sc = analyzer.load_scenario(GAME, set={"rules.turn_cap": cap})
    b = GAME.run_batch(sc, 3, np.arange(20, dtype=np.int64))
    capped = b.extra["capped"] == 1
    assert (b.length[capped] == cap).all() and capped.any() and not b.is_winner[capped].any()
    assert (b.length <= cap).all()


# ---- invariants over whole games ----------------------------------------------------------------------
@pytest.mark.parametrize("players,policy", [(4, [0, 2, 3, 2]), (3, [2, 3, 0]), (2, [3, 2])])
def test_every_token_and_card_is_accounted_for_after_every_turn(Pos, players, policy):
    for game in range(6):
        pos = Pos(players, aliens=["Zombie", "Laser", "Mind", "Grief"] if game % 2 else ["Filch", "Warpish", "Loser", "Laser"])
        pos.deal_at_random(np.random.default_rng(game))
        pos.destiny(*[f"reg{q}" for q in range(players)] * 4, *[f"rev{q}" for q in range(players)],
                    "wild", "wild", "most", "left", "outage", "tenacious")
        for t in range(40):
            pos.turn(t % players, seed=game * 100 + t, policy=policy)
            for q in range(players):
                assert L.total_tokens(pos.st, q) == 20
                assert pos.st[ST.OCONE + q] == pos.st[ST.DCONE + q] == 0
            assert L.cards_held(pos.st, players) == 84
            if pos.won:
                break


# ---- setup: the first hands, the start player's destiny cards -------------------------------------------
@pytest.mark.parametrize("players,hand_size", [(4, 7), (3, 7), (2, 5)])
def test_the_first_hands_are_dealt_with_hand_size(Pos, players, hand_size):
    pos = Pos(players, hand_size=hand_size)
    E.deal_table(pos.st, pos.d, rng.new_stream(1, 0))
    assert pos.field("handn")[:players].tolist() == [hand_size] * players
    assert pos.field("hand")[:players].sum(axis=1).tolist() == [hand_size] * players
    assert int(pos.field("deckn")[0]) == 84 - players * hand_size


def test_the_destiny_cards_turned_for_the_start_player_are_shuffled_back():
    """A destiny deck of one regular card per colour (2 players): the start player's card is turned, then
    shuffled back, so the first challenge draws from both cards and meets its own colour first in some
    games (redrawn: nothing to re-establish). Not shuffled back, it would always draw the other's."""
    cards = {"regular_per_colour": 1, "reverse_per_colour": 0, "wild": 0, "most_foreign_bases": 0,
             "player_on_left": 0, "power_outage": 0, "tenacious_defense": 0}
    sc = analyzer.load_scenario(GAME, players=2, set={"rules.turn_cap": 1,
                                                      **{f"deck.destiny.{k}": v for k, v in cards.items()}})
    own = 0
    for gid in range(12):
        ev = GAME.run_batch(sc, 3, np.array([gid]), trace=True).events
        first = next(int(r[1]) for r in ev if r[0] == E_FIRST)
        named = next(i for i, r in enumerate(ev) if r[0] == E_DEFENDER)
        drawn = [int(r[3]) for r in ev[:named] if r[0] == E_DESTINY]  # the colours drawn until the defense is named
        assert drawn[-1] == 1 - first and len(drawn) <= 2
        own += drawn[0] == first
    assert 0 < own < 12
