"""MLEM's scenario schema (the mat, the rules' open points, the policies) and its translation into the
kernel's inputs (arrays and numbers only).

The printed mat is not available: `scenarios/mlem/default.yaml` ships an estimated board
(`board_status: estimated`). Typing in the real mat means editing `board.spaces` (one line per
space: the faces it allows, its afterburner pips, the body it touches), `board.moons` and
`board.planets`; the validator refuses impossible boards with a one-line error naming the field.
"""
from __future__ import annotations

import functools
from itertools import product
from typing import Literal

import numpy as np
from pydantic import Field, field_validator, model_validator

from ...kernel import SHARED_POLICIES, SHARED_POLICY_DOCS, indices
from ...scenario import SEARCH_DOCS, SEARCH_POLICY, ScenarioBase, Strict, Weight, search_weights
from .decisions import TYPE_KEYS, TYPE_NAMES

# codes = index (random 0, scripted 1, then ours); search's is kernel.SEARCH + its seat
POLICIES = (*SHARED_POLICIES, "greedy", "expected_value", SEARCH_POLICY)
POLICY_DOCS = {**SHARED_POLICY_DOCS,  # one line each; policies.py says it in full
    "greedy": "sends the astronaut whose power adds most at the first body, flies as far as it can, lands at the "
              "first body worth points",
    "expected_value": "weighs each move by the exact crash odds and the points in reach, with a per-seat `risk`",
    **SEARCH_DOCS,
}

# expected_value's judgement (`weights: {expected_value: {...}}`, or one seat's in `seat_weights`), in the
# kernel's order (policies.W_*); greedy has none (its rules have no number to tune)
WEIGHTS = {"expected_value": (
    # risk is searched down to 0.01 (survival ** 100: near-certain survival only), evenly in its logarithm:
    # the first training run found its best at the old bound 0.1
    Weight("risk", 1.0, 0.01, 10.0, "appetite for risk: the crash odds count as survival ** (1 / risk); below 1 "
           "timid, 1 neutral, above 1 reckless", log=True),
    Weight("future_reach", 3, 1, 8, "staying is weighed against the best landing this many spaces ahead", integer=True),
    Weight("keep", 0.5, 0.0, 2.0, "at take-off, a doubling type's best later use (kept at home) weighs this much "
           "against what it adds now"),
    Weight("mean_move", 3.0, 1.0, 6.0, "the take-off trip model: one roll every this many spaces, each spending a die"),
), **search_weights()}
# what a seat may be forbidden (`restrict: {SEAT: [...]}`); the order is the kernel's bit order
# (decisions.py: bit t = never send type t, then LAND_AT_FIRST_CHANCE)
RESTRICTIONS = {
    **{f"never_send_{key}": f"never send the {name} at take-off (unless only forbidden types are at home)"
       for key, name in zip(TYPE_KEYS, TYPE_NAMES, strict=True)},
    "land_at_first_chance": "an astronaut aboard always leaves when it can (landing phase, and a Parachute on a crash)",
}

AB = "AB"
SYMBOLS = (1, 2, 3, 4, AB)           # what a space may allow; kernel symbol code = index + 1 (AB = 5)
DIE_FACES = (1, 2, 2, 3, 4, AB)      # the six faces of every die (confirmed)
DICE = 6                             # dice in the pool at the start of each expedition (confirmed)
DEEP_SPACE = "deep_space"
FIRST_LANDING_SPACE = 6              # the original: no body touches spaces 0-5 (landing phase skipped)
GOALS = ("moons_4", "planets_4", "one_planet_3", "galaxy_2")

BODY_NONE, BODY_MOON, BODY_PLANET, BODY_DEEP = 0, 1, 2, 3

# the kernel's rule vector: rules[R.NAME]
R = indices("R", ["players", "last_space", "satellite_start", "planet_count_twice", "end_exact_count",
                  "one_die_prevents_crash", "one_die_needs_face_1", "one_die_refresh", "pm_into_deep",
                  "pm_deep_galaxy", "one_die_alone", "one_die_joins_ones",
                  "end_immediate", "ranks_paid", "win_ties_shared", "crash_track", "first_random",
                  "expedition_cap", "comet", "galaxy", "goal_galaxy_counts_comet"])


