"""`make bench`: speed of every engine, measured in one run on this machine.

For every game of GAMES: cold compile (an empty NUMBA_CACHE_DIR), games/s on 1 and 2 threads (the
local default once a kernel releases the GIL) and on 2 loky worker processes, the kernel alone on one core against its floor probe
(bench/<game>_floor.py: only the work no engine of that game can skip), and the wall time and peak
RSS of the CLI run the game's issue sets a goal for (1e6 games). STOP's hands/s is also set against
RLCard's UNO games/s (4 players, random agents). Numbers go to stdout as a Markdown table and to
bench/out/bench.json; bench/speed_table.py renders the README's table from that file. Nothing here
is asserted: machines are shared and noisy. `analyzer bench [GAME...]` runs this script.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from importlib import import_module
from pathlib import Path

import numpy as np

import analyzer
import analyzer.games

sys.path.insert(0, str(Path(__file__).parent))  # the floor probes (bench/ is not a package)

# game: (games timed on 1 and 2 workers, games of the kernel-alone probe, CLI run timed or None)
GAMES = {
    "stop": (200_000, 100_000, "1e6"),
    "spacebase": (400_000, 100_000, "1e6"),
    "mlem": (100_000, 50_000, "1e6"),
    "simplecard": (100_000, 100_000, "1e6"),
    "cosmic": (40_000, 20_000, "1e6"),
}

OUT = Path(__file__).parent / "out"
SEARCH_GAMES = 24  # games of one search seat (default budget) against the tuned field, per searchable game


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


def game_bench(game: str, n: int, n_kernel: int, big: str | None, cold: bool = True) -> dict:
    """One game's row of the table (see the module docstring)."""
    r: dict = {"measured": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}
    if cold:
        r["cold_compile_s"] = cold_compile_s(game)
    t1, df = timed_sim(game, n, jobs=1, backend="threads")
    t2, df2 = timed_sim(game, n, jobs=2, backend="threads")
    t_loky, df3 = timed_sim(game, n, jobs=2, backend="loky")
    assert df.equals(df2) and df.equals(df3), "jobs and backends must not change results"
    r.update(n=n, games_per_s_1job=n / t1, games_per_s_2jobs=n / t2, speedup_2_vs_1=t1 / t2,
             games_per_s_2_loky=n / t_loky, threads_vs_loky=t_loky / t2, mean_length=float(df["length"].mean()))
    r["kernel_games_per_s_1core"] = kernel_games_per_s(game, n_kernel)
    floor = Path(__file__).parent / f"{game}_floor.py"
    if floor.exists():
        r["floor_games_per_s_1core"] = import_module(floor.stem).games_per_s(n_kernel)
        r["kernel_cost_vs_floor"] = r["floor_games_per_s_1core"] / r["kernel_games_per_s_1core"]
    if big:
        r["cli_wall_s_" + big], r["peak_rss_mib_" + big] = cli_wall_s(["sim", game, "--n", big, "--jobs", "2"])
    return r


def search_bench(game: str, n: int) -> dict:
    """The search player's cost on one core: seat 0 plays `search` at its default budget against the tuned
    field (analyzer.strength's), n games in one plan (the runner's chunk): rollouts/s, and per decision."""
    from analyzer import search, strength
    g = analyzer.games.get(game)
    policy, _ = strength.field_player(g)
    base = strength.field_scenario(g, analyzer.load_scenario(g))
    sc = analyzer.load_scenario(g, scenario=base.model_copy(update={"policies": ["search"] + [policy] * (base.players - 1)}))
    sc = type(sc).model_validate(sc.model_dump(mode="json"))  # fills the rollout player in (a before-validator)
    inputs = g.kernel_inputs(sc)
    search.plan(g, sc, 1, np.arange(1, dtype=np.int64), inputs)  # compile or load the cache
    t0 = time.perf_counter()
    p = search.plan(g, sc, 0, np.arange(n, dtype=np.int64), inputs)
    dt = time.perf_counter() - t0
    decisions = sum(len(x) for x in p.searched)
    rollouts = int(sc.weights_of(0)["rollouts"])
    r = {"games": n, "rollouts_per_option": rollouts, "decisions_per_game": decisions / n,
         "rollouts_per_s_1core": p.rollouts / dt, "rollouts_per_decision": p.rollouts / max(decisions, 1),
         "s_per_decision_1core": dt / max(decisions, 1), "s_per_game_1core": dt / n}
    r["report_section_s_2cores"] = report_section_s(g.search_plan, base.players, r["decisions_per_game"],
                                                    r["s_per_decision_1core"] / rollouts)
    return r


