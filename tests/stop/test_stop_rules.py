"""One test per rule of shared/rules/stop.md, each on a concrete position built by hand: known hands,
draw pile and top card; the jitted rule function is called and the outcome asserted. Seats use the
greedy policy (its choices are documented in analyzer/games/stop/policies.py) unless stated."""
import numpy as np
import pytest

from analyzer.games.stop import GAME
from analyzer.games.stop import decisions as O
from analyzer.games.stop import engine as E
from analyzer.games.stop import state as S
from analyzer.games.stop.cards import WILD, card_name
from analyzer.games.stop.scenario import kernel_inputs
from analyzer.scenario import load

# ---- components -------------------------------------------------------------------------------------


def test_deck_has_112_cards_and_the_penalty_table(card):
    k = kernel_inputs(load(GAME))
    copies, pen = k.cards.copies, k.cards.penalty
    assert copies.sum() == 112
    assert copies[WILD] == 8 and pen[WILD] == 50
    for colour in ("red", "blue", "green", "yellow"):
        per_colour = sum(copies[card(f"{colour} {kind}")] for kind in
                         ("0", "1", "2+", "3", "4", "5", "6/9", "7", "8", "Pause", "Swap", "X+"))
        assert per_colour == 26
        assert copies[card(f"{colour} 6/9")] == 4 and copies[card(f"{colour} 3")] == 2
    table = {"0": 0, "1": 1, "3": 3, "4": 4, "5": 5, "7": 7, "8": 8, "6/9": 9, "2+": 20, "Pause": 10,
             "Swap": 30, "X+": 40}
    for kind, p in table.items():
        assert pen[card(f"blue {kind}")] == p
    # X+ draw counts: 6/9 counts 9, 2+ 2, 0 0
    assert k.cards.draws[card("red 6/9")] == 9 and k.cards.draws[card("red 2+")] == 2
    assert k.cards.draws[card("red 0")] == 0 and k.cards.draws[card("red 7")] == 7


# ---- setup --------------------------------------------------------------------------------------------

def test_deal_seven_each_and_a_starter(position):
    pos = position(players=5)
    E.deal(pos.s, pos.r, 0)
    starter = E.turn_starter(pos.s, pos.r, 0)
    assert [pos.size(p) for p in range(5)] == [7] * 5
    assert pos.s.v[S.PILE_N] == 112 - 35 - 1 and S.discard_pile(pos.s) == [starter]
    assert E.check_cards(pos.s) == 0


@pytest.mark.parametrize("dealer", [0, 2, 3])
def test_deal_is_one_card_at_a_time_starting_left_of_the_dealer(dealer, position):
    """The k-th card off the shuffled pile goes to the (k mod P + 1)-th player left of the dealer: the
    same shuffle (same stream) popped by hand gives the order the cards must have been dealt in."""
    pos, twin = position(players=4, seed=9), position(players=4, seed=9)
    E.deal(pos.s, pos.r, dealer)
    twin.s.piles[S.DRAW] = twin.s.piles[S.DECK]
    twin.s.v[S.PILE_N] = twin.s.v[S.SHUFFLED] = 112
    order = [int(E.pop_pile(twin.s)) for _ in range(28)]
    for k in range(4):
        seat = (dealer + 1 + k) % 4
        assert sorted(S.hand_list(pos.s, seat)) == sorted(order[k::4]), (dealer, seat)


def test_starter_wild_goes_back_and_a_new_card_is_turned(position):
    pos = position(draw=("red 5", "blue 3", "wild"))       # wild on top of the pile
    assert E.turn_starter(pos.s, pos.r, 0) != WILD
    assert pos.top != "wild" and sorted(pos.draw_pile + [pos.top]) == sorted(["red 5", "blue 3", "wild"])
    assert pos.events(E.E_STARTER)[0][3] == 1               # recorded as sent back
    pos = position(sets=["rules.starter_redraw_wild=false"], draw=("red 5", "wild"))
    assert E.turn_starter(pos.s, pos.r, 0) == WILD


@pytest.mark.parametrize("held", [["yellow 7"], ["red Pause"], ["green 8"]])
def test_wild_starter_accepts_any_card(held, position):
    pos = position(sets=["rules.starter_redraw_wild=false"], hands={0: held + ["red 1"], 1: ["blue 3"]},
                   draw=("blue 1",), discard=["wild"])
    pos.turn(0)
    assert pos.discard == ["wild", held[0]] and pos.hand(0) == ["red 1"]


@pytest.mark.parametrize("dealer", [0, 2])
def test_starter_action_has_no_effect_by_default_but_can(dealer, position):
    hands = {0: ["red 7", "blue 4"], 1: ["green 5"], 2: ["green 3", "blue 8"], 3: ["yellow 1"]}
    pos = position(hands=hands, draw=("blue 1", "blue 3", "red 2+"))
    assert E.open_play(pos.s, pos.r, pos.pol, dealer) == dealer     # the dealer plays first
    assert pos.top == "red 2+" and pos.size(dealer) == 2             # nothing happened to the dealer
    pos = position(sets=["rules.starter_effects=true"], hands=hands, draw=("blue 1", "blue 3", "red 2+"))
    assert E.open_play(pos.s, pos.r, pos.pol, dealer) == dealer + 1  # the dealer drew 2 and lost the turn
    assert pos.size(dealer) == 4 and pos.size(dealer + 1) == 1
    assert pos.events(E.E_PLAY) == []                                 # nobody played it: no jump-ins


# ---- a turn ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("top,playable", [
    ("blue 4", "blue 7"),            # same colour
    ("blue 4", "red 4"),             # same number
    ("yellow 6/9", "red 6/9"),       # 6/9 matches 6/9
    ("red Pause", "green Pause"),    # same symbol
    ("red 2+", "green 2+"),          # 2+ is a number: matches 2+
    ("blue 0", "yellow 0"),
])
def test_a_turn_plays_a_card_matching_colour_number_or_symbol(top, playable, position):
    # every other card in the hand matches nothing: exactly one card is legal
    pos = position(hands={0: [playable, "green 5"], 1: ["blue 3"]}, draw=("yellow 3",), discard=(top,))
    pos.turn(0)
    assert pos.top == playable and pos.size(0) == 1


@pytest.mark.parametrize("top,held", [
    ("red Pause", "green Swap"), ("blue 4", "red 5"), ("red X+", "blue Pause"), ("green 2+", "red 3"),
    ("yellow 6/9", "red 8"), ("red 1", "blue 7"),
])
def test_a_card_matching_neither_colour_number_nor_symbol_cannot_be_played(top, held, position):
    pos = position(hands={0: [held, held], 1: ["blue 3"]}, draw=("green 7",), discard=(top,))
    pos.turn(0)
    assert pos.top == top and pos.hand(0) == sorted([held, held, "green 7"])