def symbol_code(face) -> int:
    return SYMBOLS.index(face) + 1


class Space(Strict):
    faces: list[Literal[1, 2, 3, 4, "AB"]] = Field(
        [], description="die faces usable while the rocket is on this space (1, 2, 3, 4, AB); empty only for deep space")
    ab: int = Field(0, ge=0, le=3, description="afterburner pips of this space (1..3); 0 when AB is not allowed here")
    body: str | None = Field(None, description="the moon group or planet (by name) this space touches; "
                             "deep_space on the last space; none: nothing to land on")
    estimated: bool = Field(True, description="true while this space is an estimate, not read from the printed mat")


class MoonGroup(Strict):
    name: str
    values: list[int] = Field(description="points of each moon, nearest to the track first (an astronaut takes the farthest free one)")
    estimated: bool = True

    @field_validator("values")
    @classmethod
    def _some_moons(cls, v):
        if not v or min(v) < 0:
            raise ValueError("a moon group needs at least one moon, each worth 0 or more points")
        return v


class Planet(Strict):
    name: str
    points: list[int] = Field(description="placement points for 1st, 2nd and 3rd most astronauts, paid at the end")
    estimated: bool = True

    @field_validator("points")
    @classmethod
    def _three_places(cls, v):
        if len(v) != 3 or min(v) < 0 or sorted(v, reverse=True) != v:
            raise ValueError("planet points must be 3 values (1st, 2nd, 3rd), 0 or more, not rising")
        return v


class Board(Strict):
    spaces: list[Space] = Field(description="the track from the start (space 0) to deep space (the last space)")
    moons: list[MoonGroup] = Field(description="moon groups; each holds one astronaut per moon, points at once")
    planets: list[Planet] = Field(description="planets; any number of astronauts, majorities paid at the end")
    comet: int = Field(7, ge=0, description="points of the comet, taken by the commander who reaches deep space (reported)")
    galaxy: int = Field(5, ge=0, description="points of the galaxy, taken by every other astronaut reaching deep space (reported)")
    goals: dict[Literal["moons_4", "planets_4", "one_planet_3", "galaxy_2"], int] = Field(
        description="points of each goal token: first to 4 astronauts on moons, to 4 different planets, "
                    "to 3 on one planet, to 2 in the galaxy")
    estimated_goals: bool = Field(True, description="true while the goal values are estimates")

    @model_validator(mode="after")
    def _a_possible_board(self):
        sp, names = self.spaces, self._body_kinds()
        if len(sp) < FIRST_LANDING_SPACE + 2:
            raise ValueError(f"spaces: need at least {FIRST_LANDING_SPACE + 2} spaces (start .. deep space), got {len(sp)}")
        if sp[-1].body != DEEP_SPACE:
            raise ValueError(f"spaces.{len(sp) - 1}.body: the last space must be {DEEP_SPACE} (the end)")
        for i, s in enumerate(sp[:-1]):
            self._check_space(i, s, names)
        reached = {s.body for s in sp}
        for kind, items in (("moons", self.moons), ("planets", self.planets)):
            for j, b in enumerate(items):
                if b.name not in reached:
                    raise ValueError(f"{kind}.{j}: {b.name!r} is touched by no space")
        self._values_rise("moons", self.moons, lambda b: max(b.values))
        self._values_rise("planets", self.planets, lambda b: b.points[0])
        if set(self.goals) != set(GOALS):
            raise ValueError(f"goals: need exactly {', '.join(GOALS)}")
        return self

    def _body_kinds(self) -> dict[str, str]:
        names = {}
        for kind, items in (("moons", self.moons), ("planets", self.planets)):
            for j, b in enumerate(items):
                if b.name in names or b.name == DEEP_SPACE:
                    raise ValueError(f"{kind}.{j}.name: {b.name!r} is used twice")
                names[b.name] = kind
        return names

    @staticmethod
    def _check_space(i: int, s: Space, names: dict) -> None:
        where = f"spaces.{i}"
        if not s.faces:
            raise ValueError(f"{where}.faces: a space before deep space needs at least one face")
        if len(set(s.faces)) != len(s.faces):
            raise ValueError(f"{where}.faces: a face is listed twice")
        if (AB in s.faces) != (s.ab > 0):
            raise ValueError(f"{where}.ab: give AB pips 1..3 exactly when AB is among the faces")
        if s.body == DEEP_SPACE:
            raise ValueError(f"{where}.body: deep_space may only be the last space")
        if s.body is not None and s.body not in names:
            raise ValueError(f"{where}.body: {s.body!r} is no moon group or planet of the board")
        if s.body is not None and i < FIRST_LANDING_SPACE:
            raise ValueError(f"{where}.body: no body touches spaces 0-{FIRST_LANDING_SPACE - 1} (no landing there)")

    def _values_rise(self, kind, items, top) -> None:
        """The farther the rocket goes, the more points: bodies of a kind ordered by the first space that
        touches them may not drop in value."""
        first = {s.body: i for i, s in reversed(list(enumerate(self.spaces)))}
        ordered = sorted(items, key=lambda b: first[b.name])
        for a, b in zip(ordered, ordered[1:], strict=False):
            if top(b) < top(a):
                raise ValueError(f"{kind}: {b.name!r} (space {first[b.name]}) is worth less than the nearer "
                                 f"{a.name!r} (space {first[a.name]}); body values must rise with distance")


