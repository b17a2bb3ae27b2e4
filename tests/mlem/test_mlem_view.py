"""MLEM's own view tests. The contract (tests/test_contract.py) runs the view check of
analyzer/games/mlem/views.py for every policy (the dice still to be rolled re-dealt: no decision may
change); here: that check catches a policy reading the next roll, the view is built from the deciding
seat, and what the heuristics make of what they see."""
import numpy as np
import pytest
from mlem_mat import small_mat

import analyzer
from analyzer import kernel, rng
from analyzer.games import get
from analyzer.games.base import view_redeals
from analyzer.games.mlem import decisions as D
from analyzer.games.mlem import engine as E
from analyzer.games.mlem import policies as P
from analyzer.games.mlem import view as V
from analyzer.games.mlem import views
from analyzer.games.mlem.mat import mat_of
from analyzer.games.mlem.scenario import board_arrays, crash_table, rule_vector

MLEM = get("mlem")
GOALS_FREE = np.full(4, -1, np.int64)  # goal_owner: no token taken yet


def weights(**values):
    """An expected_value seat's weights row: the defaults, with `values` changed."""
    own = {w.name: w.default for w in MLEM.Scenario.WEIGHTS["expected_value"]}
    return np.array(list({**own, **values}.values()), np.float64)


NEUTRAL = weights()


def view_of(kind, seat, space, pool, body, a, b, at, spot, moon_owner, pl_count, pl_first, roll=None, goals=GOALS_FREE):
    """The deciding seat's view, built by view.fill_view (no dice showing unless `roll`)."""
    view = np.zeros(V.VIEW_SIZE, np.int64)
    V.fill_view(view, kind, seat, space, pool, body, a, b, np.zeros(6, np.int64) if roll is None else roll,
                at, spot, moon_owner, pl_count, pl_first, goals)
    return view


def choose(code, view, board, options, info=None, w=NEUTRAL, seed=0, stream=0, n=None):
    """The index policy `code` picks among the first `n` (all) `options` on the dice stream (seed, stream)."""
    n = len(options) if n is None else n
    info = np.zeros((len(options), 2), np.int64) if info is None else info
    return int(P.decide(code, view, options, n, rng.new_stream(seed, stream), np.zeros(0, np.int64), kernel.plain_ask(), w,
                        mat_of(board), info))


def table(players=4):
    """A mid-game public table: some moons taken, astronauts on planets, seat 1 to decide on space 12."""
    sc = analyzer.load_scenario(MLEM, players=players)
    arrays = board_arrays(sc.board)
    board = (*arrays, crash_table(arrays[0]), rule_vector(sc))
    at = np.zeros((players, 8), np.int64)
    spot = np.zeros((players, 8), np.int64)
    at[0, D.MOON2], at[2, D.SATELLITE] = D.ON_MOON, D.ON_PLANET
    moon_owner = np.full(len(arrays[5]), -1, np.int64)
    moon_owner[:3] = [0, 2, 3]
    pl_count = np.zeros((5, players), np.int64)
    pl_first = np.full((5, players), D.NO_ARRIVAL, np.int64)
    pl_count[1, 2], pl_first[1, 2] = 1, 1
    return board, at, spot, moon_owner, pl_count, pl_first


def test_the_view_check_catches_a_policy_that_reads_the_next_roll(monkeypatch):
    """The contract's check is felt: expected_value made to stay aboard exactly when the next roll of the
    pool (read off the stream) would not crash decides differently once the dice to come are re-dealt."""
    real = P.decide

    def peeking(code, view, options, n, stream, script, ask, weights, board, info):
        if code == P.EXPECTED_VALUE and view[V.V_KIND] == D.D_LAND:
            roll = np.zeros(6, np.int64)
            E.roll_pool(stream.copy(), view[V.V_POOL], roll)
            return 0 if E.shows_usable_face(roll, view[V.V_SPACE], board.owner[0]) else 1  # owner: mat_of's tuple
        return real(code, view, options, n, stream, script, ask, weights, board, info)
    monkeypatch.setattr(P, "decide", peeking)
    sc = analyzer.load_scenario(MLEM, policy="expected_value")
    assert any(changed for _, changed in view_redeals(views, sc, range(4), np.random.default_rng(0)))


def test_the_view_is_seen_from_the_deciding_seat():
    _, *tab = table()
    view = view_of(D.D_LAND, 1, 12, 4, D.PLANET2, 0, 0, *tab)
    planet_1 = view[V.V_PL_COUNT + V.MAX_PLAYERS: V.V_PL_COUNT + V.MAX_PLAYERS + 4].tolist()
    assert planet_1 == [0, 1, 0, 0]  # seat 2's astronaut is one place after the deciding seat 1
    assert view[V.V_MOON_FREE: V.V_MOON_FREE + 4].tolist() == [0, 0, 0, 1]
    assert view[V.V_AVAIL: V.V_AVAIL + 8].tolist() == [1] * 8  # seat 1 has everyone at home


