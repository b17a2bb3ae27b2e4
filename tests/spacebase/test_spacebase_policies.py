"""Space Base policies never stall (issue #9): a player holding many credits buys, the scored policies'
"saving unlocks nothing" boundary, and no game of any policy runs to the max_rounds safety stop."""
import numpy as np
import pytest

from analyzer.games.spacebase import GAME
from analyzer.games.spacebase import engine as E
from analyzer.games.spacebase import layout as L
from analyzer.games.spacebase.scenario import card_list
from analyzer.scenario import load

POLICIES = ["random", "greedy_vp", "engine", "weighted"]


def started(policy, players=2, seed=3, gid=0):
    """A game just set up (openings bought, displays dealt) with `policy` in every seat."""
    sc = load(GAME, players=players, policies=[policy])
    D = GAME.inputs(sc)
    st = E.new_state(D)
    E.setup(D, st, seed, gid)
    return sc, D, st, E.state_arrays(D, st)


def buys(PS, seat):
    return int(PS[seat, L.PL.BOUGHT] + PS[seat, L.PL.COLS])


@pytest.mark.parametrize("credits", [100, 933])
@pytest.mark.parametrize("policy", ["greedy_vp", "engine", "weighted"])
def test_rich_player_buys_on_its_turn(policy, credits):
    """With 100 or 933 credits (as in the stalled games of issue #9) and the whole display affordable,
    the player buys on its own turn: the normal buy spends everything, so it ends at its income floor."""
    for gid in range(5):
        _, D, st, a = started(policy, gid=gid)
        PS = a["PS"]
        seat = 0
        PS[seat, L.PL.CRED] = credits
        before = buys(PS, seat)
        E.play_turn(D, st, seat)
        assert buys(PS, seat) == before + 1
        assert PS[seat, L.PL.CRED] == PS[seat, L.PL.INC]


def test_rich_random_player_buys_nearly_always():
    """random keeps "no buy" as one of its uniform choices (1 in 31 here: 18 ships + 12 colonies
    affordable), so over 40 turns with 933 credits it buys in almost all of them."""
    bought = 0
    for gid in range(40):
        _, D, st, a = started("random", gid=gid)
        a["PS"][0, L.PL.CRED] = 933
        before = buys(a["PS"], 0)
        E.play_turn(D, st, 0)
        bought += buys(a["PS"], 0) - before
    assert bought >= 35


def weak_offer(policy):
    """A built position for seat 0: the display holds one cheap, weak ship (l1-3: sector 1, 1 credit,
    where the starter already gives 1), and colony-12 (cost 42) is the only colony left."""
    sc, D, st, a = started(policy)
    idx = {c.id: i for i, c in enumerate(card_list(sc))}
    a["DISP"][:, :] = -1
    a["DISP"][0, 0] = idx["l1-3"]
    q = next(i for i, c in enumerate(sc.cards.colonies) if c.id == "colony-12")
    a["COLAV"][:] = 0
    a["COLAV"][q] = 1
    return D, st, a, sc.cards.colonies[q].cost


@pytest.mark.parametrize("policy", ["engine", "weighted"])
def test_scored_policy_buys_once_credits_cover_the_dearest_option(policy):
    """engine / weighted: one credit short of the dearest option on offer (colony-12, 42) the weak ship
    does not pay for the credits it would throw away, so the buy step keeps them; holding the dearest
    option's cost, saving unlocks nothing and the buy step buys (before issue #9 it never did)."""
    dearest = weak_offer(policy)[3]
    check_buy_step(policy, ((dearest - 1, False), (dearest, True)))


def check_buy_step(policy, cases, prepare=lambda a: None):
    """For each (credits held, bought?): the weak offer, changed by `prepare`, through the buy step."""
    for held, bought in cases:
        D, st, a, _ = weak_offer(policy)
        prepare(a)
        a["PS"][0, L.PL.CRED] = held
        before = buys(a["PS"], 0)
        E.buy_phase(D, st, 0)
        assert buys(a["PS"], 0) == before + bought
        assert a["PS"][0, L.PL.CRED] == (0 if bought else held)


@pytest.mark.parametrize("policy", ["engine", "weighted"])
def test_a_ship_on_display_can_be_the_dearest_option(policy):
    """No colony left and an open Level III ship (l3-34, sector 12, cost 14) beside the weak ship:
    13 credits keep, 14 cover every option and buy."""
    l3_34 = {c.id: i for i, c in enumerate(card_list(load(GAME, players=2)))}["l3-34"]

    def level_iii_ship_instead_of_colony(a):
        a["COLAV"][:] = 0
        a["DISP"][2, 0] = l3_34

    check_buy_step(policy, ((13, False), (14, True)), level_iii_ship_instead_of_colony)


@pytest.mark.parametrize("policy", ["engine", "weighted"])
def test_dearest_option_leaves_out_what_the_player_cannot_buy(policy):
    """A ship in a sector closed by the player's own colony is not an option: with the weak ship and a
    closed sector-12 ship on display and no colony left, 2 credits already cover every option."""
    D, st, a, _ = weak_offer(policy)
    idx = {c.id: i for i, c in enumerate(card_list(load(GAME, players=2)))}
    a["COLAV"][:] = 0
    a["DISP"][2, 0] = idx["l3-34"]  # sector 12, cost 14
    a["BD"][0, 12, L.B_COLONY] = 1
    a["BD"][0, 12, L.B_STATION] = -1
    a["PS"][0, L.PL.CRED] = 13
    before = buys(a["PS"], 0)
    E.buy_phase(D, st, 0)
    assert buys(a["PS"], 0) == before + 1 and a["PS"][0, L.PL.CRED] == 0 and a["DISP"][0, 0] == -1


@pytest.mark.parametrize("policy", POLICIES)
def test_no_game_reaches_the_safety_stop(policy):
    """2 players (where issue #9 stalled 2.2% of engine games): 2,000 games, none ends at max_rounds."""
    sc = load(GAME, players=2, policies=[policy])
    b = GAME.run_batch(sc, 101, np.arange(2000))
    assert int((b.extra["end_reason"] == L.END_MAX_ROUNDS).sum()) == 0


def test_report_safety_stops_and_end_reason_labels(tmp_path):
    """The report's labels carry the scenario's trigger_vp and max_rounds (not a fixed 40), and its
    safety-stop table counts the games stopped at max_rounds: a row per policy at 2 and 4 players. With
    max_rounds = 5 no game can reach 30 VP first, so every game stops there."""
    import analyzer
    from analyzer.games.spacebase import report
    from analyzer.reporting import Report
    from analyzer.results import read

    analyzer.sim("spacebase", n=60, seed=4, players=2, set=["rules.trigger_vp=30", "rules.max_rounds=5"],
                 out=tmp_path / "r.parquet")
    df, meta = read(tmp_path / "r.parquet")
    text = report._end_reasons(df, meta["scenario"]["rules"])
    assert text == "End reasons (0 = 30 VP, 1 = you-win card, 2 = tie cap, 3 = safety stop at 5 rounds): " \
                   "3: 100.0% [94.0, 100.0] (n=60)"
    rep = Report("t", meta, df.height)
    report._safety_stops(rep, GAME, meta, 50)
    md = rep.write(tmp_path / "rep").read_text()
    rows = [line.split(" | ") for line in md.splitlines() if line.startswith("| ") and " | 50 | " in line]
    assert [r[:4] for r in rows] == [[f"| {p}", str(n), "50", "50"] for p in POLICIES for n in (2, 4)]
    assert "ending at 30 VP" in md and "rules.max_rounds = 5 rounds" in md
