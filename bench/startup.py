"""Start-up cost, side by side: wall and CPU time of a small warm run and of `--help`.

    python bench/startup.py [--against /work/main] [--rounds 7] [--n 1000] [--game stop]

Each round runs `analyzer sim GAME --n N` and `analyzer --help` in this tree and, with --against, in
another checkout (its compile cache warm: run it once before), alternating so that both see the same
load. Prints the best of the rounds (the least disturbed run) for each and the ratios. CPU time is the
child's user + system time. The first round of each tree is a warm-up and is not counted.
"""
from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def timed(tree: Path, args: list[str]) -> tuple[float, float]:
    """(wall, cpu) seconds of `python -m analyzer ARGS` run from `tree`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "analyzer", *args], cwd=tree, env={**os.environ, "PYTHONPATH": str(tree)},
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--against", type=Path, help="another checkout to compare with (warm cache)")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--game", default="stop")
    a = ap.parse_args()
    trees = {"this": ROOT, **({"against": a.against.resolve()} if a.against else {})}
    best: dict[tuple[str, str], list[float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for round_ in range(a.rounds + 1):
            for name, tree in trees.items():
                out = Path(tmp) / f"{name}.parquet"
                for what, args in (("sim", ["sim", a.game, "--n", str(a.n), "--out", str(out), "--force", "--quiet"]),
                                   ("help", ["--help"])):
                    wall, cpu = timed(tree, args)
                    if round_:
                        b = best.setdefault((name, what), [wall, cpu])
                        b[0], b[1] = min(b[0], wall), min(b[1], cpu)
    print(f"best of {a.rounds} rounds, load {os.getloadavg()[0]:.1f}")
    for (name, what), (wall, cpu) in sorted(best.items()):
        print(f"{name:8s} {what:5s} wall {wall:5.2f} s  cpu {cpu:5.2f} s")
    if a.against:
        for what in ("sim", "help"):
            (w1, c1), (w0, c0) = best[("this", what)], best[("against", what)]
            print(f"{what}: this / against  wall {w1 / w0:.2f}  cpu {c1 / c0:.2f}")


if __name__ == "__main__":
    main()