@pytest.mark.parametrize("pool,risk,leaves", [(1, 1.0, True), (6, 1.0, False), (1, 3.0, False), (6, 0.1, True)])
def test_expected_value_leaves_when_the_exact_crash_odds_outweigh_what_lies_ahead(pool, risk, leaves):
    """Space 11 (moons_11: 3 points now; planet_2 at 12 worth 6) allows 1 and 3: a roll of k dice
    crashes with (4/6)^k. Pool 1: survive 1/3, 6 x 1/3 = 2 < 3: leave. Pool 6: 6 x 0.91 > 3: stay.
    A reckless risk 3 stays even on one die (6 x (1/3)^(1/3) > 3); a timid 0.1 leaves even on six."""
    board, at, spot, moon_owner, pl_count, pl_first = table()
    pl_count[:] = 0  # planet_2 empty: worth its 1st place, 6
    view = view_of(D.D_LAND, 1, 11, pool, D.SATELLITE, 0, 0, at, spot, moon_owner, pl_count, pl_first)
    options = np.array([D.STAY, D.LEAVE_HERE], np.int64)
    assert options[choose(P.EXPECTED_VALUE, view, board, options, w=weights(risk=risk))] == (D.LEAVE_HERE if leaves else D.STAY)
    assert options[choose(P.GREEDY, view, board, options, w=weights(risk=risk))] == D.LEAVE_HERE  # greedy: the first body worth points


def test_greedy_travels_as_far_as_it_can_and_expected_value_weighs_the_landing_space():
    board, *tab = table()
    view = view_of(D.D_TRAVEL, 0, 9, 6, D.SATELLITE, 1, 0, *tab, roll=np.array([0, 1, 1, 0, 0, 0], np.int64))
    options = np.array([1, 2, 3], np.int64)
    # from space 9: to 10 keeping 5 dice, to 11 keeping 5, to 12 keeping 4 dice
    info = np.array([[1, 5], [2, 5], [3, 4]], np.int64)
    assert choose(P.GREEDY, view, board, options, info) == 2
    crash = board[-2]  # the board tuple ends with the crash table and the rules
    scores = [(9 + m) * (1 - crash[k, 9 + m]) for m, k in info]
    assert choose(P.EXPECTED_VALUE, view, board, options, info) == int(np.argmax(scores))


def test_expected_value_weighs_a_travel_by_the_dice_left_after_it_not_before():
    """From space 3 the two dice show a 2 and a 4 (the engine's own list: use the 2, the 4, or both). Both
    reach space 9 and leave one die (the pool never drops below one), which survives a roll there with 1/2:
    9 x 1/2 = 4.5; the 4 alone reaches 7, one die surviving with 2/3: 7 x 2/3 = 4.67, the best. Judged
    with the two dice held before the move, space 9 would win (9 x 3/4 = 6.75 against 7 x 8/9 = 6.2)."""
    from analyzer.games.mlem import engine as E
    board, *tab = table()
    crash, rules = board[-2], board[-1]
    roll = np.zeros(6, np.int64)
    roll[2] = roll[4] = 1
    options, info = np.zeros(64, np.int64), np.zeros((64, 2), np.int64)
    n = int(E.list_travel_options(roll, 3, 2, 0, mat_of(board), rules, options, info))
    assert sorted(map(tuple, info[:n].tolist())) == [(2, 1), (4, 1), (6, 1)]
    assert crash[1, 9] == pytest.approx(1 / 2) and crash[1, 7] == pytest.approx(1 / 3)
    assert crash[2, 9] == pytest.approx(1 / 4) and crash[2, 7] == pytest.approx(1 / 9)
    view = view_of(D.D_TRAVEL, 0, 3, 2, D.SATELLITE, 1, 0, *tab, roll=roll)
    assert info[choose(P.EXPECTED_VALUE, view, board, options, info, n=n), 0] == 4


@pytest.mark.parametrize("own_moons,moons_4_free,leaves", [(3, True, True), (2, True, False), (3, False, False)])
def test_expected_value_counts_the_goal_token_a_landing_would_take(own_moons, moons_4_free, leaves):
    """The neutral pool-6 stay on space 11 (3 points now against 0.91 x 6 ahead) turns into a leave when
    this moon is the player's 4th and the moons_4 token (4 points) is free: 3 + 4 against 0.91 x 7 (the
    token is also in reach at moons_13). One moon short, or the token taken, it stays."""
    board, at, spot, moon_owner, pl_count, pl_first = table()
    pl_count[:] = 0
    at[1, [D.PLUS_MINUS, D.PARACHUTE, D.MOON2][:own_moons]] = D.ON_MOON
    goal_owner = GOALS_FREE.copy()
    goal_owner[P.GOAL_MOONS_4] = -1 if moons_4_free else 2
    view = view_of(D.D_LAND, 1, 11, 6, D.SATELLITE, 0, 0, at, spot, moon_owner, pl_count, pl_first, goals=goal_owner)
    options = np.array([D.STAY, D.LEAVE_HERE], np.int64)
    assert options[choose(P.EXPECTED_VALUE, view, board, options)] == (D.LEAVE_HERE if leaves else D.STAY)


