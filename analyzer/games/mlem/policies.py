"""MLEM's policies. A policy sees only its player's view (`view`, built by the rules in `view.fill_view`: the public
table and the player's own astronauts), the board and rules (printed, public), the legal options the
engine listed and, for travel options, their public consequences (`info`: how far, dice left), and
returns the index of one option. Never the dice still to be rolled.

Decisions: take-off (which astronaut to send: both heuristics value each type's power at the space
where they expect the rocket to land, against what that type is worth kept at home), travel (the commander picks the dice groups and any
One-dies to use), landing (each astronaut aboard stays or leaves, here or with +/-1 one space off)
and the parachute on a crash (land here or go home).
"""
from ...kernel import FIRST_GAME_POLICY, ask_policy, asked
from ...kernel_internals import jit_no_refcount
from .decisions import (
    D_PARACHUTE,
    D_TAKEOFF,
    D_TRAVEL,
    DEEP2,
    LEAVE_AFTER,
    LEAVE_BEFORE,
    MOON2,
    NO_ARRIVAL,
    PARACHUTE,
    PLANET2,
    PLUS_MINUS,
    SATELLITE,
    STAY,
)
from .scenario import BODY_DEEP, BODY_MOON, BODY_PLANET, DICE, FIRST_LANDING_SPACE, R
from .view import (
    MAX_PLAYERS,
    V_COMMANDER,
    V_GOAL_FREE,
    V_KIND,
    V_MOON_FREE,
    V_OWN_COMET,
    V_OWN_GALAXY,
    V_OWN_MOONS,
    V_PL_COUNT,
    V_PL_FIRST,
    V_PLANET2_AT,
    V_POOL,
    V_SPACE,
    V_TYPE,
)

GREEDY, EXPECTED_VALUE = FIRST_GAME_POLICY, FIRST_GAME_POLICY + 1  # MlemScenario.POLICIES order

GOAL_MOONS_4, GOAL_PLANETS_4, GOAL_ONE_PLANET_3, GOAL_GALAXY_2 = range(4)
# `board`: the mat and rules, one pack (mat.py: board.kind, board.crash, board.rules...)
# expected_value's weights (MlemScenario.WEIGHTS, in this order): risk appetite; how many spaces ahead
# staying looks for what it could still earn; how much a type's best later use (kept at home) weighs
# against its use now; the take-off trip model's spaces per roll
W_RISK, W_FUTURE_REACH, W_KEEP, W_MEAN_MOVE = range(4)
PLAIN = SATELLITE  # a type whose power adds nothing at a body: the value of a landing by "anyone"


@jit_no_refcount
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


@jit_no_refcount
def landing_value(view, board, space, typ, commander):
    """Points the deciding astronaut of type typ earns by leaving at the body of `space` (-1: cannot)."""
    kind, ident, moon_start, moon_value, planet_points, rules = board.kind, board.ident, board.moon_start, board.moon_value, board.planet_points, board.rules
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


@jit_no_refcount
def goal_value(view, board, space, commander):
    """Points of the goal tokens the deciding player would take by one more astronaut at the body of
    `space` (the engine's claim_goals, seen from the view: own placements and the tokens still free)."""
    kind, ident, goals, rules = board.kind, board.ident, board.goals, board.rules
    k = kind[space]
    got = 0
    if k == BODY_MOON and view[V_GOAL_FREE + GOAL_MOONS_4] and view[V_OWN_MOONS] + 1 >= 4:
        got += goals[GOAL_MOONS_4]
    elif k == BODY_PLANET:
        mine = view[V_PL_COUNT + ident[space] * MAX_PLAYERS]
        if view[V_GOAL_FREE + GOAL_PLANETS_4] and mine == 0:  # a new planet: count those already held
            planets = 0
            for pl in range(board.planet_points.shape[0]):
                planets += view[V_PL_COUNT + pl * MAX_PLAYERS] > 0
            if planets + 1 >= 4:
                got += goals[GOAL_PLANETS_4]
        if view[V_GOAL_FREE + GOAL_ONE_PLANET_3] and mine + 1 >= 3:
            got += goals[GOAL_ONE_PLANET_3]
    elif k == BODY_DEEP and view[V_GOAL_FREE + GOAL_GALAXY_2] and (not commander or rules[R.GOAL_GALAXY_COUNTS_COMET]):
        galaxy = view[V_OWN_GALAXY] + (view[V_OWN_COMET] if rules[R.GOAL_GALAXY_COUNTS_COMET] else 0)
        if galaxy + 1 >= 2:
            got += goals[GOAL_GALAXY_2]
    return got


@jit_no_refcount
def leave_value(view, board, space, typ, commander):
    """expected_value's worth of leaving at `space`: the landing's points plus any goal token it takes
    (-1: cannot)."""
    v = landing_value(view, board, space, typ, commander)
    return v if v < 0 else v + goal_value(view, board, space, commander)


