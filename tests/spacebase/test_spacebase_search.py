"""Space Base's search player (analyzer/search.py): at a rollout's branch the engine deals the order of the
cards left in each deck again (engine.redeal_decks), which depends only on which cards are left, never on
where they were, and leaves everything public as it was; in a game built so that the sum of the dice wins
on the spot, search takes it where the tuned `weighted` takes the faces and loses; a chunk of games plays
each as alone."""
import numpy as np
import pytest

import analyzer
from analyzer import kernel
from analyzer.games.spacebase import GAME
from analyzer.games.spacebase import engine as E
from analyzer.games.spacebase import layout as L
from analyzer.games.spacebase.decisions import D_PHASE
from analyzer.games.spacebase.scenario import Side, kernel_arrays
from analyzer.games.spacebase.state import DATA_FIELDS, ST, TABLES

BRANCH = np.uint64(0x5EED5EED)  # a rollout's stream at its branch (kernel.search_step swapped it in)


def _game_state(sc, seed, rounds):
    """A real game's state `rounds` rounds in: its own setup (opening, start player), then whole turns."""
    D = GAME.inputs(sc)
    st = E.new_state(D)
    E.setup(D, st, seed, 0)
    first = int(E.state_arrays(D, st)["v"][ST.FIRST])
    for t in range(sc.players * rounds):
        E.play_turn(D, st, (first + t) % sc.players)
    return D, st


def _twin(D, st):
    """A fresh state holding a copy of st's whole vector: the same game at the same point."""
    twin = E.new_state(D)
    E.state_arrays(D, twin)["v"][:] = E.state_arrays(D, st)["v"]
    return twin


def _deck_sizes(sc):
    return kernel_arrays(sc)[DATA_FIELDS.index("LVL_N")]


def _left(sizes, a):
    """The cards left in each deck, top first (decks are circular buffers from DP[lv, 0], DP[lv, 1] cards)."""
    return [[int(a["DECK"][lv, (int(a["DP"][lv, 0]) + i) % sizes[lv]]) for i in range(int(a["DP"][lv, 1]))]
            for lv in range(3)]


def _shuffle_left(sizes, a, rng):
    """An independent shuffle of the cards left in each deck (what no seat can see), in place."""
    for lv in range(3):
        slots = (int(a["DP"][lv, 0]) + np.arange(int(a["DP"][lv, 1]))) % sizes[lv]
        a["DECK"][lv, slots] = rng.permutation(a["DECK"][lv, slots])


def _branch(D, st, seat, stream=BRANCH):
    """seat's decision at a rollout's branch, through the engine's own ask: search_step swaps the stream in,
    takes the branch's option and flags the re-deal, which the engine's ask carries out."""
    a = E.state_arrays(D, st)
    ctl = a["ctl"]
    ctl[kernel.A_MODE], ctl[kernel.A_OPTION], ctl[kernel.A_WORLD] = kernel.ROLLOUT, 1, np.int64(stream)
    return E.ask_yes_no(D, st, np.int64(seat), D_PHASE, 0, 0, 0)


@pytest.mark.parametrize("variant", ["standard", "lightspeed"])
@pytest.mark.parametrize("players,seed", [(2, 0), (3, 1), (4, 2), (5, 3)])
def test_the_branch_redeal_depends_only_on_which_cards_are_left(players, seed, variant):
    """Two real game states that differ only in the order of the decks are one state after the branch's
    re-deal with the same stream; the market, every board, credit and score stay, each deck keeps its cards
    (its count and start too), and another stream deals another order."""
    seat = seed % players
    policies = ["weighted"] * players
    policies[seat] = "search"
    sc = analyzer.load_scenario(GAME, players=players, policy=policies, set={"rules.variant": variant})
    D, st = _game_state(sc, seed, 3 + seed)
    sizes = _deck_sizes(sc)
    before = {k: v.copy() for k, v in E.state_arrays(D, st).items()}
    twin = _twin(D, st)
    _shuffle_left(sizes, E.state_arrays(D, twin), np.random.default_rng(seed))
    assert not np.array_equal(E.state_arrays(D, twin)["DECK"], before["DECK"])
    assert _branch(D, st, seat) and _branch(D, twin, seat)  # the branch's option, index 1: YES
    a, b = E.state_arrays(D, st), E.state_arrays(D, twin)
    assert (a["v"] == b["v"]).all()
    assert a["ctl"][kernel.A_REDEAL] == 0 and a["ctl"][kernel.A_STOP] == seat + 1  # done, and noted
    for name in TABLES:
        if name != "DECK":
            assert (a[name] == before[name]).all(), name
    assert (a["v"][:ST.RNG] == before["v"][:ST.RNG]).all()  # round, dice, trigger ...: the public scalars
    left, was = _left(sizes, a), _left(sizes, before)
    assert [sorted(x) for x in left] == [sorted(x) for x in was] and sum(map(len, left)) > 20
    assert left != was  # re-dealt
    other = E.new_state(D)
    E.state_arrays(D, other)["v"][:] = before["v"]
    _branch(D, other, seat, np.uint64(7))
    assert _left(sizes, E.state_arrays(D, other)) != left  # the re-deal is a draw from the stream, not a sort


def test_outside_a_rollout_a_decision_deals_nothing():
    """In a plain game (the control row all zeros) a decision of a search seat or another leaves the decks
    and the control row as they are."""
    sc = analyzer.load_scenario(GAME, players=3, policy=["search", "engine", "weighted"])
    D, st = _game_state(sc, 5, 2)
    before = {k: v.copy() for k, v in E.state_arrays(D, st).items()}
    for seat in (1, 0):  # engine's own switch; search (outside a search's runs: its rollout code, 0, random)
        E.ask_yes_no(D, st, np.int64(seat), D_PHASE, 0, 0, 0)
        after = E.state_arrays(D, st)
        assert (after["DECK"] == before["DECK"]).all() and not after["ctl"].any()


