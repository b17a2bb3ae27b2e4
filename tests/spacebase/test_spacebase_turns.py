"""Space Base: each rule of the spec played through whole turns (engine.play_turn, the rounds and the
setup) on a built position with dice chosen by the test, asserting the outcome at the rule's boundary
(exactly at the limit and one below). Positions start from every player's 12 starting ships with an
empty market (no ships on display, empty decks, no colonies) unless a test offers cards."""
import numpy as np
import pytest

from analyzer.games.spacebase import GAME
from analyzer.games.spacebase import engine as E
from analyzer.games.spacebase import layout as L
from analyzer.games.spacebase.scenario import card_list
from analyzer.games.spacebase.state import ST
from analyzer.rng import below
from analyzer.scenario import load

BLUE, RED = L.BLUE, L.RED


# ------------------------------------------------------------------------------------ dice and rewards


def test_turn_active_takes_sum_or_faces_others_choose_their_own(position):
    t = position(market=False)
    t.put(1, "l1-3")   # seat 1: starter-1 deployed (red 1 credit)
    t.put(1, "l1-23")  # seat 1: starter-6 deployed (red 1 credit)
    t.turn(0, 1, 6)
    assert t.cred(0) == 3        # active: the sum 7 (starter-7 blue 3) beats faces 1 + 6 (1 + 1)
    assert t.cred(1) == 2        # seat 1: the faces (red 1 + 1) beat its empty sum 7
    assert t.cred(2) == t.cred(3) == 0  # nothing deployed: no red rewards
    t = position(market=False)
    t.turn(0, 2, 3)
    assert t.cred(0) == 2        # faces 2 and 3 (1 + 1) beat the sum 5 (1)


def test_turn_double_as_two_faces_activates_twice(position):
    t = position(market=False)
    t.put(0, "l1-10")  # sector 3 blue: 1 VP
    t.turn(0, 3, 3)
    assert t.vp(0) == 2 and t.cred(0) == 0


def test_turn_red_rewards_of_every_deployed_card_not_the_stationed_one(position):
    t = position(market=False, players=3)
    t.put(1, "l1-26")  # sector 7 blue 4, red 3: starter-7 (red 2) deployed
    t.put(1, "l1-28")  # sector 7 blue 2 VP, red 2 cr + 1 VP: l1-26 deployed too (its red pays)
    t.put(0, "l1-26")
    t.turn(0, 3, 4)
    assert t.cred(0) == 4                      # active: blue of its stationed l1-26
    assert (t.cred(1), t.vp(1)) == (2 + 3, 0)  # starter-7 + l1-26 red; l1-28's red is not paid
    t.turn(1, 3, 4)
    assert (t.cred(1), t.vp(1)) == (5, 2)      # its own turn: blue of l1-28 (2 VP), no red


def test_turn_reward_arrow_chains_one_way_to_the_end_of_the_arrows(position):
    t = position(market=False)
    t.put(0, "l1-25")  # 7: 1 credit, arrow right
    t.put(0, "l1-29")  # 8: arrow LR
    t.put(0, "l1-33")  # 9: arrow LR
    t.turn(0, 3, 4)    # 7 -> 8 -> 9 -> 10 (starter-10: 1 income, no arrow: stop)
    assert (t.cred(0), t.inc(0)) == (1, 1)
    # red arrow: seat 1 deploys l1-45 (red 1 VP, arrow left) behind l1-46 in 12; 11 has starter-11 (red
    # 4) deployed behind l1-42: a die on 12 pays starter-12 red 5 + 1 VP, then 11: red 4
    t = position(market=False)
    t.put(1, "l1-45")
    t.put(1, "l1-46")
    t.put(1, "l1-42")
    t.turn(0, 6, 6)    # seat 1: faces 6 and 6 (nothing) or the sum 12
    assert (t.cred(1), t.vp(1)) == (9, 1)


# the arrow cards: 7 points right, 8-11 both ways, 12 left
ARROW_CHAIN = ("l1-45", "l1-41", "l1-37", "l1-33", "l1-29", "l1-25")


def test_turn_reward_arrow_chain_stops_at_an_arrow_pointing_the_other_way(position):
    # a die on 12: l1-45 (3 VP, left) -> 11 -> 10 -> 9 -> 8 (two-way arrows, no reward) -> 7: l1-25
    # (1 credit) points right only, so the chain going left stops there: starter-6 (1 credit) is not taken
    t = scripted(position, [1])        # seat 0 takes the sum 12
    for cid in ARROW_CHAIN:
        t.put(0, cid)
    t.turn(0, 6, 6)
    assert (t.cred(0), t.vp(0)) == (1, 3)


@pytest.mark.parametrize("arrows_charge", [True, False])
def test_turn_red_arrow_chain_takes_the_neighbours_charge_and_stops_at_an_arrow_pointing_the_other_way(
        position, arrows_charge):
    # seat 1's red chain from 12: l1-45 (1 VP) -> 11 .. 8, where Aksyonov (red: one square) takes a cube
    # when the arrow carries the charge (rules.arrows_charge) -> 7: l1-25 (1 credit, right only): stop;
    # l1-21 deployed in 6 (red 1 credit) is not reached
    t = position(market=False, players=2, policies=["scripted"],
                 sets=["script=[0, 1]", f"rules.arrows_charge={str(arrows_charge).lower()}"])
    for cid in ARROW_CHAIN:
        t.deploy(1, cid)
    aks = t.deploy(1, "l2-31")
    t.deploy(1, "l1-21")
    t.turn(0, 6, 6)                    # seat 0 the faces, seat 1 the sum 12
    assert (t.cred(1), t.vp(1)) == (1, 1)
    assert t.CUBES[1, aks] == int(arrows_charge)


# ------------------------------------------------------------------------------------ buying