def test_must_play_a_legal_card(position):
    pos = position(hands={0: ["blue 7", "red 1"]}, draw=("green 3",), discard=("blue 4",))
    assert pos.turn(0) == 1
    assert pos.top == "blue 7" and pos.draw_pile == ["green 3"]


def test_must_play_if_able_false_lets_a_player_draw_instead(position):
    drew = {True: 0, False: 0}
    for must in (True, False):
        for seed in range(60):
            pos = position(policies=["random"], sets=[f"rules.must_play_if_able={str(must).lower()}"],
                           hands={0: ["blue 7", "red 1"]}, draw=("green 3",), discard=("blue 4",), seed=seed)
            pos.turn(0)
            drew[must] += pos.hand(0).count("green 3")
    assert drew[True] == 0 and 5 < drew[False] < 55


def test_must_play_if_able_false_a_seat_may_draw_instead_and_keep_a_playable_drawn_card(position):
    """Scripted seat 0 holds the legal blue 7 on blue 4. must_play_if_able: false lists "draw instead";
    taking it, seat 0 draws the green 3 and passes. With play_drawn_card on as well, the playable blue 8
    it draws may be kept (the script says no), where must_play_if_able: true would make it play."""
    sets = ["rules.must_play_if_able=false"]
    pos = position(policies=["scripted"], sets=sets, hands={0: ["blue 7", "red 1"]}, draw=("green 3",),
                   discard=("blue 4",))
    pos.script(pos.index_of(O.D_PLAY, 0, O.DRAW_INSTEAD, "blue 4", True))
    assert pos.turn(0) == 1
    assert pos.top == "blue 4" and pos.hand(0) == ["blue 7", "green 3", "red 1"]
    pos = position(policies=["scripted"], sets=[*sets, "rules.play_drawn_card=true"], hands={0: ["red 1"]},
                   draw=("blue 8",), discard=("blue 4",))
    pos.script(pos.index_of(O.D_PLAY_DRAWN, 0, O.NO))
    assert pos.turn(0) == 1
    assert pos.top == "blue 4" and pos.hand(0) == ["blue 8", "red 1"]


def test_cannot_play_draws_one_and_the_drawn_card_waits_by_default(position):
    hands = {0: ["red 1"], 1: ["yellow 2+"]}
    pos = position(hands=hands, draw=("green 3", "blue 8"), discard=("blue 4",))
    assert pos.turn(0) == 1
    assert pos.hand(0) == ["blue 8", "red 1"] and pos.top == "blue 4"        # literal rule: no play
    pos = position(sets=["rules.play_drawn_card=true"], hands=hands, draw=("green 3", "blue 8"),
                   discard=("blue 4",))
    assert pos.turn(0) == 1
    assert pos.hand(0) == ["red 1"] and pos.top == "blue 8"                  # house rule: played
    pos = position(sets=["rules.play_drawn_card=true"], hands=hands, draw=("green 3", "yellow 8"),
                   discard=("blue 4",))
    pos.turn(0)
    assert pos.hand(0) == ["red 1", "yellow 8"]                              # not playable: kept


def test_a_turn_that_empties_the_draw_pile_reshuffles_the_discards_but_their_top_card(position):
    pos = position(hands={0: ["red 1"], 1: ["green 3"]}, draw=(),
                   discard=("green 1", "green 2+", "yellow 6/9", "blue 4"))
    pos.turn(0)
    assert pos.discard == ["blue 4"] and pos.size(0) == 2 and len(pos.draw_pile) == 2
    assert sorted(pos.draw_pile + pos.hand(0)) == ["green 1", "green 2+", "red 1", "yellow 6/9"]
    # one card left in the pile: it is drawn, no reshuffle yet
    pos = position(hands={0: ["red 1"], 1: ["green 3"]}, draw=("yellow 7",),
                   discard=("green 1", "green 2+", "blue 4"))
    pos.turn(0)
    assert pos.discard == ["green 1", "green 2+", "blue 4"] and pos.hand(0) == ["red 1", "yellow 7"]
    assert pos.events(E.E_RESHUFFLE) == []


def test_the_reshuffled_draw_pile_is_shuffled(position):
    """The discards below the top are shuffled into the new pile, not stacked in the order they were
    played: over these 12 match streams, the card seat 0 draws first is each of the three in turn."""
    first = set()
    for seed in range(12):
        pos = position(hands={0: ["red 1"], 1: ["green 3"]}, draw=(),
                       discard=("green 1", "green 2+", "yellow 6/9", "blue 4"), seed=seed)
        pos.turn(0)
        first |= set(pos.hand(0)) - {"red 1"}
    assert first == {"green 1", "green 2+", "yellow 6/9"}


def test_a_discard_pile_of_two_cards_is_enough_for_a_reshuffle(position):
    pos = position(hands={0: ["red 1"], 1: ["green 3"]}, draw=(), discard=("green 1", "blue 4"))
    pos.turn(0)
    assert pos.hand(0) == ["green 1", "red 1"] and pos.discard == ["blue 4"] and pos.draw_pile == []


def test_reshuffle_keeps_the_top_card(position):
    pos = position(hands={0: ["red 1"]}, draw=(), discard=("green 1", "green 2+", "yellow 6/9", "blue 4"))
    t = E.draw_card(pos.s, 0, E.WHY_TURN)
    assert pos.top == "blue 4" and pos.discard == ["blue 4"]
    assert sorted(pos.draw_pile + [card_name(t)]) == ["green 1", "green 2+", "yellow 6/9"]
    assert pos.events(E.E_RESHUFFLE)[0][3] == 3


def test_no_draw_when_both_piles_are_exhausted(position):
    pos = position(hands={0: ["red 1"]}, draw=(), discard=("blue 4",))
    assert E.draw_card(pos.s, 0, E.WHY_TURN) == -1
    assert pos.hand(0) == ["red 1"] and pos.discard == ["blue 4"]
    assert pos.turn(0) == 1                                   # the turn passes


def test_dealer_plays_first_and_the_deal_rotates_left(position):
    pos = position(players=3)
    first = E.play_match(pos.s, pos.r, pos.pol, 0, 0)          # the first dealer (drawn: first_dealer random)
    hands = [i for i, e in enumerate(pos.events()) if e[0] == E.E_HAND]
    assert len(hands) == pos.s.v[S.G_LENGTH] > 1
    for h, i in enumerate(hands):
        ev = pos.events()
        assert ev[i][1] == (first + h) % 3                     # dealer of hand h+1: the first dealer's h-th left
        first_move = next(e for e in ev[i:] if e[0] in (E.E_PLAY, E.E_DRAW, E.E_PASS))
        assert first_move[1] == (first + h) % 3                # the dealer moves first


# ---- jump-in --------------------------------------------------------------------------------------------

