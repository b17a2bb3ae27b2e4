"""Space Base: one worked example per rule of shared/rules/spacebase.md, each set up as a concrete
position and played through the jitted rule helper of analyzer/games/spacebase/engine.py."""
import numpy as np
import pytest

from analyzer.games.spacebase import GAME
from analyzer.games.spacebase import engine as E
from analyzer.games.spacebase import layout as L
from analyzer.games.spacebase import policies as PO
from analyzer.games.spacebase.scenario import card_list, kernel_arrays
from analyzer.games.spacebase.state import DATA_FIELDS, ST
from analyzer.scenario import load

BLUE, RED = L.BLUE, L.RED


# ---------------------------------------------------------------------------------------------- dice


def test_sum_or_two_faces(position):
    pos = position()
    # starters: sectors 1-6 pay 1 credit (blue), 7-8 pay 3: dice 1+6 -> the sum 7 (3) beats 1 + 1
    assert E.assign_player(pos.D, pos.st, 0, BLUE, 1, 6) == L.M_SUM
    assert pos.cred(0) == 3
    # dice 2+3: faces (1 + 1) beat the sum 5 (1)
    assert E.assign_player(pos.D, pos.st, 0, BLUE, 2, 3) == L.M_FACES
    assert pos.cred(0) == 5


def test_double_as_two_faces_activates_twice(position):
    pos = position()
    pos.put(0, "l1-10")  # sector 3 blue: 1 VP
    assert E.assign_player(pos.D, pos.st, 0, BLUE, 3, 3) == L.M_FACES  # 1 VP twice beats sum 6 (1 credit)
    assert pos.vp(0) == 2 and pos.cred(0) == 0


def test_2x_help_page_example(position):
    """Help page '2X': dice 2 and 5 -> either the sum 7 twice, or 2 and 5 plus one of them again."""
    pos = position()
    aks = pos.put(0, "l2-31", cubes=1)  # U.E.st. Aksyonov (sector 8): 2X on blue and red
    # starters: 2 and 5 pay 1 credit each, 7 pays 3 -> the sum twice (6) is best
    assert E.assign_player(pos.D, pos.st, 0, BLUE, 2, 5) == L.M_DOUBLE_SUM
    assert pos.cred(0) == 6 and pos.CUBES[0, aks] == 0
    # make 5 worth 1 VP and 2 worth 2 credits: faces plus 5 again (2 VP + 2 credits) beats 7 twice
    pos = position()
    aks = pos.put(0, "l2-31", cubes=1)
    pos.put(0, "l1-18")  # sector 5 blue 1 VP
    pos.put(0, "l1-5")   # sector 2 blue 2 credits
    assert E.assign_player(pos.D, pos.st, 0, BLUE, 2, 5) == L.M_DOUBLE_D2
    assert pos.vp(0) == 2 and pos.cred(0) == 2 and pos.CUBES[0, aks] == 0
    # without a cube: no 2X
    assert E.assign_player(pos.D, pos.st, 0, BLUE, 2, 5) == L.M_FACES


def test_blue_for_active_red_of_all_deployed_for_others(position):
    pos = position(players=3)
    for p in (0, 1):
        pos.put(p, "l1-26")  # sector 7: blue 4 credits, red 3; starter-7 (red 2) is deployed behind it
    pos.put(1, "l1-28")      # sector 7 again: blue 2 VP, red 2 cr + 1 VP; l1-26 deployed too
    pos.v[ST.D1], pos.v[ST.D2] = 3, 4
    E.assign_all(pos.D, pos.st, 0)
    assert pos.cred(0) == 4                       # active: blue of the stationed card
    assert pos.cred(1) == 2 + 3 and pos.vp(1) == 0  # other: red of starter-7 + l1-26, not l1-28's red
    assert pos.cred(2) == 0                       # nothing deployed in 3, 4 or 7


def test_player_state_reads_by_name(position):
    pos = position()
    E.assign_player(pos.D, pos.st, 0, BLUE, 1, 6)  # the sum 7: starter-7's 3 credits
    state = L.player(pos.PS, 0)
    assert list(state) == list(L.PLAYER) and (state["cred"], state["inc"], state["in"]) == (3, 0, 1)


# ------------------------------------------------------------------------------------------- arrows


