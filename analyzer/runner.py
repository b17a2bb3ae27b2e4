"""Run N seeded games in chunks, in parallel, with progress, a results file written as chunks finish,
and resume.

Game ids 0..N-1 are split into chunks; each chunk is one kernel call. Locally the chunks are played by
a pool of threads in this process (`threads`: when a game's kernel releases the GIL there are no
workers to start, the compiled code is loaded once and nothing is pickled); `loky` uses worker
processes, and `dask` a dask.distributed cluster, both through joblib's executors. `auto`, the
default, is threads for a game whose kernel releases the GIL (Game.kernel_releases_gil) and loky
for one whose kernel holds it. Because each game
draws only from its (seed, game id) stream, the rows never depend on the chunk size, the worker
count or the backend. Where the finished chunks go, and how an interrupted run resumes, is
run_store.py.
"""
from __future__ import annotations

import contextlib
import inspect
import itertools
import os
import threading
import time
from concurrent.futures import FIRST_COMPLETED, BrokenExecutor, ThreadPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

import numpy as np

from . import compile_cache, results, run_store
from .errors import UserError, arg

BACKENDS = ("auto", "threads", "loky", "dask")
UNTIL_CHUNK = 5_000  # games per chunk of a run until confident: the rule is checked after each
POOL_RESTARTS = 2  # worker processes that die (killed, out of memory) are replaced this often per run
WATCH_S = 0.5  # how often a run on worker processes checks that none has died
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
    complete_already: bool = False  # --resume of a run that had finished: nothing was played

    @property
    def played_games(self) -> int:
        return self.n - self.resumed_games

    @property
    def games_per_s(self) -> float:
        return self.played_games / self.sim_s if self.sim_s > 0 else float("nan")


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C during a run; says how many games are saved for --resume (0 without an output file)."""

    def __init__(self, saved: int, n: int, journal: Path | None):
        super().__init__(f"{saved:,} of {n:,} games saved")
        self.saved, self.n, self.journal = saved, n, journal


class RunFailed(Exception):
    """The run could not go on (its workers keep dying); the saved games stay for --resume."""


def local_backend(game) -> str:
    """threads where the kernel releases the GIL; else processes, which run side by side regardless."""
    return "threads" if game.kernel_releases_gil else "loky"


def default_chunk(n: int, jobs: int, searching: bool = False) -> int:
    """Big enough to amortise a kernel call (~5 ms each), small enough for a lively progress bar, cheap
    resume and little idle time at the end, when one worker plays the last chunk alone. A game with a
    search seat costs thousands of games (its rollouts): its chunks are a few dozen games."""
    if searching:
        return int(min(64, max(4, n // (16 * max(jobs, 1)) + 1)))
    return int(min(20_000, max(1_000, n // (16 * max(jobs, 1)) + 1)))


def chunk_bounds(n: int, chunk: int) -> Iterator[tuple[int, int]]:
    """(lo, hi) of each chunk, in game-id order: chunks of `chunk` games, then the last two to three
    chunks' worth of games in quarters. Without that tail, one worker would often wait alone while
    another plays a whole last chunk (2-3 s for Simply Cosmic)."""
    head = max(0, (n - 2 * chunk) // chunk) * chunk
    small = max(1, chunk // 4)
    for lo in itertools.chain(range(0, head, chunk), range(head, n, small)):
        yield lo, min(lo + (chunk if lo < head else small), n)


def _play_chunk(i: int, game, scenario, seed: int, lo: int, hi: int):
    """Chunk i: games lo..hi-1, as (i, its results table)."""
    ids = np.arange(lo, hi, dtype=np.int64)
    return i, results.to_frame(game.run_batch(scenario, seed, ids), ids, seed, scenario)


# ---- local worker processes (loky) ----------------------------------------------------------------
def _start_pool(jobs: int, game, scenario):
    """The local worker processes. When the game's kernels are cached (`warm`), each worker loads them
    right away and the parent, which plays nothing, never does. Otherwise the workers only import the
    game while the parent compiles, and load the new cache with their first chunk, so a cold cache is
    compiled once. Returns the pool and the workers' start-up futures."""
    pool = _loky_pool(jobs)
    warm = compile_cache.is_warm(Path(inspect.getfile(type(game))).parent)
    return pool, [pool.submit(_start_worker, game, scenario if warm else None) for _ in range(jobs)], warm