@pytest.mark.parametrize("start,buys", [(0, True), (-1, False)])
def test_turn_buy_costing_at_most_the_credits_spends_them_all(position, start, buys):
    t = position(market=False, policies=["greedy_vp"])
    k = t.idx["l1-36"]          # sector 9, cost 4, blue 3 VP: greedy_vp buys it when it can
    t.offer("l1-36")
    t.PS[0, L.PL.CRED] = 4 - 2 + start
    t.turn(0, 1, 1)             # +2 credits (starter-1 twice): exactly the cost, or one short
    if buys:
        assert t.station_of(0, 9) == k and t.deployed(0, 9) == [t.idx["starter-9"]]
        assert t.cred(0) == 0 and t.OWNER[k] == 0 and t.PS[0, L.PL.BOUGHT] == 1
    else:
        assert t.station_of(0, 9) == t.idx["starter-9"] and t.cred(0) == 3  # not buying keeps them
        assert t.DISP[0, 0] == k


def test_turn_buy_spends_credits_above_the_cost_too(position):
    t = position(market=False, policies=["greedy_vp"])
    t.offer("l1-36")
    t.PS[0, L.PL.CRED] = 9
    t.turn(0, 1, 1)
    assert t.station_of(0, 9) == t.idx["l1-36"] and t.cred(0) == 0


def test_turn_only_the_active_player_buys(position):
    t = position(market=False, policies=["greedy_vp"])
    t.offer("l1-36")
    t.PS[1, L.PL.CRED] = 50
    t.turn(0, 1, 1)
    assert t.DISP[0, 0] == t.idx["l1-36"] and t.cred(1) == 50


def test_turn_display_refilled_from_the_deck_after_a_buy(position):
    t = position(market=False, policies=["greedy_vp"])
    t.offer("l1-36")
    nxt = t.idx["l1-2"]
    t.DECK[0, 0], t.DP[0, 0], t.DP[0, 1] = nxt, 0, 1
    t.PS[0, L.PL.CRED] = 9
    t.turn(0, 1, 1)
    assert t.station_of(0, 9) == t.idx["l1-36"]
    assert t.DISP[0, 0] == nxt and t.DP[0, 1] == 0 and (t.DISP[0, 1:] == -1).all()


@pytest.mark.parametrize("start,buys", [(27 - 2, True), (27 - 3, False)])
def test_turn_colony_gives_vp_and_closes_its_sector(position, start, buys):
    t = position(market=False, policies=["greedy_vp"])
    q = t.offer_colony(7)       # cost 27, 9 VP
    t.PS[0, L.PL.CRED] = start
    t.turn(0, 1, 1)
    if not buys:
        assert t.vp(0) == 0 and t.COLAV[q] == 1 and t.cred(0) == 26
        return
    assert t.vp(0) == 9 and t.cred(0) == 0 and t.COLAV[q] == 0 and t.COLOWN[q] == 0
    assert t.station_of(0, 7) == -1 and t.deployed(0, 7) == [t.idx["starter-7"]]
    t.turn(0, 3, 4)             # its blue reward is gone (the faces 3 + 4 pay 2 instead of the sum)
    assert t.cred(0) == 2
    t.PS[0, L.PL.CRED] = 0
    t.turn(1, 3, 4)             # another player's 7: the deployed starter-7 still pays red 2
    assert t.cred(0) == 2
    t.offer("l1-26")            # a sector-7 ship (cost 2) cannot be stationed there any more...
    t.PS[0, L.PL.CRED] = 0
    t.turn(0, 1, 1)
    assert t.DISP[0, 0] == t.idx["l1-26"] and t.station_of(0, 7) == -1 and t.cred(0) == 2
    t.turn(1, 1, 1)             # ...while the same offer is bought where the sector is open
    assert t.station_of(1, 7) == t.idx["l1-26"]


@pytest.mark.parametrize("sector", range(1, 13))
@pytest.mark.parametrize("short", [0, 1])
def test_turn_colony_of_sector_s_costs_9_plus_3_per_sector_above_1_and_gives_s_plus_2_vp(position, sector, short):
    # e.g. sector 12: 9 + 3 * 11 = 42 credits buy it for 14 VP; 41 do not (no option to buy)
    cost = 9 + 3 * (sector - 1)
    t = scripted(position, [0, 0, 1])  # both seats the faces, then the colony when it is offered
    q = t.offer_colony(sector)
    t.PS[0, L.PL.CRED] = cost - 2 - short
    t.turn(0, 1, 1)                    # +2 credits (starter-1 twice)
    if short:
        assert t.COLAV[q] == 1 and t.vp(0) == 0 and t.cred(0) == cost - 1
    else:
        assert t.COLAV[q] == 0 and t.vp(0) == sector + 2 and t.cred(0) == 0


@pytest.mark.parametrize("colonies,credits", [(False, 0), (True, 32 - 27)])
def test_turn_ability_buy_takes_a_colony_only_with_ability_buy_colonies(position, colonies, credits):
    # l2-7 fired (blue: buy a card at its cost) with 32 credits and colony 7 (27) on offer: by default the
    # ability has nothing to buy and the normal buy takes the colony for all 32; with
    # rules.ability_buy_colonies the ability takes it for 27 and 5 are kept
    t = position(market=False, players=2, policies=["scripted"],
                 sets=["script=[0, 0, 1, 1]", f"rules.ability_buy_colonies={str(colonies).lower()}"])
    c = t.put(0, "l2-7", cubes=1)
    q = t.offer_colony(7)
    t.PS[0, L.PL.CRED] = 30
    t.turn(0, 1, 1)                    # faces 1 + 1: 32 credits; fire (yes), then the one buy offered
    assert t.CUBES[0, c] == 0 and t.COLAV[q] == 0 and t.vp(0) == 9
    assert t.cred(0) == credits


