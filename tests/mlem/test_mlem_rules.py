"""MLEM's rules, each driven through the game's own expedition on a built position: a small test mat,
the scripted policy making the choices, and the dice re-derived from analyzer.rng (seat 0 commands
first, so the stream holds only dice). Outcomes are asserted at each rule's boundary.

Scripted choices are option indices: take-off = index into the seat's astronauts at home (type order:
Satellite, +/-1, Parachute, Moon x2, Planet x2, Comet/Galaxy x2, Die-remover, One-die); travel = index
into the usable group combinations (99 = the last: every usable group); landing = 0 stay, then leave
here / before / after as offered (every decision takes a script entry, even one with a single
option, except a landing where only staying is possible); past the script's end every choice is 0 (stay, the first option)."""
import numpy as np
import pytest
from mlem_mat import SYMBOL
from mlem_mat import small_mat as mat

import analyzer
from analyzer import kernel, rng
from analyzer.games import get
from analyzer.games.mlem import columns as C
from analyzer.games.mlem import decisions as D
from analyzer.games.mlem import engine as E
from analyzer.games.mlem.mat import mat_of

MLEM = get("mlem")
SAT, PM, PARA, MOON2, PLANET2, DEEP2, REMOVER, ONE = range(8)


def scenario(script=(), players=2, board=None, **rules):
    return analyzer.load_scenario(MLEM, players=players, policy=["scripted"],
                                  set={"board": board or mat(), "script": list(script), "rules.first_player": "seat0",
                                       **{f"rules.{k}": v for k, v in rules.items()}})


def dice(gid, count, seed=5):
    s = rng.new_stream(seed, gid)
    return [SYMBOL[int(rng.below(s, 6))] for _ in range(count)]


def game(pred, count=6):
    """A game id whose first `count` dice satisfy pred."""
    return next(g for g in range(20_000) if pred(dice(g, count)))


def play(sc, gid, seed=5):
    batch = MLEM.run_batch(sc, seed, np.array([gid], np.int64), trace=True)
    return batch, MLEM.describe(sc, batch.events)


def after(lines, text):
    """The lines after the first one containing text."""
    return lines[next(i for i, line in enumerate(lines) if text in line) + 1:]