def test_reward_arrow_chain_each_sector_once(position):
    pos = position()
    pos.put(0, "l1-25")  # sector 7: blue 1 credit, arrow R
    pos.put(0, "l1-29")  # sector 8: blue nothing, arrow LR
    pos.put(0, "l1-33")  # sector 9: blue nothing, arrow LR
    # one die on 7: 7 (1 cr) -> 8 (arrow: go on right) -> 9 (go on) -> 10 (starter: 1 income, stop)
    E.collect(pos.D, pos.st, 0, BLUE, 7, -1)
    assert (pos.cred(0), int(pos.PS[0, L.PL.INC])) == (1, 1)
    # from 8 the two-way arrow picks the better side: right 9 -> 10 (1 income) vs left 7 (1 credit)
    pos.PS[0, L.PL.CRED] = pos.PS[0, L.PL.INC] = 0
    E.collect(pos.D, pos.st, 0, BLUE, 8, -1)
    assert (pos.cred(0), int(pos.PS[0, L.PL.INC])) == (0, 1)
    assert pos.AC[0, BLUE, 8, L.A_DIR] == 1


def test_red_arrow_chain(position):
    pos = position()
    pos.put(1, "l1-45")  # sector 12: red 1 VP + arrow L (starter-12 deployed: red 5 credits)
    pos.put(1, "l1-46")  # sector 12 again: l1-45 is deployed
    pos.put(1, "l1-42")  # sector 11: starter-11 deployed (red 4 credits); l1-42's red is not paid
    # red on 12: starter-12 (5 cr) + l1-45 (1 VP), then left to 11: starter-11 red 4 cr (no arrow)
    E.collect(pos.D, pos.st, 1, RED, 12, -1)
    assert (pos.cred(1), pos.vp(1)) == (9, 1)


# ------------------------------------------------------------------------------------- buy, income


def test_buy_spends_all_credits_and_not_buying_keeps_them(position):
    pos = position()
    slot = next(j for j in range(6) if pos.DISP[0, j] >= 0)
    k = int(pos.DISP[0, slot])
    pos.PS[0, L.PL.CRED] = 12
    E.buy_apply(pos.D, pos.st, 0, slot, True)  # level 1 slot
    assert pos.cred(0) == 0 and pos.BD[0, pos.cards[k].sector, L.B_STATION] == k
    assert pos.DISP[0, slot] == -1 and pos.OWNER[k] == 0
    # an ability buy pays the cost only
    k2 = int(pos.DISP[0, (slot + 1) % 6])
    pos.PS[1, L.PL.CRED] = 12
    E.buy_apply(pos.D, pos.st, 1, (slot + 1) % 6, False)
    assert pos.cred(1) == 12 - pos.cards[k2].cost
    # the normal buy phase with nothing worth buying keeps the credits (greedy_vp saves up)
    pos = position(policies=["greedy_vp"])
    pos.DISP[:, :] = -1
    pos.PS[2, L.PL.CRED] = 5  # no colony costs 5 or less
    E.buy_phase(pos.D, pos.st, 2)
    assert pos.cred(2) == 5


# ----------------------------------------------------------------------------------------- colonies


def colony_index(pos, sector):
    return next(q for q, c in enumerate(pos.sc.cards.colonies) if c.sector == sector)


def test_colony_gives_vp_closes_sector_deployed_keep_paying(position):
    pos = position()
    q = colony_index(pos, 7)
    E.place_colony(pos.D, pos.st, 0, q)
    E.refresh(pos.D, pos.st, 0)
    assert pos.vp(0) == 9 and pos.COLAV[q] == 0 and pos.BD[0, 7, L.B_STATION] == -1
    E.collect(pos.D, pos.st, 0, BLUE, 7, -1)   # blue of sector 7 no longer collected
    assert pos.cred(0) == 0
    E.collect(pos.D, pos.st, 0, RED, 7, -1)    # starter-7 was deployed: red 2 still paid
    assert pos.cred(0) == 2
    # no ship can be stationed there any more: every sector-7 card is unbuyable for seat 0
    seen = 0
    for lv in range(3):
        for j in range(6):
            k = pos.DISP[lv, j]
            if k >= 0 and pos.cards[k].sector == 7:
                assert PO.closed(PO.ship_rate(pos.D, pos.st, 0, k))
                seen += 1
    assert seen > 0