def test_turn_colony_covers_the_station_without_colony_deploys_station(position):
    t = position(market=False, policies=["greedy_vp"], sets=["rules.colony_deploys_station=false"])
    t.offer_colony(7)
    t.PS[0, L.PL.CRED] = 25
    t.turn(0, 1, 1)
    assert t.BD[0, 7, L.B_COVERED] == t.idx["starter-7"] and t.deployed(0, 7) == []
    t.turn(1, 3, 4)
    assert t.cred(0) == 0


@pytest.mark.parametrize("credits,income,after", [(0, 3, 3), (2, 3, 4), (1, 3, 3)])
def test_turn_income_floor_at_the_end_of_ones_own_turn(position, credits, income, after):
    t = position(market=False)
    t.PS[0, L.PL.CRED], t.PS[0, L.PL.INC] = credits, income
    t.PS[1, L.PL.CRED], t.PS[1, L.PL.INC] = 0, 5
    t.turn(0, 1, 1)             # +2 credits: below the income, equal, or above
    assert t.cred(0) == after
    assert t.cred(1) == 0       # not raised on another player's turn


def test_turn_income_floor_after_a_buy(position):
    t = position(market=False, policies=["greedy_vp"])
    t.offer("l1-36")
    t.PS[0, L.PL.CRED], t.PS[0, L.PL.INC] = 9, 2
    t.turn(0, 1, 1)
    assert t.station_of(0, 9) == t.idx["l1-36"] and t.cred(0) == 2


# ------------------------------------------------------------------------------------ charge


@pytest.mark.parametrize("cubes", [1, 2])
def test_turn_charge_cube_per_activation_up_to_the_needed_squares(position, cubes):
    t = position(market=False)
    g = t.put(0, "l3-8", cubes=cubes)  # Grissom (3): 3 blue squares, 3 credits a cube, fires when it pays
    t.turn(0, 3, 3)                    # sector 3 twice: a cube each, but never more than 3 in all
    assert t.cred(0) == 3 * 3 and t.CUBES[0, g] == 0


def test_turn_linked_ability_fires_only_with_every_needed_square(position):
    for players, need in ((4, 2), (3, 3), (2, 4)):
        t = position(market=False, players=players)
        s = t.put(0, "l3-5", cubes=need - 1)  # Shepard (2): A A <=2p <=3p linked, +20 credits
        t.turn(0, 3, 4)                       # the sum 7: 3 credits
        assert t.cred(0) == 3 and t.CUBES[0, s] == need - 1, players
        t.CUBES[0, s] = need
        t.turn(0, 3, 4)
        assert t.cred(0) == 3 + 3 + 20 and t.CUBES[0, s] == 0, players


def test_turn_unlinked_ability_fires_with_one_cube(position):
    t = position(market=False)
    g = t.put(0, "l3-8", cubes=1)
    t.turn(0, 4, 4)             # the sum 8: 3 credits; Grissom's one cube fires for 3 more
    assert t.cred(0) == 3 + 3 and t.CUBES[0, g] == 0


def test_turn_blue_abilities_fire_on_ones_own_turn_red_ones_on_the_others(position):
    t = position(market=False)
    g = t.deploy(0, "l3-8", cubes=2)   # seat 0: Grissom deployed, red: 3 credits a cube
    s = t.put(1, "l3-5", cubes=2)      # seat 1: Shepard stationed, blue: +20 credits (2 squares at 4p)
    t.deploy(1, "l3-20")               # seat 1 also holds a red ability (Gordon, no cube): its red side acts
    t.turn(0, 1, 1)                    # seat 0: faces 1 and 1 (starter-1 blue twice); seat 1: the sum 2
    assert t.cred(0) == 2 and t.CUBES[0, g] == 2   # its red Grissom waits for another player's turn
    assert t.cred(1) == 1 and t.CUBES[1, s] == 2   # (starter-2 red); its blue Shepard waits for its own
    t.turn(1, 3, 4)                    # seat 1's turn: the sum 7 (starter-7 blue 3); seat 0 gains nothing
    assert t.cred(0) == 2 + 3 + 3 and t.CUBES[0, g] == 0
    assert t.cred(1) == 1 + 3 + 20 and t.CUBES[1, s] == 0


def test_turn_cubes_follow_a_card_that_is_deployed(position):
    t = position(market=False, policies=["greedy_vp"])
    r = t.put(0, "l2-9", cubes=3)   # sector 3: reroll, 3 blue squares, 2 red
    t.put(0, "l1-30")               # 8: 5 credits; dice 4 + 4 -> the sum 8 is the best roll (no reroll)
    t.offer("l1-10")                # sector 3, 1 VP: greedy_vp buys it, l2-9 is deployed
    t.turn(0, 4, 4)
    assert t.station_of(0, 3) == t.idx["l1-10"] and r in t.deployed(0, 3)
    assert t.CUBES[0, r] == 2


# ------------------------------------------------------------------------------------ abilities


def test_turn_dice_arrow_moves_the_sum_up_to_its_reach(position):
    t = position(market=False)
    c = t.put(0, "l1-4", cubes=1)  # 1: dice arrow +1
    t.put(0, "l1-34")              # 9: 6 credits, two beyond the sum 7: out of reach
    t.turn(0, 3, 4)
    assert t.cred(0) == 3 and t.CUBES[0, c] == 1
    t.put(0, "l1-30")              # 8: 5 credits, one beyond
    t.turn(0, 3, 4)
    assert t.cred(0) == 3 + 5 and t.CUBES[0, c] == 0
    t = position(market=False)
    c = t.put(0, "l2-8", cubes=1)  # 2: dice arrow +2
    t.put(0, "l1-34")
    t.turn(0, 3, 4)
    assert t.cred(0) == 6 and t.CUBES[0, c] == 0