def send(code, moons_taken=(), own_moons=(), board=None, w=NEUTRAL):
    """The type seat 0 (the commander, everyone at home but `own_moons`, which are on moons_a's farthest
    moons) sends at take-off on the small mat with moons_a of 4 moons (1, 2, 3, 3); `moons_taken`: moons
    held by seat 1."""
    b = board or small_mat()
    b["moons"][0]["values"] = [1, 2, 3, 3]
    sc = analyzer.load_scenario(MLEM, players=2, set={"board": b})
    arrays = board_arrays(sc.board)
    board = (*arrays, crash_table(arrays[0]), rule_vector(sc))
    at, spot = np.zeros((2, 8), np.int64), np.zeros((2, 8), np.int64)
    moon_owner = np.full(len(arrays[5]), -1, np.int64)
    for k, t in enumerate(own_moons):
        at[0, t], spot[0, t], moon_owner[3 - k] = D.ON_MOON, 3 - k, 0
    moon_owner[list(moons_taken)] = 1
    pl_count, pl_first = np.zeros((3, 2), np.int64), np.full((3, 2), D.NO_ARRIVAL, np.int64)
    view = view_of(D.D_TAKEOFF, 0, 0, 6, -1, 1, 0, at, spot, moon_owner, pl_count, pl_first)
    options = np.array([t for t in range(8) if at[0, t] == D.HOME], np.int64)
    return int(options[choose(code, view, board, options, np.zeros((64, 2), np.int64), w=w)])


def test_greedy_sends_the_type_whose_power_adds_most_at_the_first_body_worth_points():
    """The first body is moons_a at 6 (its farthest moon, 3): Moon x2 adds 3, +/-1 only 2 (planet_p at 7
    pays 5). With moons_a full the first body is planet_p (5): Planet x2 adds 5, +/-1 nothing (moons_b 4)."""
    assert send(P.GREEDY) == D.MOON2
    assert send(P.GREEDY, moons_taken=range(4)) == D.PLANET2


def test_expected_value_sends_the_type_that_pays_most_where_it_expects_to_land():
    """No face ever crashes on the small mat, so expected_value expects the best body: planet_r (7, first
    at 10), where Planet x2 adds 7 less half its best later use (7): 3.5. Holding 3 moons, moons_b
    (4 + the moons_4 token) is worth 8 and the better landing: Moon x2 adds 4 less half the best free
    moon (4): 2, while Planet x2 would add nothing there (0 - 3.5)."""
    assert send(P.EXPECTED_VALUE) == D.PLANET2
    assert send(P.EXPECTED_VALUE, own_moons=(D.PLUS_MINUS, D.PARACHUTE, D.SATELLITE)) == D.MOON2


def test_the_keep_weight_holds_a_doubling_type_back_for_a_better_use():
    """keep 2: Planet x2's 7 at planet_r less 2 x its best later use (7) is -7, below the types with
    nothing to add or keep (0); the tie among those goes to the first listed, the Satellite."""
    assert send(P.EXPECTED_VALUE, w=weights(keep=0.0)) == D.PLANET2
    assert send(P.EXPECTED_VALUE, w=weights(keep=2.0)) == D.SATELLITE


@pytest.mark.parametrize("mean_move,sent", [(6.0, D.PLANET2), (3.0, D.PLANET2), (1.0, D.PARACHUTE)])
def test_the_mean_move_weight_sets_the_chance_of_getting_there_at_take_off(mean_move, sent):
    """Spaces 0-5 allow 1 and 2 only (k dice crash with (1/2)^k), the rest every face. Rolling every 6
    spaces the rocket gets past them with 0.98: Planet x2 at planet_r adds 0.98 x 7 - 3.5; every 3 with
    0.95; rolling every space (6 rolls, 6 dice down to 1) only with 0.29: the Parachute's 0.71 x 7 (4.95)
    beats Planet x2 (-1.45) and the Satellite (from space 3: (0.89 - 0.29) x 7 = 4.2)."""
    board = small_mat({i: [1, 2] for i in range(6)})
    assert send(P.EXPECTED_VALUE, board=board, w=weights(mean_move=mean_move)) == sent


@pytest.mark.parametrize("reach,leaves", [(1, True), (3, False)])
def test_the_future_reach_weight_sets_how_far_staying_looks(reach, leaves):
    """Space 9 (moons_9: 2 points; faces 1, 2: six dice survive with 63/64): one space ahead is moons_10
    (2), so a reach of 1 leaves (2 >= 0.98 x 2); planet_2 (6) two spaces ahead makes a reach of 3 stay."""
    board, at, spot, moon_owner, pl_count, pl_first = table()
    pl_count[:] = 0
    view = view_of(D.D_LAND, 1, 9, 6, D.SATELLITE, 0, 0, at, spot, moon_owner, pl_count, pl_first)
    options = np.array([D.STAY, D.LEAVE_HERE], np.int64)
    assert options[choose(P.EXPECTED_VALUE, view, board, options, w=weights(future_reach=reach))] == (D.LEAVE_HERE if leaves else D.STAY)