def test_a_search_seat_plays_on_with_its_rollout_player_tables():
    """Past its branch a search seat plays its rollout policy (the tuned weighted): its card values, sector
    odds and weights rows are that player's, not the defaults'."""
    tuned = analyzer.load_scenario(GAME, GAME.scenario_dir / "tuned.yaml").weights["weighted"]
    search = analyzer.load_scenario(GAME, players=3, policy=["engine", "search", "greedy_vp"])
    assert search.rollout_policy == "weighted" and search.rollout_weights == tuned
    played = analyzer.load_scenario(GAME, players=3, policy=["engine", "weighted", "greedy_vp"],
                                    set={"weights": {"weighted": tuned}})
    default = analyzer.load_scenario(GAME, players=3, policy=["engine", "weighted", "greedy_vp"])
    rows = {name: DATA_FIELDS.index(name) for name in ("VALS", "WP", "PR", "PHASES")}
    a, b, c = kernel_arrays(search), kernel_arrays(played), kernel_arrays(default)
    for name, i in rows.items():
        assert (a[i][1] == b[i][1]).all(), name
    assert not (a[rows["VALS"]][1] == c[rows["VALS"]][1]).all()
    assert a[DATA_FIELDS.index("POL")][1] == kernel.SEARCH + 1


# ---- search in a game ------------------------------------------------------------------------------------
# Two players; every starting ship pays 1 income in sectors 1-6 and 2 VP in 7-12 on its blue side and
# nothing red; the game ends at 2 VP, with no opening buys (light speed with nothing shown and no credits),
# so the start player is drawn. A sum of 7 or more is 2 VP: the round's last player who rolls one wins on the
# spot. The tuned weighted values 2 income (5.62 each) above 2 VP (3.05 each) and never takes it; greedy_vp
# (VP 4, income 2) always does.
TUNED = analyzer.load_scenario(GAME, GAME.scenario_dir / "tuned.yaml").weights["weighted"]
SEED, GAME_ID = 1, 42  # seat 1 starts and rolls 5+1 (faces); seat 0 then rolls 6+1


def _spot(seat0, rollouts=8):
    sets = {"rules.variant": "lightspeed", "rules.lightspeed.credits": 0, "rules.lightspeed.income": 0,
            "rules.lightspeed.draw_l1": 0, "rules.lightspeed.draw_l2": 0, "rules.trigger_vp": 2,
            "weights": {"search": {"rollouts": rollouts}, "weighted": TUNED}}
    sc = analyzer.load_scenario(GAME, players=2, policy=[seat0, "greedy_vp"], set=sets)
    data = sc.model_dump(mode="json")
    data["cards"]["starters"] = [c.model_copy(update={"blue": Side(income=1) if c.sector <= 6 else Side(vp=2),
                                                      "red": Side()}).model_dump(mode="json")
                                 for c in sc.cards.starters]
    return type(sc).model_validate(data)


def _records(b):
    return [tuple(int(x) for x in r) for r in b.events if r[0] != 0]


def test_search_takes_the_sum_that_wins_on_the_spot_where_the_tuned_weighted_takes_the_faces_and_loses():
    sc = _spot("search")
    assert sc.rollout_policy == "weighted" and sc.rollout_weights == TUNED
    b = GAME.run_batch(sc, SEED, np.array([GAME_ID]), trace=True)
    ev = _records(b)
    assert next(r for r in ev if r[0] == L.E_START)[1] == 1  # seat 1 moves first
    rolls = [r[2:4] for r in ev if r[0] == L.E_ROLL]
    assert rolls[:2] == [(5, 1), (6, 1)]
    i = next(i for i, r in enumerate(ev) if r[0] == kernel.E_SEARCHED and ev[i + 1][0] == L.E_ASSIGN
             and ev[i - 1][0] == L.E_ROLL and ev[i - 1][1] == 0)  # seat 0's own roll, its first turn
    at = b.searched[ev[i][2]]
    faces, total = 0, 1  # engine.assign_options: the two faces, then the sum
    assert at.seat == 0 and at.default == faces  # the tuned weighted's own choice here
    assert at.means[total] == 1 and at.means[faces] == 0 and at.counts.min() >= 8
    assert at.chosen == total and ev[i + 1][:3] == (L.E_ASSIGN, 0, L.M_SUM)
    assert b.is_winner[0].tolist() == [True, False] and b.length[0] == 1  # ended with the first round

    w = GAME.run_batch(_spot("weighted"), SEED, np.array([GAME_ID]), trace=True)  # the same game, tuned weighted
    wv = _records(w)
    assert [r[2:4] for r in wv if r[0] == L.E_ROLL][:2] == [(5, 1), (6, 1)]
    assert [r[:3] for r in wv if r[0] == L.E_ASSIGN and r[1] == 0][1] == (L.E_ASSIGN, 0, L.M_FACES)
    assert w.is_winner[0].tolist() == [False, True]


def test_a_search_seats_decisions_do_not_depend_on_the_games_beside_it():
    """Each game's control row is copied into the state and back: a chunk of games plays each as alone."""
    sc = analyzer.load_scenario(GAME, policy=["search", "greedy_vp", "engine"], players=3,
                                set={"rules.trigger_vp": 20, "weights": {"search": {"rollouts": 2}}})
    ids = np.arange(4, dtype=np.int64)
    whole = GAME.run_batch(sc, 3, ids)
    for i in ids:
        one = GAME.run_batch(sc, 3, ids[i: i + 1])
        assert one.score.tolist() == whole.score[i: i + 1].tolist()
        assert one.is_winner.tolist() == whole.is_winner[i: i + 1].tolist()
