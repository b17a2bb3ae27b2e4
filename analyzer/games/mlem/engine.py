"""MLEM: Space Agency, the rulebook as one compiled kernel (and, with tracing on, the recorder
`analyzer replay` reads). The rules and their open points: the package docstring (__init__.py).

The game is a series of expeditions. In each: take-off (every player boards one astronaut from home,
the starting player on top), then travel phases (the commander rolls the pool; only faces the
current space allows count; a roll with none crashes the rocket) each followed, from space 6 on, by
a landing phase (from the top slot down, every astronaut aboard stays or leaves at the body the
rocket touches). Reaching deep space makes everyone leave. After the expedition the game ends on
the crash track's last step or when a player has placed all 8 astronauts; otherwise the player left
of this expedition's starting player starts the next one.
"""
import numpy as np
from numba import njit

from ... import rng
from ...kernel import keep_allowed, record
from ...kernel_internals import jit_no_refcount, release
from .columns import G, S
from .decisions import (
    AB_SYMBOL,
    ABOARD,
    D_LAND,
    D_PARACHUTE,
    D_TAKEOFF,
    D_TRAVEL,
    DEEP2,
    DIE_REMOVER,
    HOME,
    LAND_AT_FIRST_CHANCE,
    LEAVE_AFTER,
    LEAVE_BEFORE,
    LEAVE_HERE,
    MOON2,
    NEVER_SEND,
    NO_ARRIVAL,
    ON_COMET,
    ON_GALAXY,
    ON_MOON,
    ON_PLANET,
    ONE_DIE,
    ONE_DIE_SHIFT,
    PARACHUTE,
    PLANET2,
    PLUS_MINUS,
    SATELLITE,
    STAY,
    TYPES,
)
from .mat import as_mat
from .policies import decide
from .scenario import BODY_DEEP, BODY_MOON, BODY_PLANET, DICE, FIRST_LANDING_SPACE, R
from .view import VIEW_SIZE, fill_view

# Every kernel function but play (the one that allocates) is compiled without numba's reference
# counting (analyzer/kernel_internals.py): the arrays all belong to play, and counting them on each of
# the many small calls of a game cost most of its time.
SRC_MOON, SRC_PLANET, SRC_DEEP, SRC_GOAL = range(4)
FACE_SYMBOL = np.array([1, 2, 2, 3, 4, AB_SYMBOL], np.int64)  # the six faces of a die, as symbol codes
MAX_OPTIONS = 32 * 6
END_CRASHES, END_ALL_PLACED = 1, 2

# trace records: (kind, seat, a, b, c)
(E_EXPEDITION, E_BOARD, E_START, E_ROLL, E_MOVE, E_CRASH, E_HOME, E_MOON, E_PLANET, E_COMET, E_GALAXY,
 E_DIE_REMOVED, E_GOAL, E_PLANET_SCORE, E_END, E_CAP, E_WIN) = range(1, 18)


@jit_no_refcount
def roll_pool(stream, pool, roll):
    """Roll `pool` dice and group equal faces: roll[symbol] = how many show it."""
    roll[:] = 0
    for _ in range(pool):
        roll[FACE_SYMBOL[rng.below(stream, 6)]] += 1


@jit_no_refcount
def farthest_free_moon(group, moon_start, moon_owner):
    """The free moon of a group farthest from the track (moons are listed nearest first); -1 if full."""
    for m in range(moon_start[group + 1] - 1, moon_start[group] - 1, -1):
        if moon_owner[m] < 0:
            return m
    return -1


@jit_no_refcount
def can_land(space, board, moon_owner, rules):
    kind, ident, moon_start = board.kind, board.ident, board.moon_start
    if space < FIRST_LANDING_SPACE or space > rules[R.LAST_SPACE]:
        return False
    if kind[space] == BODY_MOON:
        return farthest_free_moon(ident[space], moon_start, moon_owner) >= 0
    return kind[space] == BODY_PLANET or kind[space] == BODY_DEEP


