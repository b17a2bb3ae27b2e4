"""Space Base: invariants over many random games (every policy, 2-5 players), determinism, tracing,
the scenario data and the game plugin."""
import itertools

import numpy as np
import pytest
import yaml

from analyzer.games.spacebase import GAME
from analyzer.games.spacebase import columns as C
from analyzer.games.spacebase import engine as E
from analyzer.games.spacebase import layout as L
from analyzer.games.spacebase.scenario import card_list
from analyzer.scenario import load, validate

POLICIES = ["random", "greedy_vp", "engine", "weighted"]


def seat_policies(players, shift):
    return [POLICIES[(i + shift) % 4] for i in range(players)]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("variant", ["standard", "lightspeed"])
def test_cards_conserved_and_vp_never_negative(players, variant):
    for shift in range(4):
        sc = load(GAME, players=players, policies=seat_policies(players, shift),
                  sets=[f"rules.variant={variant}"])
        D = GAME.inputs(sc)
        cards = card_list(sc)
        nst = len(sc.cards.starters)
        for gid in range(4):
            st = E.play_one(D, 17, gid)
            a = E.state_arrays(D, st)
            PS, BD, DEP, DISP, DECK, DP, OWNER = (a[k] for k in ("PS", "BD", "DEP", "DISP", "DECK", "DP", "OWNER"))
            where = np.zeros(len(cards), int)
            for lv in range(3):  # decks (circular buffers) and display
                size = sum(1 for c in cards[nst:] if c.level == lv + 1)
                for i in range(DP[lv, 1]):
                    where[DECK[lv, (DP[lv, 0] + i) % size]] += 1
                for k in DISP[lv]:
                    if k >= 0:
                        where[k] += 1
            on_board = np.zeros((players, len(cards)), int)
            for p in range(players):
                for s in range(1, 13):
                    for k in (BD[p, s, L.B_STATION], BD[p, s, L.B_COVERED]):
                        if k >= 0:
                            on_board[p, k] += 1
                    for i in range(BD[p, s, L.B_NDEP]):
                        on_board[p, DEP[p, s, i]] += 1
                    # a colony closes its sector: nothing stationed there
                    if BD[p, s, L.B_COLONY]:
                        assert BD[p, s, L.B_STATION] == -1
            # every player keeps its own 12 starters; every ship is in exactly one place
            assert (on_board[:, :nst] == 1).all()
            ships = where[nst:] + on_board[:, nst:].sum(0)
            assert (ships == 1).all()
            # a ship on a board belongs to that player (bought or claimed by it)
            for p in range(players):
                assert (OWNER[nst:][on_board[p, nst:] == 1] == p).all()
            # colonies: bought ones sit on exactly one board, the others are still available
            cols = sum(int(BD[p, s, L.B_COLONY] > 0) for p in range(players) for s in range(1, 13))
            assert cols + a["COLAV"][:len(sc.cards.colonies)].sum() == len(sc.cards.colonies)
            assert cols == PS[:, L.PL.COLS].sum()
            assert (PS[:, L.PL.VP] >= 0).all() and (PS[:, L.PL.CRED] >= 0).all()
            assert PS[:, L.PL.IN].sum() >= 1


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_batch_columns_consistent(players):
    sc = load(GAME, players=players, policies=seat_policies(players, players))
    n = 40
    b = GAME.run_batch(sc, 3, np.arange(n))
    assert b.is_winner.shape == (n, players) and b.is_winner.dtype == bool
    assert b.score.shape == (n, players) and (b.score >= 0).all()
    assert b.length.shape == (n,) and (b.length >= 1).all()
    assert b.is_winner.any(axis=1).all()
    for k in ("opening_sector", "credits", "income", "colonies", "cards_bought", "cards_claimed", "turns",
              "abilities"):
        assert b.extra[k].shape == (n, players), k
    assert set(GAME.columns) == set(b.extra)
    assert b.extra["card_buyer"].shape == (n, len(sc.cards.ships))
    assert b.extra["colony_buyer"].shape == (n, len(sc.cards.colonies))
    assert ((b.extra["card_buyer"] >= -1) & (b.extra["card_buyer"] < players)).all()
    # ships bought or claimed (the opening included) are exactly the cards with a buyer
    got = b.extra["cards_bought"].sum(1) + b.extra["cards_claimed"].sum(1)
    assert (got == (b.extra["card_buyer"] >= 0).sum(1)).all()
    assert (b.extra["colonies"].sum(1) == (b.extra["colony_buyer"] >= 0).sum(1)).all()
    # the first player holds the highest opening sector
    first = b.first_player
    assert (b.extra["opening_sector"][np.arange(n), first] == b.extra["opening_sector"].max(1)).all()
    assert set(np.unique(b.extra["end_reason"])) <= {0, 1, 2, 3}


