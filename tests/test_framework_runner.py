"""Runner, seeding and parquet results, exercised with a toy game (no real rules involved)."""
import inspect
import itertools
import json
import os
import re
from pathlib import Path

import duckdb
import numpy as np
import pandas as pd
import polars as pl
import pytest
from toygame import GAME as TOY

import analyzer
from analyzer import compile_cache, games, results, runner
from analyzer.errors import UserError


def test_rows_do_not_depend_on_jobs_chunking_or_backend():
    a = analyzer.sim(TOY, n=3000, seed=11, jobs=1)
    b = analyzer.sim(TOY, n=3000, seed=11, jobs=2, chunk=700)
    c = analyzer.sim(TOY, n=3000, seed=11, jobs=1, chunk=1)
    d = analyzer.sim(TOY, n=3000, seed=11, jobs=2, chunk=700, backend="loky")
    assert a.equals(b) and a.equals(c) and a.equals(d)
    assert a["game_id"].to_list() == list(range(3000))


def test_seed_changes_games_and_game_streams_are_independent():
    a = analyzer.sim(TOY, n=500, seed=1)
    b = analyzer.sim(TOY, n=500, seed=2)
    assert not a["score"].equals(b["score"])
    # a game's stream depends on its own id only: game 7 alone equals game 7 of the run
    one = TOY.run_batch(TOY.Scenario.model_validate(
        {"game": "toy", "players": 3, "policies": ["plain"]}), 1, np.array([7]))
    assert one.score[0].tolist() == a["score"][7].to_list()


def test_common_columns_and_winner_rule():
    df = analyzer.sim(TOY, n=2000, seed=3)
    assert {"game_id", "seed", "scenario_hash", "n_players", "policy", "winner", "is_winner", "score",
            "length", "top"} <= set(df.columns)
    for row in df.head(200).iter_rows(named=True):
        top = max(row["score"])
        assert row["is_winner"] == [s == top for s in row["score"]]
        sole = sum(row["is_winner"]) == 1
        assert row["winner"] == (row["is_winner"].index(True) if sole else -1)
    assert (df["winner"] == -1).sum() > 0  # ties happen with 3 dice and are recorded as shared


def test_parquet_roundtrip_metadata_pandas_duckdb(tmp_path):
    out = tmp_path / "toy.parquet"
    df = analyzer.sim(TOY, n=1500, seed=5, out=out, command="analyzer sim toy")
    back, meta = results.read(out)
    assert back.equals(df)
    assert meta["seed"] == 5 and meta["n"] == 1500 and meta["game"] == "toy"
    assert meta["scenario"]["players"] == 3 and meta["timings"]["games_per_s"] > 0
    assert meta["command"] == "analyzer sim toy"
    pdf = pd.read_parquet(out)
    assert list(pdf["score"].iloc[9]) == df["score"][9].to_list()
    got = duckdb.sql(f"select score from '{out}' where game_id = 9").fetchall()[0][0]
    assert list(got) == df["score"][9].to_list()
    assert not list(tmp_path.glob(".*tmp*")) and not (tmp_path / "toy.parquet.parts").exists()


class _Crash(Exception):
    pass


def test_resume_after_interruption_neither_loses_nor_duplicates(tmp_path):
    out = tmp_path / "r.parquet"
    sc = analyzer.load_scenario(TOY)
    calls = []

    def boom(k):
        calls.append(k)
        if len(calls) == 3:
            raise _Crash  # the run dies after three chunks were written
    with pytest.raises(_Crash):
        runner.run(TOY, sc, 1000, 9, chunk=100, out=out, on_progress=boom)
    parts = tmp_path / "r.parquet.parts"
    assert len(list(parts.glob("part-*.arrow"))) == 3 and not out.exists()
    with pytest.raises(UserError, match="pass resume=True to continue"):
        runner.run(TOY, sc, 1000, 9, chunk=100, out=out)
    with pytest.raises(UserError, match="different run"):
        runner.run(TOY, sc, 1000, 10, chunk=100, out=out, resume=True)
    _, info = runner.run(TOY, sc, 1000, 9, chunk=100, out=out, resume=True)
    assert info.resumed_games == 300
    done = pl.read_parquet(out)
    assert done["game_id"].to_list() == list(range(1000))
    assert done.equals(analyzer.sim(TOY, n=1000, seed=9))
    assert not parts.exists()
    assert json.loads(pl.read_parquet_metadata(out)["analyzer"])["timings"]["resumed_games"] == 300


