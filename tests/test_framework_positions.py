"""Position verdicts separate position from policy: a weak policy fixed in one position must never
read as a cursed position, and a mixed-policy run whose first player varies still gets its verdict."""
import numpy as np
import polars as pl

import analyzer
from analyzer import positions


def _frame(policies, first, winners) -> pl.DataFrame:
    """A results table with only the columns the position verdict reads."""
    seats = len(policies)
    is_winner = np.zeros((len(first), seats), bool)
    is_winner[np.arange(len(first)), winners] = True
    return pl.DataFrame({"n_players": [seats] * len(first), "first_player": first,
                         "policy": [list(policies)] * len(first), "is_winner": is_winner.tolist()})


def test_a_weak_policy_in_a_fixed_seat_draws_no_position_verdict():
    # seat 0 always moves first and seat 1 (random) never wins: position 2 wins 0% of 1,000 games
    rng = np.random.default_rng(1)
    df = _frame(["greedy", "random", "greedy"], [0] * 1000, rng.choice([0, 2], 1000))
    s = positions.Summary.of(df)
    assert s.test.p_value < positions.ALPHA  # the naive test would blame position 2
    assert s.differ is None and "position 2 is held by random in 100% of games" in s.confounded
    assert "No position verdict" in s.sentence() and "differ more than chance" not in s.sentence()
    assert s.policy_win["random"].value == 0 and s.policy_win["random"].n == 1000
    assert s.policies["random"][1].n == 1000 and s.policies["random"][0].n == 0


def test_mixed_policies_with_a_random_first_player_keep_the_position_verdict():
    # the first player is drawn per game, and position 1 always wins, whatever its policy
    rng = np.random.default_rng(2)
    first = rng.integers(0, 3, 3000)
    df = _frame(["greedy", "random", "greedy"], first, first)
    s = positions.Summary.of(df)
    assert s.confounded == "" and s.differ is True
    assert "differ more than chance" in s.sentence() and "cut-off" in s.sentence()
    assert s.policies["random"][0].value == 1.0 and s.policies["random"][1].value == 0.0
    assert abs(s.policy_win["random"].value - 1 / 3) < 0.05


def test_uniform_policies_need_no_separation():
    df = _frame(["greedy"] * 2, [0] * 400, [0] * 200 + [1] * 200)
    s = positions.Summary.of(df)
    assert s.confounded == "" and s.differ is False and s.policies == {}
    assert "No evidence that the positions differ (p=1 ≥ the 1% cut-off" in s.verdict()


def test_stop_report_with_a_random_seat_blames_no_position(tmp_path, monkeypatch):
    # the README's example with seat 0 always dealing first (first_dealer: seat0): position 2 is the random seat
    monkeypatch.setenv("ANALYZER_COMPARE_N", "100")
    df = analyzer.sim("stop", n=400, seed=7, players=5, policy=["greedy", "random", "greedy", "greedy", "greedy"],
                      set={"rules.first_dealer": "seat0"})
    s = positions.Summary.of(df)
    assert s.test.p_value < positions.ALPHA and s.differ is None
    md = analyzer.report("stop", df, out=tmp_path / "rep").read_text()
    headline = md.split("## Headline answers", 1)[1].split("## ", 1)[0]
    assert "No position verdict: position 2 is held by random in 100% of games" in headline
    assert "differ more than chance" not in md


def test_mixed_settings_get_a_table_per_policy_and_uniform_ones_none(tmp_path):
    from analyzer.reporting import Report
    rng = np.random.default_rng(3)
    first = rng.integers(0, 3, 600)
    mixed = positions.Summary.of(_frame(["greedy", "random", "greedy"], first, first))
    uniform = positions.Summary.of(_frame(["greedy"] * 3, first, first))
    rep = Report("R", {"scenario": {}}, 600)
    positions.policy_table(rep, {"greedy (all)": uniform})
    assert rep.blocks == []
    positions.policy_table(rep, {"greedy (all)": uniform, "this run (greedy, random, greedy)": mixed})
    table = rep.blocks[-1]
    assert table.headers == ["policies", "policy", "all positions", "position 1", "position 2", "position 3"]
    assert [r[:2] for r in table.rows] == [["this run (greedy, random, greedy)", "greedy"],
                                           ["this run (greedy, random, greedy)", "random"]]
    assert table.rows[1][3].startswith("100.0%") and table.rows[1][4].startswith("0.0%")
