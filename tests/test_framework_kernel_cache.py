"""The compile cache never runs stale code: an edit to any file of a game's package rebuilds the
kernels of that package, without `make clean` (numba alone checks only the kernel's own file)."""
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

HELPER = "from numba import njit\n\n\n@njit(cache=True)\ndef rule():\n    return {value}\n"
KERNEL = ("from numba import njit\n\nfrom .helper import rule\n\n\n"
          "@njit(cache=True)\ndef play():\n    return rule() * 10\n")
PROBE = ("import analyzer.games\nfrom pathlib import Path\nfrom analyzer import compile_cache\n"
         "warm = compile_cache.is_warm(Path(analyzer.games.__file__).parent / 'probe')\n"
         "from analyzer.games.probe.kernel import play\n"
         "print(play(), play.stats.cache_hits.total() if hasattr(play.stats.cache_hits, 'total') "
         "else sum(play.stats.cache_hits.values()), int(warm))\n")


def _run(tree: Path, cache_dir: Path | None) -> tuple[int, int, int]:
    """(the kernel's value, cache hits, whether compile_cache.is_warm said the cache was ready)"""
    env = {"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin", **({"NUMBA_CACHE_DIR": str(cache_dir)} if cache_dir else {})}
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=tree, capture_output=True, text=True, check=True,
                         env=env).stdout.split()
    return int(out[0]), int(out[1]), int(out[2])


@pytest.mark.parametrize("user_dir", [False, True], ids=["beside the sources", "NUMBA_CACHE_DIR"])
def test_editing_a_helper_file_rebuilds_the_kernel_that_calls_it(tmp_path, user_dir):
    shutil.copytree(ROOT / "analyzer", tmp_path / "analyzer",
                    ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc", "stop", "spacebase"))
    game = tmp_path / "analyzer" / "games" / "probe"
    game.mkdir()
    (game / "__init__.py").write_text("")
    (game / "helper.py").write_text(HELPER.format(value=1))
    (game / "kernel.py").write_text(KERNEL)
    cache = tmp_path / "cache" if user_dir else None
    assert _run(tmp_path, cache) == (10, 0, 0)  # compiled and cached
    assert _run(tmp_path, cache) == (10, 1, 1)  # loaded from the cache, which is_warm saw
    beside = list(game.rglob("*.nbi"))
    assert (not beside and list(cache.rglob("kernel.play-*.nbi"))) if user_dir else beside
    (game / "helper.py").write_text(HELPER.format(value=2))
    # the kernel's own file is unchanged, yet the new rule is played, and the old cache was not "warm"
    assert _run(tmp_path, cache)[::2] == (20, 0)
    # ... from a cache file of its own: the old index, written by other sources, is never opened
    assert len(list((cache or game).rglob("kernel.play-*.nbi"))) == 2


def test_a_cache_built_once_loads_warm_in_a_checkout_elsewhere(tmp_path):
    """A cache is keyed by the sources' contents, not their path or mtime: built once (make install, or
    shipped per platform), it spares a user's first run the cold compile."""
    built = tmp_path / "built"
    shutil.copytree(ROOT / "analyzer", built / "analyzer",
                    ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc", "stop", "spacebase"))
    game = built / "analyzer" / "games" / "probe"
    game.mkdir()
    (game / "__init__.py").write_text("")
    (game / "helper.py").write_text(HELPER.format(value=3))
    (game / "kernel.py").write_text(KERNEL)
    assert _run(built, None) == (30, 0, 0)
    elsewhere = tmp_path / "elsewhere"
    shutil.copytree(built, elsewhere)  # new paths and new mtimes, the caches beside the sources
    assert _run(elsewhere, None) == (30, 1, 1)


def test_running_a_kernel_does_not_load_scipy_but_np_dot_still_works():
    """numba's array support probes for a BLAS by importing scipy.linalg (a quarter second of a small
    run's start-up); compile_cache answers the probe without it, and np.dot still loads scipy itself."""
    probe = ("import sys, numpy as np\nimport analyzer.compile_cache\nfrom numba import njit\n"
             "add = njit(lambda a: a.sum())\nadd(np.ones(3))\nprint(int('scipy.linalg' in sys.modules))\n"
             "dot = njit(lambda a, b: np.dot(a, b))\nprint(int(dot(np.ones(3), np.ones(3))), int('scipy.linalg' in sys.modules))\n")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                         env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}).stdout.split()
    assert out == ["0", "3", "1"]


