"""Strong play in STOP (issue #25): each weight of greedy and defender moves the decision it names, for
the one seat given it, exactly at its boundary; each restriction holds through the game's own turn, and
where it forbids every option it is lifted and counted in restrict_lifted."""
import numpy as np
import pytest

from analyzer.games.stop import GAME
from analyzer.games.stop import decisions as O
from analyzer.games.stop import engine as E
from analyzer.games.stop import state as S
from analyzer.scenario import load


def lifted(pos, p):
    return int(pos.s.v[S.SEAT + p * S.NSEAT + S.S_LIFTED])


def seat_weight(seat, name, value):
    return f"seat_weights.{seat}.{name}={value}"


# ---- weights: greedy -------------------------------------------------------------------------------------

@pytest.mark.parametrize("at,size,cancels", [(3, 3, True), (3, 4, False), (2, 3, False)])
def test_greedy_pause_zero_at_is_the_largest_hand_that_spends_its_zero_on_a_pause(at, size, cancels, position):
    hand = ["red 0", "green 5", "green 7", "yellow 8"][:size]
    pos = position(sets=[seat_weight(1, "pause_zero_at", at)], hands={1: hand, 2: hand})
    assert (pos.choice(O.D_ANSWER_PAUSE, 1, "red") == "red 0") == cancels
    assert pos.choice(O.D_ANSWER_PAUSE, 2, "red") == O.ACCEPT          # seat 2 keeps the default 2


@pytest.mark.parametrize("bonus,sheds", [(19, "red Swap"), (21, "red Pause")])
def test_greedy_attack_bonus_counts_attack_cards_that_much_dearer(bonus, sheds, position):
    """Swap 30 against Pause 10 (+bonus): the Pause goes first once the bonus passes 20; a negative
    bonus keeps it back (Pause 10 - 3 < 8, 10 - 1 > 8)."""
    pos = position(sets=[seat_weight(0, "attack_bonus", bonus)], hands={0: ["red Swap", "red Pause"]})
    assert pos.choice(O.D_PLAY, 0, "red 3", False) == sheds
    for bonus, sheds in ((-3, "red 8"), (-1, "red Pause")):
        pos = position(sets=[seat_weight(0, "attack_bonus", bonus)], hands={0: ["red Pause", "red 8"]})
        assert pos.choice(O.D_PLAY, 0, "red 3", False) == sheds


@pytest.mark.parametrize("margin,cancels", [(0, True), (5, True), (6, False)])
def test_greedy_swap_cancel_margin_is_what_the_incoming_hand_must_cost_more(margin, cancels, position):
    """Seat 2 keeps blue 8 (8 points) without its 0; seat 3's one face-down card is worth 14 (the deck's
    mean): it cancels while 8 + margin < 14 (equal, with as many cards: no)."""
    pos = position(sets=[seat_weight(2, "swap_cancel_margin", margin)], hands={2: ["red 0", "blue 8"], 3: ["green 1"]})
    assert pos.choice(O.D_SWAP_CANCEL, 2, context=3) == cancels


@pytest.mark.parametrize("value,forced", [(1.0, "blue 2+"), (1.3, "blue 2+"), (1.4, "yellow 1")])
def test_greedy_unseen_card_value_prices_the_x_plus_draws(value, forced, position):
    """2+ costs 2 x 14v - 20, the 1 costs 14v - 1: the 1 is cheaper once v > 19/14."""
    pos = position(sets=[seat_weight(1, "unseen_card_value", value)], hands={1: ["blue 2+", "yellow 1"]})
    assert pos.choice(O.D_XPLUS_CARD, 1) == forced


def test_greedy_unseen_card_value_prices_the_incoming_swap_hand(position):
    """Seat 2 keeps blue 8; seat 3's single card is worth 14v: at v = 0.5 (7 < 8) it keeps its 0."""
    hands = {2: ["red 0", "blue 8"], 3: ["green 1"]}
    assert position(hands=hands).choice(O.D_SWAP_CANCEL, 2, context=3)
    assert not position(sets=[seat_weight(2, "unseen_card_value", 0.5)], hands=hands).choice(O.D_SWAP_CANCEL, 2, context=3)


# ---- weights: defender -----------------------------------------------------------------------------------

@pytest.mark.parametrize("hoard,plays", [(2, "red 8"), (1, "red 2+")])
def test_defender_hoard_is_how_many_keepers_it_protects(hoard, plays, position):
    pos = position(policies=["defender"], sets=[seat_weight(0, "hoard", hoard)],
                   hands={0: ["red 0", "red 2+", "red 8"], 1: ["blue 1"], 2: ["blue 3"], 3: ["blue 4"]})
    pos.s.v[S.TOTAL:S.TOTAL + 4] = [0, 100, 0, 100]                      # threat: seat 2, not on its left
    assert pos.choice(O.D_PLAY, 0, "red 3", False) == plays


