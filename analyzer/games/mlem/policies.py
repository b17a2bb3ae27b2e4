"""MLEM's policies. A policy sees only its player's view (`view`, built in `fill_view`: the public
table and the player's own astronauts), the board and rules (printed, public), the legal options the
engine listed and, for travel options, their public consequences (`info`: how far, dice left), and
returns the index of one option. Never the dice still to be rolled.

Decisions: take-off (which astronaut boards), travel (the commander picks the dice groups and any
One-dies to use), landing (each astronaut aboard stays or leaves, here or with +/-1 one space off)
and the parachute on a crash (land here or go home).
"""
import numpy as np

from ...kernel import FIRST_GAME_POLICY, shared_choice
from ...kernel_internals import jit_no_refcount
from .decisions import (
    D_PARACHUTE,
    D_TAKEOFF,
    D_TRAVEL,
    DEEP2,
    DIE_REMOVER,
    HOME,
    LEAVE_AFTER,
    LEAVE_BEFORE,
    MOON2,
    NO_ARRIVAL,
    ON_COMET,
    ON_GALAXY,
    ON_MOON,
    ON_PLANET,
    ONE_DIE,
    PARACHUTE,
    PLANET2,
    PLUS_MINUS,
    SATELLITE,
    STAY,
    TYPES,
)
from .scenario import BODY_DEEP, BODY_MOON, BODY_PLANET, R

jit = jit_no_refcount  # as the engine's rule functions (engine.py says why)

GREEDY, EXPECTED_VALUE = FIRST_GAME_POLICY, FIRST_GAME_POLICY + 1  # MlemScenario.POLICIES order

MAX_PLAYERS, MAX_MOONS, MAX_PLANETS = 5, 64, 16
# the view: fixed offsets; per-player tables are seen from the deciding seat (index 0 = their own)
V_KIND, V_SEAT, V_SPACE, V_POOL, V_TYPE, V_COMMANDER, V_ONE_UP, V_PLANET2_AT = range(8)
V_ROLL = 8                            # roll counts by symbol code 1..5 at V_ROLL + code
V_AVAIL = V_ROLL + 6                  # own astronauts at home, by type
V_MOON_FREE = V_AVAIL + TYPES         # 1 if that moon is free
V_PL_COUNT = V_MOON_FREE + MAX_MOONS  # astronauts of each player on each planet: [planet * MAX_PLAYERS + k]
V_PL_FIRST = V_PL_COUNT + MAX_PLANETS * MAX_PLAYERS  # arrival stamp of each player's first astronaut there
V_GOAL_FREE = V_PL_FIRST + MAX_PLANETS * MAX_PLAYERS  # 1 if that goal token is still to be taken
V_OWN_MOONS, V_OWN_GALAXY, V_OWN_COMET = V_GOAL_FREE + 4, V_GOAL_FREE + 5, V_GOAL_FREE + 6  # own astronauts there
VIEW_SIZE = V_GOAL_FREE + 7
GOAL_MOONS_4, GOAL_PLANETS_4, GOAL_ONE_PLANET_3, GOAL_GALAXY_2 = range(4)
# the board tuple: (allowed, ab, body_kind, body_id, moon_start, moon_value, planet_points, goals, crash, rules)
TAKEOFF_PREFERENCE = np.array([DEEP2, MOON2, PLANET2, SATELLITE, PLUS_MINUS, PARACHUTE, ONE_DIE, DIE_REMOVER], np.int64)
FUTURE_REACH = 3  # expected_value looks this many spaces ahead for what staying could still earn


@jit
def fill_view(view, kind, p, space, pool, typ, commander, one_up, roll, at, spot, moon_owner, pl_count, pl_first,
              goal_owner):
    """The one place a player's view is built: the public table, their own astronauts, this decision."""
    players = at.shape[0]
    view[V_KIND] = kind
    view[V_SEAT] = p
    view[V_SPACE] = space
    view[V_POOL] = pool
    view[V_TYPE] = typ
    view[V_COMMANDER] = commander
    view[V_ONE_UP] = one_up
    view[V_PLANET2_AT] = spot[p, PLANET2] if at[p, PLANET2] == ON_PLANET else -1
    for s in range(1, 6):
        view[V_ROLL + s] = roll[s]
    view[V_OWN_MOONS] = view[V_OWN_GALAXY] = view[V_OWN_COMET] = 0
    for t in range(TYPES):
        view[V_AVAIL + t] = at[p, t] == HOME
        view[V_OWN_MOONS] += at[p, t] == ON_MOON
        view[V_OWN_GALAXY] += at[p, t] == ON_GALAXY
        view[V_OWN_COMET] += at[p, t] == ON_COMET
    for g in range(4):
        view[V_GOAL_FREE + g] = goal_owner[g] < 0
    for m in range(len(moon_owner)):
        view[V_MOON_FREE + m] = moon_owner[m] < 0
    for k in range(players):
        q = p + k if p + k < players else p + k - players  # seen from seat p (no division: this runs at every decision)
        for pl in range(pl_count.shape[0]):
            view[V_PL_COUNT + pl * MAX_PLAYERS + k] = pl_count[pl, q]
            view[V_PL_FIRST + pl * MAX_PLAYERS + k] = pl_first[pl, q]


