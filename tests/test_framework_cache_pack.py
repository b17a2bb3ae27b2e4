"""`analyzer cache pack` / `unpack`: a compile cache built once loads warm in another checkout's cache
(here: an empty NUMBA_CACHE_DIR), and a pack that cannot serve is refused or skipped in one line."""
import io
import json
import os
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
