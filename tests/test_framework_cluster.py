"""A real dask cluster on this machine: a `dask scheduler` and two `dask worker` processes on 127.0.0.1,
each its own process as on separate machines. Runs through it give the local backend's rows."""
import os
import socket
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest
from distributed import Client

import analyzer
from analyzer import cli, runner

ROOT = Path(__file__).resolve().parents[1]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def scheduler(tmp_path_factory):
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}  # what a worker machine needs: this analyzer installed
    logs = tmp_path_factory.mktemp("cluster")
    dask = [sys.executable, "-m"]
    procs = [subprocess.Popen([*dask, "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", str(port),
                               "--no-dashboard"], env=env, stdout=subprocess.DEVNULL,
                              stderr=(logs / "scheduler.log").open("w"))]
    try:
        for k in range(2):
            procs.append(subprocess.Popen([*dask, "distributed.cli.dask_worker", address, "--nthreads", "1",
                                           "--no-dashboard", "--name", f"w{k}"], env=env, stdout=subprocess.DEVNULL,
                                          stderr=(logs / f"worker{k}.log").open("w")))
        with Client(address, timeout=60) as client:
            client.wait_for_workers(2, timeout=120)
        yield address
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait(timeout=20)


@pytest.mark.parametrize("game,n", [("stop", 1500), ("pig", 6000)])
def test_a_real_cluster_gives_the_local_rows(scheduler, tmp_path, game, n):
    out = tmp_path / f"{game}.parquet"
    code = cli.main(["sim", game, "--n", str(n), "--seed", "3", "--chunk", str(n // 6), "--backend", "dask",
                     "--scheduler", scheduler, "--out", str(out), "-q"])
    assert code == 0
    remote = pl.read_parquet(out)
    assert remote["game_id"].to_list() == list(range(n))
    assert remote.equals(analyzer.sim(game, n=n, seed=3))
    with Client(scheduler, timeout=30) as client:  # the chunks were played by the workers, not here
        executed = client.run(lambda dask_worker: dask_worker.state.executed_count)
    assert len(executed) == 2 and sum(executed.values()) >= len(list(runner.chunk_bounds(n, n // 6)))
