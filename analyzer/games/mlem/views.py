"""MLEM's view check for the game contract (Game.views): MLEM has no hand and no secret; the table is
public (every astronaut where it is, moons, planets, goal tokens, the crash track, the rocket's slots, its
space and pool, the dice showing). The one hidden thing is the dice still to be rolled: the game's random
stream. A position is a seeded game a few expeditions in (played by the engine's own `expedition`, every
seat the scenario's policy) with the next expedition's rocket laid over it: one astronaut of each seat
aboard in slot order, the rocket on a landing space, a roll showing a usable face there and a few more
such rolls the commander could face. Its decisions are every ask there, each on a copy of the stream:
every seat's take-off, the commander's travel on each roll, each astronaut's landing (with every pool)
and the Parachute's crash landing. The re-deal is another stream: the future dice redrawn, everything
seen kept (the rolls showing too, being on the table). Random draws its choices from that stream: it is
the one policy left unchecked."""
import numpy as np

from ... import rng
from ...kernel import new_trace, plain_ask
from . import columns as C
from . import engine as E
from . import policies as P
from . import view as V
from .decisions import (
    ABOARD,
    D_LAND,
    D_PARACHUTE,
    D_TAKEOFF,
    D_TRAVEL,
    DEEP2,
    DIE_REMOVER,
    HOME,
    LEAVE_AFTER,
    LEAVE_BEFORE,
    LEAVE_HERE,
    MOON2,
    NO_ARRIVAL,
    ONE_DIE,
    PARACHUTE,
    PLANET2,
    PLUS_MINUS,
    SATELLITE,
    STAY,
    TYPES,
)
from .mat import mat_of
from .scenario import DICE, FIRST_LANDING_SPACE, R, kernel_inputs

UNCHECKED = {"random": "draws its choices from the dice stream, the hidden future re-dealt here"}
# the types laid aboard: slot k of position `seed` takes the first it has at home of this list turned to
# seed * players + k, so a position lays the first four (the powers that change what is asked: Parachute,
# +/-1, One-die, and Planet x2's landing) or the last four (a Satellite moving the start, the doublers);
# the bottom slot whose seat still has its Parachute at home carries that instead
LAID_TYPES = (PARACHUTE, PLUS_MINUS, ONE_DIE, PLANET2, SATELLITE, MOON2, DEEP2, DIE_REMOVER)
ROLLS = 6  # the commander's travel is asked on this many seeded rolls here (the first is the one showing)