def test_jump_in_priority_is_clockwise_from_the_player_after_the_last(position):
    # seat 0 plays red 6/9 and holds another; seats 1 and 3 hold one each, seat 2 none.
    pos = position(hands={0: ["red 6/9", "red 6/9", "blue 1"], 1: ["red 6/9", "green 3"], 2: ["green 8"],
                          3: ["red 6/9", "yellow 1"]}, discard=("red 3",))
    nxt = pos.play(0, "red 6/9")
    jumpers = [p for p, c, how in pos.plays() if how == E.HOW_JUMP]
    assert jumpers == [1, 3, 0]                                # each window starts after the last player
    assert nxt == 1                                            # the last jumper's left neighbour continues


def test_a_player_cannot_jump_on_their_own_card_and_play_continues_left_of_the_jumper(position):
    pos = position(hands={0: ["red 5", "red 5", "blue 1"], 1: ["green 3"], 2: ["green 8"], 3: ["yellow 1"]},
                   discard=("red 3",))
    assert pos.play(0, "red 5") == 1 and pos.hand(0) == ["blue 1", "red 5"]
    pos = position(hands={0: ["red 5", "blue 1"], 1: ["green 3"], 2: ["red 5", "green 8"], 3: ["yellow 1"]},
                   discard=("red 3",))
    assert pos.play(0, "red 5") == 3                           # seat 2 jumped in: seat 3 plays next


def test_only_an_identical_card_jumps_in_same_number_other_colour_does_not(position):
    hands = {0: ["red 5", "blue 1"], 1: ["green 3"], 2: ["blue 5", "green 8"], 3: ["yellow 1"]}
    pos = position(hands=hands, discard=("red 3",))
    assert pos.play(0, "red 5") == 1 and pos.hand(2) == ["blue 5", "green 8"]
    pos = position(hands={**hands, 2: ["red 5", "green 8"]}, discard=("red 3",))
    assert pos.play(0, "red 5") == 3 and pos.hand(2) == ["green 8"]


def test_symbols_never_jump_in(position):
    pos = position(hands={0: ["red Pause", "blue 1"], 1: ["red Pause", "green 3"], 2: ["green 8"],
                          3: ["yellow 1"]}, discard=("red 3",))
    pos.play(0, "red Pause")
    assert [how for _, _, how in pos.plays()].count(E.HOW_JUMP) == 0


def test_jumped_two_plus_targets_the_jumpers_left_neighbour(position):
    hands = {0: ["red 2+", "blue 1"], 1: ["green 3"], 2: ["red 2+", "green 8"], 3: ["yellow 1"]}
    pos = position(hands=hands, draw=["green 1", "green 4", "green 5", "green 7"], discard=("red 3",))
    nxt = pos.play(0, "red 2+")
    assert pos.size(1) == 1 and pos.size(3) == 5               # seat 1 spared; seat 3 draws 2 + 2
    assert nxt == 0
    pos = position(sets=["rules.jumped_two_plus=move"], hands=hands,
                   draw=["green 1", "green 4", "green 5", "green 7"], discard=("red 3",))
    pos.play(0, "red 2+")
    assert pos.size(1) == 1 and pos.size(3) == 3               # 'move': the draw of 2 only moves


@pytest.mark.parametrize("attack,held", [("red 2+", ["red 0", "green 3"]), ("red X+", ["green 5", "green Swap"])])
def test_a_card_placed_as_an_answer_opens_a_jump_in_window(attack, held, position):
    """The top discard after an answer is a placed card like any other: seat 1 cancels the red 2+ with
    its red 0 (or, X+ victim, puts down its green 5 and draws 5), and seat 3, holding the identical
    card, jumps in on it, so play goes on left of seat 3 (seat 0), not left of seat 1 (seat 2)."""
    jumper = held[0]
    pos = position(hands={0: [attack, "blue 1"], 1: held, 2: ["green 8"], 3: [jumper, "yellow 1"]},
                   draw=("blue 3", "yellow 3", "yellow 4", "yellow 5", "yellow 7"), discard=("red 3",))
    assert pos.turn(0) == 0
    assert pos.discard == ["red 3", attack, jumper, jumper] and pos.hand(3) == ["yellow 1"]
    assert [(p, how) for p, _, how in pos.plays()][-1] == (3, E.HOW_JUMP)


# ---- Achtung --------------------------------------------------------------------------------------------

def test_forgetting_achtung_draws_two_penalty_cards(position):
    hands = {0: ["blue 7", "red 1"], 1: ["green 3"], 2: ["green 8"], 3: ["yellow 1"]}
    pos = position(hands=hands, draw=("green 1", "green 4", "green 5"), discard=("blue 4",))
    pos.turn(0)
    assert pos.size(0) == 1                                    # default rate 0: nobody forgets
    pos = position(sets=["rules.achtung_forget_rate=1.0"], hands=hands, draw=("green 1", "green 4", "green 5"),
                   discard=("blue 4",))
    pos.turn(0)
    assert pos.hand(0) == ["green 4", "green 5", "red 1"]
    assert len(pos.events(E.E_ACHTUNG)) == 1
    # going from 3 cards to 2 calls for nothing
    pos = position(sets=["rules.achtung_forget_rate=1.0"], hands={**hands, 0: ["blue 7", "red 1", "red 3"]},
                   draw=("green 1", "green 4", "green 5"), discard=("blue 4",))
    pos.turn(0)
    assert pos.size(0) == 2 and pos.events(E.E_ACHTUNG) == []


def test_forgetting_achtung_on_a_jump_in_down_to_one_card_draws_two(position):
    """Achtung is about going down to one card, in turn or not: seat 2 jumps in on seat 0's red 5 with
    its own, holds one card, forgets to call (rate 1) and draws 2; seat 0, going from 3 cards to 2,
    owes nothing."""
    pos = position(sets=["rules.achtung_forget_rate=1.0"],
                   hands={0: ["red 5", "blue 1", "blue 4"], 1: ["green 3"], 2: ["red 5", "green 8"], 3: ["yellow 1"]},
                   draw=("green 1", "green 4", "green 5"), discard=("red 3",))
    assert pos.turn(0) == 3
    assert pos.hand(2) == ["green 4", "green 5", "green 8"]
    assert [e[1] for e in pos.events(E.E_ACHTUNG)] == [2]


def test_achtung_counts_a_wild_with_its_follow_up_from_three_cards_to_one(position):
    hands = {0: ["wild", "blue 7", "red 1"], 1: ["green 3"], 2: ["green 8"], 3: ["yellow 1"]}
    pos = position(sets=["rules.achtung_forget_rate=1.0"], hands=hands, draw=("green 4", "green 5"),
                   discard=("yellow 4",))
    pos.turn(0)
    assert pos.size(0) == 3 and len(pos.events(E.E_ACHTUNG)) == 1


# ---- card effects ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("drawer,nxt", [("skipped", 2), ("plays", 1)])
def test_two_plus_left_neighbour_draws_two_then_two_plus_drawer_decides_who_plays(drawer, nxt, position):
    pos = position(sets=[f"rules.two_plus_drawer={drawer}"],
                   hands={0: ["red 2+", "blue 1"], 1: ["green 3"], 2: ["green 8"], 3: ["yellow 1"]},
                   draw=("green 1", "green 4", "green 5"), discard=("red 3",))
    assert pos.turn(0) == nxt
    assert pos.hand(1) == ["green 3", "green 4", "green 5"] and pos.size(2) == 1