def test_bad_arguments_are_user_errors(tmp_path):
    with pytest.raises(UserError, match="n=0"):
        analyzer.sim(TOY, n=0)
    with pytest.raises(UserError, match="seed=-1"):
        analyzer.sim(TOY, n=10, seed=-1)
    with pytest.raises(UserError, match="is a directory"):
        analyzer.sim(TOY, n=10, out=tmp_path)
    with pytest.raises(UserError, match="backend"):
        analyzer.sim(TOY, n=10, backend="spark")


def test_dask_backend_gives_the_same_rows():
    # a local in-process cluster stands in for a real one: same code path through joblib's dask backend
    from analyzer.runner import dask_session
    with dask_session(None, 2, processes=False):
        d = analyzer.sim(TOY, n=2000, seed=11, backend="dask", jobs=2, chunk=300)
    assert d.equals(analyzer.sim(TOY, n=2000, seed=11, jobs=1))


def test_pool_submits_chunks_as_workers_free_up(monkeypatch):
    """Memory must not grow with --n: chunks are drawn from a generator a few at a time, so even an
    endless supply of chunks yields results."""
    import itertools
    from concurrent.futures import ThreadPoolExecutor
    monkeypatch.setattr(runner, "_play_chunk", lambda i, *rest: (i, 1, None))
    drawn = []

    def endless():
        for i in itertools.count():
            drawn.append(i)
            yield (i,)

    with ThreadPoolExecutor(2) as pool:
        got = list(itertools.islice(runner._pool_results(pool, endless(), 4), 10))
    assert len(got) == 10 and len(drawn) <= 10 + 4


def test_a_pool_whose_dead_worker_goes_unreported_is_replaced(monkeypatch):
    """loky does not always see a worker die (one killed mid-result leaves its manager waiting for
    the rest of the message): the run's own check must find it, and a new pool play the lost chunk."""
    import threading
    from concurrent.futures import ThreadPoolExecutor
    never = threading.Event()
    first, second = ThreadPoolExecutor(2), ThreadPoolExecutor(2)

    def play(i, *rest):
        if i == 3 and threading.current_thread().name.startswith(first._thread_name_prefix):
            never.wait()  # chunk 3's worker "died": its result never comes
        return i, None

    monkeypatch.setattr(runner, "_play_chunk", play)
    monkeypatch.setattr(runner, "WATCH_S", 0.05)
    stuck = lambda pool: pool is first and len(done) >= 6  # noqa: E731  (every other chunk of pool one is back)
    done: list[int] = []
    worker = threading.Thread(target=lambda: done.extend(
        i for i, _ in runner._pool_results(first, ((i,) for i in range(8)), 3, lambda: second, stuck)), daemon=True)
    worker.start()
    worker.join(timeout=30)
    replaced = not worker.is_alive()  # before chunk 3 is let go, which would end the run without a new pool
    never.set()
    first.shutdown(), second.shutdown()
    assert replaced and sorted(done) == list(range(8))


def test_resumed_games_count_partial_last_chunk(tmp_path):
    out = tmp_path / "r.parquet"
    analyzer.sim(TOY, n=2600, seed=3, chunk=1000, out=out)
    full = pl.read_parquet(out)
    parts = out.with_name(out.name + ".parts")
    parts.mkdir()
    (parts / "manifest.json").write_text(json.dumps(
        {"game": "toy", "scenario_hash": analyzer.load_scenario(TOY).content_hash(), "seed": 3, "n": 2600, "chunk": 1000,
         "bounds": "chunks, then a tail in quarters"}))
    *_, (lo, hi) = runner.chunk_bounds(2600, 1000)
    assert hi - lo == 100  # the last chunk is partial
    last = len(list(runner.chunk_bounds(2600, 1000))) - 1
    full.filter(pl.col("game_id") >= lo).write_ipc(parts / f"part-{last:06d}.arrow")
    info: dict = {}
    again = analyzer.sim(TOY, n=2600, seed=3, chunk=1000, out=out, resume=True, info=info)
    assert info["resumed_games"] == 100 and again.equals(full)