@jit
def planet_award(view, points, pl, mine, my_first, players, paid):
    """Placement points the deciding player would get on planet pl holding `mine` (by weight, first
    arrival `my_first`) against the others as the view shows them."""
    if mine == 0:
        return 0
    rank = 0
    for k in range(1, players):
        c = view[V_PL_COUNT + pl * MAX_PLAYERS + k]
        f = view[V_PL_FIRST + pl * MAX_PLAYERS + k]
        if c > mine or (c == mine and c > 0 and f < my_first):
            rank += 1
    return points[pl, rank] if rank < paid else 0


@jit
def landing_value(view, board, space, typ, commander):
    """Points the deciding astronaut of type typ earns by leaving at the body of `space` (-1: cannot)."""
    kind, ident, moon_start, moon_value, planet_points, rules = board[2], board[3], board[4], board[5], board[6], board[9]
    k = kind[space]
    if k == BODY_MOON:
        for m in range(moon_start[ident[space] + 1] - 1, moon_start[ident[space]] - 1, -1):
            if view[V_MOON_FREE + m]:
                return moon_value[m] * (2 if typ == MOON2 else 1)
        return -1
    if k == BODY_DEEP:
        return (rules[R.COMET] if commander else rules[R.GALAXY]) * (2 if typ == DEEP2 else 1)
    if k != BODY_PLANET:
        return -1
    pl = ident[space]
    players, count_twice, paid = rules[R.PLAYERS], rules[R.PLANET_COUNT_TWICE], rules[R.RANKS_PAID]
    mine = view[V_PL_COUNT + pl * MAX_PLAYERS]
    first = view[V_PL_FIRST + pl * MAX_PLAYERS]
    has2 = view[V_PLANET2_AT] == pl
    weight_now = mine + (1 if count_twice and has2 else 0)
    double_now = 2 if has2 and not count_twice else 1
    added = 2 if typ == PLANET2 and count_twice else 1
    double_then = 2 if (has2 or typ == PLANET2) and not count_twice else 1
    then = planet_award(view, planet_points, pl, weight_now + added, first if mine > 0 else NO_ARRIVAL - 1, players, paid)
    now = planet_award(view, planet_points, pl, weight_now, first, players, paid)
    return then * double_then - now * double_now


@jit
def goal_value(view, board, space, commander):
    """Points of the goal tokens the deciding player would take by one more astronaut at the body of
    `space` (the engine's claim_goals, seen from the view: own placements and the tokens still free)."""
    kind, ident, goals, rules = board[2], board[3], board[7], board[9]
    k = kind[space]
    got = 0
    if k == BODY_MOON and view[V_GOAL_FREE + GOAL_MOONS_4] and view[V_OWN_MOONS] + 1 >= 4:
        got += goals[GOAL_MOONS_4]
    elif k == BODY_PLANET:
        mine = view[V_PL_COUNT + ident[space] * MAX_PLAYERS]
        planets = 0
        for pl in range(board[6].shape[0]):
            planets += view[V_PL_COUNT + pl * MAX_PLAYERS] > 0
        if view[V_GOAL_FREE + GOAL_PLANETS_4] and mine == 0 and planets + 1 >= 4:
            got += goals[GOAL_PLANETS_4]
        if view[V_GOAL_FREE + GOAL_ONE_PLANET_3] and mine + 1 >= 3:
            got += goals[GOAL_ONE_PLANET_3]
    elif k == BODY_DEEP and view[V_GOAL_FREE + GOAL_GALAXY_2] and (not commander or rules[R.GOAL_GALAXY_COUNTS_COMET]):
        galaxy = view[V_OWN_GALAXY] + (view[V_OWN_COMET] if rules[R.GOAL_GALAXY_COUNTS_COMET] else 0)
        if galaxy + 1 >= 2:
            got += goals[GOAL_GALAXY_2]
    return got


