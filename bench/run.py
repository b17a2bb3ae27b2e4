"""`make bench`: speed of every engine, measured in one run on this machine.

Reports games/s, 2 workers against 1, cold compile against warm cache, STOP hands/s against RLCard's
UNO games/s (4 players, random agents), and the Space Base kernel against its floor (spacebase_floor.py),
all measured in the same run. Numbers go to stdout as a Markdown table and to bench/out/bench.json.
Nothing here is asserted: machines are shared and noisy.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import analyzer
import analyzer.games

sys.path.insert(0, str(Path(__file__).parent))
import cosmic_floor  # noqa: E402  (bench/ is not a package)
import spacebase_floor  # noqa: E402

OUT = Path(__file__).parent / "out"


def rlcard_uno_games_per_s(seconds: float) -> float | None:
    try:
        import rlcard
        from rlcard.agents import RandomAgent
        from rlcard.games.uno.game import UnoGame
    except ImportError:
        return None
    env = rlcard.make("uno", config={"seed": 0})
    env.game = UnoGame(num_players=4)  # rlcard.make ignores game_num_players for UNO
    env.num_players = 4
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(4)])
    t0, n = time.perf_counter(), 0
    while time.perf_counter() - t0 < seconds:
        env.run(is_training=False)
        n += 1
    return n / (time.perf_counter() - t0)


def cold_compile_s(game: str) -> float:
    """Time to compile a game's kernels from nothing (empty numba cache), in a fresh process."""
    code = (f"import time, numpy as np, analyzer; from analyzer import games; g = games.get({game!r}); "
            "sc = analyzer.load_scenario(g); t = time.perf_counter(); g.warm_up(sc); print(time.perf_counter() - t)")
    with tempfile.TemporaryDirectory() as cache:
        r = subprocess.run([sys.executable, "-c", code], env={**os.environ, "NUMBA_CACHE_DIR": cache},
                           capture_output=True, text=True, check=True)
    return float(r.stdout.strip().splitlines()[-1])


def timed_sim(game: str, n: int, jobs: int, **kw) -> tuple[float, object]:
    analyzer.sim(game, n=min(n, 2000), seed=1, jobs=jobs, **kw)  # warm workers and caches
    t0 = time.perf_counter()
    df = analyzer.sim(game, n=n, seed=1, jobs=jobs, **kw)
    return time.perf_counter() - t0, df


def kernel_games_per_s(game: str, n: int, repeats: int = 3) -> float:
    """The game's batch kernel alone, in this process (no workers, no result table): best of repeats."""
    g = analyzer.games.get(game)
    sc = analyzer.load_scenario(g)
    ids = np.arange(n)
    g.run_batch(sc, 1, ids[:10])
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        g.run_batch(sc, 1, ids)
        best = min(best, time.perf_counter() - t0)
    return n / best


def cosmic_bench(scale: float, quick: bool) -> dict:
    """Simply Cosmic: games/s with 1 and 2 workers, the kernel against its floor (cosmic_floor.py), and
    the wall time of `analyzer sim cosmic --n 1e5` with 2 workers (x10 estimates 1e6)."""
    n = int(40_000 * scale)
    r: dict = {"cold_compile_s": cold_compile_s("cosmic")}
    t1, df = timed_sim("cosmic", n, jobs=1)
    t2, df2 = timed_sim("cosmic", n, jobs=2)
    assert df.equals(df2), "jobs must not change results"
    r.update(n=n, games_per_s_1job=n / t1, games_per_s_2jobs=n / t2, speedup_2_vs_1=t1 / t2)
    n_k = int(20_000 * scale)
    r["kernel_games_per_s_1core"] = kernel_games_per_s("cosmic", n_k)
    r["floor_games_per_s_1core"] = cosmic_floor.games_per_s(n_k)
    r["kernel_cost_vs_floor"] = r["floor_games_per_s_1core"] / r["kernel_games_per_s_1core"]
    big = "1e3" if quick else "1e5"
    r["cli_wall_s_" + big] = cli_wall_s(["sim", "cosmic", "--n", big, "--jobs", "2"])
    return r


def cli_wall_s(args: list[str]) -> float:
    with tempfile.TemporaryDirectory() as d:
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "analyzer", *args, "--out", f"{d}/r.parquet", "-q"], check=True,
                       stdout=subprocess.DEVNULL)
        return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true", help="small runs, for a smoke test of the benchmark itself")
    ap.add_argument("--base", help="also measure the kernels of this commit, alternating with this tree's")
    a = ap.parse_args()
    scale = 0.05 if a.quick else 1.0
    res: dict = {"machine": {"cpus": os.cpu_count(), "python": sys.version.split()[0]}}

    uno = rlcard_uno_games_per_s(2 if a.quick else 10)
    res["rlcard_uno_games_per_s"] = uno

    for game, n in (("stop", int(200_000 * scale)), ("spacebase", int(400_000 * scale))):
        r: dict = {"cold_compile_s": cold_compile_s(game)}
        t1, df = timed_sim(game, n, jobs=1)
        t2, df2 = timed_sim(game, n, jobs=2)
        assert df.equals(df2), "jobs must not change results"
        r.update(n=n, games_per_s_1job=n / t1, games_per_s_2jobs=n / t2, speedup_2_vs_1=t1 / t2)
        if game == "stop":
            hands = int(df["length"].sum())
            r["hands_per_s_1job"] = hands / t1
            r["hands_per_match"] = hands / n
            if uno:
                r["ratio_hands_per_s_vs_rlcard_uno_games_per_s"] = r["hands_per_s_1job"] / uno
        res[game] = r
    # how far the full rules are from the floor (spacebase_floor.py: only the unavoidable work)
    n_k = int(100_000 * scale)
    sb = res["spacebase"]
    sb["kernel_games_per_s_1core"] = kernel_games_per_s("spacebase", n_k)
    sb["floor_games_per_s_1core"] = spacebase_floor.games_per_s(n_k)
    sb["kernel_cost_vs_floor"] = sb["floor_games_per_s_1core"] / sb["kernel_games_per_s_1core"]
    big = "1e4" if a.quick else "1e6"
    sb["cli_wall_s_" + big] = cli_wall_s(["sim", "spacebase", "--n", big, "--jobs", "2"])

    res["cosmic"] = cosmic_bench(scale, a.quick)

    if a.base:
        import against
        res["against_" + a.base] = against.compare(a.base, {"stop": int(50_000 * scale), "spacebase": int(50_000 * scale)})

    OUT.mkdir(exist_ok=True)
    (OUT / "bench.json").write_text(json.dumps(res, indent=1))
    print("| measure | value |\n|---|---|")
    for k, v in _flatten(res):
        print(f"| {k} | {v:,.3g} |" if isinstance(v, float) else f"| {k} | {v} |")


def _flatten(d: dict, prefix: str = ""):
    for k, v in d.items():
        if isinstance(v, dict):
            yield from _flatten(v, f"{prefix}{k}.")
        else:
            yield f"{prefix}{k}", v


if __name__ == "__main__":
    main()
