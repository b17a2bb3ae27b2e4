"""MLEM: Space Agency (Reiner Knizia): push-your-luck rocket expeditions for 2-5 players.

Spec: the project's MLEM rules (the Japanese BGA help page plus reviews). THE MAT IS ESTIMATED
(`board_status: estimated`): faces, afterburner pips, bodies and values of scenarios/mlem/default.yaml
follow every known fact but are guesses; every report header lists them.

Rule decisions (each open point is a named field of `rules`, default first):
- Take-off: the starting player boards first (top slot), then clockwise; any astronaut at home may board
  (also one home from a crash). The pool is 6 dice at each take-off. A satellite aboard starts the
  rocket on `satellite_start_space` (3; 2 the variant); several change nothing.
- Travel: only faces the current space allows count; a group is used whole; move = number faces used +
  AB dice used x the space's AB pips. Used number dice leave, AB dice stay; the pool never drops below 1.
  No usable rolled face = crash. Reaching deep space = arriving or passing (`end_exact_count: false`;
  true: moves passing it are not offered, and no legal move is a crash).
- Landing (spaces 6+, after each successful move): from the top slot down, each astronaut stays or
  leaves (a player is asked only when leaving is possible). A moon group gives the farthest free moon
  (points at once); a full group cannot be left to.
  Planets take any number, arrival order kept. Deep space: everyone leaves at once (simultaneously),
  the commander (top astronaut aboard) to the comet, the others to the galaxy, points at once. When the
  commander leaves, the highest astronaut still aboard commands and rolls the remaining pool.
- Crash: the crash track advances; a Parachute may land at the current space's body (or go home); all
  others go home. The next expedition is started by the player left of this one's starting player.
- Powers: +/-1 may leave at the body one space before or after (never into deep space:
  `plus_minus_into_deep_space: false`; with true, the step lands on the galaxy even for the commander,
  `plus_minus_deep_space_body: galaxy`, as the original's 「銀河から彗星へは移動できません」 says; `comet_if_commander`:
  the commander's step takes the comet).
  Moon x2 / Comet-Galaxy x2 double those points. Planet x2: `planet_double: score_twice` (its owner's
  placement points on that planet doubled) or `count_twice` (counts two for the majority). Die-remover:
  when it leaves and someone stays aboard, the pool loses a die (never the last). One-die: while aboard
  and face up, the commander may use it as an extra 1 (several in one phase; used top slot first), then
  it is face down. It is used "in addition to the dice rolled" (「振ったダイスに加えて」), so a move still
  needs a rolled group (`one_die_alone: false`; true: the One-die alone is a move), and being a 1 it goes
  only with a usable rolled group of 1s when there is one, groups being used whole
  (`one_die_with_rolled_ones: joins`; `separate`: beside any groups); `one_die_prevents_crash: false`
  (true: it alone saves a roll with no usable face), `one_die_needs_face_1_allowed: true`,
  `one_die_refresh_after_crash: true` (face up again when it comes home from a crash).
- End: after the expedition in which the crash track reaches `crash_track` (11) or a player has placed
  all 8 (`end_check: end_of_expedition`; `immediate`: the game stops at that placement, wherever it
  happens -- landing phase, deep space (in slot order from the top) or a parachute in a crash -- and the
  others aboard go home). Planets then pay 1st/2nd/3rd (`planet_ranks_paid: 3`) by astronauts there, ties to the
  earlier first arrival. Goal tokens (first to 4 on moons, to 4 different planets, to 3 on one planet, to
  2 in the galaxy; `goal_galaxy_counts_comet: false`) pay at once. Highest total wins; ties share
  (`win_ties: shared`; nobody: no winner). A game reaching `expedition_cap` is a draw (counted).
- Variants (exploration, secret missions, UFO): rules unknown, refused by the schema.
- The mat: spaces 0-5 touch no body (fact); the schema refuses a space without faces, AB pips without
  AB (or AB without pips), a body no space touches, a missing deep space, and body values that drop
  with distance (moon groups by their best moon, planets by their 1st place).

Policies: random, scripted (shared); greedy (sends the astronaut whose power adds most at the first body
worth points, moves as far as it can, leaves at the first body worth points); expected_value (exact crash
odds of the pool on the current space from a table enumerated once per scenario; its weights (scenario WEIGHTS: risk, future_reach, keep, mean_move)
per seat; sends
the astronaut whose power adds most, times the chance of getting there, at the body it expects to land on,
less `keep` (0.5) x what the type is worth kept at home; a landing is worth its points plus the goal tokens it
would take; staying is weighed against the best landing of the next 3 spaces only, one roll away).
Credit of points to astronaut types (`type_points`): moon/deep-space/goal points to the astronaut that earned them; a planet's placement points
to the player's first astronaut there, the score_twice doubling to the Planet x2.
"""
from __future__ import annotations

