"""The compile cache: never stale, never crashing on an old file.

numba caches a compiled function beside its source and checks only that one file's contents when
loading it, so after an edit to a game's `state.py` a kernel in `engine.py` that calls it would load
the old machine code: a stale kernel plays yesterday's rules. Here every cached function inside the
analyzer package is keyed by the contents of all the Python files of its own folder (one game's
package) plus the modules every kernel compiles in (`rng.py`, `kernel.py`, `kernel_internals.py`,
`kernel_pack.py`); the functions of those shared modules, called from every game with every game's
argument types, are keyed by every source file of the package. Any edit anywhere in a game rebuilds that game's kernels.

The key is in the cache file's *name*, not only in the stamp numba compares: numba unpickles a
cache index before it compares stamps, and an old index whose signatures name a class since moved
or deleted would crash the import. A cache written by other sources is never opened.

The cache sits beside the sources, or under NUMBA_CACHE_DIR when that is set (`make bench` times a
cold compile in an empty one). numba picks a function's locator when it is decorated, so this module
is imported before any module that defines a kernel: every game imports games/base.py first, which
imports it, and so do kernel.py and the registry (`games.get`). `import analyzer` alone does not, so
that `analyzer --help` never loads numba; the few self-contained helpers of rng.py and
kernel_internals.py, if imported on their own before any game, keep numba's own locator, which is
right for them (it keys a function by its own file).

Kernels compile for a portable CPU (`NUMBA_CPU_NAME=generic`, x86-64's baseline) unless the user names
one: numba loads a cached function only on the CPU model and features it was compiled for, so a
host-tuned cache serves one machine kind and a portable one serves every x86-64 machine with the same
numba, Python and OS (a pack, a CI cache, a dask cluster). It cost nothing measured: 0.96x-1.11x the
host target's games/s for each of the six games (docs/performance.md, 2026-12-07).
"""
from __future__ import annotations

import contextlib
import functools
import gc
import hashlib
import os
import sys
from pathlib import Path

from llvmlite import binding
from numba.core import caching, config
from numba.core.registry import cpu_target


def _portable_target() -> None:
    """Compile for x86-64's baseline unless NUMBA_CPU_NAME says otherwise. Once numba has made its code
    generator (something compiled before analyzer was imported) this process's code is for the host: the
    host's name is set instead, so that the worker processes it starts compile and look for the same."""
    if "NUMBA_CPU_NAME" in os.environ:
        return
    built = "_toplevel_target_context" in cpu_target.__dict__
    os.environ["NUMBA_CPU_NAME"] = binding.get_host_cpu_name() if built else "generic"  # read by the workers too
    config.reload_config()  # NUMBA_CPU_FEATURES follows: "" (the baseline's own) for generic, else the host's


_portable_target()


def _array_support_without_scipy() -> None:
    """numba's array support asks at import whether a BLAS is there by importing scipy.linalg: a
    quarter of a second, a fifth of a small run's start-up, paid by the first kernel call even when it
    loads from the cache. The answer serves only np.correlate and np.convolve on floats (a plain loop
    without it; no kernel here calls either); np.dot and np.linalg still import scipy when a kernel uses them."""
    if "numba.np.arraymath" in sys.modules or "scipy.linalg" in sys.modules:
        return
    sys.modules["scipy.linalg.cython_blas"] = None  # import raises ImportError at once, before scipy is loaded
    try:
        import numba.np.arraymath  # noqa: F401
    finally:
        del sys.modules["scipy.linalg.cython_blas"]


_array_support_without_scipy()


def _plain_calls() -> None:
    """Compile each of analyzer's functions once per argument type, not once per constant. numba types a
    constant argument at a call site (`score(p, typ, SRC_GOAL)`, `land(..., 0, False)`) as a literal and
    compiles the callee again for every distinct constant: Simply Cosmic's cold compile made 391
    specialisations, 94 of them such copies. A call between analyzer's functions is typed on the plain
    types first; a callee that needs the constant itself (an index into a heterogeneous tuple) fails that
    typing and gets the literal as before. Measured (docs/performance.md, 2026-12-07): Cosmic's cold
    compile 0.64x the CPU, MLEM's 0.71x, Simple Card's 0.79x, byte-identical results."""
    from numba.core import dispatcher, errors, types

    literal_typed = dispatcher.Dispatcher.get_call_template

    def get_call_template(self, args, kws):
        plain = tuple(types.unliteral(a) for a in args)
        if plain != tuple(args) and (self.py_func.__module__ or "").startswith(f"{__package__}."):
            with contextlib.suppress(errors.TypingError):
                return literal_typed(self, plain, kws)
        return literal_typed(self, args, kws)

    if not getattr(dispatcher.Dispatcher.get_call_template, "plain_calls", False):
        get_call_template.plain_calls = True
        dispatcher.Dispatcher.get_call_template = get_call_template


_plain_calls()

PACKAGE = Path(__file__).resolve().parent
SHARED = (PACKAGE / "rng.py", PACKAGE / "kernel.py", PACKAGE / "kernel_internals.py", PACKAGE / "kernel_pack.py")


@functools.cache
def sources_stamp(folder: Path) -> str:
    """A hash of every .py file that a kernel defined in `folder` may compile in; for the package's
    own shared modules, of every source file of the package."""
    if folder == PACKAGE:
        files = sorted(PACKAGE.rglob("*.py"))
    else:  # report.py is never compiled into a kernel: editing a report should not cost a recompile
        files = sorted(f for f in folder.glob("*.py") if f.name != "report.py")
    h = hashlib.sha256()
    for f in [*files, *SHARED]:
        h.update(f.name.encode())
        h.update(f.read_bytes())
    return h.hexdigest()