def test_colony_without_deploying_covers_the_station(position):
    pos = position(sets=["rules.colony_deploys_station=false"])
    E.place_colony(pos.D, pos.st, 0, colony_index(pos, 7))
    E.refresh(pos.D, pos.st, 0)
    assert pos.BD[0, 7, L.B_COVERED] == pos.idx["starter-7"] and pos.BD[0, 7, L.B_NDEP] == 0
    E.collect(pos.D, pos.st, 0, RED, 7, -1)
    assert pos.cred(0) == 0


def test_display_refill(position):
    pos = position()
    top = int(pos.DECK[1, pos.DP[1, 0]])
    left = int(pos.DP[1, 1])
    pos.DISP[1, 3] = -1
    E.refill_display(pos.D, pos.st)
    assert pos.DISP[1, 3] == top and pos.DP[1, 1] == left - 1
    pos.DP[2, 1] = 0  # empty level III deck: the slot stays empty
    pos.DISP[2, 0] = -1
    E.refill_display(pos.D, pos.st)
    assert pos.DISP[2, 0] == -1


# -------------------------------------------------------------------------------- setup and seating


def test_opening_purchase_start_player_and_ties():
    sc = load(GAME, players=4)
    D = GAME.inputs(sc)
    cards = card_list(sc)
    ties = 0
    starts = set()
    for gid in range(40):
        st = E.new_state(D)
        E.setup(D, st, 3, gid)
        a = E.state_arrays(D, st)
        PS, OPEN, v = a["PS"], a["OPEN"], a["v"]
        start = int(v[ST.FIRST])
        secs = OPEN[:4, L.OPEN_SECTOR]
        assert secs[start] == secs.max()  # highest opening sector starts
        assert bool(v[ST.START_TIE]) == ((secs == secs.max()).sum() > 1)
        ties += int(v[ST.START_TIE])
        starts.add(start)
        for s in range(4):           # each seat keeps its opening ship; the bonus goes by turn position
            pos = (s - start) % 4
            assert PS[s, L.PL.POS] == pos
            k = OPEN[s, 0]
            assert a["BD"][s, cards[k].sector, L.B_STATION] == k and a["OWNER"][k] == s
            assert PS[s, L.PL.OPENSEC] == cards[k].sector
            bonus = (0, 1, 2, 0)[pos]
            assert PS[s, L.PL.CRED] == 5 - cards[k].cost + bonus
            assert PS[s, L.PL.INC] == (0, 0, 0, 1)[pos]
    assert starts == {0, 1, 2, 3}  # any seat may move first
    assert ties > 0  # ties happen (4 players, 12 sectors) and are broken at random


def test_turns_go_round_from_the_first_player_and_each_seat_keeps_its_policy():
    """A seat is an identity (its policy): the opening decides who moves first, turns then go round in
    seat order from that seat, and the results say who it was (first_player)."""
    sc = load(GAME, players=3, policies=["greedy_vp", "weighted", "engine"])
    b = GAME.run_batch(sc, 5, np.arange(60))
    assert set(b.first_player.tolist()) == {0, 1, 2}
    gid = int(np.flatnonzero(b.first_player == 2)[0])
    t = GAME.run_batch(sc, 5, np.array([gid]), trace=True)
    assert t.first_player[0] == 2
    assert [int(e[1]) for e in t.events if e[0] == L.E_TURN][:6] == [2, 0, 1, 2, 0, 1]
    pol = kernel_arrays(sc)[DATA_FIELDS.index("POL")]  # the policy codes, by seat
    assert pol.tolist() == [sc.POLICIES.index(p) for p in sc.policies]


def test_turn_order_bonus_from_the_scenario_list():
    sets = ["rules.turn_order_bonus=[{credits: 0, income: 0}, {credits: 3}, {income: 2}, "
            "{credits: 1, income: 1}, {credits: 9}]"]
    sc = load(GAME, players=5, sets=sets)
    D = GAME.inputs(sc)
    cards = card_list(sc)
    st = E.new_state(D)
    E.setup(D, st, 1, 7)
    a = E.state_arrays(D, st)
    assert int(a["v"][ST.FIRST]) != 0  # bonuses go by position, not by seat
    for s in range(5):
        cr, inc = [(0, 0), (3, 0), (0, 2), (1, 1), (9, 0)][a["PS"][s, L.PL.POS]]
        k = a["OPEN"][s, 0]
        assert a["PS"][s, L.PL.CRED] == 5 - cards[k].cost + cr and a["PS"][s, L.PL.INC] == inc


