"""MLEM's test position builder. `Pos` sets up a
mid-game position directly (where each astronaut is, moons and planets held, goal tokens taken, the
crash track) and plays one expedition from it through the engine's own `expedition`, with scripted
choices and the dice of a stream found for them (`Pos.stream_where`). Tests get it as the `position`
fixture."""
import numpy as np
import pytest
from mlem_mat import SYMBOL, small_mat

import analyzer
from analyzer import kernel, rng
from analyzer.games import get
from analyzer.games.mlem import columns as C
from analyzer.games.mlem import decisions as D
from analyzer.games.mlem import engine as E
from analyzer.games.mlem.mat import mat_of
from analyzer.games.mlem.scenario import kernel_inputs

MLEM = get("mlem")
def dice_of(stream, count):
    s = stream.copy()
    return [SYMBOL[int(rng.below(s, 6))] for _ in range(count)]


class Pos:
    """A position of the small mat (or `board`), every astronaut at home until `place`d, played by
    `policies` (scripted by default, following `script`), under `restrict` ({seat: [restriction, ...]})."""

    def __init__(self, players=2, script=(), board=None, policies=("scripted",), restrict=None, **rules):
        self.sc = analyzer.load_scenario(MLEM, players=players, policy=list(policies), set={
            "board": board or small_mat(), "script": list(script), "restrict": restrict or {},
            **{f"rules.{k}": v for k, v in rules.items()}})
        self.rules, self.board, self.policy, self.weights, self.restrict, self.script = kernel_inputs(self.sc)
        n_moons, n_planets, spaces = len(self.board[5]), self.board[6].shape[0], len(self.sc.board.spaces)
        self.at = np.full((players, D.TYPES), D.HOME, np.int64)
        self.spot = np.zeros((players, D.TYPES), np.int64)
        self.one_up = np.ones(players, np.int64)
        self.moon_owner = np.full(n_moons, -1, np.int64)
        self.pl_count = np.zeros((n_planets, players), np.int64)
        self.pl_first = np.full((n_planets, players), D.NO_ARRIVAL, np.int64)
        self.pl_first_type = np.zeros((n_planets, players), np.int64)
        self.arrivals = np.zeros(1, np.int64)
        self.goal_owner = np.full(4, -1, np.int64)
        self.crashes = np.zeros(1, np.int64)
        self.points = np.zeros((players, len(C.SOURCES)), np.int64)
        self.type_points = np.zeros((players, D.TYPES), np.int64)
        self.boarded = np.zeros((players, D.TYPES), np.int64)
        self.seat = np.zeros((players, len(C.COLUMNS.seat)), np.int64)  # the per-seat columns (restrict_lifted)
        self.rolls_at = np.zeros(spaces, np.int64)
        self.crashes_at = np.zeros(spaces, np.int64)

    def place(self, seat, typ, where, index):
        """Astronaut (seat, typ) already on moon `index` (D.ON_MOON, counted over all groups) or planet
        `index` (D.ON_PLANET, arriving after everyone placed before it)."""
        self.at[seat, typ], self.spot[seat, typ] = where, index
        if where == D.ON_MOON:
            self.moon_owner[index] = seat
        elif where == D.ON_PLANET:
            self.arrivals[0] += 1
            if self.pl_count[index, seat] == 0:
                self.pl_first[index, seat], self.pl_first_type[index, seat] = self.arrivals[0], typ
            self.pl_count[index, seat] += 1
        return self

    def stream_where(self, pred, count=6, seed=5):
        """A stream (of run `seed`) whose first `count` dice satisfy pred: the expedition's dice."""
        return next(s for g in range(20_000) if pred(dice_of(s := rng.new_stream(seed, g), count)))

    def expedition(self, stream, start=0, script=None):
        """Plays one expedition started by seat `start` (scripted seats follow `script` if given, else the
        scenario's); returns its trace records (kind, seat, a, b, c)."""
        players = self.sc.players
        if script is not None:
            self.script = np.array(script, np.int64)
        ev, tn = kernel.new_trace(MLEM.TRACE_CAP, C.COLUMNS.trace_width)
        self.crashed = E.expedition(
            start, stream, mat_of(self.board), self.rules, self.policy, self.weights, self.restrict, self.script,
            (kernel.new_ctl(1)[0], ev, tn, np.int64(MLEM.TRACE_CAP)), np.zeros(E.VIEW_SIZE, np.int64), np.zeros(E.MAX_OPTIONS, np.int64),
            np.zeros(E.MAX_OPTIONS, np.bool_), np.zeros((E.MAX_OPTIONS, 2), np.int64),
            np.zeros(6, np.int64), self.at, self.spot, self.one_up, self.moon_owner, self.pl_count, self.pl_first,
            self.pl_first_type, self.arrivals, self.goal_owner, np.zeros(players, np.int64), np.zeros(players, np.int64),
            np.zeros(players, np.int64), self.crashes, self.points, self.type_points, self.seat, self.boarded, self.rolls_at,
            self.crashes_at, ev, tn, np.int64(MLEM.TRACE_CAP))
        self.events = ev[: tn[0]]
        return self.events[:, :5].tolist()

    def lines(self):
        return MLEM.describe(self.sc, self.events)

    def home_index(self, seat, typ, never=()):
        """The take-off option that sends `typ`: its index among the seat's astronauts at home (type order)
        that it may send (`never`: the types its restrictions forbid)."""
        return [t for t in range(D.TYPES) if self.at[seat, t] == D.HOME and t not in never].index(typ)


@pytest.fixture
def position():
    return Pos
