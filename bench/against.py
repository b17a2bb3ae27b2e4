"""Kernel speed of this tree against another commit, measured in one run (`make bench BASE=<commit>`).

Each side runs in its own process with its own source tree (a temporary `git worktree` of BASE) and
its own numba cache; the sides alternate, best of several, so machine noise hits both alike.
"""
from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROBE = """
import sys, time, numpy as np, analyzer
from analyzer import games
g = games.get(sys.argv[1]); sc = analyzer.load_scenario(g); ids = np.arange(int(sys.argv[2]))
g.run_batch(sc, 1, ids[:10])
best = float("inf")
for _ in range(3):
    t = time.perf_counter(); g.run_batch(sc, 1, ids); best = min(best, time.perf_counter() - t)
print(len(ids) / best)
"""


def _rate(tree: Path, game: str, n: int) -> float:
    out = subprocess.run([sys.executable, "-c", PROBE, game, str(n)], cwd=tree, capture_output=True, text=True,
                         check=True, env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"})
    return float(out.stdout.strip().splitlines()[-1])


def compare(base: str, games: dict[str, int], rounds: int = 3) -> dict:
    """{game: {"base": games/s, "now": games/s, "now_vs_base": ratio}}, best of `rounds` alternations."""
    res = {}
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "base"
        subprocess.run(["git", "worktree", "add", "--detach", str(tree), base], cwd=ROOT, check=True,
                       capture_output=True)
        try:
            for game, n in games.items():
                if subprocess.run(["git", "cat-file", "-e", f"{base}:analyzer/games/{game}"], cwd=ROOT).returncode:
                    continue  # the game did not exist yet
                now, then = 0.0, 0.0
                for _ in range(rounds):
                    then = max(then, _rate(tree, game, n))
                    now = max(now, _rate(ROOT, game, n))
                res[game] = {"base": then, "now": now, "now_vs_base": now / then}
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, capture_output=True)
    return res