@pytest.mark.parametrize("n,chunk", [(1, 1), (7, 3), (2500, 1000), (10_000, 1000), (10_001, 1000), (100, 1)])
def test_chunks_cover_every_game_once_and_the_tail_is_cut_small(n, chunk):
    bounds = list(runner.chunk_bounds(n, chunk))
    assert bounds[0][0] == 0 and bounds[-1][1] == n
    assert all(hi == lo2 for (_, hi), (lo2, _) in itertools.pairwise(bounds))
    assert all(0 < hi - lo <= chunk for lo, hi in bounds)
    tail = [hi - lo for lo, hi in bounds if lo >= n - 2 * chunk]
    assert max(tail) <= max(1, chunk // 4)


def test_outcome_first_player_and_nested_columns():
    from analyzer.games.base import Batch
    sc = analyzer.load_scenario(TOY)
    wins = np.array([[1, 0, 0], [1, 1, 0], [0, 0, 0]], bool)
    per_kind = np.arange(18, dtype=np.int16).reshape(3, 3, 2)
    batch = Batch(is_winner=wins, score=np.arange(9).reshape(3, 3), length=np.ones(3, np.int16),
                  extra={"kinds": per_kind}, first_player=np.array([0, 2, 1]))
    df = results.to_frame(batch, np.arange(3), 5, sc)
    assert df["outcome"].cast(pl.Utf8).to_list() == ["win", "shared", "draw"]
    assert df["winner"].to_list() == [0, -1, -1]
    assert df["kinds"][1].to_list() == [[6, 7], [8, 9], [10, 11]]
    # position 1 is the first player: game 1 started with seat 2, then seats 0 and 1
    assert results.by_position(df, "score").tolist() == [[0, 1, 2], [5, 3, 4], [7, 8, 6]]


def test_a_warm_cache_is_loaded_by_the_workers_not_the_parent(monkeypatch):
    pig = games.get("pig")
    expected = analyzer.sim(pig, n=4000, seed=1)  # in-process: compiles pig's kernels or loads them
    assert compile_cache.is_warm(Path(inspect.getfile(type(pig))).parent)
    parent_warm_ups = []
    monkeypatch.setattr(type(pig), "warm_up", lambda self, scenario: parent_warm_ups.append(scenario))
    assert analyzer.sim(pig, n=4000, seed=1, jobs=2, chunk=1000, backend="loky").equals(expected)
    assert parent_warm_ups == []  # the parent, which plays nothing, loaded nothing
    # a cold cache is compiled once, by the parent, before any worker plays
    monkeypatch.setattr(compile_cache, "is_warm", lambda folder: False)
    assert analyzer.sim(pig, n=4000, seed=1, jobs=2, chunk=1000, backend="loky").equals(expected)
    assert len(parent_warm_ups) == 1


def test_the_file_is_written_chunk_by_chunk_in_game_id_order(tmp_path):
    """One row group per chunk, encoded while the run goes on (no merge at the end), in game-id order
    although two threads finish chunks in any order."""
    import pyarrow.parquet as pq
    out = tmp_path / "t.parquet"
    sc = analyzer.load_scenario(TOY)
    growing = []

    def look(k):
        tmp = out.with_name(out.name + ".parts") / "results.parquet.tmp"
        growing.append(tmp.stat().st_size if tmp.exists() else 0)
    runner.run(TOY, sc, 5000, 3, jobs=2, chunk=400, out=out, on_progress=look)
    bounds = list(runner.chunk_bounds(5000, 400))
    assert pq.ParquetFile(out).metadata.num_row_groups == len(bounds)
    assert sorted(growing) == growing and growing[-1] > growing[0]  # the file grew during the run
    assert pl.read_parquet(out).equals(analyzer.sim(TOY, n=5000, seed=3))


def test_resume_with_other_jobs_and_of_a_finished_run(tmp_path):
    out = tmp_path / "r.parquet"
    sc = analyzer.load_scenario(TOY)

    seen = []

    def stop_after_two(k):
        seen.append(k)
        if len(seen) == 2:
            raise KeyboardInterrupt
    with pytest.raises(runner.RunInterrupted) as stopped:
        runner.run(TOY, sc, 20_000, 9, jobs=1, out=out, on_progress=stop_after_two)
    assert stopped.value.saved == 2 * runner.default_chunk(20_000, 1) and stopped.value.n == 20_000
    # --jobs 2 would cut other chunks; the journal's chunk size is kept, and the rows are the same
    _, info = runner.run(TOY, sc, 20_000, 9, jobs=2, out=out, resume=True)
    assert info.resumed_games == stopped.value.saved and info.played_games == 20_000 - stopped.value.saved
    assert pl.read_parquet(out).equals(analyzer.sim(TOY, n=20_000, seed=9))
    # resuming what is finished plays nothing and leaves the file alone
    before = out.stat().st_mtime_ns
    _, again = runner.run(TOY, sc, 20_000, 9, jobs=2, out=out, resume=True)
    assert again.complete_already and again.played_games == 0 and out.stat().st_mtime_ns == before


def test_a_full_disk_mid_run_is_one_line_and_the_saved_parts_resume(tmp_path, monkeypatch):
    import errno
    out = tmp_path / "d.parquet"
    sc = analyzer.load_scenario(TOY)
    real, writes = runner.run_store.FileSink._journal, []

    def journal(self, i, frame):
        writes.append(i)
        if len(writes) == 4:
            raise OSError(errno.ENOSPC, "No space left on device")
        real(self, i, frame)
    monkeypatch.setattr(runner.run_store.FileSink, "_journal", journal)
    with pytest.raises(UserError, match=r"No space left on device\); the 300 games saved so far stay in d.parquet.parts: .* resume=True"):
        runner.run(TOY, sc, 1000, 2, chunk=100, out=out)
    assert len(list(out.with_name("d.parquet.parts").glob("part-*.arrow"))) == 3 and not out.exists()
    monkeypatch.setattr(runner.run_store.FileSink, "_journal", real)
    _, info = runner.run(TOY, sc, 1000, 2, chunk=100, out=out, resume=True)
    assert info.resumed_games == 300 and pl.read_parquet(out).equals(analyzer.sim(TOY, n=1000, seed=2))


def test_until_ci_stops_at_the_first_chunk_where_every_interval_is_narrow_enough(tmp_path):
    from analyzer import stopping
    out = tmp_path / "u.parquet"
    df = analyzer.sim(TOY, n=100_000, seed=4, until_ci=0.02, out=out)
    meta = results.read_meta(out)
    rho = stopping.best_rho(0.02)
    # the toy game has no factions: every position has one outcome per game, so the stop is known in advance
    ends = [hi for _, hi in runner.chunk_bounds(100_000, runner.UNTIL_CHUNK)]
    expected = next(hi for hi in ends if stopping.half_width(hi, rho) <= 0.02)
    assert df.height == meta["n"] == expected < 100_000
    assert meta["stopping"]["reached"] and meta["stopping"]["stopped_at"] == expected
    assert meta["stopping"]["widest_half_width"] <= 0.02 < stopping.half_width(expected - runner.UNTIL_CHUNK, rho)
    assert df.equals(analyzer.sim(TOY, n=expected, seed=4, jobs=2))  # the first games of the run, any --jobs
    assert analyzer.sim(TOY, n=100_000, seed=4, until_ci=0.02, jobs=2).equals(df)
    capped = analyzer.sim(TOY, n=3000, seed=4, until_ci=0.02)
    assert capped.height == 3000


def test_the_confidence_sequence_keeps_its_coverage_under_continuous_monitoring():
    """Checked after every single game, the boundary is crossed on at most 5% of paths (a fixed-n 95%
    interval checked this often is crossed on far more)."""
    from analyzer import stopping
    rng = np.random.default_rng(0)
    p, t = 0.3, np.arange(1, 20_001)
    rho = stopping.best_rho(0.02)
    w = stopping.half_width(t, rho)
    crossed = fixed = 0
    for _ in range(400):
        mean = np.cumsum(rng.random(t.size) < p) / t
        crossed += bool((np.abs(mean - p) > w).any())
        fixed += bool((np.abs(mean - p)[100:] > 1.96 * np.sqrt(p * (1 - p) / t[100:])).any())
    assert crossed / 400 <= 0.05 < fixed / 400


def test_until_ci_counts_factions_per_game_they_play():
    from analyzer import stopping
    frame = pl.DataFrame({"first_player": [0, 1, 0], "is_winner": [[True, False], [False, True], [False, False]],
                          "faction": [[0, 1], [1, 0], [2, 2]]})
    rule = stopping.UntilConfident(0.01, 100)
    rule.add(frame)
    assert rule._counts == {"position 1": 3, "position 2": 3, "faction 0": 2, "faction 1": 2, "faction 2": 1}
    assert rule._sums == {"position 1": 2, "position 2": 0, "faction 0": 2, "faction 1": 0, "faction 2": 0}


def test_the_python_api_shows_progress_and_says_when_it_compiles(capsys, caplog, monkeypatch):
    from analyzer import progress
    assert not progress.interactive()  # under pytest stderr is no terminal: a line per stage, logged
    caplog.set_level("INFO", logger="analyzer")
    monkeypatch.setattr(compile_cache, "is_warm", lambda folder: True)  # the kernels are cached
    analyzer.sim(TOY, n=2000, seed=1)
    assert len(caplog.messages) == 1 and re.fullmatch(r"toy: 2,000 games in [\d.]+ s \([\d,]+ games/s\)", caplog.messages[0])
    assert capsys.readouterr().err == ""  # logged, not printed
    caplog.clear()
    analyzer.sim(TOY, n=2000, seed=1, progress=False)
    assert caplog.messages == []
    monkeypatch.setattr(compile_cache, "is_warm", lambda folder: False)  # as on a first run
    monkeypatch.setattr(compile_cache, "expected_seconds", lambda folder: 42)
    monkeypatch.setattr(compile_cache, "record_seconds", lambda folder, s: None)
    analyzer.sim(TOY, n=2000, seed=1)
    said = caplog.messages
    assert said[0] == "compiling toy (once per machine, about 42 s)" and re.fullmatch(r"compiled toy in \d+ s", said[1])
    assert said[2].startswith("toy: 2,000 games in") and len(said) == 3
    seen = []
    analyzer.sim(TOY, n=2000, seed=1, on_compile=seen.append, progress=False)
    assert seen == [True, None]  # compiling, then ready
    df = analyzer.sim(TOY, n=2000, seed=1, progress=True)
    err = capsys.readouterr().err
    assert "2000/2000" in err and "games/s" in err and df.height == 2000


def test_the_compile_message_stays_on_screen_while_the_kernels_compile(monkeypatch):
    """The spinner task exists from the cold start until the kernels are ready, then the bar takes over."""
    from rich.console import Console

    from analyzer import progress
    shown = []
    display = progress.RunProgress("toy", 100, 42, console=Console(file=open(os.devnull, "w")))
    with display:
        display.compiling(True)
        shown.append([t.description for t in display._bar.tasks])
        display.compiling(None)
        display.advance(100)
        shown.append([t.description for t in display._bar.tasks])
    assert shown == [["compiling toy (once per machine, about 42 s)"], ["toy"]]


def test_the_compile_label_says_when_the_machine_is_busy(monkeypatch):
    from analyzer import progress
    monkeypatch.undo()  # conftest's idle machine
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    monkeypatch.setattr(os, "getloadavg", lambda: (6.4, 5.0, 4.0))
    assert progress.busy() == "; longer now: the machine is busy, load 6.4 on 2 cores"
    monkeypatch.setattr(os, "getloadavg", lambda: (1.5, 1.0, 1.0))
    assert progress.busy() == ""


def test_local_runs_use_threads_only_where_the_kernel_releases_the_gil():
    # the toy kernel is compiled with nogil=True; a kernel that holds the GIL would make threads take turns
    assert TOY.kernel_releases_gil and runner.local_backend(TOY) == "threads"

    class HoldsTheGil(type(TOY)):
        kernel_releases_gil = False
    assert runner.local_backend(HoldsTheGil()) == "loky"
    info: dict = {}
    analyzer.sim(TOY, n=3000, seed=1, jobs=2, info=info)
    assert info["backend"] == "threads"
