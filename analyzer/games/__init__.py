"""The game registry: name -> module that defines GAME. Imported lazily so that the CLI starts fast
and one game's compile cost is never paid for another."""
from importlib import import_module

from ..errors import UserError
from ..kernel import install_cache_locator

install_cache_locator()  # before any game module decorates a kernel (see analyzer/kernel.py)

_MODULES = {
    "stop": "analyzer.games.stop",
    "spacebase": "analyzer.games.spacebase",
}


def names() -> list[str]:
    return list(_MODULES)


def get(name: str):
    if name not in _MODULES:
        raise UserError(f"unknown game {name!r}; known games: {', '.join(_MODULES)}")
    return import_module(_MODULES[name]).GAME
