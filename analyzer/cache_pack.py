"""A compile cache built once and carried to other machines: `analyzer cache pack` and `cache unpack`.

A cold compile costs a minute or more per game (numba's pipeline, docs/performance.md 2026-12-02) and
no lever inside numba brings it near 20 s without costing kernel speed. What does is compiling once:
the cache files are keyed by the contents of the sources (compile_cache), not by their path or
mtime, so the files one checkout wrote load warm in any checkout of the same sources on the same
numba, Python and machine kind. A pack is a tar of those files with a manifest; unpacking it into a
fresh clone, a CI runner or each dask worker turns the first run's minutes into a cache load.

numba keys each compiled function by the CPU it was compiled for as well. The kernels compile for a
portable CPU by default (compile_cache.target(): "generic", x86-64's baseline), so a pack serves every
x86-64 machine; a pack for another target (NUMBA_CPU_NAME) is placed but not used, and its kernels
compile on first use as if cold (nothing wrong is run).
"""
from __future__ import annotations

import io
import json
import platform
import sys
import tarfile
from pathlib import Path

import numba
from numba.core import caching, config

from . import compile_cache
from .errors import UserError
from .results import atomic_path

FORMAT = 2  # 2: the CPU target in the file names and the manifest
SHARED = "shared"  # the pack's folder for the package's own shared kernels (rng.py, kernel.py, ...)


def cache_root(folder: Path) -> Path:
    """Where the cache files of the kernels defined in `folder` live on this machine."""
    if config.CACHE_DIR:
        return Path(config.CACHE_DIR) / caching.UserProvidedCacheLocator.get_suitable_cache_subpath(str(folder / "x.py"))
    return folder / "__pycache__"


def cache_files(folder: Path) -> list[Path]:
    """The cache files written for the current sources of `folder` and this CPU target (both are in their names)."""
    tag = f"{compile_cache.file_tag(folder)}."
    root = cache_root(folder)
    return sorted(f for f in root.glob("*.nb[ic]") if tag in f.name) if root.is_dir() else []


def machine() -> dict:
    """What a pack must match to be of use here: numba and Python (the files are pickles and machine
    code), the OS and architecture; the CPU target ("generic" unless NUMBA_CPU_NAME names one) only decides
    whether numba finds its entries."""
    return {"numba": numba.__version__, "python": f"{sys.version_info.major}.{sys.version_info.minor}",
            "platform": f"{sys.platform}-{platform.machine()}", "cpu": compile_cache.target()}


def _folders(names: list[str]) -> dict[str, Path]:
    from . import games
    return {name: Path(sys.modules[type(games.get(name)).__module__].__file__).parent for name in names}


def pack(names: list[str], out: Path, on_game=lambda name: None) -> dict:
    """Compile (or load) each game's kernels by playing one game of its default scenario, then write
    their cache files and the package's shared ones to the tar `out`. Returns the manifest."""
    from . import api, games
    folders = _folders(names)
    for name in names:
        on_game(name)
        g = games.get(name)
        g.warm_up(api.load_scenario(g))
    entries = dict(folders)
    if cache_files(compile_cache.PACKAGE):  # a game loaded whole from its cache compiles none of them
        entries[SHARED] = compile_cache.PACKAGE
    manifest = {"format": FORMAT, **machine(),
                "stamps": {key: compile_cache.sources_stamp(folder) for key, folder in entries.items()},
                "files": {key: [f.name for f in cache_files(folder)] for key, folder in entries.items()}}
    with atomic_path(out) as tmp, tarfile.open(tmp, "w:gz") as tar:
        data = json.dumps(manifest, indent=1).encode()
        info = tarfile.TarInfo("manifest.json")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
        for key, folder in entries.items():
            for f in cache_files(folder):
                tar.add(f, arcname=f"{key}/{f.name}")
    return manifest


def _manifest(tar: tarfile.TarFile, path: Path) -> dict:
    try:
        manifest = json.load(tar.extractfile("manifest.json"))
    except (KeyError, ValueError):
        raise UserError(f"{path}: not a cache pack (no manifest.json); make one with `analyzer cache pack`") from None
    if manifest.get("format") != FORMAT:
        raise UserError(f"{path}: cache pack format {manifest.get('format')!r}; this analyzer reads format {FORMAT}")
    here = machine()
    for field in ("numba", "python", "platform"):
        if manifest.get(field) != here[field]:
            raise UserError(f"{path}: built for {field} {manifest.get(field)}, this machine has {here[field]}; "
                            "pack it again on a machine like this one")
    return manifest


def _place(tar: tarfile.TarFile, member: str, root: Path, path: Path) -> None:
    """One cache file written whole or not at all (numba must never read half a file)."""
    try:
        data = tar.extractfile(member).read()
    except (KeyError, tarfile.TarError, OSError):
        raise UserError(f"{path}: incomplete cache pack ({member} missing or unreadable); pack it again") from None
    try:
        root.mkdir(parents=True, exist_ok=True)
        with atomic_path(root / Path(member).name) as tmp:
            tmp.write_bytes(data)
    except OSError as e:
        raise UserError(f"{root}: cannot write the cache files ({e.strerror or e}); set NUMBA_CACHE_DIR to a "
                        "writable folder") from None


def unpack(path: Path) -> list[tuple[str, str]]:
    """Put the pack's files where this checkout's kernels look for them. Returns (part, what happened)
    per game (and the shared kernels): files placed, or skipped because the sources here differ."""
    from . import games
    path = Path(path)
    try:
        tar = tarfile.open(path, "r:*")
    except tarfile.TarError:  # its message lists every compression it tried, one line each
        raise UserError(f"{path}: not a cache pack (not a tar archive); make one with `analyzer cache pack`") from None
    except OSError as e:
        raise UserError(f"{path}: cannot read a cache pack ({e.strerror or e})") from None
    with tar:
        manifest = _manifest(tar, path)
        unknown = sorted(set(manifest["stamps"]) - {SHARED, *games.names()})
        if unknown:
            raise UserError(f"{path}: holds games this analyzer does not know: {', '.join(unknown)}")
        folders = _folders([k for k in manifest["stamps"] if k != SHARED])
        if SHARED in manifest["stamps"]:
            folders[SHARED] = compile_cache.PACKAGE
        done = []
        for key, folder in folders.items():
            if manifest["stamps"][key] != compile_cache.sources_stamp(folder):
                done.append((key, "skipped: packed from other sources (it compiles on first use, as without a pack)"))
                continue
            root = cache_root(folder)
            for name in manifest["files"][key]:
                _place(tar, f"{key}/{Path(name).name}", root, path)  # a bare file name: nothing lands outside root
            done.append((key, f"{len(manifest['files'][key])} files"))
    if manifest["cpu"] != machine()["cpu"]:
        done.append(("note", f"packed for CPU {manifest['cpu']}, kernels here compile for {machine()['cpu']} "
                             "(NUMBA_CPU_NAME): these kernels compile here on first use"))
    return done