@pytest.mark.parametrize("drawer,nxt,nxt_stack", [("skipped", 0, 3), ("plays", 1, 2)])
def test_two_plus_drawer_with_two_players_and_after_a_stack(drawer, nxt, nxt_stack, position):
    # 2 players, skipped: the 2+ player plays again
    pos = position(players=2, sets=[f"rules.two_plus_drawer={drawer}"],
                   hands={0: ["red 2+", "blue 1"], 1: ["green 3"]}, draw=("green 1", "green 4"), discard=("red 3",))
    assert pos.turn(0) == nxt and pos.size(1) == 3
    # a stack: the final drawer (seat 2, draws 4) is the one skipped or playing next
    pos = position(sets=[f"rules.two_plus_drawer={drawer}"],
                   hands={0: ["red 2+", "blue 1"], 1: ["blue 2+", "green 3"], 2: ["green 8"], 3: ["yellow 1"]},
                   draw=("green 1", "green 4", "green 5", "green 7"), discard=("red 3",))
    assert pos.turn(0) == nxt_stack and pos.size(2) == 5


@pytest.mark.parametrize("drawer", ["skipped", "plays"])
def test_a_cancelling_zero_passes_play_left_of_the_defender_whatever_two_plus_drawer(drawer, position):
    pos = position(sets=[f"rules.two_plus_drawer={drawer}"],
                   hands={0: ["red 2+", "blue 1"], 1: ["red 0", "green 3"], 2: ["green 8"], 3: ["yellow 1"]},
                   draw=("green 1", "green 4"), discard=("red 3",))
    assert pos.turn(0) == 2 and pos.hand(1) == ["green 3"]


def test_two_plus_stacks_and_the_player_who_cannot_answer_draws_the_total(position):
    pos = position(hands={0: ["red 2+", "blue 1"], 1: ["blue 2+", "green 3"], 2: ["green 8"], 3: ["yellow 1"]},
                   draw=("green 1", "green 4", "green 5", "green 7", "yellow 3"), discard=("red 3",))
    assert pos.play(0, "red 2+") == 3
    assert pos.size(1) == 1 and pos.size(2) == 5               # 2 + 2 = 4 cards for seat 2
    assert pos.top == "blue 2+"
    assert pos.events(E.E_EFFECT)[0][1:4:2] == (2, 4)


def test_a_third_two_plus_in_a_stack_makes_the_draw_six(position, card):
    # "2+ stacks: 4, 6, ...": red 2+ (seat 0), blue 2+ (seat 1), green 2+ (seat 2); seat 3, with no
    # answer, draws 2 + 2 + 2 = 6 and is skipped, so seat 0 plays next
    pos = position(hands={0: ["red 2+", "blue 1"], 1: ["blue 2+", "green 3"], 2: ["green 2+", "green 8"],
                          3: ["yellow 1"]},
                   draw=("blue 3", "green 1", "green 4", "green 5", "green 7", "yellow 3"), discard=("red 3",))
    assert pos.turn(0) == 0
    assert pos.size(3) == 1 + 6 and pos.draw_pile == []
    assert [e[1:4] for e in pos.events(E.E_EFFECT)] == [(3, card("green 2+"), 6)]


def test_same_colour_zero_cancels_a_two_plus_other_colour_does_not(position):
    base = {0: ["red 2+", "blue 1"], 2: ["green 8"], 3: ["yellow 1"]}
    pos = position(hands={**base, 1: ["red 0", "green 3"]}, draw=("green 1", "green 4"), discard=("red 3",))
    assert pos.play(0, "red 2+") == 2                           # the defender's left continues
    assert pos.hand(1) == ["green 3"] and pos.top == "red 0"
    pos = position(hands={**base, 1: ["blue 0", "green 3"]}, draw=("green 1", "green 4"), discard=("red 3",))
    assert pos.play(0, "red 2+") == 2
    assert pos.hand(1) == ["blue 0", "green 1", "green 3", "green 4"]


@pytest.mark.parametrize("zero,cancelled", [("blue 0", True), ("red 0", False)])
def test_a_stacked_two_plus_is_cancelled_only_by_a_zero_of_the_stacked_cards_colour(zero, cancelled, position):
    """The attacking card is the top one: seat 0's red 2+, stacked by seat 1's blue 2+, reaches seat 2
    as a blue 2+ drawing 4. A blue 0 cancels it (nobody draws); seat 2's red 0, the first card's colour,
    is no answer, so seat 2 draws the 4. Either way seat 3 plays next."""
    pos = position(hands={0: ["red 2+", "blue 1"], 1: ["blue 2+", "green 3"], 2: [zero, "green 8"],
                          3: ["yellow 1"]},
                   draw=("green 1", "green 4", "green 5", "green 7"), discard=("red 3",))
    assert pos.turn(0) == 3
    if cancelled:
        assert pos.top == "blue 0" and pos.hand(2) == ["green 8"] and pos.size(3) == 1
    else:
        assert pos.top == "blue 2+" and pos.hand(2) == sorted([zero, "green 8", "green 1", "green 4", "green 5",
                                                                "green 7"])


def test_pause_skips_the_left_neighbour(position):
    pos = position(hands={0: ["red Pause", "blue 1"], 1: ["green 3"], 2: ["green 8"], 3: ["yellow 1"]},
                   discard=("red 3",))
    assert pos.play(0, "red Pause") == 2
    assert [e[1] for e in pos.events(E.E_SKIP)] == [1]


def test_pause_chain_of_two_skips_the_two_players_after_the_last_adder(position):
    pos = position(players=5, hands={0: ["red Pause", "blue 1"], 1: ["blue Pause", "green 3"], 2: ["green 8"],
                                     3: ["yellow 1"], 4: ["yellow 3"]}, discard=("red 3",))
    assert pos.play(0, "red Pause") == 4
    assert [e[1] for e in pos.events(E.E_SKIP)] == [2, 3]
    assert pos.top == "blue Pause"


def test_a_pause_added_by_a_later_skipped_player_counts_its_skips_from_that_player(position):
    # red Pause (seat 0), blue Pause (seat 1: skips 2 and 3), yellow Pause by seat 3 -- the second
    # player the chain reached: now 3 players after seat 3 are skipped (4, 0, 1); seat 2 plays next
    pos = position(players=5, hands={0: ["red Pause", "blue 1"], 1: ["blue Pause", "green 3"], 2: ["green 8"],
                                     3: ["yellow Pause", "yellow 1"], 4: ["yellow 3"]}, discard=("red 3",))
    assert pos.turn(0) == 2
    assert [e[1] for e in pos.events(E.E_SKIP)] == [2, 4, 0, 1]
    assert [e[3] for e in pos.events(E.E_SKIP)] == [2, 3, 3, 3]


