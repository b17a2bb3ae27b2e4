"""MLEM's mat: the estimated default follows every known fact and says it is estimated; impossible
boards are refused with one line naming the field; the crash odds table is exact (enumeration against
the closed form, and against the kernel's own crash rate); invariants of the astronauts and moons."""
import copy
from itertools import product

import numpy as np
import pytest
import yaml

import analyzer
from analyzer.errors import UserError
from analyzer.games import get
from analyzer.games.mlem.scenario import board_arrays, crash_table
from analyzer.stats import wilson

MLEM = get("mlem")
SC = analyzer.load_scenario(MLEM)


def test_the_default_mat_respects_the_known_facts_and_is_listed_as_estimated():
    b = SC.board
    assert [str(f) for f in b.spaces[0].faces] == ["AB", "1", "2"] and b.spaces[5].faces == [1, 4]
    assert len(b.spaces) == 26 and b.spaces[-1].body == "deep_space" and len(b.planets) == 5
    assert all(s.body is None for s in b.spaces[:6])
    assert all(2 <= len(s.faces) <= 3 for s in b.spaces[:-1])
    assert (b.comet, b.galaxy) == (7, 5) and SC.rules.crash_track == 11 and SC.rules.satellite_start_space == 3
    est = SC.estimated()
    assert est[0] == "board (estimated mat)" and "space 7" in est and "planet planet_3" in est and "goal values" in est
    published = analyzer.load_scenario(MLEM, set={"board_status": "published"})
    assert published.estimated() == []


def broken(change):
    data = yaml.safe_load(MLEM.default_scenario.read_text())
    data = copy.deepcopy(data)
    change(data["board"])
    return data


@pytest.mark.parametrize("change,message", [
    (lambda b: b["spaces"][7].update(faces=[]), "spaces.7.faces: a space before deep space needs at least one face"),
    (lambda b: b["spaces"].pop(), "spaces.24.body: the last space must be deep_space (the end)"),
    (lambda b: b["spaces"][9].update(body=None), "moons.2: 'moons_9' is touched by no space"),
    (lambda b: b["moons"][3].update(values=[9]), "body values must rise with distance"),
    (lambda b: b["planets"][0].update(points=[20, 2, 1]), "'planet_2' (space 12) is worth less than the nearer 'planet_1'"),
    (lambda b: b["spaces"][1].update(ab=2), "spaces.1.ab: give AB pips 1..3 exactly when AB is among the faces"),
    (lambda b: b["spaces"][4].update(body="moons_6"), "spaces.4.body: no body touches spaces 0-5"),
    (lambda b: b["spaces"][7].update(body="pluto"), "spaces.7.body: 'pluto' is no moon group or planet"),
    (lambda b: b["planets"][1].update(points=[1, 3, 1]), "planet points must be 3 values"),
])
def test_impossible_boards_are_refused_with_one_line_naming_the_field(change, message):
    with pytest.raises(UserError) as e:
        analyzer.scenario.validate(MLEM.Scenario, broken(change), "mat.yaml")
    text = str(e.value)
    assert text.startswith("mat.yaml: board") and message in text and "\n" not in text


@pytest.mark.parametrize("sets,message", [({"players": 6}, "players must be 2..5"),
                                          ({"variants.ufo": True}, "not implemented"),
                                          ({"weights": {"expected_value": {"risk": 0}}},
                                           r"weights.expected_value.risk: 0 is outside its range \[0.01, 10\]")])
def test_out_of_range_settings_are_refused(sets, message):
    with pytest.raises(UserError, match=message):
        analyzer.load_scenario(MLEM, set=sets)


def test_the_crash_table_is_the_closed_form_of_its_enumeration():
    allowed = board_arrays(SC.board)[0]
    table = crash_table(allowed)
    faces = [1, 2, 2, 3, 4, 5]
    for s in (0, 5, 12, 24):
        miss = sum(not allowed[s, f] for f in faces) / 6
        for k in range(1, 7):
            assert table[k, s] == pytest.approx(miss ** k, abs=1e-12)
    # one spot check by a separate enumeration: 2 dice on space 5 (faces 1, 4) miss on 2, 2, 3, AB
    hits = sum(not ({faces[a], faces[b]} & {1, 4}) for a, b in product(range(6), repeat=2))
    assert table[2, 5] == hits / 36


def test_the_kernel_crashes_at_the_exact_rate_of_the_table():
    """A mat where every space allows only AB (worth 1): AB dice stay, so every roll is of 6 dice and
    crashes with the table's chance crash[6, s]; the kernel's rate must sit in the 99% interval."""
    data = yaml.safe_load(MLEM.default_scenario.read_text())
    for s in data["board"]["spaces"][:-1]:
        s.update(faces=["AB"], ab=1)
    data.update(policies=["scripted"], players=2)
    sc = analyzer.scenario.validate(MLEM.Scenario, data, "ab-only")
    expected = crash_table(board_arrays(sc.board)[0])[6, 3]
    batch = MLEM.run_batch(sc, 8, np.arange(1500, dtype=np.int64))
    rolls, crashes = batch.extra["rolls_at"].sum(), batch.extra["crashes_at"].sum()
    _, lo, hi = wilson(crashes, rolls, z=2.576)
    assert expected == pytest.approx((5 / 6) ** 6) and lo <= expected <= hi and rolls > 10_000