@jit_no_refcount
def score(p, typ, src, points, pts, tpts):
    pts[p, src] += points
    tpts[p, typ] += points


@jit_no_refcount
def claim_goals(p, at, pl_count, goal_owner, board, rules, pts, tpts, typ, ev, tn, cap):
    """The four goal tokens, each to the first player to reach it (credited to the astronaut that did)."""
    moons = 0
    galaxy = 0
    for t in range(TYPES):
        moons += at[p, t] == ON_MOON
        galaxy += at[p, t] == ON_GALAXY or (rules[R.GOAL_GALAXY_COUNTS_COMET] and at[p, t] == ON_COMET)
    planets = 0
    most = 0
    for pl in range(pl_count.shape[0]):
        planets += pl_count[pl, p] > 0
        most = max(most, pl_count[pl, p])
    reached = (moons >= 4, planets >= 4, most >= 3, galaxy >= 2)
    for goal in range(4):
        if reached[goal] and goal_owner[goal] < 0:
            goal_owner[goal] = p
            score(p, typ, SRC_GOAL, board.goals[goal], pts, tpts)
            record(ev, tn, cap, E_GOAL, p, goal, board.goals[goal], 0)


@jit_no_refcount
def land(p, typ, space, commander, board, rules, at, spot, moon_owner, pl_count, pl_first, pl_first_type,
         arrivals, goal_owner, pts, tpts, ev, tn, cap):
    """Astronaut (p, typ) leaves the rocket onto the body of `space` (can_land said it may)."""
    kind, ident, moon_start, moon_value = board.kind, board.ident, board.moon_start, board.moon_value
    k = kind[space]
    if k == BODY_MOON:
        m = farthest_free_moon(ident[space], moon_start, moon_owner)
        moon_owner[m] = p
        at[p, typ], spot[p, typ] = ON_MOON, m
        points = moon_value[m] * (2 if typ == MOON2 else 1)
        score(p, typ, SRC_MOON, points, pts, tpts)
        record(ev, tn, cap, E_MOON, p, typ, m, points)
    elif k == BODY_PLANET:
        pl = ident[space]
        arrivals[0] += 1
        if pl_count[pl, p] == 0:
            pl_first[pl, p] = arrivals[0]
            pl_first_type[pl, p] = typ
        pl_count[pl, p] += 1
        at[p, typ], spot[p, typ] = ON_PLANET, pl
        record(ev, tn, cap, E_PLANET, p, typ, pl, space)
    else:
        base = rules[R.COMET] if commander else rules[R.GALAXY]
        points = base * (2 if typ == DEEP2 else 1)
        at[p, typ] = ON_COMET if commander else ON_GALAXY
        score(p, typ, SRC_DEEP, points, pts, tpts)
        record(ev, tn, cap, E_COMET if commander else E_GALAXY, p, typ, 0, points)
    claim_goals(p, at, pl_count, goal_owner, board, rules, pts, tpts, typ, ev, tn, cap)


@jit_no_refcount
def all_placed(p, at):
    for t in range(TYPES):
        if at[p, t] <= ABOARD:
            return False
    return True


@jit_no_refcount
def top_aboard(aboard):
    """The commander: the highest slot still aboard (-1: the rocket is empty)."""
    for k in range(len(aboard)):
        if aboard[k]:
            return k
    return -1


@jit_no_refcount
def ends_at_once(p, at, rules):
    """end_check immediate: the placement just made is this player's 8th, so the game stops here."""
    return rules[R.END_IMMEDIATE] and all_placed(p, at)


@jit_no_refcount
def all_go_home(slot_seat, slot_type, aboard, at, one_up, rules, ev, tn, cap):
    for k in range(len(aboard)):
        if aboard[k]:
            go_home(k, slot_seat, slot_type, aboard, at, one_up, rules, ev, tn, cap)