def test_a_pause_chain_as_long_as_the_table_wraps_around_to_the_last_adder(position):
    """3 players, a chain of 3 (red by seat 0, blue by 1, green by 2): the 3 players after the last adder are
    0, 1 and 2 itself. The last adder is not asked to answer its own chain; it is skipped like the others
    (engine decision: stop.md's "k players after the last adder" read around the table), so seat 0 plays."""
    pos = position(players=3, hands={0: ["red Pause", "blue 1"], 1: ["blue Pause", "green 3"],
                                     2: ["green Pause", "green 8"]}, discard=("red 3",))
    assert pos.play(0, "red Pause") == 0
    assert [e[1] for e in pos.events(E.E_SKIP)] == [0, 1, 2]
    assert pos.top == "green Pause"


def test_a_skipped_player_may_cancel_the_pause_with_a_zero_of_the_top_pause_colour(position):
    # chain red Pause + blue Pause; seat 2 holds a blue 0 and 2 cards (greedy spends it then)
    pos = position(players=5, hands={0: ["red Pause", "blue 1"], 1: ["blue Pause", "green 3"],
                                     2: ["blue 0", "green 8"], 3: ["yellow 1"], 4: ["yellow 3"]},
                   discard=("red 3",))
    assert pos.play(0, "red Pause") == 3
    assert pos.events(E.E_SKIP) == [] and pos.top == "blue 0"


@pytest.mark.parametrize("mode,expect", [
    (O.SWAP_WITH_ONE, ["yellow 1", "green 3", "green 8", "blue 1"]),      # seat 0 with seat 3
    (O.SWAP_PASS_LEFT, ["yellow 1", "blue 1", "green 3", "green 8"]),     # q receives q-1's hand
    (O.SWAP_PASS_RIGHT, ["green 3", "green 8", "yellow 1", "blue 1"]),    # q receives q+1's hand
])
def test_swap_modes_move_the_hands(mode, expect, position):
    pos = position(hands={0: ["blue 1"], 1: ["green 3"], 2: ["green 8"], 3: ["yellow 1"]})
    E.apply_swap(pos.s, 0, mode, 3)
    assert [pos.hand(p) for p in range(4)] == [[c] for c in expect]
    assert all(pos.s.v[S.HELD + p] == S.held_mask(pos.s, p) for p in range(4))


@pytest.mark.parametrize("choice,expect", [
    ((O.SWAP_WITH_ONE, 1), [["green 3"], ["blue 1"], ["green 8"], ["yellow 1"]]),
    ((O.SWAP_WITH_ONE, 3), [["yellow 1"], ["green 3"], ["green 8"], ["blue 1"]]),
    ((O.SWAP_PASS_LEFT, 0), [["yellow 1"], ["blue 1"], ["green 3"], ["green 8"]]),   # q receives q-1's hand
    ((O.SWAP_PASS_RIGHT, 0), [["green 3"], ["green 8"], ["yellow 1"], ["blue 1"]]),  # q receives q+1's hand
])
def test_a_swap_played_in_a_turn_offers_every_target_and_both_directions(choice, expect, position):
    """The Swap's options, driven through seat 0's turn by the scripted policy: swap with seats 1, 2, 3
    (clockwise from the left), pass left, pass right. Its only legal card is the Swap, so the Swap
    choice is the script's first decision."""
    pos = position(policies=["scripted"], discard=("red 3",),
                   hands={0: ["red Swap", "blue 1"], 1: ["green 3"], 2: ["green 8"], 3: ["yellow 1"]})
    assert pos.options(O.D_SWAP, 0) == 5
    pos.script(pos.index_of(O.D_SWAP, 0, choice))
    assert pos.turn(0) == 1
    assert [pos.hand(p) for p in range(4)] == expect
    assert pos.events(E.E_SWAP_DONE)[0][3] == choice[0]                # the mode chosen


def test_swap_greedy_takes_the_smallest_hand_and_play_continues_left_of_the_swapper(position):
    pos = position(hands={0: ["red Swap", "yellow 8", "yellow 7"], 1: ["green 3", "green 5"],
                          2: ["blue 1"], 3: ["green 8", "yellow 2+"]}, discard=("red 3",))
    assert pos.turn(0) == 1
    assert pos.hand(0) == ["blue 1"] and pos.hand(2) == ["yellow 7", "yellow 8"]
    assert [pos.hand(p) for p in (1, 3)] == [["green 3", "green 5"], ["green 8", "yellow 2+"]]


def test_any_affected_player_cancels_the_whole_swap_with_a_same_colour_zero(position):
    # seat 0 swaps with seat 2 (fewest cards); seat 2 expects a worse hand and holds a red 0
    hands = {0: ["red Swap", "yellow 8", "yellow 7"], 1: ["green 3", "green 5", "green 1"], 2: ["red 0", "blue 1"],
             3: ["green 8", "yellow 2+", "yellow 1"]}
    pos = position(hands=hands, discard=("red 3",))
    assert pos.turn(0) == 3                                    # the defender's left continues
    assert pos.hand(2) == ["blue 1"] and pos.hand(0) == ["yellow 7", "yellow 8"]
    assert pos.s.v[S.G_CANCELS] == 1 and pos.events(E.E_SWAP_DONE) == []
    hands[2] = ["blue 0", "blue 1"]                            # wrong colour: no cancel
    pos = position(hands=hands, discard=("red 3",))
    assert pos.turn(0) == 1
    assert pos.hand(0) == ["blue 0", "blue 1"] and pos.hand(2) == ["yellow 7", "yellow 8"]


@pytest.mark.parametrize("mode,canceller", [(O.SWAP_PASS_LEFT, 3), (O.SWAP_PASS_RIGHT, 2), (O.SWAP_WITH_ONE, 3)])
def test_every_player_whose_hand_would_change_may_cancel_a_swap(mode, canceller, position, card):
    """resolve_swap with a chosen mode: the first affected player (clockwise from the swapper's left)
    holding the Swap's colour 0 and expecting a worse hand cancels; an unaffected one cannot. Seat 2
    keeps 20 points: it would take seat 1's single card (passing left, expected 14) but not seat 3's
    three (passing right, 42); seat 3 keeps 7 and refuses any bigger hand."""
    hands = {0: ["yellow 8", "yellow 7", "green 7", "green 8"], 1: ["green 3"], 2: ["red 0", "blue 2+"],
             3: ["red 0", "blue 3", "green 4"]}
    pos = position(hands=hands, discard=("red 3", "red Swap"))
    target = 3 if mode == O.SWAP_WITH_ONE else -1
    nxt = E.resolve_swap_chosen(pos.s, pos.r, pos.pol, 0, card("red Swap"), mode, target)[0]
    assert nxt == -1 and pos.top == "red 0"
    assert [e[1] for e in pos.events(E.E_PLAY)] == [canceller]