@pytest.mark.parametrize("cold", [True, False])
def test_a_cold_warm_up_eases_the_collector_and_restores_it(monkeypatch, cold):
    import gc

    from analyzer import api, compile_cache, games
    game = games.get("pig")
    scenario = api.load_scenario(game)
    before = gc.get_threshold()
    seen = {}

    def run_batch(sc, seed, ids):
        seen.update(threshold=gc.get_threshold(), frozen=gc.get_freeze_count())

    monkeypatch.setattr(compile_cache, "is_warm", lambda folder: not cold)
    monkeypatch.setattr(game, "run_batch", run_batch)
    game.warm_up(scenario)
    assert seen["threshold"] == ((100_000, 50, 100) if cold else before)
    assert (seen["frozen"] > 0) == cold
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0  # all restored


BOUNDS_KERNEL = "import numpy as np\nfrom numba import njit\n\n\n@njit(cache=True)\ndef play(i):\n    return np.arange(3)[i]\n"
BOUNDS_PROBE = ("import sys\nimport analyzer.compile_cache\nfrom analyzer.games.probe.kernel import play\n"
                "print(play(int(sys.argv[1])), play.stats.cache_hits.total() if hasattr(play.stats.cache_hits, 'total') "
                "else sum(play.stats.cache_hits.values()))\n")


def test_a_bounds_checked_run_keeps_kernels_of_its_own(tmp_path):
    """NUMBA_BOUNDSCHECK=1 (a debug run: an index out of bounds raises IndexError instead of reading or
    writing astray) compiles and caches its own kernels: numba's cache key leaves the flag out, so it would
    otherwise load the unchecked ones, and they its own."""
    shutil.copytree(ROOT / "analyzer", tmp_path / "analyzer",
                    ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc", "stop", "spacebase"))
    game = tmp_path / "analyzer" / "games" / "probe"
    game.mkdir()
    (game / "__init__.py").write_text("")
    (game / "kernel.py").write_text(BOUNDS_KERNEL)

    def run(index, checked):
        env = {"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin", **({"NUMBA_BOUNDSCHECK": "1"} if checked else {})}
        return subprocess.run([sys.executable, "-c", BOUNDS_PROBE, str(index)], cwd=tmp_path, capture_output=True,
                              text=True, env=env)

    assert run(2, False).stdout.split() == ["2", "0"]  # compiled and cached
    out_of_bounds = run(3, True)
    assert out_of_bounds.returncode != 0 and "IndexError" in out_of_bounds.stderr
    assert run(2, True).stdout.split() == ["2", "1"] and run(2, False).stdout.split() == ["2", "1"]


TARGET_PROBE = ("import os, sys\n{before}import analyzer.compile_cache as cc\n"
                "from numba.core.registry import cpu_target\nimport llvmlite.binding as b\n"
                "print(cc.target(), os.environ['NUMBA_CPU_NAME'], cpu_target.target_context.codegen().magic_tuple()[1],"
                " b.get_host_cpu_name())\n")


@pytest.mark.parametrize("numba_first", [False, True], ids=["analyzer first", "numba compiled first"])
def test_kernels_compile_for_the_portable_target_unless_numba_was_set_up_before(numba_first):
    """The kernels compile for "generic" (a cache any x86-64 machine loads). In a process where numba
    compiled before analyzer was imported, its code is the host's: the host's name is then set for the
    worker processes too, and the cache files are named after it."""
    before = "from numba import njit\nnjit(lambda: 1)()\n" if numba_first else ""
    out = subprocess.run([sys.executable, "-c", TARGET_PROBE.format(before=before)], capture_output=True, text=True,
                         check=True, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}).stdout.split()
    target, env, compiled, host = out
    assert target == env == compiled == (host if numba_first else "generic")