@pytest.mark.parametrize("cubes", [1, 2])
def test_turn_set_die_one_die_per_cube(position, cubes):
    t = position(market=False)
    t.put(0, "l3-2", cubes=cubes)       # Gagarin: set a die + 1 credit; 2 blue squares
    t.put(0, "l1-30")                   # 8: 5 credits
    t.turn(0, 1, 1)                     # dice not set are rolled: 1 (and 1)
    assert (int(t.v[ST.DSET1]), int(t.v[ST.DSET2])) == ((1, 1) if cubes == 2 else (1, 0))
    assert t.PS[0, L.PL.ABIL] == cubes   # one charge per die set
    if cubes == 1:
        assert t.v[ST.D2] == 1


def test_turn_reroll_one_die_after_the_roll(position, rolling):
    t = position(market=False)
    t.put(0, "l2-9", cubes=1)           # reroll + 1 credit
    t.put(0, "l1-30")
    t.turn(0, 1, 1)                     # 1 + 1 (2 credits) is worth rerolling a die
    st = np.array([rolling(1, 1)], np.uint64)
    below(st, 6), below(st, 6)
    face = below(st, 6) + 1             # the stream's third die
    assert t.PS[0, L.PL.ABIL] == 1
    assert (int(t.v[ST.D1]), int(t.v[ST.D2])) == (face, 1)  # the first die rerolled (both alike)


def test_turn_swap_sectors(position):
    t = position(market=False)
    k = t.put(0, "l2-24", cubes=2)      # Kubasov (6): swap sectors 5 and 8; 2 linked squares at 4p
    five = t.put(0, "l1-30")            # 8: 5 credits, starter-8 deployed
    t.turn(0, 1, 1)                     # the swap fires after the rewards (it pays: 8 is rarer than 5)
    assert t.CUBES[0, k] == 0
    assert t.station_of(0, 5) == five and t.station_of(0, 8) == t.idx["starter-5"]
    assert t.deployed(0, 5) == [t.idx["starter-8"]]
    t.turn(0, 5, 5)
    assert t.cred(0) == 2 + 10


def test_turn_ability_buy_pays_the_cost_only(position):
    t = position(market=False, policies=["greedy_vp"])
    c = t.put(0, "l2-7", cubes=1)       # blue: buy a card paying its cost
    t.offer("l1-36")                    # cost 4, 3 VP
    t.PS[0, L.PL.CRED] = 8
    t.turn(0, 3, 4)                     # +3: 11 credits; the ability buys l1-36 for 4, 7 are kept
    assert t.station_of(0, 9) == t.idx["l1-36"] and t.CUBES[0, c] == 0
    assert t.cred(0) == 11 - 4


def test_turn_claim_free_cards(position):
    t = position(market=False)
    c = t.put(0, "l2-47", cubes=1)      # Kovalyonok (blue): claim 3 Level I cards
    for cid in ("l1-2", "l1-6", "l1-10", "l1-14"):
        t.offer(cid)
    t.turn(0, 3, 4)
    assert t.PS[0, L.PL.CLAIMED] == 3 and t.CUBES[0, c] == 0
    assert (t.OWNER == 0).sum() == 3 + t.PS[0, L.PL.BOUGHT]  # (the buy may take the fourth)


def test_turn_claim_reward(position):
    t = position(market=False)
    t.put(0, "l3-22")                   # Tereshkova (8): blue reward 'claim 2 Level I'
    for cid in ("l1-2", "l1-6", "l1-10"):
        t.offer(cid)
    t.turn(0, 4, 4)
    assert t.PS[0, L.PL.CLAIMED] == 2 and (t.DISP[0] >= 0).sum() == 1


def test_turn_2x_takes_the_sum_twice_and_does_not_charge_itself(position):
    # a 2X card with three squares (Aksyonov has one): the extra activation must not add a cube
    sc = load(GAME)
    i = [c.id for c in sc.cards.ships].index("l2-31")
    t = position(market=False, sets=[f"cards.ships.{i}.blue.charge.slots=[A, A, A]"])
    a = t.put(0, "l2-31", cubes=2)      # sector 8
    t.turn(0, 3, 5)                     # 8 twice (a cube each) beats 3 and 5 (1 credit each)
    assert t.cred(0) == 0
    assert t.CUBES[0, a] == 2 - 1 + 1   # spent one, the normal activation puts one back, the extra none


def test_turn_2x_faces_plus_one_die_again(position):
    t = position(market=False)
    a = t.put(0, "l2-31", cubes=1)
    t.put(0, "l1-18")                   # 5: 1 VP
    t.put(0, "l1-5")                    # 2: 2 credits
    t.turn(0, 2, 5)
    assert (t.vp(0), t.cred(0)) == (2, 2) and t.CUBES[0, a] == 0


@pytest.mark.parametrize("vps,after", [([5, 4, 3, 0], [5, 0, 0, 0]), ([5, 5, 9, 1], [5, 1, 5, 0])])
def test_turn_opponents_lose_vp_not_below_zero(position, vps, after):
    t = position(market=False)
    g = t.put(0, "l3-20", cubes=1)      # Gordon (blue): all others lose 4 VP (and buy 2 at cost)
    t.PS[:, L.PL.VP] = vps
    t.turn(0, 5, 6)
    assert list(t.PS[:, L.PL.VP]) == after and t.CUBES[0, g] == 0


def test_turn_you_win_ends_the_game_at_once(position):
    t = position(market=False)
    w = t.put(2, "l3-35", cubes=4)      # 'You Win': 4 linked squares
    t.PS[:, L.PL.VP] = [39, 20, 3, 10]
    t.turn(2, 5, 6)
    assert t.v[ST.OVER] == 1 and t.v[ST.END] == L.END_YOU_WIN and t.v[ST.YOU_WIN] == 2
    t = position(market=False)
    w = t.put(2, "l3-35", cubes=3)      # one cube short
    t.turn(2, 5, 6)
    assert t.v[ST.OVER] == 0 and t.CUBES[2, w] == 3