@pytest.mark.parametrize("lead,plays", [(0, "red Pause"), (149, "red Pause"), (150, "red 2+")])
def test_defender_attack_lead_counts_its_left_neighbour_as_the_threat_that_much_sooner(lead, plays, position):
    """Totals: seat 1 (its left) 200, seat 2 50. With a lead of 150 seat 1 ties seat 2 and, holding no
    more cards, is the threat: the 2+ goes first. Otherwise the Pause (the costliest non-keeper)."""
    pos = position(policies=["defender"], sets=[seat_weight(0, "attack_lead", lead)],
                   hands={0: ["red 0", "red 2+", "red 8", "red Pause"], 1: ["blue 1"], 2: ["blue 3"], 3: ["blue 4"]})
    pos.s.v[S.TOTAL:S.TOTAL + 4] = [100, 200, 50, 300]
    assert pos.choice(O.D_PLAY, 0, "red 3", False) == plays


@pytest.mark.parametrize("cards,cancels", [(0, True), (1, False), (-1, True)])
def test_defender_swap_cancel_cards_is_how_many_more_cards_it_takes_before_cancelling(cards, cancels, position):
    """Seat 2 keeps red Swap (30) without its 0; seat 0's 2 cards are worth 28: one card more than its
    own. At a margin of 1 the counts are equal and the penalties decide (30 > 28: no cancel)."""
    pos = position(policies=["defender"], sets=[seat_weight(2, "swap_cancel_cards", cards)],
                   hands={0: ["green 1", "green 3"], 2: ["red 0", "red Swap"]})
    assert pos.choice(O.D_SWAP_CANCEL, 2, context=0) == cancels


# ---- restrictions, through the game's turn -------------------------------------------------------------

JUMP = {0: ["red 5", "blue 1"], 1: ["green 3"], 2: ["red 5", "green 8"], 3: ["yellow 1", "yellow 3"]}


def test_no_jump_in_keeps_the_identical_card_for_the_seats_own_turn(position):
    pos = position(hands=JUMP, discard=("red 3",))
    assert pos.play(0, "red 5") == 3 and pos.hand(2) == ["green 8"]            # unrestricted: jumps in
    pos = position(sets=["restrict.2=[no_jump_in]"], hands=JUMP, discard=("red 3",))
    assert pos.play(0, "red 5") == 1 and pos.hand(2) == ["green 8", "red 5"]   # restricted: waits
    assert [how for _, _, how in pos.plays()] == [E.HOW_TURN]
    assert pos.turn(2) == 3 and pos.top == "red 5" and pos.hand(2) == ["green 8"]   # its own turn: plays it
    assert lifted(pos, 2) == 0


def test_no_jump_in_passes_the_window_to_the_next_seat_clockwise(position):
    pos = position(sets=["restrict.2=[no_jump_in]"], hands={**JUMP, 3: ["red 5", "yellow 3"]}, discard=("red 3",))
    assert pos.play(0, "red 5") == 0
    assert [(p, how) for p, _, how in pos.plays()] == [(0, E.HOW_TURN), (3, E.HOW_JUMP)]


ATTACKS = {   # seat 0's attack on seat 1 (who holds red 0 and green 5, and cancels it when free to)
    "2+": {0: ["red 2+", "blue 1"]},
    "Pause": {0: ["red Pause", "blue 1"]},
    "X+": {0: ["red X+", "blue 1"]},
    "Swap": {0: ["red Swap", "blue 1", "blue 3", "blue 4"], 2: ["green 8", "green 7", "green 4"],
             3: ["yellow 1", "yellow 3", "yellow 4"]},
}


@pytest.mark.parametrize("attack", ATTACKS)
def test_never_cancel_with_zero_takes_every_attack(attack, position):
    hands = {1: ["red 0", "green 5"], 2: ["green 8", "green 7"], 3: ["yellow 1", "yellow 7"], **ATTACKS[attack]}
    draw = ("blue 7", "blue 8", "yellow 5", "green 1")
    free = position(hands=hands, draw=draw, discard=("red 3",))
    free.turn(0)
    assert free.s.v[S.G_CANCELS] == 1 and (1, "red 0", E.HOW_CANCEL) in free.plays()
    pos = position(sets=["restrict.1=[never_cancel_with_zero]"], hands=hands, draw=draw, discard=("red 3",))
    pos.turn(0)
    assert pos.s.v[S.G_CANCELS] == 0 and all(how != E.HOW_CANCEL for _, _, how in pos.plays())
    if attack == "X+":   # its 0 may still go down as the forced card (it draws 0)
        assert pos.plays()[-1] == (1, "red 0", E.HOW_XPLUS)
    else:
        assert "red 0" in pos.hand(1) or "red 0" in pos.hand(0)            # (a Swap moved it to seat 0)
    assert lifted(pos, 1) == 0