def _loky_pool(jobs: int):
    """loky's reusable executor (a new one after a worker died), its workers watching this process."""
    global _pool
    from joblib.externals.loky import get_reusable_executor
    _pool = get_reusable_executor(max_workers=jobs, initializer=_watch_parent, initargs=(os.getpid(),))
    return _pool


def _replace_loky_pool(jobs: int):
    """A new pool after a worker died. The broken one is taken apart first: loky may flag it broken
    only after failing its futures, and would otherwise hand it back, where new chunks never run."""
    _abandon(_pool)
    return _loky_pool(jobs)


def _lost_a_worker(pool) -> bool:
    """A worker process of `pool` died (killed, out of memory): exit code other than 0, which is a
    worker's own orderly exit when idle. Checked here because loky cannot always see it: a worker
    killed while writing a result leaves half a message on the result pipe, and loky's manager
    thread then waits for the rest of it forever (seen in CI, about 1 kill in 25). This and
    `_abandon` read loky's private attributes (as of joblib 1.6): the fault tests and the loky runs
    in the suite fail if a joblib release renames them."""
    return any(p.exitcode not in (None, 0) for p in list(pool._processes.values()))


def _abandon(pool) -> None:
    """Shut `pool` down even when its manager thread is stuck reading a half-written result: kill its
    workers and close this process's end of the result pipe, so that read ends (end of file) and the
    manager thread can finish; otherwise joining it, at exit or in loky, would wait forever."""
    workers, results_pipe, manager = (list(pool._processes.values()), pool._result_queue,
                                      pool._executor_manager_thread)
    pool.shutdown(wait=False, kill_workers=True)
    for worker in workers:
        with contextlib.suppress(OSError, ValueError):  # already gone
            worker.terminate()  # loky's processes have no kill()
    if results_pipe is not None:
        with contextlib.suppress(OSError):  # loky's own shutdown closed it first (a race: seen in CI)
            results_pipe._writer.close()
    if manager is not None:
        manager.join(timeout=10)


def _start_worker(game, scenario) -> None:
    """Unpickling `game` in a worker imports the analyzer and the game's modules; with a scenario,
    the worker also loads the cached kernels (see `_start_pool`)."""
    if scenario is not None:
        game.warm_up(scenario)


def _watch_parent(parent: int) -> None:
    """In each worker process: exit as soon as the parent is gone (kill -9 gives no orderly shutdown),
    instead of playing on for a minute with no one to take the results."""
    def watch():
        while os.getppid() == parent:
            time.sleep(0.2)
        os._exit(1)
    threading.Thread(target=watch, daemon=True, name="analyzer-parent-watch").start()


def stop_workers() -> None:
    """Kill the idle local workers now: a process about to exit would otherwise wait about a second
    for their orderly shutdown."""
    if _pool is not None:
        _abandon(_pool) if _lost_a_worker(_pool) else _pool.shutdown(wait=True, kill_workers=True)


def _pool_results(pool, calls: Iterator[tuple], in_flight: int, restart: Callable[[], object] | None = None,
                  lost_a_worker: Callable[[object], bool] | None = None):
    """Results of _play_chunk(*call) for each call, in the order they finish, with at most
    `in_flight` chunks submitted at a time. When the pool breaks (a worker process died, as loky
    reports or `lost_a_worker(pool)` finds) and `restart` is given, a new pool from restart() plays
    the chunks that were lost."""
    submitted, lost, restarts = {}, [], 0
    while True:
        try:
            while len(submitted) < in_flight and (call := lost.pop(0) if lost else next(calls, None)) is not None:
                try:
                    submitted[pool.submit(_play_chunk, *call)] = call
                except BrokenExecutor:
                    lost.append(call)
                    raise
            if not submitted:
                return
            finished, _ = wait(submitted, timeout=WATCH_S if lost_a_worker else None, return_when=FIRST_COMPLETED)
            if not finished and lost_a_worker(pool):
                raise BrokenExecutor("a worker process died")
            for f in finished:
                result = f.result()
                del submitted[f]
                yield result
        except BrokenExecutor:
            if restart is None or restarts >= POOL_RESTARTS:
                raise RunFailed("a worker process died (killed or out of memory) and the run cannot go on") from None
            restarts += 1
            for f, call in submitted.items():  # keep what finished before the break, play the rest again
                if f.done() and not f.cancelled() and f.exception() is None:
                    yield f.result()
                else:
                    lost.append(call)
            submitted.clear()
            pool = restart()