def test_determinism_batch_equals_one_by_one():
    sc = load(GAME, players=4, policies=["random", "engine", "weighted", "greedy_vp"])
    ids = np.array([5, 6, 7])
    whole = GAME.run_batch(sc, 99, ids)
    for i, gid in enumerate(ids):
        one = GAME.run_batch(sc, 99, np.array([gid]))
        assert (one.score[0] == whole.score[i]).all() and one.length[0] == whole.length[i]
        assert (one.is_winner[0] == whole.is_winner[i]).all()
        for k, v in whole.extra.items():
            assert (one.extra[k][0] == v[i]).all(), k
    again = GAME.run_batch(sc, 99, ids)
    assert (again.score == whole.score).all()
    other = GAME.run_batch(sc, 100, ids)
    assert not ((other.score == whole.score).all() and (other.length == whole.length).all())


def test_a_copy_of_the_state_vector_plays_on_as_the_game_does():
    """A game's whole state is its vector: a fresh state given a copy of it mid-game plays the next turns
    exactly as the game itself, and leaves the game untouched."""
    sc = load(GAME, players=3, policies=["random", "engine", "weighted"])
    D = GAME.inputs(sc)
    game = E.new_state(D)
    E.setup(D, game, 4, 0)
    for t in range(12):
        E.play_turn(D, game, t % 3)
    fork = E.new_state(D)
    E.state_arrays(D, fork)["v"][:] = E.state_arrays(D, game)["v"]
    before = E.state_arrays(D, game)["v"].copy()
    for t in range(12, 40):
        E.play_turn(D, fork, t % 3)
    assert (E.state_arrays(D, game)["v"] == before).all()
    for t in range(12, 40):
        E.play_turn(D, game, t % 3)
    assert (E.state_arrays(D, fork)["v"] == E.state_arrays(D, game)["v"]).all()
    assert not (E.state_arrays(D, game)["v"] == before).all()


@pytest.mark.parametrize("variant", ["standard", "lightspeed"])
def test_traced_game_equals_untraced(variant):
    sc = load(GAME, players=3, policies=["random", "engine", "weighted"], sets=[f"rules.variant={variant}"])
    for gid in (0, 1, 2):
        plain = GAME.run_batch(sc, 7, np.array([gid]))
        traced = GAME.run_batch(sc, 7, np.array([gid]), trace=True)
        assert (plain.score == traced.score).all() and (plain.length == traced.length).all()
        for k, v in plain.extra.items():
            assert (traced.extra[k] == v).all(), k
        ev = traced.events
        assert ev.shape[1] == C.COLUMNS.trace_width and len(ev) > 50 and traced.events_dropped == 0
        assert L.E_END in ev[:, 0]
        turns = (ev[:, 0] == L.E_TURN).sum()
        assert turns == plain.extra["turns"][0].sum()
        lines = GAME.describe(sc, ev)
        assert any(line.startswith("END") for line in lines)
        assert any("roll:" in line for line in lines) and any("turn-order bonus" in line for line in lines)
        final = [x for x in ev if x[0] == L.E_FINAL]
        assert [int(x[2]) for x in final] == list(plain.score[0])


def test_scenario_data_and_estimates():
    sc = load(GAME)
    assert len(sc.cards.starters) == 12 and len(sc.cards.colonies) == 12
    levels = [c.level for c in sc.cards.ships]
    assert (levels.count(1), levels.count(2), levels.count(3)) == (48, 48, 36)
    est = sc.estimated()
    assert {f"l3-{i}" for i in range(28, 37)} <= set(est)  # the 9 missing Level III cards
    assert all(sc.cards.ships[[c.id for c in sc.cards.ships].index(i)].note for i in est)
    l29 = next(c for c in sc.cards.ships if c.id == "l2-9")
    assert l29.cost == 6 and "FLAG" in l29.note
    assert any(c.charge and c.charge.effect.you_win for s in sc.cards.ships for c in (s.blue, s.red))