@jit_no_refcount
def go_home(slot, slot_seat, slot_type, aboard, at, one_up, rules, ev, tn, cap):
    p, typ = slot_seat[slot], slot_type[slot]
    aboard[slot] = 0
    at[p, typ] = HOME
    if typ == ONE_DIE and rules[R.ONE_DIE_REFRESH]:
        one_up[p] = 1
    record(ev, tn, cap, E_HOME, p, typ, 0, 0)


@jit_no_refcount
def list_travel_options(roll, pos, pool, n_one, board, rules, options, info):
    """Every legal use of the roll: one or more whole usable groups, and up to n_one One-dies beside
    them (alone only under one_die_alone, or to save a roll under one_die_prevents_crash; with a usable
    rolled group of 1s, only joining it under one_die_joins_ones). info[i] = (spaces moved, dice left in
    the pool). Returns the number of options."""
    allowed, abv, last = board.allowed, board.ab, rules[R.LAST_SPACE]
    usable = 0
    for s in range(1, 6):
        if roll[s] > 0 and allowed[pos, s]:
            usable |= 1 << (s - 1)
    alone = rules[R.ONE_DIE_ALONE] or (rules[R.ONE_DIE_PREVENTS_CRASH] and usable == 0)
    joins = rules[R.ONE_DIE_JOINS_ONES] and usable & 1
    n = 0
    for uses in range(n_one + 1):
        for mask in range(32):
            if mask & ~usable or (mask == 0 and (uses == 0 or not alone)) or (uses > 0 and joins and not mask & 1):
                continue
            move, used = uses, 0
            for s in range(1, 6):
                if mask & (1 << (s - 1)):
                    if s == AB_SYMBOL:
                        move += roll[s] * abv[pos]      # afterburner dice stay in the pool
                    else:
                        move += roll[s] * s
                        used += roll[s]
            if rules[R.END_EXACT_COUNT] and pos + move > last:
                continue
            options[n] = mask | (uses << ONE_DIE_SHIFT)
            info[n, 0] = move
            info[n, 1] = max(pool - used, 1)           # the pool is never below one die
            n += 1
    return n


@jit_no_refcount
def shows_usable_face(roll, pos, allowed):
    for s in range(1, 6):
        if roll[s] > 0 and allowed[pos, s]:
            return True
    return False


@jit_no_refcount
def usable_one_dies(pos, aboard, slot_seat, slot_type, one_up, board, rules):
    if rules[R.ONE_DIE_NEEDS_FACE_1] and not board.allowed[pos, 1]:
        return 0
    n = 0
    for k in range(len(aboard)):
        if aboard[k] and slot_type[k] == ONE_DIE and one_up[slot_seat[k]]:
            n += 1
    return n


@jit_no_refcount
def turn_one_dies_down(uses, aboard, slot_seat, slot_type, one_up):
    """Used One-dies are turned face down, from the top slot down."""
    for k in range(len(aboard)):
        if uses > 0 and aboard[k] and slot_type[k] == ONE_DIE and one_up[slot_seat[k]]:
            one_up[slot_seat[k]] = 0
            uses -= 1


@jit_no_refcount
def restricted(p, options, n, permitted, seat_out):
    """The seat's restrictions applied right after listing: the options with permitted[k] kept, in their
    order; when none is, all n stay and the seat's restrict_lifted counts the lift."""
    m = keep_allowed(options, n, permitted)
    if m == 0:
        seat_out[p, S.RESTRICT_LIFTED] += 1
        return n
    return m


@jit_no_refcount
def never_stay(p, options, n, permitted, seat_out):
    """land_at_first_chance: STAY (options[0]) is forbidden wherever leaving is offered."""
    for k in range(n):
        permitted[k] = options[k] != STAY
    return restricted(p, options, n, permitted, seat_out)