class Variants(Strict):
    exploration: bool = Field(False, description="exploration tokens variant (rules unknown: not implemented)")
    secret_missions: bool = Field(False, description="secret missions variant (rules unknown: not implemented)")
    ufo: bool = Field(False, description="UFO variant (rules unknown: not implemented)")

    @model_validator(mode="after")
    def _none_yet(self):
        for name, on in self.model_dump().items():
            if on:
                raise ValueError(f"{name}: this variant's rules are unknown; it is not implemented")
        return self


class MlemRules(Strict):
    satellite_start_space: int = Field(
        3, ge=1, description="space the rocket starts from when a satellite astronaut is aboard at take-off "
        "(the original's '3rd space': 3 counting from 0; 2 reads it as 'the third space')")
    planet_double: Literal["score_twice", "count_twice"] = Field(
        "score_twice", description="Planet x2: its owner's placement points on that planet doubled (score_twice, "
        "the original) or it counts as two astronauts for the majority (count_twice)")
    end_exact_count: bool = Field(
        False, description="deep space needs an exact count (moves passing it are not allowed; no legal move is a "
        "crash); false: arriving or passing reaches it")
    one_die_prevents_crash: bool = Field(
        False, description="a face-up One-die aboard saves a roll with no usable face (false: the crash check looks "
        "at the rolled dice only)")
    one_die_alone: bool = Field(
        False, description="the One-die may be a move on its own, with no rolled group (false, the original: it is "
        "used 'in addition to the dice rolled', so a move still needs a rolled group)")
    one_die_with_rolled_ones: Literal["joins", "separate"] = Field(
        "joins", description="when a usable group of 1s was rolled, the One-die (a die showing 1) goes only with that "
        "group, groups being used whole (joins, the original's literal reading), or with any groups (separate)")
    one_die_needs_face_1_allowed: bool = Field(
        True, description="the One-die may be used only on a space that allows face 1")
    one_die_refresh_after_crash: bool = Field(
        True, description="a used One-die is face up again once it comes home after a crash")
    plus_minus_into_deep_space: bool = Field(
        False, description="the +/-1 astronaut may leave from the space before deep space into deep space")
    plus_minus_deep_space_body: Literal["galaxy", "comet_if_commander"] = Field(
        "galaxy", description="with plus_minus_into_deep_space, the body a +/-1 stepping into deep space lands on: the "
        "galaxy, commander or not (galaxy: the original's 'it cannot move from the galaxy to the comet'), or the "
        "comet when it commands (comet_if_commander)")
    end_check: Literal["end_of_expedition", "immediate"] = Field(
        "end_of_expedition", description="when a player placing all 8 astronauts ends the game: after the expedition "
        "(astronauts still aboard may land), or at once (the others aboard go home)")
    planet_ranks_paid: int = Field(3, ge=1, le=3, description="how many places per planet score (1st..3rd); below, nothing")
    win_ties: Literal["shared", "nobody"] = Field(
        "shared", description="players tied for the highest total share the win (shared) or nobody wins (nobody)")
    crash_track: int = Field(11, ge=1, le=100, description="the crash that ends the game (the track has 11 steps)")
    goal_galaxy_counts_comet: bool = Field(
        False, description="the '2 in the galaxy' goal also counts astronauts on the comet")
    first_player: Literal["random", "seat0"] = Field(
        "random", description="who commands the first expedition: drawn at random (random) or seat 0 (seat0)")
    expedition_cap: int = Field(300, ge=1, le=10_000, description="safety cap on expeditions; a capped game is a draw (counted)")