@jit
def leave_value(view, board, space, typ, commander):
    """expected_value's worth of leaving at `space`: the landing's points plus any goal token it takes
    (-1: cannot)."""
    v = landing_value(view, board, space, typ, commander)
    return v if v < 0 else v + goal_value(view, board, space, commander)


@jit
def option_space(view, option):
    if option == LEAVE_BEFORE:
        return view[V_SPACE] - 1
    if option == LEAVE_AFTER:
        return view[V_SPACE] + 1
    return view[V_SPACE]


@jit
def best_leave(view, board, options, n_options, goals):
    """(index, points) of the most valuable leave option (goal tokens counted if `goals`); (-1, -1) if
    there is none."""
    best, value = -1, -1
    for i in range(n_options):
        if options[i] != STAY:
            space = option_space(view, options[i])
            # a +/-1 stepping into deep space lands on the galaxy under plus_minus_deep_space_body: galaxy
            commander = view[V_COMMANDER] and not (options[i] == LEAVE_AFTER and board[9][R.PM_DEEP_GALAXY])
            if goals:
                v = leave_value(view, board, space, view[V_TYPE], commander)
            else:
                v = landing_value(view, board, space, view[V_TYPE], commander)
            if v > value:
                best, value = i, v
    return best, value


@jit
def takeoff_by_preference(options, n_options):
    for t in TAKEOFF_PREFERENCE:
        for i in range(n_options):
            if options[i] == t:
                return i
    return 0


@jit
def greedy(view, board, options, n_options, info):
    """Lands at the first body worth points; travels as far as the dice allow."""
    if view[V_KIND] == D_TAKEOFF:
        return takeoff_by_preference(options, n_options)
    if view[V_KIND] == D_TRAVEL:
        best = 0
        for i in range(n_options):
            if info[i, 0] > info[best, 0]:
                best = i
        return best
    i, v = best_leave(view, board, options, n_options, False)
    return i if v > 0 else 0


@jit
def survival(crash_odds, weight):
    """The chance of not crashing, weighted by the seat's risk (x ** 1.0 is x: the neutral risk skips
    the power, the most expensive step of a travel decision)."""
    return 1.0 - crash_odds if weight == 1.0 else (1.0 - crash_odds) ** weight


@jit
def expected_value(view, board, options, n_options, info, risk):
    """Weighs the exact crash odds of the pool (board[8], crash[k, space]) against the points ahead.
    risk < 1 is timid (the odds weigh more), risk > 1 reckless.

    Travel: the farthest space weighted by the chance the dice left survive a roll there. Landing: leave
    if this landing's points plus the goal tokens it would take (goal_value) are at least the chance of
    surviving one more roll here times the best such value of the next FUTURE_REACH spaces. Limits: it
    looks one roll and FUTURE_REACH spaces ahead (not the whole trip), ignores what the others aboard will
    take before it, and values a planet by the rank it would hold now, not at the end."""
    crash, last = board[8], board[9][R.LAST_SPACE]
    weight = 1.0 / risk
    if view[V_KIND] == D_TAKEOFF:
        return takeoff_by_preference(options, n_options)
    if view[V_KIND] == D_TRAVEL:
        best, best_score = 0, -1.0
        for i in range(n_options):
            to = view[V_SPACE] + info[i, 0]
            score = 1e9 + to if to >= last else to * survival(crash[info[i, 1], to], weight)
            if score > best_score:
                best, best_score = i, score
        return best
    i, v = best_leave(view, board, options, n_options, True)
    if i < 0 or v <= 0:
        return 0
    if view[V_KIND] == D_PARACHUTE:
        return i
    ahead = 0
    for s in range(view[V_SPACE] + 1, min(view[V_SPACE] + FUTURE_REACH, last) + 1):
        ahead = max(ahead, leave_value(view, board, s, view[V_TYPE], view[V_COMMANDER]))
    survive = survival(crash[view[V_POOL], view[V_SPACE]], weight)
    return i if v >= survive * ahead else 0


@jit
def decide(code, view, board, options, n_options, info, stream, script, at, risk):
    """The one dispatch from a seat's policy code to its decision function."""
    k = shared_choice(code, stream, script, at, n_options)
    if k >= 0:
        return k
    if code == GREEDY:
        return greedy(view, board, options, n_options, info)
    return expected_value(view, board, options, n_options, info, risk)