# ------------------------------------------------------------------------------------ issue 13 rules


def zudov_table(position, mode):
    """Seat 1 with Zudov (exchange, red: one square, charged) deployed in 9, and a stationed l1-34 in 9
    over it; its other cards are starters. Seat 0's turn fires seat 1's red exchange."""
    t = position(market=False, sets=[f"rules.exchange={mode}"])
    z = t.put(1, "l2-35")
    t.put(1, "l1-34")                   # 9: l1-34 stationed, Zudov deployed behind it
    t.CUBES[1, z] = 1
    E.refresh(t.D, t.st, 1)
    t.put(1, "l1-30")                   # 8: starter-8 (red 2) deployed behind l1-30
    return t, z


def test_turn_exchange_deployed_card_takes_a_station_by_default(position):
    t, z = zudov_table(position, "any_station_card")
    t.turn(0, 5, 6)
    assert t.CUBES[1, z] == 0
    # the best station for it: 12 (starter-12's red 5 credits is worth deploying in 9, rolled more often)
    assert t.station_of(1, 12) == z
    assert t.deployed(1, 9) == [t.idx["starter-9"], t.idx["starter-12"]]


def test_turn_exchange_same_kind_swaps_deployed_cards_only(position):
    t, z = zudov_table(position, "same_kind")
    t.turn(0, 5, 6)
    assert all(t.station_of(1, s) != z for s in range(1, 13))    # never stationed
    assert t.CUBES[1, z] == 0 and t.deployed(1, 8) == [z]
    assert t.deployed(1, 9) == [t.idx["starter-9"], t.idx["starter-8"]]


def test_turn_exchange_stationed_card_swaps_stations_in_both_readings(position):
    for mode in ("any_station_card", "same_kind"):
        t = position(market=False, sets=[f"rules.exchange={mode}"])
        z = t.put(0, "l2-35", cubes=1)  # 9
        v = t.put(0, "l2-48")           # 12: 7 VP
        t.turn(0, 1, 2)
        assert t.station_of(0, 9) == v and t.station_of(0, 12) == z, mode


@pytest.mark.parametrize("mode,fires", [("others_rolls", True), ("never", False)])
def test_turn_red_set_die_on_another_players_roll(position, mode, fires):
    t = position(market=False, sets=[f"rules.red_dice_abilities={mode}"])
    t.deploy(1, "l3-2", cubes=1)        # Gagarin deployed: red set a die + 1 credit, 1 square
    t.turn(0, 1, 1)
    assert t.PS[1, L.PL.ABIL] == int(fires) and bool(t.v[ST.DSET1]) == fires
    assert t.cred(1) == int(fires)      # the card's +1 credit (its only red reward is a cube)


@pytest.mark.parametrize("mode,fires", [("others_rolls", True), ("never", False)])
def test_turn_red_reroll_on_another_players_roll(position, mode, fires):
    t = position(market=False, sets=[f"rules.red_dice_abilities={mode}"])
    t.deploy(1, "l2-9", cubes=1)        # red: reroll, 2 squares
    t.put(1, "l1-26")                   # 7: starter-7 deployed (red 2): worth rerolling 1 + 1 for
    t.put(1, "l1-23")                   # 6: starter-6 deployed (red 1)
    t.turn(0, 1, 1)
    assert t.PS[1, L.PL.ABIL] == int(fires)


def stack_level1_deck(D, st, cids, idx):
    """Put these Level I ships (in this order) on top of the Level I deck, swapping each with the card
    there (taken from the display if it is face up) so every card stays exactly once in the game."""
    a = E.state_arrays(D, st)
    deck, disp, top = a["DECK"][0], a["DISP"][0], int(a["DP"][0, 0])
    live = [(top + i) % len(deck) for i in range(int(a["DP"][0, 1]))]
    for i, cid in enumerate(cids):
        k, pos = idx[cid], live[i]
        if k in disp:
            disp[disp == k] = deck[pos]
        else:
            j = next(j for j in live if deck[j] == k)
            deck[j] = deck[pos]
        deck[pos] = k


@pytest.mark.parametrize("one_per_sector", [False, True])
def test_lightspeed_opening_two_ships_of_one_sector(one_per_sector):
    sc = load(GAME, players=2, sets=["rules.variant=lightspeed", "rules.lightspeed.draw_l2=0",
                                     f"rules.lightspeed_one_per_sector={str(one_per_sector).lower()}"])
    D = GAME.inputs(sc)
    st = E.new_state(D)
    E.reset(D, st, 1, 0)
    a = E.state_arrays(D, st)
    idx = {c.id: i for i, c in enumerate(card_list(sc))}
    # seat 0 sees l1-21 (6: cost 4, blue 2 credits), l1-22 (6: cost 2, blue 1 VP), l1-3 and
    # l1-7 (cost 2 each), and no Level II card: buying all four is best where the rules allow it
    stack_level1_deck(D, st, ["l1-21", "l1-22", "l1-3", "l1-7", "l1-11", "l1-15", "l1-19", "l1-2"], idx)
    start, tie = E.opening_lightspeed(D, st)
    E.seat_players(D, st, start, tie)
    seat = 0                         # opening player 0 is seat 0, whoever starts
    bought = set(a["OPEN"][0, :16]) - {-1}
    pair = {idx["l1-21"], idx["l1-22"]}
    assert bought == pair | {idx["l1-3"], idx["l1-7"]} if not one_per_sector else \
        bought == {idx["l1-22"], idx["l1-3"], idx["l1-7"]}
    cost = sum(sc.cards.ships[k - 12].cost for k in bought)
    assert a["OPEN"][0, 16] == 15 - cost
    st = a["BD"][seat, 6, L.B_STATION]
    dep = list(a["DEP"][seat, 6, :a["BD"][seat, 6, L.B_NDEP]])
    if one_per_sector:
        assert len(dep) == 1 and dep[0] == idx["starter-6"]
    else:  # bought in order: l1-21 first (deployed), then l1-22, stationed in front of it
        assert st == idx["l1-22"] and dep == [idx["starter-6"], idx["l1-21"]]
        assert a["OWNER"][idx["l1-21"]] == a["OWNER"][idx["l1-22"]] == seat


