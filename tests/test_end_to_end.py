"""Whole-pipeline checks with the real games: CLI process, worker-count independence, replay against
the parquet row, reports on disk, and the notebook API writing nothing unless asked."""
import os
import subprocess
import sys

import duckdb
import pandas as pd
import polars as pl
import pytest

import analyzer
from analyzer import games


@pytest.fixture(scope="module")
def stop_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("stop") / "stop.parquet"
    cmd = [sys.executable, "-m", "analyzer", "sim", "stop", "--n", "3e3", "--seed", "7", "--jobs", "2",
           "--chunk", "400", "--out", str(out)]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    assert "3,000 games" in r.stdout and "win rate by position" in r.stdout
    return out


def test_jobs_do_not_change_stop_rows(stop_run):
    one = analyzer.sim("stop", n=3000, seed=7, jobs=1)
    assert pl.read_parquet(stop_run).equals(one)


def test_parquet_reads_unchanged_in_pandas_and_duckdb(stop_run):
    df = pl.read_parquet(stop_run)
    pdf = pd.read_parquet(stop_run)
    assert len(pdf) == df.height and list(pdf["score"].iloc[42]) == df["score"][42].to_list()
    total = duckdb.sql(f"select sum(length) from '{stop_run}'").fetchall()[0][0]
    assert total == df["length"].sum()


@pytest.mark.parametrize("game_id", [0, 1234, 2999])
def test_replay_final_scores_equal_the_parquet_row(stop_run, game_id, capsys):
    from analyzer import cli
    assert cli.main(["replay", "stop", "--from", str(stop_run), "--game", str(game_id)]) == 0
    text = capsys.readouterr().out
    row = pl.read_parquet(stop_run).filter(pl.col("game_id") == game_id).row(0, named=True)
    # the last "holds" line of each seat carries its running total = the match score
    totals = {}
    for line in text.splitlines():
        if " holds " in line and "(total " in line:
            seat = int(line.split()[1])
            totals[seat] = int(line.rsplit("(total ", 1)[1].rstrip(")"))
    assert [totals[s] for s in range(4)] == row["score"]
    assert f"after {row['length']} hands" in text


def test_api_replay_row_matches(stop_run):
    r = analyzer.replay("stop", seed=7, game_id=77)
    assert r.row == pl.read_parquet(stop_run).filter(pl.col("game_id") == 77).row(0, named=True)


def test_notebook_api_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    df = analyzer.sim("stop", n=300, seed=7, set={"rules.play_drawn_card": True})
    assert df.height == 300 and list(tmp_path.iterdir()) == []
    base = analyzer.sim("stop", n=300, seed=7)
    assert not df["score"].equals(base["score"])  # the rule change reached the kernel


def test_stop_report_on_disk(stop_run, tmp_path):
    index = analyzer.report("stop", stop_run, out=tmp_path / "rep", compare_n=200)
    md = index.read_text()
    for title in ("Win rate by position", "Scoring spread", "Match length", "By player count", "Effect of rule parameters"):
        assert f"## {title}" in md
    assert "(n=3,000)" in md and (tmp_path / "rep" / "index.html").exists()
    assert len(list((tmp_path / "rep").glob("*.png"))) >= 5


def test_games_listing_and_describe(capsys):
    from analyzer import cli
    assert cli.main(["games"]) == 0
    listing = capsys.readouterr().out
    assert all(name in listing for name in games.names())
    assert cli.main(["games", "--describe", "stop"]) == 0
    text = capsys.readouterr().out
    assert "first_hand_penalty" in text and "rules.play_drawn_card" in text


def test_every_shipped_scenario_validates(capsys):
    from analyzer import cli
    files = [str(p) for name in games.names() for p in games.get(name).scenario_files()]
    assert len(files) >= 3
    assert cli.main(["validate", *files]) == 0, capsys.readouterr().err
    assert os.path.exists(files[0])


def test_spacebase_tune_block_and_sweep_cli(capsys):
    from analyzer import cli, tune
    g = games.get("spacebase")
    sc = analyzer.load_scenario(g)
    assert "rules.turn_order_bonus.0.credits" not in sc.tune  # the start player's bonus is the reference
    points = tune.candidates(sc, sc.tune, 32, seed=0)
    assert points[0]["rules.turn_order_bonus.1.credits"] == 1  # the printed bonus is always a candidate
    assert points[0]["rules.turn_order_bonus.3.income"] == 1 and len(points) == 32
    code = cli.main(["sweep", "spacebase", "--param", "rules.turn_order_bonus.1.credits", "--values", "0,4",
                     "--n", "400", "--players", "2", "--jobs", "1"])
    out = capsys.readouterr().out
    assert code == 0 and "position 2 win %" in out and "n=400 games per value" in out


def test_spacebase_report_on_disk(tmp_path):
    res = tmp_path / "sb.parquet"
    analyzer.sim("spacebase", n=300, seed=2, players=3, out=res)
    md = analyzer.report("spacebase", res, out=tmp_path / "rep", compare_n=150).read_text()
    for title in ("Win rate and VP by turn position", "Printed bonus against no bonus", "Sweep: credit bonus",
                  "Proposed turn-order bonus", "Game length", "Value of each ship", "Light-speed variant"):
        assert f"## {title}" in md
    assert "Estimated data (not the published game): 13 items" in md
    # a proposal only when the search's best differs from the scenario's own bonus and is confirmed on fresh games
    proposed = md.split("## Proposed turn-order bonus")[1].split("\n## ")[0]
    assert "Nothing better was found" in proposed and "**Proposal" not in proposed