class MlemScenario(ScenarioBase):
    POLICIES = POLICIES
    POLICY_DOCS = POLICY_DOCS
    WEIGHTS = WEIGHTS
    RESTRICTIONS = RESTRICTIONS
    ROLLOUT_POLICY = "expected_value"
    MIN_PLAYERS = 2
    MAX_PLAYERS = 5
    board_status: Literal["estimated", "published"] = Field(
        "estimated", description="estimated until the printed mat is read; then published")
    board: Board
    rules: MlemRules = MlemRules()
    variants: Variants = Variants()

    @model_validator(mode="after")
    def _check_seats_data(self):
        if self.rules.satellite_start_space >= len(self.board.spaces) - 1:
            raise ValueError("rules.satellite_start_space: must be before deep space")
        return self

    def estimated(self) -> list[str]:
        if self.board_status == "published":
            return []
        b = self.board
        items = [f"space {i}" for i, s in enumerate(b.spaces) if s.estimated]
        items += [f"moons {m.name}" for m in b.moons if m.estimated]
        items += [f"planet {p.name}" for p in b.planets if p.estimated]
        return ["board (estimated mat)", *items, *(["goal values"] if b.estimated_goals else [])]


def crash_table(allowed: np.ndarray) -> np.ndarray:
    """crash[k, s]: the exact chance that a roll of k dice on space s shows no usable face, by enumerating
    every one of the 6^k outcomes (computed once per scenario, never inside a game)."""
    return _crash_table(allowed.tobytes(), allowed.shape).copy()


@functools.cache
def _crash_table(allowed_bytes: bytes, shape: tuple) -> np.ndarray:
    allowed = np.frombuffer(allowed_bytes, bool).reshape(shape)
    codes = np.array([symbol_code(f) for f in DIE_FACES])
    table = np.zeros((DICE + 1, shape[0]))
    table[0, :] = 1.0
    for k in range(1, DICE + 1):
        outcomes = codes[np.array(list(product(range(len(DIE_FACES)), repeat=k)))]  # (6^k, k) symbol codes
        usable = allowed[:, outcomes].any(axis=2)  # (spaces, 6^k)
        table[k, :] = (~usable).mean(axis=1)
    return table


