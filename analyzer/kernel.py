"""What every compiled game kernel shares.

The compile cache. numba caches a compiled function beside its source and checks only that one
file's contents when loading it, so after an edit to a game's `state.py` a kernel in `engine.py` that
calls it would load the old machine code: a stale kernel plays yesterday's rules. Here every cached
function inside the analyzer package is keyed by the contents of all the Python files of its own
folder (one game's package) plus the modules every kernel compiles in (`rng.py`, this file). Any
edit anywhere in a game rebuilds that game's kernels, and only that game's. Importing
`analyzer.games` installs it, before any game module is imported (numba picks a cache locator when
a function is decorated).
"""
from __future__ import annotations

import functools
import hashlib
from pathlib import Path

from numba.core import caching

PACKAGE = Path(__file__).resolve().parent
SHARED = (PACKAGE / "rng.py", PACKAGE / "kernel.py")


@functools.cache
def sources_stamp(folder: Path) -> str:
    """A hash of every .py file that a kernel defined in `folder` may compile in."""
    files = sorted(set(folder.glob("*.py"))) if folder != PACKAGE else []
    h = hashlib.sha256()
    for f in [*files, *SHARED]:
        h.update(f.name.encode())
        h.update(f.read_bytes())
    return h.hexdigest()


class PackageStampLocator(caching.InTreeCacheLocator):
    """numba's in-tree cache (beside the sources), stamped with the whole folder's sources. The stamp
    is read at decoration time: an edit made while a process runs is seen by the next process."""

    def get_source_stamp(self):
        folder = Path(self._py_file).resolve().parent
        own = hashlib.sha256(Path(self._py_file).read_bytes()).hexdigest()
        return own + sources_stamp(folder)

    @classmethod
    def from_function(cls, py_func, py_file):
        if PACKAGE not in Path(py_file).resolve().parents:
            return None  # not ours (e.g. a test's toy game): numba's own locators decide
        return super().from_function(py_func, py_file)


def install_cache_locator() -> None:
    if PackageStampLocator not in caching.CacheImpl._locator_classes:
        caching.CacheImpl._locator_classes.insert(0, PackageStampLocator)
