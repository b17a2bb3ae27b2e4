"""What every compiled game kernel shares: the compile cache, the trace recorder, result columns by
name and the two policies every game has (random and scripted). `docs/adding-a-game.md` shows them
in use; `analyzer/games/pig/` is the smallest game built on them.

The compile cache is keyed by the sources of a kernel's whole game folder: see compile_cache.py,
which this module imports first.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from typing import Callable

import numpy as np
from numba import njit

from . import (
    compile_cache,  # noqa: F401  (first: every kernel below and in rng.py is cached with its locator)
    rng,
)

# ---- the trace recorder ---------------------------------------------------------------------------
# A traced game appends fixed-width records (kind, seat, a, b, c) to `ev` (int32[cap, 5]); `tn`
# (int64[2]) holds the records kept and the records past the cap, counted rather than silently lost,
# so a replay can say that it is incomplete. cap 0 turns tracing off at the cost of one compare.
TRACE_WIDTH = 5


def new_trace(cap: int) -> tuple[np.ndarray, np.ndarray]:
    return np.zeros((max(cap, 1), TRACE_WIDTH), np.int32), np.zeros(2, np.int64)


@njit(cache=True, inline="always")
def record(ev, tn, cap, kind, seat, a, b, c):
    if cap == 0:
        return
    k = tn[0]
    if k < cap:
        ev[k, 0] = kind
        ev[k, 1] = seat
        ev[k, 2] = a
        ev[k, 3] = b
        ev[k, 4] = c
        tn[0] = k + 1
    else:
        tn[1] += 1


@dataclass(frozen=True)
class Event:
    """How one kind of trace record reads: `text` is a format string over seat, a, b, c, each first
    passed through the converter of the same name in `fields` (e.g. a card number -> its name)."""
    text: str
    fields: dict[str, Callable[[int], object]] = field(default_factory=dict)


def decode(events: np.ndarray, table: dict[int, Event]) -> list[str]:
    """Trace records -> readable lines, one per record, by a table from record kind to Event."""
    lines = []
    for kind, seat, a, b, c in events.tolist():
        ev = table[kind]
        raw = {"seat": seat, "a": a, "b": b, "c": c}
        lines.append(ev.text.format(**{k: ev.fields.get(k, _same)(v) for k, v in raw.items()}))
    return lines


def _same(x):
    return x


# ---- output columns by name -----------------------------------------------------------------------
@dataclass(frozen=True)
class Columns:
    """A game's result columns. The kernel writes whole-game numbers into `g` (int64[n, G]) and
    per-seat numbers into `s` (int64[n, P, S]) at the index of their name (`game.LENGTH`, `seat.SCORE`:
    module constants made by `indices`), and `split` names them for the results table, so no
    positional unpacking of a dozen arrays can swap two columns."""
    game: dict[str, str]  # name -> meaning, in index order
    seat: dict[str, str]

    def allocate(self, n: int, players: int) -> tuple[np.ndarray, np.ndarray]:
        return np.zeros((n, len(self.game)), np.int64), np.zeros((n, players, len(self.seat)), np.int64)

    def split(self, g: np.ndarray, s: np.ndarray, dtype=np.int32) -> dict[str, np.ndarray]:
        out = {name: g[:, i].astype(dtype) for i, name in enumerate(self.game)}
        out.update({name: s[:, :, i].astype(dtype) for i, name in enumerate(self.seat)})
        return out

    def doc(self) -> dict[str, str]:
        return {**{k: f"(n,) {v}" for k, v in self.game.items()}, **{k: f"(n,P) {v}" for k, v in self.seat.items()}}

    def extra_doc(self) -> dict[str, str]:
        """`doc()` less the columns every Batch carries by itself (a game's `Game.columns` part)."""
        return {k: v for k, v in self.doc().items() if k not in ("score", "is_winner", "length")}


def indices(kind: str, names) -> type[IntEnum]:
    """Name -> index constants for kernels: an IntEnum (`G.LENGTH`), which numba compiles in as constants."""
    return IntEnum(kind, {name.upper(): i for i, name in enumerate(names)})


# ---- decisions ------------------------------------------------------------------------------------
# At each decision the engine writes the legal options into a scratch array and asks the seat's
# policy for the index of one. Two policies every game has: `random` (uniform over the legal options)
# and `scripted` (the next index of a given sequence, for tests that must drive a rule without
# depending on what a heuristic happens to choose). Their codes are the same in every game; a game
# numbers its own policies from FIRST_GAME_POLICY.
RANDOM, SCRIPTED, FIRST_GAME_POLICY = np.int64(0), np.int64(1), np.int64(2)
SHARED_POLICIES = ("random", "scripted")
SHARED_POLICY_DOCS = {  # one line each, for `games --describe` and `sim --help`
    "random": "uniform over the legal options of every decision: a baseline, not a player",
    "scripted": "test tool: the option indices of the scenario's `script`, in game order (refused without one)",
}


@njit(cache=True)
def choose_random(stream, n_options):
    return rng.below(stream, n_options)


@njit(cache=True)
def choose_scripted(script, at, n_options):
    """The next scripted index (at[0] counts the decisions made); past the script's end, option 0. An
    index that is not a legal option is a broken test: it is clamped to the last option."""
    i = at[0]
    at[0] = i + 1
    if i >= len(script):
        return 0
    return min(script[i], n_options - 1)