# ------------------------------------------------------------------------------------ the end


@pytest.mark.parametrize("vp,ends", [(40, True), (39, False)])
def test_rounds_end_at_the_trigger_vp_after_the_whole_round(position, vp, ends):
    t = position(market=False, sets=["rules.max_rounds=3"])
    t.v[ST.ROUND] = 0
    t.PS[2, L.PL.VP] = vp        # nobody gains VP here (starters, empty market)
    E.play_rounds(t.D, t.st)
    assert bool(t.v[ST.TRIGGER]) == ends
    assert t.v[ST.ROUND] == (1 if ends else 3)
    assert list(t.PS[:, L.PL.TURNS]) == [int(t.v[ST.ROUND])] * 4  # equal turns: the round is finished


def test_trigger_reached_during_the_first_players_turn_finishes_the_round(position):
    t = position(market=False, sets=["rules.max_rounds=3"])
    t.v[ST.ROUND] = 0
    for cid in ("l1-2", "l1-6", "l1-10", "l1-14", "l1-18", "l1-22"):
        t.put(0, cid)           # sectors 1-6 pay 1 VP: every roll gives seat 0 at least 1 VP... as faces
    t.PS[0, L.PL.VP] = 39
    E.play_rounds(t.D, t.st)
    assert t.v[ST.TRIGGER] == 1 and t.v[ST.ROUND] == 1
    assert list(t.PS[:, L.PL.TURNS]) == [1, 1, 1, 1]


@pytest.mark.parametrize("vp,ends", [(39, True), (38, False)])
def test_trigger_reached_by_another_player_on_the_active_players_turn(position, vp, ends):
    t = position(market=False)
    t.deploy(1, "l1-28")        # seat 1: red of 7 pays 2 credits + 1 VP
    t.PS[1, L.PL.VP] = vp
    t.turn(0, 3, 4)             # seat 0's turn; seat 1 takes the sum 7: 39 + 1 = 40 reaches the trigger
    assert t.vp(1) == vp + 1 and t.vp(0) == 0
    assert bool(t.v[ST.TRIGGER]) == ends


def test_most_vp_wins_by_one(position):
    t = position(market=False)
    t.PS[:, L.PL.VP] = [40, 12, 41, 30]
    assert E.tie_rounds(t.D, t.st) == 1
    assert t.v[ST.TIE_ROUNDS] == 0 and list(t.PS[:, L.PL.IN]) == [0, 0, 1, 0]


@pytest.mark.parametrize("cap", [0, 2])
def test_tie_rounds_among_the_tied_players_up_to_the_cap(position, cap):
    t = position(market=False, sets=[f"rules.tie_rounds_cap={cap}"])
    t.PS[:, L.PL.VP] = [40, 12, 40, 30]   # nobody gains VP: the tie stays
    n = E.tie_rounds(t.D, t.st)
    assert n == 2 and t.v[ST.TIE_ROUNDS] == cap
    assert list(t.PS[:, L.PL.TURNS]) == [cap, 0, cap, 0]
    assert list(t.PS[:, L.PL.IN]) == [1, 0, 1, 0]


def test_tie_round_broken_by_the_tied_players_own_turns(position):
    t = position(market=False)
    for cid in ("l1-2", "l1-6", "l1-10", "l1-14", "l1-18", "l1-22"):
        t.put(2, cid)           # seat 2 gains VP on each own turn (faces 1-6 pay 1 VP); seat 0 cannot
    t.PS[:, L.PL.VP] = [40, 12, 40, 41 - 1]
    t.PS[3, L.PL.VP] = 30
    n = E.tie_rounds(t.D, t.st)
    assert n == 1 and t.v[ST.TIE_ROUNDS] == 1
    assert list(t.PS[:, L.PL.IN]) == [0, 0, 1, 0] and list(t.PS[:, L.PL.TURNS]) == [1, 0, 1, 0]


# ------------------------------------------------------------------------------------ decisions as options
# The scripted policy takes the script's option indices in game order (decisions.py lists each decision's
# options): these drive the rules through choices no heuristic would make. In a 2-player turn without
# abilities the decisions are: the active player's dice assignment, the other's, then the active buy
# (asked only when something is affordable).


def scripted(position, script, players=2):
    return position(market=False, players=players, policies=["scripted"], sets=[f"script={script}"])


@pytest.mark.parametrize("index,credits", [(0, 2), (1, 3)])
def test_scripted_assignment_options_are_the_faces_then_the_sum(position, index, credits):
    t = scripted(position, [index])
    t.turn(0, 1, 6)                  # faces 1 and 6: 1 + 1 credits; the sum 7 (starter-7): 3
    assert t.cred(0) == credits


@pytest.mark.parametrize("index,bought", [(0, None), (1, "l1-36"), (2, "l1-38")])
def test_scripted_buy_options_are_no_buy_then_each_affordable_ship(position, index, bought):
    t = scripted(position, [0, 0, index])
    t.offer("l1-36")                 # sector 9, cost 4
    t.offer("l1-38")
    t.offer("l2-48")                 # cost 9: not affordable, not an option
    t.PS[0, L.PL.CRED] = 2            # + 2 from the faces 2 and 3
    t.turn(0, 2, 3)
    if bought is None:               # declining is legal even with credits enough (no heuristic here)
        assert t.cred(0) == 4 and t.DISP[0, 0] == t.idx["l1-36"]
    else:
        c = t.idx[bought]
        assert t.station_of(0, t.cards[c].sector) == c and t.cred(0) == 0