def report_section_s(plan, players: int, decisions: float, s_per_decision_rollout: float) -> float:
    """What the report's "Under search play" section costs on 2 cores at the game's SearchPlan, from the
    cost measured above: a decision costs in proportion to its rollouts per option (the budget is that times
    the options). Every seat searching on plan.n games, then one search seat per rotation at each of the
    curve's budgets on plan.curve_n games; the games of the scripted players are left out (a few seconds)."""
    everyone = plan.n * players * decisions * plan.rollouts
    curve = plan.curve_n * players * decisions * sum(plan.budgets)
    return (everyone + curve) * s_per_decision_rollout / 2


# the CLI in a fresh process that reports its own peak RSS (the threads backend plays in that process).
# VmHWM, not ru_maxrss: Linux carries ru_maxrss across exec, so a child of this (large) process would
# report the parent's peak; VmHWM belongs to the new program's memory alone.
CLI_WITH_RSS = ("import re, resource, sys; from analyzer.cli import main; code = main(sys.argv[1:]); "
                "hwm = re.search(r'VmHWM:\\s+(\\d+)', open('/proc/self/status').read()) if sys.platform == 'linux' else None; "
                "print('peak_rss_kib', hwm.group(1) if hwm else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss); "
                "sys.exit(code)")


def cli_wall_s(args: list[str]) -> tuple[float, float]:
    """Wall time (start-up included) and peak RSS in MiB of `analyzer ARGS`."""
    with tempfile.TemporaryDirectory() as d:
        t0 = time.perf_counter()
        r = subprocess.run([sys.executable, "-c", CLI_WITH_RSS, *args, "--out", f"{d}/r.parquet", "-q"], check=True,
                           capture_output=True, text=True)
        wall = time.perf_counter() - t0
    rss_kib = int(r.stdout.split("peak_rss_kib")[-1])
    return wall, rss_kib / 1024


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true", help="small runs, for a smoke test of the benchmark itself")
    ap.add_argument("games", nargs="*", help="games to measure (default: all)")
    ap.add_argument("--games", dest="games_csv", help="the same, comma-separated (make bench GAMES=a,b)")
    ap.add_argument("--base", help="also measure the kernels of this commit, alternating with this tree's")
    ap.add_argument("--no-cold-compile", action="store_true", help="skip the cold compiles (minutes per game)")
    ap.add_argument("--search-only", action="store_true", help="only the search player's cost (every searchable game)")
    a = ap.parse_args()
    scale = 0.05 if a.quick else 1.0
    # measured in parts (--games): the other games' earlier numbers stay in the file
    res: dict = json.loads((OUT / "bench.json").read_text()) if (OUT / "bench.json").exists() else {}
    res["machine"] = {"cpus": os.cpu_count(), "python": sys.version.split()[0],
                      "load_average_at_start": round(os.getloadavg()[0], 1),
                      "cpu_target": analyzer.compile_cache.target()}  # what the kernels were compiled for

    chosen = a.games or (a.games_csv.split(",") if a.games_csv else list(GAMES))
    if unknown := set(chosen) - set(GAMES):
        ap.error(f"--games: unknown {', '.join(sorted(unknown))}; choose from {', '.join(GAMES)}")
    searchable = [x for x in analyzer.games.names() if analyzer.games.get(x).searchable]
    for game in searchable if a.search_only else [x for x in chosen if x in searchable] + (["pig"] if not a.games else []):
        res.setdefault(game, {})["search"] = search_bench(game, max(2, int(SEARCH_GAMES * scale * 4) if a.quick else SEARCH_GAMES))
    if a.search_only:
        chosen = []
    uno = rlcard_uno_games_per_s(2 if a.quick else 10) if "stop" in chosen else None
    if uno is not None:
        res["rlcard_uno_games_per_s"] = uno
    for game in chosen:
        n, n_kernel, big = GAMES[game]
        res[game] = {**game_bench(game, int(n * scale), int(n_kernel * scale), big and ("5e4" if a.quick else big),
                                  cold=not a.no_cold_compile), **({"search": res[game]["search"]} if "search" in res.get(game, {}) else {})}
        res[game]["quick"] = a.quick
    if "stop" in chosen:
        stop = res["stop"]
        stop["hands_per_match"] = stop.pop("mean_length")
        stop["hands_per_s_1job"] = stop["hands_per_match"] * stop["games_per_s_1job"]
        if uno := res.get("rlcard_uno_games_per_s"):
            stop["ratio_hands_per_s_vs_rlcard_uno_games_per_s"] = stop["hands_per_s_1job"] / uno

    if a.base:
        import against
        res["against_" + a.base] = against.compare(a.base, {g: int(50_000 * scale) for g in chosen})

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