def test_setup_shows_six_ships_of_each_level_and_the_twelve_colonies():
    # decks of 48, 48 and 36: six face up each; the 4 opening ships are Level I cards too
    D, st, a = started()
    assert list((a["DISP"] >= 0).sum(axis=1)) == [6, 6, 6]
    assert list(a["DP"][:, 1]) == [48 - 6 - 4, 48 - 6, 36 - 6]
    assert a["COLAV"].sum() == 12


def test_printed_turn_order_bonus_at_five_players():
    # the printed bonus: 1st nothing, 2nd +1 credit, 3rd +2 credits, 4th and 5th +1 income each
    cards = card_list(load(GAME, players=5))
    for gid in range(3):
        _, _, a = started(players=5, gid=gid)
        for s in range(5):
            pos = a["PS"][s, L.PL.POS]
            k = a["OPEN"][s, 0]
            assert a["PS"][s, L.PL.CRED] == 5 - cards[k].cost + (0, 1, 2, 0, 0)[pos]
            assert a["PS"][s, L.PL.INC] == (0, 0, 0, 1, 1)[pos]


def test_lightspeed_setup():
    sc = load(GAME, players=4, sets=["rules.variant=lightspeed"])
    D = GAME.inputs(sc)
    cards = card_list(sc)
    for gid in range(10):
        st = E.new_state(D)
        E.setup(D, st, 2, gid)
        a = E.state_arrays(D, st)
        PS, OPEN, v = a["PS"], a["OPEN"], a["v"]
        left = OPEN[:4, L.OPEN_CREDITS]
        start = int(v[ST.FIRST])
        best = left.max()
        assert left[start] == best
        tied = left == best
        assert OPEN[start, L.OPEN_SECTOR] == OPEN[:4, L.OPEN_SECTOR][tied].max()  # then highest sector bought
        bought_l1 = 0
        for s in range(4):
            pos = (s - start) % 4
            ks = [k for k in OPEN[s, :L.NOPEN_SHIPS] if k >= 0]
            cost = sum(cards[k].cost for k in ks)
            assert cost <= 15 and left[s] == 15 - cost
            assert all(cards[k].level in (1, 2) and a["OWNER"][k] == s for k in ks)
            assert PS[s, L.PL.CRED] == 15 - cost + (0, 1, 2, 0)[pos]
            assert PS[s, L.PL.INC] == 1 + (0, 0, 0, 1)[pos]
            bought_l1 += sum(cards[k].level == 1 for k in ks)
        # unbought cards went back under their decks: deck = 48 - 6 on display - bought
        assert a["DP"][0, 1] == 48 - 6 - bought_l1


# ------------------------------------------------------------------------------------ charge cubes


def test_charge_cube_on_activation_and_pip_squares_capacity(position):
    pos = position()
    shep = pos.put(0, "l3-5")  # U.E.st. Shepard, sector 2: squares A A <=2p <=3p, linked, +20 credits
    E.collect(pos.D, pos.st, 0, BLUE, 2, -1)
    E.collect(pos.D, pos.st, 0, BLUE, 2, -1)
    E.collect(pos.D, pos.st, 0, BLUE, 2, -1)
    assert pos.CUBES[0, shep] == 2  # 4 players: only the two 'A' squares are used
    E.free_abilities(pos.D, pos.st, 0, BLUE)
    assert pos.cred(0) == 20 and pos.CUBES[0, shep] == 0


@pytest.mark.parametrize("pip,caps", [("at_most", {2: 4, 3: 3, 4: 2, 5: 2}),
                                      ("exactly", {2: 3, 3: 3, 4: 2, 5: 2})])
def test_pip_squares_at_most_vs_exactly(pip, caps):
    for players, cap in caps.items():
        sc = load(GAME, players=players, sets=[f"rules.pip_squares={pip}"])
        CT = kernel_arrays(sc)[0]
        i = [c.id for c in card_list(sc)].index("l3-5")
        assert CT[i, L.F.CAP] == cap


def test_linked_ability_needs_all_squares(position):
    pos = position(players=2)  # Shepard needs all 4 squares with 2 players (at_most)
    shep = pos.put(0, "l3-5", cubes=3)
    E.free_abilities(pos.D, pos.st, 0, BLUE)
    assert pos.cred(0) == 0 and pos.CUBES[0, shep] == 3
    pos.CUBES[0, shep] = 4
    E.free_abilities(pos.D, pos.st, 0, BLUE)
    assert pos.cred(0) == 20