class Position:
    """A seeded table a few expeditions in and the rocket of the next expedition laid over it."""

    def __init__(self, sc, seed: int):
        self.P = players = sc.players
        self.rules, self.board, self.policy, self.weights, self.restrict, self.script = kernel_inputs(sc)
        self.mat = mat_of(self.board)  # the board as the kernel's functions take it
        n_moons, n_planets, spaces = len(self.board[5]), self.board[6].shape[0], len(sc.board.spaces)
        self.at = np.full((players, TYPES), HOME, np.int64)
        self.spot = np.zeros((players, TYPES), np.int64)
        self.one_up = np.ones(players, np.int64)
        self.moon_owner = np.full(n_moons, -1, np.int64)
        self.pl_count = np.zeros((n_planets, players), np.int64)
        self.pl_first = np.full((n_planets, players), NO_ARRIVAL, np.int64)
        self.pl_first_type = np.zeros((n_planets, players), np.int64)
        self.arrivals = np.zeros(1, np.int64)
        self.goal_owner = np.full(4, -1, np.int64)
        self.crashes = np.zeros(1, np.int64)
        self.roll = np.zeros(6, np.int64)  # the last roll: on the table at the next take-off
        self.slot_seat = np.zeros(players, np.int64)
        self.slot_type = np.zeros(players, np.int64)
        self.aboard = np.zeros(players, np.int64)
        self.stream = rng.new_stream(seed, 0)  # the dice to come: the game's future, seen by no seat
        start = seed % players
        for _ in range(1 + seed % 4):  # 1-4 expeditions in: astronauts placed, moons taken, a crash or two
            self._expedition(start, spaces)
            start = (start + 1) % players
            if E.end_reason(self.crashes[0], self.at, self.rules):
                break
        self.start = start
        self._lay_rocket(np.random.default_rng(seed), seed)

    def _expedition(self, start, spaces):
        players, scratch = self.P, np.zeros(self.P, np.int64)
        ev, tn = new_trace(0, C.COLUMNS.trace_width)
        E.expedition(
            start, self.stream, self.mat, self.rules, self.policy, self.weights, self.restrict, self.script,
            plain_ask(), np.zeros(V.VIEW_SIZE, np.int64), np.zeros(E.MAX_OPTIONS, np.int64),
            np.zeros(E.MAX_OPTIONS, np.bool_), np.zeros((E.MAX_OPTIONS, 2), np.int64), self.roll, self.at, self.spot,
            self.one_up, self.moon_owner, self.pl_count, self.pl_first, self.pl_first_type, self.arrivals,
            self.goal_owner, self.slot_seat, self.slot_type, scratch, self.crashes,
            np.zeros((players, len(C.SOURCES)), np.int64), np.zeros((players, TYPES), np.int64),
            np.zeros((players, len(C.COLUMNS.seat)), np.int64), np.zeros((players, TYPES), np.int64),
            np.zeros(spaces, np.int64), np.zeros(spaces, np.int64), ev, tn, np.int64(0))

    def _lay_rocket(self, g, seed):
        """One astronaut of each seat aboard (slot k: seat start + k; the bottom slot whose seat has its
        Parachute at home carries it, so its crash landing is asked), the rocket on a landing space (seeds
        0-3 early, mid, late and near deep space on the track) and ROLLS rolls of seeded pools, each showing
        a face that space allows."""
        seats = [(self.start + k) % self.P for k in range(self.P)]
        chute = next((k for k in reversed(range(self.P)) if self.at[seats[k], PARACHUTE] == HOME), -1)
        for k, p in enumerate(seats):
            first = (seed * self.P + k) % TYPES
            turned = LAID_TYPES[first:] + LAID_TYPES[:first]
            typ = PARACHUTE if k == chute else next((t for t in turned if self.at[p, t] == HOME), -1)
            self.slot_seat[k], self.slot_type[k], self.aboard[k] = p, typ, typ >= 0
            if typ >= 0:
                self.at[p, typ] = ABOARD
        last, allowed = self.rules[R.LAST_SPACE], self.board[0]
        landing = [s for s in range(FIRST_LANDING_SPACE, last)
                   if E.can_land(s, self.mat, self.moon_owner, self.rules)]
        self.space = landing[len(landing) * (2 * (seed % 4) + 1) // 8] if landing else FIRST_LANDING_SPACE
        self.rolls = []  # rolls the commander may face here, each of a seeded pool: the first is showing
        for _ in range(1000):
            roll = np.bincount(E.FACE_SYMBOL[g.integers(0, 6, g.integers(1, DICE + 1))], minlength=6)
            if E.shows_usable_face(roll, self.space, allowed):
                self.rolls.append(roll)
            if len(self.rolls) == ROLLS:
                break
        self.shown = self.rolls[0]


def position(sc, seed: int) -> Position:
    return Position(sc, seed)


def _landing_options(pos: Position, typ: int) -> list:
    """The engine's landing_phase list: stay, leave here, and with +/-1 one space before or after."""
    b, m, r, s, last = pos.mat, pos.moon_owner, pos.rules, pos.space, pos.rules[R.LAST_SPACE]
    options = [STAY] + [LEAVE_HERE] * bool(E.can_land(s, b, m, r))
    if typ == PLUS_MINUS:
        options += [LEAVE_BEFORE] * bool(E.can_land(s - 1, b, m, r))
        options += [LEAVE_AFTER] * bool((s + 1 < last or r[R.PM_INTO_DEEP]) and E.can_land(s + 1, b, m, r))
    return options if len(options) > 1 else []


def decisions(pos: Position) -> list:
    """Every ask of the laid rocket, each on a copy of the stream (the position is left as found; seats
    unrestricted, as in the contract's scenarios): take-off of every seat in slot order (its astronaut still
    at home, the start space as the slots above it left it), the commander's travel on each of the
    position's rolls, every astronaut's landing here with each pool a move could leave (1 to 6 dice: the
    crash odds it weighs) and a Parachute's landing on a crash."""
    view, info = np.zeros(V.VIEW_SIZE, np.int64), np.zeros((E.MAX_OPTIONS, 2), np.int64)
    options = np.zeros(E.MAX_OPTIONS, np.int64)
    table = (pos.at, pos.spot, pos.moon_owner, pos.pl_count, pos.pl_first, pos.goal_owner)

    def ask(p, kind, listed, n, space, pool, typ, commander, one_up, roll):
        if listed is not None:
            options[:n] = listed
        V.fill_view(view, kind, p, space, pool, typ, int(commander), one_up, roll, *table)
        k = P.decide(pos.policy[p], view, pos.mat, options, n, info, pos.stream.copy(), pos.script,
                     plain_ask(), pos.weights[p])
        return int(options[k])

    out, start_space = [], 0
    slots = [k for k in range(pos.P) if pos.aboard[k]]
    for k in slots:
        p, typ = int(pos.slot_seat[k]), int(pos.slot_type[k])
        pos.at[p, typ] = HOME
        home = [t for t in range(TYPES) if pos.at[p, t] == HOME]
        out.append(("take-off", p, ask(p, D_TAKEOFF, home, len(home), start_space, DICE, -1, k == 0, 0, pos.roll)))
        pos.at[p, typ] = ABOARD
        if typ == SATELLITE:
            start_space = int(pos.rules[R.SATELLITE_START])
    top = E.top_aboard(pos.aboard)
    if top >= 0:
        cmd = int(pos.slot_seat[top])
        n_one = E.usable_one_dies(pos.space, pos.aboard, pos.slot_seat, pos.slot_type, pos.one_up, pos.mat, pos.rules)
        for roll in pos.rolls:
            pool = int(roll.sum())
            n = int(E.list_travel_options(roll, pos.space, pool, n_one, pos.mat, pos.rules, options, info))
            if n > 0:
                chosen = ask(cmd, D_TRAVEL, None, n, pos.space, pool, pos.slot_type[top], 1, n_one, roll)
                out.append(("travel", cmd, roll.tolist(), chosen))
    for k in slots:
        p, typ = int(pos.slot_seat[k]), int(pos.slot_type[k])
        listed = _landing_options(pos, typ)
        for pool in range(1, DICE + 1) if listed else ():  # every pool a move could leave here
            out.append(("land", p, typ, pool, ask(p, D_LAND, listed, len(listed), pos.space, pool, typ, k == top, 0,
                                                  pos.shown)))
        if typ == PARACHUTE and E.can_land(pos.space, pos.mat, pos.moon_owner, pos.rules):
            out.append(("parachute", p, ask(p, D_PARACHUTE, [STAY, LEAVE_HERE], 2, pos.space, 0, typ, 0, 0, pos.shown)))
    return out


def hidden(pos: Position) -> np.ndarray:
    return pos.stream.copy()


def redeal(pos: Position, g: np.random.Generator) -> None:
    """The dice to come redrawn: another stream; the table, the rocket and the roll showing stay."""
    pos.stream[0] = np.uint64(g.integers(1, 2**62))
