"""`--restrict SEAT:NAME`: restricted play from the command line (and `restrict=` in the Python API).

A restriction names options a seat may never choose (a game's Scenario.RESTRICTIONS); the flag sets the
scenario's `restrict:` field, replacing the file's. Every mistake is one line naming the flag (or restrict=).
"""
from __future__ import annotations


def parse(given, schema, players: int, game: str) -> dict[int, list[str]]:
    """["1:no_early_hold", "0:a,b"] (or {seat: [names]}) -> {seat: [names]}, checked against the game's
    restrictions and its seats. Several names for one seat: repeat the flag or separate them by commas."""
    pairs = _pairs(given)
    chosen: dict[int, list[str]] = {}
    for text, seat, name in pairs:
        if not 0 <= seat < players:
            raise _error(text, f"no seat {seat} in a {players}-player game (seats are 0..{players - 1})")
        if name not in schema.RESTRICTIONS:
            raise _error(text, unknown(name, schema, game))
        if name not in chosen.setdefault(seat, []):
            chosen[seat].append(name)
    return chosen


def _pairs(given) -> list[tuple[str, int, str]]:
    """(what the user wrote, seat, name) for every name given."""
    if isinstance(given, dict):
        return [(f"{seat}:{name}", _seat(f"{seat}:{name}", str(seat)), str(name))
                for seat, names in given.items() for name in ([names] if isinstance(names, str) else names)]
    out = []
    for text in [given] if isinstance(given, str) else given:
        seat, sep, names = str(text).partition(":")
        if not sep or not names.strip() or not seat.strip():
            raise _error(text, "expected SEAT:NAME, e.g. 1:no_early_hold (several names: 1:a,b)")
        out += [(text, _seat(text, seat), name.strip()) for name in names.split(",") if name.strip()]
    return out


def _seat(text: str, seat: str) -> int:
    if not seat.strip().isdigit():
        raise _error(text, f"the seat must be a seat number (0, 1, ...), got {seat.strip()!r}")
    return int(seat)


def unknown(name: str, schema, game: str) -> str:
    """Why `name` is not a restriction of `game`: it belongs to other games, or to none."""
    own = ", ".join(schema.RESTRICTIONS) or "none"
    elsewhere = owners(name, game)
    if elsewhere:
        return f"{name!r} is a restriction of {' and '.join(elsewhere)}, not of {game}; {game}'s: {own}"
    return f"unknown restriction {name!r} for {game}; choose from {own}"


def owners(name: str, game: str) -> list[str]:
    """The other registered games that declare a restriction `name` (imports them: error path only)."""
    from . import games
    return [g for g in games.names() if g != game and name in games.get(g).Scenario.RESTRICTIONS]


def _error(text, problem: str):
    from .errors import UserError, arg
    return UserError(f"{arg('restrict', str(text))}: {problem}")