# ---- dask -----------------------------------------------------------------------------------------
def _dask_parallel():
    """A joblib Parallel on the dask.distributed Client of the caller (`dask_session()`), so the same
    code drives a laptop or a cluster. dask itself plays again a chunk whose worker died."""
    from joblib import Parallel, parallel_config
    try:
        import dask.distributed  # noqa: F401  (registers joblib's dask backend)
    except ImportError:
        raise UserError("--backend dask needs dask.distributed: pip install 'dask[distributed]' (in a checkout: pip install -e '.[cluster]')") from None
    with parallel_config(backend="dask"):  # joblib registers its dask backend on first use here
        return Parallel(n_jobs=-1, return_as="generator_unordered")


@contextlib.contextmanager
def dask_session(scheduler: str | None, jobs: int, processes: bool = True):
    """Use the caller's dask Client if one is active; else connect to `scheduler` (an address), or
    start a local cluster of `jobs` single-threaded workers for the run."""
    try:
        from dask.distributed import Client, LocalCluster, get_client
    except ImportError:
        raise UserError("--backend dask needs dask.distributed: pip install 'dask[distributed]' (in a checkout: pip install -e '.[cluster]')") from None
    if scheduler is None and _has_client(get_client):
        yield
        return
    if scheduler:
        try:
            client = Client(scheduler, timeout=10)
        except OSError as e:
            raise UserError(f"{arg('scheduler', scheduler)}: cannot connect ({e})") from None
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


# ---- the run --------------------------------------------------------------------------------------
def run(game, scenario, n: int, seed: int, jobs: int = 1, out: Path | None = None, resume: bool = False,
        chunk: int | None = None, backend: str = "auto", meta: dict | None = None,
        on_progress: Callable[[int], None] | None = None, until=None,
        on_compile: Callable[[bool], None] | None = None):
    """Play games 0..n-1. Returns the table (when `out` is None) and a RunInfo.

    on_progress(k) is called in this thread each time k more games are done. on_compile(cold) is
    called before the kernels are compiled (cold=True) or loaded from the cache, and on_compile(None)
    when they are ready. `until` (a stopping.UntilConfident) stops the run at the first chunk, in
    game-id order, after which its rule is met; n is then the most games it may play.
    """
    if backend not in BACKENDS:
        raise UserError(f"{arg('backend', repr(backend))}: choose from {', '.join(BACKENDS)}")
    backend = local_backend(game) if backend == "auto" else backend
    if until is not None:  # where the run stops must not depend on --jobs; small chunks stop close to the need
        chunk = chunk or UNTIL_CHUNK
    chunk = chunk or default_chunk(n, jobs, bool(scenario.search_seats()))
    journal, restored = None, set()
    if out is not None:
        manifest = {"game": game.name, "scenario_hash": scenario.content_hash(), "seed": seed, "n": n, "chunk": chunk,
                    "bounds": run_store.BOUNDS, **({"until": until.target} if until is not None else {})}
        if resume and (done := run_store.finished_run(Path(out), manifest)) is not None:
            info = RunInfo(n=done["n"], seed=seed, jobs=jobs, backend=backend, chunk=chunk, resumed_games=done["n"])
            info.complete_already = True
            return None, info
        journal, restored, manifest = run_store.open_journal(Path(out), manifest, resume)
        chunk = manifest["chunk"]
    info = RunInfo(n=n, seed=seed, jobs=jobs, backend=backend, chunk=chunk)
    bounds = list(chunk_bounds(n, chunk))
    sink = (run_store.MemorySink(len(bounds)) if journal is None
            else run_store.FileSink(Path(out), journal, [hi - lo for lo, hi in bounds], restored))

    pool, starting, warm = None, [], False
    t0 = time.perf_counter()
    try:
        if backend == "loky" and jobs > 1 and n > chunk:
            pool, starting, warm = _start_pool(jobs, game, scenario)
        folder = Path(inspect.getfile(type(game))).parent
        cold = not compile_cache.is_warm(folder)
        if on_compile:
            on_compile(cold)
        if not warm:
            game.warm_up(scenario)  # compile (or load the cache) once, timed apart from the simulation
        else:
            wait(starting)  # the workers load the cached kernels side by side
        info.compile_s = time.perf_counter() - t0
        if cold:
            compile_cache.record_seconds(folder, info.compile_s)
        if on_compile:
            on_compile(None)
        info.resumed_games = sum(hi - lo for i, (lo, hi) in enumerate(bounds) if i in restored)
        t1 = time.perf_counter()
        played_to = _play(game, scenario, seed, jobs, backend, bounds, restored, sink, pool, on_progress, until)
        info.sim_s = time.perf_counter() - t1
    except KeyboardInterrupt:
        _stop(pool, sink)
        raise RunInterrupted(sink.saved_games() if journal else 0, n, journal) from None
    except BaseException:
        _stop(pool, sink)
        raise
    if until is not None:
        info.n = played_to
    if journal is None:
        return sink.table().head(played_to), info
    # what identifies the run comes first: a --resume of the finished file checks it (run_store.finished_run)
    meta = {"game": game.name, "scenario_hash": scenario.content_hash(), "seed": seed, "n": n, **(meta or {}),
            "timings": timings(info)}
    if until is not None:
        meta.update(n=played_to, stopping=until.summary())
    sink.finish(meta)
    return None, info