@jit_no_refcount
def option_space(view, option):
    if option == LEAVE_BEFORE:
        return view[V_SPACE] - 1
    if option == LEAVE_AFTER:
        return view[V_SPACE] + 1
    return view[V_SPACE]


@jit_no_refcount
def best_leave(view, board, options, n_options, goals):
    """(index, points) of the most valuable leave option (goal tokens counted if `goals`); (-1, -1) if
    there is none."""
    best, value = -1, -1
    for i in range(n_options):
        if options[i] != STAY:
            space = option_space(view, options[i])
            # a +/-1 stepping into deep space lands on the galaxy under plus_minus_deep_space_body: galaxy
            commander = view[V_COMMANDER] and not (options[i] == LEAVE_AFTER and board.rules[R.PM_DEEP_GALAXY])
            if goals:
                v = leave_value(view, board, space, view[V_TYPE], commander)
            else:
                v = landing_value(view, board, space, view[V_TYPE], commander)
            if v > value:
                best, value = i, v
    return best, value


@jit_no_refcount
def worth(view, board, space, typ, commander, goals):
    """A landing's points, with the goal tokens it takes if `goals` (expected_value) or without (greedy)."""
    return leave_value(view, board, space, typ, commander) if goals else landing_value(view, board, space, typ, commander)


@jit_no_refcount
def power_gain(view, board, space, typ, commander, goals, plain):
    """What typ's power adds to its owner's points by leaving at `space` (goal tokens counted if `goals`):
    the doubling of Moon x2, Planet x2 and Comet/Galaxy x2, the best one-space step of +/-1; 0 for the
    others (Satellite and Parachute act on the trip; Die-remover and One-die move the dice). `plain`: the
    landing's worth to a type without a landing power."""
    if typ == MOON2 or typ == PLANET2 or typ == DEEP2:
        return worth(view, board, space, typ, commander, goals) - plain
    if typ != PLUS_MINUS or space == board.rules[R.LAST_SPACE]:
        return 0
    best = max(plain, worth(view, board, space - 1, PLAIN, commander, goals))
    if space + 1 < board.rules[R.LAST_SPACE] or board.rules[R.PM_INTO_DEEP]:
        # a step into deep space lands on the galaxy under plus_minus_deep_space_body: galaxy
        best = max(best, worth(view, board, space + 1, PLAIN, commander and not board.rules[R.PM_DEEP_GALAXY], goals))
    return best - plain


@jit_no_refcount
def kept_value(view, board, typ):
    """What a doubling type is worth kept at home for later: the most its doubling can add on the board as
    it stands (the best free moon, the best planet's 1st place, the galaxy); 0 for the other types."""
    if typ == MOON2:
        best = 0
        for m in range(len(board.moon_value)):
            if view[V_MOON_FREE + m]:
                best = max(best, board.moon_value[m])
        return best
    if typ == PLANET2:
        best = 0
        for pl in range(board.planet_points.shape[0]):
            best = max(best, board.planet_points[pl, 0])
        return best
    if typ == DEEP2:
        return board.rules[R.GALAXY]
    return 0


@jit_no_refcount
def prefer(score, kept, best_score, best_kept):
    """A take-off candidate beats the best so far on its score; on a tie, the one worth less kept at home."""
    return score > best_score or (score == best_score and kept < best_kept)


@jit_no_refcount
def greedy_send(view, board, options, n_options):
    """greedy's take-off: the rocket lands at the first body worth points from where it starts (greedy's own
    landing rule); the type whose power adds most there boards (ties: the one worth least kept at home,
    then the first listed)."""
    last, here, commander = board.rules[R.LAST_SPACE], view[V_SPACE], view[V_COMMANDER]
    if n_options == 1:
        return 0
    target, plain = -1, 0
    for s in range(max(here, FIRST_LANDING_SPACE), last + 1):
        plain = landing_value(view, board, s, PLAIN, commander)
        if plain > 0:
            target = s
            break
    best, best_score, best_kept = 0, -1e18, 0
    for i in range(n_options):
        gain = power_gain(view, board, target, options[i], commander, False, plain) if target >= 0 else 0
        kept = kept_value(view, board, options[i])
        if prefer(gain, kept, best_score, best_kept):
            best, best_score, best_kept = i, gain, kept
    return best


@jit_no_refcount
def trip_survival(crash, start, to, weight, mean_move):
    """expected_value's chance that a rocket leaving `start` with a full pool gets to `to`: one roll every
    mean_move spaces, each spending a die (the pool never below one)."""
    p, u, pool = 1.0, float(start), DICE
    while u < to:
        p *= survival(crash[pool, int(u)], weight)
        u += mean_move
        pool = max(pool - 1, 1)
    return p