def board_arrays(b: Board) -> tuple:
    """(allowed[S, 6] by symbol code, ab[S], body_kind[S], body_id[S], moon_start[G+1], moon_value[M],
    planet_points[PL, 3], goal_values[4], leave_cap[3, S])."""
    n = len(b.spaces)
    allowed = np.zeros((n, len(SYMBOLS) + 1), bool)
    ab = np.zeros(n, np.int64)
    kind = np.zeros(n, np.int64)
    ident = np.full(n, -1, np.int64)
    moon_ids = {m.name: j for j, m in enumerate(b.moons)}
    planet_ids = {p.name: j for j, p in enumerate(b.planets)}
    for i, s in enumerate(b.spaces):
        for f in s.faces:
            allowed[i, symbol_code(f)] = True
        ab[i] = s.ab
        if s.body == DEEP_SPACE:
            kind[i] = BODY_DEEP
        elif s.body in moon_ids:
            kind[i], ident[i] = BODY_MOON, moon_ids[s.body]
        elif s.body in planet_ids:
            kind[i], ident[i] = BODY_PLANET, planet_ids[s.body]
    moon_start = np.cumsum([0] + [len(m.values) for m in b.moons]).astype(np.int64)
    moon_value = np.array([v for m in b.moons for v in m.values], np.int64)
    planet_points = np.array([p.points for p in b.planets], np.int64).reshape(len(b.planets), 3)
    goals = np.array([b.goals[g] for g in GOALS], np.int64)
    return (allowed, ab, kind, ident, moon_start, moon_value, planet_points, goals,
            leave_cap(b, kind, ident, moon_start, moon_value, planet_points, goals))


def leave_cap(b: Board, kind, ident, moon_start, moon_value, planet_points, goals) -> np.ndarray:
    """The most an astronaut can ever earn by leaving at each space, whatever the table: row 0 for a type
    without a landing power, row 1 for any type (a doubling), row 2 row 0's most from that space on.
    The policies skip a space whose cap cannot beat the best landing they have found (policies.py)."""
    g = np.maximum(goals, 0)
    cap = np.zeros((3, len(kind)), np.int64)
    for s, k in enumerate(kind):
        if k == BODY_MOON:
            best = moon_value[moon_start[ident[s]]:moon_start[ident[s] + 1]].max()
            cap[0, s], cap[1, s] = best + g[0], 2 * best + g[0]
        elif k == BODY_PLANET:  # a Planet x2 already there doubles even a plain astronaut's placement
            cap[0, s] = cap[1, s] = 2 * planet_points[ident[s]].max() + g[1] + g[2]
        elif k == BODY_DEEP:
            best = max(b.comet, b.galaxy)
            cap[0, s], cap[1, s] = best + g[3], 2 * best + g[3]
    cap[2] = np.maximum.accumulate(cap[0, ::-1])[::-1]
    return cap


def rule_vector(sc: MlemScenario) -> np.ndarray:
    r, b = sc.rules, sc.board
    values = {
        "players": sc.players, "last_space": len(b.spaces) - 1, "satellite_start": r.satellite_start_space,
        "planet_count_twice": r.planet_double == "count_twice", "end_exact_count": r.end_exact_count,
        "one_die_prevents_crash": r.one_die_prevents_crash, "one_die_needs_face_1": r.one_die_needs_face_1_allowed,
        "one_die_refresh": r.one_die_refresh_after_crash, "pm_into_deep": r.plus_minus_into_deep_space,
        "pm_deep_galaxy": r.plus_minus_deep_space_body == "galaxy", "one_die_alone": r.one_die_alone,
        "one_die_joins_ones": r.one_die_with_rolled_ones == "joins",
        "end_immediate": r.end_check == "immediate", "ranks_paid": r.planet_ranks_paid,
        "win_ties_shared": r.win_ties == "shared", "crash_track": r.crash_track,
        "first_random": r.first_player == "random", "expedition_cap": r.expedition_cap,
        "comet": b.comet, "galaxy": b.galaxy, "goal_galaxy_counts_comet": r.goal_galaxy_counts_comet,
    }
    return np.array([int(values[name.lower()]) for name in R.__members__], np.int64)


def kernel_inputs(sc: MlemScenario) -> tuple:
    """(rules, (board arrays, crash table, rules), policy codes, weights, restrictions, script): engine.play's
    inputs."""
    board = board_arrays(sc.board)
    rules = rule_vector(sc)
    return (rules, (*board, crash_table(board[0]), rules), sc.policy_codes(), sc.weight_rows(), sc.restrict_masks(),
            sc.script_codes())
