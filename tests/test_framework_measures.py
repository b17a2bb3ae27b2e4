"""Every game's balance measures: the groups a `balance:` block may name are the groups it measures, and
faction rates account for every win."""
import numpy as np
import pytest

import analyzer
from analyzer import games
from analyzer.results import matrix


@pytest.mark.parametrize("name", games.names())
def test_measures_cover_the_declared_groups_and_every_win(name):
    g = games.get(name)
    sc = analyzer.load_scenario(g)
    df = analyzer.sim(g, n=40, seed=5, scenario=sc)
    ms = g.measures(df, sc)
    assert {m.group for m in ms} == set(g.measure_groups())
    assert all(m.n == 40 for m in ms)
    positions = [m for m in ms if m.group == "position_win_rate"]
    assert len(positions) == sc.players
    wins = matrix(df, "is_winner").astype(bool).sum()
    assert sum(m.num.sum() for m in positions) == wins  # each win counted at the winner's position once
    factions = [m for m in ms if m.group == "faction_win_rate"]
    if factions and name != "mlem":  # MLEM's types overlap: a seat places several
        assert sum(m.num.sum() for m in factions) == wins and sum(m.den.sum() for m in factions) == 40 * sc.players
    assert np.isfinite([m.value for m in ms if m.den.sum()]).all()


@pytest.mark.parametrize("name", games.names())
def test_every_default_scenario_ships_a_tune_block_the_tuner_can_play(name):
    from analyzer import tune
    g = games.get(name)
    sc = analyzer.load_scenario(g)
    assert sc.tune and sc.balance  # every default scenario ships both
    points = tune.candidates(sc, sc.tune, 3, seed=0)
    assert len(points) == 3 and all(k in p for p in points for k in sc.tune)
    res = tune.successive_halving(g, sc, points, "position-fairness", n=12, seed=1)
    assert res.best in points and res.games == 3 * 12 + 2 * 24