@jit_no_refcount
def expected_send(view, board, options, n_options, weight, keep, mean_move):
    """expected_value's take-off: the landing it expects is the body whose points (goal tokens included)
    times the chance of getting there (trip_survival) is highest. Each type's gain is what its power adds
    to that: the doubling or the +/-1 step times the chance; for a Parachute the same points when the
    rocket does not get there; for a Satellite the better chance from its start space. The type whose
    gain less `keep` x its kept value is highest boards (ties as greedy's)."""
    crash, rules = board.crash, board.rules
    last, here, commander = rules[R.LAST_SPACE], view[V_SPACE], view[V_COMMANDER]
    if n_options == 1:
        return 0
    target, reach, points = -1, 0.0, 0.0
    r, u, pool = 1.0, float(here), DICE  # trip_survival(here, s), carried along s
    cap = board.leave_cap  # the most a landing can earn (scenario.leave_cap); r only falls along the track
    for s in range(max(here, FIRST_LANDING_SPACE), last + 1):
        while u < s:
            r *= survival(crash[pool, int(u)], weight)
            u += mean_move
            pool = max(pool - 1, 1)
        if r * cap[2, s] <= reach * points:
            break  # no space from here on can beat the best found
        if r * cap[0, s] <= reach * points:
            continue
        v = leave_value(view, board, s, PLAIN, commander)
        if v > 0 and r * v > reach * points:
            target, reach, points = s, r, v
    best, best_score, best_kept = 0, -1e18, 0
    for i in range(n_options):
        t = options[i]
        gain = 0.0
        if target >= 0 and t == PARACHUTE:
            gain = (1.0 - reach) * points
        elif target >= 0 and t == SATELLITE:
            start = max(here, rules[R.SATELLITE_START])  # several satellites change nothing
            gain = (trip_survival(crash, start, target, weight, mean_move) - reach) * points
        elif target >= 0:
            gain = reach * power_gain(view, board, target, t, commander, True, points)
        kept = kept_value(view, board, t)
        if prefer(gain - keep * kept, kept, best_score, best_kept):
            best, best_score, best_kept = i, gain - keep * kept, kept
    return best


@jit_no_refcount
def greedy(view, board, options, n_options, info):
    """Lands at the first body worth points; travels as far as the dice allow."""
    if view[V_KIND] == D_TAKEOFF:
        return greedy_send(view, board, options, n_options)
    if view[V_KIND] == D_TRAVEL:
        best = 0
        for i in range(n_options):
            if info[i, 0] > info[best, 0]:
                best = i
        return best
    i, v = best_leave(view, board, options, n_options, False)
    return i if v > 0 else 0


@jit_no_refcount
def survival(crash_odds, weight):
    """The chance of not crashing, weighted by the seat's risk (x ** 1.0 is x: the neutral risk skips
    the power, the most expensive step of a travel decision)."""
    return 1.0 - crash_odds if weight == 1.0 else (1.0 - crash_odds) ** weight


@jit_no_refcount
def expected_value(view, board, options, n_options, info, weights):
    """Weighs the exact crash odds of the pool (board.crash, crash[k, space]) against the points ahead.
    Its judgement is the seat's `weights` row (W_*): risk < 1 is timid (the odds weigh more), risk > 1 reckless.

    Travel: the farthest space weighted by the chance the dice left survive a roll there. Landing: leave
    if this landing's points plus the goal tokens it would take (goal_value) are at least the chance of
    surviving one more roll here times the best such value of the next future_reach spaces. Limits: it
    looks one roll and future_reach spaces ahead (not the whole trip), ignores what the others aboard will
    take before it, and values a planet by the rank it would hold now, not at the end."""
    crash, last = board.crash, board.rules[R.LAST_SPACE]
    weight = 1.0 / weights[W_RISK]
    if view[V_KIND] == D_TAKEOFF:
        return expected_send(view, board, options, n_options, weight, weights[W_KEEP], weights[W_MEAN_MOVE])
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
    survive = survival(crash[view[V_POOL], view[V_SPACE]], weight)
    # stay if some space ahead is worth more than v after the roll; a space whose cap (scenario.leave_cap;
    # row 1 for the doubling types) is not cannot be, and is not valued
    cap = board.leave_cap[1 if view[V_TYPE] == MOON2 or view[V_TYPE] == DEEP2 else 0]
    for s in range(view[V_SPACE] + 1, min(view[V_SPACE] + int(weights[W_FUTURE_REACH]), last) + 1):
        if v < survive * cap[s] and v < survive * leave_value(view, board, s, view[V_TYPE], view[V_COMMANDER]):
            return 0
    return i


@jit_no_refcount
def decide(code, view, board, options, n_options, info, stream, script, ask, weights):
    """The one dispatch from a seat's policy code to its decision function (`weights`: the seat's row);
    a search seat's `code` comes back from ask_policy as its rollout policy's where it plays on."""
    k, code = ask_policy(code, stream, script, ask, n_options)
    if k < 0:
        if code == GREEDY:
            k = greedy(view, board, options, n_options, info)
        else:
            k = expected_value(view, board, options, n_options, info, weights)
    return asked(ask, k)