@pytest.mark.parametrize("index,face", [(0, None), (1, 1), (6, 6), (7, None)])
def test_scripted_set_die_options_are_no_then_each_face_of_each_free_die(position, index, face):
    t = scripted(position, [index])
    t.put(0, "l3-2", cubes=1)        # Gagarin: set a die + 1 credit
    t.turn(0, 4, 4)
    assert t.PS[0, L.PL.ABIL] == (0 if index == 0 else 1)
    if face is None:                 # 0: not fired; 7: die 2 set to 1 (options 7..12)
        assert int(t.v[ST.DSET1]) == 0
        assert index == 0 or (int(t.v[ST.DSET2]), int(t.v[ST.D2])) == (1, 1)
    else:
        assert (int(t.v[ST.DSET1]), int(t.v[ST.D1])) == (1, face)


@pytest.mark.parametrize("index,credits,spent", [(0, 2, False), (1, 3, False), (2, 3, True), (3, 6, True),
                                                  (4, 6, True)])
def test_scripted_dice_arrow_options_are_each_sector_the_card_reaches(position, index, credits, spent):
    """Options for 3 + 4 with a dice arrow +2 ready: the faces, the sum 7, then 8 and 9 by the arrow;
    a script index past the last option is a broken test, clamped to the last option (9)."""
    t = scripted(position, [index])
    c = t.put(0, "l2-8", cubes=1)    # 2: dice arrow +2
    t.put(0, "l1-34")                # 9: 6 credits (starters 7 and 8: 3)
    t.turn(0, 3, 4)
    assert t.cred(0) == credits and t.CUBES[0, c] == (0 if spent else 1)


@pytest.mark.parametrize("index,credits,income", [(0, 1, 1), (1, 3, 0)])
def test_scripted_two_way_arrow_options_are_right_then_left(position, index, credits, income):
    """l1-29 (sector 8: no reward, arrow both ways) activated by the sum 4 + 4: its owner chooses the
    direction. Right: starter-9 (1 income; credits then raised to income 1); left: starter-7 (3 credits)."""
    t = scripted(position, [1, index, 0])      # seat 0 takes the sum, directs the arrow; seat 1 takes the faces
    t.put(0, "l1-29")
    t.turn(0, 4, 4)
    assert (t.cred(0), t.inc(0)) == (credits, income)


@pytest.mark.parametrize("index", [0, 1, 2])
def test_scripted_reroll_options_are_no_then_each_die(position, rolling, index):
    t = scripted(position, [index])
    t.put(0, "l2-9", cubes=1)        # reroll + 1 credit
    t.turn(0, 1, 1)
    st = np.array([rolling(1, 1)], np.uint64)
    below(st, 6), below(st, 6)
    face = below(st, 6) + 1          # the reroll's result
    assert face != 1                 # (the stream makes the reroll visible)
    dice = [1, 1]
    if index:
        dice[index - 1] = face
    assert [int(t.v[ST.D1]), int(t.v[ST.D2])] == dice and t.PS[0, L.PL.ABIL] == (index > 0)


@pytest.mark.parametrize("index,claimed", [(0, None), (1, "l1-2"), (2, "l1-10")])
def test_scripted_claim_options_are_no_then_each_slot_outside_ones_colony_sectors(position, index, claimed):
    """Tereshkova's reward claims 2 Level I ships; l1-6 (sector 2, under seat 0's colony) is no option:
    the options are no claim, slot 0 (l1-2), slot 2 (l1-10). The second claim is declined."""
    t = scripted(position, [1, 0, index, 0])  # seat 0 takes the sum 8, seat 1 the faces, then the claims
    t.put(0, "l3-22")                # Tereshkova (8): blue reward 'claim 2 Level I'
    for cid in ("l1-2", "l1-6", "l1-10"):
        t.offer(cid)
    E.place_colony(t.D, t.st, 0, t.offer_colony(2))
    t.turn(0, 4, 4)
    assert t.PS[0, L.PL.CLAIMED] == (claimed is not None)
    on_display = {"l1-2", "l1-6", "l1-10"} - {claimed}
    assert {t.cards[k].id for k in t.DISP[0] if k >= 0} == on_display
    if claimed:
        c = t.idx[claimed]
        assert t.station_of(0, t.cards[c].sector) == c


def kubasov_table(position, script):
    """Seat 0 with Kubasov (6: swap sectors 5 and 8; 4 linked squares at 2 players) charged and l1-30
    (5 credits) stationed in 8; the dice 1 + 1 taken as faces by both seats (script indices 0, 0)."""
    t = scripted(position, [0, 0, *script])
    k = t.put(0, "l2-24", cubes=4)
    t.put(0, "l1-30")
    t.turn(0, 1, 1)
    return t, k


@pytest.mark.parametrize("fire", [0, 1])
def test_scripted_fire_options_are_no_then_yes(position, fire):
    t, k = kubasov_table(position, [fire])     # fired, its swap is then declined (past the script: option 0)
    assert t.PS[0, L.PL.ABIL] == fire and t.CUBES[0, k] == (0 if fire else 4)
    assert t.station_of(0, 8) == t.idx["l1-30"]


@pytest.mark.parametrize("swap", [0, 1])
def test_scripted_swap_options_are_no_then_yes(position, swap):
    t, k = kubasov_table(position, [1, swap])
    assert t.PS[0, L.PL.ABIL] == 1 and t.CUBES[0, k] == 0
    five, eight = t.idx["starter-5"], t.idx["l1-30"]
    assert (t.station_of(0, 5), t.station_of(0, 8)) == ((eight, five) if swap else (five, eight))
    assert t.deployed(0, 5) == ([t.idx["starter-8"]] if swap else [])