@pytest.mark.parametrize("policy", ["random", "greedy", "expected_value"])
def test_every_astronaut_is_somewhere_and_moons_hold_at_most_one(policy):
    sc = analyzer.load_scenario(MLEM, policy=[policy], players=5)
    batch = MLEM.run_batch(sc, 3, np.arange(200, dtype=np.int64), trace=False)
    where = batch.extra["astronaut_at"]
    assert set(np.unique(where)) <= {0, 2, 3, 4, 5}  # home, moon, planet, comet, galaxy: nobody left aboard
    assert ((where == 2).sum(axis=(1, 2)) <= len(board_arrays(sc.board)[5])).all()
    assert ((where == 4).sum(axis=(1, 2)) <= batch.length).all()  # at most one comet per expedition
    for gid in range(10):
        lines = analyzer.replay(MLEM, 3, gid, scenario=sc).lines
        moons = [line.split("moon ")[1].split(":")[0] for line in lines if "lands on moon" in line]
        assert len(moons) == len(set(moons))
    assert (batch.extra["placed"] == (where >= 2).sum(axis=2)).all()
    assert (batch.score == batch.extra["points"].sum(axis=2)).all()
    assert (batch.score == batch.extra["type_points"].sum(axis=2)).all()


def test_the_reports_mat_edits_are_valid_boards_that_change_what_they_say():
    from analyzer.games.mlem.report import board_edits
    from analyzer.report_runs import variant_scenario
    meta = {"scenario": SC.model_dump(mode="json")}
    edited = {label: variant_scenario(MLEM, meta, sets).board for label, sets in board_edits(meta["scenario"]["board"])}
    b = SC.board
    assert [m.values for m in edited["every moon +1 point"].moons] == [[v + 1 for v in m.values] for m in b.moons]
    assert edited["farthest planet (planet_5) pays 1.5x"].planets[-1].points == [18, 9, 4]
    assert edited["nearest planet (planet_1) pays half"].planets[0].points == [2, 1, 0]
    assert [s.ab for s in edited["afterburner pips -1 (at least 1)"].spaces] == [max(s.ab - 1, 1) if s.ab else 0 for s in b.spaces]
    assert [s.ab for s in edited["afterburner pips +1 (at most 3)"].spaces] == [min(s.ab + 1, 3) if s.ab else 0 for s in b.spaces]


def test_a_scenario_that_omits_the_rules_plays_the_default_scenarios_rules():
    """The schema's defaults are the documented ones (scenarios/mlem/default.yaml spells each out)."""
    from analyzer.games.mlem.scenario import MlemRules
    assert MlemRules().model_dump() == SC.rules.model_dump()
    assert MlemRules().satellite_start_space == 3


@pytest.mark.parametrize("sets", [{}, {"rules.planet_double": "count_twice", "rules.goal_galaxy_counts_comet": True},
                                  {"board.goals.moons_4": -2, "board.goals.planets_4": -1, "board.goals.galaxy_2": -3}])
def test_the_leave_cap_bounds_every_landing_on_any_table(sets):
    """The policies skip a space whose leave_cap cannot beat the best landing found (policies.py): the
    cap must be at least what leaving there pays on any table, for every type (row 0: no doubling type
    but Planet x2; row 1: all), goal tokens included, and row 2 row 0's most from that space on."""
    from analyzer.games.mlem import decisions as D
    from analyzer.games.mlem import policies as P
    from analyzer.games.mlem import view as V
    from analyzer.games.mlem.mat import mat_of
    from analyzer.games.mlem.scenario import rule_vector
    sc = analyzer.load_scenario(MLEM, set=sets)
    arrays = board_arrays(sc.board)
    cap, mat = arrays[8], mat_of((*arrays, crash_table(arrays[0]), rule_vector(sc)))
    assert (cap[2] == np.maximum.accumulate(cap[0, ::-1])[::-1]).all()
    rng = np.random.default_rng(5)
    worst = np.full((2, cap.shape[1]), -99)
    for _ in range(300):
        view = np.zeros(V.VIEW_SIZE, np.int64)
        view[V.V_MOON_FREE:V.V_MOON_FREE + V.MAX_MOONS] = rng.integers(0, 2, V.MAX_MOONS)
        view[V.V_PL_COUNT:V.V_PL_FIRST] = rng.integers(0, 4, V.V_PL_FIRST - V.V_PL_COUNT)
        view[V.V_PL_FIRST:V.V_GOAL_FREE] = rng.integers(0, 50, V.V_GOAL_FREE - V.V_PL_FIRST)
        view[V.V_GOAL_FREE:V.V_GOAL_FREE + 4] = rng.integers(0, 2, 4) | (rng.random() < 0.5)
        view[V.V_OWN_MOONS], view[V.V_OWN_GALAXY], view[V.V_OWN_COMET] = rng.integers(0, 4), rng.integers(0, 2), rng.integers(0, 2)
        view[V.V_PLANET2_AT] = rng.integers(-1, 5)
        for typ in range(D.TYPES):
            row = 1 if typ in (D.MOON2, D.DEEP2) else 0
            for s in range(cap.shape[1]):
                for commander in (0, 1):
                    got = P.leave_value(view, mat, s, typ, commander)
                    assert got <= cap[row, s], (typ, s, commander)
                    worst[row, s] = max(worst[row, s], got - cap[row, s])
    # on a moon the cap is what the best free moon and the goal pay: reached on some table (a planet's
    # counts both planet goals, which no one landing takes together)
    from analyzer.games.mlem.scenario import BODY_MOON
    assert (worst[:, arrays[2] == BODY_MOON] == 0).all()
