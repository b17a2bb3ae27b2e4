"""The project's mutation check: break one rule at a time and see whether the game's tests notice.

    python scripts/mutants.py GAME [GAME ...] [--jobs N] [--only 3,7]     (`make mutants` runs them all)

`--only` takes the numbers the runs print (stop#3: the fourth entry of mutants/stop.yaml, counted from 0).

Each game keeps its list in `mutants/<game>.yaml`: entries with `rule` (which rule of the spec the
edit breaks), `file`, `find` (source text that must occur exactly once) and `replace`. Every mutant
runs in a fresh copy of the working tree, so it compiles its own numba cache: a shared cache could
serve the unmutated kernel and make a mutant look killed or survived for the wrong reason.

A mutant is killed when the game's tests (`tests/<game>/test_*.py` or `tests/test_<game>_*.py`, fastest file first, as timed on
the unmutated tree) fail or time out; a surviving mutant is a missing test.

`--no-jit` runs the tests as plain Python (NUMBA_DISABLE_JIT=1): no compile per mutant, so Simply
Cosmic's, Simple Card's and STOP's lists take minutes instead of hours; Space Base and MLEM need the
jit (structrefs; MLEM's tests are slow as Python). Python integers do not wrap as the kernel's do, so
confirm a survivor with the jit before writing its test. With the jit, the kernels are compiled with
NUMBA_BOUNDSCHECK=1: a mutant that indexes out of bounds fails its test with an IndexError, where
unchecked it would read or write astray (or crash the run). Exit code 1 when any mutant survives or no
longer applies.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
COPIED = ("analyzer", "tests", "scenarios", "pyproject.toml")
TIMEOUT_S = 1200
EXTRA_ENV: dict[str, str] = {}  # NUMBA_DISABLE_JIT with --no-jit, else NUMBA_BOUNDSCHECK


@dataclass
class Mutant:
    game: str
    index: int
    rule: str
    file: str
    find: str
    replace: str

    @property
    def label(self) -> str:
        return f"{self.game}#{self.index}"


def load(game: str) -> list[Mutant]:
    entries = yaml.safe_load((ROOT / "mutants" / f"{game}.yaml").read_text()) or []
    return [Mutant(game, i, e["rule"], e["file"], e["find"], e["replace"]) for i, e in enumerate(entries)]


def copy_tree(dest: Path) -> None:
    skip = shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc", "*.pyc")
    for name in COPIED:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=skip)
        else:
            shutil.copy2(src, dest / name)


def apply(m: Mutant, tree: Path) -> str | None:
    """Apply the edit in `tree`; return why it cannot be applied, or None."""
    path = tree / m.file
    if not path.is_file():
        return f"no file {m.file}"
    text = path.read_text()
    count = text.count(m.find)
    if count != 1:
        return f"`find` occurs {count} times in {m.file}"
    path.write_text(text.replace(m.find, m.replace))
    return None


def test_files(game: str, tree: Path) -> list[str]:
    """The game's tests: tests/<game>/test_*.py (with its conftest.py builder), or the older flat
    tests/test_<game>_*.py."""
    found = [*(tree / "tests" / game).glob("test_*.py"), *(tree / "tests").glob(f"test_{game}_*.py")]
    return sorted(str(p.relative_to(tree)) for p in found)


def run_tests(files: list[str], tree: Path) -> tuple[str, float]:
    """Run the test files in `tree` one after another, stopping at the first failure: 'pass', 'fail'
    or 'timeout', and the seconds it took."""
    env = dict(os.environ, PYTHONPATH=str(tree), PYTHONDONTWRITEBYTECODE="1", **EXTRA_ENV)
    start = time.perf_counter()
    for f in files:
        try:
            proc = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", f],
                                  cwd=tree, env=env, capture_output=True, timeout=TIMEOUT_S)
        except subprocess.TimeoutExpired:
            return "timeout", time.perf_counter() - start
        if proc.returncode != 0:
            return "fail", time.perf_counter() - start
    return "pass", time.perf_counter() - start


def baseline(game: str) -> tuple[str, list[str]]:
    """Run each test file of the game once on the unmutated tree; returns the outcome and the files
    ordered fastest first, so that most mutants are killed by a quick file (the first file of every
    run also pays the cold compile)."""
    with tempfile.TemporaryDirectory(prefix="mutant-") as tmp:
        tree = Path(tmp)
        copy_tree(tree)
        timed = []
        for f in test_files(game, tree):
            outcome, secs = run_tests([f], tree)  # the first file compiles; later ones load the cache
            print(f"  {f}: {outcome} ({secs:.0f} s)", flush=True)
            if outcome != "pass":
                return outcome, []
            timed.append((secs, f))
        return "pass", [f for _, f in sorted(timed)]


def check(m: Mutant, files: list[str]) -> tuple[str, float]:
    """One mutant in a fresh tree."""
    with tempfile.TemporaryDirectory(prefix="mutant-") as tmp:
        tree = Path(tmp)
        copy_tree(tree)
        if why := apply(m, tree):
            return f"stale: {why}", 0.0
        return run_tests(files, tree)


def verdict(outcome: str) -> str:
    return {"pass": "SURVIVED", "fail": "killed", "timeout": "killed (timeout)"}.get(outcome, outcome)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="+", help="games whose mutants/<game>.yaml to run")
    ap.add_argument("--jobs", type=int, default=2, help="mutants tested at once (each uses one core)")
    ap.add_argument("--only", default="", help="comma-separated mutant indices as printed (GAME#N: counted from 0 in the yaml; one game only)")
    ap.add_argument("--no-jit", action="store_true", help="run the tests as plain Python (see the module doc)")
    args = ap.parse_args()
    EXTRA_ENV["NUMBA_DISABLE_JIT" if args.no_jit else "NUMBA_BOUNDSCHECK"] = "1"
    mutants = [m for g in args.games for m in load(g)]
    if args.only:
        wanted = {int(i) for i in args.only.split(",")}
        mutants = [m for m in mutants if m.index in wanted]
    order = {}
    for game in args.games:  # a failing baseline would count every mutant as killed
        print(f"{game} baseline:", flush=True)
        outcome, order[game] = baseline(game)
        if outcome != "pass":
            print(f"{game} baseline: tests {outcome}; no mutant run")
            return 1
    bad = 0
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for m, (outcome, secs) in zip(mutants, pool.map(lambda m: check(m, order[m.game]), mutants), strict=True):
            result = verdict(outcome)
            bad += not result.startswith("killed")
            print(f"{m.label:<14} {result:<18} {secs:5.0f} s  {m.rule}", flush=True)
    print(f"{len(mutants) - bad} killed, {bad} survived or stale, of {len(mutants)} mutants")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
