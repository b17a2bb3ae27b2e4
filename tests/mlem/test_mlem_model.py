"""MLEM's kernel against an independent plain-Python MLEM written from the spec, on many games with
random players (who draw their choices from the same per-game stream, so both must list the legal
options in the same order) and under every open rule's variants."""
import numpy as np
import pytest

import analyzer
from analyzer import rng
from analyzer.games import get

MLEM = get("mlem")
FACES = [1, 2, 2, 3, 4, 5]  # 5 = AB
SAT, PM, PARA, MOON2, PLANET2, DEEP2, REMOVER, ONE = range(8)
HOME, ABOARD, MOON, PLANET, COMET, GALAXY = range(6)


class Mlem:
    """The spec, step by step, in plain Python: one game, random players."""

    def __init__(self, sc, seed, gid):
        self.s = rng.new_stream(seed, gid)
        b, r = sc.board, sc.rules
        self.r, self.P = r, sc.players
        self.last = len(b.spaces) - 1
        self.allowed = [{5 if f == "AB" else f for f in sp.faces} for sp in b.spaces]
        self.pips = [sp.ab for sp in b.spaces]
        names = {m.name: ("moon", i) for i, m in enumerate(b.moons)} | {p.name: ("planet", i) for i, p in enumerate(b.planets)}
        self.body = [("deep", 0) if sp.body == "deep_space" else names.get(sp.body) for sp in b.spaces]
        self.moon_values = [m.values for m in b.moons]
        self.moon_owner = [[None] * len(m.values) for m in b.moons]
        self.planet_points = [p.points for p in b.planets]
        self.on_planet = [[] for _ in b.planets]  # (seat, type) in arrival order
        self.comet, self.galaxy = b.comet, b.galaxy
        self.goal_values = [b.goals[g] for g in ("moons_4", "planets_4", "one_planet_3", "galaxy_2")]
        self.goal_owner = [None] * 4
        self.at = [[HOME] * 8 for _ in range(self.P)]
        self.one_up = [True] * self.P
        self.points = [[0, 0, 0, 0] for _ in range(self.P)]
        self.crashes = 0

    def pick(self, n):
        return int(rng.below(self.s, n))

    def play(self):
        start = self.pick(self.P) if self.r.first_player == "random" else 0
        first, length = start, 0
        while True:
            if length == self.r.expedition_cap:
                return first, length, True
            length += 1
            self.expedition(start)
            if self.crashes >= self.r.crash_track or any(self.all_placed(p) for p in range(self.P)):
                return first, length, False
            start = (start + 1) % self.P

    def all_placed(self, p):
        return all(w >= MOON for w in self.at[p])

    def expedition(self, start):
        rocket = []  # [seat, type], top first
        pos = 0
        for k in range(self.P):
            p = (start + k) % self.P
            home = [t for t in range(8) if self.at[p][t] == HOME]
            t = home[self.pick(len(home))]
            self.at[p][t] = ABOARD
            rocket.append([p, t])
            pos = self.r.satellite_start_space if t == SAT else pos
        pool = 6
        while rocket:
            roll = [0] * 6
            for _ in range(pool):
                roll[FACES[self.pick(6)]] += 1
            usable = [f for f in range(1, 6) if roll[f] and f in self.allowed[pos]]
            ones = [a for a in rocket if a[1] == ONE and self.one_up[a[0]]]
            if self.r.one_die_needs_face_1_allowed and 1 not in self.allowed[pos]:
                ones = []
            options = []
            for uses in range(len(ones) + 1):
                for mask in range(32):
                    groups = [f for f in range(1, 6) if mask >> (f - 1) & 1]
                    if any(f not in usable for f in groups) or (not groups and not uses):
                        continue
                    alone_ok = self.r.one_die_alone or (self.r.one_die_prevents_crash and not usable)
                    if not groups and not alone_ok:
                        continue  # the One-die goes in addition to rolled dice
                    if uses and self.r.one_die_with_rolled_ones == "joins" and 1 in usable and 1 not in groups:
                        continue  # a One-die is a 1: it belongs to the rolled group of 1s
                    move = uses + sum(roll[f] * (self.pips[pos] if f == 5 else f) for f in groups)
                    used = sum(roll[f] for f in groups if f != 5)
                    if self.r.end_exact_count and pos + move > self.last:
                        continue
                    options.append((move, max(pool - used, 1), uses))
            saved = self.r.one_die_prevents_crash and ones
            if not options or not (usable or saved):
                self.crash(rocket, pos)
                return
            move, pool, uses = options[self.pick(len(options))]
            for a in ones[:uses]:
                self.one_up[a[0]] = False
            pos = min(pos + move, self.last)
            if pos == self.last:
                commander = rocket[0]
                while rocket:
                    a = rocket.pop(0)
                    self.land(*a, pos, a is commander)
                    if self.ends_now(a[0], rocket):
                        return
                return
            if pos >= 6:
                pool = self.landing(rocket, pos, pool)
                if pool == 0:
                    return

    def can_land(self, space):
        if space < 6 or space > self.last:
            return False
        kind, i = self.body[space] or (None, 0)
        return kind in ("planet", "deep") or (kind == "moon" and None in self.moon_owner[i])

    def landing(self, rocket, pos, pool):
        for a in list(rocket):
            p, t = a
            opts = ["stay"] + ["here"] * self.can_land(pos)
            if t == PM:
                opts += ["before"] * self.can_land(pos - 1)
                opts += ["after"] * ((pos + 1 < self.last or self.r.plus_minus_into_deep_space) and self.can_land(pos + 1))
            if len(opts) == 1:
                continue
            choice = opts[self.pick(len(opts))]
            if choice == "stay":
                continue
            commander = rocket[0] is a
            rocket.remove(a)
            to = pos + {"here": 0, "before": -1, "after": 1}[choice]
            if to == self.last and self.r.plus_minus_deep_space_body == "galaxy":
                commander = False
            self.land(p, t, to, commander)
            if t == REMOVER and rocket:
                pool = max(pool - 1, 1)
            if self.ends_now(p, rocket):
                return 0
        return pool

    def ends_now(self, p, rocket):
        """end_check immediate: p's 8th placement, wherever made, sends everyone still aboard home."""
        if self.r.end_check == "immediate" and self.all_placed(p):
            for q, u in rocket:
                self.go_home(q, u)
            rocket.clear()
            return True
        return False

    def crash(self, rocket, pos):
        self.crashes += 1
        while rocket:
            p, t = rocket.pop(0)
            if t == PARA and self.can_land(pos) and self.pick(2) == 1:
                self.land(p, t, pos, False)
                if self.ends_now(p, rocket):
                    return
            else:
                self.go_home(p, t)

    def go_home(self, p, t):
        self.at[p][t] = HOME
        if t == ONE and self.r.one_die_refresh_after_crash:
            self.one_up[p] = True

    def land(self, p, t, space, commander):
        kind, i = self.body[space]
        if kind == "moon":
            m = max(j for j, o in enumerate(self.moon_owner[i]) if o is None)
            self.moon_owner[i][m] = p
            self.at[p][t] = MOON
            self.points[p][0] += self.moon_values[i][m] * (2 if t == MOON2 else 1)
        elif kind == "planet":
            self.on_planet[i].append((p, t))
            self.at[p][t] = PLANET
        else:
            self.at[p][t] = COMET if commander else GALAXY
            self.points[p][2] += (self.comet if commander else self.galaxy) * (2 if t == DEEP2 else 1)
        self.goals(p)

    def goals(self, p):
        moons = sum(w == MOON for w in self.at[p])
        galaxy = sum(w == GALAXY or (self.r.goal_galaxy_counts_comet and w == COMET) for w in self.at[p])
        per_planet = [sum(q == p for q, _ in pl) for pl in self.on_planet]
        reached = [moons >= 4, sum(c > 0 for c in per_planet) >= 4, max(per_planet) >= 3, galaxy >= 2]
        for g in range(4):
            if reached[g] and self.goal_owner[g] is None:
                self.goal_owner[g] = p
                self.points[p][3] += self.goal_values[g]

    def score_planets(self):
        twice = self.r.planet_double == "count_twice"
        for i, pl in enumerate(self.on_planet):
            seats = list(dict.fromkeys(q for q, _ in pl))  # in order of first arrival
            weight = {q: sum(1 + (twice and t == PLANET2) for s, t in pl if s == q) for q in seats}
            ranked = sorted(seats, key=lambda q: -weight[q])  # stable: ties keep first-arrival order
            for rank, q in enumerate(ranked[: self.r.planet_ranks_paid]):
                double = not twice and (q, PLANET2) in pl
                self.points[q][1] += self.planet_points[i][rank] * (2 if double else 1)


