"""`analyzer cache pack` / `unpack`: a compile cache built once loads warm in another checkout's cache
(here: an empty NUMBA_CACHE_DIR), and a pack that cannot serve is refused or skipped in one line."""
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

from analyzer.cli import main

ROOT = Path(__file__).resolve().parents[1]


def _cli(*args, cache: Path):
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    return subprocess.run([sys.executable, "-m", "analyzer", *args], cwd=ROOT, env=env, capture_output=True, text=True)


def _contents(folder: Path) -> dict[str, bytes]:
    return {str(f.relative_to(folder)): f.read_bytes() for f in sorted(folder.rglob("*")) if f.is_file()}


def test_an_unpacked_cache_is_loaded_by_the_first_run_which_compiles_nothing(tmp_path):
    pack, cache = tmp_path / "pig.tar.gz", tmp_path / "cache"
    made = _cli("cache", "pack", "pig", "--out", str(pack), cache=tmp_path / "pack-side")
    assert made.returncode == 0, made.stderr
    unpacked = _cli("cache", "unpack", str(pack), cache=cache)
    assert unpacked.returncode == 0, unpacked.stderr
    assert "pig: " in unpacked.stdout and "skipped" not in unpacked.stdout
    placed = _contents(cache)
    assert any(name.endswith(".nbi") and "play" in name for name in placed)
    run = _cli("sim", "pig", "--n", "300", "--out", str(tmp_path / "pig.parquet"), "--quiet", cache=cache)
    assert run.returncode == 0, run.stderr
    # a compile would have written its own index and code into the cache: the run only read it
    assert _contents(cache) == placed


def _rewritten(pack: Path, out: Path, **changes) -> Path:
    """The pack with its manifest edited (e.g. another numba version, or other sources for pig)."""
    with tarfile.open(pack) as src, tarfile.open(out, "w:gz") as dst:
        for member in src.getmembers():
            data = src.extractfile(member).read()
            if member.name == "manifest.json":
                manifest = json.loads(data)
                for key, value in changes.items():
                    manifest[key] = value(manifest) if callable(value) else value
                data = json.dumps(manifest).encode()
            member.size = len(data)
            dst.addfile(member, io.BytesIO(data))
    return out


def test_a_pack_that_cannot_serve_is_refused_or_skipped(tmp_path, capsys, monkeypatch):
    pack = tmp_path / "pig.tar.gz"
    assert _cli("cache", "pack", "pig", "--out", str(pack), cache=tmp_path / "pack-side").returncode == 0
    from analyzer import games
    games.get("pig")  # imported first: numba picks a kernel's cache folder when it is defined, for the whole process
    monkeypatch.setattr("numba.core.config.CACHE_DIR", str(tmp_path / "cache"))  # where unpack puts files

    other_numba = _rewritten(pack, tmp_path / "numba.tar.gz", numba="0.1.0")
    assert main(["cache", "unpack", str(other_numba)]) == 2
    assert "built for numba 0.1.0" in capsys.readouterr().err

    other_sources = _rewritten(pack, tmp_path / "edited.tar.gz", stamps=lambda m: {**m["stamps"], "pig": "0" * 64})
    assert main(["cache", "unpack", str(other_sources)]) == 0
    assert "pig: skipped: packed from other sources" in capsys.readouterr().out
    assert not list((tmp_path / "cache").rglob("engine.play-*.nbi"))

    incomplete = _rewritten(pack, tmp_path / "incomplete.tar.gz",
                            files=lambda m: {**m["files"], "pig": [*m["files"]["pig"], "engine.gone-1-x.py311.nbi"]})
    assert main(["cache", "unpack", str(incomplete)]) == 2
    assert "incomplete cache pack (pig/engine.gone-1-x.py311.nbi missing" in capsys.readouterr().err

    (tmp_path / "a-file").write_text("")
    monkeypatch.setattr("numba.core.config.CACHE_DIR", str(tmp_path / "a-file" / "cache"))
    assert main(["cache", "unpack", str(pack)]) == 2
    assert "cannot write the cache files" in capsys.readouterr().err

    (tmp_path / "junk.tar.gz").write_text("not a tar")
    assert main(["cache", "unpack", str(tmp_path / "junk.tar.gz")]) == 2
    assert "junk.tar.gz: not a cache pack (not a tar archive)" in capsys.readouterr().err
    assert main(["cache", "pack", "nosuchgame", "--out", str(tmp_path / "x.tar.gz")]) == 2
    assert "unknown game 'nosuchgame'" in capsys.readouterr().err