def test_a_player_whose_hand_would_not_change_cannot_cancel_a_swap(position):
    """Seat 0 swaps with seat 2 whose hand equals the one seat 0 keeps (red 0, green 3): seat 2's hand
    would not change, so it is not asked (the script would say yes); the swap goes through and seat 1
    plays next. A seat 2 holding red 0, green 4 would be affected and cancel."""
    for held, cancelled in ((["red 0", "green 3"], False), (["red 0", "green 4"], True)):
        pos = position(players=3, policies=["scripted"], discard=("red 3",),
                       hands={0: ["red Swap", "red 0", "green 3"], 1: ["yellow 1"], 2: held})
        pos.script(pos.index_of(O.D_PLAY, 0, "red Swap", "red 3", False),
                   pos.index_of(O.D_SWAP, 0, (O.SWAP_WITH_ONE, 2)), pos.index_of(O.D_SWAP_CANCEL, 2, O.YES))
        if cancelled:
            assert pos.turn(0) == 0 and pos.top == "red 0" and pos.hand(2) == ["green 4"]
        else:
            assert pos.turn(0) == 1 and pos.top == "red Swap" and len(pos.events(E.E_SWAP_DONE)) == 1
            assert pos.hand(0) == pos.hand(2) == ["green 3", "red 0"]


def test_the_first_player_clockwise_from_the_swappers_left_cancels_a_swap(position):
    """Seat 0's Swap passes every hand left; seats 1, 2 and 3 all hold a red 0 and would all cancel. stop.md
    names no order, so the engine asks as every other answer in the game: clockwise from the swapper's left.
    Seat 1 cancels; seats 2 and 3 may then jump in on its red 0 and decline (the script's NOs), keep their 0s,
    and play goes on with seat 2 (the defender's left)."""
    pos = position(policies=["scripted"], discard=("red 3",),
                   hands={0: ["red Swap", "blue 1"], 1: ["red 0", "green 3"], 2: ["red 0", "green 8"],
                          3: ["red 0", "yellow 1"]})
    yes, no = pos.index_of(O.D_SWAP_CANCEL, 1, O.YES), pos.index_of(O.D_JUMP_IN, 2, O.NO)
    pos.script(pos.index_of(O.D_SWAP, 0, (O.SWAP_PASS_LEFT, 0)), yes, no, no)
    assert pos.turn(0) == 2 and pos.discard == ["red 3", "red Swap", "red 0"]
    assert pos.hand(1) == ["green 3"] and "red 0" in pos.hand(2) and "red 0" in pos.hand(3)


XPLUS_EXAMPLE = {0: ["red X+", "green 1"], 1: ["wild", "blue 2+", "green 6/9"], 2: ["green 8", "yellow 4"],
                 3: ["yellow 1"]}


def test_xplus_rulebook_example_the_forced_two_plus_drags_the_left_neighbour_into_drawing_two(position, card):
    """The original's example: X+ is played; the left player shows wild, 2+, 6/9; cannot put down the
    wild, need not take the 6/9, puts down the 2+ and draws 2 -- glad to make *their* left player draw
    2 as well (xplus_card_effects: true, the default)."""
    pos = position(hands=XPLUS_EXAMPLE, draw=("yellow 3", "yellow 5", "yellow 7", "yellow 8"), discard=("red 3",))
    assert pos.turn(0) == 3                                    # seat 2 drew for the 2+ and is skipped
    assert pos.hand(1) == ["green 6/9", "wild", "yellow 7", "yellow 8"]
    assert pos.hand(2) == ["green 8", "yellow 3", "yellow 4", "yellow 5"]
    assert pos.discard == ["red 3", "red X+", "blue 2+"]
    assert [e[1:4] for e in pos.events(E.E_EFFECT)] == [(1, card("red X+"), 2), (2, card("blue 2+"), 2)]


def test_xplus_forced_card_has_no_effect_with_xplus_card_effects_false(position):
    pos = position(sets=["rules.xplus_card_effects=false"], hands=XPLUS_EXAMPLE,
                   draw=("yellow 3", "yellow 5", "yellow 7", "yellow 8"), discard=("red 3",))
    assert pos.turn(0) == 2
    assert pos.hand(1) == ["green 6/9", "wild", "yellow 7", "yellow 8"] and pos.hand(2) == ["green 8", "yellow 4"]


def test_a_two_plus_jumped_on_an_effectless_forced_two_plus_still_hits_the_jumpers_left(position):
    """xplus_card_effects: false, the rulebook X+ example: seat 1's forced blue 2+ makes nobody draw, but
    seat 3 jumps in with its own blue 2+, and a jumped 2+ targets the jumper's left neighbour: seat 0
    draws 2 and is skipped, seat 1 plays next; seat 2 is untouched."""
    pos = position(sets=["rules.xplus_card_effects=false"], hands={**XPLUS_EXAMPLE, 3: ["blue 2+", "yellow 1"]},
                   draw=("yellow 3", "yellow 5", "yellow 7", "yellow 8"), discard=("red 3",))
    assert pos.turn(0) == 1
    assert pos.hand(0) == ["green 1", "yellow 3", "yellow 5"] and pos.hand(2) == ["green 8", "yellow 4"]
    assert pos.discard == ["red 3", "red X+", "blue 2+", "blue 2+"] and pos.hand(3) == ["yellow 1"]


def test_xplus_forced_two_plus_can_be_answered_by_its_target(position):
    pos = position(hands={**XPLUS_EXAMPLE, 2: ["yellow 2+", "yellow 4"]},
                   draw=("yellow 3", "yellow 5", "yellow 7", "yellow 8", "green 3", "green 4"), discard=("red 3",))
    assert pos.turn(0) == 0                                    # seat 2 stacked: seat 3 draws 4, skipped
    assert pos.hand(2) == ["yellow 4"] and pos.size(3) == 5


def test_xplus_zero_cancels_false_a_same_colour_zero_is_just_a_forced_card(position):
    hands = {0: ["red X+", "blue 1"], 1: ["red 0", "green 6/9"], 2: ["green 8"], 3: ["yellow 1"]}
    pos = position(sets=["rules.xplus_zero_cancels=false"], hands=hands, draw=("yellow 3",), discard=("red 3",))
    assert pos.turn(0) == 2 and pos.hand(1) == ["green 6/9"]
    assert pos.events(E.E_PLAY)[-1][3] == E.HOW_XPLUS and pos.s.v[S.G_CANCELS] == 0


