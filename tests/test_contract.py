"""The game contract, checked for every registered game: what the next game must also satisfy."""
import pickle
import re
from pathlib import Path

import numpy as np
import pytest

import analyzer
from analyzer import games, results
from analyzer.games.base import Game, view_redeals
from analyzer.kernel import BATCH_COLUMNS, SHARED_POLICIES

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


DECLARED = [name for name in games.names() if hasattr(games.get(name), "COLUMNS")]


@pytest.mark.parametrize("name", DECLARED)
def test_every_column_has_the_shape_and_type_its_declaration_gives(name):
    game = games.get(name)
    cols = game.COLUMNS
    sc = analyzer.load_scenario(game)
    n, P = 4, sc.players
    batch = game.run_batch(sc, 3, np.arange(n, dtype=np.int64))
    assert "length" in cols.game and {"score", "is_winner"} <= set(cols.seat)
    expected = {**{k: ((n,), cols.dtype) for k in cols.game}, **{k: ((n, P), cols.dtype) for k in cols.seat},
                **{k: ((n, P, c.k(sc)) if c.per_seat else (n, c.k(sc)), c.dtype) for k, c in cols.kinds.items()}}
    got = {**batch.extra, "score": batch.score, "length": batch.length}
    assert list(batch.extra) == [k for k in expected if k not in BATCH_COLUMNS]  # declaration order
    for k, values in got.items():
        assert (values.shape, values.dtype) == (expected[k][0], np.dtype(expected[k][1])), k
    assert batch.is_winner.dtype == bool and batch.is_winner.shape == (n, P)
    assert batch.first_player.shape == (n,) and ((0 <= batch.first_player) & (batch.first_player < P)).all()


def test_policies_start_with_the_shared_random_and_scripted(game):
    assert game.Scenario.POLICIES[:2] == SHARED_POLICIES
    sc = analyzer.load_scenario(game, policy=["scripted"] + [game.playing_policies[-1]] * (game.Scenario.MIN_PLAYERS - 1),
                                players=game.Scenario.MIN_PLAYERS)
    assert sc.policy_codes()[0] == 1 and sc.policy_codes()[1] == game.Scenario.POLICIES.index(game.playing_policies[-1])


def test_the_script_drives_the_decisions(game):
    """Every seat scripted: always the first option and always the second play different games."""
    def trace(script):
        sc = analyzer.load_scenario(game, set=[f"script={script}"], policy="scripted")
        return [game.run_batch(sc, 5, np.array([gid], np.int64), trace=True).events for gid in range(3)]
    firsts, seconds = trace([0] * 500), trace([1] * 500)
    assert any(a.shape != b.shape or (a != b).any() for a, b in zip(firsts, seconds, strict=True))


def test_every_trace_event_decodes(game):
    for gid in range(3):
        r = analyzer.replay(game, 2, gid)
        assert r.lines and all(isinstance(line, str) and line for line in r.lines)


FRAMEWORK_RUN = [name for name in games.names() if type(games.get(name)).run_batch is Game.run_batch]


@pytest.mark.parametrize("name", FRAMEWORK_RUN)
def test_a_trace_past_its_cap_says_so_in_the_replay(name, monkeypatch):
    game = games.get(name)
    full = analyzer.replay(game, 2, 0)
    monkeypatch.setattr(game, "TRACE_CAP", 5)
    batch = game.run_batch(analyzer.load_scenario(game), 2, np.zeros(1, np.int64), trace=True)
    assert len(batch.events) == 5 and batch.events_dropped > 0
    cut = analyzer.replay(game, 2, 0)
    assert cut.lines[-1] == f"(trace incomplete: {batch.events_dropped:,} more records past the trace cap were not kept)"
    assert cut.lines[0] == full.lines[0] and cut.row == full.row  # the same game, only its trace cut


def test_game_object_pickles_for_workers(game):
    assert pickle.loads(pickle.dumps(game)).name == game.name


