"""What an MLEM player may know when deciding, built by the rules: the public table (the roll, who is on
which moon, planet and goal), the player's own astronauts and this decision (`fill_view`). The engine
builds it at every decision; policies.py only reads it. The dice still to be rolled are never here
(views.py checks that a new dice stream never changes a decision).
"""
from ...kernel_internals import jit_no_refcount_inline
from .decisions import HOME, ON_COMET, ON_GALAXY, ON_MOON, ON_PLANET, PLANET2, TYPES

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


# no reference counting, as the engine's rule functions (engine.py says why), and pasted into its four
# callers: passing its 15 arguments cost more than its body
@jit_no_refcount_inline
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
