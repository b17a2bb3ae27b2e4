"""Compiled kernels for a new machine: the cache pack published with a release, fetched by `make install`.

A first run compiles each game's kernels for a minute or more. A release publishes one `analyzer cache
pack` of every game per numba, Python and platform as a release file (portable CPU target: any x86-64
machine loads it); `kernels.lock` beside this module names each file's address and SHA-256. Fetching
takes only a file named there, checks its hash before anything is unpacked, and unpacks it: a game whose
sources changed since the release is skipped and compiles on its first run, which says so. No entry for
this machine, no network, or a wrong hash: nothing is unpacked, one line says why, and the install goes on.

    python -m analyzer.cache_fetch      # what `make install` runs
"""
from __future__ import annotations

import hashlib
import json
import tempfile
import urllib.request
from pathlib import Path
from typing import Callable

from .errors import UserError

LOCK = Path(__file__).with_name("kernels.lock")
MATCH = ("numba", "python", "platform", "cpu")  # what a pack's machine code and pickles must match here


def entry(machine: dict, lock: Path = LOCK) -> dict | None:
    """The lock's pack for this machine (cache_pack.machine()), if a release published one."""
    packs = json.loads(lock.read_text()) if lock.is_file() else []
    return next((p for p in packs if all(p.get(k) == machine[k] for k in MATCH)), None)


def _download(url: str, to: Path) -> str:
    """The file at `url` written to `to`; returns its SHA-256."""
    h = hashlib.sha256()
    with urllib.request.urlopen(url, timeout=60) as src, open(to, "wb") as dst:
        while block := src.read(1 << 20):
            h.update(block)
            dst.write(block)
    return h.hexdigest()


def fetch(lock: Path = LOCK, say: Callable[[str], None] = print) -> bool:
    """Fetch and unpack this machine's published pack. Returns whether one was unpacked."""
    from . import cache_pack
    machine = cache_pack.machine()
    pack = entry(machine, lock)
    if pack is None:
        say(f"compiled kernels: none published for numba {machine['numba']}, Python {machine['python']}, "
            f"{machine['platform']}, CPU target {machine['cpu']}; each game compiles on its first run (a minute or more)")
        return False
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "kernels.tar.gz"
        try:
            digest = _download(pack["url"], path)
        except OSError as e:  # offline, or the release file is gone
            say(f"compiled kernels: cannot fetch {pack['url']} ({e}); each game compiles on its first run")
            return False
        if digest != pack["sha256"]:
            say(f"compiled kernels: {pack['url']} has SHA-256 {digest}, {lock.name} pins {pack['sha256']}: "
                "refused, nothing unpacked; each game compiles on its first run")
            return False
        try:
            unpacked = cache_pack.unpack(path)
        except UserError as e:  # a lock entry that does not describe its file
            say(f"compiled kernels: {e}; each game compiles on its first run")
            return False
    for part, what in unpacked:
        say(f"compiled kernels: {part}: {what}")
    return True


if __name__ == "__main__":
    fetch()