def _stop(pool, sink) -> None:
    if pool is not None:  # an error or Ctrl-C stops the workers now, not after their chunks
        pool.shutdown(wait=False, kill_workers=True)
    if isinstance(sink, run_store.FileSink):
        sink.abandon()


def _play(game, scenario, seed, jobs, backend, bounds, restored, sink, pool, on_progress, until) -> int:
    """Play the chunks not restored; feed the sink; returns the games written (all, or up to the stop)."""
    calls = ((i, game, scenario, seed, lo, hi) for i, (lo, hi) in enumerate(bounds) if i not in restored)
    if backend == "dask":
        stream = _dask_parallel()(_delayed(_play_chunk)(*call) for call in calls)
    elif pool is not None:
        stream = _pool_results(pool, calls, 2 * jobs, lambda: _replace_loky_pool(jobs), _lost_a_worker)
    elif jobs > 1 and len(bounds) > 1:
        stream = _threads(jobs, calls)
    else:  # one thread: no pool to pay
        stream = (_play_chunk(*call) for call in calls)

    if until is not None:
        sink.on_emit = until.add_and_check
    if on_progress and restored:
        on_progress(sum(hi - lo for i, (lo, hi) in enumerate(bounds) if i in restored))
    try:
        if sink.drain():
            return until.games
        for i, frame in stream:
            stopped = sink.add(i, frame)
            if on_progress:
                on_progress(frame.height)
            if stopped:
                return until.games
    finally:
        if hasattr(stream, "close"):
            stream.close()  # a stopped run leaves no chunk playing
    return bounds[-1][1] if until is None else until.games


def _delayed(fn):
    from joblib import delayed
    return delayed(fn)


def _threads(jobs: int, calls):
    """The chunks on a pool of `jobs` threads, in the order they finish; on an interrupt or an error,
    the chunks not started are dropped and the ones playing are waited for (a kernel cannot be stopped)."""
    pool = ThreadPoolExecutor(jobs, thread_name_prefix="analyzer-chunk")
    try:
        yield from _pool_results(pool, calls, 2 * jobs)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def timings(info: RunInfo) -> dict:
    return {"compile_s": round(info.compile_s, 3), "sim_s": round(info.sim_s, 3),
            "games_per_s": round(info.games_per_s, 1), "jobs": info.jobs, "backend": info.backend,
            "chunk": info.chunk, "resumed_games": info.resumed_games, "played_games": info.played_games}