def test_never_cancel_with_zero_still_plays_a_zero_as_an_ordinary_card(position):
    pos = position(sets=["restrict.1=[never_cancel_with_zero]"], hands={1: ["red 0", "green 5"], 2: ["blue 1"]},
                   discard=("red 3",))
    assert pos.turn(1) == 2 and pos.top == "red 0"


@pytest.mark.parametrize("attack,held", [("red 2+", "blue 2+"), ("red Pause", "blue Pause")])
def test_never_stack_takes_the_draw_or_the_skip_but_still_cancels(attack, held, position):
    hands = {0: [attack, "blue 1"], 1: [held, "green 5"], 2: ["green 8", "green 7"], 3: ["yellow 1", "yellow 7"]}
    draw = ("blue 7", "blue 8", "yellow 5", "green 1")
    free = position(hands=hands, draw=draw, discard=("red 3",))
    free.turn(0)
    assert (1, held, E.HOW_STACK if "2+" in held else E.HOW_PAUSE_ADD) in free.plays()
    pos = position(sets=["restrict.1=[never_stack]"], hands=hands, draw=draw, discard=("red 3",))
    pos.turn(0)
    assert [p for p, _, _ in pos.plays()] == [0] and held in pos.hand(1)
    assert pos.size(1) == (4 if "2+" in held else 2)                     # drew 2, or was skipped
    pos = position(sets=["restrict.1=[never_stack]"], hands={**hands, 1: [held, "red 0"]}, draw=draw,
                   discard=("red 3",))
    pos.turn(0)
    assert pos.plays()[-1] == (1, "red 0", E.HOW_CANCEL)                  # a cancel is not a stack


def test_never_play_wild_plays_another_legal_card_and_lifts_only_when_the_wild_is_the_only_one(position):
    wild = ["restrict.0=[never_play_wild]"]
    pos = position(hands={0: ["wild", "red 1", "blue 5"], 1: ["green 3"]}, discard=("red 3",))
    pos.turn(0)
    assert pos.top == "blue 5"                                           # unrestricted: the wild (50) first
    pos = position(sets=wild, hands={0: ["wild", "red 1", "blue 5"], 1: ["green 3"]}, discard=("red 3",))
    pos.turn(0)
    assert pos.top == "red 1" and "wild" in pos.hand(0) and lifted(pos, 0) == 0
    pos = position(sets=wild, hands={0: ["wild", "blue 5"], 1: ["green 3"]}, discard=("red 3",))
    pos.turn(0)                                                          # only the wild is legal: it must
    assert pos.discard[-2:] == ["wild", "blue 5"] and lifted(pos, 0) == 1
    pos = position(sets=[*wild, "rules.must_play_if_able=false"], hands={0: ["wild", "blue 5"], 1: ["green 3"]},
                   draw=("green 1",), discard=("red 3",))
    pos.turn(0)                                                          # it may draw instead: no lift
    assert pos.hand(0) == ["blue 5", "green 1", "wild"] and lifted(pos, 0) == 0


@pytest.mark.parametrize("must,played,lifts", [(True, True, 1), (False, False, 0)])
def test_never_play_wild_and_a_drawn_wild(must, played, lifts, position):
    """play_drawn_card: a drawn wild must be played when must_play_if_able (a lift), else it is kept."""
    pos = position(sets=["restrict.0=[never_play_wild]", "rules.play_drawn_card=true",
                         f"rules.must_play_if_able={str(must).lower()}"],
                   hands={0: ["blue 5", "green 7"], 1: ["green 3"]}, draw=("wild",), discard=("red 3",))
    pos.turn(0)
    assert ("wild" in pos.hand(0)) != played and lifted(pos, 0) == lifts


def test_restrictions_hold_over_whole_matches_for_every_policy():
    """Random, greedy and defender seats under no_jump_in never jump in; seat 3, under another
    restriction only, does; with no restriction the restrict_lifted column is all zero."""
    sc = load(GAME, players=4, policies=["random", "greedy", "defender", "greedy"],
              sets=["restrict={0: [no_jump_in], 1: [no_jump_in], 2: [no_jump_in], 3: [never_play_wild]}",
                    "rules.match_limit=100"])
    jumpers = set()
    for gid in range(4):
        b = GAME.run_batch(sc, 3, np.array([gid]), trace=True)
        jumpers |= {int(e[1]) for e in b.events if e[0] == E.E_PLAY and e[3] == E.HOW_JUMP}
    assert jumpers == {3}
    b = GAME.run_batch(load(GAME, players=3, policies=["random"]), 3, np.arange(20))
    assert (b.extra["restrict_lifted"] == 0).all()