def test_yaml_edits_play_without_recompiling_and_decks_follow(tmp_path):
    data = yaml.safe_load(GAME.default_scenario.read_text())
    ships = data["cards"]["ships"]
    data["cards"]["ships"] = [c for c in ships if c["level"] != 3 or c["sector"] < 10]  # drop 9 cards
    data["cards"]["ships"].append({"id": "new-1", "level": 1, "sector": 4, "cost": 2,
                                   "blue": {"vp": 3}, "red": {"credits": 2}})
    data["cards"]["colonies"] = data["cards"]["colonies"][:6]
    data["rules"]["turn_order_bonus"] = [{"credits": 0}, {"credits": 5}, {"income": 3}]
    data["players"] = 3
    sc = validate(GAME.Scenario, data, "edited")
    b = GAME.run_batch(sc, 1, np.arange(30))
    assert b.extra["card_buyer"].shape == (30, len(ships) - 9 + 1)
    assert b.extra["colony_buyer"].shape == (30, 6)
    assert sc.estimated() == [c["id"] for c in data["cards"]["ships"] if c.get("estimated")]
    assert b.is_winner.any(axis=1).all()


def test_scenario_validation_errors():
    from analyzer.errors import UserError
    with pytest.raises(UserError, match="turn_order_bonus"):
        load(GAME, players=5, sets=["rules.turn_order_bonus=[{credits: 0}]"])
    with pytest.raises(UserError, match="players"):
        load(GAME, players=6)
    with pytest.raises(UserError):
        load(GAME, sets=["rules.pip_squares=sometimes"])
    # card errors name the card by its id; card numbers fit the kernel's int16 table
    with pytest.raises(UserError, match=r"cards\.ships\[id=l1-1\]\.cost: Input should be less than or equal to 9999"):
        load(GAME, sets=["cards.ships.0.cost=40000"])
    with pytest.raises(UserError, match=r"cards\.ships\[id=l1-4\]\.blue\.charge\.slots: charge square 'X'"):
        load(GAME, sets=["cards.ships.3.blue.charge.slots=[X]"])
    with pytest.raises(UserError, match=r"cards\.starters\[id=starter-2\]\.sector"):
        load(GAME, sets=["cards.starters.1.sector=13"])
    with pytest.raises(UserError, match=r"cards\.ships\.5\.id: Field required"):  # no id to name it by
        load(GAME, sets=["cards.ships.5={level: 1, sector: 2, cost: 3}"])


def test_policies_differ_in_behaviour():
    res = {}
    for pol in POLICIES:
        sc = load(GAME, players=4, policies=[pol])
        b = GAME.run_batch(sc, 5, np.arange(60))
        res[pol] = b
    # greedy_vp buys far fewer ships than the engine builders; random plays longest
    assert res["greedy_vp"].extra["cards_bought"].mean() < res["engine"].extra["cards_bought"].mean()
    assert res["random"].length.mean() > res["weighted"].length.mean()
    # mixed table: the weighted heuristic beats random play
    sc = load(GAME, players=2, policies=["random", "weighted"])
    b = GAME.run_batch(sc, 5, np.arange(300))
    w = b.is_winner.mean(0)
    assert w[1] > w[0]


def test_every_policy_and_count_runs(tmp_path):
    for players, shift in itertools.product([2, 5], range(4)):
        sc = load(GAME, players=players, policies=seat_policies(players, shift))
        b = GAME.run_batch(sc, 2, np.arange(10))
        assert (b.extra["end_reason"] != L.END_MAX_ROUNDS).all()