# ---- take-off and travel ---------------------------------------------------------------------------
def test_take_off_goes_clockwise_from_the_starting_player_and_the_next_expedition_starts_to_its_left():
    sc = analyzer.load_scenario(MLEM, players=3, policy=["random"], set={"rules.first_player": "seat0"})
    for gid in range(5):
        _, lines = play(sc, gid)
        starts = [int(line.split("seat ")[1].split()[0]) for line in lines if line.startswith("expedition")]
        assert starts == [k % 3 for k in range(len(starts))]  # whoever commanded at the end
        boards = [int(line.split()[1]) for line in lines if " boards " in line]
        assert boards == [(k // 3 + k % 3) % 3 for k in range(len(boards))]


def test_the_first_commander_is_drawn_and_returned_as_first_player():
    sc = analyzer.load_scenario(MLEM, players=4, policy=["random"])
    batch = MLEM.run_batch(sc, 9, np.arange(200, dtype=np.int64))
    assert batch.first_player.tolist() == [int(rng.below(rng.new_stream(9, g), 4)) for g in range(200)]
    assert batch.extra["started"].sum(axis=1).tolist() == batch.length.tolist()


@pytest.mark.parametrize("script,start,space", [([PM, PM], 3, 0), ([SAT, PM], 3, 3), ([SAT, SAT], 3, 3),
                                                ([SAT, PM], 2, 2), ([PM, SAT], 3, 3)])
def test_a_satellite_aboard_starts_the_rocket_on_satellite_start_space(script, start, space):
    _, lines = play(scenario(script, satellite_start_space=start), 0)
    assert lines[3] == f"  the rocket starts on space {space}"


def test_the_rocket_crashes_exactly_when_no_rolled_face_is_allowed_here():
    kw = dict(board=mat({0: ["AB"]}))
    none = game(lambda d: "AB" not in d)
    batch, lines = play(scenario([PM, PM], **kw, crash_track=1), none)
    assert lines[5] == "  CRASH on space 0 (commander seat 0); crash track 1" and batch.extra["crashes"][0] == 1
    one = game(lambda d: d.count("AB") == 1)
    _, lines = play(scenario([PM, PM], **kw, crash_track=1), one)
    assert lines[5] == "  seat 0 uses AB: space 0 -> 1" and lines[6].startswith("  seat 0 rolls 6 dice on space 1")


@pytest.mark.parametrize("pips", [1, 3])
def test_afterburner_dice_move_by_the_pips_of_the_current_space_and_stay_in_the_pool(pips):
    gid = game(lambda d: d.count("AB") == 2)
    _, lines = play(scenario([PM, PM, 99], board=mat({0: ["AB"]}, {0: pips, 2 * pips: 3})), gid)
    assert lines[5] == f"  seat 0 uses AB: space 0 -> {2 * pips}"
    assert lines[6].startswith(f"  seat 0 rolls 6 dice on space {2 * pips}")


@pytest.mark.parametrize("abs_", [0, 1, 2])
def test_used_groups_move_their_sum_leave_the_pool_and_the_pool_never_drops_below_one(abs_):
    gid = game(lambda d: d.count("AB") == abs_)
    d = dice(gid, 6)
    _, lines = play(scenario([PM, PM, 99], board=mat({0: [1, 2, 3, 4]})), gid)
    move = sum(x for x in d if x != "AB")
    assert lines[5] == f"  seat 0 uses {', '.join(str(f) for f in sorted(set(d) - {'AB'}))}: space 0 -> {move}"
    assert lines[6].startswith(f"  seat 0 rolls {max(abs_, 1)} dice on space {move}")


def test_only_allowed_groups_count_and_a_group_is_used_whole():
    gid = game(lambda d: d.count(2) >= 2 and d.count(4) >= 1 and d.count(3) >= 1)
    d = dice(gid, 6)
    _, lines = play(scenario([PM, PM, 99], board=mat({0: [2, 4]})), gid)
    move = 2 * d.count(2) + 4 * d.count(4)
    assert lines[5] == f"  seat 0 uses 2, 4: space 0 -> {move}"
    assert lines[6].startswith(f"  seat 0 rolls {6 - d.count(2) - d.count(4)} dice")


# ---- landing ---------------------------------------------------------------------------------------
def to_space(target):
    """Scenario settings and a game id that take the rocket to `target` on the first move: a Satellite
    aboard starts it 3 spaces before, that space allows only AB worth 3, and the first roll holds one AB."""
    start = target - 3
    return dict(board=mat({start: ["AB"]}, {start: 3}), satellite_start_space=start), game(lambda d: d.count("AB") == 1)


def test_no_landing_before_space_6_even_for_plus_minus_one():
    kw, gid = to_space(5)
    _, lines = play(scenario([SAT, PM, 1, 1], **kw), gid)
    assert lines[5] == "  seat 0 uses AB: space 2 -> 5" and "rolls" in lines[6]


def test_landing_goes_from_the_top_slot_down_to_the_farthest_free_moon_and_a_full_group_takes_nobody():
    kw, gid = to_space(6)
    _, lines = play(scenario([SAT, PM, MOON2, 0, 1, 1], players=3, **kw), gid)
    assert lines[7:9] == ["  seat 0's Satellite lands on moon 2 of moons_a: 3 points", "  seat 1's +/-1 lands on moon 1 of moons_a: 1 points"]
    assert lines[9].startswith("  seat 2 rolls 6 dice on space 6")  # no moon left: seat 2 stays and commands


def test_a_moon_x2_doubles_its_moon_points():
    kw, gid = to_space(6)
    batch, lines = play(scenario([SAT, MOON2, 0, 0, 1], **kw), gid)
    assert lines[6] == "  seat 1's Moon x2 lands on moon 2 of moons_a: 6 points" and batch.extra["points"][0, 1, 0] == 6


@pytest.mark.parametrize("choice,line", [(2, "  seat 1's +/-1 lands on moon 2 of moons_a: 3 points"),
                                         (3, "  seat 1's +/-1 lands on moon 1 of moons_b: 4 points")])
def test_plus_minus_one_may_leave_one_space_before_or_after(choice, line):
    kw, gid = to_space(7)
    _, lines = play(scenario([SAT, PM, 0, 0, choice], **kw), gid)
    assert lines[6] == line


@pytest.mark.parametrize("into_deep", [False, True])
def test_plus_minus_one_leaves_into_deep_space_only_when_the_rule_allows(into_deep):
    kw, gid = to_space(24)
    _, lines = play(scenario([SAT, PM, 0, 0, 3], **kw, plus_minus_into_deep_space=into_deep), gid)
    if into_deep:
        assert lines[6] == "  seat 1's +/-1 reaches deep space: the galaxy, 5 points"
    else:  # options were stay, here, before: index 3 clamps to 'before' (planet_r at space 23)
        assert lines[6] == "  seat 1's +/-1 lands on planet_r (from space 23)"


@pytest.mark.parametrize("body,line", [("galaxy", "the galaxy, 5 points"), ("comet_if_commander", "the comet, 7 points")])
def test_a_commanding_plus_minus_one_stepping_into_deep_space_lands_on_the_galaxy_unless_read_otherwise(body, line):
    """The original: 「銀河から彗星へは移動できません」 -- the step from the galaxy to the comet is never made."""
    kw, gid = to_space(24)
    sc = scenario([PM, SAT, 0, 3], **kw, plus_minus_into_deep_space=True, plus_minus_deep_space_body=body)
    _, lines = play(sc, gid)
    assert lines[6] == f"  seat 0's +/-1 reaches deep space: {line}"


def test_the_commander_leaving_hands_the_dice_to_the_highest_astronaut_still_aboard():
    kw, gid = to_space(7)
    _, lines = play(scenario([SAT, 0, 0, 0, 1], players=3, **kw), gid)
    assert lines[7] == "  seat 0's Satellite lands on planet_p (from space 7)"
    assert lines[8].startswith("  seat 1 rolls 6 dice on space 7")


@pytest.mark.parametrize("deep2_seat", [0, 1])
def test_deep_space_sends_the_commander_to_the_comet_and_the_others_to_the_galaxy(deep2_seat):
    script = [SAT, SAT, SAT]
    script[deep2_seat] = DEEP2
    batch, lines = play(scenario(script, players=3, satellite_start_space=24), 0)
    assert "space 24 -> 25" in lines[6]
    points = [7, 5, 5]
    points[deep2_seat] *= 2
    names = ["Comet/Galaxy x2" if t == DEEP2 else "Satellite" for t in script]
    assert lines[7:10] == [f"  seat 0's {names[0]} reaches deep space: the comet, {points[0]} points",
                           f"  seat 1's {names[1]} reaches deep space: the galaxy, {points[1]} points",
                           "  seat 2's Satellite reaches deep space: the galaxy, 5 points"]
    assert batch.extra["astronaut_at"][0, 0, script[0]] == 4 and batch.extra["astronaut_at"][0, 1, script[1]] == 5


@pytest.mark.parametrize("ones,reaches", [(1, True), (2, False)])
def test_end_exact_count_needs_the_exact_number_of_spaces(ones, reaches):
    gid = game(lambda d: d.count(1) == ones and d.count("AB") != 1)
    _, lines = play(scenario([SAT, PM], satellite_start_space=24, end_exact_count=True), gid)
    assert lines[5] == ("  seat 0 uses 1: space 24 -> 25" if reaches else "  CRASH on space 24 (commander seat 0); crash track 1")
    _, passing = play(scenario([SAT, PM, 99], satellite_start_space=24, crash_track=1), gid)
    assert "-> 25" in passing[5]  # without the rule, passing deep space reaches it


# ---- crash and parachute ---------------------------------------------------------------------------
def crash_at_6():
    """The rocket reaches moons_a (space 6), everyone stays, the next roll shows no 4 (space 6 allows only 4)."""
    return dict(board=mat({3: ["AB"], 6: [4]}, {3: 3})), game(lambda d: d[:6].count("AB") == 1 and 4 not in d[6:12], 12)


@pytest.mark.parametrize("choice,lands", [(1, True), (0, False)])
def test_on_a_crash_a_parachute_may_land_here_and_everyone_else_goes_home(choice, lands):
    kw, gid = crash_at_6()
    batch, lines = play(scenario([SAT, PARA, 0, 0, 0, choice], **kw, crash_track=1), gid)
    assert "  CRASH on space 6 (commander seat 0); crash track 1" in lines
    rest = after(lines, "CRASH")
    assert rest[0] == "  seat 0's Satellite goes home"
    assert rest[1] == ("  seat 1's Parachute lands on moon 2 of moons_a: 3 points" if lands else "  seat 1's Parachute goes home")


@pytest.mark.parametrize("space,moons_taken,lands", [(3, 0, False), (6, 2, False), (6, 1, True)])
def test_a_parachute_in_a_crash_lands_only_where_a_body_can_take_it(position, space, moons_taken, lands):
    """The rocket starts on `space` (a Satellite aboard), which allows only 4s; six dice without a 4 crash it
    at once. The script would land seat 1's Parachute, but space 3 has no body and moons_a with both moons
    taken (by seat 1's Moon x2 and Planet x2) takes nobody: it goes home, asked nothing. With the farther
    moon taken it lands on the nearer one (1 point)."""
    pos = position(board=mat({space: [4]}), satellite_start_space=space, crash_track=5)
    for m in range(moons_taken):
        pos.place(1, [MOON2, PLANET2][m], D.ON_MOON, 1 - m)
    records = pos.expedition(pos.stream_where(lambda d: 4 not in d),
                             script=[pos.home_index(0, SAT), pos.home_index(1, PARA), 1])
    assert pos.crashes[0] == 1
    landed = [r[:4] for r in records if r[0] in (E.E_MOON, E.E_PLANET, E.E_COMET, E.E_GALAXY)]
    assert landed == ([[E.E_MOON, 1, PARA, 0]] if lands else [])
    assert pos.at[1, PARA] == (D.ON_MOON if lands else D.HOME) and pos.points[1].sum() == (1 if lands else 0)


def test_the_game_ends_on_the_crash_track_step_exactly():
    sc = analyzer.load_scenario(MLEM, players=3, policy=["random"], set={"rules.crash_track": 3})
    batch = MLEM.run_batch(sc, 2, np.arange(300, dtype=np.int64))
    by_crash = batch.extra["end"] == 1
    assert by_crash.any() and (batch.extra["crashes"][by_crash] == 3).all() and (batch.extra["crashes"] <= 3).all()
    placed = batch.extra["end"] == 2
    assert placed.any() and (batch.extra["placed"][placed].max(axis=1) == 8).all()
    assert (batch.extra["end"][batch.extra["crashes"] < 3] == 2).all()


# ---- powers: die-remover and one-die ---------------------------------------------------------------
@pytest.mark.parametrize("pool_before", [6, 1])
def test_the_die_remover_leaving_removes_a_die_but_never_the_last(pool_before):
    if pool_before == 6:
        kw, gid = to_space(6)
        script = [SAT, REMOVER, 0, 0, 1]
    else:  # space 3 allows every number: using all six dice leaves the pool at its floor of one
        kw = dict(board=mat({3: [1, 2, 3, 4]}))
        gid = game(lambda d: "AB" not in d and 6 <= sum(d) <= 21)
        script = [SAT, REMOVER, 99, 0, 1]
    _, lines = play(scenario(script, **kw), gid)
    after_ = pool_before - 1 if pool_before > 1 else 1
    assert f"  seat 1's Die-remover leaves: the pool drops to {after_} dice" in lines
    assert after(lines, "Die-remover leaves")[0].startswith(f"  seat 0 rolls {after_} dice")


@pytest.mark.parametrize("alone", [False, True])
def test_the_one_die_adds_a_one_once_then_is_face_down_and_alone_only_under_its_reading(alone):
    gid = game(lambda d: d.count(1) == 0 and d.count("AB") == 1)
    # space 3 allows 1 and AB (worth 1): options [AB], then [One-die] (one_die_alone only), [AB + One-die]
    sc = scenario([SAT, ONE, 1, 99], board=mat({3: [1, "AB"]}, {3: 1}), one_die_alone=alone)
    _, lines = play(sc, gid)
    assert lines[5] == ("  seat 0 uses 1 One-die: space 3 -> 4" if alone else "  seat 0 uses AB, 1 One-die: space 3 -> 5")
    assert "One-die" not in lines[7]  # face down: the last option is no longer one with the One-die


@pytest.mark.parametrize("reading,line", [("joins", "  seat 0 uses 1, 2, 1 One-die"), ("separate", "  seat 0 uses 2, 1 One-die")])
def test_the_one_die_joins_a_rolled_group_of_1s_when_there_is_one(reading, line):
    """Space 3 allows 1 and 2; one 1 and some 2s rolled. Options: [1], [2], [1, 2], then with the One-die
    [1], [1, 2] (joins: the One-die is a 1, and groups are used whole) or [1], [2], [1, 2] (separate).
    The fifth option is [1, 2] + One-die when it joins, [2] + One-die when it is separate."""
    gid = game(lambda d: d.count(1) == 1 and d.count(2) >= 1)
    sc = scenario([SAT, ONE, 4], board=mat({3: [1, 2]}), one_die_with_rolled_ones=reading)
    _, lines = play(sc, gid)
    assert lines[5].startswith(line + ": space 3 -> ")


def test_several_one_dies_aboard_may_all_be_used_in_one_travel_phase(position):
    """Both seats send their One-die; space 0 allows 1 and AB (worth 1), and the roll shows one AB and no 1:
    the options are AB (0 -> 1), AB + one One-die (-> 2), AB + both (-> 3). The script takes the third;
    both One-dies are then face down (one_die_refresh_after_crash false keeps them so to the end)."""
    pos = position(board=mat({0: [1, "AB"]}, {0: 1}), one_die_refresh_after_crash=False)
    records = pos.expedition(pos.stream_where(lambda d: d.count("AB") == 1 and 1 not in d),
                             script=[pos.home_index(0, ONE), pos.home_index(1, ONE), 2])
    move = next(r for r in records if r[0] == E.E_MOVE)
    assert move[1:4] == [0, 0, 3] and move[4] >> D.ONE_DIE_SHIFT == 2
    assert pos.one_up.tolist() == [0, 0]


@pytest.mark.parametrize("refresh", [True, False])
def test_a_one_die_home_from_a_crash_is_face_up_again_only_under_its_rule(position, refresh):
    """Space 0 allows 1 and AB (worth 1), space 2 only 4s. Expedition 1: seat 0's One-die commands, one AB
    and no 1 rolled: AB + One-die moves 0 -> 2; six dice without a 4 crash it there and it comes home.
    Expedition 2, the same dice: the script asks for AB + One-die again, offered (0 -> 2) only if the
    crash turned it face up; face down, AB alone is left (0 -> 1)."""
    pos = position(board=mat({0: [1, "AB"], 2: [4]}, {0: 1}), one_die_refresh_after_crash=refresh)
    dice_ = (lambda d: d[:6].count("AB") == 1 and 1 not in d[:6] and 4 not in d[6:]), 12
    script = [pos.home_index(0, ONE), pos.home_index(1, PM), 1]
    first = pos.expedition(pos.stream_where(*dice_), script=script)
    assert [r[2:4] for r in first if r[0] == E.E_MOVE] == [[0, 2]] and pos.crashes[0] == 1
    assert pos.at[0, ONE] == D.HOME and pos.one_up[0] == refresh
    second = pos.expedition(pos.stream_where(*dice_), script=script)
    assert next(r for r in second if r[0] == E.E_MOVE)[2:4] == [0, 2 if refresh else 1]


@pytest.mark.parametrize("needs_1,offered", [(True, False), (False, True)])
def test_the_one_die_needs_face_1_allowed_on_the_space(needs_1, offered):
    gid = game(lambda d: "AB" in d)
    sc = scenario([SAT, ONE, 99], board=mat({3: [2, "AB"]}, {3: 1}), one_die_needs_face_1_allowed=needs_1)
    _, lines = play(sc, gid)
    assert ("One-die" in lines[5]) is offered


@pytest.mark.parametrize("prevents", [False, True])
def test_the_one_die_prevents_a_crash_only_under_its_rule(prevents):
    gid = game(lambda d: 1 not in d)
    sc = scenario([SAT, ONE, 0], board=mat({3: [1]}), one_die_prevents_crash=prevents, crash_track=1)
    _, lines = play(sc, gid)
    assert lines[5] == ("  seat 0 uses 1 One-die: space 3 -> 4" if prevents else "  CRASH on space 3 (commander seat 0); crash track 1")


# ---- planets, goals and the winner -----------------------------------------------------------------
@pytest.mark.parametrize("rules,points", [({}, [5, 3, 1]), ({"planet_ranks_paid": 2}, [5, 3, 0]),
                                          ({"planet_double": "score_twice"}, [5, 3, 2]),
                                          ({"planet_double": "count_twice"}, [3, 1, 5])])
def test_planets_pay_majorities_with_ties_to_the_earlier_arrival_and_planet_x2_both_readings(rules, points):
    kw, gid = to_space(7)
    seat2 = PLANET2 if "planet_double" in rules else PM
    sc = scenario([SAT, PM, seat2, 0, 1, 1, 1], players=3, **kw, crash_track=1, **rules)
    batch, lines = play(sc, gid)
    assert [line for line in lines if "planet_p (" in line] == [
        f"  seat {q}'s {t} lands on planet_p (from space 7)" for q, t in
        [(0, "Satellite"), (1, "+/-1"), (2, "Planet x2" if seat2 == PLANET2 else "+/-1")]]
    assert batch.extra["points"][0, :, 1].tolist() == points
    ranked = sorted((q for q in range(3) if points[q]), key=lambda q: -points[q])  # the replay names the planet
    assert [line for line in lines if " on planet_p:" in line] == [
        f"seat {q} is #{r + 1} on planet_p: {points[q]} points" for r, q in enumerate(ranked)]


def test_goal_tokens_go_to_the_first_player_to_reach_them():
    sc = analyzer.load_scenario(MLEM, players=2, policy=["random"])
    for gid in range(40):
        _, lines = play(sc, gid)
        goals = [line for line in lines if "takes goal" in line]
        assert len({g.split("goal ")[1] for g in goals}) == len(goals)  # each token once
        for g in goals:
            seat, name = int(g.split()[1]), g.split("goal ")[1].split(":")[0]
            landed = lines[: lines.index(g)]
            mine = [x for x in landed if x.startswith(f"  seat {seat}'s") and ("lands" in x or "reaches" in x or "goes home" in x)]
            if name == "galaxy_2":
                assert sum("the galaxy" in x for x in mine) == 2


def score_planets(pos):
    """The game-end planet scoring of the engine, on the position as it stands."""
    players = pos.sc.players
    ev, tn = kernel.new_trace(MLEM.TRACE_CAP, C.COLUMNS.trace_width)
    E.score_planets(mat_of(pos.board), pos.rules, pos.pl_count, pos.pl_first, pos.pl_first_type, pos.at, pos.spot,
                    np.zeros(players, np.int64), np.zeros(players, np.bool_), pos.points, pos.type_points,
                    ev, tn, np.int64(MLEM.TRACE_CAP))


def test_a_planet_tie_goes_to_the_player_whose_first_astronaut_there_landed_earliest(position):
    """On planet_p, seat 0 arrived 1st, seat 1 2nd and 3rd; seat 0's Satellite lands there 4th (space 7).
    Two each: seat 0's first astronaut came earliest, so seat 0 is 1st (5) and seat 1 2nd (3), although
    seat 1's latest arrival is the earlier."""
    kw, gid = to_space(7)
    pos = position(**kw).place(0, PM, D.ON_PLANET, 0).place(1, PM, D.ON_PLANET, 0).place(1, PARA, D.ON_PLANET, 0)
    pos.expedition(rng.new_stream(5, gid), script=[0, pos.home_index(1, MOON2), 0, 1])  # seat 0 leaves at 7
    assert pos.pl_count[0].tolist() == [2, 2]
    score_planets(pos)
    assert pos.points[:, 1].tolist() == [5, 3]


def test_planet_x2_doubles_its_owners_points_on_its_own_planet_only(position):
    """Seat 0 alone on planet_q (a +/-1, 1st: 6) and planet_p, where its Planet x2 lands (space 7, 1st: 5,
    doubled): 6 + 10 planet points, not 12 + 10."""
    kw, gid = to_space(7)
    pos = position(**kw).place(0, PM, D.ON_PLANET, 1)
    pos.expedition(rng.new_stream(5, gid), script=[pos.home_index(0, PLANET2), 0, 0, 1])
    assert pos.at[0, PLANET2] == D.ON_PLANET and pos.spot[0, PLANET2] == 0
    score_planets(pos)
    assert pos.points[:, 1].tolist() == [16, 0]


@pytest.mark.parametrize("planets,goal", [((1, 2, 3), 1), ((1, 2, 2), None), ((0, 0), 2), ((0, 1), None)])
def test_the_planet_goals_go_at_the_fourth_different_planet_and_the_third_on_one(position, planets, goal):
    """A fourth planet, planet_s, touches space 24. Seat 0 already has astronauts on `planets` (0 = planet_p,
    then q, r, s) and its Satellite lands on planet_p (space 7): on q, r, s that makes 4 different planets
    (planets_4); on q, r, r only 3, though 4 astronauts. On p, p it makes 3 on one planet (one_planet_3);
    on p, q only 2 there, though 3 on planets."""
    kw, gid = to_space(7)
    kw["board"]["spaces"][24]["body"] = "planet_s"
    kw["board"]["planets"].append({"name": "planet_s", "points": [8, 4, 2]})
    pos = position(**kw)
    for typ, pl in zip((PM, PARA, MOON2)[:len(planets)], planets, strict=True):
        pos.place(0, typ, D.ON_PLANET, pl)
    records = pos.expedition(rng.new_stream(5, gid), script=[0, 0, 0, 1])  # Satellites board; seat 0 leaves at 7
    assert [r[1:4] for r in records if r[0] == E.E_PLANET][0] == [0, SAT, 0]
    assert [r[1:4] for r in records if r[0] == E.E_GOAL] == ([] if goal is None else [[0, goal, 4]])


@pytest.mark.parametrize("ties,winners", [("shared", 2), ("nobody", 0)])
def test_tied_totals_share_the_win_or_nobody_wins(ties, winners):
    sc = analyzer.load_scenario(MLEM, players=2, policy=["random"], set={"rules.win_ties": ties})
    batch = MLEM.run_batch(sc, 1, np.arange(400, dtype=np.int64))
    tied = batch.score[:, 0] == batch.score[:, 1]
    assert tied.any() and (batch.is_winner[tied].sum(axis=1) == winners).all()
    assert (batch.is_winner[~tied].sum(axis=1) == 1).all()
    assert (batch.score == batch.extra["points"].sum(axis=2)).all()


def test_end_check_immediate_sends_the_others_home_at_the_eighth_placement():
    sc = analyzer.load_scenario(MLEM, players=3, policy=["random"], set={"rules.end_check": "immediate"})
    batch = MLEM.run_batch(sc, 4, np.arange(300, dtype=np.int64))
    placed = batch.extra["end"] == 2
    assert (batch.extra["placed"][placed].max(axis=1) == 8).all()
    # at most one player completes: the game stops at the first eighth placement
    assert ((batch.extra["placed"][placed] == 8).sum(axis=1) == 1).all()


REPLAY_34240 = {"rules.planet_double": "count_twice", "rules.win_ties": "nobody", "rules.one_die_alone": True,
                "rules.one_die_with_rolled_ones": "separate"}  # the readings the replay was made with


def test_end_check_immediate_stops_at_an_eighth_astronaut_reaching_deep_space():
    """The issue's replay (seed 34240, game 256): seat 0's Die-remover, its 8th astronaut, takes the comet;
    seat 1's Planet x2, aboard below it, reaches the galaxy only when the game waits for the expedition's end."""
    runs = {}
    for end_check in ("end_of_expedition", "immediate"):
        sc = analyzer.load_scenario(MLEM, players=3, policy=["random"], set={**REPLAY_34240, "rules.end_check": end_check})
        batch, lines = play(sc, 256, seed=34240)
        runs[end_check] = batch, after(lines, "seat 0's Die-remover reaches deep space: the comet, 7 points")
    (waits, waited), (stops, stopped) = runs["end_of_expedition"], runs["immediate"]
    assert waited[0] == "  seat 1's Planet x2 reaches deep space: the galaxy, 5 points"
    assert stopped[0] == "  seat 1's Planet x2 goes home"
    assert waited[1].startswith("game over: a player placed all 8") and stopped[1].startswith("game over: a player placed all 8")
    assert stops.extra["placed"][0, 1] == waits.extra["placed"][0, 1] - 1
    assert stops.extra["points"][0, 1, 2] == waits.extra["points"][0, 1, 2] - 5


def test_end_check_immediate_stops_at_a_parachute_landing_an_eighth_astronaut_in_a_crash():
    """Seed 2, game 89 (3 players, random): the rocket crashes on space 11 with seat 0's and seat 1's
    Parachutes aboard; seat 0's, its 8th astronaut, lands first. Seat 1's may land too only when the game waits
    for the expedition's end."""
    runs = {}
    for end_check in ("end_of_expedition", "immediate"):
        sc = analyzer.load_scenario(MLEM, players=3, policy=["random"], set={"rules.end_check": end_check})
        batch, lines = play(sc, 89, seed=2)
        runs[end_check] = batch, after(lines, "seat 0's Parachute lands on moon 2 of moons_11: 3 points")
    (waits, waited), (stops, stopped) = runs["end_of_expedition"], runs["immediate"]
    assert waited[0] == "  seat 1's Parachute lands on moon 1 of moons_11: 2 points"
    assert stopped[0] == "  seat 1's Parachute goes home"
    assert waited[1:3] == stopped[1:3] == ["  seat 2's Moon x2 goes home", "game over: a player placed all 8 astronauts (crashes 5)"]
    assert stops.extra["placed"][0].tolist() == [8, waits.extra["placed"][0, 1] - 1, waits.extra["placed"][0, 2]]


@pytest.mark.parametrize("one_die_home,ends", [(False, True), (True, False)])
def test_astronauts_on_the_comet_and_in_the_galaxy_count_as_placed(position, one_die_home, ends):
    """Seat 0 has its +/-1 on the comet, its Parachute in the galaxy and the others on planets, but for its
    Satellite, which lands on moons_a in this expedition: all 8 are placed and the game ends after it (not
    while the One-die is still at home). Checked right after the expedition: a game that went on would send
    seat 0 to a take-off with nobody at home."""
    kw, gid = to_space(6)
    pos = position(**kw).place(0, PM, D.ON_COMET, 0).place(0, PARA, D.ON_GALAXY, 0)
    for k, typ in enumerate((MOON2, PLANET2, DEEP2, REMOVER, ONE)[:4 if one_die_home else 5]):
        pos.place(0, typ, D.ON_PLANET, k % 3)
    pos.expedition(rng.new_stream(5, gid), script=[0, 0, 0, 1])  # Satellites board; AB to space 6; seat 0 leaves
    assert pos.at[0, SAT] == D.ON_MOON and pos.at[0, ONE] == (D.HOME if one_die_home else D.ON_PLANET)
    assert E.end_reason(pos.crashes[0], pos.at, pos.rules) == (E.END_ALL_PLACED if ends else 0)


@pytest.mark.parametrize("comet_counts,taker", [(False, 2), (True, 1)])
def test_the_galaxy_goal_goes_to_the_first_player_with_two_in_the_galaxy(comet_counts, taker):
    """Two expeditions from space 24 (a Satellite aboard each) reach deep space at once. Expedition 1:
    seat 0 takes the comet, seats 1 and 2 the galaxy; expedition 2 (started by seat 1): seat 1 the comet,
    seat 2 its second galaxy -- the goal, unless the comet counts (then seat 1, landing first, has two)."""
    sc = scenario([SAT, PM, PM], players=3, satellite_start_space=24, goal_galaxy_counts_comet=comet_counts)
    _, lines = play(sc, 0)
    second = [i for i, line in enumerate(lines) if line.startswith("expedition 2")][0]
    assert not any("takes goal" in line for line in lines[:second])  # one in the galaxy is not enough
    goal = next(i for i, line in enumerate(lines) if "takes goal galaxy_2" in line)
    assert lines[goal] == f"  seat {taker} takes goal galaxy_2: 4 points"
    assert lines[goal - 1].startswith(f"  seat {taker}'s") and goal < second + 10


# ---- from a set-up position (the `position` builder): take-off choices, boardings, goal tokens -----
def test_a_scripted_seat_sends_the_astronaut_it_names_and_the_boardings_count_it(position):
    """Take-off offers the astronauts at home only: seat 0 (Satellite on a moon, Moon x2 on a planet) names
    Comet/Galaxy x2, which is its 4th option; with every type listed the 4th would be the Moon x2."""
    pos = position(players=3).place(0, SAT, D.ON_MOON, 0).place(0, MOON2, D.ON_PLANET, 1).place(2, PM, D.ON_PLANET, 0)
    script = [pos.home_index(0, DEEP2), pos.home_index(1, ONE), pos.home_index(2, PARA)]
    assert script == [3, 7, 1]
    records = pos.expedition(pos.stream_where(lambda d: True), script=script)
    assert [r[1:4] for r in records if r[0] == E.E_BOARD] == [[0, DEEP2, 0], [1, ONE, 1], [2, PARA, 2]]
    sent = np.zeros((3, 8), np.int64)
    sent[0, DEEP2] = sent[1, ONE] = sent[2, PARA] = 1
    assert pos.boarded.tolist() == sent.tolist()


def test_the_boardings_column_counts_every_astronaut_sent_by_type():
    sc = analyzer.load_scenario(MLEM, players=3, policy=["random"])
    for gid in range(20):
        batch = MLEM.run_batch(sc, 4, np.array([gid], np.int64), trace=True)
        counts = np.zeros((3, 8), np.int64)
        for kind, seat, typ, *_ in batch.events.tolist():
            if kind == E.E_BOARD:
                counts[seat, typ] += 1
        assert batch.extra["boarded"][0].tolist() == counts.tolist()
        assert counts.sum() == 3 * batch.length[0]  # every player sends one astronaut per expedition


@pytest.mark.parametrize("on_moons,taken,takes", [(3, False, True), (2, False, False), (3, True, False)])
def test_the_moons_goal_goes_to_the_astronaut_landing_its_players_fourth_moon(position, on_moons, taken, takes):
    """moons_a holds 4 moons here (1, 2, 3, 3). Seat 0 already has 3 (or 2) astronauts on its farthest
    moons; its Satellite lands on the next free one (worth 1, or 2) and, as its 4th, takes moons_4 (4),
    unless seat 1 took that token first."""
    board = mat({3: ["AB"]}, {3: 3})
    board["moons"][0]["values"] = [1, 2, 3, 3]
    pos = position(board=board, satellite_start_space=3)
    if taken:
        pos.goal_owner[0] = 1
    for k, typ in enumerate([PM, PARA, MOON2][:on_moons]):
        pos.place(0, typ, D.ON_MOON, 3 - k)
    records = pos.expedition(pos.stream_where(lambda d: d.count("AB") == 1),
                             script=[pos.home_index(0, SAT), pos.home_index(1, PM), 0, 1])
    assert [r[1:4] for r in records if r[0] == E.E_MOON] == [[0, SAT, 3 - on_moons]]
    assert [r[1:4] for r in records if r[0] == E.E_GOAL] == ([[0, 0, 4]] if takes else [])
    assert pos.type_points[0, SAT] == [1, 2, 3, 3][3 - on_moons] + (4 if takes else 0)


# ---- restrictions (the strong-play contract), through the game's turn at their boundary -----------
@pytest.mark.parametrize("typ", range(8))
@pytest.mark.parametrize("other_home", [True, False])
def test_never_send_a_type_offers_the_others_and_is_lifted_only_when_none_is_left(position, typ, other_home):
    """Seat 0 has `typ` at home and, unless `other_home` is false, one other type; everything else is
    placed. The script names `typ`, but never_send_<typ> takes it off the list, so the other boards;
    with `typ` the only one at home the filter is lifted (counted) and `typ` boards."""
    other = typ + 1 if typ < 7 else 6
    pos = position(restrict={0: [f"never_send_{D.TYPE_KEYS[typ]}"]})
    for k, t in enumerate(t for t in range(8) if t != typ and (t != other or not other_home)):
        pos.place(0, t, D.ON_PLANET, k % 3)
    records = pos.expedition(pos.stream_where(lambda d: True), script=[pos.home_index(0, typ), 0])
    boarded = next(r for r in records if r[0] == E.E_BOARD and r[1] == 0)[2]
    assert boarded == (other if other_home else typ)
    assert pos.seat[0, E.S.RESTRICT_LIFTED] == (0 if other_home else 1) and pos.seat[1, E.S.RESTRICT_LIFTED] == 0


@pytest.mark.parametrize("moons_free,lands", [(1, True), (0, False)])
def test_land_at_first_chance_leaves_wherever_leaving_is_offered(position, moons_free, lands):
    """The script says stay on space 6; land_at_first_chance makes seat 0's Satellite leave for the last
    free moon of moons_a. With moons_a full only staying is possible: it stays aboard, nothing lifted."""
    pos = position(board=mat({3: ["AB"]}, {3: 3}), satellite_start_space=3, restrict={0: ["land_at_first_chance"]})
    for m in range(2 - moons_free):
        pos.place(1, [PARA, MOON2][m], D.ON_MOON, 1 - m)
    records = pos.expedition(pos.stream_where(lambda d: d.count("AB") == 1),
                             script=[pos.home_index(0, SAT), pos.home_index(1, PM), 0, 0, 0])
    move = next(i for i, r in enumerate(records) if r[0] == E.E_MOVE)
    assert records[move][3] == 6
    assert (records[move + 1][:3] == [E.E_MOON, 0, SAT]) == lands
    assert pos.seat[0, E.S.RESTRICT_LIFTED] == 0


@pytest.mark.parametrize("restricted", [True, False])
def test_land_at_first_chance_lands_a_parachute_in_a_crash(position, restricted):
    """The rocket starts on space 6 (satellite_start_space 6), which allows only 4s; six dice without a 4
    crash it at once. The script sends the Parachute home; land_at_first_chance lands it on moons_a."""
    pos = position(board=mat({6: [4]}), satellite_start_space=6, crash_track=5,
                   restrict={1: ["land_at_first_chance"]} if restricted else None)
    records = pos.expedition(pos.stream_where(lambda d: 4 not in d),
                             script=[pos.home_index(0, SAT), pos.home_index(1, PARA), 0])
    assert [r[0] for r in records][:4] == [E.E_BOARD, E.E_BOARD, E.E_START, E.E_ROLL] and pos.crashes[0] == 1
    assert ([r[:3] for r in records if r[0] == E.E_MOON] == [[E.E_MOON, 1, PARA]]) == restricted
    assert pos.at[1, PARA] == (D.ON_MOON if restricted else D.HOME)