@jit_no_refcount
def expedition(start, stream, board, rules, policy, weights, restrict, script, ask, view, options, permitted, info, roll,
               at, spot, one_up, moon_owner, pl_count, pl_first, pl_first_type, arrivals, goal_owner,
               slot_seat, slot_type, aboard, crashes, pts, tpts, seat_out, boarded, rolls_at, crashes_at, ev, tn, cap):
    """One expedition started by seat `start`. Returns True if it crashed."""
    players = rules[R.PLAYERS]
    last = rules[R.LAST_SPACE]
    # take-off: the starting player on top, then clockwise, each sends an astronaut from home (the view
    # shows the space the rocket starts on so far: a satellite above moves it)
    pos = 0
    for k in range(players):
        p = (start + k) % players
        n = 0
        for t in range(TYPES):
            if at[p, t] == HOME:
                options[n] = t
                n += 1
        if restrict[p] & ((NEVER_SEND << TYPES) - 1):
            for j in range(n):
                permitted[j] = not restrict[p] & (NEVER_SEND << options[j])
            n = restricted(p, options, n, permitted, seat_out)
        fill_view(view, D_TAKEOFF, p, pos, DICE, -1, k == 0, 0, roll, at, spot, moon_owner, pl_count, pl_first,
                  goal_owner)
        typ = options[decide(policy[p], view, board, options, n, info, stream, script, ask, weights[p])]
        slot_seat[k], slot_type[k], aboard[k] = p, typ, 1
        at[p, typ] = ABOARD
        boarded[p, typ] += 1
        record(ev, tn, cap, E_BOARD, p, typ, k, 0)
        if typ == SATELLITE:
            pos = rules[R.SATELLITE_START]  # several satellites change nothing
    record(ev, tn, cap, E_START, -1, pos, 0, 0)
    pool = DICE
    while True:
        top = top_aboard(aboard)
        if top < 0:
            return False
        cmd = slot_seat[top]
        # travel: roll the pool; only faces the current space allows count
        roll_pool(stream, pool, roll)
        rolls_at[pos] += 1
        record(ev, tn, cap, E_ROLL, cmd, pool, roll[1] * 10000 + roll[2] * 1000 + roll[3] * 100 + roll[4] * 10 + roll[5], pos)
        n_one = usable_one_dies(pos, aboard, slot_seat, slot_type, one_up, board, rules)
        n = list_travel_options(roll, pos, pool, n_one, board, rules, options, info)
        saved = rules[R.ONE_DIE_PREVENTS_CRASH] and n_one > 0
        if n == 0 or not (shows_usable_face(roll, pos, board.allowed) or saved):
            crash(pos, cmd, board, rules, policy, weights, restrict, script, ask, stream, view, options, permitted, info, roll,
                  at, spot, one_up, moon_owner, pl_count, pl_first, pl_first_type, arrivals, goal_owner,
                  slot_seat, slot_type, aboard, crashes, pts, tpts, seat_out, crashes_at, ev, tn, cap)
            return True
        fill_view(view, D_TRAVEL, cmd, pos, pool, slot_type[top], 1, n_one, roll, at, spot, moon_owner, pl_count, pl_first,
                  goal_owner)
        k = decide(policy[cmd], view, board, options, n, info, stream, script, ask, weights[cmd])
        turn_one_dies_down(options[k] >> ONE_DIE_SHIFT, aboard, slot_seat, slot_type, one_up)
        record(ev, tn, cap, E_MOVE, cmd, pos, min(pos + info[k, 0], last), options[k])
        pos = min(pos + info[k, 0], last)
        pool = info[k, 1]
        if pos == last:  # deep space: everyone leaves, the commander to the comet, the others to the galaxy
            for slot in range(players):
                if aboard[slot]:
                    aboard[slot] = 0
                    land(slot_seat[slot], slot_type[slot], last, slot == top, board, rules, at, spot, moon_owner,
                         pl_count, pl_first, pl_first_type, arrivals, goal_owner, pts, tpts, ev, tn, cap)
                    if ends_at_once(slot_seat[slot], at, rules):
                        all_go_home(slot_seat, slot_type, aboard, at, one_up, rules, ev, tn, cap)
            return False
        if pos >= FIRST_LANDING_SPACE:
            pool = landing_phase(pos, pool, board, rules, policy, weights, restrict, script, ask, stream, view, options, permitted,
                                 info, roll, at, spot, one_up, moon_owner, pl_count, pl_first, pl_first_type,
                                 arrivals, goal_owner, slot_seat, slot_type, aboard, pts, tpts, seat_out, ev, tn, cap)
            if pool == 0:  # end_check immediate: a player has placed all 8
                return False


