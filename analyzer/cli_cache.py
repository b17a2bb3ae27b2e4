"""`analyzer cache pack` / `cache unpack`: the compile cache carried to other machines (analyzer/cache_pack.py).
Registered on analyzer.cli_app's app (analyzer.cli imports this module)."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from . import games
from .cli_app import Command, app, out, results  # results: a lazy module
from .errors import UserError

cache_app = typer.Typer(
    help="Carry compiled kernels to other machines.\n\nA first run on a fresh machine compiles each game's kernels "
         "for a minute or more; a pack built on one machine makes that a cache load on any other of the same kind "
         "(same sources, numba, Python and OS: kernels compile for the portable CPU target `generic` unless NUMBA_CPU_NAME names another). `cache pack` on a "
         "built machine, `cache unpack` in a fresh clone, a CI runner or each dask worker."
         "\n\n\b\nExample: analyzer cache pack --out analyzer-cache.tar.gz", no_args_is_help=True)
app.add_typer(cache_app, name="cache")


@cache_app.command("pack", cls=Command)
def cache_pack(
    names: Annotated[Optional[list[str]], typer.Argument(help="Games to pack (default: all).", show_default=False, metavar="GAME...")] = None,
    target: Annotated[Path, typer.Option("--out", help="The pack to write (.tar.gz).", metavar="FILE")] = Path("analyzer-cache.tar.gz"),
):
    """Compile (or load) each game's kernels and write their cache files to one file.

    Each game plays one game of its default scenario first, so a cold game compiles here (minutes).

    \b
    Example: analyzer cache pack stop spacebase --out analyzer-cache.tar.gz
    """
    from . import cache_pack as cp
    for name in names or []:
        if name not in games.names():
            raise UserError(f"cache pack: unknown game {name!r}; known games: {', '.join(games.names())}")
    if target.is_dir():
        raise UserError(f"--out {target}: is a directory; give a file name such as {target}/analyzer-cache.tar.gz")
    results.check_can_create(target)  # before minutes of compiling, not after
    manifest = cp.pack(names or games.names(), target,
                       on_game=lambda name: out.print(f"{name}: compiling or loading its kernels", highlight=False))
    files = sum(len(v) for v in manifest["files"].values())
    out.print(f"cache pack: {files} files for {', '.join(k for k in manifest['files'] if k != cp.SHARED)} -> {target} "
              f"({target.stat().st_size / 1e6:.1f} MB; numba {manifest['numba']}, Python {manifest['python']}, "
              f"{manifest['platform']}, CPU {manifest['cpu']})", highlight=False)


@cache_app.command("unpack", cls=Command)
def cache_unpack(pack: Annotated[Path, typer.Argument(help="A pack from `analyzer cache pack`.", show_default=False, metavar="FILE")]):
    """Put a pack's cache files where this checkout's kernels look for them (beside the sources, or under NUMBA_CACHE_DIR).

    A game whose sources here differ from the packed ones is skipped: it compiles on first use, as without a pack.

    \b
    Example: analyzer cache unpack analyzer-cache.tar.gz
    """
    from . import cache_pack as cp
    for part, what in cp.unpack(pack):
        out.print(f"{part}: {what}", highlight=False)
