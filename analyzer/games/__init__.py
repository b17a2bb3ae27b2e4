"""The game registry: name -> module that defines GAME. Imported lazily so that the CLI starts fast
and one game's compile cost is never paid for another."""
from importlib import import_module

from ..errors import UserError

_MODULES = {
    "stop": "analyzer.games.stop",
    "spacebase": "analyzer.games.spacebase",
    "pig": "analyzer.games.pig",  # the template game (docs/adding-a-game.md)
    "mlem": "analyzer.games.mlem",
    "simplecard": "analyzer.games.simplecard",
    "cosmic": "analyzer.games.cosmic",
}


def names() -> list[str]:
    return list(_MODULES)


def get(name: str):
    if name not in _MODULES:
        raise UserError(f"unknown game {name!r}; known games: {', '.join(_MODULES)}")
    from .. import compile_cache  # noqa: F401  (installs the cache locator before any game module is imported)
    return import_module(_MODULES[name]).GAME