def test_cubes_follow_a_card_that_is_deployed(position):
    pos = position()
    aks = pos.put(0, "l2-31", cubes=1)   # 2X: 1 blue square, 1 red square
    pos.put(0, "l1-30")                  # sector 8 again: Aksyonov deployed, keeps its cube
    assert pos.CUBES[0, aks] == 1
    g = pos.put(0, "l3-8", cubes=3)      # Grissom: 3 blue squares, 2 red
    pos.put(0, "l1-9")                   # sector 3: Grissom deployed, 2 cubes fit
    assert pos.CUBES[0, g] == 2


# ------------------------------------------------------------------------------- charge abilities


def test_ability_shift_die(position):
    pos = position()
    c = pos.put(0, "l1-4", cubes=1)  # sector 1: dice arrow +1 (blue, 1 square)
    pos.put(0, "l1-30")              # sector 8: 5 credits
    assert E.assign_player(pos.D, pos.st, 0, BLUE, 3, 4) == L.M_SUM
    assert pos.cred(0) == 5 and pos.CUBES[0, c] == 0  # 7 moved to 8
    assert E.assign_player(pos.D, pos.st, 0, BLUE, 3, 4) == L.M_SUM
    assert pos.cred(0) == 5 + 3  # no cube: the plain sum 7


def test_ability_set_die(position):
    pos = position()
    c = pos.put(0, "l3-2", cubes=2)  # U.E.st. Gagarin: set a die + 1 credit, 2 squares (not linked)
    pos.put(0, "l1-30")              # sector 8: 5 credits
    pos.v[ST.DSET1] = pos.v[ST.DSET2] = 0
    E.dice_phase(pos.D, pos.st, 0, L.T_PREROLL)
    assert pos.v[ST.DSET1] == 1 and pos.v[ST.DSET2] == 1 and pos.CUBES[0, c] == 0
    assert pos.cred(0) == 2
    d1, d2 = int(pos.v[ST.D1]), int(pos.v[ST.D2])
    av = pos.AV[0, BLUE]
    best = lambda x, y: max(av[x] + av[y], av[x + y])  # noqa: E731
    assert best(d1, d2) == max(best(d1, v) for v in range(1, 7))  # second die: the best given the first
    E.roll(pos.D, pos.st, 0)  # set dice are not rolled
    assert (int(pos.v[ST.D1]), int(pos.v[ST.D2])) == (d1, d2)


def test_ability_reroll(position):
    pos = position()
    c = pos.put(0, "l2-9", cubes=1)  # reroll + 1 credit (blue)
    pos.put(0, "l1-30")
    pos.v[ST.D1], pos.v[ST.D2] = 1, 1  # snake eyes: 2 credits at best
    before = pos.rng.copy()
    E.dice_phase(pos.D, pos.st, 0, L.T_POSTROLL)
    assert pos.CUBES[0, c] == 0 and pos.cred(0) == 1
    assert not np.array_equal(before, pos.rng)  # a die was rolled again
    assert (pos.v[ST.D1] == 1) or (pos.v[ST.D2] == 1)  # only one die


def test_ability_swap_sectors_and_on_place_credits(position):
    pos = position()
    c = pos.put(0, "l2-24")  # Kubasov (sector 6): swap sectors 5 and 8, +1 credit per cube placed
    fives = pos.put(0, "l1-30")  # sector 8: 5 credits (starter-8 deployed behind it)
    E.add_cube(pos.D, pos.st, 0, c, BLUE)
    E.add_cube(pos.D, pos.st, 0, c, BLUE)
    E.add_cube(pos.D, pos.st, 0, c, BLUE)  # full at 4 players (2 squares): no cube, no credit
    assert pos.cred(0) == 2 and pos.CUBES[0, c] == 2
    assert E.try_fire(pos.D, pos.st, 0, c, BLUE)
    assert pos.BD[0, 5, L.B_STATION] == fives and pos.BD[0, 8, L.B_STATION] == pos.idx["starter-5"]
    assert pos.DEP[0, 5, 0] == pos.idx["starter-8"]  # deployed cards move too
    E.collect(pos.D, pos.st, 0, BLUE, 5, -1)
    assert pos.cred(0) == 2 + 5


