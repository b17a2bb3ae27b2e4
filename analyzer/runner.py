"""Run N seeded games in chunks, in parallel, with progress, part files and resume.

Game ids 0..N-1 are split into chunks; each chunk is one kernel call in a worker (loky processes
locally, dask on a cluster through joblib). Because each game draws only from its (seed, game id) stream,
the rows never depend on the chunk size, the worker count or the backend. With an output file, each
chunk is written as a part file under `<out>.parts/` as soon as it is done, so an interrupted run
resumes (`resume=True`) without losing or duplicating games; the parts are then merged atomically.
Parts are lz4-compressed Arrow IPC: nearly free to write and to read back, so the only parquet
encoding of a run is the final file's.
"""
from __future__ import annotations

import contextlib
import inspect
import itertools
import json
import shutil
import time
from concurrent.futures import FIRST_COMPLETED, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

import numpy as np
import polars as pl
from joblib import Parallel, delayed, parallel_config
from joblib.externals.loky import get_reusable_executor

from . import compile_cache, results
from .errors import UserError

BACKENDS = ("loky", "dask")
_pool = None  # this process's loky workers, kept between runs (a notebook starts them once)


@dataclass
class RunInfo:
    n: int
    seed: int
    jobs: int
    backend: str
    chunk: int
    compile_s: float = 0.0
    sim_s: float = 0.0
    resumed_games: int = 0

    @property
    def games_per_s(self) -> float:
        return (self.n - self.resumed_games) / self.sim_s if self.sim_s > 0 else float("nan")