from ...kernel import Event
from ..base import Game
from . import columns as C
from . import engine as E
from .decisions import TYPE_NAMES
from .scenario import GOALS, MlemScenario, kernel_inputs

SYMBOL_NAMES = ("", "1", "2", "3", "4", "AB")


def _roll(code: int) -> str:
    counts = [code // 10000, code // 1000 % 10, code // 100 % 10, code // 10 % 10, code % 10]
    return " ".join(f"{c}x{SYMBOL_NAMES[s + 1]}" for s, c in enumerate(counts) if c) or "nothing"


def _groups(code: int) -> str:
    used = [SYMBOL_NAMES[s] for s in range(1, 6) if code & (1 << (s - 1))]
    ones = code >> 5
    return ", ".join(used + ([f"{ones} One-die"] if ones else []))


TYPE = {"a": lambda t: TYPE_NAMES[t]}
EVENTS = {
    E.E_EXPEDITION: Event("expedition {a} started by seat {seat} (crashes so far {b})"),
    E.E_BOARD: Event("  seat {seat} boards {a} in slot {b}", TYPE),
    E.E_START: Event("  the rocket starts on space {a}"),
    E.E_ROLL: Event("  seat {seat} rolls {a} dice on space {c}: {b}", {"b": _roll}),
    E.E_MOVE: Event("  seat {seat} uses {c}: space {a} -> {b}", {"c": _groups}),
    E.E_CRASH: Event("  CRASH on space {a} (commander seat {seat}); crash track {b}"),
    E.E_HOME: Event("  seat {seat}'s {a} goes home", TYPE),
    E.E_COMET: Event("  seat {seat}'s {a} reaches deep space: the comet, {c} points", TYPE),
    E.E_GALAXY: Event("  seat {seat}'s {a} reaches deep space: the galaxy, {c} points", TYPE),
    E.E_DIE_REMOVED: Event("  seat {seat}'s Die-remover leaves: the pool drops to {a} dice"),
    E.E_GOAL: Event("  seat {seat} takes goal {a}: {b} points", {"a": lambda g: GOALS[g]}),
    E.E_END: Event("game over: {a} (crashes {b})", {"a": lambda r: {1: "the crash track is full", 2: "a player placed all 8 astronauts"}[r]}),
    E.E_CAP: Event("expedition cap of {a} reached: a draw"),
    E.E_WIN: Event("seat {seat} wins with {a} points ({b} tied at the top)"),
}


def event_table(scenario: MlemScenario) -> dict[int, Event]:
    """EVENTS plus the records that name a moon or planet, by the scenario's names (a moon is
    `moon k of GROUP`, counted from the track)."""
    moons = [f"moon {k + 1} of {g.name}" for g in scenario.board.moons for k in range(len(g.values))]
    planets = [p.name for p in scenario.board.planets]
    return {**EVENTS,
            E.E_MOON: Event("  seat {seat}'s {a} lands on {b}: {c} points", {**TYPE, "b": moons.__getitem__}),
            E.E_PLANET: Event("  seat {seat}'s {a} lands on {b} (from space {c})", {**TYPE, "b": planets.__getitem__}),
            E.E_PLANET_SCORE: Event("seat {seat} is #{b} on {a}: {c} points", {"a": planets.__getitem__})}


class Mlem(Game):
    name = "mlem"
    title = "MLEM: Space Agency (estimated mat)"
    Scenario = MlemScenario
    length_unit = "expeditions"
    COLUMNS = C.COLUMNS
    kernel = staticmethod(E.play)
    kernel_releases_gil = True  # E.play is compiled with nogil=True
    searchable = True
    kernel_inputs = staticmethod(kernel_inputs)

    def events(self, scenario) -> dict[int, Event]:
        return event_table(scenario)

    def report(self, df, meta, out):
        from .report import write_report
        return write_report(self, df, meta, out)


GAME = Mlem()
