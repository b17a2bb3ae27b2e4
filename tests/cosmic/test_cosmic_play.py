"""Simply Cosmic's policies (issue #22) and strong play (issue #25), each driven through the game's own
turn on a built position: the heuristic under a Loser upset (cards, reinforcements), Mind's answer from
the hand it saw, a Cosmic Zap where it pays, allying as a choice; the weights and the restrictions at
their boundaries."""
import numpy as np

from analyzer.games.cosmic import policies as P
from analyzer.games.cosmic.context import E_ALLY, E_PLAY, S
from analyzer.games.cosmic.decisions import ANSWER_DEFENSE, ANSWER_OFFENSE


def weight(pos, seat, name, value):
    """Seat `seat` plays with weight `name` set to `value` (the row the kernel reads)."""
    pos.weights[seat, list(w.name for w in pos.sc.WEIGHTS["heuristic"]).index(name)] = value
    return pos


def allies(pos):
    """(seat, answer, tokens) of every alliance in the last turn."""
    return [(int(r[1]), int(r[2]), int(r[3])) for r in pos.events if r[0] == E_ALLY]


def played(pos, seat):
    """The card kinds seat played in windows in the last turn."""
    return [int(r[2]) for r in pos.events if r[0] == E_PLAY and r[1] == seat]


# ---- a Loser upset: the lower total wins, and the heuristic knows it ----------------------------------
def upset(Pos, *off_cards):
    """Seat 0 (heuristic) attacks Loser (seat 1, power on) with 4 tokens; Loser defends planet 5 with 1
    token (4 on its other planets) holding A8 and declares an upset (its side is 3 tokens behind)."""
    pos = Pos(2, aliens=["Filch", "Loser"], policies=("heuristic",)).hand(0, *off_cards).hand(1, "A8")
    for k in range(1, 5):
        pos.set_tokens(5 + k, 1, 4)
    pos.set_tokens(5, 1, 1).set_tokens(1, 0, 4).destiny("reg1")
    return weight(pos, 0, "commit", 4)


def test_under_an_upset_the_heuristic_plays_its_lowest_attack_card(Pos):
    pos = upset(Pos, "A6", "A20")
    pos.turn()
    # the old policy played the A20 it needed to win the comparison, which the upset turned into a loss
    assert pos.held(0, "A20") == 1 and pos.held(0, "A6") == 0
    assert pos.tokens(5, 1) == 1 and pos.warp(0) == 4  # 10 against 9: the swap makes the Loser win


def test_under_an_upset_a_reinforcement_goes_on_the_losers_side(Pos):
    pos = upset(Pos, "A6", "R2")
    pos.turn()
    # 10 against 9 would swap to a Loser win; +2 for the defense makes it 10 against 11, swapped: the
    # offense wins (a reinforcement on its own side would have kept it losing)
    assert played(pos, 0) == [pos.kind("R2")]
    assert pos.tokens(5, 0) == 4 and pos.warp(0) == 0 and pos.warp(1) == 1


def test_a_cosmic_zap_on_the_loser_cancels_an_upset_that_beats_me(Pos):
    pos = upset(Pos, "A6", "E:cosmic_zap")
    pos.turn()
    assert played(pos, 0) == [pos.kind("E:cosmic_zap")]  # the old policy zapped only Warpish
    assert pos.tokens(5, 0) == 4 and pos.warp(0) == 0  # no swap: 10 against 9 wins


# ---- a Cosmic Zap where it pays, by the zap_at weight ---------------------------------------------------
def zombie_loses(Pos, home3, zap_at):
    """Zombie (seat 0, power on) attacks planet 6 (no defender) with 3 tokens and A1 against A20; seat 2,
    outside the challenge (no base to ally from), holds a Cosmic Zap."""
    pos = Pos(3, aliens=["Zombie", "Filch", "Grief"], policies=("heuristic",))
    home3(pos, 0).hand(0, "A1").hand(1, "A20").hand(2, "E:cosmic_zap").set_tokens(10, 2, 0).destiny("reg1")
    return weight(weight(pos, 0, "commit", 3), 2, "zap_at", zap_at)


def test_zap_at_is_the_least_a_zap_must_be_worth(Pos, home3):
    at = zombie_loses(Pos, home3, zap_at=3)
    at.turn()
    assert played(at, 2) == [at.kind("E:cosmic_zap")] and at.warp(0) == 3  # zapped: 3 tokens to the Warp
    above = zombie_loses(Pos, home3, zap_at=4)
    above.turn()
    assert played(above, 2) == [] and above.warp(0) == 0  # Zombie's power sends them home


# ---- Mind outside the challenge answers from the hand it saw --------------------------------------------
def mind_invited(Pos, home3, offense_card):
    """Mind (seat 2, power on) sees the offense's hand (`offense_card`) before both sides invite it; the
    offense (2 tokens) attacks planet 5 (4 defending tokens); the defense holds A10."""
    pos = Pos(3, aliens=["Grief", "Filch", "Mind"], policies=("heuristic",))
    home3(pos, 2).hand(0, offense_card).hand(1, "A10").destiny("reg1")
    for k in range(1, 5):
        pos.set_tokens(5 + k, 1, 4)  # the offense aims at planet 5, the fewest defenders
    return pos


def test_mind_outside_the_challenge_joins_the_side_the_hand_it_saw_favours(Pos, home3):
    strong = mind_invited(Pos, home3, "A40")
    strong.turn()
    assert allies(strong) == [(2, ANSWER_OFFENSE, 3)]  # the old answer: the defense (more tokens); 3 beat even A40
    weak = mind_invited(Pos, home3, "A1")
    weak.turn()
    assert allies(weak) == [(2, ANSWER_DEFENSE, 4)]  # a sure defense win: all its tokens, for rewards


# ---- allying is a choice --------------------------------------------------------------------------------
def invited_to_attack(Pos, seat2_on_target, appetite=0):
    """Seat 0 (heuristic, 2 tokens) attacks planet 5 (1 defender); the defense (scripted) invites nobody;
    seat 2 (heuristic) is invited to the offense, with a token already on planet 5 or not."""
    pos = Pos(3, aliens=["Filch", "Laser", "Grief"], policies=("heuristic", "scripted", "heuristic"))
    pos.set_tokens(5, 1, 1).hand(0, "A10").hand(1, "A6").destiny("reg1")
    for k in range(1, 5):
        pos.set_tokens(5 + k, 1, 4)
    if seat2_on_target:
        pos.set_tokens(5, 2, 1)
    return weight(pos, 2, "ally_appetite", appetite)


def test_an_ally_declines_when_winning_gives_it_nothing(Pos):
    pos = invited_to_attack(Pos, seat2_on_target=True)
    pos.turn()
    assert allies(pos) == []  # the old heuristic joined the offense, ahead in tokens, and risked them
    assert pos.tokens(10, 2) == 4 and pos.tokens(5, 2) == 1


def test_ally_appetite_is_the_gain_an_alliance_must_exceed(Pos):
    joins = invited_to_attack(Pos, seat2_on_target=False)
    joins.turn()
    (seat, side, count), = allies(joins)
    assert (seat, side) == (2, ANSWER_OFFENSE) and joins.tokens(5, 2) == count  # it landed
    declines = invited_to_attack(Pos, seat2_on_target=False, appetite=4)  # a base is worth 4 at most
    declines.turn()
    assert allies(declines) == [] and declines.tokens(10, 2) == 4