def test_ability_exchange(position):
    pos = position()
    z = pos.put(0, "l2-35", cubes=1)  # Zudov (sector 9): exchange this card with another
    v = pos.put(0, "l2-48")           # sector 12: blue 7 VP (rarely rolled)
    assert E.try_fire(pos.D, pos.st, 0, z, BLUE)
    assert pos.BD[0, 9, L.B_STATION] == v and pos.BD[0, 12, L.B_STATION] == z


def test_ability_buy_at_cost(position):
    pos = position()
    c = pos.put(0, "l2-7", cubes=1)  # blue: buy a card paying its cost only
    pos.PS[0, L.PL.CRED] = 10
    owned = pos.OWNER.copy()
    assert E.try_fire(pos.D, pos.st, 0, c, BLUE)
    (k,) = np.flatnonzero((pos.OWNER == 0) & (owned != 0))
    assert pos.cred(0) == 10 - pos.cards[k].cost and pos.PS[0, L.PL.BOUGHT] == 1


def test_ability_claim_free_cards(position):
    pos = position()
    c = pos.put(0, "l2-47", cubes=1)  # Kovalyonok (blue): claim 3 Level I cards
    assert E.try_fire(pos.D, pos.st, 0, c, BLUE)
    n = int(pos.PS[0, L.PL.CLAIMED])
    assert n == 3 and pos.cred(0) == 0 and (pos.DISP[0] == -1).sum() == 3


def test_claim_reward_tereshkova(position):
    pos = position()
    pos.put(0, "l3-22")  # Tereshkova (sector 8): blue reward 'claim 2 Level I'
    E.collect(pos.D, pos.st, 0, BLUE, 8, -1)
    assert pos.PS[0, L.PL.CLQ1] == 2
    E.resolve_claims(pos.D, pos.st, 0)
    assert pos.PS[0, L.PL.CLAIMED] == 2 and pos.PS[0, L.PL.CLQ1] == 0


def test_ability_double_red_side_on_others_turn(position):
    pos = position()
    aks = pos.put(1, "l2-31", cubes=0)
    pos.put(1, "l1-30")      # Aksyonov deployed (red: 2X, 1 square)
    pos.CUBES[1, aks] = 1
    E.refresh(pos.D, pos.st, 1)
    # others' turn, dice 3+5: red of sector 8 (starter-8: 2 credits, Aksyonov: a cube) twice beats
    # the faces (nothing deployed in 3 or 5); the extra activation does not charge Aksyonov
    assert E.assign_player(pos.D, pos.st, 1, RED, 3, 5) == L.M_DOUBLE_SUM
    assert pos.cred(1) == 4 and pos.CUBES[1, aks] == 1


def test_ability_opponents_lose_vp_not_below_zero(position):
    pos = position()
    g = pos.put(0, "l3-20", cubes=1)  # Gordon (blue): all others lose 4 VP, then buy 2 at cost
    pos.PS[:, L.PL.VP] = [5, 10, 2, 0]
    assert E.try_fire(pos.D, pos.st, 0, g, BLUE)
    assert list(pos.PS[:, L.PL.VP]) == [5, 6, 0, 0]


def test_ability_credits(position):
    pos = position()
    g = pos.put(0, "l3-8", cubes=2)  # Grissom (blue): 3 credits per cube, squares not linked
    E.free_abilities(pos.D, pos.st, 0, BLUE)
    assert pos.cred(0) == 6 and pos.CUBES[0, g] == 0


def test_ability_place_and_move_charge(position):
    pos = position()
    shep = pos.put(0, "l3-5")            # Shepard: 2 linked squares at 4 players, +20 credits
    gris = pos.put(0, "l3-8", cubes=1)   # Grissom: a cube worth 3 credits
    col = pos.put(0, "l3-23", cubes=1)   # Collins (blue): place a charge + move a charge
    assert E.try_fire(pos.D, pos.st, 0, col, BLUE)
    assert pos.CUBES[0, shep] == 2 and pos.CUBES[0, gris] == 0 and pos.CUBES[0, col] == 0
    pos2 = position()
    shep = pos2.put(0, "l3-5")
    glenn = pos2.put(0, "l3-17", cubes=1)  # Glenn (blue): place a charge (1 linked square at 4p)
    assert E.try_fire(pos2.D, pos2.st, 0, glenn, BLUE)
    assert pos2.CUBES[0, shep] == 1 and pos2.CUBES[0, glenn] == 0