def test_xplus_with_only_symbols_is_ignored_and_a_same_colour_zero_cancels_it(position):
    pos = position(hands={0: ["red X+", "blue 1"], 1: ["wild", "green Pause"], 2: ["green 8"], 3: ["yellow 1"]},
                   draw=("yellow 3",), discard=("red 3",))
    assert pos.play(0, "red X+") == 1 and pos.size(1) == 2    # ignored: seat 1 takes its turn
    assert len(pos.events(E.E_XPLUS_IGNORED)) == 1
    pos = position(hands={0: ["red X+", "blue 1"], 1: ["red 0", "green 6/9"], 2: ["green 8"], 3: ["yellow 1"]},
                   draw=("yellow 3",), discard=("red 3",))
    assert pos.play(0, "red X+") == 2
    assert pos.hand(1) == ["green 6/9"] and pos.events(E.E_PLAY)[-1][3] == E.HOW_CANCEL


def test_wild_is_followed_by_a_card_whose_effect_applies(position):
    pos = position(hands={0: ["wild", "red 2+", "blue 3"], 1: ["green 3"], 2: ["green 8"], 3: ["yellow 1"]},
                   draw=("green 1", "green 4"), discard=("yellow 7",))
    assert pos.play(0, "wild") == 2                            # the 2+ hit seat 1
    assert pos.discard[-2:] == ["wild", "red 2+"] and pos.size(1) == 3 and pos.hand(0) == ["blue 3"]


def test_a_wild_is_never_followed_by_another_wild(position):
    pos = position(hands={0: ["wild", "wild", "blue 3"], 1: ["green 3"]}, discard=("yellow 7",))
    pos.turn(0)
    assert pos.discard == ["yellow 7", "wild", "blue 3"] and pos.hand(0) == ["wild"]


def test_a_wild_can_never_be_the_last_card(position):
    for hand in (["wild"], ["wild", "wild"]):
        pos = position(hands={0: hand, 1: ["green 3"]}, draw=("green 1",), discard=("yellow 7",))
        assert pos.options(O.D_PLAY, 0, "yellow 7", False) == 0
        pos.turn(0)
        assert pos.size(0) == len(hand) + 1                    # had to draw
    pos = position(hands={0: ["wild", "blue 1"]}, discard=("yellow 7",))
    pos.turn(0)
    assert pos.size(0) == 0 and pos.hand_over                  # wild + its follow-up: out


# ---- end of a hand, scoring, match -------------------------------------------------------------------

def test_last_card_two_plus_still_resolves_with_answers_but_no_jump_ins(position):
    pos = position(hands={0: ["red 2+"], 1: ["blue 2+", "green 3"], 2: ["green 8"], 3: ["blue 2+", "red 2+"]},
                   draw=("green 1", "green 4", "green 5", "green 7"), discard=("red 3",))
    pos.play(0, "red 2+")
    assert pos.hand_over and pos.s.v[S.OUT] == 0
    assert pos.size(1) == 1 and pos.size(2) == 5              # seat 1 stacked, seat 2 drew 4
    assert pos.hand(3) == ["blue 2+", "red 2+"]                # no jump-in after the hand ended


@pytest.mark.parametrize("held,attack,out", [(["red 5"], "red 5", 2), (["red 0"], "red 2+", 1)])
def test_a_last_card_played_out_of_turn_calls_stop(held, attack, out, position):
    """STOP ends the hand whoever empties their hand, also out of turn: seat 2 jumps in with its only
    card, the red 5 identical to seat 0's; or seat 1 cancels seat 0's red 2+ with its only card, a red 0."""
    hands = {0: [attack, "blue 1"], 1: ["green 3"], 2: ["green 8"], 3: ["yellow 1"]}
    hands[out] = held
    pos = position(hands=hands, draw=("green 1", "green 4"), discard=("red 3",))
    pos.turn(0)
    assert pos.hand_over and pos.s.v[S.OUT] == out and pos.size(out) == 0
    assert [e[1] for e in pos.events(E.E_STOP)] == [out]


def test_scoring_table_and_symbol_share(position):
    pos = position(hands={0: [], 1: ["red 1", "blue 6/9", "green 2+", "yellow 0"],
                          2: ["red Pause", "red Swap", "red X+", "wild"], 3: ["red 8", "red 7"]})
    pos.s.v[S.OUT] = 0
    E.score_hand(pos.s, pos.r, 0, True)
    score = [pos.s.v[S.SEAT + p * S.NSEAT + S.S_SCORE] for p in range(4)]
    sym = [pos.s.v[S.SEAT + p * S.NSEAT + S.S_SYMBOL] for p in range(4)]
    assert score == [0, 1 + 9 + 20 + 0, 10 + 30 + 40 + 50, 15]
    assert sym == [0, 0, 130, 0]


