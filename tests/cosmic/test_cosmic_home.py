"""Where returning tokens go (home_tokens_split, home_without_base) and whether the loss that costs a power
is still under it (power_loss_timing): each reading driven through the game's own turn on a built position
(conftest.Position), at its boundary."""
import pytest

from analyzer.games.cosmic.context import E_HOME, E_NO_BASE, E_WARP

# a 3-player attack that seat 2 defends beside seat 1: cone 1 token at planet 5, the offense does not invite
# seat 2, the defense does, seat 2 answers for the defense and commits 2 tokens; A1 + 1 loses to A10 + 4
DEFEND_BESIDE = [0, 0, 0, 1, 1, 1]


@pytest.mark.parametrize("split,homes", [("free", [(2, 1, 11, 0), (2, 1, 10, 0)]), ("together", [(2, 2, 11, 0)])])
def test_each_token_going_home_picks_its_own_base(Pos, split, homes):
    pos = Pos(3, home_tokens_split=split).hand(0, "A1").hand(1, "A10").destiny("reg1").deck("R3", "R3")
    pos.set_tokens(10, 2, 4).set_tokens(11, 2, 1)
    # both tokens come off planet 10; going home the first picks planet 11 (option 1), the second planet 10
    pos.turn(script=[*DEFEND_BESIDE, 0, 0, 1, 0])
    assert pos.events(E_HOME) == homes
    assert pos.tokens(10, 2) + pos.tokens(11, 2) == 5 and pos.held(2) == 2


@pytest.mark.parametrize("reading", ["warp", "home_planet"])
def test_tokens_with_no_base_to_return_to(Pos, reading):
    """Seat 2 commits both tokens of its last base: the defense wins and they have nowhere to go. Under warp
    they go to the Warp, and with no base it cannot take a Warp token as its reward (cards only); under
    home_planet they land on a home planet it picks (planet 13), and the reward may free its Warp token."""
    pos = Pos(3, home_without_base=reading).hand(0, "A1").hand(1, "A10").destiny("reg1").deck("R3", "R3")
    pos.set_tokens(10, 2, 2).warp(2, 1)
    pos.turn(script=[*DEFEND_BESIDE, 3, 1])
    if reading == "warp":
        assert pos.events(E_NO_BASE) == [(2, 2, 0, 0)] and pos.warp(2) == 3 and pos.held(2) == 2
        assert sum(pos.tokens(pl, 2) for pl in range(20)) == 0
    else:
        assert pos.events(E_NO_BASE) == [] and pos.tokens(13, 2) == 3 and pos.warp(2) == 0 and pos.held(2) == 1


@pytest.mark.parametrize("timing,home_bases,to_warp", [("after_loss", (1, 2), 0), ("immediate", (1, 2), 4),
                                                       ("after_loss", (1,), 4), ("immediate", (1,), 4)])
def test_the_defeat_that_costs_zombie_its_third_home_base_is_still_under_its_power(duel, home3, timing, home_bases,
                                                                                   to_warp):
    """Zombie defends planet 5, one of exactly three home bases, and loses: under after_loss its 4 tokens there
    still go home (the loss is judged as it begins); under immediate the power is gone as they leave. With
    only two home bases the power was off before: the Warp either way."""
    pos = home3(duel(["Filch", "Zombie"], ["A20"], ["A1"], power_loss_timing=timing), 1, planets=home_bases)
    pos.turn(script=[0, 0])  # one token on the cone, aimed at planet 5
    assert pos.tokens(5, 0) == 1 and pos.tokens(5, 1) == 0
    assert pos.warp(1) == to_warp
    assert sum(n for _, n, *_ in pos.events(E_HOME)) == 4 - to_warp
    assert pos.field("keeps")[1] == 0  # the power it held through the loss ends with it


@pytest.mark.parametrize("timing,to_warp", [("after_loss", 0), ("immediate", 3)])
def test_a_failed_deal_that_costs_zombie_its_power_is_still_under_it(duel, home3, timing, to_warp):
    """Zombie (defense, three home bases: planets 5, 6, 7) pays the failed deal's 3 tokens from planets 6 and 7
    and then 5: down to one home base. Under after_loss the 3 tokens go home, under immediate to the Warp."""
    pos = home3(duel(["Filch", "Zombie"], ["C"], ["C"], power_loss_timing=timing), 1)
    pos.turn(script=[0, 0, 0, 1, 1])  # cone 1 at planet 5, no offer; Zombie pays from planet 6, then 7, then 5
    assert pos.warp(0) == 3
    assert pos.tokens(6, 1) == 0 and pos.tokens(7, 1) == 0
    assert pos.warp(1) == to_warp and [e for e in pos.events(E_WARP) if e[0] == 1] == ([(1, 3, 0, 0)] if to_warp else [])


@pytest.mark.parametrize("timing,in_warp", [("after_loss", 0), ("immediate", 2)])
def test_a_plague_that_costs_zombie_its_power_is_still_under_it(duel, home3, timing, in_warp):
    """Zombie (offense, home bases 0, 1, 2) is plagued and pays from planets 1, 2 and 0: one home base left.
    Under after_loss the 3 tokens go home (nothing to regroup); under immediate they reach the Warp (one comes
    back at the regroup). The power is off afterwards either way."""
    pos = home3(duel(["Zombie", "Warpish"], ["A10"], ["A1", "E:plague"], power_loss_timing=timing), 0)
    pos.turn(script=[1, 1, 1, 0, 0])  # the defense plagues seat 0; it pays from planet 1, then 2; cone 1 at 5
    assert pos.tokens(1, 0) == 0 and pos.tokens(2, 0) == 0
    assert pos.warp(0) == in_warp and pos.tokens(5, 0) == 1
    assert pos.field("keeps")[0] == 0


@pytest.mark.parametrize("timing,to_warp", [("after_loss", 0), ("immediate", 4)])
def test_loser_wild_flare_that_costs_zombie_its_power_is_still_under_it(duel, home3, timing, to_warp):
    """Loser's wild flare sends every token in the challenge to the Warp, Zombie's 4 on planet 5 (one of exactly
    three home bases) included: under after_loss they go home, under immediate to the Warp."""
    pos = home3(duel(["Filch", "Zombie"], ["A10", "F:Loser"], ["A20"], power_loss_timing=timing), 1)
    pos.turn(script=[0, 0, 1])  # one token on the cone at planet 5; the offense plays the flare
    assert pos.warp(0) == 1 and pos.tokens(5, 1) == 0 and pos.warp(1) == to_warp