LOADED = """
import os, sys
assert "NUMBA_CPU_NAME" not in os.environ and "NUMBA_CPU_FEATURES" not in os.environ  # the host's own CPU unnamed
import numpy as np
import analyzer
from analyzer import games
from numba.core.dispatcher import Dispatcher
from numba.core.registry import cpu_target
g = games.get("pig")
g.run_batch(analyzer.load_scenario(g), 1, np.arange(50))
kernels = {id(o): o for m in list(sys.modules.values()) if getattr(m, "__name__", "").startswith("analyzer.")
           for o in vars(m).values() if isinstance(o, Dispatcher)}.values()
hits = sum(sum(k.stats.cache_hits.values()) for k in kernels)
misses = sum(sum(k.stats.cache_misses.values()) for k in kernels)  # a compile counts one miss per function
loaded = {key[1][1] for k in kernels if k.stats.cache_hits for key in k._cache._cache_file._load_index()}
print(cpu_target.target_context.codegen().magic_tuple()[1], hits, misses, ",".join(sorted(loaded)))
"""


def _checkout(path: Path) -> Path:
    """A copy of the package without any compile cache: another checkout, at another path."""
    shutil.copytree(ROOT / "analyzer", path / "analyzer", ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc"))
    return path


def test_a_portable_cache_packed_in_one_checkout_loads_warm_in_another(tmp_path):
    """The kernels compile for the portable CPU target by default (compile_cache), so a pack made in one
    checkout loads in a checkout elsewhere, on any x86-64 CPU, with nothing compiled there."""
    def run(tree, *args):
        env = {"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"}  # no NUMBA_CPU_NAME, no NUMBA_CACHE_DIR
        done = subprocess.run([sys.executable, *args], cwd=tree, env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        return done.stdout

    built, fresh, pack = _checkout(tmp_path / "built"), _checkout(tmp_path / "fresh"), tmp_path / "pig.tar.gz"
    assert "CPU generic" in run(built, "-m", "analyzer", "cache", "pack", "pig", "--out", str(pack))
    assert "pig: " in run(fresh, "-m", "analyzer", "cache", "unpack", str(pack))
    assert list((fresh / "analyzer" / "games" / "pig" / "__pycache__").glob("engine.play-*-generic.*.nbi"))
    target, hits, misses, loaded = run(fresh, "-c", LOADED).split()
    assert (target, loaded) == ("generic", "generic")
    assert int(hits) >= 1 and int(misses) == 0  # loaded, not compiled


def test_make_install_unpacks_only_the_pack_the_lock_pins_for_this_machine(tmp_path, monkeypatch):
    """`make install` fetches a release's pack (analyzer/cache_fetch.py): only the file kernels.lock names for
    this machine, unpacked only when its SHA-256 is the pinned one; otherwise one line, and first runs compile."""
    import hashlib

    from analyzer import cache_fetch, cache_pack, compile_cache
    machine, pig = cache_pack.machine(), cache_pack._folders(["pig"])["pig"]
    manifest = {"format": cache_pack.FORMAT, **machine, "stamps": {"pig": compile_cache.sources_stamp(pig)},
                "files": {"pig": []}}
    pack = tmp_path / "kernels.tar.gz"  # a release's pack, here without files
    with tarfile.open(pack, "w:gz") as tar:
        data = json.dumps(manifest).encode()
        info = tarfile.TarInfo("manifest.json")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    digest = hashlib.sha256(pack.read_bytes()).hexdigest()
    lock, said = tmp_path / "kernels.lock", []
    monkeypatch.setattr("numba.core.config.CACHE_DIR", str(tmp_path / "cache"))

    def fetch(**pinned):
        lock.write_text(json.dumps([{**machine, "url": pack.as_uri(), "sha256": digest, **pinned}]))
        return cache_fetch.fetch(lock, said.append)

    assert not fetch(numba="0.1.0") and "none published for numba" in said[-1]
    assert not fetch(sha256="0" * 64) and f"has SHA-256 {digest}, kernels.lock pins {'0' * 64}: refused" in said[-1]
    assert not fetch(url=(tmp_path / "gone.tar.gz").as_uri()) and "cannot fetch" in said[-1]
    assert fetch() and said[-1] == "compiled kernels: pig: 0 files"