def hand_totals(events, players):
    """Match totals after each hand, from a traced match's E_SCORE records."""
    rows = [e for e in events if e[0] == E.E_SCORE]
    return [[int(rows[h * players + p][4]) for p in range(players)] for h in range(len(rows) // players)]


@pytest.mark.parametrize("gid", range(4))
def test_match_ends_exactly_when_a_total_reaches_the_limit_not_one_point_below(gid):
    """Play a match, read the highest total T after its last hand, and replay the same match (same
    stream: the limit changes nothing before the end) with match_limit = T: it ends after the same
    hand; with T + 1 it goes on to at least one more hand; no hand is played after a total reached
    the limit."""
    def run(limit):
        sc = load(GAME, sets=[f"rules.match_limit={limit}"], players=3, policies=["random"])
        b = GAME.run_batch(sc, 3, np.array([gid]), trace=True)
        return int(b.length[0]), hand_totals(b.events, 3)
    n, totals = run(120)
    for before in totals[:-1]:
        assert max(before) < 120
    top = max(totals[-1])
    assert run(top)[0] == n
    n_more, more = run(top + 1)
    assert n_more > n and max(more[n - 1]) == top
    assert all(max(t) < top + 1 for t in more[:-1])


def test_the_lowest_total_wins_and_ties_share(position):
    pos = position()
    pos.s.v[S.TOTAL:S.TOTAL + 4] = [500, 120, 120, 300]
    assert E.mark_winners(pos.s) == 0b0110
    pos.s.v[S.TOTAL:S.TOTAL + 4] = [500, 121, 120, 300]
    assert E.mark_winners(pos.s) == 0b0100
    pos.s.v[S.TOTAL:S.TOTAL + 4] = [119, 121, 120, 300]
    assert E.mark_winners(pos.s) == 0b0001
    for sets in ([], ["rules.match_limit=60"]):
        sc = load(GAME, sets=sets, players=4, policies=["random"])
        b = GAME.run_batch(sc, 3, np.arange(40))
        assert np.array_equal(b.is_winner, b.score == b.score.min(axis=1, keepdims=True))


def test_hand_turn_cap_ends_and_counts_capped_hands():
    sc = load(GAME, sets=["rules.hand_turn_cap=3"], players=3)
    b = GAME.run_batch(sc, 0, np.arange(5))
    assert (b.extra["capped_hands"] == b.length).all()         # every hand hit the cap, none hidden
    assert (b.extra["turns"] == 3 * b.length).all()
    assert (b.score.max(axis=1) >= 500).all()                  # capped hands are scored


@pytest.mark.parametrize("mode,expect", [("held", 4 + 5 + 7 + 8), ("zero", 0)])
def test_cards_coming_back_to_the_stop_caller(mode, expect, position):
    # 2 players: seat 0 goes out with a 2+, seat 1 stacks, the draw of 4 wraps round to seat 0
    pos = position(players=2, sets=[f"rules.out_player_scores={mode}"],
                   hands={0: ["red 2+"], 1: ["blue 2+", "green 3"]},
                   draw=("green 4", "green 5", "green 7", "green 8"), discard=("red 3",))
    pos.play(0, "red 2+")
    assert pos.s.v[S.OUT] == 0 and pos.size(0) == 4
    E.score_hand(pos.s, pos.r, 0, True)
    assert pos.s.v[S.SEAT + S.S_SCORE] == expect


def test_xplus_victim_is_out_only_if_the_hand_is_empty_after_drawing(position):
    pos = position(hands={0: ["red X+", "blue 1"], 1: ["green 5"], 2: ["green 8"], 3: ["yellow 1"]},
                   draw=("yellow 3", "yellow 4", "yellow 5", "yellow 7", "yellow 8"), discard=("red 3",))
    pos.play(0, "red X+")
    assert not pos.hand_over and pos.size(1) == 5
    pos = position(hands={0: ["red X+", "blue 1"], 1: ["green 0"], 2: ["green 8"], 3: ["yellow 1"]},
                   draw=("yellow 3",), discard=("red 3",))
    pos.play(0, "red X+")
    assert pos.hand_over and pos.s.v[S.OUT] == 1


def test_starter_pause_and_xplus_with_starter_effects(position):
    hands = {0: ["red 7", "blue 4"], 1: ["green 5"], 2: ["green 3"], 3: ["yellow 1"]}
    pos = position(sets=["rules.starter_effects=true"], hands=hands, draw=("blue 1", "red Pause"))
    assert E.open_play(pos.s, pos.r, pos.pol, 0) == 1
    assert [e[1] for e in pos.events(E.E_SKIP)] == [0]                     # the dealer is skipped
    pos = position(sets=["rules.starter_effects=true"], hands=hands, draw=("blue 1", "blue 3", "blue 5",
                                                                             "blue 8", "red X+"))
    assert E.open_play(pos.s, pos.r, pos.pol, 0) == 1
    assert pos.hand(0) == ["blue 1", "blue 3", "blue 5", "blue 8", "red 7"]  # put down blue 4, drew 4


def test_xplus_victim_forced_to_put_down_a_six_nine_draws_nine(position):
    """Seat 1's only number card is a 6/9 (the Pause cannot be put down): it goes on the pile and seat 1
    draws 9 -- the only card that draws more than 8, so a count off by the 6 reading shows here."""
    draw = tuple(f"{c} {k}" for c in ("yellow", "blue") for k in ("1", "3", "4", "5", "7")) + ("green 3",)
    pos = position(hands={0: ["red X+", "blue 1"], 1: ["green 6/9", "green Pause"], 2: ["green 8"],
                          3: ["yellow 1"]}, draw=draw, discard=("red 3",))
    assert pos.turn(0) == 2
    assert pos.top == "green 6/9" and pos.size(1) == 1 + 9 and "green Pause" in pos.hand(1)
    assert len(pos.draw_pile) == len(draw) - 9


def test_xplus_victim_forced_card_is_a_number_card_never_a_symbol(position):
    """Greedy puts down the card drawing the fewest: a Swap or Pause would draw none, but only a number
    card may go down, so the 5 goes and seat 1 draws 5; the symbols stay in the hand."""
    pos = position(hands={0: ["red X+", "blue 1"], 1: ["green 5", "green Swap", "yellow Pause"],
                          2: ["green 8"], 3: ["yellow 1"]},
                   draw=("blue 3", "yellow 3", "yellow 4", "yellow 5", "yellow 7", "yellow 8"), discard=("red 3",))
    assert pos.turn(0) == 2
    assert pos.top == "green 5" and pos.discard == ["red 3", "red X+", "green 5"]
    assert pos.hand(1) == ["green Swap", "yellow 3", "yellow 4", "yellow 5", "yellow 7", "yellow 8",
                           "yellow Pause"]


@pytest.mark.parametrize("zero_holder", [0, 2])
def test_only_the_other_players_may_cancel_a_swap_never_its_player(zero_holder, position):
    """Seat 0 plays a red Swap and everyone passes left; the script then says yes to any cancel asked of
    a red-0 holder. Seat 2 holding the red 0 cancels; seat 0 holding it is never asked, and the hands
    move."""
    hands = {0: ["red Swap", "blue 1"], 1: ["green 3"], 2: ["green 8"], 3: ["yellow 1"]}
    hands[zero_holder] = hands[zero_holder] + ["red 0"]
    pos = position(policies=["scripted"], hands=hands, discard=("red 3",))
    pos.script(pos.index_of(O.D_PLAY, 0, "red Swap", "red 3", False),
               pos.index_of(O.D_SWAP, 0, (O.SWAP_PASS_LEFT, 0)), pos.index_of(O.D_SWAP_CANCEL, 2, O.YES))
    nxt = pos.turn(0)
    if zero_holder == 2:
        assert nxt == 3 and pos.top == "red 0" and pos.hand(1) == ["green 3"]
    else:
        assert nxt == 1 and pos.top == "red Swap" and pos.s.v[S.G_CANCELS] == 0
        assert [pos.hand(p) for p in range(4)] == [["yellow 1"], ["blue 1", "red 0"], ["green 3"], ["green 8"]]
        assert len(pos.events(E.E_SWAP_DONE)) == 1


@pytest.mark.parametrize("players", [2, 5])
def test_the_first_dealer_is_drawn_per_match_and_the_deal_passes_left_from_them(players):
    """first_dealer: random (stop.md names no first dealer): every seat deals hand 1 in some match, about
    equally often; the Batch's first_player is that dealer; hand h is dealt by the first dealer's h-th
    left neighbour. first_dealer: seat0: seat 0 deals hand 1 of every match."""
    sc = load(GAME, sets=["rules.match_limit=60"], players=players, policies=["random"])
    b = GAME.run_batch(sc, 9, np.arange(400))
    counts = np.bincount(b.first_player, minlength=players)
    assert len(counts) == players and (counts > 400 / players * 0.6).all()   # 0.6 x fair: far from chance
    for gid in range(6):
        t = GAME.run_batch(sc, 9, np.array([gid]), trace=True)
        dealers = [int(e[1]) for e in t.events if e[0] == E.E_HAND]
        first = int(b.first_player[gid])
        assert dealers == [(first + h) % players for h in range(len(dealers))] and len(dealers) == b.length[gid]
    fixed = load(GAME, sets=["rules.match_limit=60", "rules.first_dealer=seat0"], players=players, policies=["random"])
    assert (GAME.run_batch(fixed, 9, np.arange(50)).first_player == 0).all()