def default_chunk(n: int, jobs: int) -> int:
    """Big enough to amortise a kernel call (~5 ms each), small enough for a lively progress bar, cheap
    resume and little idle time at the end, when one worker plays the last chunk alone."""
    return int(min(20_000, max(1_000, n // (16 * max(jobs, 1)) + 1)))


def chunk_bounds(n: int, chunk: int) -> Iterator[tuple[int, int]]:
    """(lo, hi) of each chunk, in game-id order: chunks of `chunk` games, then the last two to three
    chunks' worth of games in quarters. Without that tail, one worker would often wait alone while
    another plays a whole last chunk (2-3 s for Simply Cosmic)."""
    head = max(0, (n - 2 * chunk) // chunk) * chunk
    small = max(1, chunk // 4)
    for lo in itertools.chain(range(0, head, chunk), range(head, n, small)):
        yield lo, min(lo + (chunk if lo < head else small), n)


def _play_chunk(i: int, game, scenario, seed: int, lo: int, hi: int, part: str | None):
    """Chunk i: games lo..hi-1. Returns (i, games played, frame); the frame is None once written to `part`."""
    ids = np.arange(lo, hi, dtype=np.int64)
    frame = results.to_frame(game.run_batch(scenario, seed, ids), ids, seed, scenario)
    if part is None:
        return i, hi - lo, frame
    with results.atomic_path(Path(part)) as tmp:
        frame.write_ipc(tmp, compression="lz4")  # half the disk of uncompressed, for ~6 ms per 20k games
    return i, hi - lo, None


def _parts_dir(out: Path) -> Path:
    return out.with_name(out.name + ".parts")


def _prepare_parts(out: Path, manifest: dict, resume: bool) -> tuple[Path, set[int]]:
    parts = _parts_dir(out)
    if parts.exists():
        if not resume:
            raise UserError(f"{parts}: an unfinished run is there; pass --resume to continue it or delete it")
        try:
            old = json.loads((parts / "manifest.json").read_text())
        except (OSError, ValueError):
            raise UserError(f"{parts}: manifest.json is missing or damaged; delete the folder and rerun") from None
        if old != manifest:
            diff = [k for k in manifest if old.get(k) != manifest[k]]
            raise UserError(f"{parts}: --resume with a different run ({', '.join(diff)} differ); delete it or rerun as before")
        done = {int(p.stem.split("-")[1]) for p in parts.glob("part-*.arrow")}
        return parts, done
    parts.mkdir(parents=True)
    (parts / "manifest.json").write_text(json.dumps(manifest, indent=1))
    return parts, set()


def _dask_parallel():
    """A joblib Parallel on the dask.distributed Client of the caller (`dask_session()` below), so
    the same code drives a laptop or a cluster."""
    try:
        import dask.distributed  # noqa: F401  (registers joblib's dask backend)
    except ImportError:
        raise UserError("--backend dask needs the cluster extra: pip install 'analyzer[cluster]'") from None
    with parallel_config(backend="dask"):  # joblib registers its dask backend on first use here
        return Parallel(n_jobs=-1, return_as="generator_unordered")


def _start_pool(jobs: int, game, scenario):
    """The local worker processes. When the game's kernels are cached (`warm`), each worker loads them
    right away and the parent, which plays nothing, never does. Otherwise the workers only import the
    game while the parent compiles, and load the new cache with their first chunk, so a cold cache is
    compiled once. Returns the pool and the workers' start-up futures."""
    global _pool
    _pool = get_reusable_executor(max_workers=jobs)
    warm = compile_cache.is_warm(Path(inspect.getfile(type(game))).parent)
    return _pool, [_pool.submit(_start_worker, game, scenario if warm else None) for _ in range(jobs)], warm


def _start_worker(game, scenario) -> None:
    """Unpickling `game` in a worker imports the analyzer and the game's modules; with a scenario,
    the worker also loads the cached kernels (see `_start_pool`)."""
    if scenario is not None:
        game.warm_up(scenario)


def _pool_results(pool, calls: Iterator[tuple], in_flight: int):
    """Results of _play_chunk(*call) for each call, in the order they finish, with at most
    `in_flight` chunks submitted at a time."""
    pending = {pool.submit(_play_chunk, *call) for call in itertools.islice(calls, in_flight)}
    while pending:
        finished, pending = wait(pending, return_when=FIRST_COMPLETED)
        for f in finished:
            yield f.result()
            if (call := next(calls, None)) is not None:
                pending.add(pool.submit(_play_chunk, *call))


def stop_workers() -> None:
    """Kill the idle local workers now: a process about to exit would otherwise wait about a second
    for their orderly shutdown."""
    if _pool is not None:
        _pool.shutdown(wait=True, kill_workers=True)


@contextlib.contextmanager
def dask_session(scheduler: str | None, jobs: int, processes: bool = True):
    """Use the caller's dask Client if one is active; else connect to `scheduler` (an address), or
    start a local cluster of `jobs` single-threaded workers for the run."""
    try:
        from dask.distributed import Client, LocalCluster, get_client
    except ImportError:
        raise UserError("--backend dask needs the cluster extra: pip install 'analyzer[cluster]'") from None
    if scheduler is None and _has_client(get_client):
        yield
        return
    if scheduler:
        try:
            client = Client(scheduler, timeout=10)
        except OSError as e:
            raise UserError(f"--scheduler {scheduler}: cannot connect ({e})") from None
        with client:
            yield
        return
    with LocalCluster(n_workers=jobs, threads_per_worker=1, processes=processes, dashboard_address=None) as cluster:
        with Client(cluster):
            yield


def _has_client(get_client) -> bool:
    try:
        get_client()
        return True
    except ValueError:
        return False


def run(game, scenario, n: int, seed: int, jobs: int = 1, out: Path | None = None, resume: bool = False,
        chunk: int | None = None, backend: str = "loky", meta: dict | None = None,
        on_progress: Callable[[int], None] | None = None) -> tuple[pl.DataFrame | None, RunInfo]:
    """Play games 0..n-1. Returns the table (when `out` is None) and timings.

    on_progress(k) is called in the parent each time k more games are done.
    """
    if backend not in BACKENDS:
        raise UserError(f"--backend {backend!r}: choose from {', '.join(BACKENDS)}")
    chunk = chunk or default_chunk(n, jobs)
    info = RunInfo(n=n, seed=seed, jobs=jobs, backend=backend, chunk=chunk)

    pool, starting, warm = None, [], False
    t0 = time.perf_counter()
    if backend == "loky" and jobs > 1 and n > chunk:
        pool, starting, warm = _start_pool(jobs, game, scenario)
    if not warm:
        game.warm_up(scenario)  # compile (or load the cache) once, timed apart from the simulation
    else:
        wait(starting)  # the workers load the cached kernels side by side
    info.compile_s = time.perf_counter() - t0

    parts, done = None, set()
    if out is not None:
        manifest = {"game": game.name, "scenario_hash": scenario.content_hash(), "seed": seed, "n": n, "chunk": chunk,
                    "bounds": "chunks, then a tail in quarters"}  # how chunk_bounds cuts: parts of older runs differ
        parts, done = _prepare_parts(Path(out), manifest, resume)
        info.resumed_games = sum(hi - lo for i, (lo, hi) in enumerate(chunk_bounds(n, chunk)) if i in done)
        if on_progress and info.resumed_games:
            on_progress(info.resumed_games)

    def part(i: int) -> str | None:
        return None if parts is None else str(parts / f"part-{i:06d}.arrow")

    frames: dict[int, pl.DataFrame] = {}
    # a generator: memory does not grow with n (chunks are made as workers become free)
    calls = ((i, game, scenario, seed, lo, hi, part(i))
             for i, (lo, hi) in enumerate(chunk_bounds(n, chunk)) if i not in done)
    t1 = time.perf_counter()
    if backend == "dask":
        stream = _dask_parallel()(delayed(_play_chunk)(*call) for call in calls)
    elif pool is not None:
        stream = _pool_results(pool, calls, 2 * jobs)
    else:  # in-process: no worker start-up to pay
        stream = (_play_chunk(*call) for call in calls)
    try:
        for i, count, frame in stream:
            if frame is not None:
                frames[i] = frame
            if on_progress:
                on_progress(count)
    except BaseException:
        if pool is not None:  # an error or Ctrl-C stops the workers now, not after their chunks
            pool.shutdown(wait=False, kill_workers=True)
        raise
    info.sim_s = time.perf_counter() - t1

    if parts is None:
        return pl.concat([frames[i] for i in sorted(frames)]), info
    files = sorted(parts.glob("part-*.arrow"))  # zero-padded chunk numbers: game-id order
    results.write_atomic(pl.scan_ipc(files), Path(out), meta={**(meta or {}), "timings": timings(info)})
    shutil.rmtree(parts)
    return None, info


def timings(info: RunInfo) -> dict:
    return {"compile_s": round(info.compile_s, 3), "sim_s": round(info.sim_s, 3),
            "games_per_s": round(info.games_per_s, 1), "jobs": info.jobs, "backend": info.backend,
            "chunk": info.chunk, "resumed_games": info.resumed_games}
