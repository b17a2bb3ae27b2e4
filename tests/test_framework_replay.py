"""Replay carries its run: from a row of a sim() table or from a results file, the scenario (rule
changes included) and seed come with it; every replay starts with who is who."""
import re

import polars as pl
import pytest

import analyzer
from analyzer import cli, games, simulation
from analyzer.errors import UserError


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch):
    monkeypatch.setitem(games._MODULES, "toy", "toygame")


def test_a_row_replays_its_own_run_with_its_rule_change():
    df = analyzer.sim("toy", n=40, seed=5, set={"rules.edge": 4})
    for gid in (0, 23):
        assert analyzer.replay(df[gid]).row == df.row(gid, named=True)
        assert analyzer.replay(df.row(gid, named=True)).row == df.row(gid, named=True)
    # the bug this guards against: the same seed and id without the rule change is another game
    assert analyzer.replay("toy", seed=5, game_id=23).row["score"] != df["score"][23].to_list()
    assert analyzer.replay("toy", seed=5, game_id=23, set={"rules.edge": 4}).row == df.row(23, named=True)


def test_a_results_file_replays_with_its_scenario(tmp_path, monkeypatch):
    out = tmp_path / "t.parquet"
    analyzer.sim("toy", n=30, seed=2, set={"rules.edge": 3, "rules.rolls": 2}, out=out)
    row = pl.read_parquet(out).row(11, named=True)
    assert analyzer.replay(str(out), game_id=11).row == row
    assert analyzer.replay(out, game_id=11).row == row
    assert analyzer.replay("toy", game_id=11, results_file=out).row == row
    monkeypatch.setattr(simulation, "SEEN", {})  # a new session: the run is known only from its file
    with pytest.raises(UserError, match="replay from its results file"):
        analyzer.replay(pl.read_parquet(out)[11])
    df, _ = analyzer.read(out)
    assert analyzer.replay(df[11]).row == row


@pytest.mark.parametrize("call,needle", [
    (lambda df, out: analyzer.replay(df[1:3]), "pass one row of the table (e.g. df[123]), not 2 rows"),
    (lambda df, out: analyzer.replay(df[3], set={"rules.edge": 1}), "the run's own scenario is replayed"),
    (lambda df, out: analyzer.replay(df[3], game_id=4), "game_id=4 but the row is game 3"),
    (lambda df, out: analyzer.replay(pl.read_parquet(out)[3].with_columns(scenario_hash=pl.lit("x"))),
     "replay from its results file"),
    (lambda df, out: analyzer.replay(out, game_id=3, players=2), "the run's own scenario is replayed"),
    (lambda df, out: analyzer.replay(out), "which game? pass game_id="),
])
def test_replays_that_cannot_be_the_run_asked_for_are_refused(tmp_path, call, needle):
    out = tmp_path / "t.parquet"
    df = analyzer.sim("toy", n=10, seed=1, out=out)
    with pytest.raises(UserError, match=re.escape(needle)):
        call(df, out)


def test_cli_replay_from_a_file_refuses_overrides(tmp_path, capsys):
    out = tmp_path / "t.parquet"
    assert cli.main(["sim", "toy", "--n", "10", "--out", str(out), "-q"]) == 0
    capsys.readouterr()
    assert cli.main(["replay", "toy", "--from", str(out), "--game", "1", "--set", "rules.rolls=2"]) == 2
    err = capsys.readouterr().err
    assert f"replay --from {out}: the run's own scenario is replayed" in err and err.count("\n") == 1


def test_every_replay_starts_with_who_is_who():
    sc = analyzer.load_scenario("toy", players=3)
    df = analyzer.sim("toy", n=5, seed=9, scenario=sc)
    r = analyzer.replay(df[2])
    first = df["first_player"][2]
    assert r.lines[:3] == [f"seat {s}: plain" + (", moves first" if s == first else "") for s in range(3)]
    assert r.lines[3].startswith("seat ") and " rolls " in r.lines[3]


def test_cosmic_replay_names_each_seats_alien():
    from analyzer.games.cosmic.state import ALIEN_NAMES
    df = analyzer.sim("cosmic", n=3, seed=11, players=3, policy="heuristic,cautious,random")
    r = analyzer.replay(df[1])
    policies = ["heuristic", "cautious", "random"]
    for s, alien in enumerate(df["faction"][1]):
        assert r.lines[s].startswith(f"seat {s}: {policies[s]}, alien {ALIEN_NAMES[alien]}")
    assert len({line.split("alien ")[1].split(",")[0] for line in r.lines[:3]}) == 3  # distinct aliens


def test_simplecard_replay_names_each_seats_deck():
    sc = analyzer.load_scenario("simplecard")
    df = analyzer.sim("simplecard", n=6, seed=4, scenario=sc)
    for gid in range(6):
        r = analyzer.replay(df[gid])
        decks = [sc.decks[d].name for d in df["faction"][gid]]
        assert [line.split(", deck ")[1].split(",")[0] for line in r.lines[:2]] == decks


def test_replay_plays_a_restricted_seat_and_says_who_plays_how(capsys):
    args = ["replay", "pig", "--game", "3", "--seed", "2", "--set", "weights.hold_at.hold_at=5"]
    assert cli.main([*args, "--restrict", "0:no_early_hold"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("seat 0: hold_at (weights hold_at=5), restricted: no_early_hold")
    assert lines[1].startswith("seat 1: hold_at (weights hold_at=5)") and "restricted" not in lines[1]
    held = [tuple(map(int, m)) for line in lines for m in re.findall(r"^  seat 0 holds (\d+): score (\d+)", line)]
    assert held and all(total >= 20 or score >= 100 for total, score in held)  # under 20 only the winning hold
    assert cli.main(args) == 0
    free = capsys.readouterr().out
    assert re.search(r"seat 0 holds ([5-9]|1\d):", free)  # unrestricted, hold_at 5 holds early
