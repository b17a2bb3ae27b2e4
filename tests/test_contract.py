"""The game contract, checked for every registered game: what the next game must also satisfy."""
import pickle
import re
from pathlib import Path

import numpy as np
import pytest

import analyzer
from analyzer import games, results

TESTS = Path(__file__).parent


@pytest.fixture(scope="module", params=games.names())
def game(request):
    return games.get(request.param)


def test_default_scenario_validates_and_warms_up(game):
    sc = analyzer.load_scenario(game)
    assert sc.players >= game.Scenario.MIN_PLAYERS and sc.seat_policies()
    game.warm_up(sc)


def test_columns_are_what_the_kernel_returns(game):
    sc = analyzer.load_scenario(game)
    batch = game.run_batch(sc, 1, np.arange(5, dtype=np.int64))
    assert set(batch.extra) == set(game.columns)
    assert batch.is_winner.shape == batch.score.shape == (5, sc.players) and batch.length.shape == (5,)
    for name, values in batch.extra.items():
        shape = re.match(r"\((n(?:,\w+){0,2}),?\)", game.columns[name])
        assert shape, f"{name}: its description must start with its shape: (n,), (n,P), (n,P,K) or (n,K)"
        assert values.shape[0] == 5 and values.ndim == len(shape.group(1).split(",")), name


def test_every_trace_event_decodes(game):
    for gid in range(3):
        r = analyzer.replay(game, 2, gid)
        assert r.lines and all(isinstance(line, str) and line for line in r.lines)


def test_game_object_pickles_for_workers(game):
    assert pickle.loads(pickle.dumps(game)).name == game.name


def test_rows_do_not_depend_on_chunking(game):
    sc = analyzer.load_scenario(game)
    ids = np.arange(40, dtype=np.int64)
    whole = results.to_frame(game.run_batch(sc, 4, ids), ids, 4, sc)
    parts = [results.to_frame(game.run_batch(sc, 4, ids[a:b]), ids[a:b], 4, sc) for a, b in ((0, 13), (13, 40))]
    assert whole.equals(parts[0].vstack(parts[1]))


def test_the_game_has_a_view_test(game):
    """Policies decide from their player's view; each game proves it by re-dealing hidden information."""
    sources = "".join(p.read_text() for p in TESTS.glob(f"test_{game.name}_*.py"))
    assert re.search(r"def test_\w*view\w*\(", sources), f"{game.name}: no view test in tests/test_{game.name}_*.py"