@jit_no_refcount
def landing_phase(pos, pool, board, rules, policy, weights, restrict, script, ask, stream, view, options, permitted, info, roll,
                  at, spot, one_up, moon_owner, pl_count, pl_first, pl_first_type, arrivals, goal_owner,
                  slot_seat, slot_type, aboard, pts, tpts, seat_out, ev, tn, cap):
    """From the top slot down, each astronaut aboard stays or leaves. Returns the pool (0: the game
    ends at once, end_check immediate)."""
    last = rules[R.LAST_SPACE]
    for slot in range(len(aboard)):
        if not aboard[slot]:
            continue
        p, typ = slot_seat[slot], slot_type[slot]
        commander = slot == top_aboard(aboard)
        n = 1
        options[0] = STAY
        if can_land(pos, board, moon_owner, rules):
            options[n] = LEAVE_HERE
            n += 1
        if typ == PLUS_MINUS and can_land(pos - 1, board, moon_owner, rules):
            options[n] = LEAVE_BEFORE
            n += 1
        if typ == PLUS_MINUS and (pos + 1 < last or rules[R.PM_INTO_DEEP]) and can_land(pos + 1, board, moon_owner, rules):
            options[n] = LEAVE_AFTER
            n += 1
        if n == 1:
            continue
        if restrict[p] & LAND_AT_FIRST_CHANCE:
            n = never_stay(p, options, n, permitted, seat_out)
        fill_view(view, D_LAND, p, pos, pool, typ, commander, 0, roll, at, spot, moon_owner, pl_count, pl_first,
                  goal_owner)
        choice = options[decide(policy[p], view, board, options, n, info, stream, script, ask, weights[p])]
        if choice == STAY:
            continue
        aboard[slot] = 0
        target = pos - 1 if choice == LEAVE_BEFORE else pos + 1 if choice == LEAVE_AFTER else pos
        if target == last and rules[R.PM_DEEP_GALAXY]:
            commander = False  # "it cannot move from the galaxy to the comet": the step lands on the galaxy
        land(p, typ, target, commander, board, rules, at, spot, moon_owner, pl_count, pl_first, pl_first_type,
             arrivals, goal_owner, pts, tpts, ev, tn, cap)
        if typ == DIE_REMOVER and top_aboard(aboard) >= 0:
            pool = max(pool - 1, 1)  # the commander removes a die, never the last
            record(ev, tn, cap, E_DIE_REMOVED, p, pool, 0, 0)
        if ends_at_once(p, at, rules):
            all_go_home(slot_seat, slot_type, aboard, at, one_up, rules, ev, tn, cap)
            return 0
    return pool