def model(sc, seed, gid):
    g = Mlem(sc, seed, gid)
    first, length, capped = g.play()
    g.score_planets()
    totals = [sum(x) for x in g.points]
    best = max(totals)
    shared_ok = totals.count(best) == 1 or sc.rules.win_ties == "shared"
    wins = [not capped and shared_ok and t == best for t in totals]
    return dict(first=first, length=length, crashes=g.crashes, points=g.points, wins=wins, at=g.at)


VARIANTS = [
    {},
    {"rules.planet_double": "count_twice", "rules.end_check": "immediate", "rules.win_ties": "nobody"},
    {"rules.one_die_alone": True, "rules.one_die_with_rolled_ones": "separate", "rules.end_check": "immediate",
     "rules.plus_minus_into_deep_space": True, "rules.plus_minus_deep_space_body": "comet_if_commander"},
    {"rules.one_die_prevents_crash": True, "rules.one_die_needs_face_1_allowed": False,
     "rules.one_die_refresh_after_crash": False, "rules.end_exact_count": True},
    {"rules.plus_minus_into_deep_space": True, "rules.satellite_start_space": 2, "rules.planet_ranks_paid": 2,
     "rules.goal_galaxy_counts_comet": True, "rules.crash_track": 4, "rules.first_player": "seat0"},
]


@pytest.mark.parametrize("players", [2, 5])
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_kernel_equals_an_independent_python_mlem(players, variant):
    sc = analyzer.load_scenario(MLEM, players=players, policy=["random"], set=VARIANTS[variant])
    ids = np.arange(150, dtype=np.int64)
    batch = MLEM.run_batch(sc, 11, ids)
    for g in ids:
        m = model(sc, 11, int(g))
        assert (batch.first_player[g], batch.length[g], batch.extra["crashes"][g]) == (m["first"], m["length"], m["crashes"]), g
        assert batch.extra["points"][g].tolist() == m["points"], g
        assert batch.is_winner[g].tolist() == m["wins"], g
        assert batch.extra["astronaut_at"][g].tolist() == [[w if w >= MOON else 0 for w in row] for row in m["at"]], g


def test_the_expedition_cap_makes_a_draw_and_the_model_agrees():
    sc = analyzer.load_scenario(MLEM, players=3, policy=["random"], set={"rules.expedition_cap": 4})
    batch = MLEM.run_batch(sc, 3, np.arange(50, dtype=np.int64))
    capped = batch.extra["capped"].astype(bool)
    assert capped.any() and not batch.is_winner[capped].any() and (batch.length[capped] == 4).all()
    for g in range(50):
        assert model(sc, 3, g)["length"] == batch.length[g]