@pytest.mark.parametrize("index,sector", [(0, None), (1, 1), (11, 12)])
def test_scripted_exchange_options_of_a_stationed_card_are_every_other_station(position, index, sector):
    """Zudov stationed in 9 (one cube): no exchange, then the stations of 1..8 and 10..12."""
    t = scripted(position, [0, 0, 1, index])
    z = t.put(0, "l2-35", cubes=1)
    t.turn(0, 1, 1)
    assert t.PS[0, L.PL.ABIL] == 1
    if sector is None:
        assert t.station_of(0, 9) == z
    else:
        assert t.station_of(0, sector) == z and t.station_of(0, 9) == t.idx[f"starter-{sector}"]


@pytest.mark.parametrize("index,sector", [(0, None), (1, 1), (9, 9), (12, 12)])
def test_scripted_exchange_options_of_a_deployed_card_are_every_station_its_own_included(position, index, sector):
    """Seat 1's Zudov deployed in 9 behind l1-34 (rules.exchange any_station_card, fired on seat 0's
    turn): no exchange, then the station of each sector 1..12; the card taken is deployed in its place."""
    t = scripted(position, [0, 0, 1, index])
    z = t.put(1, "l2-35")
    l134 = t.put(1, "l1-34")         # 9: l1-34 stationed, Zudov deployed behind starter-9
    t.CUBES[1, z] = 1
    E.refresh(t.D, t.st, 1)
    t.turn(0, 1, 1)
    assert t.PS[1, L.PL.ABIL] == 1 and t.CUBES[1, z] == 0
    if sector is None:
        assert t.deployed(1, 9) == [t.idx["starter-9"], z]
        return
    taken = l134 if sector == 9 else t.idx[f"starter-{sector}"]
    assert t.station_of(1, sector) == z and t.deployed(1, 9) == [t.idx["starter-9"], taken]


@pytest.mark.parametrize("index,partner", [(0, None), (1, "starter-8"), (2, "starter-11")])
def test_scripted_exchange_options_same_kind_are_cards_deployed_in_other_sectors(position, index, partner):
    """rules.exchange same_kind: seat 1's deployed Zudov (9) may take the place of starter-8 or
    starter-11 (deployed in 8 and 11), never of starter-9, deployed in its own sector."""
    t = position(market=False, players=2, policies=["scripted"], sets=[f"script={[0, 0, 1, index]}", "rules.exchange=same_kind"])
    z = t.put(1, "l2-35")
    t.put(1, "l1-34")
    t.put(1, "l1-30")                # 8: starter-8 deployed
    t.put(1, "l1-42")                # 11: starter-11 deployed
    t.CUBES[1, z] = 1
    E.refresh(t.D, t.st, 1)
    t.turn(0, 1, 1)
    assert t.PS[1, L.PL.ABIL] == 1
    if partner is None:
        assert t.deployed(1, 9) == [t.idx["starter-9"], z]
    else:
        s = t.cards[t.idx[partner]].sector
        assert t.deployed(1, s) == [z] and t.deployed(1, 9) == [t.idx["starter-9"], t.idx[partner]]


def glenn_table(position, index):
    """Seat 0 fires Glenn (6: place a cube; 2 linked squares at 2 players). The cards with an empty
    needed square: Shepard stationed in 2 (blue, 4 squares), Zholodov deployed in 7 (red, 1 square),
    and Glenn itself once fired, which is no option: no cube, Shepard, Zholodov."""
    t = scripted(position, [0, 0, 1, index])
    g = t.put(0, "l3-17", cubes=2)
    sh = t.put(0, "l3-5")
    zh = t.deploy(0, "l2-27")
    t.turn(0, 1, 1)
    return t, g, sh, zh


@pytest.mark.parametrize("index", [0, 1, 2])
def test_scripted_place_options_are_no_then_each_other_card_with_an_empty_square(position, index):
    t, g, sh, zh = glenn_table(position, index)
    assert t.PS[0, L.PL.ABIL] == 1
    assert [int(t.CUBES[0, c]) for c in (g, sh, zh)] == [[0, 0, 0], [0, 1, 0], [0, 0, 1]][index]


def collins_table(position, script):
    """Seat 0 fires Collins (8: place a cube, then move one; 1 square) and places none. Cubes on:
    Shepard (2, 2 of 4 squares), Schirra (5, 2 of 3; 2 credits per cube placed), Zholodov deployed
    in 7 (1 of 1). Sources: no move, Shepard, Schirra, Zholodov (Collins, which fired, is none)."""
    t = scripted(position, [0, 0, 1, 0, *script])
    co = t.put(0, "l3-23", cubes=1)
    cards = (co, t.put(0, "l3-5", cubes=2), t.put(0, "l3-14", cubes=2), t.deploy(0, "l2-27", cubes=1))
    t.turn(0, 1, 1)
    assert t.PS[0, L.PL.ABIL] == 1
    return t, cards


@pytest.mark.parametrize("source,target,cubes,credits", [
    (0, 0, [0, 2, 2, 1], 0),         # no move
    (1, 0, [0, 1, 3, 1], 2),         # Shepard -> the first target, Schirra (which pays 2)
    (3, 2, [1, 2, 2, 0], 0),         # Zholodov -> the last target, Collins: targets Shepard, Schirra, Collins
])
def test_scripted_move_options_are_sources_with_a_cube_then_targets_with_an_empty_square(position, source, target, cubes,
                                                                                        credits):
    t, cards = collins_table(position, [source, target])
    assert [int(t.CUBES[0, c]) for c in cards] == cubes
    assert t.cred(0) == 2 + credits  # the faces 1 + 1