def test_ability_you_win(position):
    pos = position()
    w = pos.put(2, "l3-35", cubes=4)  # estimated 'You Win' card: 4 linked squares
    pos.PS[:, L.PL.VP] = [39, 20, 3, 10]
    E.free_abilities(pos.D, pos.st, 2, BLUE)
    assert pos.v[ST.OVER] == 1 and pos.v[ST.END] == L.END_YOU_WIN and pos.v[ST.YOU_WIN] == 2
    assert pos.CUBES[2, w] == 0


def test_ability_does_not_fire_when_it_does_not_pay(position):
    pos = position()
    g = pos.put(0, "l3-20", cubes=1)  # Gordon with nobody to hurt and nothing to buy (no credits)
    pos.DISP[:, :] = -1
    assert not E.try_fire(pos.D, pos.st, 0, g, BLUE)
    assert pos.CUBES[0, g] == 1


# ------------------------------------------------------------------------------------------- the end


def started(players=4, sets=(), gid=0):
    sc = load(GAME, players=players, sets=list(sets))
    D = GAME.inputs(sc)
    st = E.new_state(D)
    E.setup(D, st, 5, gid)
    return D, st, E.state_arrays(D, st)


def test_trigger_vp_finishes_the_round_with_equal_turns():
    D, st, a = started()
    a["PS"][2, L.PL.VP] = 40  # seat 2 has reached 40: the round is finished, then the game ends
    E.play_rounds(D, st)
    assert a["v"][ST.ROUND] == 1 and a["v"][ST.TRIGGER] == 1
    assert list(a["PS"][:, L.PL.TURNS]) == [1, 1, 1, 1]
    D, st, a = started()
    a["PS"][0, L.PL.VP] = 39  # below 40: the game goes on for more rounds
    E.play_rounds(D, st)
    turns = a["PS"][:, L.PL.TURNS]
    assert a["v"][ST.OVER] == 0  # (no 'You Win' in this game)
    assert a["v"][ST.ROUND] > 1 and (turns == turns[0]).all() and a["PS"][:, L.PL.VP].max() >= 40


def test_tie_rounds_only_tied_players_play():
    D, st, a = started()
    a["PS"][:, L.PL.VP] = [40, 12, 40, 30]
    n = E.tie_rounds(D, st)
    tr = int(a["v"][ST.TIE_ROUNDS])
    assert 1 <= tr <= 10
    assert a["PS"][1, L.PL.TURNS] == 0 and a["PS"][3, L.PL.TURNS] == 0
    assert a["PS"][0, L.PL.TURNS] == tr and a["PS"][2, L.PL.TURNS] == tr
    assert a["PS"][1, L.PL.VP] == 12 and a["PS"][3, L.PL.VP] <= 30  # frozen (only VP losses reach them)
    win = a["PS"][:, L.PL.IN]
    assert win[1] == win[3] == 0 and win.sum() == n
    if n == 1:
        assert a["PS"][np.argmax(win), L.PL.VP] > a["PS"][2 - np.argmax(win), L.PL.VP]


def test_tie_rounds_cap_shares_the_win():
    D, st, a = started(sets=["rules.tie_rounds_cap=0"])
    a["PS"][:, L.PL.VP] = [40, 12, 40, 30]
    assert E.tie_rounds(D, st) == 2
    assert list(a["PS"][:, L.PL.IN]) == [1, 0, 1, 0] and a["v"][ST.TIE_ROUNDS] == 0


def test_game_results_follow_the_end_rules():
    sc = load(GAME, players=3)
    b = GAME.run_batch(sc, 11, np.arange(60))
    for g in range(60):
        vp, win, reason = b.score[g], b.is_winner[g], b.extra["end_reason"][g]
        assert reason in (L.END_VP, L.END_SHARED, L.END_YOU_WIN)
        if reason != L.END_YOU_WIN:
            assert win.any()
            if vp.max() < 40:  # the trigger player lost VP afterwards ('opponents lose N VP')
                ev = GAME.run_batch(sc, 11, np.array([g]), trace=True).events
                assert L.E_TRIGGER in ev[:, 0] and L.E_LOSE_VP in ev[:, 0]
            if b.extra["tie_rounds"][g] == 0:
                assert (b.extra["turns"][g] == b.extra["turns"][g][0]).all()  # equal turns
                assert set(np.flatnonzero(win)) == set(np.flatnonzero(vp == vp.max()))
        if reason == L.END_SHARED:
            assert win.sum() > 1 and b.extra["tie_rounds"][g] == 10
