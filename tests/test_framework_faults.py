"""Faults with real processes and real signals: a worker killed mid-run, the parent killed mid-run,
Ctrl-C. Each run ends with a file that holds every game id once and equals an uninterrupted run.

On a slow, loaded machine a run takes long: the waits follow the run's progress (its part files, one a
chunk), not the clock, and fail only when a run stops making progress or ends before its signal landed."""
import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import psutil
import pytest

import analyzer

ROOT = Path(__file__).resolve().parents[1]
N, CHUNK, SEED = 120_000, 1_000, 5  # pig: a second or more of play in 120 chunks, so a signal lands mid-run
STALL = 180.0  # seconds without a new part file (or a worker's start) after which a run is stuck


@pytest.fixture(scope="module")
def uninterrupted():
    return analyzer.sim("pig", n=N, seed=SEED)


def _sim(out: Path, *extra: str) -> subprocess.Popen:
    args = [sys.executable, "-m", "analyzer", "sim", "pig", "--n", str(N), "--seed", str(SEED), "--chunk", str(CHUNK),
            "--out", str(out), "-q", *extra]
    return subprocess.Popen(args, cwd=out.parent, env={**os.environ, "PYTHONPATH": str(ROOT)},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _parts(out: Path) -> list[Path]:
    return sorted(out.with_name(out.name + ".parts").glob("part-*.arrow"))


def _until(proc: subprocess.Popen, out: Path, condition) -> int:
    """Wait for `condition` while the run makes progress; returns the parts written by then, fewer than the
    run's chunks (else the signal would not land mid-run and the test would prove nothing)."""
    seen, since = None, time.monotonic()
    while not condition():
        assert proc.poll() is None, f"the run ended before the signal could land mid-run: {proc.communicate()}"
        seen, since = _progressed(out, proc, seen, since)
        time.sleep(0.02)
    done = len(_parts(out))
    assert done < N // CHUNK and not out.exists(), "the run was complete before the signal"
    return done


def _progressed(out: Path, proc: subprocess.Popen, seen, since: float):
    """(the run's progress now, when it last changed); fails after STALL seconds without a change."""
    now = (len(_parts(out)), out.exists(), len(_loky_workers(proc)))
    if now != seen:
        return now, time.monotonic()
    assert time.monotonic() - since < STALL, f"no progress for {STALL:.0f} s: {now}"
    return seen, since


def _loky_workers(proc: subprocess.Popen) -> list[psutil.Process]:
    workers = []
    try:
        for c in psutil.Process(proc.pid).children(recursive=True):
            with contextlib.suppress(psutil.NoSuchProcess):  # a worker that ended meanwhile is none
                if any("loky" in part and "resource_tracker" not in part for part in c.cmdline()):
                    workers.append(c)
    except psutil.NoSuchProcess:  # the run itself ended
        pass
    return workers


def _finish(proc: subprocess.Popen, out: Path) -> tuple[int, str, str]:
    """The run's exit code and output, however long it takes while it makes progress."""
    seen, since = None, time.monotonic()
    while True:
        try:
            stdout, stderr = proc.communicate(timeout=0.5)  # retried, it loses no output
            return proc.returncode, stdout, stderr
        except subprocess.TimeoutExpired:
            seen, since = _progressed(out, proc, seen, since)


def test_a_worker_killed_mid_run_has_its_chunks_played_again(tmp_path, uninterrupted):
    out = tmp_path / "w.parquet"
    proc = _sim(out, "--backend", "loky", "--jobs", "2")
    try:
        _until(proc, out, lambda: _parts(out) and len(_loky_workers(proc)) == 2)
        _loky_workers(proc)[0].send_signal(signal.SIGKILL)
        code, stdout, stderr = _finish(proc, out)
    finally:
        proc.kill()
    assert code == 0, stderr
    done = pl.read_parquet(out)
    assert done["game_id"].to_list() == list(range(N)) and done.equals(uninterrupted)


def test_the_parent_killed_mid_run_stops_its_workers_and_resume_completes(tmp_path, uninterrupted):
    out = tmp_path / "p.parquet"
    proc = _sim(out, "--backend", "loky", "--jobs", "2")
    try:
        _until(proc, out, lambda: _parts(out) and len(_loky_workers(proc)) == 2)
        workers = _loky_workers(proc)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        gone, alive = psutil.wait_procs(workers, timeout=30)  # they notice within a fraction of a second
        assert alive == []
        saved = _parts(out)
        time.sleep(0.5)
        assert _parts(out) == saved  # nothing more is written once the parent is dead
    finally:
        proc.kill()
    restored = sum(pl.scan_ipc(p).select(pl.len()).collect().item() for p in saved)
    again = _sim(out, "--resume", "--jobs", "1")  # another --jobs and backend: results never depend on them
    code, stdout, stderr = _finish(again, out)
    assert code == 0, stderr
    assert f"{N - restored:,} played" in stdout and f"{restored:,} restored" in stdout
    done = pl.read_parquet(out)
    assert done["game_id"].to_list() == list(range(N)) and done.equals(uninterrupted)


def test_ctrl_c_says_what_is_saved_and_how_to_resume(tmp_path, uninterrupted):
    out = tmp_path / "c.parquet"
    proc = _sim(out, "--jobs", "2", "--backend", "threads")
    try:
        _until(proc, out, lambda: len(_parts(out)) >= 2)
        proc.send_signal(signal.SIGINT)
        code, stdout, stderr = _finish(proc, out)
    finally:
        proc.kill()
    assert code == 130
    line, = stderr.strip().splitlines()
    saved = sum(pl.scan_ipc(p).select(pl.len()).collect().item() for p in _parts(out))
    assert line == (f"interrupted: {saved:,} of {N:,} games saved; resume with: analyzer sim pig --n {N} "
                    f"--seed {SEED} --chunk {CHUNK} --out {out} -q --jobs 2 --backend threads --resume")
    code, stdout, stderr = _finish(_sim(out, "--jobs", "2", "--resume"), out)
    assert code == 0, stderr
    assert pl.read_parquet(out).equals(uninterrupted)
    code, stdout, _ = _finish(_sim(out, "--jobs", "2", "--resume"), out)
    assert code == 0 and stdout.strip() == f"{out}: this run is already complete ({N:,} games); nothing to resume"