@jit_no_refcount
def crash(pos, cmd, board, rules, policy, weights, restrict, script, ask, stream, view, options, permitted, info, roll,
          at, spot, one_up, moon_owner, pl_count, pl_first, pl_first_type, arrivals, goal_owner,
          slot_seat, slot_type, aboard, crashes, pts, tpts, seat_out, crashes_at, ev, tn, cap):
    """The crash marker advances; parachutes may still land at the current space's body; everyone else
    goes home."""
    crashes[0] += 1
    crashes_at[pos] += 1
    record(ev, tn, cap, E_CRASH, cmd, pos, crashes[0], 0)
    for slot in range(len(aboard)):
        if not aboard[slot]:
            continue
        p, typ = slot_seat[slot], slot_type[slot]
        if typ == PARACHUTE and can_land(pos, board, moon_owner, rules):
            options[0], options[1] = STAY, LEAVE_HERE
            n = never_stay(p, options, 2, permitted, seat_out) if restrict[p] & LAND_AT_FIRST_CHANCE else 2
            fill_view(view, D_PARACHUTE, p, pos, 0, typ, 0, 0, roll, at, spot, moon_owner, pl_count, pl_first,
                      goal_owner)
            if options[decide(policy[p], view, board, options, n, info, stream, script, ask, weights[p])] == LEAVE_HERE:
                aboard[slot] = 0
                land(p, typ, pos, False, board, rules, at, spot, moon_owner, pl_count, pl_first, pl_first_type,
                     arrivals, goal_owner, pts, tpts, ev, tn, cap)
                if ends_at_once(p, at, rules):
                    all_go_home(slot_seat, slot_type, aboard, at, one_up, rules, ev, tn, cap)
                    return
                continue
        go_home(slot, slot_seat, slot_type, aboard, at, one_up, rules, ev, tn, cap)


@jit_no_refcount
def score_planets(board, rules, pl_count, pl_first, pl_first_type, at, spot, weight, placed, pts, tpts, ev, tn, cap):
    """Per planet, the most astronauts 1st, then 2nd, 3rd (planet_ranks_paid); a tie goes to the player
    whose first astronaut there arrived earlier. Planet x2: its owner's points there doubled
    (score_twice) or it counts as two (count_twice). Points go to the player's first astronaut there,
    the doubling to the Planet x2."""
    players = pl_count.shape[1]
    points = board.planet_points
    count_twice = rules[R.PLANET_COUNT_TWICE]
    for pl in range(pl_count.shape[0]):
        for q in range(players):
            has2 = at[q, PLANET2] == ON_PLANET and spot[q, PLANET2] == pl
            weight[q] = pl_count[pl, q] + (1 if has2 and count_twice else 0)
            placed[q] = weight[q] == 0
        for rank in range(rules[R.RANKS_PAID]):
            best = -1
            for q in range(players):
                if not placed[q] and (best < 0 or weight[q] > weight[best]
                                      or (weight[q] == weight[best] and pl_first[pl, q] < pl_first[pl, best])):
                    best = q
            if best < 0:
                break
            placed[best] = True
            has2 = at[best, PLANET2] == ON_PLANET and spot[best, PLANET2] == pl
            base = points[pl, rank]
            score(best, pl_first_type[pl, best], SRC_PLANET, base, pts, tpts)
            if has2 and not count_twice:
                score(best, PLANET2, SRC_PLANET, base, pts, tpts)
            record(ev, tn, cap, E_PLANET_SCORE, best, pl, rank + 1, base * (2 if has2 and not count_twice else 1))