def test_buy_rates_match_their_formulas():
    """policies.ship_rate / colony_rate (written as branch-free arithmetic) equal the formulas of the
    policies module doc, computed here in plain Python, in the middle of real games."""
    from analyzer.games.spacebase import policies as PO
    for players, gid in ((2, 1), (4, 2), (5, 3)):
        sc, D, st, a = started_game(players, 4, gid)
        CT, COLT, R, _, VALS, _, _, PR = D_arrays(sc)[:8]
        for turn in range(6 * players):
            E.play_turn(D, st, turn % players)
            for p in range(players):
                ph = int(a["PS"][p, L.PL.PHASE])
                blue, red = VALS[p, ph, L.BLUE], VALS[p, ph, L.RED]
                for k in a["DISP"].ravel():
                    if k < 0:
                        continue
                    pos = CT[k, L.F.SECTOR]
                    rate = PO.ship_rate(D, st, p, k)
                    if a["BD"][p, pos, L.B_COLONY]:
                        assert PO.closed(rate)
                        continue
                    old = a["BD"][p, pos, L.B_STATION]
                    swap = (players - 1) * red[old] - blue[old] if old >= 0 else 0.0
                    assert rate == pytest.approx(PR[p, pos] * (blue[k] + swap))
                for q in range(len(COLT)):
                    pos = COLT[q, L.C_SECTOR]
                    rate = PO.colony_rate(D, st, p, q)
                    if not a["COLAV"][q] or a["BD"][p, pos, L.B_COLONY]:
                        assert PO.closed(rate)
                        continue
                    old = a["BD"][p, pos, L.B_STATION]
                    want = PR[p, pos] * ((players - 1) * red[old] - blue[old]) if old >= 0 else 0.0
                    assert rate == pytest.approx(want)
        assert R[L.R_COLONY_DEPLOYS] == 1


@pytest.mark.parametrize("variant", ["standard", "lightspeed"])
def test_incremental_reward_tables_equal_a_full_rebuild(variant):
    """Right after setup (starting boards copied, opening ships added sector by sector) and after every
    turn of real games, each player's reward tables and charge-ability lists (kept up to date sector by
    sector by refresh_pos, reward-arrow chains included) equal the ones a full `refresh` builds."""
    boards_with_arrows = 0
    abilities_seen = 0
    for players, gid in ((2, 5), (4, 6), (5, 7)):
        sc, D, st, a = started_game(players, 9, gid, [f"rules.variant={variant}"])
        for turn in range(-1, 14 * players):
            if turn >= 0:
                E.play_turn(D, st, turn % players)
            for p in range(players):
                kept = tables(a, p)
                E.refresh(D, st, p)
                rebuilt = tables(a, p)
                assert all(np.array_equal(x, y) for x, y in zip(kept, rebuilt, strict=True)), (turn, p)
                boards_with_arrows += bool((a["BASE"][p, :, 1:, 5] != 0).any())
                abilities_seen += len(kept[-1]) + len(kept[-2])
            # sector 0 is no sector: its rows stay zero (assign_all adds row 0 for "no second die")
            assert not a["AV"][:, :, 0].any() and not a["AC"][:, :, 0].any()
    assert boards_with_arrows > 0 and abilities_seen > 0


def tables(a, p):
    """Player p's derived tables: AV, AC, ability counts and timing masks, and both ability lists."""
    nab = a["PS"][p, L.PL.NAB0:L.PL.NAB0 + 2].copy()
    return (a["AV"][p].copy(), a["AC"][p].copy(), nab, a["PS"][p, L.PL.TMASK0:L.PL.TMASK0 + 2].copy(),
            a["ABL"][p, 0, :nab[0]].copy(), a["ABL"][p, 1, :nab[1]].copy())


def started_game(players, seed, gid, sets=()):
    """Game gid of run `seed` set up (mixed policies): scenario, D, st and st's arrays by name."""
    sc = load(GAME, sets=sets, players=players, policies=seat_policies(players, gid))
    D = GAME.inputs(sc)
    st = E.new_state(D)
    E.setup(D, st, seed, gid)
    return sc, D, st, E.state_arrays(D, st)


_ARRAYS: dict = {}


def D_arrays(sc):
    from analyzer.games.spacebase.scenario import kernel_arrays
    key = sc.content_hash()
    if key not in _ARRAYS:
        _ARRAYS[key] = kernel_arrays(sc)
    return _ARRAYS[key]