def test_rows_do_not_depend_on_chunking(game):
    sc = analyzer.load_scenario(game)
    ids = np.arange(40, dtype=np.int64)
    whole = results.to_frame(game.run_batch(sc, 4, ids), ids, 4, sc)
    parts = [results.to_frame(game.run_batch(sc, 4, ids[a:b]), ids[a:b], 4, sc) for a, b in ((0, 13), (13, 40))]
    assert whole.equals(parts[0].vstack(parts[1]))


def test_the_same_games_play_the_same_twice_in_one_process(game):
    # a kernel reading freed or uninitialised memory (a borrowed view outliving its owner: Cosmic's scratch
    # arrays once) plays differently from call to call; 600 games of mixed policies give it room to show
    sc = analyzer.load_scenario(game, policy=[p for p in game.playing_policies][-1:])
    ids = np.arange(600, dtype=np.int64)
    runs = [results.to_frame(game.run_batch(sc, 3, ids), ids, 3, sc) for _ in range(3)]
    assert runs[0].equals(runs[1]) and runs[1].equals(runs[2])


VIEW_SEEDS = range(4)


def _redealt(game, policy: str) -> tuple[bool, bool]:
    """(hidden information changed at every seed, decisions unchanged at every seed) for `policy` in every seat."""
    checks = view_redeals(game.views(), analyzer.load_scenario(game, policy=policy), VIEW_SEEDS, np.random.default_rng(0))
    return all(moved for moved, _ in checks), not any(changed for _, changed in checks)


def test_no_decision_depends_on_what_its_seat_cannot_see(game):
    """Policies decide from their player's view: re-dealing the hidden information leaves every decision of
    every policy as it was. A policy the game leaves unchecked (random, drawing from the stream it re-deals)
    must change: the re-deal reaches what decisions read, so the check can fail."""
    assert game.views() is not None, f"{game.name}: no analyzer/games/{game.name}/views.py (Game.views)"
    unchecked = game.views().UNCHECKED
    assert set(unchecked) <= set(game.playing_policies)
    for policy in game.playing_policies:
        moved, kept = _redealt(game, policy)
        assert moved, f"{game.name}: views.redeal changed nothing hidden"
        assert kept != (policy in unchecked), (f"{game.name}: {policy}'s decisions changed when what its seat cannot "
                                               "see was re-dealt" if policy not in unchecked else
                                               f"{game.name}: {policy} is unchecked ({unchecked[policy]}) but never moved")


def test_the_view_check_catches_a_policy_that_reads_the_hidden_future(monkeypatch):
    """Pig's hold_at made to peek at the die stream (the next roll) fails the check above."""
    from analyzer import rng
    from analyzer.games.pig import policies

    real = policies.decide

    def peeking(code, view, options, n, stream, *rest):
        if code == policies.HOLD_AT:
            return int(rng.below(stream, 6) < 3)  # rolls on while the next die is low
        return real(code, view, options, n, stream, *rest)
    monkeypatch.setattr(policies, "decide", peeking)
    assert _redealt(games.get("pig"), "hold_at") == (True, False)


# the rules' side of a game: everything but its policies, its view check, its measures and its report
POLICY_SIDE = {"policies.py", "views.py", "measures.py", "report.py", "__init__.py"}
SEAT_INTERFACE = {"decide"}  # what an engine calls on a seat's policy (numba needs it at compile time)


def test_the_rules_take_only_the_seat_interface_from_the_policies(game):
    """Policies import the rules, never the other way round: a rules module imports at most `decide` from
    its policies, never a constant or a view builder."""
    import ast
    import importlib

    folder = Path(importlib.import_module(type(game).__module__).__file__).parent
    for path in sorted(folder.glob("*.py")):
        if path.name in POLICY_SIDE:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module == "policies" and node.level == 1:
                names = {a.name for a in node.names}
                assert names <= SEAT_INTERFACE, f"{path.name} imports {sorted(names - SEAT_INTERFACE)} from policies.py"
            elif isinstance(node, ast.ImportFrom) and node.level == 1 and node.module is None:
                assert "policies" not in {a.name for a in node.names}, f"{path.name} imports the policies module"