@njit(cache=True, _nrt=True, nogil=True)
def play(seed, ids, ctl, rules, board, policy, weights, restrict, script, g, s, pts_out, tpts_out, at_out, boarded_out,
         rolls_out, crashes_out, first, ev, tn, cap):
    """The kernel (Game.kernel): games `ids` of run `seed`, each under its control row ctl[i] (kernel.A_*:
    all zeros unless a seat searches), written into the outputs the framework allocated from COLUMNS."""
    players = rules[R.PLAYERS]
    mat = as_mat(board)  # the board tuple as one pointer (mat.py); its arrays are the caller's
    n_moons, n_planets = len(mat.moon_value), mat.planet_points.shape[0]
    view = np.zeros(VIEW_SIZE, np.int64)
    options = np.zeros(MAX_OPTIONS, np.int64)
    permitted = np.zeros(MAX_OPTIONS, np.bool_)
    info = np.zeros((MAX_OPTIONS, 2), np.int64)
    roll = np.zeros(6, np.int64)
    at = np.zeros((players, TYPES), np.int64)
    spot = np.zeros((players, TYPES), np.int64)
    one_up = np.zeros(players, np.int64)
    moon_owner = np.zeros(n_moons, np.int64)
    pl_count = np.zeros((n_planets, players), np.int64)
    pl_first = np.zeros((n_planets, players), np.int64)
    pl_first_type = np.zeros((n_planets, players), np.int64)
    arrivals = np.zeros(1, np.int64)
    goal_owner = np.zeros(4, np.int64)
    slot_seat = np.zeros(players, np.int64)
    slot_type = np.zeros(players, np.int64)
    aboard = np.zeros(players, np.int64)
    crashes = np.zeros(1, np.int64)
    weight = np.zeros(players, np.int64)
    placed = np.zeros(players, np.bool_)
    for i in range(len(ids)):
        stream = rng.new_stream(seed, ids[i])
        at[:] = HOME
        one_up[:] = 1
        moon_owner[:] = -1
        pl_count[:] = 0
        pl_first[:] = NO_ARRIVAL
        goal_owner[:] = -1
        arrivals[0] = 0
        crashes[0] = 0
        ask = (ctl[i], ev, tn, cap)
        start = rng.below(stream, players) if rules[R.FIRST_RANDOM] else 0
        first[i] = start
        while True:
            if g[i, G.LENGTH] == rules[R.EXPEDITION_CAP]:
                g[i, G.CAPPED] = 1
                record(ev, tn, cap, E_CAP, -1, rules[R.EXPEDITION_CAP], 0, 0)
                break
            g[i, G.LENGTH] += 1
            s[i, start, S.STARTED] += 1
            record(ev, tn, cap, E_EXPEDITION, start, g[i, G.LENGTH], crashes[0], 0)
            expedition(start, stream, mat, rules, policy, weights, restrict, script, ask, view, options, permitted, info, roll,
                       at, spot, one_up, moon_owner, pl_count, pl_first, pl_first_type, arrivals, goal_owner,
                       slot_seat, slot_type, aboard, crashes, pts_out[i], tpts_out[i], s[i], boarded_out[i], rolls_out[i],
                       crashes_out[i], ev, tn, cap)
            g[i, G.END] = end_reason(crashes[0], at, rules)
            if g[i, G.END]:
                record(ev, tn, cap, E_END, -1, g[i, G.END], crashes[0], 0)
                break
            start = (start + 1) % players  # left of this expedition's starting player
        g[i, G.CRASHES] = crashes[0]
        score_planets(mat, rules, pl_count, pl_first, pl_first_type, at, spot, weight, placed, pts_out[i], tpts_out[i],
                      ev, tn, cap)
        finish(rules, at, pts_out[i], s[i], at_out[i], g[i, G.CAPPED], ev, tn, cap)
    release(mat)


@jit_no_refcount
def end_reason(crashes, at, rules):
    """After an expedition: the last step of the crash track, or a player with all 8 placed, ends the game."""
    if crashes >= rules[R.CRASH_TRACK]:
        return END_CRASHES
    for p in range(at.shape[0]):
        if all_placed(p, at):
            return END_ALL_PLACED
    return 0


@jit_no_refcount
def finish(rules, at, pts, si, at_out, capped, ev, tn, cap):
    """Totals, astronauts placed, and the winner: highest total; ties share (or nobody wins); a capped
    game has no winner."""
    players = at.shape[0]
    best, tied = -1, 0
    for p in range(players):
        total = pts[p].sum()
        si[p, S.SCORE] = total
        for t in range(TYPES):
            at_out[p, t] = at[p, t]
            si[p, S.PLACED] += at[p, t] >= ON_MOON
        if total > best:
            best, tied = total, 1
        elif total == best:
            tied += 1
    if capped or (tied > 1 and not rules[R.WIN_TIES_SHARED]):
        return
    for p in range(players):
        if si[p, S.SCORE] == best:
            si[p, S.IS_WINNER] = 1
            record(ev, tn, cap, E_WIN, p, best, tied, 0)

