"""What every compiled game kernel shares: the compile cache, the trace recorder and its event
table, the outputs allocated from a game's declared columns, the two policies every game has (random
and scripted, the head of every `decide`) and a state vector declared by name (`Layout`). `docs/adding-a-game.md` shows them
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
# A game whose records need a fourth number declares Columns(trace_width=6): records (kind, seat, a,
# b, c, d).
TRACE_WIDTH = 5
FIELD_NAMES = ("seat", "a", "b", "c", "d")  # a record's fields after its kind


def new_trace(cap: int, width: int = TRACE_WIDTH) -> tuple[np.ndarray, np.ndarray]:
    return np.zeros((max(cap, 1), width), np.int32), np.zeros(2, np.int64)


@njit(cache=True, inline="always")
def record(ev, tn, cap, kind, seat, a, b, c, d=0):
    if cap == 0:
        return
    k = tn[0]
    if k < cap:
        ev[k, 0] = kind
        ev[k, 1] = seat
        ev[k, 2] = a
        ev[k, 3] = b
        ev[k, 4] = c
        if ev.shape[1] > TRACE_WIDTH:
            ev[k, 5] = d
        tn[0] = k + 1
    else:
        tn[1] += 1


@dataclass(frozen=True)
class Event:
    """How one kind of trace record reads: `text` is a format string over seat, a, b, c (and d), each
    first passed through the converter of the same name in `fields` (e.g. a card number -> its name).

    For records that read differently or together (all optional):
    - `by`: a field, or a function of the raw record (a dict), whose value picks the format string,
      `text` then being a dict value -> string; a None there is no line;
    - `parts`: record -> list of pieces, named `{parts}` in `text` (through fields["parts"]);
    - `run`: consecutive records of this kind that agree on these fields read as one line, whose
      `{parts}` are all of theirs (the other fields are the last record's);
    - `keep`: the record is no line: its parts are kept under this name for its seat, and the next
      line of that seat naming `{<keep>}` takes them (through fields[<keep>])."""
    text: str | dict[object, str | None]
    fields: dict[str, Callable[[object], object]] = field(default_factory=dict)
    by: str | Callable[[dict], object] = ""
    parts: Callable[[dict], list] | None = None
    run: tuple[str, ...] = ()
    keep: str = ""


def decode(events: np.ndarray, table: dict[int, Event]) -> list[str]:
    """Trace records -> readable lines, one per record or per run of records (none where its text is
    None), by a table from record kind to Event."""
    lines = []
    kept: dict[str, dict[int, list]] = {ev.keep: {} for ev in table.values() if ev.keep}
    rows = events.tolist()
    i = 0
    while i < len(rows):
        kind = rows[i][0]
        ev = table[kind]
        raw = dict(zip(FIELD_NAMES, rows[i][1:], strict=False))
        parts = ev.parts(raw) if ev.parts else []
        while ev.run and i + 1 < len(rows) and rows[i + 1][0] == kind and all(
                dict(zip(FIELD_NAMES, rows[i + 1][1:], strict=False))[k] == raw[k] for k in ev.run):
            i += 1
            raw = dict(zip(FIELD_NAMES, rows[i][1:], strict=False))
            parts += ev.parts(raw)
        i += 1
        seat = raw["seat"]
        if ev.keep:
            kept[ev.keep].setdefault(seat, []).extend(parts)
            continue
        text = ev.text
        if ev.by:
            text = text[ev.by(raw) if callable(ev.by) else raw[ev.by]]
        if text is None:
            continue
        values = {**raw, "parts": parts, **{name: got.pop(seat, []) for name, got in kept.items() if f"{{{name}" in text}}
        lines.append(text.format(**{k: ev.fields.get(k, _same)(v) for k, v in values.items()}))
    return lines


def _same(x):
    return x


# ---- output columns by name -----------------------------------------------------------------------
@dataclass(frozen=True)
class PerKind:
    """A per-seat, per-kind result column, (n, P, K): K is `size`, a number or a function of the
    scenario (e.g. the board's spaces), which `dim` names in the column's description. per_seat
    False: one value per kind and game, (n, K) (e.g. the seat that bought each card)."""
    meaning: str
    size: int | Callable[[object], int]
    dim: str = ""
    dtype: type = np.int32
    per_seat: bool = True

    def k(self, scenario) -> int:
        return self.size if isinstance(self.size, int) else int(self.size(scenario))

    def shape(self) -> str:
        return self.dim or str(self.size)


@dataclass
class Outputs:
    """Every output array of one kernel call, allocated by `Columns.outputs`; the kernel only fills
    them. `args()` is the tail of the kernel's arguments, in this order: g, s, each per-kind array,
    first, ev, tn, cap."""
    g: np.ndarray       # int64[n, G] whole-game columns
    s: np.ndarray       # int64[n, P, S] per-seat columns
    kinds: tuple        # int64[n, P, K] (or [n, K]) per declared PerKind, in declaration order
    first: np.ndarray   # int64[n] the seat that moved first
    ev: np.ndarray      # int32[cap, TRACE_WIDTH] trace records
    tn: np.ndarray      # int64[2] records kept, records past the cap
    cap: np.int64

    def args(self) -> tuple:
        return (self.g, self.s, *self.kinds, self.first, self.ev, self.tn, self.cap)

    def events(self) -> np.ndarray:
        return self.ev[: self.tn[0]]


@dataclass(frozen=True)
class Columns:
    """A game's result columns. The kernel writes whole-game numbers into `g` (int64[n, G]) and
    per-seat numbers into `s` (int64[n, P, S]) at the index of their name (`game.LENGTH`, `seat.SCORE`:
    module constants made by `indices`), and per-seat, per-kind numbers into one (n, P, K) array per
    `kinds` entry; `named` names them for the results table, so no positional unpacking of a dozen
    arrays can swap two columns. `dtype`: the type of the g and s columns in the results."""
    game: dict[str, str]  # name -> meaning, in index order
    seat: dict[str, str]
    kinds: dict[str, PerKind] = field(default_factory=dict)
    dtype: type = np.int32
    trace_width: int = TRACE_WIDTH  # 6: records carry a fourth number d (see `record`)

    def allocate(self, n: int, players: int) -> tuple[np.ndarray, np.ndarray]:
        return np.zeros((n, len(self.game)), np.int64), np.zeros((n, players, len(self.seat)), np.int64)

    def outputs(self, n: int, scenario, trace_cap: int) -> Outputs:
        """Every output of a kernel call over n games of `scenario` (trace_cap 0: no trace)."""
        g, s = self.allocate(n, scenario.players)
        kinds = tuple(np.zeros((n, scenario.players, c.k(scenario)) if c.per_seat else (n, c.k(scenario)), np.int64)
                      for c in self.kinds.values())
        ev, tn = new_trace(trace_cap, self.trace_width)
        return Outputs(g, s, kinds, np.zeros(n, np.int64), ev, tn, np.int64(trace_cap))

    def named(self, out: Outputs) -> dict[str, np.ndarray]:
        """Every result column of `out` by name, in declaration order (game, seat, per kind)."""
        cols = self.split(out.g, out.s, self.dtype)
        cols.update({name: a.astype(c.dtype) for (name, c), a in zip(self.kinds.items(), out.kinds, strict=True)})
        return cols

    def split(self, g: np.ndarray, s: np.ndarray, dtype=np.int32) -> dict[str, np.ndarray]:
        out = {name: g[:, i].astype(dtype) for i, name in enumerate(self.game)}
        out.update({name: s[:, :, i].astype(dtype) for i, name in enumerate(self.seat)})
        return out

    def doc(self) -> dict[str, str]:
        return {**{k: f"(n,) {v}" for k, v in self.game.items()}, **{k: f"(n,P) {v}" for k, v in self.seat.items()},
                **{k: f"(n,{'P,' if c.per_seat else ''}{c.shape()}) {c.meaning}" for k, c in self.kinds.items()}}

    def extra_doc(self) -> dict[str, str]:
        """`doc()` less the columns every Batch carries by itself (a game's `Game.columns` part)."""
        return {k: v for k, v in self.doc().items() if k not in BATCH_COLUMNS}


BATCH_COLUMNS = ("score", "is_winner", "length")  # the columns every game has (analyzer.games.base.Batch)


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


@njit(cache=True, inline="always")
def shared_choice(code, stream, script, at, n_options):
    """The head of the `decide` of a game without search: the choice of `random` or `scripted`, or -1
    when `code` is one of the game's own policies, which its `decide` then dispatches."""
    if code == RANDOM:
        return choose_random(stream, n_options)
    if code == SCRIPTED:
        return choose_scripted(script, at, n_options)
    return np.int64(-1)


# ---- players that search (analyzer/search.py drives them) --------------------------------------------
# A search seat's decision is made outside the game: analyzer/search.py plays the game from its start
# with every earlier search decision replayed from a log (MAIN) until it meets a new one, then plays it
# again many times (ROLLOUT), each time taking one option at that decision (the branch) and drawing the
# future from a stream of the search's own, and keeps the option that won most. The replay of the past is
# the game's own (same seed, same stream, same choices); only at the branch does anything change. So a
# rollout is the same kernel as the game, and needs no copy of its state.
#
# What a decision needs besides the view and the options is its `ask`: a tuple (ctl, ev, tn, cap) of
# the game's control row (int64[A_LOG + log length]) and its trace. The control row's slots:
A_SCRIPT = 0     # scripted: the decisions it has made
A_MODE = 1       # PLAIN (no seat searches), MAIN or ROLLOUT
A_AT = 2         # the search decisions met so far in this run
A_LOG_N = 3      # the search decisions fixed in the log; a rollout branches at the next one
A_STOP = 4       # 1 + the seat of the decision a MAIN run stopped at, or a rollout branched at; 0 before
A_N_OPTIONS = 5  # MAIN: the options of the decision it stopped at
A_OPTION = 6     # ROLLOUT: the option it takes at the branch
A_ROLLOUT = 7    # the rollout policy's code: a search seat plays it past the branch
A_WORLD = 8      # ROLLOUT: the seed of the stream its future is drawn from (search.world_key)
A_REDEAL = 9     # ROLLOUT: 1 + the seat the engine must re-deal the hidden information for, at the branch
A_DEFAULT = 10   # MAIN: 1 + the option the rollout policy takes at the decision the run stopped at (0 before)
A_LOG = 11       # the log: each search decision's option index, in game order
PLAIN, MAIN, ROLLOUT = 0, 1, 2
# A search seat's code is SEARCH + its seat: a decision's head must know whose it is, and decide is
# not told the seat. Game policies keep their codes (their index in Scenario.POLICIES).
SEARCH = np.int64(1 << 20)
E_SEARCHED = 127  # the trace record of a search decision in a traced game: (seat, decision, option)


def new_ctl(n: int, log: int = 0) -> np.ndarray:
    """The control rows of n games that nobody searches in (every slot 0: PLAIN)."""
    return np.zeros((n, A_LOG + log), np.int64)


def plain_ask() -> tuple:
    """The ask of a decision asked outside a game (a view check, a test): no search, no trace."""
    ev, tn = new_trace(0)
    return new_ctl(1)[0], ev, tn, np.int64(0)


@njit(cache=True, inline="always")
def ask_policy(code, stream, script, ask, n_options):
    """The head of the `decide` of a game with search: (k, code). k >= 0 is a choice made here: random's,
    scripted's, or a search seat's (replayed from the log, or a rollout's branch); else k is -1 and `code`
    the policy that decides: the seat's own, or the rollout policy where a search seat plays on."""
    if code >= SEARCH:
        k = search_step(code - SEARCH, stream, ask, n_options)
        if k >= 0:
            return k, code
        code = ask[0][A_ROLLOUT]
    if code == RANDOM:
        return choose_random(stream, n_options), code
    if code == SCRIPTED:
        return choose_scripted(script, ask[0], n_options), code
    return np.int64(-1), code


@njit(cache=True, inline="always")
def asked(ask, k):
    """The tail of the `decide` of a game with search: returns k, noting it where a MAIN run stopped (the
    rollout policy's own choice there, the search's default: analyzer/search.py)."""
    ctl = ask[0]
    if ctl[A_STOP] != 0 and ctl[A_DEFAULT] == 0 and ctl[A_MODE] == MAIN:
        ctl[A_DEFAULT] = k + 1
    return k


@njit(cache=True)
def search_step(seat, stream, ask, n_options):
    """A search seat's decision inside a run of analyzer/search.py: the logged choice while replaying the
    past; at the first decision past the log, a MAIN run stops there (and plays on with the rollout
    policy: its end is never used), a rollout takes its branch: its option, the future drawn from its own
    stream (never the game's), the hidden information re-dealt by the engine. -1: the rollout policy."""
    ctl, ev, tn, cap = ask
    if ctl[A_MODE] == PLAIN or ctl[A_STOP] != 0:
        return np.int64(-1)
    if n_options < 2:  # nothing to choose: not a search decision
        return np.int64(0)
    d = ctl[A_AT]
    ctl[A_AT] = d + 1
    if d < ctl[A_LOG_N]:
        k = ctl[A_LOG + d]
        record(ev, tn, cap, E_SEARCHED, seat, d, k, 0)
        return k
    ctl[A_STOP] = seat + 1
    if ctl[A_MODE] == MAIN:
        ctl[A_N_OPTIONS] = n_options
        return np.int64(-1)
    stream[0] = np.uint64(ctl[A_WORLD])
    ctl[A_REDEAL] = seat + 1
    return ctl[A_OPTION]


# ---- restricted play ------------------------------------------------------------------------------
# A restriction (ScenarioBase.RESTRICTIONS) is a filter on the options a seat lists: the seat may never
# choose an option it forbids, unless it forbids them all; then the filter is lifted for that decision
# and the seat's `restrict_lifted` column counts it. A seat with no restriction (mask 0) must play
# exactly as it would without this mechanism: no filtering, no draw from the stream.
@njit(cache=True)
def keep_allowed(options, n_options, allowed):
    """Moves the options with allowed[k] true to the front of options[:n_options], in their order, and
    returns how many there are; returns 0 and leaves the options as they were when none is allowed (the
    caller then counts the lift and keeps all n_options)."""
    m = 0
    for k in range(n_options):
        if allowed[k]:
            m += 1
    if m == 0 or m == n_options:
        return m
    j = 0
    for k in range(n_options):
        if allowed[k]:
            options[j] = options[k]
            j += 1
    return m


@njit(cache=True, inline="always")
def index_of(options, n_options, value):
    """The index of option `value` among options[:n_options], or -1 when it is not listed: how a policy
    that picks an option by its value (a card, a plan) returns the index `decide` must return."""
    for k in range(n_options):
        if options[k] == value:
            return k
    return -1


RESTRICT_LIFTED = "restrict_lifted"  # the per-seat column of every game with restrictions
RESTRICT_LIFTED_DOC = "decisions at which the seat's restrictions forbade every option and were lifted"


# ---- state by name --------------------------------------------------------------------------------
class Layout:
    """A flat int64 state vector declared as named fields, each a number of slots or a shape:
    `Layout([("tokens", (NPL, MAXP)), ("warp", MAXP), ("turn", 1)])`. It generates the offsets
    (`offsets("O")`: an IntEnum, `O.WARP`, that numba compiles in as constants), allocates the state
    (`new()`) and reads it back by name (`dump(state)`), for tests and replays."""

    def __init__(self, fields):
        self.shapes: dict[str, tuple[int, ...]] = {}
        self.starts: dict[str, int] = {}
        at = 0
        for name, shape in fields:
            if name in self.shapes:
                raise ValueError(f"Layout: field {name!r} twice")
            shape = (shape,) if isinstance(shape, (int, np.integer)) else tuple(int(x) for x in shape)
            self.shapes[name], self.starts[name] = shape, at
            at += int(np.prod(shape, dtype=np.int64))
        self.size = at

    def at(self, *names: str) -> tuple[np.int64, ...]:
        """The first slots of the named fields, as numpy ints (constants numba never specializes on)."""
        return tuple(np.int64(self.starts[name]) for name in names)

    def offsets(self, kind: str) -> type[IntEnum]:
        """Field name -> first slot, plus SIZE: the state's length."""
        return IntEnum(kind, {**{name.upper(): at for name, at in self.starts.items()}, "SIZE": self.size})

    def new(self) -> np.ndarray:
        return np.zeros(self.size, np.int64)

    def field(self, state: np.ndarray, name: str) -> np.ndarray:
        """One field of `state`, in its declared shape (a view: writing to it writes the state)."""
        at, shape = self.starts[name], self.shapes[name]
        return state[at: at + int(np.prod(shape, dtype=np.int64))].reshape(shape)

    def dump(self, state: np.ndarray) -> dict[str, object]:
        """Every field of `state` by name: a number for a one-slot field, else a (nested) list."""
        out = {}
        for name, shape in self.shapes.items():
            v = self.field(state, name)
            out[name] = int(v[0]) if shape == (1,) else v.tolist()
        return out

    def format(self, state: np.ndarray) -> str:
        """`dump` as lines `name: value`, for a test failure or a replay."""
        return "\n".join(f"{name}: {value}" for name, value in self.dump(state).items())
