"""Balance measures, paired differences with Holm's correction, and the bounds `check` decides."""
import numpy as np
import pytest

from analyzer import balance
from analyzer.measures import Measure, difference, holm, per_game


def rate(group, label, wins):
    return per_game(group, label, wins, pct=True)


def test_holm_matches_the_step_down_by_hand():
    # sorted p 0.01, 0.02, 0.04 get factors 3, 2, 1, then a running maximum
    assert holm([0.04, 0.01, 0.02]) == pytest.approx([0.04, 0.03, 0.04])
    assert holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])  # 2 x 0.5 caps at 1, and the maximum carries on


def test_paired_difference_sees_what_unpaired_cannot():
    rng = np.random.default_rng(0)
    luck = rng.normal(0, 10, 2000)  # shared by both runs of a game: common random numbers
    a, b = per_game("length", "length", 20 + luck), per_game("length", "length", 20.3 + luck)
    paired, unpaired = difference(a, b, paired=True), difference(a, b, paired=False)
    assert paired.diff.value == pytest.approx(0.3)
    assert paired.diff.hi - paired.diff.lo < 1e-9 and paired.p == 0.0
    assert unpaired.diff.lo < 0 < unpaired.diff.hi and unpaired.p > 0.3
    same = difference(a, a, paired=True)
    assert same.diff.value == 0 and same.p == 1.0


def test_faction_rate_is_wins_over_seats_dealt():
    m = Measure("faction_win_rate", "faction X", np.array([1.0, 0, 2]), np.array([1.0, 2, 2]), pct=True)
    assert m.value == pytest.approx(3 / 5)
    e = m.estimate()
    assert e.lo < 0.6 < e.hi and e.n == 3


def test_malformed_bounds_are_one_line_errors_naming_the_field():
    groups = {"position_win_rate": "", "length": ""}
    for block, text in [({"faction_win_rate": {"max": 1}}, "balance.faction_win_rate: toy has no measure"),
                        ({"length": {"max_spread": 1}}, "balance.length.max_spread: unknown bound"),
                        ({"length": {"min": "ten"}}, "balance.length.min: expected a number"),
                        ({"length": {"min": 30, "max": 20}}, "balance.length: min 30 is above max 20"),
                        ({"length": 25}, "balance.length: expected a mapping"),
                        ({"position_win_rate": {"max_spread": -0.1}}, "must be at least 0")]:
        with pytest.raises(ValueError, match=text):
            balance.check_block(block, groups, "toy")
    balance.check_block({"position_win_rate": {"max_spread": 0.05, "min": 0.2}, "length": {"min": 1}}, groups, "toy")


def two_positions(p_first: float, n: int, seed: int = 0):
    first = np.random.default_rng(seed).random(n) < p_first
    return [rate("position_win_rate", "position 1", first), rate("position_win_rate", "position 2", ~first)]


def test_bounds_pass_fail_or_stay_undecided():
    ms = two_positions(0.6, 20_000) + [per_game("length", "length", np.full(20_000, 12.0))]
    spread = balance.decide({"position_win_rate": {"max_spread": 0.1}}, ms)[0]
    assert spread.state == balance.FAIL and spread.lo > 0.1 and spread.value == pytest.approx(0.2, abs=0.02)
    assert balance.decide({"position_win_rate": {"max_spread": 0.3}}, ms)[0].state == balance.PASS
    near = balance.decide({"position_win_rate": {"max_spread": 0.2}}, two_positions(0.6, 2000))[0]
    assert near.state == balance.UNDECIDED
    dev = balance.decide({"position_win_rate": {"max_deviation": 0.05}}, ms)[0]
    assert dev.state == balance.FAIL and dev.value == pytest.approx(0.1, abs=0.01)
    assert balance.exit_code([spread, near]) == 1 and balance.exit_code([near]) == 3
    assert balance.exit_code(balance.decide({"length": {"max": 13}}, ms)) == 0


def test_looks_double_up_to_the_maximum():
    assert balance.looks(2000, 10_000) == [2000, 4000, 8000, 10_000]
    assert balance.looks(500, 500) == [500]


def test_spending_alpha_over_the_looks_keeps_the_error_rate_that_repeated_fixed_tests_break():
    """A rate exactly at its bound (true spread 0 against max_spread 0): a FAIL is an error. Peeking with
    a fixed-n 95% interval after every chunk errs far more often than the rule `check` uses."""
    reps, sizes = 4000, balance.looks(250, 16_000)
    rng = np.random.default_rng(1)
    wins = rng.random((reps, sizes[-1])) < 0.5
    naive = spent = 0
    for r in range(reps):
        ms = [rate("position_win_rate", "position 1", wins[r]), rate("position_win_rate", "position 2", ~wins[r])]
        looks = [[per_game(m.group, m.label, m.num[:k], True) for m in ms] for k in sizes]
        block = {"position_win_rate": {"max": 0.5}}
        naive += any(balance.decide(block, seen)[0].state == balance.FAIL for seen in looks)
        spent += any(balance.decide(block, seen, balance.ALPHA / len(sizes))[0].state == balance.FAIL for seen in looks)
    # one-sided errors of a two-sided 5% interval: 2.5% at one look; peeking at 7 looks inflates it
    assert naive / reps > 0.05
    assert spent / reps < 0.025