def build_variant() -> str:
    """A bounds-checked build (NUMBA_BOUNDSCHECK=1: every array index checked, so a kernel that indexes out
    of bounds raises IndexError instead of writing astray or crashing) is cached under names of its own:
    numba's cache key leaves the flag out, so a checked run would otherwise load unchecked kernels."""
    return "-boundscheck" if config.BOUNDSCHECK else ""


def target() -> str:
    """The CPU model the kernels compile for (and are cached for): "generic" unless NUMBA_CPU_NAME names one,
    or numba compiled before this module was imported (_portable_target)."""
    return config.CPU_NAME or binding.get_host_cpu_name()  # (an empty NUMBA_CPU_NAME: numba's own default, the host)


def file_tag(folder: Path) -> str:
    """What the cache files written for the current sources of `folder`, this build and this CPU target carry
    in their names: a cache for another target is never taken for a warm one (is_warm)."""
    return f"-{sources_stamp(folder)[:12]}{build_variant()}-{target()}"


@functools.cache
def _folder_of(py_file: str) -> Path:
    return Path(py_file).resolve().parent


@functools.cache
def _file_stamp(py_file: str) -> str:
    return hashlib.sha256(Path(py_file).read_bytes()).hexdigest()


class _FolderStamp:
    """Stamps a cached function with the whole folder's sources. The stamp is read when the first
    function of a file is decorated (once per file and process: a game defines about a hundred): an
    edit made while a process runs is seen by the next process."""

    def get_source_stamp(self):
        return _file_stamp(self._py_file) + sources_stamp(_folder_of(self._py_file))

    def get_disambiguator(self):
        # The stamp goes into the cache file's name too: numba unpickles an index before it compares
        # stamps, and an old index that names a class since moved or deleted would crash the import.
        # With the stamp in the name, a cache written by other sources is never opened.
        return f"{super().get_disambiguator()}{file_tag(_folder_of(self._py_file))}"

    @classmethod
    def from_function(cls, py_func, py_file):
        if not _folder_of(py_file).is_relative_to(PACKAGE):
            return None  # not ours (e.g. a test's toy game): numba's own locators decide
        return super().from_function(py_func, py_file)


class PackageStampLocator(_FolderStamp, caching.InTreeCacheLocator):
    """numba's in-tree cache (beside the sources), with the folder stamp."""

    @classmethod
    def from_function(cls, py_func, py_file):
        if config.CACHE_DIR:
            return None  # NUMBA_CACHE_DIR is set: the user-directory locator below takes it
        return super().from_function(py_func, py_file)


class PackageStampUserDirLocator(_FolderStamp, caching.UserProvidedCacheLocator):
    """The cache under NUMBA_CACHE_DIR when it is set (e.g. `make bench` times a cold compile in an
    empty one), with the folder stamp."""


def is_warm(folder: Path) -> bool:
    """Whether the kernels of `folder` were cached by its current sources: an index file carries the
    folder's stamp. Worker processes may then load them side by side; a cold cache is compiled once,
    by one process, before any worker plays."""
    tag = f"{file_tag(folder)}."
    root = Path(config.CACHE_DIR) if config.CACHE_DIR else folder / "__pycache__"
    return root.is_dir() and any(tag in f.name for f in root.rglob("*.nbi"))


def install_cache_locator() -> None:
    for locator in (PackageStampLocator, PackageStampUserDirLocator):
        if locator not in caching.CacheImpl._locator_classes:
            caching.CacheImpl._locator_classes.insert(0, locator)


install_cache_locator()  # at import


@contextlib.contextmanager
def collector_relaxed():
    """Python's cycle collector eased for a cold compile: numba's compiler makes millions of
    short-lived objects, and at the default thresholds the collector walks the imports' objects
    again and again (5-7% of a cold compile's perf samples). The objects alive now are frozen (never
    walked) and the youngest generation is collected every 100,000 allocations instead of 700. STOP's
    cold compile measured 0.92x, MLEM's and Simple Card's 0.96x (docs/performance.md, 2026-12-06); what
    numba compiles is the same. Everything is restored after."""
    thresholds = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(100_000, 50, 100)
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        gc.unfreeze()


# ---- how long a cold compile takes, for the wait message -------------------------------------------
# Measured on an idle 2-core machine, wall seconds (docs/performance.md, 2026-12-07: one specialisation per
# type); a compile on this machine records its own.
SHIPPED_SECONDS = {"stop": 40, "spacebase": 65, "mlem": 20, "simplecard": 30, "cosmic": 105, "pig": 5}


def _record(folder: Path) -> Path:
    root = Path(config.CACHE_DIR) if config.CACHE_DIR else folder / "__pycache__"
    return root / f"analyzer-compile-seconds-{folder.name}.txt"


def expected_seconds(folder: Path) -> float:
    """About how long compiling the kernels of `folder` takes: this machine's last compile, else the shipped figure."""
    try:
        return float(_record(folder).read_text())
    except (OSError, ValueError):
        return SHIPPED_SECONDS.get(folder.name, 60)


def record_seconds(folder: Path, seconds: float) -> None:
    try:
        _record(folder).write_text(f"{seconds:.0f}")
    except OSError:
        pass  # a read-only checkout: the shipped figure stays
