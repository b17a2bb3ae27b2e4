"""Named variants on common streams, and the sweeps and tuning built on them (with the toy game)."""
import matplotlib.pyplot as plt
import numpy as np
import pytest
from toygame import GAME as TOY

import analyzer
from analyzer import measures, sweep, tune, variants
from analyzer.errors import UserError


def test_every_variant_plays_the_same_games():
    base = analyzer.load_scenario(TOY)
    counted = []
    runs = variants.play(TOY, base, [variants.Variant("plain"), variants.Variant("edge", {"rules.edge": 5})],
                         n=300, seed=4, on_progress=counted.append)
    plain, edge = runs["plain"], runs["edge"]
    assert sum(counted) == 600  # one progress count over both runs
    # same dice in every game: only seat 0's total moves, by exactly the edge
    s0, s1 = np.stack(plain["score"].to_numpy()), np.stack(edge["score"].to_numpy())
    assert np.array_equal(s1[:, 0] - s0[:, 0], np.full(300, 5)) and np.array_equal(s1[:, 1:], s0[:, 1:])
    assert plain.equals(analyzer.sim(TOY, n=300, seed=4))


def test_a_bad_override_fails_before_any_game():
    base = analyzer.load_scenario(TOY)
    played = []
    with pytest.raises(UserError, match="rules.rols: unknown field"):
        variants.play(TOY, base, [variants.Variant("ok"), variants.Variant("bad", {"rules.rols": 2})], 10, 0,
                      on_progress=played.append)
    assert played == []


def test_two_field_sweep_is_a_grid_in_order():
    base = analyzer.load_scenario(TOY)
    rows = sweep.sweep(TOY, base, {"rules.edge": [0, 6], "rules.rolls": [1, 3]}, n=400, seed=1)
    assert [r.values for r in rows] == [{"rules.edge": 0, "rules.rolls": 1}, {"rules.edge": 0, "rules.rolls": 3},
                                        {"rules.edge": 6, "rules.rolls": 1}, {"rules.edge": 6, "rules.rolls": 3}]
    # +6 beats any single die: seat 0 always wins with one roll and an edge of 6
    assert rows[2].position_estimates()[0].value == 1.0
    fig = sweep.heatmap(rows, {"rules.edge": [0, 6], "rules.rolls": [1, 3]})
    assert len(fig.axes[0].texts) == 4  # one labelled cell per grid point
    plt.close(fig)


def test_halving_schedule_halves_the_field_and_doubles_the_games():
    assert tune.schedule(8, 100) == [(8, 100), (4, 200), (2, 400)]
    assert tune.schedule(5, 10) == [(5, 10), (3, 20), (2, 40)]
    assert tune.total_games(8, 100) == 8 * 100 * 3


def test_successive_halving_finds_the_fair_edge():
    base = analyzer.load_scenario(TOY)
    points = [{"rules.edge": e} for e in (4, 2, 0, -2, -4)]
    res = tune.successive_halving(TOY, base, points, "position-fairness", n=1000, seed=3)
    assert res.best == {"rules.edge": 0}
    assert [len(r) for r in res.history] == [5, 3, 2]
    assert res.games == 5 * 1000 + 3 * 2000 + 2 * 4000


def test_candidates_keep_the_scenarios_own_setting_and_sample_a_large_grid():
    base = analyzer.load_scenario(TOY)
    space = {"rules.edge": list(range(-5, 6)), "rules.rolls": [1, 2, 3, 4]}
    pts = tune.candidates(base, space, 10, seed=0)
    assert len(pts) == 10 and pts[0] == {"rules.edge": 0, "rules.rolls": 3} and len({repr(p) for p in pts}) == 10
    assert tune.candidates(base, space, 10, seed=0) == pts  # seeded
    assert len(tune.candidates(base, {"rules.edge": [1, 2]}, 10, 0)) == 3  # own value added to a small grid


def test_tune_targets_measure_what_they_say():
    base = analyzer.load_scenario(TOY)
    df = analyzer.sim(TOY, n=500, seed=0, set={"rules.rolls": 2})
    sc = variants.scenario_of(TOY, base, {"rules.rolls": 2})
    assert tune.objective(TOY, "length", df, sc, goal=5.0) == 3.0  # every toy game lasts `rolls`
    spread = [m for m in measures.common(df) if m.group == "score_spread"][0].value
    assert tune.objective(TOY, "score-spread", df, sc) == spread
    with pytest.raises(UserError, match="has no factions"):
        tune.check_target(TOY, "faction-fairness", None)
    with pytest.raises(UserError, match="--goal"):
        tune.check_target(TOY, "length", None)


def test_a_tuned_setting_is_confirmed_only_when_its_loss_is_significantly_lower():
    base = analyzer.load_scenario(TOY)
    runs = variants.play(TOY, base, [variants.Variant("a"), variants.Variant("b")], 2000, seed=5)
    same = tune.confirm(TOY, "position-fairness", runs["a"], base, runs["b"], base)
    assert same.diff.value == 0 and not same.better  # the same games under the same scenario: no difference at all
    assert same.diff.lo <= 0 <= same.diff.hi and same.given == tune.objective(TOY, "position-fairness", runs["a"], base)
    edge = variants.scenario_of(TOY, base, {"rules.edge": 3})
    skewed = variants.play(TOY, base, [variants.Variant("edge", {"rules.edge": 3})], 2000, seed=5)["edge"]
    better = tune.confirm(TOY, "position-fairness", skewed, edge, runs["a"], base)
    assert better.better and better.diff.hi < 0 and better.best < better.given
    assert tune.set_flags({"rules.edge": 0.3, "rules.names": ["a b", "c"]}) == "--set rules.edge=0.3 --set 'rules.names=[\"a b\", \"c\"]'"
